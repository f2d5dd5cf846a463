//! The arguments' check as they stream: gate 2 on their first event, then gate 3 on every
//! event, asked after each whether the arguments so far are refused.
//!
//! Gate 3 runs first as the tool's quick path ([`Quick`], eager), which answers a valid
//! call's events for a fraction of what the full [`Validation`] costs on them (its ranks,
//! steps and the propagation behind [`Validation::refused`], after every event). The eager
//! quick path gives up at the first event after which the full validation could refuse the
//! prefix, so while it reads on, "not refused" is the full validation's answer too. Where it
//! gives up, the full validation takes over: it reads the arguments so far again, from the
//! text kept (the raw call, the literal of an arguments text, or the provider form's
//! fragments), up to the event the quick path gave up at, and then goes on with that event.
//! So a valid call costs the quick path, and an invalid one is refused where, and with what,
//! the full validation alone would refuse it.

use crate::json::{Event, Limits, Number, Reader, Sink, Stop};
use crate::rejection::RejectionKind;
use crate::spec::validate::{Program, Quick, Validation};
use crate::spec::ToolSpec;
use std::borrow::Cow;
use std::ops::ControlFlow;

/// Where the arguments read so far can be read again: what the full validation catches up
/// from when the quick path gives up.
#[derive(Clone, Copy)]
pub(super) enum Source<'t> {
    /// The arguments stand as JSON in the raw call kept so far, `levels` containers deep.
    Call { kept: &'t [u8], levels: usize },
    /// The arguments are the text of the raw call's string literal that opens at `quote`.
    Literal { kept: &'t [u8], quote: usize },
    /// The arguments are the provider form's text.
    Text(&'t str),
}

/// The arguments' check.
pub(super) struct Args<'g> {
    /// The tool they are checked for.
    pub(super) spec: &'g ToolSpec,
    check: Check<'g>,
    limits: Limits,
    /// The first event has come.
    pub(super) started: bool,
    /// The value is complete.
    pub(super) done: bool,
    /// The value was refused.
    pub(super) failed: bool,
    /// The value is complete and not refused, and it was the whole of its text when it came
    /// as one: gate 3's answer on the call's arguments is in.
    pub(super) whole: bool,
    /// Containers open in the arguments.
    depth: usize,
    /// Where the value's first event is (offsets as the events give them).
    start: usize,
    /// Where the string being read began: a refusal inside a string is at its start, so
    /// that where the chunks fell does not move it.
    string_at: usize,
    /// The full validation is inside a string in parts.
    in_string: bool,
}

/// Gate 3 as it runs: the quick path until it gives up, then the full validation.
// The quick path is the one that lives in place (the common case allocates nothing for
// it); the full validation, kilobytes, is boxed when a call needs it.
#[allow(clippy::large_enum_variant)]
enum Check<'g> {
    Quick(Quick<'g>),
    Full(Box<Validation<'g, 'static>>),
}

impl<'g> Args<'g> {
    // Inlined, the check is built where it is kept, not built and then moved: the quick
    // path's frames are most of a kilobyte (measured 148 instructions a provider stream).
    #[inline]
    pub(super) fn new(spec: &'g ToolSpec, limits: Limits) -> Args<'g> {
        let program = spec.params().program();
        let check = if program.node(Program::ROOT).quick {
            Check::Quick(Quick::eager(program))
        } else {
            Check::Full(Box::new(spec.params().validation()))
        };
        Args {
            spec,
            check,
            limits,
            started: false,
            done: false,
            failed: false,
            whole: false,
            depth: 0,
            start: 0,
            string_at: 0,
            in_string: false,
        }
    }

    /// The arguments text has ended; `read_whole` says the reader took all of it without an
    /// error. Gate 3's answer is in only if the value also ended, unrefused.
    pub(super) fn text_ended(&mut self, read_whole: bool) {
        self.whole = read_whole && self.done && !self.failed;
    }

    /// Whether gate 3 accepted the whole value, and whether it read a `null` as absent
    /// (the quick path accepts nothing so read).
    pub(super) fn accepted(&self) -> Option<bool> {
        if !self.whole || self.failed {
            return None;
        }
        match &self.check {
            Check::Quick(quick) => quick.accepted().then_some(false),
            Check::Full(validation) => validation
                .finish()
                .is_ok()
                .then(|| validation.read_absent()),
        }
    }

    /// A number of the arguments begins at `at`, its token still open: refused now if no
    /// number can stand there (the refusal the number's end would give, at the same byte).
    pub(super) fn number_started(&mut self, at: usize) -> Option<(usize, RejectionKind)> {
        if !self.started || self.done || self.failed {
            return None;
        }
        let refused = match &self.check {
            Check::Quick(quick) => quick.refuses_number_next(),
            Check::Full(validation) => validation.refused_if_number_next(),
        };
        if !refused {
            return None;
        }
        self.failed = true;
        Some((at, RejectionKind::SchemaViolation))
    }

    /// Takes one event at `at`, the arguments so far readable again from `source`; the
    /// refusal, if the arguments so far are refused (once: nothing after a refusal is read).
    /// The quick path's step is inlined where events come from; the rest is out of line.
    /// By reference: the provider form's value built beside the check takes the event
    /// after it, by value, so that a key or number a chunk cut moves into it uncopied.
    #[inline(always)]
    pub(super) fn event(
        &mut self,
        event: &Event<'_>,
        at: usize,
        source: Source<'_>,
    ) -> Option<(usize, RejectionKind)> {
        if self.done || self.failed {
            return None;
        }
        let quick_gave_up = match &mut self.check {
            Check::Quick(quick) => {
                // Gate 2 is the full path's: the quick path takes an object only.
                let object = self.started || matches!(event, Event::ObjectStart);
                if object && quick.step_ref(event).is_continue() {
                    if !self.started {
                        self.started = true;
                        self.start = at;
                    }
                    self.track(event, at);
                    return None;
                }
                true
            }
            Check::Full(_) => false,
        };
        self.full_from(borrowed(event), at, source, quick_gave_up)
    }

    /// [`Args::event`] past the quick path: when it gave up at this event, the full
    /// validation catches up on the events before it, then takes it.
    #[inline(never)]
    fn full_from(
        &mut self,
        event: Event<'_>,
        at: usize,
        source: Source<'_>,
        quick_gave_up: bool,
    ) -> Option<(usize, RejectionKind)> {
        if quick_gave_up {
            let quote = self.string_at;
            if let Some(refusal) = self.catch_up(at, source) {
                return Some(refusal);
            }
            // Read again, a string with no text before this event has not begun.
            let inside = matches!(
                event,
                Event::StringPart(_) | Event::StringChar(_) | Event::StringEnd
            );
            if inside && !self.in_string {
                if let Some(refusal) = self.full_event(Event::StringStart, quote) {
                    return Some(refusal);
                }
            }
        }
        self.full_event(event, at)
    }

    /// Follows the value's nesting (`done` once `event` ends it), and says where a refusal
    /// at `event` stands.
    fn track(&mut self, event: &Event<'_>, at: usize) -> usize {
        match event {
            Event::ObjectStart | Event::ArrayStart => {
                self.depth = self.depth.saturating_add(1);
                at
            }
            Event::ObjectEnd | Event::ArrayEnd => {
                self.depth = self.depth.saturating_sub(1);
                self.done = self.depth == 0;
                at
            }
            Event::String(_) | Event::StringStart => {
                self.string_at = at;
                at
            }
            Event::StringPart(_) | Event::StringChar(_) | Event::StringEnd => self.string_at,
            _ => at,
        }
    }

    /// The full validation, new, reads the arguments from their start up to `at`, where the
    /// quick path gave up: the refusal, should it refuse them (it does not while the quick
    /// path reads on, but the answer does not rest on that).
    fn catch_up(&mut self, at: usize, source: Source<'_>) -> Option<(usize, RejectionKind)> {
        self.check = Check::Full(Box::new(self.spec.params().validation()));
        let started = self.started;
        let start = self.start;
        self.started = false;
        self.done = false;
        self.depth = 0;
        self.in_string = false;
        if !started {
            return None;
        }
        let mut again = Again {
            args: self,
            shift: 0,
            refused: None,
        };
        match source {
            Source::Call { kept, levels } => {
                // The value as the call's reader read it: as deep as it may go there.
                let max_depth = again.args.limits.max_depth.min(Limits::DEPTH_CEILING);
                let limits = Limits {
                    max_depth: max_depth.saturating_sub(levels),
                    ..again.args.limits
                };
                again.shift = start;
                again.read(kept.get(start..at).unwrap_or_default(), limits);
            }
            Source::Literal { kept, quote } => {
                let text = literal_text(kept.get(quote..).unwrap_or_default());
                let limits = again.args.limits;
                again.read(text.as_bytes().get(..at).unwrap_or_default(), limits);
            }
            Source::Text(text) => {
                let limits = again.args.limits;
                again.read(text.as_bytes().get(..at).unwrap_or_default(), limits);
            }
        }
        again.refused
    }

    /// One event for the full validation.
    fn full_event(&mut self, event: Event<'_>, at: usize) -> Option<(usize, RejectionKind)> {
        if !matches!(self.check, Check::Full(_)) {
            return None;
        }
        if !self.started {
            self.started = true;
            self.start = at;
            if !matches!(event, Event::ObjectStart) {
                self.failed = true;
                return Some((at, RejectionKind::ArgumentsNotObject));
            }
        }
        let settled_at = self.track(&event, at);
        let ended = self.done;
        let Check::Full(validation) = &mut self.check else {
            return None;
        };
        match event {
            Event::StringStart => self.in_string = true,
            Event::StringEnd => self.in_string = false,
            _ => {}
        }
        // A string's text goes in as it stands in the chunk, in one step, and is copied
        // only where the validation keeps it: the chunk does not live as long as the
        // validation.
        match event {
            Event::String(text) => {
                let _ = validation.event(Event::StringStart, at);
                validation.string_text(text);
                let _ = validation.event(Event::StringEnd, at);
            }
            Event::StringPart(text) => validation.string_text(text),
            other => {
                let _ = validation.event(owned(other), at);
            }
        }
        // Whole arguments that fail are refused, whatever follows them.
        if validation.refused() || (ended && validation.finish().is_err()) {
            self.failed = true;
            return Some((settled_at, RejectionKind::SchemaViolation));
        }
        None
    }
}

/// The arguments read again into the full validation, up to where the quick path gave up.
struct Again<'r, 'g> {
    args: &'r mut Args<'g>,
    /// Added to the reader's offsets: where the bytes read again stand in the call.
    shift: usize,
    refused: Option<(usize, RejectionKind)>,
}

impl Again<'_, '_> {
    /// Reads `bytes` (the arguments up to the event the quick path gave up at) under
    /// `limits`, then ends them: a number that ends them was ended by that event.
    fn read(&mut self, bytes: &[u8], limits: Limits) {
        let mut reader = Reader::new(limits);
        // The bytes were read before, to the event after them: any error here is the
        // reader's there, which the stream reports on its own.
        if reader.feed(bytes, self).is_ok() && self.refused.is_none() {
            let _ = reader.finish(self);
        }
    }
}

impl<'a> Sink<'a> for Again<'_, '_> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        match self.args.full_event(event, at.saturating_add(self.shift)) {
            Some(refusal) => {
                self.refused = Some(refusal);
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        }
    }
}

/// The text of the string literal that opens `literal`, as far as it has come: read again,
/// in the pieces the stream was fed in, through its escapes.
fn literal_text(literal: &[u8]) -> String {
    /// Gathers one string value's text.
    struct Gather {
        text: String,
        ended: bool,
    }
    impl<'a> Sink<'a> for Gather {
        fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
            match event {
                Event::StringPart(run) => self.text.push_str(run),
                Event::StringChar(c) => self.text.push(c),
                Event::String(run) => {
                    self.text.push_str(run);
                    self.ended = true;
                    return ControlFlow::Break(());
                }
                Event::StringEnd => {
                    self.ended = true;
                    return ControlFlow::Break(());
                }
                _ => {}
            }
            ControlFlow::Continue(())
        }
    }
    let mut gather = Gather {
        text: String::new(),
        ended: false,
    };
    let unlimited = Limits {
        max_bytes: usize::MAX,
        max_depth: 1,
    };
    let mut reader = Reader::new(unlimited);
    let mut rest = literal;
    while !rest.is_empty() && !gather.ended {
        let (piece, after) = rest.split_at(super::piece_end(rest, true));
        if matches!(reader.feed(piece, &mut gather), Err(Stop::Invalid(_))) {
            break;
        }
        rest = after;
    }
    gather.text
}

