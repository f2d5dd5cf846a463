//! The quick path: a yes-or-don't-know answer for the plain types most tools declare.
//!
//! Nearly every call a gate sees is valid, and nearly every tool declares plain types:
//! objects of named fields, scalars with bounds, `enum`s of strings, arrays of those. For
//! such a value the full [`Validation`](super::Validation) does far more bookkeeping than
//! the answer needs: it ranks every failure, keeps each check's steps, runs combinators
//! side by side and answers for any prefix, because when it refuses, the model must read the
//! first violation in the documented order. Accepting needs none of that. So the gate first
//! asks [`Quick`], which walks the same compiled [`Program`], checks scalars with the same
//! code ([`Scalar::first_failure`]), and keeps one small frame per open container:
//!
//! - it says **accepted** only when the full validation would accept too, with nothing read
//!   as absent;
//! - at anything it does not decide itself it **gives up**, and the full validation runs
//!   from the start: a failure of any kind (the full validation finds which is first), a
//!   type with combinators, `$ref`, `uniqueItems`, `propertyNames`, an `enum` or `const`
//!   met by a container, a member its type does not declare (only the full validation keeps
//!   the keys a repeat check needs), a container whose items or members are not described,
//!   a string in parts whose type asks more of it than its kind and length, nesting past
//!   [`QUICK_DEPTH`] levels.
//!
//! Giving up costs only time, so the rules above can be as narrow as speed wants; accepting
//! wrongly would let an invalid call through, so every acceptance rests on a rule the full
//! validation also applies, and a property test holds the two to each other
//! (`quick_acceptance_is_full_acceptance` in `quick_tests.rs`).

use super::kinds::Shape;
use super::program::{AdditionalRule, Assertion, Node, ObjectRules, Program};
use super::resolve::refuses_every_number;
use super::scalar::{breaks_before_end, to_u64, Scalar};
use super::STEP_BUDGET;
use crate::json::{Event, Sink, Value};
use std::ops::ControlFlow;

/// The quick path follows containers this deep; deeper, it gives up.
pub(crate) const QUICK_DEPTH: usize = 16;

/// An open container.
#[derive(Clone, Copy)]
struct Open<'s> {
    node: &'s Node,
    /// An object's member rules, or `None` for an array.
    rules: Option<&'s ObjectRules>,
    /// An array's item type.
    items: Option<&'s Node>,
    /// An object's declared fields seen so far (at most 64 fields: see [`Node::quick`]).
    seen: u64,
    /// The field after the last one matched (fields mostly come in declaration order).
    next_field: u32,
    /// Members or items so far.
    count: u64,
}

