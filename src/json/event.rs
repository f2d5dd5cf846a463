//! Events: a JSON text as the steps a [`Reader`](super::Reader) takes through it, in
//! document order. Every consumer of the reader (the `Value` builder, the envelope, a
//! stream) is a [`Sink`] of them.
//!
//! A string value comes whole ([`Event::String`], borrowed) when it stands in one chunk
//! without escapes, else in pieces, so that a consumer can act on it before it ends with
//! bounded memory. A key always comes whole: consumers need it so, and keys are short.

use super::value::Number;
use std::borrow::Cow;
use std::ops::ControlFlow;

/// One step through a JSON text. `'a` is the lifetime of the input the reader was fed.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, exactly as written. Owned only when it was split across chunks.
    Number(Number<'a>),
    /// A whole string value without escapes, borrowed from the input.
    String(&'a str),
    /// A string value begins; its text follows in parts.
    StringStart,
    /// A run of a string value's text, borrowed from the input.
    StringPart(&'a str),
    /// One character of a string value that does not stand in the input as itself: an
    /// escape, or a character split across chunks.
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
/// `at` is the byte offset in the whole input of the event's first byte (for
/// [`Event::StringPart`], of the part; for [`Event::Key`], of its opening quote). A sink
/// returns [`ControlFlow::Break`] to stop the reader early, and keeps its own account of why.
pub trait Sink<'a> {
    /// Takes the next event.
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()>;

    /// Offered a string value whose literal holds an escape, before its first event, when
    /// the input is text: the literal opens at offset `quote`, and `body` is the input from
    /// just after the quote to its end. A sink that reads the literal itself (the envelope
    /// parsing an arguments text in place) answers how many bytes of `body` it read; the
    /// reader goes on from there, past the literal if its closing quote is next, else
    /// sending the rest of the string as parts (no [`Event::StringStart`]) and its
    /// [`Event::StringEnd`]. The default, `None`: the reader sends all the string's events.
    fn literal(&mut self, quote: usize, body: &'a str) -> Option<usize> {
        let _ = (quote, body);
        None
    }
}
