//! The arguments checked as they are read: the gate's [`Downstream`] sink for a check-only
//! verdict, which runs the tool's spec on the arguments' events as the reader produces
//! them and builds no tree.
//!
//! The envelope names the tool read so far beside each place the arguments may be, when
//! that place begins. If it names a registered tool, the place's events go as they come
//! into that tool's quick path ([`Quick`], which says "accepted" or "don't know") when its
//! types are plain enough for it, else into its full [`Validation`]. The name the call's
//! shape finally uses is known only once the whole envelope is read (a `"name"` may follow
//! `"input"`, a later `"function"` may make the top-level name one toolgate ignores), so the
//! place keeps which tool it was checked against, and the gate uses the verdict only if that
//! is the tool the call names. Otherwise, or when the quick path did not know, the gate
//! reads the place again into the right tool's full validation: an object from its byte
//! span in the raw call (Anthropic's SDK dumps `input` before `name`), arguments text from
//! its literal, through the literal's escapes as the first time.
//!
//! The verdict is the gates' own only where it is an acceptance: a call refused on the way
//! (a problem of any gate, in any order in the text) is run through the tree path again,
//! which finds the rejection the gate order picks and places it in the built value.
//!
//! Why [`Gate::check_call`] does not validate in the same pass while it builds: a tee of
//! the events into the builder and the validation measured 2,100 instructions a call more
//! than building and then replaying the tree (callgrind, 2,000 corpus lines: 14,673 against
//! 12,571, with the full validation). The validation costs more on a reader's events than on
//! a replay, which hands it every string whole, and the copy of each event for the second
//! sink costs the rest. The quick path on the reader's events costs what the replay and the
//! quick path together cost (3.7 M instructions each on the 2,000 lines), and more than the
//! quick path now costs driven from the tree itself ([`Quick::read_value`]), so a tee would
//! save nothing but add the copies.

use super::Gate;
use crate::envelope::{self, Downstream};
use crate::json::{Event, Kind, Limits, Reader, Sink};
use crate::spec::validate::{Program, Quick, Validation};
use crate::spec::ToolSpec;
use std::ops::{ControlFlow, Range};

/// The gate's downstream sink for a verdict.
pub(crate) struct Direct<'g, 'a> {
    gate: &'g Gate,
    /// The place being read: the index of the spec it is checked against, and which check
    /// runs, when the envelope named a registered tool at its start.
    check: Option<(usize, Check)>,
    /// The place's quick path, or its full validation, each kept in its own field and set
    /// up where it stays: both are large (most of a kilobyte, and kilobytes), and a check
    /// built as one value and then moved into place cost two copies of the larger at every
    /// call (1,300 instructions a verdict, a seventh of it). Boxing would cost a heap
    /// allocation, which a check-only verdict promises not to make.
    quick: Option<Quick<'g>>,
    full: Option<Validation<'g, 'a>>,
    /// The kind of the place's value, known from its first event.
    kind: Option<Kind>,
    /// Where the place's value starts in the raw call, and where its last event starts;
    /// `None` when it is read from arguments text (offsets in the text, not the call).
    span: Option<(usize, usize)>,
    /// Where the literal of an arguments text opens in the raw call.
    literal: Option<usize>,
}

/// Which check runs on one place's arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// The quick path, in `Direct::quick`.
    Quick,
    /// The full validation, in `Direct::full`.
    Full,
    /// The quick path gave up: nothing more is fed.
    Unknown,
}

/// What the sink kept of one place's arguments.
pub(crate) struct Checked {
    /// The kind of the value (`None` for a text with no value).
    pub(crate) kind: Option<Kind>,
    /// The spec the value was checked against, and whether it was accepted (`false`: refused,
    /// or the quick path did not know).
    pub(crate) verdict: Option<(usize, bool)>,
    /// Where an object stands in the raw call, when it stands there (not as text).
    pub(crate) span: Option<Range<usize>>,
    /// Where the literal of arguments given as text opens in the raw call.
    pub(crate) literal: Option<usize>,
}

impl<'g, 'a> Direct<'g, 'a> {
    pub(crate) fn new(gate: &'g Gate) -> Direct<'g, 'a> {
        Direct {
            gate,
            check: None,
            quick: None,
            full: None,
            kind: None,
            span: None,
            literal: None,
        }
    }
}