/// An accept-only validation, fed a value's events (see the [module](self)).
pub(crate) struct Quick<'s> {
    program: &'s Program,
    open: [Option<Open<'s>>; QUICK_DEPTH],
    depth: usize,
    /// The type the next value must meet.
    next: Option<&'s Node>,
    /// Code points of the string in parts being read, and the type it must meet.
    string: Option<(&'s Node, u64)>,
    values: u32,
    state: State,
    /// Give up as soon as the full validation could refuse the value read so far (see
    /// [`Quick::eager`]), not only at what the verdict on the whole needs.
    eager: bool,
    /// The eager path's string in parts whose type reads it whole (an `enum`, `const`,
    /// `format` or `pattern`): its text so far, decided at its end as a whole string is.
    gathering: bool,
    text: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Reading,
    Accepted,
    GaveUp,
}

impl<'s> Quick<'s> {
    pub(crate) fn new(program: &'s Program) -> Quick<'s> {
        Quick {
            program,
            open: [None; QUICK_DEPTH],
            depth: 0,
            next: Some(program.node(Program::ROOT)),
            string: None,
            values: 0,
            state: State::Reading,
            eager: false,
            gathering: false,
            text: String::new(),
        }
    }

    /// A quick path for a value that streams in, whose prefixes the full validation is
    /// asked about ([`Validation::refused`](super::Validation::refused)): it gives up at
    /// the first event after which the full validation may refuse the prefix, so that while
    /// it reads on, the prefix is not refused. That adds two give-ups to the ones the
    /// verdict needs, where the full validation refuses before the value ends: an array
    /// item past `maxItems`, and a string in parts past `maxLength`, no longer the start of
    /// any value its `enum` or `const` allows, or longer than its `format`'s longest value.
    /// And since a chunk may cut any string, it decides strings in parts whose type reads
    /// them whole, keeping their text (at most the call's own size) until they end.
    pub(crate) fn eager(program: &'s Program) -> Quick<'s> {
        Quick {
            eager: true,
            ..Quick::new(program)
        }
    }

    /// True if a number beginning now is refused whatever its digits, as
    /// [`Validation::refused_if_number_next`](super::Validation::refused_if_number_next)
    /// decides it: the value after an object's key must meet a type that takes no number.
    pub(crate) fn refuses_number_next(&self) -> bool {
        if self.state != State::Reading {
            return false;
        }
        let top = self.depth.checked_sub(1).and_then(|t| self.open.get(t));
        let in_object = matches!(top, Some(Some(Open { rules: Some(_), .. })));
        in_object && self.next.is_some_and(refuses_every_number)
    }

    /// Takes one event of the value, as the [`Sink`] does: `Break` when it gives up.
    pub(crate) fn step(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        match event {
            Event::Null => self.scalar(&Scalar::Null),
            Event::Bool(b) => self.scalar(&Scalar::Bool(*b)),
            Event::Number(number) => self.scalar(&Scalar::number(number.as_str())),
            Event::String(text) => self.scalar(&Scalar::string(text)),
            Event::Key(key) => self.key(key),
            Event::ArrayStart => self.begin_container(Shape::Array),
            Event::ObjectStart => self.begin_container(Shape::Object),
            Event::ArrayEnd | Event::ObjectEnd => self.end_container(),
            Event::StringStart => self.begin_string(),
            Event::StringPart(part) => self.string_part(part),
            Event::StringChar(c) => self.string_part(c.encode_utf8(&mut [0; 4])),
            Event::StringEnd => self.end_string(),
        }
    }

    /// True if the value fed is accepted; false if the quick path gave up (or the value has
    /// not ended), and the full validation must decide.
    pub(crate) fn accepted(&self) -> bool {
        self.state == State::Accepted
    }

    fn give_up(&mut self) -> ControlFlow<()> {
        self.state = State::GaveUp;
        ControlFlow::Break(())
    }

    /// A value begins: the type it must meet, once it is one the quick path decides.
    fn begin(&mut self) -> Option<&'s Node> {
        self.values = self.values.saturating_add(1);
        if self.state != State::Reading || self.values >= STEP_BUDGET {
            return None;
        }
        if let Some(Some(top)) = self.depth.checked_sub(1).and_then(|t| self.open.get_mut(t)) {
            if top.rules.is_none() {
                top.count = top.count.saturating_add(1);
                self.next = top.items;
                if self.eager && past_max_items(top.node, top.count) {
                    return None;
                }
            }
        }
        self.next.take().filter(|node| node.quick)
    }

    /// A value has ended: the root's end is the verdict.
    fn done(&mut self) -> ControlFlow<()> {
        if self.depth == 0 {
            self.state = State::Accepted;
        }
        ControlFlow::Continue(())
    }

    fn scalar(&mut self, scalar: &Scalar<'_>) -> ControlFlow<()> {
        match self.begin() {
            Some(node) if Self::accepts(node, scalar) => self.done(),
            _ => self.give_up(),
        }
    }

    /// True if `scalar` meets every assertion of `node`: in one step when the node's rules
    /// are plain, else by the full validation's own check.
    fn accepts(node: &Node, scalar: &Scalar<'_>) -> bool {
        match &node.plain {
            Some(plain) => plain.accepts(scalar),
            None => scalar.first_failure(node).is_none(),
        }
    }

    fn begin_container(&mut self, shape: Shape) -> ControlFlow<()> {
        let Some(node) = self.begin() else {
            return self.give_up();
        };
        let mut open = Open {
            node,
            rules: None,
            items: None,
            seen: 0,
            next_field: 0,
            count: 0,
        };
        let mut described = false;
        for assertion in &node.assertions {
            match assertion {
                Assertion::Type(kinds) if !shape.admitted_by(*kinds) => return self.give_up(),
                Assertion::Enum(_) | Assertion::Const(_) => return self.give_up(),
                Assertion::Items(items) if shape == Shape::Array => {
                    open.items = Some(self.program.node(*items));
                    described = true;
                }
                Assertion::Object(rules) if shape == Shape::Object => {
                    open.rules = Some(rules);
                    described = true;
                }
                _ => {}
            }
        }
        // An undescribed container may hold anything, a repeated key included, which only
        // the full validation looks for.
        if !described {
            return self.give_up();
        }
        match self.open.get_mut(self.depth) {
            Some(slot) => *slot = Some(open),
            None => return self.give_up(),
        }
        self.depth += 1;
        ControlFlow::Continue(())
    }

    fn key(&mut self, key: &str) -> ControlFlow<()> {
        let top = self.depth.checked_sub(1).and_then(|t| self.open.get_mut(t));
        let Some(Some(Open {
            rules: Some(rules),
            seen,
            next_field,
            count,
            ..
        })) = top
        else {
            return self.give_up();
        };
        *count = count.saturating_add(1);
        let Some(field) = super::members::field_index(&rules.fields, key, *next_field) else {
            // Undeclared: refused, or allowed and then kept for the repeat check.
            return self.give_up();
        };
        let mask = 1u64 << (field % 64);
        let rule = rules.fields.get(field);
        match rule {
            Some(rule) if *seen & mask == 0 && field < 64 && !rule.never => {
                *seen |= mask;
                *next_field = u32::try_from(field + 1).unwrap_or(u32::MAX);
                self.next = Some(self.program.node(rule.node));
                ControlFlow::Continue(())
            }
            _ => self.give_up(),
        }
    }

    fn end_container(&mut self) -> ControlFlow<()> {
        let Some(top) = self.depth.checked_sub(1) else {
            return self.give_up();
        };
        let Some(Some(open)) = self.open.get(top).copied() else {
            return self.give_up();
        };
        self.depth = top;
        if let Some(rules) = open.rules {
            let required = rules.required.first().copied().unwrap_or(0);
            if required & !open.seen != 0 {
                return self.give_up();
            }
        }
        for assertion in &open.node.assertions {
            let fits = match assertion {
                Assertion::MinItems { min, .. } if open.rules.is_none() => open.count >= *min,
                Assertion::MaxItems { max, .. } if open.rules.is_none() => open.count <= *max,
                Assertion::MinProperties { min, .. } if open.rules.is_some() => open.count >= *min,
                Assertion::MaxProperties { max, .. } if open.rules.is_some() => open.count <= *max,
                _ => true,
            };
            if !fits {
                return self.give_up();
            }
        }
        self.done()
    }

    fn begin_string(&mut self) -> ControlFlow<()> {
        let Some(node) = self.begin() else {
            return self.give_up();
        };
        // Only the kind and the length can be decided from parts without keeping them; the
        // eager path keeps the text of a string whose type reads it whole.
        let mut whole = false;
        for assertion in &node.assertions {
            match assertion {
                Assertion::Type(kinds) if !Shape::String.admitted_by(*kinds) => {
                    return self.give_up()
                }
                Assertion::Enum(choices) | Assertion::Const(choices) => {
                    if !self.eager || choices.none_left(choices.all_strings()) {
                        return self.give_up();
                    }
                    whole = true;
                }
                assertion if assertion.reads_whole_string() => {
                    if !self.eager {
                        return self.give_up();
                    }
                    whole = true;
                }
                _ => {}
            }
        }
        self.string = Some((node, 0));
        self.text.clear();
        if whole {
            // Room for a typical value at once (an `enum`'s, a date), not growth from 8.
            self.text.reserve(32);
        }
        self.gathering = whole;
        ControlFlow::Continue(())
    }

    fn string_part(&mut self, part: &str) -> ControlFlow<()> {
        let Some((node, count)) = &mut self.string else {
            return self.give_up();
        };
        *count = count.saturating_add(to_u64(part.chars().count()));
        if !self.eager {
            return ControlFlow::Continue(());
        }
        if self.gathering {
            self.text.push_str(part);
        }
        // Where the full validation refuses a string in parts before it ends.
        let (chars, bytes) = (*count, self.text.as_bytes());
        let refused = node.assertions.iter().any(|assertion| match assertion {
            Assertion::Enum(choices) | Assertion::Const(choices) => {
                choices.none_left(choices.narrow(choices.all_strings(), 0, bytes))
            }
            other => breaks_before_end(other, chars, bytes.len()),
        });
        if refused {
            return self.give_up();
        }
        ControlFlow::Continue(())
    }

    fn end_string(&mut self) -> ControlFlow<()> {
        let Some((node, chars)) = self.string.take() else {
            return self.give_up();
        };
        if self.gathering {
            self.gathering = false;
            return match Scalar::string(&self.text).first_failure(node) {
                None => self.done(),
                Some(_) => self.give_up(),
            };
        }
        for assertion in &node.assertions {
            let fits = match assertion {
                Assertion::MinLength { min, .. } => chars >= *min,
                Assertion::MaxLength { max, .. } => chars <= *max,
                _ => true,
            };
            if !fits {
                return self.give_up();
            }
        }
        self.done()
    }
}

impl Quick<'_> {
    /// Reads a value already built: the steps its events would take ([`json::replay`]),
    /// taken without making the events, for a validation of a tree (the gate's, after the
    /// call is parsed). The recursion is bounded: past [`QUICK_DEPTH`] open containers the
    /// quick path gives up.
    ///
    /// [`json::replay`]: crate::json::replay
    pub(crate) fn read_value(&mut self, value: &Value<'_>) -> ControlFlow<()> {
        match value {
            Value::Null => self.scalar(&Scalar::Null),
            Value::Bool(b) => self.scalar(&Scalar::Bool(*b)),
            Value::Number(number) => self.scalar(&Scalar::number(number.as_str())),
            Value::String(text) => self.scalar(&Scalar::string(text)),
            Value::Array(items) => {
                self.begin_container(Shape::Array)?;
                for item in items {
                    self.read_value(item)?;
                }
                self.end_container()
            }
            Value::Object(members) => {
                self.begin_container(Shape::Object)?;
                for (key, member) in members {
                    self.key(key)?;
                    self.read_value(member)?;
                }
                self.end_container()
            }
        }
    }
}

impl<'a> Sink<'a> for Quick<'_> {
    fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
        self.step(&event)
    }
}

