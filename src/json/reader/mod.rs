//! The reader: the one JSON tokenizer of the crate, bytes to [`Event`]s, strict RFC 8259,
//! bounded in depth and size, resumable at any byte.
//!
//! Every consumer drives it: the `Value` builder behind [`parse`](super::parse), the
//! envelope, the arguments text inside a string literal (fed, piece by piece, through the
//! literal's escapes), and a check that reads a call while it streams. Feeding a text whole or
//! in chunks cut anywhere (inside an escape, a multi-byte character, a number, a literal) is
//! the same code and gives the same events and the same errors: a token that a chunk cuts is
//! finished from a small carry (an escape's bytes, a character's bytes, a number's or a key's
//! text) when the next chunk comes, and a string value comes in parts instead of being
//! buffered. The reader keeps no borrow of the input between calls.
//!
//! Within a chunk the work is tight loops: string bodies are scanned eight bytes at a time
//! for the bytes that end a plain run, runs of digits and whitespace byte by byte, and a
//! string without escapes goes out whole, borrowed from the input. The state machine only
//! matters where a chunk ends.
//!
//! Nesting is a [`Stack`] of the open containers' start offsets, inline for the first levels:
//! no recursion, so a million `[` meet the depth limit instead of the thread's stack.
//!
//! Input that stops early is [`ErrorKind::Truncated`] exactly when it is a proper prefix of
//! some valid text: `-`, `1.`, `tru`, `"\u12`, `[1,` are; `-x`, `[1,]`, `"\uDC` are not.

mod escape;
mod literal;
mod number;
mod string;

pub(crate) use number::is_number;

use super::error::{ErrorKind, Inside, ParseError, Position};
use super::event::{Event, Sink};
use super::stack::Stack;
use super::value::Number;
use escape::{scan_plain, Escape};
use number::{End, Grammar};
use std::borrow::Cow;
use std::cell::Cell;
use std::ops::ControlFlow;

/// Bounds on what one read may take.
///
/// The reader itself never recurses, but the derived `Drop`, `Clone`, `PartialEq` and
/// `Debug` of a [`Value`](super::Value) built from it do, one stack frame chain per level.
/// So that no setting can turn a deep input into a stack overflow (an abort, not an error),
/// depth is capped at [`Limits::DEPTH_CEILING`] whatever `max_depth` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and objects accepted (the top-level value is level 1),
    /// at most [`Limits::DEPTH_CEILING`].
    pub max_depth: usize,
    /// Longest input accepted, in bytes.
    pub max_bytes: usize,
}

impl Limits {
    /// The default `max_depth`, and the one depth every other limit in the crate derives
    /// from (schemas, types, the validator): tool arguments nest a handful of levels, so
    /// 128 refuses nothing real, while it bounds every walk over a value or a schema.
    pub const DEFAULT_MAX_DEPTH: usize = 128;

    /// The deepest nesting any read accepts, whatever `max_depth` says: a value this deep
    /// is dropped, cloned, compared and debug-printed within a 2 MiB thread stack (the size
    /// std gives spawned threads) even in a debug build, which measured safe up to about
    /// 2,000 levels. Tool arguments never come near it.
    pub const DEPTH_CEILING: usize = 1000;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: Limits::DEFAULT_MAX_DEPTH,
            max_bytes: 1 << 20,
        }
    }
}

/// A resumable JSON tokenizer: feed it a text's bytes, whole or in chunks, and it hands a
/// [`Sink`] the text's [`Event`]s, each with the byte offset it starts at.
///
/// ```
/// use std::ops::ControlFlow;
/// use toolgate::json::{Event, Limits, Reader, Sink};
///
/// // Counts the strings of a text, whatever chunks it comes in.
/// struct Strings(usize);
/// impl<'a> Sink<'a> for Strings {
///     fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
///         if matches!(event, Event::String(_) | Event::StringEnd) {
///             self.0 += 1;
///         }
///         ControlFlow::Continue(())
///     }
/// }
///
/// let mut reader = Reader::new(Limits::default());
/// let mut strings = Strings(0);
/// for chunk in [&b"{\"city\": \"Z\xc3"[..], b"\xbcrich\", \"days\": [1, 2]}"] {
///     reader.feed(chunk, &mut strings).unwrap();
/// }
/// reader.finish(&mut strings).unwrap();
/// assert_eq!(strings.0, 1);
/// ```
///
/// After any `Err`, the reader has stopped: every later call returns the same `Err`.
#[derive(Clone, Debug)]
pub struct Reader {
    max_depth: usize,
    max_bytes: usize,
    /// Offset, in the whole input, of the next byte to be fed. Invariant: at most
    /// `max_bytes`, so the chunk positions added to it below cannot overflow.
    offset: usize,
    /// What the next token may be (for a token a chunk cut, what may follow it).
    expect: Expect,
    /// The open arrays and objects, innermost last: each its start offset times two, plus
    /// one for an object. At most `max_depth` entries.
    open: Stack,
    /// The token the last chunk ended inside, if any.
    cut: Option<Cut>,
    carry: Carry,
    stopped: Option<Stop>,
}