/// A copy of `event` that borrows what it owns: a key or number a chunk cut owns its text,
/// which a clone would allocate again.
fn borrowed<'e>(event: &'e Event<'_>) -> Event<'e> {
    match event {
        Event::Key(key) => Event::Key(Cow::Borrowed(key.as_ref())),
        Event::Number(number) => {
            Event::Number(Number::from_checked(Cow::Borrowed(number.as_str())))
        }
        other => other.clone(),
    }
}

/// The event, owning its text (a string's text is not passed here: it goes in as text).
fn owned(event: Event<'_>) -> Event<'static> {
    match event {
        Event::Null => Event::Null,
        Event::Bool(value) => Event::Bool(value),
        Event::Number(number) => {
            Event::Number(Number::from_checked(Cow::Owned(number.as_str().to_owned())))
        }
        Event::StringChar(c) => Event::StringChar(c),
        Event::Key(key) => Event::Key(Cow::Owned(key.into_owned())),
        Event::ArrayStart => Event::ArrayStart,
        Event::ArrayEnd => Event::ArrayEnd,
        Event::ObjectStart => Event::ObjectStart,
        Event::ObjectEnd => Event::ObjectEnd,
        Event::StringStart | Event::String(_) | Event::StringPart(_) => Event::StringStart,
        Event::StringEnd => Event::StringEnd,
    }
}
