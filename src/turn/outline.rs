//! A turn's one pass: the reader reads the turn once, and its events build the turn's
//! outline and, at the same time, read every call in it through the envelope.
//!
//! The outline is the turn's value as far as the form's reading ([`read`](super::read))
//! looks into it: a member it never asks for (a call's id, its arguments) is left out, key
//! and all, and one it only asks is there (a call's `name`, `function`) holds `true` (or
//! `null`) ([`kept`]); nothing inside either is built or spanned. Every
//! array and object of the outline has its byte range, in the order they open, which is
//! the order a depth-first walk of the value meets them (a container before its members,
//! members in order).
//!
//! Which values are calls is only known once the form is read, after the pass (a `type`
//! may come last). So every array or object that may be one, an element of a list or the
//! value of a `function_call` member (OpenAI's legacy call, read as `{"function_call": …}`,
//! the shape the envelope reads), is read by an [`Embedded`] envelope as the events go by,
//! and its answer is kept with its range; the turn takes the answers of the values that are
//! calls and drops the others (a text block's). The envelope sees exactly the events it
//! would see reading the call alone, so its answer is the one [`Gate::check_call`]'s
//! envelope gives (`tests/turn_equivalence.rs` holds it to that).
//!
//! One envelope reads at a time. A value that may be a call inside one being read takes
//! over from it: in every form the calls are the innermost such values (a choice holds its
//! message's `tool_calls`, a candidate its content's `parts`), and a call holding a list of
//! objects outside its arguments is rare. A `function_call` right inside the value read is
//! one of its members (google-genai's Gemini part), not a call of its own. A value given up
//! that way, or nested deeper than the call's limits allow alone (the turn is read with
//! room for its own levels), has no answer: the turn checks it on its own bytes, as if it
//! had come alone, which is the verdict by definition.
//!
//! [`Gate::check_call`]: crate::Gate::check_call

use super::read::{kept, Kept, Key};
use crate::envelope::{Call, Embedded};
use crate::json::{Builder, Event, Limits, ParseError, Reader, Sink, Stack, Stop, Value};
use crate::rejection::Rejection;
use std::borrow::Cow;
use std::ops::{ControlFlow, Range};

/// The turn, read once.
pub(crate) struct Outline<'a> {
    /// The turn's value, as far as the form's reading looks into it.
    pub(crate) value: Value<'a>,
    /// Each array and object of `value`, in depth-first order (its *place*).
    pub(crate) spans: Vec<Span<'a>>,
}

/// One array or object of the outline.
pub(crate) struct Span<'a> {
    /// Its byte range in the turn.
    pub(crate) range: Range<usize>,
    /// What the envelope read of it, when it may be a call and was read to its end: kept
    /// with its range, so the turn finds it by place (one list for both).
    pub(crate) read: Option<ReadCall<'a>>,
}

/// What the envelope read of a value of the turn that may be a call.
pub(crate) struct ReadCall<'a> {
    /// Read as the value of a legacy `function_call` member.
    pub(crate) legacy: bool,
    /// The envelope's answer (taken by the turn when the value is a call).
    pub(crate) read: Result<Call<'a>, Rejection>,
}

/// Reads `raw` as a turn under `limits`, its calls under `call_limits` (see the module docs).
///
/// # Errors
/// The [`ParseError`] of a text that is not JSON, as [`json::parse_with`] gives it.
///
/// [`json::parse_with`]: crate::json::parse_with
pub(crate) fn read<'a>(
    raw: &'a str,
    limits: Limits,
    call_limits: Limits,
) -> Result<Outline<'a>, ParseError> {
    // Both builders stand here, each made in place, and the pass borrows them: a builder
    // moved into the pass was copied whole (its inline room), a turn's every time.
    let mut builder = Builder::new();
    let mut outline = Builder::new();
    let mut pass = Pass {
        outline: &mut outline,
        spans: Vec::with_capacity(SPANS_START),
        open: Stack::new(),
        keep_next: Kept::Whole,
        skipping: 0,
        function_call_next: false,
        envelope: Embedded::new(call_limits, &mut builder, raw),
        reading: None,
        max_depth: call_limits.max_depth,
    };
    let mut reader = Reader::new(limits);
    let mut read = reader.feed_str(raw, &mut pass);
    // The envelope broke to read an arguments literal from the turn's text: the reader
    // goes on where the literal's reading stopped (as for a call alone).
    while let Err(Stop::Sink) = read {
        let Some(resume) = pass.envelope.take_resume() else {
            break;
        };
        reader.resume_after_literal(resume.quote, resume.at, resume.closed);
        if resume.closed {
            // The outline skips the literal, and waits for its end.
            pass.skipped(&Event::StringEnd);
        }
        read = reader.feed_str(raw.get(resume.at..).unwrap_or_default(), &mut pass);
    }
    match read.and_then(|()| reader.finish(&mut pass)) {
        // Only the envelope breaks, and the reader went on after each break.
        Ok(()) | Err(Stop::Sink) => Ok(Outline {
            value: pass.outline.take_value(),
            spans: pass.spans,
        }),
        Err(Stop::Invalid(error)) => Err(error.locate(raw.as_bytes())),
    }
}

