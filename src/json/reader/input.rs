//! How the reader sees a chunk ([`Input`]): its bytes, how a run of them becomes a `str`,
//! and where a token begins. Three kinds of chunk, so that each way of feeding is the same
//! byte machine: a `str` ([`Text`]), bytes still to be checked as UTF-8 ([`Bytes`]), and the
//! body of a string literal that holds the text behind its escapes ([`Literal`]).

use std::cell::Cell;

/// A chunk: its bytes, and how a run of them becomes a `str`. Two kinds, so that each way
/// of feeding compiles to its own machine: a `str` is UTF-8 by type and slices without a
/// check; bytes are checked run by run.
pub(super) trait Input<'a>: Copy {
    fn bytes(self) -> &'a [u8];

    /// The text between two chunk positions that stand next to ASCII bytes or at the
    /// chunk's ends, or the position where it stops being UTF-8.
    fn text(self, start: usize, end: usize) -> Result<&'a str, usize>;

    /// The text from `start` to the chunk's end, with how many bytes of a character cut by
    /// the end follow it; or the position where it stops being UTF-8.
    fn tail(self, start: usize) -> Result<(&'a str, usize), usize>;

    /// How many bytes a quote of the text takes in the input: `"` is one, and `\"` in the
    /// body of a string literal that holds the text is two ([`Literal`]).
    const QUOTE: usize = 1;

    /// Whether a quote of the text stands at `pos`, whose byte is `byte`.
    fn is_quote(self, byte: u8, _pos: usize) -> bool {
        byte == b'"'
    }

    /// The byte at `pos` where a token begins, `byte`, as the token's first byte: `"` where
    /// a quote of the text stands, and no token's where a literal's own `"` does.
    fn token(self, byte: u8, pos: usize) -> u8 {
        if Self::QUOTE == 1 {
            byte
        } else if self.is_quote(byte, pos) {
            b'"'
        } else if byte == b'"' {
            0
        } else {
            byte
        }
    }

    /// The position of the first byte at or after `pos` that is not whitespace.
    fn skip_whitespace(self, pos: usize) -> usize {
        skip_whitespace(self.bytes(), pos)
    }

    /// For a [`Literal`], whether its text ends at `pos` (the chunk is read as if it ended
    /// there, which the chunk then remembers); never for a text as it stands.
    fn ends_at(self, _pos: usize) -> bool {
        false
    }

    /// Where the chunk was read to: its end, or where a [`Literal`]'s text ended.
    fn read_to(self) -> usize {
        self.bytes().len()
    }

    /// The character of the text at `pos`, as far as the chunk shows it.
    fn char_at(self, pos: usize) -> CharAt {
        char_at(self.bytes().get(pos..).unwrap_or_default())
    }

    /// The input from chunk position `start` to its end as text, when the input is text as
    /// it stands (see [`Sink::literal`]).
    fn rest(self, _start: usize) -> Option<&'a str> {
        None
    }
}

/// A chunk known to be UTF-8.
#[derive(Clone, Copy)]
pub(super) struct Text<'a>(pub(super) &'a str);

/// A chunk of bytes that should be UTF-8.
#[derive(Clone, Copy)]
pub(super) struct Bytes<'a>(pub(super) &'a [u8]);

impl<'a> Input<'a> for Text<'a> {
    fn bytes(self) -> &'a [u8] {
        self.0.as_bytes()
    }

    fn text(self, start: usize, end: usize) -> Result<&'a str, usize> {
        self.0.get(start..end).ok_or(start)
    }

    fn tail(self, start: usize) -> Result<(&'a str, usize), usize> {
        self.0.get(start..).map(|text| (text, 0)).ok_or(start)
    }

    fn rest(self, start: usize) -> Option<&'a str> {
        self.0.get(start..)
    }
}

/// The body of a JSON string literal that holds the text, from some point of it to the end
/// of the input (see [`Reader::feed_literal`]), read as far as the literal's `\"` and `\\`
/// go: `\"` is the text's quote, and `\\` the text's backslash, which begins one of the
/// text's escapes in a string and is an error anywhere else. The rest stands for itself, so
/// a string of the text between two `\"` goes out whole, borrowed from the literal, from the
/// same loops that read a text as it stands.
///
/// The text's chunk ends at the first byte that is neither: the literal's closing `"`, a
/// control byte, or a backslash that begins any other escape ([`Input::ends_at`]). The
/// reader meets each such byte where it looks for a token or scans a string (none is
/// plain), and reads it as the chunk's end, which `end` keeps.
///
/// Positions in it are not offsets in the text: each `\"` or `\\` is two bytes of the
/// literal for one of the text. The reader lowers its `offset` by one as it steps past each,
/// so that `offset + position` stays the text's offset of what follows (see
/// [`Reader::at`]), and the offset is the text's again at the chunk's end.
#[derive(Clone, Copy)]
pub(super) struct Literal<'a, 'e> {
    pub(super) body: &'a str,
    /// Where the text's chunk ended, once the reader met its end (else the body's end).
    pub(super) end: &'e Cell<usize>,
}