impl<'g, 'a> Sink<'a> for Direct<'g, 'a> {
    #[inline(always)]
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        if self.kind.is_none() {
            self.kind = Some(Event::value_kind(&event));
        }
        if let Some((_, last)) = &mut self.span {
            *last = at;
        }
        match &mut self.check {
            Some((_, check @ Check::Quick)) => {
                let gave_up = match &mut self.quick {
                    Some(quick) => quick.event(event, at).is_break(),
                    None => true,
                };
                if gave_up {
                    *check = Check::Unknown;
                }
            }
            Some((_, Check::Full)) => {
                if let Some(validation) = &mut self.full {
                    let _ = validation.event(event, at);
                }
            }
            Some((_, Check::Unknown)) | None => {}
        }
        ControlFlow::Continue(())
    }
}

impl<'g, 'a> Downstream<'a> for Direct<'g, 'a> {
    type Read = Checked;

    fn begin(&mut self, name: Option<&str>, at: usize, in_text: bool) {
        let gate = self.gate;
        let spec = name
            .and_then(|name| gate.index_of(name))
            .and_then(|index| Some((index, gate.specs.get(index)?)));
        self.check = spec.map(|(index, spec)| (index, self.set_up(spec)));
        self.kind = None;
        (self.span, self.literal) = if in_text {
            (None, Some(at))
        } else {
            (Some((at, at)), None)
        };
    }

    fn end(&mut self) -> Checked {
        // Read in place: a validation is kilobytes, moving it out would copy them all.
        let verdict = self.check.map(|(index, check)| {
            let accepted = match check {
                Check::Quick => self.quick.as_ref().is_some_and(Quick::accepted),
                Check::Full => self.full.as_ref().is_some_and(|v| v.finish().is_ok()),
                Check::Unknown => false,
            };
            (index, accepted)
        });
        self.check = None;
        let kind = self.kind.take();
        // An object's last event is its closing brace, one byte.
        let span = match (self.span.take(), kind) {
            (Some((start, last)), Some(Kind::Object)) => Some(start..last.saturating_add(1)),
            _ => None,
        };
        Checked {
            kind,
            verdict,
            span,
            literal: self.literal.take(),
        }
    }
}

impl<'g, 'a> Direct<'g, 'a> {
    /// Sets up the check of a place's arguments against `spec`, in place: its quick path
    /// when its types allow (the one kept from an earlier place restarted), else its full
    /// validation.
    fn set_up(&mut self, spec: &'g ToolSpec) -> Check {
        let program = spec.params().program();
        if !program.node(Program::ROOT).quick {
            self.full = Some(spec.params().validation());
            return Check::Full;
        }
        match &mut self.quick {
            Some(quick) => quick.restart(program),
            None => self.quick = Some(Quick::new(program)),
        }
        Check::Quick
    }
}

/// Whether `spec` accepts the arguments that stand as JSON at `bytes` (a span of the call
/// the reader has already accepted), read again into its quick path, and into its full
/// validation if the quick path does not know.
pub(crate) fn accepts_text(spec: &ToolSpec, bytes: &[u8], limits: Limits) -> bool {
    // The span is UTF-8 (the reader accepted the call), so it is checked once, in std's
    // word-at-a-time loop, and read as text: read as bytes, the reader checked it again run
    // by run (callgrind, plain calls whose arguments come before their name: 848
    // instructions a call of the 3,745 this read cost).
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let program = spec.params().program();
    if program.node(Program::ROOT).quick {
        let mut quick = Quick::new(program);
        let _ = Reader::new(limits).feed_str(text, &mut quick);
        if quick.accepted() {
            return true;
        }
    }
    let mut validation = spec.params().validation();
    let mut reader = Reader::new(limits);
    let read = reader.feed_str(text, &mut validation);
    let read = read.and_then(|()| reader.finish(&mut validation));
    read.is_ok() && validation.finish().is_ok()
}

/// Whether `spec` accepts the arguments text whose literal opens `literal` (the rest of a
/// call the reader has already accepted), read again into its full validation.
pub(crate) fn accepts_literal(spec: &ToolSpec, literal: &[u8], limits: Limits) -> bool {
    let mut full = Full(spec.params().validation());
    envelope::read_again(literal, limits, &mut full).unwrap_or(false)
}

/// A full validation as a downstream sink: its verdict is whether it accepted.
struct Full<'g, 'a>(Validation<'g, 'a>);

impl<'a> Sink<'a> for Full<'_, 'a> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        self.0.event(event, at)
    }
}

impl<'a> Downstream<'a> for Full<'_, 'a> {
    type Read = bool;
    fn begin(&mut self, _name: Option<&str>, _at: usize, _in_text: bool) {}
    fn end(&mut self) -> bool {
        self.0.finish().is_ok()
    }
}
