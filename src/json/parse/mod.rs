//! The parser: bytes to [`Value`], strict RFC 8259, bounded in depth and size.
//!
//! One pass over the input and no recursion. Open arrays and objects live on an explicit
//! stack of frames, so a million `[` meet the depth limit instead of the thread's stack.
//! Each finished value is pushed with its key onto a member stack (an element has the empty
//! key), a scalar in one write; a closing bracket moves the members above its frame into
//! one `Vec` of exactly the right size, so a small object costs one allocation. The stacks,
//! and the buffer strings are unescaped into, are kept per thread between parses: parsing a
//! small document allocates only its non-empty containers and the strings that held an
//! escape.
//!
//! Strings without escapes borrow from the input. String bodies are scanned eight bytes at a
//! time (a `u64` read with `from_le_bytes`, no `unsafe`) for the three bytes that end a fast
//! run: `"`, `\` and a control character. UTF-8 is never checked here: a `&str` is valid by
//! type, and [`parse_bytes`] checks bytes once, up front, with `std::str::from_utf8`.
//!
//! Input that stops early is [`ErrorKind::Truncated`] exactly when it is a proper prefix of
//! some valid text: `-`, `1.`, `tru`, `"\u12`, `[1,` are; `-x`, `[1,]`, `"\uDC` are not.

mod embedded;
mod spare;
mod string;

pub(crate) use embedded::parse_embedded;
pub(crate) use string::{scan_plain, short_escape, surrogate_pair};

use super::error::{ErrorKind, Inside, ParseError, Position};
use super::value::{Member, Number, Value};
use spare::{give_back_spare, take_spare, Spare};
use std::borrow::Cow;

/// Bounds on what one parse may take.
///
/// The parser itself never recurses, but the derived `Drop`, `Clone`, `PartialEq` and
/// `Debug` of the resulting [`Value`] do, one stack frame chain per level. So that no
/// setting can turn a deep input into a stack overflow (an abort, not an error), depth is
/// capped at [`Limits::DEPTH_CEILING`] whatever `max_depth` says.
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

    /// The deepest nesting any parse accepts, whatever `max_depth` says: a value this deep
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

/// Parses a JSON text under the default [`Limits`] (128 levels, 1 MiB).
///
/// ```
/// let value = toolgate::json::parse(r#"{"city": "Zürich", "days": [1, 2]}"#)?;
/// assert_eq!(value.get("city").and_then(|v| v.as_str()), Some("Zürich"));
/// # Ok::<(), toolgate::json::ParseError>(())
/// ```
///
/// # Errors
/// See [`parse_with`].
pub fn parse(text: &str) -> Result<Value<'_>, ParseError> {
    parse_with(text, Limits::default())
}

/// Parses bytes that should be a UTF-8 JSON text under the default [`Limits`].
///
/// # Errors
/// See [`parse_bytes_with`].
pub fn parse_bytes(bytes: &[u8]) -> Result<Value<'_>, ParseError> {
    parse_bytes_with(bytes, Limits::default())
}

/// Parses bytes that should be a UTF-8 JSON text under the given limits.
///
/// # Errors
/// Those of [`parse_with`], and [`ErrorKind::InvalidUtf8`] at the first byte that is not
/// UTF-8, unless a syntax error comes before it. A multi-byte character cut off by the end
/// of the input inside a string is [`ErrorKind::Truncated`].
pub fn parse_bytes_with(bytes: &[u8], limits: Limits) -> Result<Value<'_>, ParseError> {
    if bytes.len() > limits.max_bytes {
        return Err(too_large(bytes, limits));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_with(text, limits),
        Err(utf8) => Err(utf8_error(bytes, &utf8, limits)),
    }
}

