//! The quick path: a yes-or-don't-know answer for the plain types most tools declare.
//!
//! Nearly every call a gate sees is valid, and nearly every tool declares plain types:
//! objects of named fields, scalars with bounds, `enum`s of strings, arrays of those. For
//! such a value the full [`Validation`](super::Validation) does far more bookkeeping than
//! the answer needs: it ranks every failure, keeps each check's steps, runs combinators
//! side by side and answers for any prefix, because when it refuses, the model must read the
//! first violation in the documented order. Accepting needs none of that. So the gate first
//! asks [`Quick`], which walks the same compiled [`Program`], checks scalars with the same
//! code ([`Scalar::first_failure`], or the same rules read off a plain node when it was
//! compiled: [`PlainScalar`]), and keeps one small frame per open container:
//!
//! - it says **accepted** only when the full validation would accept too, with nothing read
//!   as absent;
//! - at anything it does not decide itself it **gives up**, and the full validation runs
//!   from the start: a failure of any kind (the full validation finds which is first), a
//!   type with combinators, `$ref`, `uniqueItems`, `propertyNames`, an `enum` or `const`
//!   met by a container, a member its type does not declare (only the full validation keeps
//!   the keys a repeat check needs), a container whose items or members are not described,
//!   nesting past [`QUICK_DEPTH`] levels. A string that arrives in parts (it holds an
//!   escape, or a chunk cut it) and whose type reads it whole (`enum`, `const`, `format`,
//!   `pattern`) is joined as it comes (in place while it is short) and decided at its end,
//!   as the same string whole is.
//!
//! What a container needs of its node (where its object rules stand, its item type, its
//! count bounds), and what a string in parts needs (its length bounds, its one `enum`), is
//! read off the node's assertions once, when it is compiled ([`Outline`]), not looked for
//! at every value or part. The quick path is fed a value's events (the check-only
//! verdict, the streaming check) or walks a value already built ([`Quick::read_value`], for
//! [`Schema::validate`](crate::spec::Schema::validate)), each open container's frame then a
//! local of the walk's recursion; both ask the same rules ([`Fields::member`],
//! [`Fields::complete`], the outline's bounds), and a test holds their verdicts equal.
//!
//! Giving up costs only time, so the rules above can be as narrow as speed wants; accepting
//! wrongly would let an invalid call through, so every acceptance rests on a rule the full
//! validation also applies, and a property test holds the two to each other
//! (`quick_acceptance_is_full_acceptance` in `quick_tests.rs`).

use super::choices::{Choices, Prefix};
use super::joined::Joined;
use super::kinds::Shape;
use super::members::field_index;
use super::program::{AdditionalRule, Assertion, Node, NodeId, ObjectRules, Program};
#[cfg(feature = "stream")]
use super::resolve::refuses_every_number;
use super::run::widen;
use super::scalar::{to_u64, PlainScalar, Scalar};
use super::STEP_BUDGET;
use crate::json::{Event, Member, Sink, Value};
use std::ops::ControlFlow;

/// The quick path follows containers this deep; deeper, it gives up (the full validation
/// decides). Tool arguments are shallow: the corpus's 20,000 calls nest three levels at
/// most. Its frames live inline, so their number is the size of every quick path, which a
/// stream holds and moves: sixteen made a stream 2.2 KB, and cost a provider-form stream
/// about 115 instructions more (callgrind, 16-byte chunks).
pub(crate) const QUICK_DEPTH: usize = 8;

/// What the quick path reads of a node to decide a container or a plain scalar, read off
/// the node's assertions when it is compiled ([`Outline::of`]), so that a value does not
/// walk them to find its container rules. It holds nothing the assertions do not say.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outline {
    /// Where the node's `object` rules stand among its assertions, when the quick path
    /// decides an object here: the node's `type` admits objects and no `enum` or `const`
    /// compares the value whole. An undescribed object may hold anything, a repeated key
    /// included, which only the full validation looks for.
    object: Option<u32>,
    /// The node's `items`, when the quick path decides an array here (likewise).
    items: Option<NodeId>,
    /// `minItems` and `maxItems` (0 and `u64::MAX` when not given).
    n_items: (u64, u64),
    /// `minProperties` and `maxProperties`.
    n_members: (u64, u64),
    /// The node's scalar rules, when they are all plain ones.
    pub(super) plain: Option<PlainScalar>,
    /// What decides a string of the node that arrives in parts.
    parts: Parts,
}