impl<'a> Input<'a> for Literal<'a, '_> {
    const QUOTE: usize = 2;

    fn bytes(self) -> &'a [u8] {
        self.body.as_bytes()
    }

    fn is_quote(self, byte: u8, pos: usize) -> bool {
        byte == b'\\' && self.bytes().get(pos + 1) == Some(&b'"')
    }

    /// Spaces only: the text's other whitespace stands in the literal as escapes, and a
    /// control byte there ends the text (it is the literal's error).
    fn skip_whitespace(self, mut pos: usize) -> usize {
        while let Some(b' ') = self.bytes().get(pos) {
            pos += 1;
        }
        pos
    }

    fn ends_at(self, pos: usize) -> bool {
        let ends = ends_text(self.bytes(), pos);
        if ends {
            self.end.set(pos);
        }
        ends
    }

    fn read_to(self) -> usize {
        self.end.get()
    }

    /// The character of the text: an escape of the literal stands for its second byte.
    fn char_at(self, pos: usize) -> CharAt {
        match self.bytes().get(pos..) {
            Some([b'\\', code, ..]) => CharAt::Valid(char::from(*code)),
            rest => char_at(rest.unwrap_or_default()),
        }
    }

    // Its runs are text as they stand, as a text's are.
    fn text(self, start: usize, end: usize) -> Result<&'a str, usize> {
        Text(self.body).text(start, end)
    }

    fn tail(self, start: usize) -> Result<(&'a str, usize), usize> {
        Text(self.body).tail(start)
    }
}

/// Whether the text a literal holds ends at `pos` of the literal's body (see [`Literal`]):
/// at its closing `"`, a control byte, or a backslash not followed by `"` or `\\`.
pub(super) fn ends_text(bytes: &[u8], pos: usize) -> bool {
    match bytes.get(pos) {
        Some(b'\\') => !matches!(bytes.get(pos + 1), Some(b'"' | b'\\')),
        Some(&byte) => byte == b'"' || byte < 0x20,
        None => false,
    }
}

impl<'a> Input<'a> for Bytes<'a> {
    fn bytes(self) -> &'a [u8] {
        self.0
    }

    fn text(self, start: usize, end: usize) -> Result<&'a str, usize> {
        let run = self.0.get(start..end).unwrap_or_default();
        std::str::from_utf8(run).map_err(|utf8| start + utf8.valid_up_to())
    }

    fn tail(self, start: usize) -> Result<(&'a str, usize), usize> {
        let run = self.0.get(start..).unwrap_or_default();
        match std::str::from_utf8(run) {
            Ok(text) => Ok((text, 0)),
            // Only a chunk of bytes can end inside a character.
            Err(utf8) if utf8.error_len().is_none() => {
                let valid = run.get(..utf8.valid_up_to()).unwrap_or_default();
                let text = std::str::from_utf8(valid).unwrap_or_default();
                Ok((text, run.len() - utf8.valid_up_to()))
            }
            Err(utf8) => Err(start + utf8.valid_up_to()),
        }
    }
}

/// A character at some position of a chunk, as far as the chunk shows it.
pub(super) enum CharAt {
    Valid(char),
    Invalid,
    /// The chunk ends inside it, after this many of its bytes.
    Cut(usize),
}

/// Every byte value once, so that one byte can be read as a `'static` chunk of its own.
pub(super) static BYTES: [u8; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = byte as u8;
        byte += 1;
    }
    table
};

pub(super) fn byte_chunk(byte: u8) -> &'static [u8] {
    let at = usize::from(byte);
    BYTES.get(at..=at).unwrap_or_default()
}

/// The position of the first byte at or after `pos` that is not whitespace (RFC 8259
/// section 2: space, tab, line feed and carriage return only).
pub(super) fn skip_whitespace(bytes: &[u8], mut pos: usize) -> usize {
    // Compact JSON, as models and SDKs write it, has none between most tokens: one test
    // (every whitespace byte is at or below the space) settles that case.
    if bytes.get(pos).is_some_and(|&byte| byte > b' ') {
        return pos;
    }
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(pos) {
        pos += 1;
    }
    pos
}

/// The character at the start of `bytes`, as far as they show it.
pub(super) fn char_at(bytes: &[u8]) -> CharAt {
    let head = bytes.get(..4).unwrap_or(bytes);
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(utf8) if utf8.valid_up_to() > 0 => {
            std::str::from_utf8(head.get(..utf8.valid_up_to()).unwrap_or_default())
                .unwrap_or_default()
        }
        Err(utf8) if utf8.error_len().is_some() => return CharAt::Invalid,
        Err(_) => return CharAt::Cut(head.len()),
    };
    match text.chars().next() {
        Some(c) => CharAt::Valid(c),
        None => CharAt::Cut(0),
    }
}