/// Room for the ranges of a turn's containers, and for its open ones, at once (a message,
/// its list of calls, each call and its function object), instead of growing four, eight,
/// sixteen.
const SPANS_START: usize = 16;

/// The sink of the one pass.
struct Pass<'a, 'd> {
    /// Builds the outline.
    outline: &'d mut Builder<'a>,
    spans: Vec<Span<'a>>,
    /// The open containers of the outline, innermost last: each one's index into `spans`,
    /// times two, plus one for an array ([`Pass::opens`]). A [`Stack`], whose first levels
    /// are inline: a turn's nesting costs no allocation.
    open: Stack,
    /// What the outline keeps of the value that comes next (its key's [`kept`]).
    keep_next: Kept,
    /// Inside a value not built: how many of its containers and strings are open.
    skipping: usize,
    /// The last key of the outline was `function_call`.
    function_call_next: bool,
    /// Reads the values that may be calls, one at a time.
    envelope: Embedded<'a, 'd>,
    /// The value being read, if any.
    reading: Option<Reading>,
    /// The calls' nesting limit.
    max_depth: usize,
}

/// A value that may be a call, being read.
#[derive(Clone, Copy)]
struct Reading {
    /// Its index in [`Outline::spans`].
    place: usize,
    legacy: bool,
    /// Its containers open, itself included; with the one a legacy call is read inside,
    /// this is its nesting as a call alone.
    depth: usize,
}

impl<'a> Sink<'a> for Pass<'a, '_> {
    /// Inside a value the outline does not build (most of a turn: the arguments), the
    /// event goes to the envelope, if it reads, and is only counted here; the rest of the
    /// turn ([`Pass::structure`]) is inlined too, where the reader knows the event's kind.
    #[inline(always)]
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        if self.skipping == 0 {
            return self.structure(event, at);
        }
        let Some(call) = &mut self.reading else {
            self.skipped(&event);
            return ControlFlow::Continue(());
        };
        match event {
            Event::ArrayStart | Event::ObjectStart => {
                call.depth += 1;
                if call.depth > self.max_depth {
                    self.stop_reading(false);
                    self.skipped(&event);
                    return ControlFlow::Continue(());
                }
            }
            Event::ArrayEnd | Event::ObjectEnd => call.depth = call.depth.saturating_sub(1),
            _ => {}
        }
        self.skipped(&event);
        self.envelope.event(event, at)
    }
}

