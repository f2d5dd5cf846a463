//! `ParseError`: what went wrong in a JSON text, and where.
//!
//! Ending early is its own kind ([`ErrorKind::Truncated`], like serde_json's
//! `Category::Eof`): a reply cut off at the model's token limit needs a smaller call, not a
//! syntax fix, so the gate must be able to tell the two apart.

use std::fmt;

/// A JSON text that could not be parsed: the condition and its byte offset.
///
/// Line and column (1-based, columns counted in characters) are computed from the input
/// only when an error is made, never on the success path. A [`Reader`](super::Reader) keeps
/// no text, so its errors know byte offsets only (line and column 0) until whoever holds the
/// text counts them with [`ParseError::locate`]; the `parse` functions do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub(crate) kind: ErrorKind,
    pub(crate) at: Position,
    /// For the kinds without data of their own (`InvalidNumber`, `InvalidEscape`,
    /// `LoneSurrogate`, `TrailingCharacters`): what the grammar wanted, in words, so that
    /// the message can say it. Empty when the kind says it all.
    pub(crate) detail: &'static str,
    /// The character at the error's offset, when there is one, so that the message can
    /// say what arrived.
    pub(crate) found: Option<char>,
}

/// A place in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Byte offset from the start of the input.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// The condition a [`ParseError`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value: every proper prefix of a valid text that is not
    /// itself valid, and nothing else.
    Truncated {
        /// What was open when the input ended.
        inside: Inside,
        /// Where that value started.
        start: Position,
    },
    /// A character that cannot stand here.
    Unexpected {
        /// What the grammar allows here, in words (`"',' or '}' after an object member"`).
        expected: &'static str,
        /// The character found instead.
        found: char,
    },
    /// A number that breaks the RFC 8259 grammar: `-x`, `1.x`, `1ex`, or a leading zero
    /// followed by a digit (`01`). (`-`, `1.` and `1e` at the very end of the input are
    /// [`ErrorKind::Truncated`]: more input could still make them numbers.)
    InvalidNumber,
    /// An unescaped control character (U+0000 to U+001F) inside a string.
    ControlCharacter {
        /// The byte found.
        byte: u8,
    },
    /// A backslash followed by something other than `"\/bfnrtu`, or `\u` not followed
    /// by four hex digits (`"\u 0041"` included: no whitespace inside a token).
    InvalidEscape,
    /// A `\uD800`-`\uDFFF` escape that is not part of a high-low surrogate pair. RFC 8259
    /// section 8.2 leaves such strings to the implementation; they cannot be held in a Rust
    /// `str`, and replacing them would change what the model sent, so they are refused.
    LoneSurrogate,
    /// More than whitespace after the value.
    TrailingCharacters,
    /// Nesting deeper than [`Limits::max_depth`](super::Limits).
    TooDeep {
        /// The limit in force.
        limit: usize,
    },
    /// Input longer than [`Limits::max_bytes`](super::Limits).
    TooLarge {
        /// The limit in force.
        limit: usize,
        /// The input's length in bytes.
        size: usize,
    },
    /// Bytes that are not UTF-8.
    InvalidUtf8,
}

