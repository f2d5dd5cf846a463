//! A call's text to a [`Value`], OpenAI's arguments *text* parsed in place on the way: a
//! second reader parses the string literal's body, so the arguments borrow from the raw call
//! and the text is read once. The values wait in [`Texts`] for the envelope; a text that is
//! not JSON is left in the tree, and the envelope parses it again for the parser's error.

use crate::json::{Builder, Event, Limits, ParseError, Reader, Sink, Stop, Value};
use std::ops::ControlFlow;

/// The places an arguments text may stand in: the call's own `arguments`, and the
/// `arguments` of each nested call object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// `arguments` (the plain shape, Responses).
    Top,
    /// `function.arguments` (OpenAI chat).
    Function,
    /// `functionCall.arguments`.
    FunctionCallCamel,
    /// `function_call.arguments` (OpenAI legacy, google-genai dumps).
    FunctionCall,
}

/// The arguments texts parsed in place, by [`Slot`]. A key given twice is refused before
/// any text is used, so one value per slot is enough.
#[derive(Debug, Default)]
pub(crate) struct Texts<'a>([Option<Value<'a>>; 4]);

impl<'a> Texts<'a> {
    /// The value of the text at `slot`, if it was parsed in place.
    pub(crate) fn take(&mut self, slot: Slot) -> Option<Value<'a>> {
        self.0.get_mut(slot as usize).and_then(Option::take)
    }
}

/// Parses a call's text under `limits`, its arguments texts in place (see the module docs).
///
/// # Errors
/// The call's [`ParseError`], located in `raw`, as [`crate::json::parse_with`] gives it.
pub(crate) fn parse(raw: &str, limits: Limits) -> Result<(Value<'_>, Texts<'_>), ParseError> {
    let mut sink = Places {
        builder: Builder::new(),
        limits,
        texts: Texts::default(),
    };
    let mut reader = Reader::new(limits);
    let read = reader.feed_str(raw, &mut sink);
    match read.and_then(|()| reader.finish(&mut sink)) {
        // The sink never breaks.
        Ok(()) | Err(Stop::Sink) => Ok((sink.builder.take_value(), sink.texts)),
        Err(Stop::Invalid(error)) => Err(error.locate(raw.as_bytes())),
    }
}

/// The builder's sink, which parses an arguments text where the builder stands at one.
struct Places<'a> {
    builder: Builder<'a>,
    limits: Limits,
    texts: Texts<'a>,
}

impl<'a> Sink<'a> for Places<'a> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        self.builder.event(event, at)
    }

    /// An escaped string where an arguments text goes is parsed in place.
    fn literal(&mut self, _quote: usize, body: &'a str) -> Option<usize> {
        let (key, container) = self.builder.keys();
        if key != Some("arguments") {
            return None;
        }
        let slot = match (self.builder.depth(), container) {
            (1, _) => Slot::Top,
            (2, Some("function")) => Slot::Function,
            (2, Some("functionCall")) => Slot::FunctionCallCamel,
            (2, Some("function_call")) => Slot::FunctionCall,
            _ => return None,
        };
        let mut reader = Reader::new(self.limits);
        let mut builder = Builder::new();
        let read = reader.feed_literal(body, &mut builder).ok()?;
        // Stopped before the closing quote: the text is not JSON (or the literal is not
        // a string), which the reader finds on its own.
        if body.as_bytes().get(read) != Some(&b'"') {
            return None;
        }
        reader.finish(&mut builder).ok()?;
        let place = self.texts.0.get_mut(slot as usize)?;
        *place = Some(builder.take_value());
        let _ = self
            .builder
            .event(Event::String(body.get(..read).unwrap_or_default()), 0);
        Some(read)
    }
}