/// What the quick path reads of a node for a string that arrives in parts (it holds an
/// escape, or a chunk cut it), read off the node's assertions when it is compiled: a
/// streamed call's strings are nearly all cut, and each part would otherwise walk the
/// assertions again, and narrow an `enum` again from all its strings.
#[derive(Clone, Copy, Debug)]
struct Parts {
    /// The node may take a string: its `type` admits one, and each `enum` or `const`
    /// allows some string.
    admitted: bool,
    /// A rule reads the string whole (`enum`, `const`, `pattern`, a string `format`): its
    /// parts are joined.
    whole: bool,
    /// `minLength` and `maxLength`, in code points (0 and `u64::MAX` when not given).
    n_chars: (u64, u64),
    /// The longest value of the node's bounded `format`s, in bytes.
    max_bytes: usize,
    /// Where the node's one `enum` or `const` stands among its assertions: an eager quick
    /// path narrows it part by part, as the full validation does.
    choices: Option<u32>,
    /// The node has more than one `enum` or `const` (rare): an eager quick path gives up
    /// on its strings in parts rather than narrow each.
    many_choices: bool,
    /// That `enum` or `const` is the only rule that reads the string whole: where it was
    /// narrowed, its range decides the string's end without the whole text compared again.
    only_choices: bool,
}

impl Parts {
    const NONE: Parts = Parts {
        admitted: false,
        whole: false,
        n_chars: (0, u64::MAX),
        max_bytes: usize::MAX,
        choices: None,
        many_choices: false,
        only_choices: false,
    };

    fn of(assertions: &[Assertion]) -> Parts {
        let mut parts = Parts {
            admitted: true,
            ..Parts::NONE
        };
        let mut reads_whole = false;
        for (position, assertion) in assertions.iter().enumerate() {
            match assertion {
                Assertion::Type(kinds) => parts.admitted &= Shape::String.admitted_by(*kinds),
                Assertion::Enum(choices) | Assertion::Const(choices) => {
                    parts.admitted &= !choices.none_left(choices.all_strings());
                    parts.many_choices |= parts.choices.is_some();
                    parts.choices = u32::try_from(position).ok();
                    parts.whole = true;
                }
                Assertion::MinLength { min, .. } => parts.n_chars.0 = parts.n_chars.0.max(*min),
                Assertion::MaxLength { max, .. } => parts.n_chars.1 = parts.n_chars.1.min(*max),
                _ => {}
            }
            if let Assertion::Format(format) = assertion {
                if let Some(max) = format.max_len() {
                    parts.max_bytes = parts.max_bytes.min(max);
                }
            }
            if assertion.reads_whole_string() {
                reads_whole = true;
                parts.whole = true;
            }
        }
        parts.only_choices = parts.choices.is_some() && !parts.many_choices && !reads_whole;
        parts
    }
}

impl Outline {
    /// The outline of nothing: no container is decided, no scalar is plain.
    pub(crate) const NONE: Outline = Outline {
        object: None,
        items: None,
        n_items: (0, u64::MAX),
        n_members: (0, u64::MAX),
        plain: None,
        parts: Parts::NONE,
    };