/// Parses a JSON text under the given limits.
///
/// # Errors
/// - [`ErrorKind::Truncated`]: the input ended inside a value, or before one started.
/// - [`ErrorKind::Unexpected`]: a character the grammar does not allow where it stands.
/// - [`ErrorKind::InvalidNumber`]: a number against the RFC 8259 grammar (`-x`, `01`).
/// - [`ErrorKind::ControlCharacter`]: an unescaped U+0000 to U+001F in a string.
/// - [`ErrorKind::InvalidEscape`], [`ErrorKind::LoneSurrogate`]: a bad `\` escape.
/// - [`ErrorKind::TrailingCharacters`]: more than whitespace after the value.
/// - [`ErrorKind::TooDeep`], [`ErrorKind::TooLarge`]: beyond `limits`.
pub fn parse_with(text: &str, limits: Limits) -> Result<Value<'_>, ParseError> {
    if text.len() > limits.max_bytes {
        return Err(too_large(text.as_bytes(), limits));
    }
    let mut value = Value::Null;
    parse_text(text, limits, false, &mut value).map_err(|fail| *fail)?;
    Ok(value)
}

/// Parses the one value at the start of `text` (no whitespace before it) into `place` and
/// returns the offset just past it, leaving whatever follows unread: the envelope reads a
/// member's value this way, in one pass, without first scanning for where it ends, and
/// straight into the place it keeps it in (a value returned would be copied on its way).
///
/// `None` where [`parse_with`] would fail on the same value, with `place` untouched: the
/// envelope then hands the whole call to [`parse_with`] for the error, so this one is not
/// carried out.
pub(crate) fn parse_prefix_into<'a>(
    text: &'a str,
    limits: Limits,
    place: &mut Value<'a>,
) -> Option<usize> {
    if text.len() > limits.max_bytes {
        return None;
    }
    parse_text(text, limits, true, place).ok()
}

/// Both entry points' parse, with the error still boxed (see [`Fail`]): the value goes into
/// `root` (only on success), and the offset after it is returned.
fn parse_text<'a>(
    text: &'a str,
    limits: Limits,
    prefix: bool,
    root: &mut Value<'a>,
) -> Result<usize, Fail> {
    let Spare {
        mut frames,
        members,
        unescaped,
    } = take_spare();
    // `Vec<Member<'static>>` is a `Vec<Member<'a>>` by covariance: the spare stack is empty.
    let mut members: Vec<Member<'_>> = members;
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        max_depth: limits.max_depth.min(Limits::DEPTH_CEILING),
        prefix,
        unescaped,
    };
    let result = parser.run(&mut frames, &mut members, root);
    let result = result.map(|()| parser.pos);
    give_back_spare(frames, members, parser.unescaped);
    result
}

/// A parse error on its way out. Boxed so that the `Result`s of the hot path stay small
/// (an error happens at most once per parse, so the allocation costs nothing that matters).
type Fail = Box<ParseError>;

/// An array or object whose closing bracket has not been seen yet.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Offset of its `[` or `{`.
    start: usize,
    /// Length of the scratch member stack when it opened: its own members lie above.
    base: usize,
    is_object: bool,
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// Invariant: `pos <= bytes.len()`, and a `str` is at most `isize::MAX` bytes, so the
    /// small constants added to offsets below never overflow.
    pos: usize,
    max_depth: usize,
    /// Stop after the first complete value instead of requiring the end of the input.
    prefix: bool,
    /// Where a string with escapes is unescaped before it is copied out at its exact size.
    unescaped: String,
}

