//! The reader: the crate's one JSON tokenizer, bytes to [`Event`]s, strict RFC 8259,
//! bounded in depth and size, resumable at any byte. A text fed whole or in chunks cut
//! anywhere gives the same events and errors: a cut token is finished from a small carry
//! when the next chunk comes. No recursion: nesting is a [`Stack`] of open containers.
//! Input that stops early is `Truncated` exactly when it is a proper prefix of some valid
//! text (`-`, `tru`, `"\u12`, `[1,` are; `-x`, `[1,]`, `"\uDC` are not).

mod end;
mod escape;
mod input;
mod literal;
mod number;
mod string;
mod tokens;

pub(crate) use number::is_number;

use super::error::ParseError;
use super::event::{Event, Sink};
use super::stack::Stack;
use end::invalid;
use input::{byte_chunk, char_at, skip_whitespace, Bytes, CharAt, Input, Text};
use number::Grammar;
use tokens::{emit, Step, CUT};

/// Bounds on what one read may take. Depth is capped at [`Limits::DEPTH_CEILING`]
/// whatever `max_depth` says: the derived `Drop`, `Clone` and `PartialEq` of a
/// [`Value`](super::Value) recurse, and no setting may turn a deep input into a stack overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and objects accepted (the top-level value is level 1),
    /// at most [`Limits::DEPTH_CEILING`].
    pub max_depth: usize,
    /// Longest input accepted, in bytes.
    pub max_bytes: usize,
}

impl Limits {
    /// The default `max_depth`, from which every other depth limit in the crate derives:
    /// tool arguments nest a handful of levels, so 128 refuses nothing real.
    pub const DEFAULT_MAX_DEPTH: usize = 128;

    /// The deepest nesting any read accepts: a value this deep is dropped, cloned and
    /// compared within a spawned thread's 2 MiB stack, even in a debug build.
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
    /// Offset in the whole input of the next byte to be fed; at most `max_bytes`.
    offset: usize,
    /// What the next token may be (for a token a chunk cut, what may follow it).
    expect: Expect,
    /// The open containers, innermost last: start offset times two, plus one for an object.
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
    /// The sink returned [`ControlFlow::Break`](std::ops::ControlFlow::Break); it knows why.
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

    /// Where a number the last chunk cut begins, if one is being read.
    #[cfg(feature = "stream")]
    pub(crate) fn number_started(&self) -> Option<usize> {
        match self.cut {
            Some(Cut::Number { start, .. }) => Some(start),
            _ => None,
        }
    }

    #[cfg(feature = "stream")]
    /// The text so far of a number the last chunk cut, if one is being read.
    pub(crate) fn number_so_far(&self) -> Option<&str> {
        match self.cut {
            Some(Cut::Number { .. }) => Some(&self.carry.number),
            _ => None,
        }
    }

    #[cfg(feature = "stream")]
    /// Where the string value (not a key) the last chunk ended inside opens, if any.
    pub(crate) fn string_started(&self) -> Option<usize> {
        match &self.cut {
            Some(Cut::Str(string) | Cut::Escape { string, .. } | Cut::Char { string, .. })
                if !string.key =>
            {
                Some(string.quote)
            }
            _ => None,
        }
    }

    #[cfg(feature = "stream")]
    /// An error the text already holds, though the chunk cut the character that decides
    /// whether it is this error or invalid UTF-8: a stream can refuse the text at once.
    pub(crate) fn decided_error(&self) -> Option<&ParseError> {
        match &self.cut {
            Some(Cut::BadChar { error, .. }) => Some(error),
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
    /// for the kinds; [`ErrorKind::InvalidUtf8`](super::ErrorKind::InvalidUtf8) at the first byte that is not UTF-8), or
    /// [`Stop::Sink`] when the sink broke. A chunk that takes the input past
    /// [`Limits::max_bytes`] is [`ErrorKind::TooLarge`](super::ErrorKind::TooLarge) before any of it is read.
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

    /// Reads one character of the text that does not stand in the input as itself (an
    /// escape of an enclosing string literal). Inside a string it comes as
    /// [`Event::StringChar`].
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
        // Each byte as a chunk of its own, from a static table, for the one byte machine.
        let mut utf8 = [0; 4];
        for &byte in c.encode_utf8(&mut utf8).as_bytes() {
            self.run(Bytes(byte_chunk(byte)), &mut None, sink)?;
        }
        Ok(())
    }

    /// [`Reader::feed_str`], then [`Reader::feed_char`] with `next`, as one step: a string,
    /// key or number that runs to the end of `chunk` and that `next` ends comes whole and
    /// borrowed instead of being carried.
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
    /// As [`Reader::feed`], with [`ErrorKind::Truncated`](super::ErrorKind::Truncated) when the text stopped inside a
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
    /// An error decided at `at` by a character the chunk cut (`len` bytes in `carry.char`):
    /// its bytes say whether the error stands or the input is not UTF-8 there.
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