/// True if an array of `count` items breaks `node`'s `maxItems`.
fn past_max_items(node: &Node, count: u64) -> bool {
    node.assertions
        .iter()
        .any(|assertion| matches!(assertion, Assertion::MaxItems { max, .. } if count > *max))
}

impl Assertion {
    /// True if the quick path can decide this assertion for every value (see
    /// [`Node::quick`]): the scalar rules, which it checks with the full validation's own
    /// code ([`Scalar::first_failure`]), and the container rules it keeps counts and bits
    /// for. A new assertion is quick if `first_failure` decides it for a whole scalar and it
    /// asks nothing of containers (or the quick path learns to decide it); if it needs a
    /// string's text, [`Assertion::reads_whole_string`] must say so, as strings in parts are
    /// decided by kind and length only.
    pub(crate) fn is_quick(&self) -> bool {
        match self {
            Assertion::Enum(_)
            | Assertion::Const(_)
            | Assertion::Type(_)
            | Assertion::Minimum { .. }
            | Assertion::Maximum { .. }
            | Assertion::MultipleOf(_)
            | Assertion::MinLength { .. }
            | Assertion::MaxLength { .. }
            | Assertion::Pattern(_)
            | Assertion::Format(_)
            | Assertion::MinProperties { .. }
            | Assertion::MaxProperties { .. }
            | Assertion::MinItems { .. }
            | Assertion::MaxItems { .. }
            | Assertion::Items(_) => true,
            Assertion::Object(rules) => {
                rules.fields.len() <= 64
                    && rules.names.is_none()
                    && rules.patterns.is_empty()
                    && !matches!(rules.additional, AdditionalRule::Typed(_))
            }
            Assertion::UniqueItems
            | Assertion::Ref(_)
            | Assertion::DanglingRef
            | Assertion::AllOf(_)
            | Assertion::AnyOf(_)
            | Assertion::OneOf(_)
            | Assertion::PrefixItems { .. }
            | Assertion::Contains { .. }
            | Assertion::Not { .. }
            | Assertion::Conditional(_)
            | Assertion::UnevaluatedProperties(_)
            | Assertion::UnevaluatedItems(_) => false,
        }
    }
}