    /// The outline of a node of `assertions`.
    pub(crate) fn of(assertions: &[Assertion]) -> Outline {
        let mut outline = Outline {
            plain: PlainScalar::of(assertions),
            parts: Parts::of(assertions),
            ..Outline::NONE
        };
        let (mut arrays, mut objects) = (true, true);
        for (position, assertion) in assertions.iter().enumerate() {
            match assertion {
                Assertion::Type(kinds) => {
                    arrays &= Shape::Array.admitted_by(*kinds);
                    objects &= Shape::Object.admitted_by(*kinds);
                }
                Assertion::Enum(_) | Assertion::Const(_) => (arrays, objects) = (false, false),
                Assertion::Items(items) => outline.items = Some(*items),
                Assertion::Object(_) => outline.object = u32::try_from(position).ok(),
                Assertion::MinItems { min, .. } => outline.n_items.0 = outline.n_items.0.max(*min),
                Assertion::MaxItems { max, .. } => outline.n_items.1 = outline.n_items.1.min(*max),
                Assertion::MinProperties { min, .. } => {
                    outline.n_members.0 = outline.n_members.0.max(*min);
                }
                Assertion::MaxProperties { max, .. } => {
                    outline.n_members.1 = outline.n_members.1.min(*max);
                }
                _ => {}
            }
        }
        outline.items = outline.items.filter(|_| arrays);
        outline.object = outline.object.filter(|_| objects);
        outline
    }
}

/// The object rules of `node`, when the quick path decides an object here.
fn object_rules(node: &Node) -> Option<&ObjectRules> {
    match node.assertions.get(widen(node.outline.object?)) {
        Some(Assertion::Object(rules)) => Some(rules),
        _ => None,
    }
}

/// True if `count` lies within `bounds`.
fn within((min, max): (u64, u64), count: u64) -> bool {
    min <= count && count <= max
}

/// The declared fields of an object read so far.
#[derive(Clone, Copy, Default)]
struct Fields {
    /// Bit `i` is set once field `i` is read (at most 64 fields: see
    /// [`Assertion::is_quick`]).
    seen: u64,
    /// The field after the last one matched (fields mostly come in declaration order).
    next: u32,
}

impl Fields {
    /// The type the value of member `key` must meet, or `None` where the quick path gives
    /// up: an undeclared member (refused, or allowed and then kept for the repeat check), a
    /// repeated one, or one declared only to be refused.
    #[inline(always)]
    fn member(&mut self, rules: &ObjectRules, key: &str) -> Option<NodeId> {
        let field = field_index(&rules.fields, key, self.next)?;
        let rule = rules.fields.get(field)?;
        let mask = 1u64.checked_shl(u32::try_from(field).ok()?)?;
        if self.seen & mask != 0 || rule.never {
            return None;
        }
        self.seen |= mask;
        self.next = u32::try_from(field + 1).unwrap_or(u32::MAX);
        Some(rule.node)
    }

    /// True if every required field has been read.
    fn complete(&self, rules: &ObjectRules) -> bool {
        rules.required.first().copied().unwrap_or(0) & !self.seen == 0
    }
}

/// An open container.
#[derive(Clone, Copy)]
struct Open<'s> {
    node: &'s Node,
    /// An object's member rules, or `None` for an array.
    rules: Option<&'s ObjectRules>,
    /// An array's item type.
    items: Option<&'s Node>,
    fields: Fields,
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
    /// The string in parts being read.
    string: Option<InParts<'s>>,
    values: u32,
    state: State,
    /// Give up as soon as the full validation could refuse the value read so far (see
    /// [`Quick::eager`]), not only at what the verdict on the whole needs.
    eager: bool,
    /// A string in parts whose type reads it whole (an `enum`, `const`, `format` or
    /// `pattern`): its text so far, joined in place while it is short (so a check-only
    /// verdict allocates nothing for it), decided at its end as a whole string is.
    gathering: bool,
    text: Joined,
}

/// A string in parts being read.
#[derive(Clone, Copy)]
struct InParts<'s> {
    /// The type it must meet.
    node: &'s Node,
    /// Code points and bytes so far.
    chars: u64,
    bytes: usize,
    /// The node's one `enum` or `const`, when an eager quick path narrows it, and the
    /// allowed strings that begin with the text so far.
    choices: Option<(&'s Choices, Prefix)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Reading,
    Accepted,
    GaveUp,
}

