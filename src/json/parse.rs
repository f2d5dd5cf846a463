//! Parsing: a text to a [`Value`], the [`Reader`] driving the one [`Builder`].
//!
//! The builder is the sink that turns events into a tree. Each finished value is pushed with
//! its key onto one member stack (an item has the empty key); a closing bracket moves the
//! members above its container's start into one `Vec` of exactly the right size, so a
//! container costs one allocation. A string that came in parts is gathered in one reused
//! buffer and copied out once, at its exact size. For a stream, the open containers can be
//! lent as one partial tree ([`PartialBuilder`](super::PartialBuilder)): each frame then takes
//! the members it has so far into its own container, so that each member is moved there
//! once, however often the tree is lent.

use super::error::ParseError;
use super::event::{Event, Sink};
use super::reader::{Limits, Reader, Stop};
use super::value::{Member, Value};
use std::borrow::Cow;
use std::ops::ControlFlow;

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
/// Those of [`parse_with`], and [`ErrorKind::InvalidUtf8`](super::ErrorKind::InvalidUtf8) at
/// the first byte that is not UTF-8, unless a syntax error comes before it. A multi-byte
/// character cut off by the end of the input inside a string is
/// [`ErrorKind::Truncated`](super::ErrorKind::Truncated).
pub fn parse_bytes_with(bytes: &[u8], limits: Limits) -> Result<Value<'_>, ParseError> {
    let mut reader = Reader::new(limits);
    let mut builder = Builder::new();
    let read = reader.feed(bytes, &mut builder);
    finish(read, &mut reader, &mut builder, bytes)
}

/// Parses a JSON text under the given limits.
///
/// # Errors
/// - [`ErrorKind::Truncated`](super::ErrorKind::Truncated): the input ended inside a value,
///   or before one started.
/// - [`ErrorKind::Unexpected`](super::ErrorKind::Unexpected): a character the grammar does
///   not allow where it stands.
/// - [`ErrorKind::InvalidNumber`](super::ErrorKind::InvalidNumber): a number against the
///   RFC 8259 grammar (`-x`, `01`).
/// - [`ErrorKind::ControlCharacter`](super::ErrorKind::ControlCharacter): an unescaped
///   U+0000 to U+001F in a string.
/// - [`ErrorKind::InvalidEscape`](super::ErrorKind::InvalidEscape),
///   [`ErrorKind::LoneSurrogate`](super::ErrorKind::LoneSurrogate): a bad `\` escape.
/// - [`ErrorKind::TrailingCharacters`](super::ErrorKind::TrailingCharacters): more than
///   whitespace after the value.
/// - [`ErrorKind::TooDeep`](super::ErrorKind::TooDeep),
///   [`ErrorKind::TooLarge`](super::ErrorKind::TooLarge): beyond `limits`.
pub fn parse_with(text: &str, limits: Limits) -> Result<Value<'_>, ParseError> {
    let mut reader = Reader::new(limits);
    let mut builder = Builder::new();
    let read = reader.feed_str(text, &mut builder);
    finish(read, &mut reader, &mut builder, text.as_bytes())
}

/// Ends a parse of the whole `input`: the value, or the error located in the input.
fn finish<'a>(
    read: Result<(), Stop>,
    reader: &mut Reader,
    builder: &mut Builder<'a>,
    input: &[u8],
) -> Result<Value<'a>, ParseError> {
    match read.and_then(|()| reader.finish(builder)) {
        // The builder never breaks.
        Ok(()) | Err(Stop::Sink) => Ok(builder.take_value()),
        Err(Stop::Invalid(error)) => Err(error.locate(input)),
    }
}

/// The sink that builds a [`Value`] from a text's events.
///
/// It takes any well-formed sequence of events (a reader's, or [`replay`](super::replay)'s):
/// what it is given for a value is what the value holds. As a [`Sink`] it borrows the
/// strings it can from the input; a `Builder<'static>` fed through [`Builder::take_owned`]
/// copies them instead, for chunks that do not outlive their feed (a stream).
#[derive(Debug, Default)]
pub(crate) struct Builder<'a> {
    /// The finished members of the open containers, innermost last (an item has the empty
    /// key), not yet in their container.
    pub(super) members: Vec<Member<'a>>,
    /// The open arrays and objects, outermost first. Their number is the reader's depth,
    /// bounded by [`Limits::max_depth`].
    pub(super) frames: Vec<Frame<'a>>,
    /// The key of the value that comes next, from the last [`Event::Key`] (none for an
    /// item, or before a member's key has come).
    pub(super) key: Option<Cow<'a, str>>,
    /// The string value being gathered from parts (empty between strings).
    pub(super) text: String,
    /// The finished top-level value.
    pub(super) root: Option<Value<'a>>,
}

