//! A turn's one pass: the reader reads the turn once, and its events build the turn's
//! outline and, at the same time, read every call in it through the envelope.
//!
//! The outline is the turn's value as far as the form's reading ([`read`](super::read))
//! looks into it, flat: one [`Entry`] per value in the order a depth-first walk meets them
//! (a container before its members, members in order), so a value's *place* is its index,
//! and a container's members are the entries after it up to its `end`. A member the
//! reading never asks for (a call's id, its arguments) is left out, key and all, and one it
//! only asks is there (a call's `name`, `function`) holds `true` (or `null`) ([`kept`]);
//! nothing inside either has an entry. One list, filled in place: no tree of vectors to
//! build, walk again for the calls' places and drop (measured with callgrind on turns of
//! four calls, that tree, its ranges and the walk cost about 400 instructions a call).
//!
//! Which values are calls is only known once the form is read, after the pass (a `type`
//! may come last). So every array or object that may be one, an element of a list or the
//! value of a `function_call` member (OpenAI's legacy call, read as `{"function_call": …}`,
//! the shape the envelope reads), is read by an [`Embedded`] envelope as the events go by,
//! and its answer is kept with its place; the turn takes the answers of the values that are
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
use crate::json::{self, Builder, Event, Limits, ParseError, Reader, Sink, Stack, Stop, Value};
use crate::rejection::Rejection;
use std::borrow::Cow;
use std::mem::ManuallyDrop;
use std::ops::{ControlFlow, Range};

/// The turn, read once.
pub(crate) struct Outline<'a> {
    /// The turn's values, as far as the form's reading looks into it, by place.
    entries: Entries<'a>,
    /// The turn's text, which each container's range is in.
    raw: &'a str,
    /// The limits the turn was read under (a container read again for a message is
    /// within them).
    limits: Limits,
}

/// One value of the outline.
struct Entry<'a> {
    /// Its key, when it is a member (`None` for an element or the whole turn). Only
    /// members the form's reading reads have entries, so every key is a [`Key`].
    key: Option<Key>,
    /// A scalar's value; for an array or object, an empty one of its kind, whose members
    /// are the entries after it. Dropped by [`Entries`], only when one may own memory.
    value: ManuallyDrop<Value<'a>>,
    /// The place after its last member (after itself, for a scalar).
    end: usize,
    /// An array's or object's byte range in the turn (empty for a scalar).
    range: Range<usize>,
}

/// The outline's entries, dropped without a step per entry when none owns memory.
///
/// Nearly every entry holds nothing to free: an empty array or object standing for a
/// container, `true` for a member only asked for, a string borrowed from the turn. A
/// `Vec<Entry>` would still drop each value in turn (callgrind, turns of four plain calls:
/// 61 instructions a call); this one frees its buffer alone unless an entry was pushed
/// that may own memory (a number, a string that held an escape).
struct Entries<'a> {
    list: Vec<Entry<'a>>,
    /// Some entry's value may own memory.
    owns: bool,
}

impl<'a> Entries<'a> {
    fn with_capacity(capacity: usize) -> Self {
        Entries {
            list: Vec::with_capacity(capacity),
            owns: false,
        }
    }

    /// Pushes an entry that owns no memory.
    fn push(&mut self, entry: Entry<'a>) {
        self.list.push(entry);
    }

    /// Pushes an entry that may own memory.
    fn push_owning(&mut self, entry: Entry<'a>) {
        self.owns = true;
        self.list.push(entry);
    }
}

impl<'a> std::ops::Deref for Entries<'a> {
    type Target = [Entry<'a>];
    fn deref(&self) -> &[Entry<'a>] {
        &self.list
    }
}

impl<'a> std::ops::DerefMut for Entries<'a> {
    fn deref_mut(&mut self) -> &mut [Entry<'a>] {
        &mut self.list
    }
}

impl Drop for Entries<'_> {
    fn drop(&mut self) {
        if self.owns {
            for entry in self.list.drain(..) {
                drop(ManuallyDrop::into_inner(entry.value));
            }
        }
    }
}

/// What the envelope read of a value of the turn that may be a call and was read to its
/// end.
pub(crate) struct ReadCall<'a> {
    /// The value's place in the outline.
    pub(crate) place: usize,
    /// Read as the value of a legacy `function_call` member.
    pub(crate) legacy: bool,
    /// The envelope's answer (taken by the turn when the value is a call).
    pub(crate) read: Option<Result<Call<'a>, Rejection>>,
}