impl<'s> Quick<'s> {
    #[cfg(feature = "stream")]
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
            text: Joined::new(),
        }
    }

    /// Starts this quick path again, on a new value against `program`'s root, where it
    /// stands: the frames of containers it closed are left as they are, since a frame is
    /// written when its container opens, before it is read.
    pub(crate) fn restart(&mut self, program: &'s Program) {
        self.program = program;
        self.depth = 0;
        self.next = Some(program.node(Program::ROOT));
        self.string = None;
        self.values = 0;
        self.state = State::Reading;
        self.gathering = false;
        self.text.clear();
    }

    /// A quick path for a value that streams in, whose prefixes the full validation is
    /// asked about ([`Validation::refused`](super::Validation::refused)): it gives up at
    /// the first event after which the full validation may refuse the prefix, so that while
    /// it reads on, the prefix is not refused. That adds two give-ups to the ones the
    /// verdict needs, where the full validation refuses before the value ends: an array
    /// item past `maxItems`, and a string in parts past `maxLength`, no longer the start of
    /// any value its `enum` or `const` allows, or longer than its `format`'s longest value.
    #[cfg(feature = "stream")]
    pub(crate) fn eager(program: &'s Program) -> Quick<'s> {
        Quick {
            eager: true,
            ..Quick::new(program)
        }
    }

    /// True if a number beginning now is refused whatever its digits, as
    /// [`Validation::refused_if_number_next`](super::Validation::refused_if_number_next)
    /// decides it: the value after an object's key must meet a type that takes no number.
    #[cfg(feature = "stream")]
    pub(crate) fn refuses_number_next(&self) -> bool {
        if self.state != State::Reading {
            return false;
        }
        let top = self.depth.checked_sub(1).and_then(|t| self.open.get(t));
        let in_object = matches!(top, Some(Some(Open { rules: Some(_), .. })));
        in_object && self.next.is_some_and(refuses_every_number)
    }

    /// Takes one event of the value, as the [`Sink`] does: `Break` when it gives up. By
    /// value, so that the events that own their text (a key or number a chunk cut, or a key
    /// that held an escape) drop it in their own arm, and no destructor runs for the rest.
    #[inline(always)]
    pub(crate) fn step(&mut self, event: Event<'_>) -> ControlFlow<()> {
        match event {
            Event::Null => self.scalar(&Scalar::Null),
            Event::Bool(b) => self.scalar(&Scalar::Bool(b)),
            Event::Number(number) => self.scalar(&Scalar::number(number.as_str())),
            Event::String(text) => self.scalar(&Scalar::string(text)),
            Event::Key(key) => self.key(&key),
            Event::ArrayStart => self.begin_container(Shape::Array),
            Event::ObjectStart => self.begin_container(Shape::Object),
            Event::ArrayEnd | Event::ObjectEnd => self.end_container(),
            Event::StringStart => self.begin_string(),
            Event::StringPart(part) => self.string_part(part),
            Event::StringChar(c) => self.string_char(c),
            Event::StringEnd => self.end_string(),
        }
    }

    /// [`Quick::step`] by reference, for the streaming check, which hands the event on
    /// after it (to the full validation, or to the value built beside the check). The same
    /// arms: a reference in the by-value step measured a destructor's cost on every
    /// event of the check-only verdict, and a copy here a clone's on every streamed one.
    #[inline(always)]
    #[cfg(feature = "stream")]
    pub(crate) fn step_ref(&mut self, event: &Event<'_>) -> ControlFlow<()> {
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
            Event::StringChar(c) => self.string_char(*c),
            Event::StringEnd => self.end_string(),
        }
    }

    /// True if the value fed is accepted; false if the quick path gave up (or the value has
    /// not ended), and the full validation must decide.
    #[cfg(feature = "stream")]
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
                if self.eager && top.count > top.node.outline.n_items.1 {
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
            Some(node) if accepts(node, scalar) => self.done(),
            _ => self.give_up(),
        }
    }

    fn begin_container(&mut self, shape: Shape) -> ControlFlow<()> {
        let Some(node) = self.begin() else {
            return self.give_up();
        };
        let (rules, items) = match shape {
            Shape::Object => (object_rules(node), None),
            _ => (
                None,
                node.outline.items.map(|items| self.program.node(items)),
            ),
        };
        if rules.is_none() && items.is_none() {
            return self.give_up();
        }
        let open = Open {
            node,
            rules,
            items,
            fields: Fields::default(),
            count: 0,
        };
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
            fields,
            count,
            ..
        })) = top
        else {
            return self.give_up();
        };
        *count = count.saturating_add(1);
        match fields.member(rules, key) {
            Some(node) => {
                self.next = Some(self.program.node(node));
                ControlFlow::Continue(())
            }
            None => self.give_up(),
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
        let outline = &open.node.outline;
        let fits = match open.rules {
            Some(rules) => open.fields.complete(rules) && within(outline.n_members, open.count),
            None => within(outline.n_items, open.count),
        };
        if !fits {
            return self.give_up();
        }
        self.done()
    }

    fn begin_string(&mut self) -> ControlFlow<()> {
        let Some(node) = self.begin() else {
            return self.give_up();
        };
        // The kind and the length are decided from parts without keeping them; the text of
        // a string whose type reads it whole is kept, and decided at its end.
        let parts = &node.outline.parts;
        if !parts.admitted || (self.eager && parts.many_choices) {
            return self.give_up();
        }
        let choices = match node
            .assertions
            .get(widen(parts.choices.unwrap_or(u32::MAX)))
        {
            Some(Assertion::Enum(choices) | Assertion::Const(choices)) if self.eager => {
                Some((choices, choices.all_strings()))
            }
            _ => None,
        };
        self.string = Some(InParts {
            node,
            chars: 0,
            bytes: 0,
            choices,
        });
        self.text.clear();
        self.gathering = parts.whole;
        ControlFlow::Continue(())
    }

    fn string_part(&mut self, part: &str) -> ControlFlow<()> {
        let Some(string) = &mut self.string else {
            return self.give_up();
        };
        // A part is a stream's chunk of a string, nearly always ASCII: its length, checked
        // eight bytes at a time, instead of a count of its characters byte by byte.
        let n_chars = if part.is_ascii() {
            part.len()
        } else {
            part.chars().count()
        };
        let offset = string.bytes;
        string.chars = string.chars.saturating_add(to_u64(n_chars));
        string.bytes = string.bytes.saturating_add(part.len());
        if self.gathering {
            self.text.push_str(part);
        }
        if !self.eager {
            return ControlFlow::Continue(());
        }
        // Where the full validation refuses a string in parts before it ends: past
        // `maxLength`, longer than a bounded `format`'s longest value, or no longer the
        // start of a value the `enum` or `const` allows (narrowed from the last part on).
        let parts = &string.node.outline.parts;
        let mut refused = string.chars > parts.n_chars.1 || string.bytes > parts.max_bytes;
        if let Some((choices, prefix)) = &mut string.choices {
            *prefix = choices.narrow(*prefix, offset, part.as_bytes());
            refused |= choices.none_left(*prefix);
        }
        if refused {
            return self.give_up();
        }
        ControlFlow::Continue(())
    }

    /// One character of a string in parts (an escape): counted, unless its text is kept or
    /// its prefix checked, when it is a part like any other.
    fn string_char(&mut self, c: char) -> ControlFlow<()> {
        match &mut self.string {
            Some(string) if !self.gathering && !self.eager => {
                string.chars = string.chars.saturating_add(1);
                ControlFlow::Continue(())
            }
            _ => self.string_part(c.encode_utf8(&mut [0; 4])),
        }
    }

    fn end_string(&mut self) -> ControlFlow<()> {
        let Some(string) = self.string.take() else {
            return self.give_up();
        };
        let parts = &string.node.outline.parts;
        let gathering = std::mem::replace(&mut self.gathering, false);
        let fits = match string.choices {
            // The narrowed range holds the whole text's answer, and the lengths are
            // counted: the node's other string rules.
            Some((choices, prefix)) if parts.only_choices => {
                choices.ends_allowed(prefix, string.bytes) && within(parts.n_chars, string.chars)
            }
            _ if gathering => Scalar::string(self.text.as_str())
                .first_failure(string.node)
                .is_none(),
            _ => within(parts.n_chars, string.chars),
        };
        if !fits {
            return self.give_up();
        }
        self.done()
    }
}