/// Why a [`Reader`] stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// The text is not JSON, or breaks the [`Limits`]. Its positions know byte offsets only:
    /// [`ParseError::locate`] counts lines and columns in the text. (Boxed, so that the
    /// reader's results stay small on the path where nothing fails.)
    Invalid(Box<ParseError>),
    /// The sink returned [`ControlFlow::Break`]; it knows why.
    Sink,
}

impl Reader {
    /// A reader at the start of a text, under `limits`.
    pub fn new(limits: Limits) -> Reader {
        Reader {
            max_depth: limits.max_depth.min(Limits::DEPTH_CEILING),
            max_bytes: limits.max_bytes,
            offset: 0,
            expect: Expect::Value,
            open: Stack::new(),
            cut: None,
            carry: Carry {
                number: String::new(),
                key: String::new(),
                escape: [0; 12],
                char: [0; 4],
            },
            stopped: None,
        }
    }

    /// Where a number the last chunk cut begins, if one is being read: its value is not known
    /// until its token ends, but that it is a number is (the streaming check refuses a
    /// number where none can be accepted at its first byte).
    #[cfg(feature = "stream")]
    pub(crate) fn number_started(&self) -> Option<usize> {
        match self.cut {
            Some(Cut::Number { start, .. }) => Some(start),
            _ => None,
        }
    }

    /// How many bytes have been fed (a [`Reader::feed_char`] counts its UTF-8 length).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Reads the next chunk of the text, which may end anywhere. Bytes that are not UTF-8
    /// are an error at the first of them.
    ///
    /// # Errors
    /// [`Stop::Invalid`] with the first error of the text (see [`parse_with`](super::parse_with)
    /// for the kinds; [`ErrorKind::InvalidUtf8`] at the first byte that is not UTF-8), or
    /// [`Stop::Sink`] when the sink broke. A chunk that takes the input past
    /// [`Limits::max_bytes`] is [`ErrorKind::TooLarge`] before any of it is read.
    pub fn feed<'a, S: Sink<'a>>(&mut self, chunk: &'a [u8], sink: &mut S) -> Result<(), Stop> {
        self.run(Bytes(chunk), &mut None, sink)
    }

    /// [`Reader::feed`] for a chunk known to be UTF-8, which is not checked again.
    ///
    /// # Errors
    /// As [`Reader::feed`].
    pub fn feed_str<'a, S: Sink<'a>>(&mut self, chunk: &'a str, sink: &mut S) -> Result<(), Stop> {
        self.run(Text(chunk), &mut None, sink)
    }

    /// Reads one character of the text that does not stand in the input as itself: a
    /// text read through the escapes of an enclosing string literal gets the character an
    /// escape stands for this way. Inside a string, it arrives as [`Event::StringChar`].
    ///
    /// # Errors
    /// As [`Reader::feed`].
    pub fn feed_char<'a, S: Sink<'a>>(&mut self, c: char, sink: &mut S) -> Result<(), Stop> {
        if c == '"' && self.open_quote() {
            return Ok(());
        }
        if let Some(read) = self.body_char(c, sink) {
            return read;
        }
        // Each byte of the character is read as a chunk of its own, from a static table, so
        // that the one byte-level machine reads it (a character never stands whole in it).
        let mut utf8 = [0; 4];
        for &byte in c.encode_utf8(&mut utf8).as_bytes() {
            self.run(Bytes(byte_chunk(byte)), &mut None, sink)?;
        }
        Ok(())
    }

    /// [`Reader::feed_str`], then [`Reader::feed_char`] with `next`, as one step: a string or
    /// key that runs to the end of `chunk` and that `next` closes (a text read through a
    /// literal's escapes, where `\"city\"` is `"`, `city`, `"`) arrives whole and borrowed,
    /// and so does a number that runs to the end of `chunk`, instead of being carried.
    ///
    /// # Errors
    /// As [`Reader::feed`].
    pub fn feed_str_then<'a, S: Sink<'a>>(
        &mut self,
        chunk: &'a str,
        next: char,
        sink: &mut S,
    ) -> Result<(), Stop> {
        let mut next = Some(next);
        self.run(Text(chunk), &mut next, sink)?;
        match next {
            Some(c) => self.feed_char(c, sink),
            None => Ok(()),
        }
    }

    /// Ends the text: a number that ends it is complete and goes to the sink; inside any
    /// other value, or before one, the text is truncated.
    ///
    /// # Errors
    /// As [`Reader::feed`], with [`ErrorKind::Truncated`] when the text stopped inside a
    /// value or before the first one.
    pub fn finish<'a, S: Sink<'a>>(&mut self, sink: &mut S) -> Result<(), Stop> {
        if let Some(stop) = &self.stopped {
            return Err(stop.clone());
        }
        let result = self.end(sink);
        if let Err(stop) = &result {
            self.stopped = Some(stop.clone());
        }
        result
    }
}

/// Where reading a key left the reader.
enum KeyStep {
    /// After the colon: the member's value is next, from this chunk position.
    Value(usize),
    /// A `}` closed an empty object; what follows starts at this chunk position.
    Closed(usize),
    /// The chunk ended (the reader's `expect` or `cut` say where), or an error waits for
    /// the rest of a character.
    Cut,
}

/// What the next token may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A value: the first one, one after `:`, or an array element after `,`.
    Value,
    /// After `[`: a value or `]`.
    FirstElement,
    /// After `{`: a key or `}`.
    FirstKey,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value in an array or object: `,` or the closing bracket.
    AfterValue,
    /// After the top-level value: only whitespace.
    End,
}