/// A value of the outline: what the form's reading walks.
#[derive(Clone, Copy)]
pub(crate) struct Node<'o, 'a> {
    outline: &'o Outline<'a>,
    place: usize,
}

impl<'a> Outline<'a> {
    /// The value at `place` (the whole turn at 0).
    pub(crate) fn node(&self, place: usize) -> Node<'_, 'a> {
        Node {
            outline: self,
            place,
        }
    }
}

impl<'o, 'a> Node<'o, 'a> {
    /// Its place in the outline.
    pub(crate) fn place(self) -> usize {
        self.place
    }

    fn entry(self) -> Option<&'o Entry<'a>> {
        self.outline.entries.get(self.place)
    }

    /// A scalar's value, or an empty array or object standing for one (see [`Entry`]).
    pub(crate) fn value(self) -> &'o Value<'a> {
        const NULL: &Value<'static> = &Value::Null;
        self.entry().map_or(NULL, |entry| &entry.value)
    }

    /// An array's or object's own text in the turn (`None` for a scalar).
    pub(crate) fn text(self) -> Option<&'a str> {
        let entry = self.entry()?;
        match *entry.value {
            Value::Array(_) | Value::Object(_) => self.outline.raw.get(entry.range.clone()),
            _ => None,
        }
    }

    /// The value whole, every member included, for a message that shows what arrived:
    /// an array or object read again from its text.
    pub(crate) fn whole(self) -> Value<'a> {
        self.text()
            .and_then(|text| json::parse_with(text, self.outline.limits).ok())
            .unwrap_or_else(|| self.value().clone())
    }

    /// Its members (an object's) or elements (an array's, without keys), in order.
    fn members(self) -> impl Iterator<Item = (Option<Key>, Node<'o, 'a>)> {
        let outline = self.outline;
        let end = self.entry().map_or(0, |entry| entry.end);
        let mut next = self.place.saturating_add(1);
        std::iter::from_fn(move || {
            let entry = outline.entries.get(next).filter(|_| next < end)?;
            let node = Node {
                outline,
                place: next,
            };
            next = entry.end;
            Some((entry.key, node))
        })
    }

    /// An array's elements.
    pub(crate) fn items(self) -> impl Iterator<Item = Node<'o, 'a>> {
        let array = matches!(self.value(), Value::Array(_));
        self.members().filter(move |_| array).map(|(_, node)| node)
    }

    /// An object's members named `key`.
    pub(crate) fn named(self, key: Key) -> impl Iterator<Item = Node<'o, 'a>> {
        let object = matches!(self.value(), Value::Object(_));
        self.members()
            .filter(move |(name, _)| object && *name == Some(key))
            .map(|(_, node)| node)
    }
}

/// Reads `raw` as a turn under `limits`, its calls under `call_limits` (see the module
/// docs): the outline, and the envelope's answers by place, in place order.
///
/// # Errors
/// The [`ParseError`] of a text that is not JSON, as [`json::parse_with`] gives it.
pub(crate) fn read<'a>(
    raw: &'a str,
    limits: Limits,
    call_limits: Limits,
) -> Result<(Outline<'a>, Vec<ReadCall<'a>>), ParseError> {
    // The builder stands here, made in place, and the pass borrows it: a builder moved
    // into the pass was copied whole (its inline room), a turn's every time.
    let mut builder = Builder::new();
    let mut pass = Pass {
        entries: Entries::with_capacity(ENTRIES_START),
        reads: Vec::with_capacity(READS_START),
        open: Stack::new(),
        key: None,
        keep_next: Kept::Whole,
        text: None,
        skipping: 0,
        function_call_next: false,
        envelope: Embedded::new(call_limits, &mut builder, raw),
        reading: None,
        max_depth: call_limits.max_depth,
    };
    let mut reader = Reader::new(limits);
    let read = reader.feed_str(raw, &mut pass);
    match read.and_then(|()| reader.finish(&mut pass)) {
        // No sink of the pass breaks.
        Ok(()) | Err(Stop::Sink) => Ok((
            Outline {
                entries: pass.entries,
                raw,
                limits,
            },
            pass.reads,
        )),
        Err(Stop::Invalid(error)) => Err(error.locate(raw.as_bytes())),
    }
}