impl Quick<'_> {
    /// True if the quick path accepts `value`, a value already built (the gate's, after the
    /// call is parsed): the events' rules taken over the tree, with each open container's
    /// frame in the recursion instead of the events' stack, and an array's or object's size
    /// known at its start. Its verdicts are the events' (`quick_tests.rs` holds the two to
    /// each other). The recursion is bounded: past [`QUICK_DEPTH`] open containers the
    /// quick path gives up.
    pub(crate) fn read_value(program: &Program, value: &Value<'_>) -> bool {
        let mut tree = Tree { program, values: 1 };
        tree.accepts(program.node(Program::ROOT), value, 0)
    }
}

/// The quick path over a value already built (see [`Quick::read_value`]).
struct Tree<'s> {
    program: &'s Program,
    /// Values counted so far, held to [`STEP_BUDGET`] as the events' are: a container's
    /// items or members are counted when it starts, so that at the last container the count
    /// is every value's, the events' count at their end.
    values: u32,
}

impl Tree<'_> {
    /// True if `value`, inside `depth` open containers, meets `node`. Inlined into the
    /// member and item loops, so that a scalar, most values, costs no call of the
    /// recursion.
    #[inline(always)]
    fn accepts(&mut self, node: &Node, value: &Value<'_>, depth: usize) -> bool {
        if !node.quick {
            return false;
        }
        match value {
            Value::Null => accepts(node, &Scalar::Null),
            Value::Bool(b) => accepts(node, &Scalar::Bool(*b)),
            Value::Number(number) => accepts(node, &Scalar::number(number.as_str())),
            Value::String(text) => accepts(node, &Scalar::string(text)),
            Value::Array(items) => self.array(node, items, depth),
            Value::Object(members) => self.object(node, members, depth),
        }
    }

    /// An array against `node`. Not inlined: the recursion's frames are these two
    /// functions', which a scalar member does not enter.
    #[inline(never)]
    fn array(&mut self, node: &Node, items: &[Value<'_>], depth: usize) -> bool {
        let Some(item) = node.outline.items.map(|id| self.program.node(id)) else {
            return false;
        };
        depth < QUICK_DEPTH
            && within(node.outline.n_items, to_u64(items.len()))
            && self.count(items.len())
            && items
                .iter()
                .all(|value| self.accepts(item, value, depth + 1))
    }

    /// Counts `n` values more: false once the count reaches [`STEP_BUDGET`].
    fn count(&mut self, n: usize) -> bool {
        self.values = self
            .values
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
        self.values < STEP_BUDGET
    }

    /// An object against `node`: its members in input order, then its required fields.
    #[inline(never)]
    fn object(&mut self, node: &Node, members: &[Member<'_>], depth: usize) -> bool {
        let Some(rules) = object_rules(node) else {
            return false;
        };
        if depth >= QUICK_DEPTH
            || !within(node.outline.n_members, to_u64(members.len()))
            || !self.count(members.len())
        {
            return false;
        }
        let mut fields = Fields::default();
        for (key, member) in members {
            let Some(field) = fields.member(rules, key) else {
                return false;
            };
            if !self.accepts(self.program.node(field), member, depth + 1) {
                return false;
            }
        }
        fields.complete(rules)
    }
}

/// True if `scalar` meets every assertion of `node`: in one step when the node's rules are
/// plain, else by the full validation's own check.
#[inline(always)]
fn accepts(node: &Node, scalar: &Scalar<'_>) -> bool {
    match &node.outline.plain {
        Some(plain) => plain.accepts(node, scalar),
        None => scalar.first_failure(node).is_none(),
    }
}

impl<'a> Sink<'a> for Quick<'_> {
    #[inline(always)]
    fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
        self.step(event)
    }
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