impl<'a> Pass<'a, '_> {
    /// An event outside the values not built: the outline builds it, and an envelope
    /// starts reading at an array or object that may be a call.
    ///
    /// Inlined at each of the reader's sites, where the event's kind is known and the
    /// matches below fold: called out of line, the event's copy and the call cost a turn
    /// of four 1.2% more instructions (callgrind).
    #[inline(always)]
    fn structure(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        let opens = matches!(event, Event::ArrayStart | Event::ObjectStart);
        if opens && self.keep_next == Kept::Whole {
            self.may_begin();
        }
        let Some(call) = &mut self.reading else {
            self.build(&event, at);
            return ControlFlow::Continue(());
        };
        match event {
            Event::ArrayStart | Event::ObjectStart => call.depth += 1,
            Event::ArrayEnd | Event::ObjectEnd => call.depth = call.depth.saturating_sub(1),
            _ => {}
        }
        if call.depth > self.max_depth {
            self.stop_reading(false);
            self.build(&event, at);
            return ControlFlow::Continue(());
        }
        let ends = call.depth == usize::from(call.legacy)
            && matches!(event, Event::ArrayEnd | Event::ObjectEnd);
        // The outline first, which copies only what it keeps (most keys and strings of a
        // call it does not), then the envelope, which takes the event.
        self.build(&event, at);
        let flow = self.envelope.event(event, at);
        if ends {
            self.stop_reading(true);
        }
        flow
    }

    /// An array or object opens outside the values not built: an envelope starts reading
    /// it when it may be a call (see the module docs).
    fn may_begin(&mut self) {
        let legacy = match self.open.last().map(|entry| entry % 2 == 1) {
            Some(true) => false,
            // A `function_call` right inside the value read is one of its members.
            Some(false)
                if self.function_call_next && self.reading.map_or(true, |call| call.depth != 1) =>
            {
                true
            }
            _ => return,
        };
        self.stop_reading(false);
        self.envelope.begin();
        if legacy {
            let _ = self.envelope.event(Event::ObjectStart, 0);
            let _ = self
                .envelope
                .event(Event::Key(Cow::Borrowed(Key::FunctionCall.name())), 0);
        }
        self.reading = Some(Reading {
            place: self.spans.len(),
            legacy,
            depth: usize::from(legacy),
        });
    }

    /// Stops reading the current value, keeping its answer when it `ended`.
    fn stop_reading(&mut self, ended: bool) {
        let Some(call) = self.reading.take() else {
            return;
        };
        if !ended {
            self.envelope.abandon();
            return;
        }
        if call.legacy {
            let _ = self.envelope.event(Event::ObjectEnd, 0);
        }
        let read = self.envelope.finish();
        if let Some(span) = self.spans.get_mut(call.place) {
            span.read = Some(ReadCall {
                legacy: call.legacy,
                read,
            });
        }
    }

    /// An event inside a value the outline does not build: counted, to know where it ends.
    #[inline(always)]
    fn skipped(&mut self, event: &Event<'a>) {
        match event {
            Event::ArrayStart | Event::ObjectStart | Event::StringStart => self.skipping += 1,
            Event::ArrayEnd | Event::ObjectEnd | Event::StringEnd => self.skipping -= 1,
            _ => {}
        }
    }

    /// A container of the outline opens at `at`.
    fn opens(&mut self, is_array: bool, at: usize) {
        let entry = self.spans.len().saturating_mul(2);
        self.open.push(entry.saturating_add(usize::from(is_array)));
        self.spans.push(Span {
            range: at..at,
            read: None,
        });
    }

    /// The innermost open container closes at `at`.
    fn close_span(&mut self, at: usize) {
        let span = self
            .open
            .pop()
            .and_then(|entry| self.spans.get_mut(entry / 2));
        if let Some(span) = span {
            span.range.end = at.saturating_add(1);
        }
    }

    /// An event the outline builds, or the first of a value it does not build.
    fn build(&mut self, event: &Event<'a>, at: usize) {
        let keep = std::mem::replace(&mut self.keep_next, Kept::Whole);
        if keep != Kept::Whole {
            // The first event of a value the outline does not build: the outline holds
            // whether it is there, or nothing, and the rest of it is only counted.
            if keep == Kept::Presence {
                let present = match event {
                    Event::Null => Event::Null,
                    _ => Event::Bool(true),
                };
                let _ = self.outline.event(present, at);
            }
            if matches!(
                event,
                Event::StringStart | Event::ArrayStart | Event::ObjectStart
            ) {
                self.skipping = 1;
            }
            return;
        }
        match event {
            Event::Key(key) => {
                self.keep_next = kept(key);
                self.function_call_next = key == Key::FunctionCall.name();
                if self.keep_next == Kept::Nothing {
                    return;
                }
            }
            Event::ArrayStart | Event::ObjectStart => {
                let is_array = matches!(event, Event::ArrayStart);
                self.opens(is_array, at);
            }
            Event::ArrayEnd | Event::ObjectEnd => self.close_span(at),
            _ => {}
        }
        let _ = self.outline.event(event.clone(), at);
    }
}