impl<'a> Parser<'a> {
    /// The whole text: one value, then only whitespace.
    ///
    /// A finished value goes onto `members` with its key (the empty key for an array
    /// element and for the root), pushed once, when it is complete: a scalar as soon as it
    /// is read, so the commonest member costs one write. An array or object cannot wait
    /// for its members in a local, so it pushes its slot (its key and a `Null`
    /// placeholder) when it opens; its members are pushed above the slot, and its closing
    /// bracket moves them into the slot's value. The finished root goes into `root`.
    fn run(
        &mut self,
        frames: &mut Vec<Frame>,
        members: &mut Vec<Member<'a>>,
        root: &mut Value<'a>,
    ) -> Result<(), Fail> {
        // The key of the value about to be read.
        let mut key: Cow<'a, str> = Cow::Borrowed("");
        self.skip_whitespace();
        'value: loop {
            // At the first byte of a value, whitespace skipped, its key in `key`.
            match self.peek() {
                Some(b'"') => {
                    let text = self.parse_string()?;
                    members.push((key, Value::String(text)));
                }
                Some(b'-' | b'0'..=b'9') => {
                    let number = self.parse_number()?;
                    members.push((key, Value::Number(number)));
                }
                Some(b'{') => {
                    members.push((key, Value::Null));
                    self.open(frames, members, true)?;
                    self.skip_whitespace();
                    match self.peek() {
                        Some(b'}') => {
                            self.pos += 1;
                            frames.pop();
                            fill(members, Value::Object(Vec::new()));
                        }
                        Some(b'"') => {
                            key = self.parse_key(frames)?;
                            continue 'value;
                        }
                        Some(_) => return Err(self.unexpected("a string key or '}'")),
                        None => return Err(self.truncated(frames)),
                    }
                }
                Some(b'[') => {
                    members.push((key, Value::Null));
                    self.open(frames, members, false)?;
                    self.skip_whitespace();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        frames.pop();
                        fill(members, Value::Array(Vec::new()));
                    } else {
                        key = Cow::Borrowed("");
                        continue 'value;
                    }
                }
                Some(b't') => {
                    self.parse_literal(b"true", "'true'")?;
                    members.push((key, Value::Bool(true)));
                }
                Some(b'f') => {
                    self.parse_literal(b"false", "'false'")?;
                    members.push((key, Value::Bool(false)));
                }
                Some(b'n') => {
                    self.parse_literal(b"null", "'null'")?;
                    members.push((key, Value::Null));
                }
                Some(_) => return Err(self.unexpected(expected_value(frames, members))),
                None => return Err(self.truncated(frames)),
            }
            // A value is complete: close every container that the input closes right after
            // it, then go on to the next element or member.
            loop {
                self.skip_whitespace();
                let Some(frame) = frames.last().copied() else {
                    if self.prefix {
                        // The value is complete; what follows belongs to the caller.
                        return match members.pop() {
                            Some((_, value)) => {
                                *root = value;
                                Ok(())
                            }
                            None => Err(self.truncated(frames)),
                        };
                    }
                    return match (self.peek(), members.pop()) {
                        (None, Some((_, value))) => {
                            *root = value;
                            Ok(())
                        }
                        (None, None) => Err(self.truncated(frames)),
                        (Some(_), _) => {
                            Err(self.error_with(self.pos, ErrorKind::TrailingCharacters, ""))
                        }
                    };
                };
                match (self.peek(), frame.is_object) {
                    (Some(b','), false) => {
                        self.pos += 1;
                        self.skip_whitespace();
                        key = Cow::Borrowed("");
                        continue 'value;
                    }
                    (Some(b','), true) => {
                        self.pos += 1;
                        self.skip_whitespace();
                        match self.peek() {
                            Some(b'"') => {
                                key = self.parse_key(frames)?;
                                continue 'value;
                            }
                            Some(_) => return Err(self.unexpected("a string key after ','")),
                            None => return Err(self.truncated(frames)),
                        }
                    }
                    (Some(b']'), false) => {
                        self.pos += 1;
                        frames.pop();
                        let items = members.drain(frame.base..).map(|(_, item)| item);
                        let items = Value::Array(items.collect());
                        fill(members, items);
                    }
                    (Some(b'}'), true) => {
                        self.pos += 1;
                        frames.pop();
                        // One copy of the members, at their exact number (`split_off` gives
                        // away the whole buffer only at 0, and the object's slot sits there
                        // or lower).
                        let object = Value::Object(members.split_off(frame.base));
                        fill(members, object);
                    }
                    (Some(_), false) => {
                        return Err(self.unexpected("',' or ']' after an array element"))
                    }
                    (Some(_), true) => {
                        return Err(self.unexpected("',' or '}' after an object member"))
                    }
                    (None, _) => return Err(self.truncated(frames)),
                }
            }
        }
    }

    /// Opens an array or object at `[` or `{` (its slot already on `members`), then steps
    /// past it.
    #[inline(always)]
    fn open(
        &mut self,
        frames: &mut Vec<Frame>,
        members: &[Member<'a>],
        is_object: bool,
    ) -> Result<(), Fail> {
        if frames.len() >= self.max_depth {
            let limit = self.max_depth;
            return Err(self.error(self.pos, ErrorKind::TooDeep { limit }));
        }
        frames.push(Frame {
            start: self.pos,
            base: members.len(),
            is_object,
        });
        self.pos += 1;
        Ok(())
    }

    /// A key, `:` and the whitespace after it; returns the key, for the value that follows.
    #[inline(always)]
    fn parse_key(&mut self, frames: &[Frame]) -> Result<Cow<'a, str>, Fail> {
        let key = self.parse_string()?;
        self.skip_whitespace();
        match self.peek() {
            Some(b':') => self.pos += 1,
            Some(_) => return Err(self.unexpected("':' after an object key")),
            None => return Err(self.truncated(frames)),
        }
        self.skip_whitespace();
        Ok(key)
    }

    /// `true`, `false` or `null`, checked byte by byte so that `tru` at the end of the
    /// input is truncated and `trux` is not.
    #[inline(always)]
    fn parse_literal(&mut self, word: &'static [u8], expected: &'static str) -> Result<(), Fail> {
        let start = self.pos;
        let end = start + word.len();
        if self.bytes.get(start..end) == Some(word) {
            self.pos = end;
            return Ok(());
        }
        for (at, want) in (start..end).zip(word) {
            match self.bytes.get(at) {
                Some(got) if got == want => {}
                Some(_) => return Err(self.unexpected_at(at, expected)),
                None => return Err(self.truncated_at(Inside::Literal, start)),
            }
        }
        // Unreachable: the loop returns unless all bytes matched, which the fast path took.
        Err(self.unexpected_at(start, expected))
    }

    /// A number in the RFC 8259 grammar, borrowed from the input as written.
    #[inline(always)]
    fn parse_number(&mut self) -> Result<Number<'a>, Fail> {
        let start = self.pos;
        let mut pos = start;
        if self.bytes.get(pos) == Some(&b'-') {
            pos += 1;
        }
        match self.bytes.get(pos) {
            Some(b'0') => {
                pos += 1;
                if let Some(b'0'..=b'9') = self.bytes.get(pos) {
                    return Err(
                        self.invalid_number(pos, "a leading 0 must not be followed by a digit")
                    );
                }
            }
            Some(b'1'..=b'9') => pos = self.skip_digits(pos + 1),
            Some(_) => return Err(self.invalid_number(pos, "expected a digit after '-'")),
            None => return Err(self.truncated_at(Inside::Number, start)),
        }
        if self.bytes.get(pos) == Some(&b'.') {
            pos = self.one_or_more_digits(start, pos + 1, "expected a digit after '.'")?;
        }
        if let Some(b'e' | b'E') = self.bytes.get(pos) {
            pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(pos) {
                pos += 1;
            }
            pos = self.one_or_more_digits(start, pos, "expected a digit in the exponent")?;
        }
        self.pos = pos;
        Ok(Number::from_checked(self.slice(start, pos)?))
    }

    #[inline(always)]
    fn skip_digits(&self, mut pos: usize) -> usize {
        while let Some(b'0'..=b'9') = self.bytes.get(pos) {
            pos += 1;
        }
        pos
    }

    #[inline(always)]
    fn one_or_more_digits(
        &self,
        start: usize,
        pos: usize,
        expected: &'static str,
    ) -> Result<usize, Fail> {
        match self.bytes.get(pos) {
            Some(b'0'..=b'9') => Ok(self.skip_digits(pos + 1)),
            Some(_) => Err(self.invalid_number(pos, expected)),
            None => Err(self.truncated_at(Inside::Number, start)),
        }
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// RFC 8259 section 2: whitespace is space, tab, line feed and carriage return only.
    #[inline(always)]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The input between two offsets that sit next to ASCII bytes (so on char boundaries).
    #[inline(always)]
    fn slice(&self, start: usize, end: usize) -> Result<&'a str, Fail> {
        // `get` cannot fail for such offsets; the error only keeps this path panic-free.
        self.text
            .get(start..end)
            .ok_or_else(|| self.error(start, ErrorKind::InvalidUtf8))
    }

    #[cold]
    fn error(&self, offset: usize, kind: ErrorKind) -> Fail {
        self.error_with(offset, kind, "")
    }

    fn error_with(&self, offset: usize, kind: ErrorKind, detail: &'static str) -> Fail {
        Box::new(ParseError {
            kind,
            at: Position::locate(self.bytes, offset),
            detail,
            found: self.text.get(offset..).and_then(|rest| rest.chars().next()),
        })
    }

    #[cold]
    fn invalid_number(&self, offset: usize, detail: &'static str) -> Fail {
        self.error_with(offset, ErrorKind::InvalidNumber, detail)
    }

    #[cold]
    fn unexpected(&self, expected: &'static str) -> Fail {
        self.unexpected_at(self.pos, expected)
    }

    #[cold]
    fn unexpected_at(&self, offset: usize, expected: &'static str) -> Fail {
        let found = self
            .text
            .get(offset..)
            .and_then(|rest| rest.chars().next())
            .unwrap_or('\u{FFFD}');
        self.error(offset, ErrorKind::Unexpected { expected, found })
    }

    /// The input ended inside the innermost open container, or before any value.
    #[cold]
    fn truncated(&self, frames: &[Frame]) -> Fail {
        match frames.last() {
            Some(frame) if frame.is_object => self.truncated_at(Inside::Object, frame.start),
            Some(frame) => self.truncated_at(Inside::Array, frame.start),
            None => self.truncated_at(Inside::Document, self.bytes.len()),
        }
    }

    #[cold]
    fn truncated_at(&self, inside: Inside, start: usize) -> Fail {
        let start = Position::locate(self.bytes, start);
        self.error(self.bytes.len(), ErrorKind::Truncated { inside, start })
    }
}