/// A string being read.
#[derive(Clone, Copy, Debug)]
struct Str {
    /// Offset of its opening quote.
    quote: usize,
    /// A key (gathered in `carry.key`, sent whole) rather than a value (sent in parts).
    key: bool,
    /// For a value: [`Event::StringStart`] has been sent.
    started: bool,
}

/// A token that the end of a chunk cut.
#[derive(Clone, Debug)]
enum Cut {
    /// Inside a string's body.
    Str(Str),
    /// Inside an escape: its first `len` bytes in `carry.escape`, its backslash at `at`.
    Escape { string: Str, at: usize, len: usize },
    /// Inside a multi-byte character: its first `len` bytes in `carry.char`, from `at`.
    Char { string: Str, at: usize, len: usize },
    /// Inside a number: its text so far in `carry.number`.
    Number { start: usize, grammar: Grammar },
    /// Inside `true`, `false` or `null`, `matched` bytes read.
    Literal {
        start: usize,
        word: Word,
        matched: usize,
    },
    /// An error decided by a character at `at` that is not ASCII, whose bytes the chunk
    /// cut (`len` of them in `carry.char`): only its bytes say whether it is UTF-8, and so
    /// whether the error stands or the input is [`ErrorKind::InvalidUtf8`] there.
    BadChar {
        error: Box<ParseError>,
        at: usize,
        len: usize,
    },
}

/// The small owned buffers that carry a cut token into the next chunk.
#[derive(Clone, Debug)]
struct Carry {
    number: String,
    key: String,
    /// An escape is at most `\uD83D\uDE4F`.
    escape: [u8; 12],
    char: [u8; 4],
}

/// `true`, `false` or `null`.
#[derive(Clone, Copy, Debug)]
enum Word {
    True,
    False,
    Null,
}

impl Word {
    fn text(self) -> &'static [u8] {
        match self {
            Word::True => b"true",
            Word::False => b"false",
            Word::Null => b"null",
        }
    }

    fn expected(self) -> &'static str {
        match self {
            Word::True => "'true'",
            Word::False => "'false'",
            Word::Null => "'null'",
        }
    }

    fn event(self) -> Event<'static> {
        match self {
            Word::True => Event::Bool(true),
            Word::False => Event::Bool(false),
            Word::Null => Event::Null,
        }
    }
}

/// A chunk: its bytes, and how a run of them becomes a `str`. Two kinds, so that each way
/// of feeding compiles to its own machine: a `str` is UTF-8 by type and slices without a
/// check; bytes are checked run by run.
trait Input<'a>: Copy {
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
    #[inline(always)]
    fn is_quote(self, byte: u8, _pos: usize) -> bool {
        byte == b'"'
    }

    /// The byte at `pos` where a token begins, `byte`, as the token's first byte: `"` where
    /// a quote of the text stands, and no token's where a literal's own `"` does.
    #[inline(always)]
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
    #[inline(always)]
    fn skip_whitespace(self, pos: usize) -> usize {
        skip_whitespace(self.bytes(), pos)
    }

    /// For a [`Literal`], whether its text ends at `pos` (the chunk is read as if it ended
    /// there, which the chunk then remembers); never for a text as it stands.
    #[inline(always)]
    fn ends_at(self, _pos: usize) -> bool {
        false
    }

    /// Where the chunk was read to: its end, or where a [`Literal`]'s text ended.
    #[inline(always)]
    fn read_to(self) -> usize {
        self.bytes().len()
    }

    /// The character of the text at `pos`, as far as the chunk shows it.
    #[inline]
    fn char_at(self, pos: usize) -> CharAt {
        char_at(self.bytes().get(pos..).unwrap_or_default())
    }

    /// The input from chunk position `start` to its end as text, when the input is text as
    /// it stands (see [`Sink::literal`]).
    #[inline(always)]
    fn rest(self, _start: usize) -> Option<&'a str> {
        None
    }

    /// The text between `start` and a closing quote at `stop`, when it is one plain run:
    /// no escape, no control character, UTF-8.
    #[inline]
    fn plain(self, start: usize, stop: usize) -> Option<&'a str> {
        if !self.is_quote(*self.bytes().get(stop)?, stop) {
            return None;
        }
        self.text(start, stop).ok()
    }
}

/// A chunk known to be UTF-8.
#[derive(Clone, Copy)]
struct Text<'a>(&'a str);

/// A chunk of bytes that should be UTF-8.
#[derive(Clone, Copy)]
struct Bytes<'a>(&'a [u8]);

impl<'a> Input<'a> for Text<'a> {
    #[inline]
    fn bytes(self) -> &'a [u8] {
        self.0.as_bytes()
    }

    #[inline(always)]
    fn text(self, start: usize, end: usize) -> Result<&'a str, usize> {
        self.0.get(start..end).ok_or(start)
    }

    #[inline]
    fn tail(self, start: usize) -> Result<(&'a str, usize), usize> {
        self.0.get(start..).map(|text| (text, 0)).ok_or(start)
    }

    #[inline(always)]
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
struct Literal<'a, 'e> {
    body: &'a str,
    /// Where the text's chunk ended, once the reader met its end (else the body's end).
    end: &'e Cell<usize>,
}