/// Room for a turn's reads at once (most turns hold a few calls), instead of growing
/// from none at the first (callgrind, turns of four: 13 instructions a call less; a turn
/// without calls pays the allocation for nothing).
const READS_START: usize = 4;

/// Room for a turn's entries at once (a message, its list of calls, each call and the
/// members read of it), instead of growing four, eight, sixteen.
const ENTRIES_START: usize = 16;

/// The sink of the one pass.
struct Pass<'a, 'd> {
    entries: Entries<'a>,
    reads: Vec<ReadCall<'a>>,
    /// The places of the open containers of the outline, innermost last. A [`Stack`],
    /// whose first levels are inline: a turn's nesting costs no allocation.
    open: Stack,
    /// The key of the member whose value comes next (`None` for an element).
    key: Option<Key>,
    /// What the outline keeps of the value that comes next (its key's [`kept`]).
    keep_next: Kept,
    /// A string the outline keeps, being gathered from its pieces.
    text: Option<String>,
    /// Inside a value not kept: how many of its containers and strings are open.
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
    /// Its place in the outline.
    place: usize,
    legacy: bool,
    /// Its containers open, itself included; with the one a legacy call is read inside,
    /// this is its nesting as a call alone.
    depth: usize,
}

impl<'a> Sink<'a> for Pass<'a, '_> {
    /// The outline's step first ([`Pass::structure`], or [`Pass::skip`] inside a value the
    /// outline does not keep: most of a turn, the arguments), then the envelope, if it
    /// reads. Inlined where the reader knows the event's kind. Each step hands the event on
    /// to the envelope itself, so that the skipped events (most of a call) return straight
    /// from the envelope's step (callgrind, turns of four plain / OpenAI / Anthropic calls:
    /// 14 / 5 / 15 instructions a call less than one call after both steps).
    #[inline(always)]
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        let closes = matches!(event, Event::ArrayEnd | Event::ObjectEnd);
        if self.skipping != 0 {
            if !self.skip(&event) {
                return ControlFlow::Continue(());
            }
            return self.envelope.event(event, at);
        }
        if !self.structure(&event, at) {
            return ControlFlow::Continue(());
        }
        let flow = self.envelope.event(event, at);
        let ends = |call: Reading| call.depth == usize::from(call.legacy);
        if closes && self.reading.is_some_and(ends) {
            self.stop_reading(true);
        }
        flow
    }

    /// An arguments literal that the envelope reading a call takes whole, as it does for a
    /// call alone; the outline then steps over it as the string value it is, one it does
    /// not keep. Any other string (one the outline keeps, or none being read) is left to
    /// the reader's events.
    #[inline]
    fn literal(&mut self, quote: usize, body: &'a str) -> Option<usize> {
        let structure = self.skipping == 0;
        if self.reading.is_none() || (structure && self.keep_next == Kept::Whole) {
            return None;
        }
        let read = self.envelope.literal(quote, body)?;
        if structure {
            self.structure(&Event::StringStart, quote);
        } else {
            self.skip(&Event::StringStart);
        }
        if body.as_bytes().get(read) == Some(&b'"') {
            self.skipped(&Event::StringEnd);
        }
        Some(read)
    }
}

