//! Events: a JSON text as the sequence of steps a reader takes through it.
//!
//! Every consumer of JSON in the crate (the [`Value`] builder, the envelope, the validator,
//! the streaming check) is a [`Sink`] that takes these events in document order. The one
//! reader produces them from bytes, whole or in chunks; [`replay`] produces them from a
//! [`Value`] already built (a call assembled by code, a spec's default). So a consumer is
//! written once, and it cannot tell, nor needs to, where its events came from.
//!
//! A string value arrives either whole, as [`Event::String`], when it stands within one
//! chunk of input without escapes (the common case, and the only one that borrows), or in
//! pieces: [`Event::StringStart`], then any number of [`Event::StringPart`] and
//! [`Event::StringChar`], then [`Event::StringEnd`]. Pieces let a consumer act on a string
//! before it ends (a string that has passed `maxLength`, the arguments text of an OpenAI
//! call read by a second reader through its escapes) with bounded memory. Keys are short
//! and a consumer needs them whole, so a key always arrives whole, as [`Event::Key`].

use super::value::{Number, Value};
use std::borrow::Cow;
use std::ops::ControlFlow;

/// One step through a JSON text. `'a` is the lifetime of the input the reader was fed.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, exactly as written; it matches the RFC 8259 grammar. Owned only when it
    /// was split across chunks.
    Number(Number<'a>),
    /// A whole string value without escapes, borrowed from the input.
    String(&'a str),
    /// A string value begins; its text follows in parts.
    StringStart,
    /// A run of a string value's text, borrowed from the input.
    StringPart(&'a str),
    /// One character of a string value's text that does not stand in the input as itself:
    /// an escape, or a character split across chunks.
    StringChar(char),
    /// The string value begun by the last [`Event::StringStart`] ends.
    StringEnd,
    /// An object member's key, unescaped (owned only when it held an escape or was split
    /// across chunks). Its value's events follow.
    Key(Cow<'a, str>),
    /// `[`.
    ArrayStart,
    /// `]`.
    ArrayEnd,
    /// `{`.
    ObjectStart,
    /// `}`.
    ObjectEnd,
}

/// A consumer of [`Event`]s.
///
/// `at` is the byte offset, in the whole input, of the event's first byte (for
/// [`Event::StringPart`], of the part; for [`Event::Key`], of its opening quote). A sink
/// returns [`ControlFlow::Break`] to stop the reader early: it has seen enough (a refusal,
/// a value found), and keeps its own account of why.
pub trait Sink<'a> {
    /// Takes the next event.
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()>;

    /// Offered a string value whose literal holds an escape, instead of its events, before
    /// the first of them: the literal opens at offset `quote`, and `body` is the input from
    /// just after the quote to the end of the text the reader was given (only when it is
    /// text, fed whole or as [`Reader::feed_str`](crate::json::Reader::feed_str) chunks).
    /// A sink that reads such a literal on its own (an envelope reading an arguments text
    /// through its escapes, with a second reader) answers how many bytes of `body` it
    /// read. The reader then goes on from there, without a turn of its own through those
    /// bytes: past the literal when its closing quote is the next byte, else inside its
    /// body, sending the rest of the string as [`Event::StringPart`]s and
    /// [`Event::StringChar`]s (no [`Event::StringStart`]) and its [`Event::StringEnd`].
    /// The default, `None`: the reader reads the string and sends all its events.
    fn literal(&mut self, quote: usize, body: &'a str) -> Option<usize> {
        let _ = (quote, body);
        None
    }
}

/// Feeds a [`Value`] to a sink as the events a reader would produce from its text, every
/// string whole ([`Event::String`], borrowed from the value). Offsets are all 0: a built
/// value has no input.
///
/// Walks with an explicit stack, so a deep value cannot exhaust the thread's stack. Its
/// first 8 levels live in an array, so that replaying a value of ordinary depth allocates
/// nothing (a validation fed this way promises no heap on success).
pub fn replay<'v, 'a: 'v, S: Sink<'v>>(value: &'v Value<'a>, sink: &mut S) -> ControlFlow<()> {
    // Each entry is an open container's remaining members: elements or (key, value) pairs.
    enum Open<'v, 'a> {
        Array(std::slice::Iter<'v, Value<'a>>),
        Object(std::slice::Iter<'v, (Cow<'a, str>, Value<'a>)>),
    }
    let mut inline: [Option<Open<'v, 'a>>; INLINE_LEVELS] = std::array::from_fn(|_| None);
    let mut deeper: Vec<Open<'v, 'a>> = Vec::new();
    let mut depth = 0usize;
    fn push<T>(inline: &mut [Option<T>], deeper: &mut Vec<T>, depth: &mut usize, open: T) {
        match inline.get_mut(*depth) {
            Some(slot) => *slot = Some(open),
            None => deeper.push(open),
        }
        *depth += 1;
    }
    let mut next = Some(value);
    loop {
        if let Some(value) = next.take() {
            match value {
                Value::Null => sink.event(Event::Null, 0)?,
                Value::Bool(b) => sink.event(Event::Bool(*b), 0)?,
                Value::Number(n) => sink.event(
                    Event::Number(Number::from_checked(Cow::Borrowed(n.as_str()))),
                    0,
                )?,
                Value::String(text) => sink.event(Event::String(text), 0)?,
                Value::Array(items) => {
                    sink.event(Event::ArrayStart, 0)?;
                    push(
                        &mut inline,
                        &mut deeper,
                        &mut depth,
                        Open::Array(items.iter()),
                    );
                }
                Value::Object(members) => {
                    sink.event(Event::ObjectStart, 0)?;
                    push(
                        &mut inline,
                        &mut deeper,
                        &mut depth,
                        Open::Object(members.iter()),
                    );
                }
            }
        }
        let Some(top) = depth.checked_sub(1) else {
            return ControlFlow::Continue(());
        };
        let open = match inline.get_mut(top) {
            Some(slot) => slot.as_mut(),
            None => deeper.last_mut(),
        };
        let ended = match open {
            None => return ControlFlow::Continue(()),
            Some(Open::Array(items)) => match items.next() {
                Some(item) => {
                    next = Some(item);
                    None
                }
                None => Some(Event::ArrayEnd),
            },
            Some(Open::Object(members)) => match members.next() {
                Some((key, value)) => {
                    sink.event(Event::Key(Cow::Borrowed(key)), 0)?;
                    next = Some(value);
                    None
                }
                None => Some(Event::ObjectEnd),
            },
        };
        if let Some(end) = ended {
            match inline.get_mut(top) {
                Some(slot) => *slot = None,
                None => drop(deeper.pop()),
            }
            depth = top;
            sink.event(end, 0)?;
        }
    }
}

/// How many levels of a replayed value's containers are tracked without allocating.
const INLINE_LEVELS: usize = 8;