impl<'a> Input<'a> for Literal<'a, '_> {
    const QUOTE: usize = 2;

    #[inline(always)]
    fn bytes(self) -> &'a [u8] {
        self.body.as_bytes()
    }

    #[inline(always)]
    fn is_quote(self, byte: u8, pos: usize) -> bool {
        byte == b'\\' && self.bytes().get(pos + 1) == Some(&b'"')
    }

    /// Spaces only: the text's other whitespace stands in the literal as escapes, and a
    /// control byte there ends the text (it is the literal's error).
    #[inline(always)]
    fn skip_whitespace(self, mut pos: usize) -> usize {
        while let Some(b' ') = self.bytes().get(pos) {
            pos += 1;
        }
        pos
    }

    #[inline(always)]
    fn ends_at(self, pos: usize) -> bool {
        let ends = ends_text(self.bytes(), pos);
        if ends {
            self.end.set(pos);
        }
        ends
    }

    #[inline(always)]
    fn read_to(self) -> usize {
        self.end.get()
    }

    /// The character of the text: an escape of the literal stands for its second byte.
    #[inline]
    fn char_at(self, pos: usize) -> CharAt {
        match self.bytes().get(pos..) {
            Some([b'\\', code, ..]) => CharAt::Valid(char::from(*code)),
            rest => char_at(rest.unwrap_or_default()),
        }
    }

    // Its runs are text as they stand, as a text's are.
    #[inline(always)]
    fn text(self, start: usize, end: usize) -> Result<&'a str, usize> {
        Text(self.body).text(start, end)
    }

    #[inline]
    fn tail(self, start: usize) -> Result<(&'a str, usize), usize> {
        Text(self.body).tail(start)
    }
}

/// Whether the text a literal holds ends at `pos` of the literal's body (see [`Literal`]):
/// at its closing `"`, a control byte, or a backslash not followed by `"` or `\\`.
#[inline(always)]
fn ends_text(bytes: &[u8], pos: usize) -> bool {
    match bytes.get(pos) {
        Some(b'\\') => !matches!(bytes.get(pos + 1), Some(b'"' | b'\\')),
        Some(&byte) => byte == b'"' || byte < 0x20,
        None => false,
    }
}

impl<'a> Input<'a> for Bytes<'a> {
    #[inline]
    fn bytes(self) -> &'a [u8] {
        self.0
    }

    #[inline]
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
enum CharAt {
    Valid(char),
    Invalid,
    /// The chunk ends inside it, after this many of its bytes.
    Cut(usize),
}

/// Every byte value once, so that one byte can be read as a `'static` chunk of its own.
static BYTES: [u8; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = byte as u8;
        byte += 1;
    }
    table
};

fn byte_chunk(byte: u8) -> &'static [u8] {
    let at = usize::from(byte);
    BYTES.get(at..=at).unwrap_or_default()
}

#[inline(always)]
fn emit<'a, S: Sink<'a>>(sink: &mut S, event: Event<'a>, at: usize) -> Result<(), Stop> {
    match sink.event(event, at) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(Stop::Sink),
    }
}

/// The token functions' answer: the chunk position after the token, or [`CUT`] when the
/// chunk ended first (the token is then in `cut`, or an error waits there for its
/// character). A plain `usize`, not an `Option`, so that the answer comes back in registers.
type Step = Result<usize, Stop>;

/// See [`Step`]: no chunk position is this large.
const CUT: usize = usize::MAX;

impl Reader {
    fn run<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Result<(), Stop> {
        if let Some(stop) = &self.stopped {
            return Err(stop.clone());
        }
        let result = self.read(input, next, sink);
        if let Err(stop) = &result {
            self.stopped = Some(stop.clone());
        }
        result
    }

    fn read<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Result<(), Stop> {
        // A character after the chunk (see `feed_str_then`) counts with it.
        let extra = next.map_or(0, char::len_utf8);
        let end = match self.offset.checked_add(input.bytes().len() + extra) {
            Some(end) if end <= self.max_bytes => end,
            size => {
                let kind = ErrorKind::TooLarge {
                    limit: self.max_bytes,
                    size: size.unwrap_or(usize::MAX),
                };
                return Err(invalid(self.error(kind, self.max_bytes, "")));
            }
        };
        // The character after the chunk counts once it has been read with it. (A literal's
        // `offset` was lowered for each of its escapes: see [`Literal`].)
        let chunk_end = end - extra;
        let pos = match self.cut.take() {
            Some(cut) => self.resume(cut, input, next, sink)?,
            None => 0,
        };
        // `CUT`: the chunk ended inside what the last one left cut.
        if pos != CUT {
            self.tokens(input, pos, next, sink)?;
        }
        self.offset = if I::QUOTE > 1 {
            self.at(input.read_to())
        } else if next.is_none() {
            end
        } else {
            chunk_end
        };
        Ok(())
    }

    /// The offset in the text of chunk position `pos` (see [`Literal`] for why it may
    /// wrap in between).
    #[inline(always)]
    fn at(&self, pos: usize) -> usize {
        self.offset.wrapping_add(pos)
    }