/// Writes a finished array or object into its slot, the top of the member stack.
#[inline(always)]
fn fill<'a>(members: &mut [Member<'a>], value: Value<'a>) {
    if let Some(slot) = members.last_mut() {
        // The slot holds the `Null` placeholder, which owns nothing: replacing it without
        // running its destructor keeps a call to `drop_in_place` out of the hot loop.
        let placeholder = std::mem::replace(&mut slot.1, value);
        if matches!(placeholder, Value::Null) {
            std::mem::forget(placeholder);
        }
    }
}

/// What a value position wants, in words, for `Unexpected`.
fn expected_value(frames: &[Frame], members: &[Member<'_>]) -> &'static str {
    match frames.last() {
        None => "a JSON value",
        Some(frame) if frame.is_object => "a value after ':'",
        // Nothing lies above the base yet: this is the first element.
        Some(frame) if members.len() == frame.base => "a value or ']'",
        Some(_) => "a value after ','",
    }
}

fn too_large(bytes: &[u8], limits: Limits) -> ParseError {
    ParseError {
        kind: ErrorKind::TooLarge {
            limit: limits.max_bytes,
            size: bytes.len(),
        },
        at: Position::locate(bytes, limits.max_bytes),
        detail: "",
        found: None,
    }
}

/// The error for bytes that are not all UTF-8: a syntax error in the valid part comes first;
/// a character cut off at the very end inside a string is truncation; else `InvalidUtf8`.
fn utf8_error(bytes: &[u8], utf8: &std::str::Utf8Error, limits: Limits) -> ParseError {
    let valid_up_to = utf8.valid_up_to();
    let invalid = ParseError {
        kind: ErrorKind::InvalidUtf8,
        at: Position::locate(bytes, valid_up_to),
        detail: "",
        found: None,
    };
    let valid = bytes.get(..valid_up_to).unwrap_or(&[]);
    let Ok(valid) = std::str::from_utf8(valid) else {
        return invalid;
    };
    if utf8.error_len().is_some() {
        // Bytes that no continuation can make UTF-8: only an earlier syntax error wins.
        return match parse_with(valid, limits) {
            Err(error) if !error.is_truncated() && error.offset() < valid_up_to => error,
            _ => invalid,
        };
    }
    // A cut-off character at the end. It is a prefix of valid text exactly when some
    // character could stand there, so complete it with one and look at the verdict.
    let mut completed = String::with_capacity(valid_up_to + 2);
    completed.push_str(valid);
    completed.push('é');
    let unlimited = Limits {
        max_bytes: usize::MAX,
        ..limits
    };
    match parse_with(&completed, unlimited) {
        Err(error) if error.is_truncated() => ParseError {
            at: Position::locate(bytes, bytes.len()),
            ..error
        },
        Err(error) if error.offset() < valid_up_to => error,
        _ => invalid,
    }
}
