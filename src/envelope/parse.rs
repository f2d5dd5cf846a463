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
        top: None,
        inner_arguments: false,
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

/// The builder's sink, following which member of the envelope each value is in.
struct Places<'a> {
    builder: Builder<'a>,
    limits: Limits,
    /// The slot whose text a string would be at depth 1 (`Top`), or whose nested call
    /// object is open at depth 2: told by the last top-level key.
    top: Option<Slot>,
    /// The last key at depth 2 was `arguments`.
    inner_arguments: bool,
    texts: Texts<'a>,
}

impl<'a> Sink<'a> for Places<'a> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        if let Event::Key(key) = &event {
            match self.builder.depth() {
                1 => {
                    self.top = match key.as_ref() {
                        "arguments" => Some(Slot::Top),
                        "function" => Some(Slot::Function),
                        "functionCall" => Some(Slot::FunctionCallCamel),
                        "function_call" => Some(Slot::FunctionCall),
                        _ => None,
                    };
                    // A container at depth 2 opens after a top-level key.
                    self.inner_arguments = false;
                }
                2 => self.inner_arguments = key == "arguments",
                _ => {}
            }
        }
        self.builder.event(event, at)
    }

    /// An escaped string where an arguments text goes is parsed in place.
    fn literal(&mut self, _quote: usize, body: &'a str) -> Option<usize> {
        let slot = match (self.builder.depth(), self.top) {
            (1, Some(Slot::Top)) => Slot::Top,
            (2, Some(slot)) if self.inner_arguments && slot != Slot::Top => slot,
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