/// An open array or object.
#[derive(Debug)]
pub(super) struct Frame<'a> {
    /// Where its members start in [`Builder::members`].
    pub(super) start: usize,
    /// The key it stands under in its parent (empty for an item or the root).
    pub(super) key: Cow<'a, str>,
    /// An empty array or object, which holds the members the container had when its tree
    /// was last lent (none in a parse of a whole text).
    pub(super) container: Value<'a>,
}

impl<'a> Builder<'a> {
    /// A builder that has seen no event.
    pub(crate) fn new() -> Builder<'a> {
        Builder::default()
    }

    /// The value built (`Null` if no whole value was given).
    pub(crate) fn take_value(&mut self) -> Value<'a> {
        self.root.take().unwrap_or(Value::Null)
    }

    /// Takes one event: the one place events become a tree.
    fn take(&mut self, event: Event<'a>) {
        match event {
            Event::Null => self.value(Value::Null),
            Event::Bool(b) => self.value(Value::Bool(b)),
            Event::Number(n) => self.value(Value::Number(n)),
            Event::String(text) => self.value(Value::String(Cow::Borrowed(text))),
            Event::StringStart => self.text.clear(),
            Event::StringPart(run) => self.text.push_str(run),
            Event::StringChar(c) => self.text.push(c),
            Event::StringEnd => {
                let text = Cow::Owned(self.text.as_str().to_owned());
                self.text.clear();
                self.value(Value::String(text));
            }
            Event::Key(key) => self.key = Some(key),
            Event::ArrayStart => self.open(Value::Array(Vec::new())),
            Event::ObjectStart => self.open(Value::Object(Vec::new())),
            Event::ArrayEnd | Event::ObjectEnd => self.close(),
        }
    }

    /// A new container, under the key that came for it.
    fn open(&mut self, container: Value<'a>) {
        self.frames.push(Frame {
            start: self.members.len(),
            key: self.key.take().unwrap_or_default(),
            container,
        });
    }

    /// The innermost container ends: its members move into it, and it becomes a value.
    fn close(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let start = frame.start.min(self.members.len());
        let container = match frame.container {
            Value::Object(mut done) if !done.is_empty() => {
                done.extend(self.members.drain(start..));
                Value::Object(done)
            }
            Value::Object(_) => Value::Object(self.members.split_off(start)),
            Value::Array(mut done) => {
                let items = self.members.drain(start..).map(|(_, item)| item);
                if done.is_empty() {
                    Value::Array(items.collect())
                } else {
                    done.extend(items);
                    Value::Array(done)
                }
            }
            other => other,
        };
        self.key = Some(frame.key);
        self.value(container);
    }

    /// A finished value: a member, an item, or the root.
    pub(super) fn value(&mut self, value: Value<'a>) {
        let key = self.key.take().unwrap_or_default();
        if self.frames.is_empty() {
            self.root = Some(value);
        } else {
            self.members.push((key, value));
        }
    }
}

impl<'a> Sink<'a> for Builder<'a> {
    fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
        self.take(event);
        ControlFlow::Continue(())
    }
}

#[cfg(feature = "stream")]
impl Builder<'static> {
    /// Takes one event whose text does not outlive the call, owning it: a key or number the
    /// event owns already (a chunk cut it, and the reader gathered it) is moved in, the rest
    /// copied.
    pub(crate) fn take_owned(&mut self, event: Event<'_>) {
        let event = match event {
            Event::String(text) => return self.value(Value::String(Cow::Owned(text.to_owned()))),
            Event::StringPart(run) => return self.text.push_str(run),
            Event::Number(n) => Event::Number(n.into_owned()),
            Event::Key(key) => Event::Key(Cow::Owned(key.into_owned())),
            Event::Null => Event::Null,
            Event::Bool(b) => Event::Bool(b),
            Event::StringStart => Event::StringStart,
            Event::StringChar(c) => Event::StringChar(c),
            Event::StringEnd => Event::StringEnd,
            Event::ArrayStart => Event::ArrayStart,
            Event::ArrayEnd => Event::ArrayEnd,
            Event::ObjectStart => Event::ObjectStart,
            Event::ObjectEnd => Event::ObjectEnd,
        };
        self.take(event);
    }
}