/// What kind of value the input ended inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inside {
    /// Nothing at all, or only whitespace: the value never started.
    Document,
    /// `true`, `false` or `null`, cut short.
    Literal,
    /// A number, cut short.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl ParseError {
    /// This error with its line and column counted in `input`, the text the reader was fed
    /// (and, for [`ErrorKind::Truncated`], those of the value that was open).
    pub fn locate(mut self, input: &[u8]) -> ParseError {
        self.at = Position::locate(input, self.at.offset);
        if let ErrorKind::Truncated { start, .. } = &mut self.kind {
            *start = Position::locate(input, start.offset);
        }
        self
    }

    /// Records `found` as the character at the error's offset (in an
    /// [`ErrorKind::Unexpected`], too).
    pub(crate) fn set_found(&mut self, found: char) {
        self.found = Some(found);
        if let ErrorKind::Unexpected {
            found: kind_found, ..
        } = &mut self.kind
        {
            *kind_found = found;
        }
    }

    /// The condition.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// True when the input simply stopped: a cut-off reply, fixed by a smaller call.
    pub fn is_truncated(&self) -> bool {
        matches!(self.kind, ErrorKind::Truncated { .. })
    }

    /// Byte offset of the error in the input.
    pub fn offset(&self) -> usize {
        self.at.offset
    }

    /// 1-based line of the error.
    pub fn line(&self) -> usize {
        self.at.line
    }

    /// 1-based column of the error, in characters.
    pub fn column(&self) -> usize {
        self.at.column
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, column) = (self.at.line, self.at.column);
        match &self.kind {
            ErrorKind::Truncated { inside, start } => match inside {
                Inside::Document => {
                    f.write_str("the input is empty or only whitespace: expected a JSON value")
                }
                _ => write!(
                    f,
                    "the input ended inside {} that starts at line {}, column {}",
                    inside.noun(),
                    start.line,
                    start.column
                ),
            },
            ErrorKind::Unexpected { expected, found } => write!(
                f,
                "expected {expected} at line {line}, column {column}, found {found:?}"
            ),
            ErrorKind::ControlCharacter { byte } => write!(
                f,
                "unescaped control character U+{byte:04X} in a string at line {line}, \
                 column {column}: write it as an escape such as \\n or \\u{byte:04x}"
            ),
            ErrorKind::InvalidNumber
            | ErrorKind::InvalidEscape
            | ErrorKind::LoneSurrogate
            | ErrorKind::TrailingCharacters => {
                let what = match self.kind {
                    ErrorKind::InvalidNumber => "invalid number",
                    ErrorKind::InvalidEscape => "invalid escape",
                    ErrorKind::LoneSurrogate => "lone surrogate escape",
                    _ => "expected the end of the input after the JSON value",
                };
                write!(f, "{what} at line {line}, column {column}")?;
                if !self.detail.is_empty() {
                    write!(f, ": {}", self.detail)?;
                }
                match self.found {
                    Some(found) => write!(f, ", found {found:?}"),
                    None => Ok(()),
                }
            }
            ErrorKind::TooDeep { limit } => write!(
                f,
                "nesting deeper than {limit} levels at line {line}, column {column}"
            ),
            ErrorKind::TooLarge { limit, size } => {
                write!(
                    f,
                    "the input is {size} bytes, more than the limit of {limit} bytes"
                )
            }
            ErrorKind::InvalidUtf8 => write!(
                f,
                "invalid UTF-8 at byte {} (line {line}, column {column})",
                self.at.offset
            ),
        }
    }
}

impl std::error::Error for ParseError {}

impl Inside {
    /// The value's kind with its article, for messages (`"a string"`, `"an object"`).
    pub fn noun(self) -> &'static str {
        match self {
            Inside::Document => "the document",
            Inside::Literal => "a literal",
            Inside::Number => "a number",
            Inside::String => "a string",
            Inside::Array => "an array",
            Inside::Object => "an object",
        }
    }
}

impl Position {
    /// The position of byte `offset` before its line and column are counted (both 0): what
    /// a reader, which keeps no text, knows.
    pub(crate) fn offset_only(offset: usize) -> Position {
        Position {
            offset,
            line: 0,
            column: 0,
        }
    }

    /// The position of byte `offset` in `input`: lines are counted by `\n`, columns in
    /// characters (UTF-8 continuation bytes are not counted), both from 1.
    ///
    /// Called only when an error is made, so its linear scan costs nothing on success.
    pub(crate) fn locate(input: &[u8], offset: usize) -> Position {
        let before = input.get(..offset).unwrap_or(input);
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |newline| newline + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + before
            .get(line_start..)
            .unwrap_or(&[])
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        Position {
            offset,
            line,
            column,
        }
    }
}