impl<'a> Pass<'a, '_> {
    /// An event outside the values not kept: the outline takes it, and an envelope
    /// starts reading at an array or object that may be a call. True if an envelope reads
    /// the event.
    #[inline(always)]
    fn structure(&mut self, event: &Event<'a>, at: usize) -> bool {
        let opens = matches!(event, Event::ArrayStart | Event::ObjectStart);
        if opens && self.keep_next == Kept::Whole {
            self.may_begin();
        }
        self.build(event, at);
        let Some(call) = &mut self.reading else {
            return false;
        };
        match event {
            Event::ArrayStart | Event::ObjectStart => call.depth += 1,
            Event::ArrayEnd | Event::ObjectEnd => call.depth = call.depth.saturating_sub(1),
            _ => {}
        }
        if call.depth > self.max_depth {
            self.stop_reading(false);
            return false;
        }
        true
    }

    /// An event inside a value the outline does not keep: only counted. True if an
    /// envelope reads the event.
    #[inline(always)]
    fn skip(&mut self, event: &Event<'a>) -> bool {
        self.skipped(event);
        let Some(call) = &mut self.reading else {
            return false;
        };
        match event {
            Event::ArrayStart | Event::ObjectStart => {
                call.depth += 1;
                if call.depth > self.max_depth {
                    self.stop_reading(false);
                    return false;
                }
            }
            Event::ArrayEnd | Event::ObjectEnd => call.depth = call.depth.saturating_sub(1),
            _ => {}
        }
        true
    }

    /// An array or object opens outside the values not kept: an envelope starts reading
    /// it when it may be a call (see the module docs).
    fn may_begin(&mut self) {
        let in_array = self.open.last().and_then(|place| self.entries.get(place));
        let legacy = match in_array.map(|entry| matches!(*entry.value, Value::Array(_))) {
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
            place: self.entries.len(),
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
        self.reads.push(ReadCall {
            place: call.place,
            legacy: call.legacy,
            read: Some(read),
        });
    }

    /// An event inside a value the outline does not keep: counted, to know where it ends.
    #[inline(always)]
    fn skipped(&mut self, event: &Event<'a>) {
        match event {
            Event::ArrayStart | Event::ObjectStart | Event::StringStart => self.skipping += 1,
            Event::ArrayEnd | Event::ObjectEnd | Event::StringEnd => self.skipping -= 1,
            _ => {}
        }
    }

    /// A value of the outline begins at `at`: its entry, under the key that came before.
    fn push(&mut self, value: Value<'a>, at: usize) {
        let entry = self.entry(value, at);
        self.entries.push(entry);
    }

    /// [`Pass::push`] for a value that may own memory (a number, a string that held an
    /// escape).
    fn push_owning(&mut self, value: Value<'a>, at: usize) {
        let entry = self.entry(value, at);
        self.entries.push_owning(entry);
    }

    /// The entry of a value that begins at `at`, under the key that came before.
    fn entry(&mut self, value: Value<'a>, at: usize) -> Entry<'a> {
        let place = self.entries.len();
        Entry {
            key: self.key.take(),
            value: ManuallyDrop::new(value),
            end: place.saturating_add(1),
            range: at..at,
        }
    }

    /// An array or object of the outline opens at `at`.
    fn opens(&mut self, value: Value<'a>, at: usize) {
        self.open.push(self.entries.len());
        self.push(value, at);
    }

    /// The innermost open container closes at `at`: its members end here.
    fn closes(&mut self, at: usize) {
        let end = self.entries.len();
        let entry = self
            .open
            .pop()
            .and_then(|place| self.entries.get_mut(place));
        if let Some(entry) = entry {
            entry.end = end;
            entry.range.end = at.saturating_add(1);
        }
    }

    /// An event the outline keeps, or the first of a value it does not keep. Inlined into
    /// [`Pass::structure`], at each of the reader's sites, so that its match folds (a turn
    /// of four: 150 instructions a call less).
    #[inline(always)]
    fn build(&mut self, event: &Event<'a>, at: usize) {
        let keep = std::mem::replace(&mut self.keep_next, Kept::Whole);
        if keep != Kept::Whole {
            // The first event of a value the outline does not keep: the outline holds
            // whether it is there, or nothing, and the rest of it is only counted.
            if keep == Kept::Presence {
                let present = match event {
                    Event::Null => Value::Null,
                    _ => Value::Bool(true),
                };
                self.push(present, at);
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
                let key = Key::of(key);
                self.keep_next = key.map_or(Kept::Nothing, kept);
                self.function_call_next = key == Some(Key::FunctionCall);
                self.key = key;
            }
            Event::ArrayStart => self.opens(Value::Array(Vec::new()), at),
            Event::ObjectStart => self.opens(Value::Object(Vec::new()), at),
            Event::ArrayEnd | Event::ObjectEnd => self.closes(at),
            Event::Null => self.push(Value::Null, at),
            Event::Bool(b) => self.push(Value::Bool(*b), at),
            Event::Number(n) => self.push_owning(Value::Number(n.clone()), at),
            Event::String(text) => self.push(Value::String(Cow::Borrowed(text)), at),
            Event::StringStart => self.text = Some(String::new()),
            Event::StringPart(run) => {
                if let Some(text) = &mut self.text {
                    text.push_str(run);
                }
            }
            Event::StringChar(c) => {
                if let Some(text) = &mut self.text {
                    text.push(*c);
                }
            }
            Event::StringEnd => {
                let text = self.text.take().unwrap_or_default();
                self.push_owning(Value::String(Cow::Owned(text)), at);
            }
        }
    }
}
