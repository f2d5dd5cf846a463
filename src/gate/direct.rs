//! The arguments checked as they are read: the gate's [`Downstream`] sink for a check-only
//! verdict, which runs the tool's spec on the arguments' events as the reader produces
//! them and builds no tree.
//!
//! The envelope names the tool read so far beside each place the arguments may be, when
//! that place begins. If it names a registered tool, the place's events go into that tool's
//! [`Validation`] as they come. The name the call's shape finally uses is known only once
//! the whole envelope is read (a `"name"` may follow `"input"`, a later `"function"` may
//! make the top-level name one toolgate ignores), so the place keeps which tool it was
//! checked against, and the gate uses the verdict only if that is the tool the call names.
//! Otherwise the place keeps its byte span in the raw call, and the gate reads those bytes
//! again into the right tool's validation (Anthropic's SDK dumps `input` before `name`).
//!
//! The verdict is the gates' own only where it is an acceptance: a call refused on the way
//! (a problem of any gate, in any order in the text) is run through the tree path again,
//! which finds the rejection the gate order picks and places it in the built value.
//!
//! Why [`Gate::check_call`] does not validate in the same pass while it builds: a tee of
//! the events into the builder and the validation measured 2,100 instructions a call more
//! than building and then replaying the tree (callgrind, 2,000 corpus lines: 14,673 against
//! 12,571). The validation costs more on a reader's events than on a replay, which hands it
//! every string whole, and the copy of each event for the second sink costs the rest.

use super::Gate;
use crate::envelope::Downstream;
use crate::json::{Event, Kind, Limits, Reader, Sink};
use crate::spec::validate::{Failure, Validation};
use crate::spec::ToolSpec;
use std::ops::{ControlFlow, Range};

/// The gate's downstream sink for a verdict.
pub(crate) struct Direct<'g, 'a> {
    gate: &'g Gate,
    /// The place being read: the index of the spec it is checked against, and its
    /// validation, when the envelope named a registered tool at its start.
    validation: Option<(usize, Validation<'g, 'a>)>,
    /// The kind of the place's value, known from its first event.
    kind: Option<Kind>,
    /// Where the place's value starts in the raw call, and where its last event starts;
    /// `None` when it is read from arguments text (offsets in the text, not the call).
    span: Option<(usize, usize)>,
}

/// What the sink kept of one place's arguments.
pub(crate) struct Checked<'g> {
    /// The kind of the value (`None` for a text with no value).
    pub(crate) kind: Option<Kind>,
    /// The spec the value was checked against, and the verdict: whether a `null` was read
    /// as absent, or the first violation.
    pub(crate) verdict: Option<(usize, Result<bool, Failure<'g>>)>,
    /// Where an object stands in the raw call, when it stands there (not as text).
    pub(crate) span: Option<Range<usize>>,
}

impl<'g, 'a> Direct<'g, 'a> {
    pub(crate) fn new(gate: &'g Gate) -> Direct<'g, 'a> {
        Direct {
            gate,
            validation: None,
            kind: None,
            span: None,
        }
    }
}

impl<'g, 'a> Sink<'a> for Direct<'g, 'a> {
    #[inline(always)]
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        if self.kind.is_none() {
            self.kind = Some(kind_of(&event));
        }
        if let Some((_, last)) = &mut self.span {
            *last = at;
        }
        if let Some((_, validation)) = &mut self.validation {
            let _ = validation.event(event, at);
        }
        ControlFlow::Continue(())
    }
}

impl<'g, 'a> Downstream<'a> for Direct<'g, 'a> {
    type Read = Checked<'g>;

    fn begin(&mut self, name: Option<&str>, at: usize, in_text: bool) {
        let gate = self.gate;
        self.validation = name
            .and_then(|name| gate.index_of(name))
            .and_then(|index| Some((index, gate.specs.get(index)?.params().validation())));
        self.kind = None;
        self.span = if in_text { None } else { Some((at, at)) };
    }

    fn end(&mut self) -> Checked<'g> {
        // Read in place: the validation is kilobytes, moving it out would copy them all.
        let verdict = self.validation.as_ref().map(|(index, validation)| {
            let read_absent = validation.read_absent();
            (*index, validation.finish().map(|()| read_absent))
        });
        self.validation = None;
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
        }
    }
}

/// Whether `spec` accepts the arguments that stand as JSON at `bytes` (a span of the call
/// the reader has already accepted), read again into its validation.
pub(crate) fn accepts_text(spec: &ToolSpec, bytes: &[u8], limits: Limits) -> bool {
    let mut validation = spec.params().validation();
    let mut reader = Reader::new(limits);
    let read = reader.feed(bytes, &mut validation);
    let read = read.and_then(|()| reader.finish(&mut validation));
    read.is_ok() && validation.finish().is_ok()
}

fn kind_of(event: &Event<'_>) -> Kind {
    match event {
        Event::Null => Kind::Null,
        Event::Bool(_) => Kind::Bool,
        Event::Number(_) => Kind::Number,
        Event::ArrayStart => Kind::Array,
        Event::ObjectStart => Kind::Object,
        _ => Kind::String,
    }
}
