//! Parsing: a text to a [`Value`], the [`Reader`] driving a [`Builder`].
//!
//! The builder is the sink that turns events into a tree. Each finished value is pushed with
//! its key onto one member stack (an element has the empty key); a closing bracket moves the
//! members above its container's slot into one `Vec` of exactly the right size, so a small
//! object costs one allocation. The top-level container's members sit at the bottom of the
//! stack, so when it closes the stack itself becomes its `Vec`: a flat object costs one
//! allocation in all. A string that came in parts is gathered as a list of pieces and
//! copied out once, at its exact size.

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

/// The sink that builds a [`Value`] from a text's events.
///
/// It takes any well-formed sequence of events (a reader's, or [`replay`](super::replay)'s):
/// what it is given for a value is what the value holds.
#[derive(Debug)]
pub(crate) struct Builder<'a> {
    tree: Tree<'a>,
    /// The string value being gathered from parts.
    pieces: Pieces<'a>,
}

/// What a builder has finished and where it stands: the open containers and the root.
/// Apart from how strings are gathered, so that [`OwnedBuilder`] shares it.
#[derive(Debug)]
struct Tree<'a> {
    /// The finished members of the open containers, innermost last (an element has the
    /// empty key). The top-level container's members start at 0; a nested container has a
    /// slot (its key and a `Null` placeholder) with its members above it.
    members: Vec<Member<'a>>,
    /// The key of the value that comes next: the last [`Event::Key`], or the empty key for
    /// an element. Held here, not pushed with a placeholder, so that a scalar member is
    /// pushed once, whole, when its value comes.
    key: Cow<'a, str>,
    /// How many containers are open.
    depth: usize,
    /// The index of each open nested container's slot in `members`, innermost last.
    slots: Stack,
    /// The finished top-level value.
    root: Option<Value<'a>>,
}

impl Default for Builder<'_> {
    fn default() -> Self {
        Builder::new()
    }
}

impl<'a> Builder<'a> {
    /// A builder that has seen no event.
    pub(crate) fn new() -> Builder<'a> {
        Builder {
            tree: Tree::new(),
            pieces: Pieces::new(),
        }
    }

    /// The value built (`Null` if no whole value was given).
    pub(crate) fn take_value(&mut self) -> Value<'a> {
        // Lazily: with `unwrap_or(Value::Null)` the compiler kept the default's destructor
        // call on the path of every value built (callgrind: 30 instructions a call).
        #[allow(clippy::unnecessary_lazy_evaluations)]
        self.tree.root.take().unwrap_or_else(|| Value::Null)
    }

    /// Drops what the builder holds of a value it stopped inside (a text that was not
    /// JSON), so that the next value is not built into it.
    #[inline]
    pub(crate) fn drop_unfinished(&mut self) {
        self.tree.drop_unfinished();
    }
}

impl<'a> Tree<'a> {
    fn new() -> Tree<'a> {
        Tree {
            members: Vec::new(),
            key: Cow::Borrowed(""),
            depth: 0,
            slots: Stack::new(),
            root: None,
        }
    }

    #[inline]
    fn drop_unfinished(&mut self) {
        if self.depth != 0 {
            self.members.clear();
            self.key = Cow::Borrowed("");
            self.depth = 0;
            self.slots = Stack::new();
        }
    }

    /// A finished value: a member's, an element, or the root.
    #[inline(always)]
    fn value(&mut self, value: Value<'a>) {
        if self.depth == 0 {
            self.root = Some(value);
        } else {
            let key = std::mem::take(&mut self.key);
            self.members.push((key, value));
        }
    }

    #[inline]
    fn open(&mut self) {
        if self.depth > 0 {
            let key = std::mem::take(&mut self.key);
            self.members.push((key, Value::Null));
            self.slots.push(self.members.len().saturating_sub(1));
        } else if self.members.capacity() == 0 {
            // The top-level container's stack becomes its `Vec`: room for a tool call's
            // arguments at once, instead of growing four, eight, sixteen.
            self.members.reserve(INITIAL_MEMBERS);
        }
        self.depth += 1;
    }

    #[inline(never)]
    fn close(&mut self, is_object: bool) {
        self.depth = self.depth.saturating_sub(1);
        let slot = if self.depth > 0 {
            self.slots.pop()
        } else {
            None
        };
        let Some(slot) = slot else {
            // The top-level container: the whole stack is its members.
            let members = std::mem::take(&mut self.members);
            self.root = Some(if is_object {
                Value::Object(members)
            } else {
                Value::Array(members.into_iter().map(|(_, item)| item).collect())
            });
            return;
        };
        let above = (slot + 1).min(self.members.len());
        let value = if is_object {
            // One copy of the members, at their exact number.
            Value::Object(self.members.split_off(above))
        } else {
            let items = self.members.drain(above..);
            Value::Array(items.map(|(_, item)| item).collect())
        };
        if let Some((_, place)) = self.members.last_mut() {
            // The slot holds the `Null` placeholder, which owns nothing: matched as such,
            // it needs no destructor call on this path.
            match std::mem::replace(place, value) {
                Value::Null => {}
                other => drop(other),
            }
        }
    }
}

