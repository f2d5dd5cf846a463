//! Arguments given as text (OpenAI's `"arguments": "{\"city\":\"Oslo\"}"`), read by a second
//! [`Reader`] through the literal's escapes.
//!
//! There is no unescaping buffer. With the raw call at hand, the second reader walks the
//! literal's body itself ([`Reader::feed_literal`], [`Text::literal`]), which is one step for
//! the whole text; what the walk leaves (a control character, a broken or cut escape: the
//! literal's own errors to find) and a call read as bytes come as the pieces the first
//! reader produces: the literal's runs go in as they stand in the raw call, and each
//! character one of its escapes stands for goes in on its own. A run is held back until
//! the piece after it is known, so that a run and the escaped quote that ends it go in as one
//! step ([`Reader::feed_str_then`]): a key or string of the text between two `\"` then comes
//! whole and is borrowed from the raw call, like every string of the text that stands in it
//! unescaped. The second reader's errors are the text's own, at offsets in the text.

use super::Downstream;
use crate::json::{Limits, ParseError, Reader, Sink, Stop};
use std::ops::ControlFlow;

/// Arguments text, read: what the downstream sink kept of it, or why it is not JSON.
pub(crate) type TextArgs<R> = Result<R, TextError>;

/// Why an arguments text is not JSON: the error, at offsets in the text, and where the
/// literal starts in the call, to find the text again for the error's line and column.
#[derive(Debug)]
pub(crate) struct TextError {
    error: Box<ParseError>,
    /// Offset of the literal's opening quote in the raw call.
    quote: usize,
}

/// An arguments text being read.
#[derive(Debug)]
pub(crate) struct Text<'a> {
    reader: Reader,
    /// The last run, held back until the piece after it is known.
    pending: Option<&'a str>,
    quote: usize,
    failed: Option<Box<ParseError>>,
}

impl<'a> Text<'a> {
    /// A text whose literal opens at `quote`, read under `limits`.
    pub(crate) fn new(limits: Limits, quote: usize) -> Text<'a> {
        Text {
            reader: Reader::new(limits),
            pending: None,
            quote,
            failed: None,
        }
    }

    /// A text the call holds whole, without escapes.
    pub(crate) fn whole<D: Downstream<'a>>(
        text: &'a str,
        quote: usize,
        limits: Limits,
        downstream: &mut D,
    ) -> TextArgs<D::Read> {
        let mut reader = Reader::new(limits);
        let read = reader.feed_str(text, downstream);
        let read = read.and_then(|()| reader.finish(downstream));
        outcome(read, quote, downstream)
    }

    /// The literal's body as it stands in the raw call (`body`: from just after its opening
    /// quote to the call's end), read as far as [`Reader::feed_literal`] goes: how many
    /// bytes it read. Only at the text's start.
    pub(crate) fn literal<S: Sink<'a>>(&mut self, body: &'a str, sink: &mut S) -> usize {
        match self.reader.feed_literal(body, sink) {
            Ok(read) => read,
            // The text is not JSON: the call's reader reads the literal itself, from its
            // start, and the text takes none of its pieces.
            Err(stop) => {
                self.note(Err(stop));
                0
            }
        }
    }

    /// A run of the literal.
    pub(crate) fn part<S: Sink<'a>>(&mut self, run: &'a str, sink: &mut S) {
        if self.failed.is_some() {
            return;
        }
        if let Some(earlier) = self.pending.replace(run) {
            let read = self.reader.feed_str(earlier, sink);
            self.note(read);
        }
    }

    /// A character one of the literal's escapes stands for.
    pub(crate) fn char<S: Sink<'a>>(&mut self, c: char, sink: &mut S) {
        if self.failed.is_some() {
            return;
        }
        let read = match self.pending.take() {
            Some(run) => self.reader.feed_str_then(run, c, sink),
            None => self.reader.feed_char(c, sink),
        };
        self.note(read);
    }

    /// The literal's end: the text's end too.
    /// (Taken in place: a text, its reader inside, is a few hundred bytes to move.)
    pub(crate) fn end<D: Downstream<'a>>(&mut self, downstream: &mut D) -> TextArgs<D::Read> {
        if let (Some(run), None) = (self.pending.take(), &self.failed) {
            let read = self.reader.feed_str(run, downstream);
            self.note(read);
        }
        let read = match self.failed.take() {
            Some(error) => Err(Stop::Invalid(error)),
            None => self.reader.finish(downstream),
        };
        outcome(read, self.quote, downstream)
    }

    /// Keeps the first error (the reader then refuses everything, with the same error).
    fn note(&mut self, read: Result<(), Stop>) {
        if let (Err(Stop::Invalid(error)), None) = (read, &self.failed) {
            self.failed = Some(error);
        }
    }
}

#[inline(always)]
fn outcome<'a, D: Downstream<'a>>(
    read: Result<(), Stop>,
    quote: usize,
    downstream: &mut D,
) -> TextArgs<D::Read> {
    // What the sink kept of a text that is not JSON is dropped; it is ready for the next.
    let kept = downstream.end();
    match read {
        // The downstream sinks never break.
        Ok(()) | Err(Stop::Sink) => Ok(kept),
        Err(Stop::Invalid(error)) => Err(TextError { error, quote }),
    }
}

impl TextError {
    /// The error with its line and column counted in the text, which is read again from
    /// the literal in `raw` (only now, on the way to a rejection).
    pub(crate) fn locate(self, raw: &[u8]) -> ParseError {
        /// Gathers one string value's text.
        struct Gather(String);
        impl<'a> Sink<'a> for Gather {
            fn event(&mut self, event: crate::json::Event<'a>, _at: usize) -> ControlFlow<()> {
                use crate::json::Event;
                match event {
                    Event::StringPart(run) => self.0.push_str(run),
                    Event::StringChar(c) => self.0.push(c),
                    Event::String(run) => {
                        self.0.push_str(run);
                        return ControlFlow::Break(());
                    }
                    Event::StringEnd => return ControlFlow::Break(()),
                    _ => {}
                }
                ControlFlow::Continue(())
            }
        }
        let mut text = Gather(String::new());
        let literal = raw.get(self.quote..).unwrap_or_default();
        let unlimited = Limits {
            max_bytes: usize::MAX,
            max_depth: 1,
        };
        let _ = Reader::new(unlimited).feed(literal, &mut text);
        self.error.locate(text.0.as_bytes())
    }
}
