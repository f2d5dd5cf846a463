//! How the reader sees a chunk ([`Input`]): its bytes, and how a run of them becomes a
//! `str`. Two kinds, so that each way of feeding compiles to its own machine: a `str`
//! ([`Text`]) slices without a check, bytes ([`Bytes`]) are checked run by run.

/// A chunk: its bytes, and how a run of them becomes a `str`.
pub(super) trait Input<'a>: Copy {
    fn bytes(self) -> &'a [u8];

    /// The text between two chunk positions that stand next to ASCII bytes or at the
    /// chunk's ends, or the position where it stops being UTF-8.
    fn text(self, start: usize, end: usize) -> Result<&'a str, usize>;

    /// The text from `start` to the chunk's end, with how many bytes of a character cut by
    /// the end follow it; or the position where it stops being UTF-8.
    fn tail(self, start: usize) -> Result<(&'a str, usize), usize>;

    /// The input from `start` to its end, when it is text (see [`Sink::literal`]).
    ///
    /// [`Sink::literal`]: crate::json::Sink::literal
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