    /// Whether a [`Literal`]'s text ends at chunk position `pos`, where the reader stands
    /// expecting `expect`: if so, the chunk is read as if it ended there.
    #[inline(always)]
    fn literal_ends<'a, I: Input<'a>>(&mut self, input: I, pos: usize, expect: Expect) -> bool {
        let ends = input.ends_at(pos);
        if ends {
            self.expect = expect;
        }
        ends
    }

    /// Steps `offset` past a quote of the text that took `I::QUOTE` bytes of the input.
    #[inline(always)]
    fn pass_quote<'a, I: Input<'a>>(&mut self) {
        self.offset = self.offset.wrapping_sub(I::QUOTE - 1);
    }

    /// The tokens of a chunk from `pos`, until it ends.
    ///
    /// Two loops, as a parser without chunks would have them: one at a value, one after a
    /// value (a comma, a closing bracket); a key and its colon are read on the way from one
    /// to the other. Where the reader stands is only written to `expect` when the chunk
    /// ends.
    fn tokens<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        mut pos: usize,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Result<(), Stop> {
        let bytes = input.bytes();
        // Directly after `[`, where `]` may come.
        let mut first = false;
        let mut at_value = true;
        match self.expect {
            Expect::Value => {}
            Expect::FirstElement => first = true,
            Expect::AfterValue | Expect::End => at_value = false,
            Expect::FirstKey | Expect::Key => {
                let is_first = self.expect == Expect::FirstKey;
                match self.key_at_chunk_start(input, pos, is_first, next, sink)? {
                    KeyStep::Value(after) => pos = after,
                    KeyStep::Closed(after) => {
                        pos = after;
                        at_value = false;
                    }
                    KeyStep::Cut => return Ok(()),
                }
            }
            Expect::Colon => match self.colon(input, pos)? {
                KeyStep::Value(after) => pos = after,
                KeyStep::Closed(_) | KeyStep::Cut => return Ok(()),
            },
        }
        'value: loop {
            if at_value {
                pos = input.skip_whitespace(pos);
                let Some(&byte) = bytes.get(pos) else {
                    self.expect = if first {
                        Expect::FirstElement
                    } else {
                        Expect::Value
                    };
                    return Ok(());
                };
                let at = self.at(pos);
                let step = match input.token(byte, pos) {
                    b'"' => {
                        // A string without escapes that the chunk holds whole: the commonest
                        // value, read here in one scan.
                        let body = pos + I::QUOTE;
                        let stop = scan_plain(bytes, body);
                        self.pass_quote::<I>();
                        match input.plain(body, stop) {
                            Some(text) => {
                                emit(sink, Event::String(text), at)?;
                                self.pass_quote::<I>();
                                stop + I::QUOTE
                            }
                            None => {
                                let string = Str {
                                    quote: at,
                                    key: false,
                                    started: false,
                                };
                                if stop >= bytes.len() {
                                    // The chunk ends in the string's first run (a stream's
                                    // chunk, nearly every time): that run, without scanning
                                    // it again.
                                    self.string_cut(input, body, string, next, sink)?
                                } else {
                                    match input.rest(body).and_then(|rest| sink.literal(at, rest)) {
                                        Some(read) => self
                                            .after_literal(input, body, read, string, next, sink)?,
                                        None => self.string(input, body, string, next, sink)?,
                                    }
                                }
                            }
                        }
                    }
                    b'{' => {
                        self.open(true, at, pos, input, sink)?;
                        match self.member_key(input, pos + 1, true, next, sink)? {
                            KeyStep::Value(after) => {
                                pos = after;
                                first = false;
                                continue 'value;
                            }
                            KeyStep::Closed(after) => after,
                            KeyStep::Cut => return Ok(()),
                        }
                    }
                    b'[' => {
                        self.open(false, at, pos, input, sink)?;
                        pos += 1;
                        first = true;
                        continue 'value;
                    }
                    b']' if first => {
                        self.close(at, sink)?;
                        pos + 1
                    }
                    b'-' | b'0'..=b'9' => self.number(input, pos, next, sink)?,
                    b't' => self.literal(Word::True, input, pos, sink)?,
                    b'f' => self.literal(Word::False, input, pos, sink)?,
                    b'n' => self.literal(Word::Null, input, pos, sink)?,
                    _ => {
                        let expect = if first {
                            Expect::FirstElement
                        } else {
                            Expect::Value
                        };
                        if self.literal_ends(input, pos, expect) {
                            return Ok(());
                        }
                        let expected = self.expected_value(first);
                        return self.unexpected(expected, input, pos);
                    }
                };
                if step == CUT {
                    self.expect = self.after_value();
                    return Ok(());
                }
                pos = step;
            }
            at_value = true;
            first = false;
            // After a value: close what the input closes, then on to the next one.
            loop {
                pos = input.skip_whitespace(pos);
                let Some(&byte) = bytes.get(pos) else {
                    self.expect = self.after_value();
                    return Ok(());
                };
                let Some(top) = self.open.last() else {
                    if self.literal_ends(input, pos, Expect::End) {
                        return Ok(());
                    }
                    let error = self.error(ErrorKind::TrailingCharacters, self.at(pos), "");
                    return self.fail_at(error, input, pos);
                };
                match (byte, top & 1 == 1) {
                    (b',', false) => {
                        pos += 1;
                        continue 'value;
                    }
                    (b',', true) => match self.member_key(input, pos + 1, false, next, sink)? {
                        KeyStep::Value(after) => {
                            pos = after;
                            continue 'value;
                        }
                        KeyStep::Closed(after) => pos = after,
                        KeyStep::Cut => return Ok(()),
                    },
                    (b']', false) | (b'}', true) => {
                        self.close(self.at(pos), sink)?;
                        pos += 1;
                    }
                    (_, in_object) => return self.not_after_value(in_object, input, pos),
                }
            }
        }
    }

    /// A key and its colon from chunk position `pos` (after `{` when `first`, where `}`
    /// may come instead, else after `,`). Inlined into the value loop, at its two sites (after
    /// `{` and after `,`): out of line, every key paid a call with six saved registers and
    /// its answer through memory.
    #[inline(always)]
    fn member_key<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        pos: usize,
        first: bool,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Result<KeyStep, Stop> {
        let bytes = input.bytes();
        let pos = input.skip_whitespace(pos);
        let Some(&byte) = bytes.get(pos) else {
            self.expect = if first { Expect::FirstKey } else { Expect::Key };
            return Ok(KeyStep::Cut);
        };
        let at = self.at(pos);
        match input.token(byte, pos) {
            b'"' => {
                let body = pos + I::QUOTE;
                let stop = scan_plain(bytes, body);
                self.pass_quote::<I>();
                let after = match input.plain(body, stop) {
                    Some(key) => {
                        emit(sink, Event::Key(Cow::Borrowed(key)), at)?;
                        self.pass_quote::<I>();
                        stop + I::QUOTE
                    }
                    None => {
                        let string = Str {
                            quote: at,
                            key: true,
                            started: false,
                        };
                        // Cut in its first run, as a string value may be.
                        if stop >= bytes.len() {
                            self.string_cut(input, body, string, next, sink)?
                        } else {
                            self.string(input, body, string, next, sink)?
                        }
                    }
                };
                if after == CUT {
                    self.expect = Expect::Colon;
                    return Ok(KeyStep::Cut);
                }
                // The colon right after the key, the common case, without a call.
                if bytes.get(after) == Some(&b':') {
                    return Ok(KeyStep::Value(after + 1));
                }
                self.colon(input, after)
            }
            b'}' if first => {
                self.close(at, sink)?;
                Ok(KeyStep::Closed(pos + 1))
            }
            _ => {
                let expect = if first { Expect::FirstKey } else { Expect::Key };
                if self.literal_ends(input, pos, expect) {
                    return Ok(KeyStep::Cut);
                }
                let expected = if first {
                    "a string key or '}'"
                } else {
                    "a string key after ','"
                };
                self.unexpected(expected, input, pos).map(|()| KeyStep::Cut)
            }
        }
    }

    /// [`Reader::member_key`] where a chunk starts at a key: once a chunk, so kept out of
    /// line, while the loop's two sites have it inlined.
    #[inline(never)]
    fn key_at_chunk_start<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        pos: usize,
        first: bool,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Result<KeyStep, Stop> {
        self.member_key(input, pos, first, next, sink)
    }

    /// The colon after a key, from chunk position `pos`.
    #[inline(always)]
    fn colon<'a, I: Input<'a>>(&mut self, input: I, pos: usize) -> Result<KeyStep, Stop> {
        let pos = input.skip_whitespace(pos);
        match input.bytes().get(pos) {
            Some(b':') => Ok(KeyStep::Value(pos + 1)),
            Some(_) if self.literal_ends(input, pos, Expect::Colon) => Ok(KeyStep::Cut),
            Some(_) => self
                .unexpected("':' after an object key", input, pos)
                .map(|()| KeyStep::Cut),
            None => {
                self.expect = Expect::Colon;
                Ok(KeyStep::Cut)
            }
        }
    }

    /// A number from chunk position `pos`.
    #[inline(always)]
    fn number<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        pos: usize,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Step {
        let bytes = input.bytes();
        let (grammar, end) = Grammar::Start.scan(bytes, pos);
        let complete = match bytes.get(end) {
            // A literal's text that ends here may go on with the number.
            Some(_) if input.ends_at(end) => false,
            Some(&byte) => match grammar.end_at(byte) {
                End::Complete => true,
                End::Broken(detail) => {
                    let error = self.error(ErrorKind::InvalidNumber, self.at(end), detail);
                    return self.fail_at(error, input, end).map(|()| CUT);
                }
            },
            // A number that ends the chunk is complete if `next` cannot go on with it.
            None => {
                grammar.is_complete()
                    && next.is_some_and(|c| !matches!(c, '0'..='9' | '.' | 'e' | 'E' | '+' | '-'))
            }
        };
        let start = self.at(pos);
        if complete {
            // Number bytes are ASCII, so this check cannot fail.
            let text = input.text(pos, end).unwrap_or_default();
            let number = Number::from_checked(Cow::Borrowed(text));
            emit(sink, Event::Number(number), start)?;
            return Ok(end);
        }
        self.carry_number(bytes.get(pos..end).unwrap_or_default(), start, grammar);
        Ok(CUT)
    }

    /// A number the chunk's end cut, its text so far `text` from offset `start`: carried
    /// into the next chunk. Out of line, off the path of the number that stands whole.
    #[cold]
    #[inline(never)]
    fn carry_number(&mut self, text: &[u8], start: usize, grammar: Grammar) {
        self.carry.number.clear();
        self.carry
            .number
            .extend(text.iter().map(|&b| char::from(b)));
        self.cut = Some(Cut::Number { start, grammar });
    }

    /// `true`, `false` or `null` from chunk position `pos`, checked byte by byte so that
    /// `tru` at the end of the input is truncated and `trux` is not. Inlined at each of its
    /// three sites, where the word is known and the comparison is one load.
    #[inline(always)]
    fn literal<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        word: Word,
        input: I,
        pos: usize,
        sink: &mut S,
    ) -> Step {
        let text = word.text();
        let end = pos + text.len();
        if input.bytes().get(pos..end) == Some(text) {
            emit(sink, word.event(), self.at(pos))?;
            return Ok(end);
        }
        self.literal_rest(word, self.at(pos), 0, input, pos, sink)
    }

    /// The rest of a literal that starts at `start`, `matched` bytes read, from chunk
    /// position `pos`: a literal a chunk cut, or one that is not what it began as. Out of
    /// line, so that the value loop holds only the literal that stands whole.
    #[cold]
    #[inline(never)]
    fn literal_rest<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        word: Word,
        start: usize,
        matched: usize,
        input: I,
        mut pos: usize,
        sink: &mut S,
    ) -> Step {
        let first = pos;
        for &want in word.text().get(matched..).unwrap_or_default() {
            match input.bytes().get(pos) {
                Some(&got) if got == want => pos += 1,
                Some(_) if !input.ends_at(pos) => {
                    return self.unexpected(word.expected(), input, pos).map(|()| CUT)
                }
                _ => {
                    let matched = matched + (pos - first);
                    self.cut = Some(Cut::Literal {
                        start,
                        word,
                        matched,
                    });
                    return Ok(CUT);
                }
            }
        }
        emit(sink, word.event(), start)?;
        Ok(pos)
    }

    /// Opens an array or object at its bracket (offset `at`, chunk position `pos`).
    /// Inlined, as `close` is, whatever the sink: with a larger sink (a turn's pass) the
    /// compiler kept both out of line, one call per bracket (callgrind: check_turn 95
    /// instructions a call fewer inlined; check_call, verdict and the stream no worse).
    #[inline(always)]
    fn open<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        is_object: bool,
        at: usize,
        pos: usize,
        input: I,
        sink: &mut S,
    ) -> Result<(), Stop> {
        if self.open.len() >= self.max_depth {
            let kind = ErrorKind::TooDeep {
                limit: self.max_depth,
            };
            let error = self.error(kind, at, "");
            return self.fail_at(error, input, pos);
        }
        // Offsets are at most `max_bytes <= usize::MAX`; a text that long cannot be held
        // in memory, so doubling one cannot overflow in practice, and saturates if it does.
        self.open
            .push(at.saturating_mul(2) | usize::from(is_object));
        let event = if is_object {
            Event::ObjectStart
        } else {
            Event::ArrayStart
        };
        emit(sink, event, at)
    }

    /// Closes the innermost container at its bracket (offset `at`).
    #[inline(always)]
    fn close<'a, S: Sink<'a>>(&mut self, at: usize, sink: &mut S) -> Result<(), Stop> {
        let event = match self.open.pop() {
            Some(entry) if entry & 1 == 1 => Event::ObjectEnd,
            _ => Event::ArrayEnd,
        };
        emit(sink, event, at)
    }

    /// What follows a complete value.
    #[inline]
    fn after_value(&self) -> Expect {
        if self.open.len() == 0 {
            Expect::End
        } else {
            Expect::AfterValue
        }
    }

    /// What a value position wants, in words, for `Unexpected` (`first`: right after `[`).
    fn expected_value(&self, first: bool) -> &'static str {
        match self.open.last() {
            _ if first => "a value or ']'",
            None => "a JSON value",
            Some(entry) if entry & 1 == 1 => "a value after ':'",
            Some(_) => "a value after ','",
        }
    }

    /// The end of the input.
    fn end<'a, S: Sink<'a>>(&mut self, sink: &mut S) -> Result<(), Stop> {
        match self.cut.take() {
            None => {}
            Some(Cut::Number { start, grammar }) => {
                if !grammar.is_complete() {
                    return Err(invalid(self.truncated(Inside::Number, start)));
                }
                let text = std::mem::take(&mut self.carry.number);
                let number = Number::from_checked(Cow::Owned(text));
                emit(sink, Event::Number(number), start)?;
            }
            Some(Cut::Literal { start, .. }) => {
                return Err(invalid(self.truncated(Inside::Literal, start)))
            }
            Some(Cut::Str(string) | Cut::Char { string, .. }) => {
                return Err(invalid(self.truncated(Inside::String, string.quote)))
            }
            Some(Cut::Escape { string, at, len }) => {
                let escape = self.carry.escape.get(..len).unwrap_or_default();
                let error = match escape::decode(escape, true) {
                    Escape::Broken(broken) => match broken.kind.error_kind() {
                        Some(kind) => self.error(kind, at + broken.report, broken.detail),
                        None => self.truncated(Inside::String, string.quote),
                    },
                    // Cannot happen: the escape was undecided without the end.
                    Escape::Char(..) | Escape::NeedMore => {
                        self.truncated(Inside::String, string.quote)
                    }
                };
                return Err(invalid(error));
            }
            Some(Cut::BadChar { error, at, .. }) => {
                // The character was cut by the end of the input. Some character could have
                // stood there, so the error stands if it was found before it; an error at
                // the character itself is the invalid UTF-8 there.
                if error.at.offset < at {
                    return Err(Stop::Invalid(error));
                }
                return Err(invalid(self.error(ErrorKind::InvalidUtf8, at, "")));
            }
        }
        if self.expect == Expect::End {
            return Ok(());
        }
        let error = match self.open.last() {
            Some(entry) if entry & 1 == 1 => self.truncated(Inside::Object, entry / 2),
            Some(entry) => self.truncated(Inside::Array, entry / 2),
            None => self.truncated(Inside::Document, self.offset),
        };
        Err(invalid(error))
    }

    /// The next bytes of a character whose first `len` bytes are in `carry.char`, from the
    /// start of `bytes`; with how many of them it took.
    fn complete_char(&mut self, mut len: usize, bytes: &[u8]) -> (CharAt, usize) {
        let mut used = 0;
        loop {
            match char_at(self.carry.char.get(..len).unwrap_or_default()) {
                CharAt::Cut(_) => {}
                done => return (done, used),
            }
            match (bytes.get(used), self.carry.char.get_mut(len)) {
                (Some(&byte), Some(slot)) => *slot = byte,
                _ => return (CharAt::Cut(len), used),
            }
            len += 1;
            used += 1;
        }
    }

    /// Fails with `error`, decided by the byte at chunk position `decided`. When that byte
    /// is not ASCII, its character decides the answer: not UTF-8, the input is invalid there
    /// (RFC 8259 section 8.1: JSON text is UTF-8); cut by the chunk, the answer waits for
    /// the next one. An error reported at the deciding byte says which character it found.
    #[cold]
    #[inline(never)]
    fn fail_at<'a>(
        &mut self,
        mut error: ParseError,
        input: impl Input<'a>,
        decided: usize,
    ) -> Result<(), Stop> {
        let at = self.at(decided);
        let found = match input.bytes().get(decided..) {
            Some(rest) if !rest.is_empty() => input.char_at(decided),
            _ => return Err(invalid(error)),
        };
        match found {
            CharAt::Valid(c) => {
                if error.at.offset == at {
                    error.set_found(c);
                }
                Err(invalid(error))
            }
            CharAt::Invalid => Err(invalid(self.error(ErrorKind::InvalidUtf8, at, ""))),
            CharAt::Cut(len) => {
                let partial = input.bytes().get(decided..).unwrap_or_default();
                if let Some(carry) = self.carry.char.get_mut(..len) {
                    carry.copy_from_slice(partial);
                }
                self.cut = Some(Cut::BadChar {
                    error: Box::new(error),
                    at,
                    len,
                });
                Ok(())
            }
        }
    }

    /// What is at chunk position `pos` after a value in an object (`in_object`) or array
    /// does not go on with it: `Unexpected`, unless a [`Literal`]'s text ends there. Out of
    /// line, as the error is: with the literal's check inlined, the loop after a value measured
    /// slower for a text (`bench parse`, big.json: 1.6% more instructions).
    #[cold]
    #[inline(never)]
    fn not_after_value<'a>(
        &mut self,
        in_object: bool,
        input: impl Input<'a>,
        pos: usize,
    ) -> Result<(), Stop> {
        if self.literal_ends(input, pos, Expect::AfterValue) {
            return Ok(());
        }
        let expected = match in_object {
            false => "',' or ']' after an array element",
            true => "',' or '}' after an object member",
        };
        self.unexpected(expected, input, pos)
    }

    /// `Unexpected` at chunk position `pos`.
    #[cold]
    #[inline(never)]
    fn unexpected<'a>(
        &mut self,
        expected: &'static str,
        input: impl Input<'a>,
        pos: usize,
    ) -> Result<(), Stop> {
        let kind = ErrorKind::Unexpected {
            expected,
            found: '\u{FFFD}',
        };
        let error = self.error(kind, self.at(pos), "");
        self.fail_at(error, input, pos)
    }

    #[cold]
    fn error(&self, kind: ErrorKind, at: usize, detail: &'static str) -> ParseError {
        ParseError {
            kind,
            at: Position::offset_only(at),
            detail,
            found: None,
        }
    }

    /// The input ended inside a value that started at `start`.
    #[cold]
    fn truncated(&self, inside: Inside, start: usize) -> ParseError {
        let kind = ErrorKind::Truncated {
            inside,
            start: Position::offset_only(start),
        };
        self.error(kind, self.offset, "")
    }
}

/// The position of the first byte at or after `pos` that is not whitespace (RFC 8259
/// section 2: space, tab, line feed and carriage return only).
#[inline(always)]
fn skip_whitespace(bytes: &[u8], mut pos: usize) -> usize {
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

fn invalid(error: ParseError) -> Stop {
    Stop::Invalid(Box::new(error))
}

/// The character at the start of `bytes`, as far as they show it.
fn char_at(bytes: &[u8]) -> CharAt {
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