/// Room reserved on the first member. The top-level container keeps the stack as its
/// `Vec`, so this is also the room every call's arguments carry: 8 members (448 bytes) hold
/// nearly every call's arguments and their nested members at once. 16 held them all, but
/// at twice the memory, and validating 20,000 arguments kept in memory (the corpus) took
/// twice as long for it.
const INITIAL_MEMBERS: usize = 8;

impl<'a> Sink<'a> for Builder<'a> {
    // Inlined into the reader's call sites, where the event's variant is known, so each
    // site compiles to its own arm: measured 2x on `bench parse` against a call and a jump
    // table per event.
    #[inline(always)]
    fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
        match event {
            Event::Null => self.tree.value(Value::Null),
            Event::Bool(b) => self.tree.value(Value::Bool(b)),
            Event::Number(n) => self.tree.value(Value::Number(n)),
            Event::String(text) => self.tree.value(Value::String(Cow::Borrowed(text))),
            Event::StringStart => self.pieces.clear(),
            Event::StringPart(run) => self.pieces.push_run(run),
            Event::StringChar(c) => self.pieces.push_char(c),
            Event::StringEnd => {
                let text = self.pieces.take();
                self.tree.value(Value::String(text));
            }
            Event::Key(key) => self.tree.key = key,
            Event::ArrayStart | Event::ObjectStart => self.tree.open(),
            Event::ArrayEnd => self.tree.close(false),
            Event::ObjectEnd => self.tree.close(true),
        }
        ControlFlow::Continue(())
    }
}

/// A builder for a text that comes in chunks which do not outlive their feed (the stream's
/// provider form, its arguments text in fragments): each event's text is copied as it
/// comes, so the value owns its strings from the start, where a [`Builder`] over the whole
/// text kept would borrow them, and a [`Value::into_owned`] after would copy them in a
/// second walk of the tree.
#[derive(Debug)]
#[cfg(feature = "stream")]
pub(crate) struct OwnedBuilder {
    tree: Tree<'static>,
    /// The string value being gathered from parts.
    text: String,
}

#[cfg(feature = "stream")]
impl Default for OwnedBuilder {
    fn default() -> Self {
        OwnedBuilder {
            tree: Tree::new(),
            text: String::new(),
        }
    }
}

#[cfg(feature = "stream")]
impl OwnedBuilder {
    /// The value built, if a whole one was given.
    pub(crate) fn take_value(&mut self) -> Option<Value<'static>> {
        self.tree.root.take()
    }

    /// Takes one event, as [`Builder`]'s sink does, owning its text: a key or number the
    /// event owns already (a chunk cut it, and the reader gathered it) is moved in, the
    /// rest copied.
    #[inline(always)]
    pub(crate) fn event(&mut self, event: Event<'_>) {
        let tree = &mut self.tree;
        match event {
            Event::Null => tree.value(Value::Null),
            Event::Bool(b) => tree.value(Value::Bool(b)),
            Event::Number(n) => tree.value(Value::Number(n.into_owned())),
            Event::String(text) => tree.value(Value::String(Cow::Owned(text.to_owned()))),
            Event::StringStart => {
                // Room for a typical string at once: growing from 8 bytes costs a copy at
                // each doubling.
                self.text = String::with_capacity(TEXT_START);
            }
            Event::StringPart(run) => self.text.push_str(run),
            Event::StringChar(c) => self.text.push(c),
            // The gathered text becomes the value as it stands, room and all: a copy of its
            // exact size would cost the same allocation and a copy more.
            Event::StringEnd => {
                tree.value(Value::String(Cow::Owned(std::mem::take(&mut self.text))))
            }
            Event::Key(key) => tree.key = Cow::Owned(key.into_owned()),
            Event::ArrayStart | Event::ObjectStart => tree.open(),
            Event::ArrayEnd => tree.close(false),
            Event::ObjectEnd => tree.close(true),
        }
    }
}

