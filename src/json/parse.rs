//! Parsing: a text to a [`Value`], the [`Reader`] driving the one [`Builder`]. Finished
//! members wait on one stack until their container closes, so each container's `Vec` is made
//! once, at its size.

use super::error::ParseError;
use super::event::{Event, Sink};
use super::reader::{Limits, Reader, Stop};
use super::stack::Stack;
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

/// The sink that builds a [`Value`] from a reader's events, borrowing the strings it can
/// ([`Builder::take_owned`] copies them, for a stream's chunks). The root's `Vec` is the
/// member stack itself; a nested container holds a slot on it (its key and itself so far),
/// its members after it.
#[derive(Debug)]
pub(crate) struct Builder<'a> {
    /// The open containers' finished members, outermost first, and a slot for each open
    /// container but the root.
    pub(super) members: Vec<Member<'a>>,
    /// Where each open container's members start in `members`, outermost first: the
    /// root's at 0, a nested one's just past its slot. As many as the reader's depth,
    /// bounded by [`Limits::max_depth`].
    pub(super) starts: Stack,
    /// While a container is open, the root container so far; then the finished value.
    pub(super) root: Option<Value<'a>>,
    /// The key of the value that comes next, from the last [`Event::Key`] (none for an
    /// item, or before a member's key has come).
    pub(super) key: Option<Cow<'a, str>>,
    /// The string value being gathered from parts.
    pub(super) text: String,
}

impl<'a> Builder<'a> {
    /// Room for the open containers' members, taken when the first comes: a call nearly
    /// always fits.
    const MEMBERS: usize = 16;

    /// Room for a string that comes in parts (it holds an escape).
    const TEXT: usize = 64;

    /// A builder that has seen no event.
    pub(crate) fn new() -> Builder<'a> {
        Builder {
            members: Vec::new(),
            starts: Stack::new(),
            root: None,
            key: None,
            text: String::new(),
        }
    }

    /// How many containers are open.
    pub(crate) fn depth(&self) -> usize {
        self.starts.len()
    }

    /// The key of the value that comes next (none for an item), and the key the innermost
    /// open container stands under (none for the root).
    pub(crate) fn keys(&self) -> (Option<&str>, Option<&str>) {
        let container = self
            .starts
            .last()
            .and_then(|start| start.checked_sub(1))
            .and_then(|slot| self.members.get(slot))
            .map(|(key, _)| key.as_ref());
        (self.key.as_deref(), container)
    }

    /// The value built (`Null` if no whole value was given).
    pub(crate) fn take_value(&mut self) -> Value<'a> {
        match self.starts.is_empty() {
            true => self.root.take().unwrap_or(Value::Null),
            false => Value::Null,
        }
    }

    /// Takes one event: the one place events become a tree.
    fn take(&mut self, event: Event<'a>) {
        match event {
            Event::Null => self.value(Value::Null),
            Event::Bool(b) => self.value(Value::Bool(b)),
            Event::Number(n) => self.value(Value::Number(n)),
            Event::String(text) => self.value(Value::String(Cow::Borrowed(text))),
            Event::StringStart => self.text = String::with_capacity(Self::TEXT),
            Event::StringPart(run) => self.text.push_str(run),
            Event::StringChar(c) => self.text.push(c),
            Event::StringEnd => {
                let text = std::mem::take(&mut self.text);
                self.value(Value::String(Cow::Owned(text)));
            }
            Event::Key(key) => self.key = Some(key),
            Event::ArrayStart => self.open(Value::Array(Vec::new())),
            Event::ObjectStart => self.open(Value::Object(Vec::new())),
            Event::ArrayEnd | Event::ObjectEnd => self.close(),
        }
    }

    /// A new container, under the key that came for it.
    fn open(&mut self, container: Value<'a>) {
        if self.starts.is_empty() {
            self.key = None;
            self.root = Some(container);
        } else {
            let key = self.key.take().unwrap_or_default();
            self.push((key, container));
        }
        self.starts.push(self.members.len());
    }

    /// The innermost container ends: its members move into it, and it becomes a value.
    fn close(&mut self) {
        let Some(start) = self.starts.pop() else {
            return;
        };
        let start = start.min(self.members.len());
        let members = match start {
            // The root's members are the whole stack: it becomes the root's `Vec`.
            0 => std::mem::take(&mut self.members),
            _ => self.members.split_off(start),
        };
        let slot = match self.starts.is_empty() {
            true => self.root.take().map(|root| (Cow::Borrowed(""), root)),
            false => self.members.pop(),
        };
        let Some((key, container)) = slot else {
            return;
        };
        let container = match container {
            Value::Object(done) if done.is_empty() => Value::Object(members),
            Value::Object(mut done) => {
                done.extend(members);
                Value::Object(done)
            }
            Value::Array(mut done) => {
                done.extend(members.into_iter().map(|(_, item)| item));
                Value::Array(done)
            }
            other => other,
        };
        self.key = Some(key);
        self.value(container);
    }

    /// A finished value: a member, an item, or the root.
    pub(super) fn value(&mut self, value: Value<'a>) {
        let key = self.key.take().unwrap_or_default();
        if self.starts.is_empty() {
            self.root = Some(value);
        } else {
            self.push((key, value));
        }
    }

    /// Puts a member on the stack.
    fn push(&mut self, member: Member<'a>) {
        if self.members.capacity() == 0 {
            self.members.reserve_exact(Self::MEMBERS);
        }
        self.members.push(member);
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