/// The room [`OwnedBuilder`] gives a string in parts at first.
#[cfg(feature = "stream")]
const TEXT_START: usize = 128;

/// A string value's pieces, as they came.
///
/// Up to [`Pieces::INLINE`] pieces are kept as they are, so that the string can be copied
/// once into a `String` of its exact size at its end (and a string of one run is borrowed);
/// past that, they go into a growing `String`. A piece is a run of the input, or one
/// character.
#[derive(Debug)]
struct Pieces<'a> {
    /// A run, or `None` for a character piece. (`None` is all zeros: the array starts as
    /// a plain `memset`.)
    runs: [Option<&'a str>; Pieces::INLINE],
    chars: [char; Pieces::INLINE],
    /// Invariant: at most `INLINE`; equal to it once `spilled` is in use.
    n_pieces: usize,
    /// All pieces so far, once there were too many to keep inline.
    spilled: Option<String>,
}

impl<'a> Pieces<'a> {
    const INLINE: usize = 64;

    fn new() -> Pieces<'a> {
        Pieces {
            runs: [None; Pieces::INLINE],
            chars: ['\0'; Pieces::INLINE],
            n_pieces: 0,
            spilled: None,
        }
    }

    #[inline]
    fn clear(&mut self) {
        self.n_pieces = 0;
        self.spilled = None;
    }

    // Written field by field, straight from registers: a piece built as one value and then
    // copied measured a store-forwarding stall on every push.
    #[inline(always)]
    fn push_run(&mut self, run: &'a str) {
        match self.runs.get_mut(self.n_pieces) {
            Some(slot) => {
                *slot = Some(run);
                self.n_pieces += 1;
            }
            None => self.spill().push_str(run),
        }
    }

    #[inline(always)]
    fn push_char(&mut self, c: char) {
        match (
            self.runs.get_mut(self.n_pieces),
            self.chars.get_mut(self.n_pieces),
        ) {
            (Some(run), Some(slot)) => {
                *run = None;
                *slot = c;
                self.n_pieces += 1;
            }
            _ => self.spill().push(c),
        }
    }

    /// The `String` the pieces go into once the inline ones are full.
    #[cold]
    fn spill(&mut self) -> &mut String {
        if self.spilled.is_none() {
            let mut text = String::with_capacity(self.len().saturating_mul(2));
            self.write(&mut text);
            self.spilled = Some(text);
        }
        self.spilled.get_or_insert_with(String::new)
    }

    /// The length in bytes of the inline pieces.
    fn len(&self) -> usize {
        self.runs
            .iter()
            .zip(&self.chars)
            .take(self.n_pieces)
            .map(|(run, c)| run.map_or(c.len_utf8(), str::len))
            .sum()
    }

    fn write(&self, out: &mut String) {
        for (run, &c) in self.runs.iter().zip(&self.chars).take(self.n_pieces) {
            match run {
                Some(run) => out.push_str(run),
                None => out.push(c),
            }
        }
    }

    /// The string the pieces make: borrowed when it is one run.
    #[inline]
    fn take(&mut self) -> Cow<'a, str> {
        if let Some(text) = self.spilled.take() {
            return Cow::Owned(text);
        }
        match (self.n_pieces, self.runs.first()) {
            (0, _) => Cow::Borrowed(""),
            (1, Some(Some(run))) => Cow::Borrowed(*run),
            _ => {
                let mut text = String::with_capacity(self.len());
                self.write(&mut text);
                Cow::Owned(text)
            }
        }
    }
}
