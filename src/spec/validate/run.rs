//! The validation's state, and the life of a value in it: when a value starts, the checks it
//! must meet are pushed (one per type; through `$ref`, `allOf`, `anyOf`, `oneOf` and `not`,
//! the types those apply to it too); its events feed them; when it ends, each check is settled
//! (its first failure by rank, or a pass), the combinators are decided from their parts,
//! and each result goes to the check of the container that asked for it.
//!
//! The stacks, bottom to top, follow the open values: each open value's checks are one run
//! on `checks`, above its container's. A scalar's checks live only for its one event, and
//! most never reach the stack (a field of a plain type is checked where it arrives).

use super::capture::Capture;
use super::choices::Prefix;
use super::equal::HashIndex;
use super::kinds::Shape;
use super::program::{Node, NodeId, ObjectRules, Program};
use super::report::{Broken, Fail, Failure};
use super::scalar::Scalar;
use super::stack::Stack;
use super::{MAX_CHECK_DEPTH, MAX_VALUE_DEPTH, STEP_BUDGET};
use crate::json::{Event, Sink, Value};
use crate::spec::Kinds;
use std::borrow::Cow;
use std::ops::ControlFlow;

/// One value being checked against a compiled schema: a [`Sink`] for the value's events.
///
/// Feed it the events of one value (the arguments), then call [`Validation::finish`].
/// [`Validation::refused`] may be asked after any event. `'s` is the schema's lifetime,
/// `'a` the input's.
pub struct Validation<'s, 'a> {
    pub(super) program: &'s Program,
    /// Open containers, root first, and a string value arriving in parts on top.
    pub(super) frames: Stack<Frame, 8>,
    /// The checks of every open value, one run per value, in frame order.
    pub(super) checks: Stack<Check<'s>, 8>,
    /// The checks each combinator check applies to the same value (indices into `checks`).
    pub(super) edges: Stack<usize, 4>,
    /// The checks the next value must meet, asked for by its container's checks.
    pub(super) requests: Requests<'s>,
    /// Open objects' keys that no check declares, for the repeat check (a key that owns
    /// its text, an escaped one, keeps it in `owned_keys`).
    pub(super) keys: Stack<Key<'a>, 8>,
    pub(super) owned_keys: Vec<String>,
    /// The hash indexes of open objects' kept keys and unique arrays' items, once they
    /// hold more than 32, with the depth of the frame each belongs to.
    pub(super) indexes: Vec<(usize, HashIndex)>,
    /// For each open object's checks past 64 declared fields, which they have seen.
    pub(super) bits: Stack<u64, 2>,
    /// Open `uniqueItems` arrays' items so far.
    pub(super) items: Stack<Value<'a>, 8>,
    /// The container compared whole, while it is read (made when first needed).
    pub(super) capture: Option<Box<Capture<'a>>>,
    /// A string value arriving in parts that is an item of a `uniqueItems` array.
    pub(super) text: String,
    /// The ordinal the next value gets.
    pub(super) next_ordinal: usize,
    pub(super) started: bool,
    /// Step 1's answer so far: the repeated key or too-deep container that starts first.
    pub(super) step1: Option<Fail<'s>>,
    /// How many containers deep the validation is inside one it does not look into.
    pub(super) skipping: usize,
    /// Checks run so far, and where they first ran past the budget.
    pub(super) steps_run: u32,
    pub(super) exhausted: Option<usize>,
    /// The first value whose check counted more steps than the budget.
    pub(super) over_budget: Option<usize>,
    /// The verdict, once the value has ended.
    pub(super) outcome: Option<Result<(), Fail<'s>>>,
    /// The node the value is checked against, and the steps it may take.
    pub(super) root: NodeId,
    pub(super) budget: u32,
    /// A declared optional field's `null` was read as absent (see
    /// [`absent`](crate::spec::absent)).
    pub(super) read_absent: bool,
    /// How many `unevaluated*` judgments this validation stands inside (see
    /// [`unevaluated`](super::unevaluated)).
    pub(super) nesting: u32,
}

/// An open object's key, kept for the repeat check.
#[derive(Clone, Copy)]
pub(super) enum Key<'a> {
    Borrowed(&'a str),
    /// Index into `owned_keys`.
    Owned(usize),
}

/// An open value: a container, or a string arriving in parts.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) shape: Shape,
    pub(super) ordinal: usize,
    /// Its checks: `checks..checks_end` (its members' checks come above).
    pub(super) checks: usize,
    pub(super) checks_end: usize,
    /// Where each stack stood when it opened (what to drop when it ends).
    pub(super) edges: usize,
    pub(super) keys: usize,
    pub(super) bits: usize,
    pub(super) items: usize,
    /// Members or items so far; for a string, code points so far.
    pub(super) count: usize,
    /// For a string, bytes so far.
    pub(super) bytes: usize,
    /// The first check with declared fields: its field bits find repeated declared keys,
    /// so only undeclared keys need keeping.
    pub(super) primary: Option<usize>,
    /// Items are kept for `uniqueItems`, until the first repeat is found.
    pub(super) unique: bool,
    pub(super) repeat: Option<(usize, usize)>,
    /// This object has already repeated a key.
    pub(super) repeated_key: bool,
    /// A check of this object has `propertyNames`.
    pub(super) has_names: bool,
    /// A check compares the value whole (it is captured).
    pub(super) compare_whole: bool,
    /// The capture began with this value.
    pub(super) captured_here: bool,
    /// A string kept whole in `text`.
    pub(super) keep_text: bool,
    /// Its kept keys or items have a hash index (the last of `indexes`).
    pub(super) indexed: bool,
}

/// One type applied to one value.
#[derive(Clone, Copy)]
pub(super) struct Check<'s> {
    pub(super) node: &'s Node,
    /// Types descended to reach it (see [`MAX_CHECK_DEPTH`]).
    pub(super) depth: u32,
    pub(super) link: Link,
    /// The first failure so far by rank.
    pub(super) fail: Option<(u64, Fail<'s>)>,
    /// Steps, as a depth-first validator would count them (see the module docs).
    pub(super) cost: u64,
    /// The checks its combinators apply: `edges[start..start + len]`.
    pub(super) edges: (u32, u32),
    /// It failed at its value's first event, before any rule that needs more of it.
    pub(super) settled: bool,
    pub(super) state: State<'s>,
    /// Phases that stopped counting steps at their first failure (items, names, others).
    pub(super) stopped: u8,
}

/// What a check keeps while its value is read.
#[derive(Clone, Copy)]
pub(super) enum State<'s> {
    Plain,
    /// An object: its member rules and their place in the node, which fields it has seen
    /// (the first 64 here, the rest from `bits` on in `Validation::bits`), and the field
    /// after the last one matched (members mostly come in declaration order).
    Object {
        rules: &'s ObjectRules,
        position: u32,
        seen: u64,
        bits: u32,
        next_field: u32,
    },
    /// A string in parts: which allowed strings of `enum` and `const` it can still become.
    Strings {
        enumeration: Prefix,
        constant: Prefix,
    },
    /// An array with `contains`: how many items matched it so far (see
    /// [`contains`](super::contains)).
    Contains {
        matched: u64,
    },
}

/// Where a check's result goes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Link {
    /// The root: the verdict.
    Root,
    /// A combinator's part: the combinator reads it.
    Applied,
    /// A member or item: to the container's check `parent`.
    Member { parent: u32, slot: Slot },
}

/// Which member rule of a container's check a member's result answers.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    pub(super) kind: SlotKind,
    /// The place of the rule in its node (the first part of the rank).
    pub(super) position: u32,
    /// The field, member or item index (saturating: no value holds 2^32 members).
    pub(super) index: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SlotKind {
    Field,
    /// A member whose name a `patternProperties` pattern matches.
    Pattern,
    Additional,
    Name,
    Item,
    /// An item against `contains`: its failure is no failure of the array, its pass a
    /// match counted.
    Contained,
}

/// A check the next value must meet.
#[derive(Clone, Copy, Debug)]
pub(super) struct Request<'s> {
    pub(super) node: &'s Node,
    pub(super) depth: u32,
    pub(super) link: Link,
}

/// The checks the next value must meet, and whether each is of a type without combinators
/// (then a scalar's checks need no stack: each is one pass where the scalar arrives).
/// The first request is a plain field, as most values are asked for by one check.
pub(super) struct Requests<'s> {
    first: Option<Request<'s>>,
    more: Stack<Request<'s>, 2>,
    pub(super) plain: bool,
}

impl<'s> Requests<'s> {
    pub(super) fn new() -> Requests<'s> {
        Requests {
            first: None,
            more: Stack::new(),
            plain: true,
        }
    }

    pub(super) fn ask(&mut self, request: Request<'s>) {
        self.plain &= !request.node.applies_others && widen(request.depth) < MAX_CHECK_DEPTH;
        if self.first.is_none() {
            self.first = Some(request);
        } else {
            self.more.push(request);
        }
    }

    pub(super) fn clear(&mut self) {
        self.first = None;
        if self.more.len() > 0 {
            self.more.clear();
        }
        self.plain = true;
    }

    pub(super) fn len(&self) -> usize {
        usize::from(self.first.is_some()) + self.more.len()
    }

    /// The one request, if there is exactly one and it is plain.
    #[inline]
    fn only_plain(&self) -> Option<Request<'s>> {
        if self.plain && self.more.len() == 0 {
            self.first
        } else {
            None
        }
    }

    pub(super) fn get(&self, index: usize) -> Option<Request<'s>> {
        match index.checked_sub(1) {
            None => self.first,
            Some(index) => self.more.get(index).copied(),
        }
    }
}

/// At most this many checks are open at once; past it the validation is too complex.
const MAX_OPEN_CHECKS: usize = 1 << 16;

/// `n` as a compact index (indices past `u32::MAX` saturate: no value is that large).
pub(super) fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A compact index as a `usize`.
pub(super) fn widen(n: u32) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// A failure's rank within its check: its assertion's place, then a sub-order (a member or
/// item index, or a phase of the object rules and an index).
pub(super) fn rank(position: impl TryInto<u64>, sub: u64) -> u64 {
    let position = position.try_into().unwrap_or(u64::MAX).min(0xff_ffff);
    (position << 40) | sub.min((1 << 40) - 1)
}

impl<'s> Check<'s> {
    fn new(node: &'s Node, depth: u32, link: Link) -> Check<'s> {
        Check {
            node,
            depth,
            link,
            fail: None,
            cost: 1,
            edges: (0, 0),
            settled: false,
            state: State::Plain,
            stopped: 0,
        }
    }

    /// Keeps `fail` if it ranks before the failure kept so far.
    pub(super) fn record(&mut self, rank: u64, fail: Fail<'s>) {
        if self.fail.map_or(true, |(kept, _)| rank < kept) {
            self.fail = Some((rank, fail));
        }
    }

    /// True if a failure of this rank would come before the failure kept so far.
    pub(super) fn ranks_first(&self, rank: u64) -> bool {
        self.fail.map_or(true, |(kept, _)| rank < kept)
    }

    /// True if a failure of this rank could still be the check's first, so that work
    /// toward it (a member's check) is worth doing.
    pub(super) fn wants(&self, rank: u64) -> bool {
        !self.settled && self.ranks_first(rank)
    }

    /// Fails at its value's first event: nothing after this rule is looked at.
    pub(super) fn settle(&mut self, rank: u64, fail: Fail<'s>) {
        self.record(rank, fail);
        self.settled = true;
    }

    pub(super) fn result(&self) -> Option<Fail<'s>> {
        self.fail.map(|(_, fail)| fail)
    }
}

impl<'s, 'a> Validation<'s, 'a> {
    #[inline]
    pub(super) fn new(program: &'s Program) -> Validation<'s, 'a> {
        Validation::starting_at(program, Program::ROOT, STEP_BUDGET)
    }

    /// A validation against any node of `program`, within `budget` steps.
    #[inline]
    pub(crate) fn starting_at(
        program: &'s Program,
        root: NodeId,
        budget: u32,
    ) -> Validation<'s, 'a> {
        Validation {
            program,
            frames: Stack::new(),
            checks: Stack::new(),
            edges: Stack::new(),
            requests: Requests::new(),
            keys: Stack::new(),
            owned_keys: Vec::new(),
            indexes: Vec::new(),
            bits: Stack::new(),
            items: Stack::new(),
            capture: None,
            text: String::new(),
            next_ordinal: 0,
            started: false,
            step1: None,
            skipping: 0,
            steps_run: 0,
            exhausted: None,
            over_budget: None,
            outcome: None,
            root,
            budget,
            read_absent: false,
            nesting: 0,
        }
    }

    /// True if a declared optional field's `null` was read as absent so far (the gate then
    /// removes it from what the tool receives).
    pub(crate) fn read_absent(&self) -> bool {
        self.read_absent
    }

    /// The steps taken so far.
    pub(crate) fn steps_used(&self) -> u32 {
        self.steps_run
    }

    /// A run of the text of the string value being read (after [`Event::StringStart`]),
    /// from input that does not live as long as the validation: a chunk of a call that
    /// streams. It counts as its characters fed one by one as [`Event::StringChar`] (what is
    /// kept of it is copied), in one step instead of one per character.
    pub fn string_text(&mut self, text: &str) {
        if self.skipping > 0 {
            return;
        }
        if let Some(capture) = &mut self.capture {
            if capture.is_active() {
                capture.text(text);
            }
        }
        self.string_part(text);
    }

    /// The verdict on the value fed.
    ///
    /// # Errors
    /// The first [`Failure`], in the documented order; [`Failure::locate`] places it in the
    /// value. A value that has not ended (the events stopped inside it) is refused as the
    /// arguments accepting nothing: feed a whole value.
    pub fn finish(&self) -> Result<(), Failure<'s>> {
        let outcome = match self.outcome {
            Some(outcome) => outcome,
            None => Err(self.step1.unwrap_or(Fail {
                at: 0,
                what: Broken::Kind(Kinds::NONE),
            })),
        };
        outcome.map_err(|fail| Failure { fail })
    }

    /// Takes the next ordinal and asks the container for the new value's checks. `None`
    /// when the root value has already ended (nothing more is checked).
    #[inline(always)]
    fn begin_value(&mut self) -> Option<usize> {
        let ordinal = self.next_ordinal;
        self.next_ordinal = ordinal.saturating_add(1);
        match self.frames.last().map(|frame| frame.shape) {
            // An object's key has already asked.
            Some(Shape::Object) => {}
            None => {
                if self.started {
                    return None;
                }
                self.started = true;
                self.requests.clear();
                self.requests.ask(Request {
                    node: self.program.node(self.root),
                    depth: 0,
                    link: Link::Root,
                });
            }
            Some(Shape::Array) => self.next_item(),
            Some(_) => {}
        }
        Some(ordinal)
    }

    /// A scalar value; `item` makes it a value to keep, if it is an item of a unique array.
    #[inline(never)]
    fn scalar(&mut self, scalar: Scalar<'_>, item: impl FnOnce() -> Value<'a>) {
        // The commonest value: an object member asked for by one check of a plain type.
        let in_object = self
            .frames
            .last()
            .is_some_and(|frame| frame.shape == Shape::Object);
        if let (true, Some(request)) = (in_object, self.requests.only_plain()) {
            if let Link::Member { parent, slot } = request.link {
                let ordinal = self.next_ordinal;
                self.next_ordinal = ordinal.saturating_add(1);
                self.requests.clear();
                if self.charge(ordinal) {
                    let fail = scalar
                        .first_failure(request.node)
                        .map(|(_, what)| Fail { at: ordinal, what });
                    let null = matches!(scalar, Scalar::Null);
                    self.member_done(parent, slot, fail, 1, null);
                }
                return;
            }
        }
        let wants_item = self.wants_item();
        let Some(ordinal) = self.begin_value() else {
            return;
        };
        self.check_scalar(&scalar, ordinal);
        if wants_item {
            self.add_item(item());
        }
    }

    /// Runs the requested checks on a scalar (a value, or a field name for
    /// `propertyNames`) and hands on their results.
    #[inline]
    pub(super) fn check_scalar(&mut self, scalar: &Scalar<'_>, ordinal: usize) {
        if let Some(request) = self.requests.only_plain() {
            // The commonest case: one check, one pass over its node's assertions.
            self.requests.clear();
            self.check_plain_scalar(request, scalar, ordinal);
            return;
        }
        self.check_scalar_run(scalar, ordinal);
    }

    /// One plain check of a scalar: one pass over its node's assertions, the result handed
    /// on. False when the step budget ran out first.
    #[inline]
    fn check_plain_scalar(
        &mut self,
        request: Request<'s>,
        scalar: &Scalar<'_>,
        ordinal: usize,
    ) -> bool {
        if !self.charge(ordinal) {
            return false;
        }
        let fail = scalar
            .first_failure(request.node)
            .map(|(_, what)| Fail { at: ordinal, what });
        match request.link {
            Link::Member { parent, slot } => {
                let null = matches!(scalar, Scalar::Null);
                self.member_done(parent, slot, fail, 1, null);
            }
            link => self.hand_on(link, fail, 1, ordinal, false),
        }
        true
    }

    /// [`Validation::check_scalar`] for several checks or combinators.
    #[inline(never)]
    fn check_scalar_run(&mut self, scalar: &Scalar<'_>, ordinal: usize) {
        if self.requests.plain {
            // The common case: each check is one pass over its node's assertions.
            for index in 0..self.requests.len() {
                let Some(request) = self.requests.get(index) else {
                    continue;
                };
                if !self.check_plain_scalar(request, scalar, ordinal) {
                    break;
                }
            }
            self.requests.clear();
            return;
        }
        let edges = self.edges.len();
        let run = self.spawn(ordinal);
        let end = self.checks.len();
        for index in run..end {
            if let Some(check) = self.checks.get_mut(index) {
                if check.settled {
                    continue;
                }
                if let Some((position, what)) = scalar.first_failure(check.node) {
                    check.record(rank(position, 0), Fail { at: ordinal, what });
                }
            }
        }
        self.settle_run(run, end, scalar.shape(), ordinal);
        self.checks.truncate(run);
        self.edges.truncate(edges);
    }

    /// An array or object begins.
    #[inline(never)]
    fn begin_container(&mut self, shape: Shape) {
        let Some(ordinal) = self.begin_value() else {
            return;
        };
        let depth = self.frames.len();
        if depth >= MAX_VALUE_DEPTH {
            // Step 1 refuses it whatever it holds; its insides are only counted.
            self.note_step1(Fail {
                at: ordinal,
                what: Broken::TooDeep(MAX_VALUE_DEPTH),
            });
            self.requests.clear();
            if let Some(capture) = &mut self.capture {
                capture.abandon();
            }
            self.skipping = 1;
            return;
        }
        let item_of_unique = self.wants_item();
        let mut frame = self.open_frame(shape, ordinal);
        self.start_container(&mut frame);
        if (frame.compare_whole || item_of_unique) && !self.capturing() {
            self.capture
                .get_or_insert_with(Box::default)
                .begin(shape == Shape::Array);
            frame.captured_here = true;
        }
        self.frames.push(frame);
    }

    /// A string value begins in parts.
    #[inline(never)]
    fn begin_string(&mut self) {
        let Some(ordinal) = self.begin_value() else {
            return;
        };
        let keep_text = self.wants_item();
        let mut frame = self.open_frame(Shape::String, ordinal);
        // A `pattern` or a `format` reads the string whole at its end: the parts are joined
        // in `text` (whose buffer the validation reuses), then checked like a whole string.
        let reads_whole = (frame.checks..frame.checks_end)
            .filter_map(|index| self.checks.get(index))
            .any(|check| {
                check
                    .node
                    .assertions
                    .iter()
                    .any(super::program::Assertion::reads_whole_string)
            });
        frame.keep_text = keep_text || reads_whole;
        self.text.clear();
        self.start_string(&frame);
        self.frames.push(frame);
    }

    /// Pushes the new value's checks and the frame that holds them.
    fn open_frame(&mut self, shape: Shape, ordinal: usize) -> Frame {
        let edges = self.edges.len();
        let checks = self.spawn(ordinal);
        Frame {
            shape,
            ordinal,
            checks,
            checks_end: self.checks.len(),
            edges,
            keys: self.keys.len(),
            bits: self.bits.len(),
            items: self.items.len(),
            count: 0,
            bytes: 0,
            primary: None,
            unique: false,
            repeat: None,
            repeated_key: false,
            has_names: false,
            compare_whole: false,
            captured_here: false,
            keep_text: false,
            indexed: false,
        }
    }

    /// The open value on top ends: settle its checks, hand their results on, and drop its
    /// part of every stack.
    #[inline(never)]
    fn end(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let end = self.checks.len();
        for index in frame.checks..end {
            self.finish_check(index, &frame);
        }
        self.settle_run(frame.checks, end, frame.shape, frame.ordinal);
        self.checks.truncate(frame.checks);
        self.edges.truncate(frame.edges);
        self.keys.truncate(frame.keys);
        if frame.indexed {
            self.indexes.pop();
        }
        self.bits.truncate(frame.bits);
        self.items.truncate(frame.items);
        let built = match &mut self.capture {
            Some(capture) if frame.captured_here => capture.take(),
            _ => None,
        };
        if self.wants_item() {
            let item = match (built, frame.shape) {
                (Some(value), _) => Some(value),
                (None, Shape::String) => {
                    Some(Value::String(Cow::Owned(std::mem::take(&mut self.text))))
                }
                (None, _) => self.capture.as_ref().and_then(|c| c.last()).cloned(),
            };
            if let Some(item) = item {
                self.add_item(item);
            }
        }
    }

    /// Pushes a check for each request, then, breadth first, the checks their combinators
    /// apply to the same value (one check per type and depth). Returns where the run starts.
    fn spawn(&mut self, ordinal: usize) -> usize {
        let run = self.checks.len();
        if let Some(request) = self.requests.only_plain() {
            // One check without combinators: nothing to expand.
            self.requests.clear();
            self.push_check(request, ordinal);
            return run;
        }
        for index in 0..self.requests.len() {
            if let Some(request) = self.requests.get(index) {
                self.push_check(request, ordinal);
            }
        }
        self.requests.clear();
        let mut index = run;
        while index < self.checks.len() {
            self.expand(index, ordinal);
            index += 1;
        }
        run
    }

    /// Counts one check against the budget: false (and the validation too complex) once the
    /// checks run, or open at once, pass their limits.
    fn charge(&mut self, ordinal: usize) -> bool {
        self.steps_run = self.steps_run.saturating_add(1);
        if self.steps_run <= self.budget && self.checks.len() < MAX_OPEN_CHECKS {
            return true;
        }
        self.exhausted.get_or_insert(ordinal);
        false
    }

    fn push_check(&mut self, request: Request<'s>, ordinal: usize) -> Option<usize> {
        if !self.charge(ordinal) {
            return None;
        }
        let mut check = Check::new(request.node, request.depth, request.link);
        if widen(request.depth) >= MAX_CHECK_DEPTH {
            // As deep as checks go: refused before anything is looked at, costing no step.
            check.cost = 0;
            check.settle(
                0,
                Fail {
                    at: ordinal,
                    what: Broken::TooDeep(MAX_CHECK_DEPTH),
                },
            );
        }
        self.checks.push(check);
        Some(self.checks.len() - 1)
    }

    /// Pushes (or finds) the checks that check `index`'s combinators apply.
    fn expand(&mut self, index: usize, ordinal: usize) {
        let Some(check) = self.checks.get(index) else {
            return;
        };
        if check.settled || !check.node.applies_others {
            return;
        }
        let (node, depth) = (check.node, check.depth + 1);
        let start = self.edges.len();
        for assertion in &node.assertions {
            for &part in super::resolve::parts(assertion) {
                let target = self.program.node(part);
                // A check after this one of the same type at the same depth gives the same
                // answer: share it (alternatives that refer to one definition).
                let shared = (index + 1..self.checks.len()).find(|&other| {
                    self.checks
                        .get(other)
                        .is_some_and(|c| c.depth == depth && std::ptr::eq::<Node>(c.node, target))
                });
                let request = Request {
                    node: target,
                    depth,
                    link: Link::Applied,
                };
                let child = shared
                    .or_else(|| self.push_check(request, ordinal))
                    .unwrap_or(usize::MAX);
                self.edges.push(child);
            }
        }
        let len = self.edges.len() - start;
        if let Some(check) = self.checks.get_mut(index) {
            check.edges = (narrow(start), narrow(len));
        }
    }

    /// Decides the run's combinators, last check first (parts come after their
    /// combinator), then hands each result on.
    fn settle_run(&mut self, run: usize, end: usize, shape: Shape, ordinal: usize) {
        let container = matches!(shape, Shape::Array | Shape::Object);
        if end == run + 1 {
            // One check: its combinators, if any, then its result.
            self.combine(run, shape, ordinal);
            if container && self.judges_unevaluated(run) {
                self.judge_unevaluated(run, shape, ordinal);
            }
            if let Some(check) = self.checks.get(run) {
                let (link, fail, cost) = (check.link, check.result(), check.cost);
                self.hand_on(link, fail, cost, ordinal, shape == Shape::Null);
            }
            return;
        }
        for index in (run..end).rev() {
            self.combine(index, shape, ordinal);
            if container && self.judges_unevaluated(index) {
                self.judge_unevaluated(index, shape, ordinal);
            }
        }
        for index in run..end {
            let Some(check) = self.checks.get(index) else {
                continue;
            };
            let (link, fail, cost) = (check.link, check.result(), check.cost);
            self.hand_on(link, fail, cost, ordinal, shape == Shape::Null);
        }
    }

    /// A check's result goes where its link says.
    /// `null` says the value was `null` (an optional field's may read as absent).
    fn hand_on(
        &mut self,
        link: Link,
        fail: Option<Fail<'s>>,
        cost: u64,
        ordinal: usize,
        null: bool,
    ) {
        if cost > u64::from(self.budget) && self.over_budget.is_none() {
            self.over_budget = Some(ordinal);
        }
        match link {
            Link::Applied => {}
            Link::Member { parent, slot } => self.member_done(parent, slot, fail, cost, null),
            Link::Root => self.outcome = Some(self.verdict(fail, cost, ordinal)),
        }
    }

    /// The verdict: step 1 first, then the limits, then the root check's result.
    fn verdict(&self, fail: Option<Fail<'s>>, cost: u64, ordinal: usize) -> Result<(), Fail<'s>> {
        if let Some(fail) = self.step1 {
            return Err(fail);
        }
        let too_complex = |at| Fail {
            at,
            what: Broken::TooComplex,
        };
        if let Some(at) = self.exhausted {
            return Err(too_complex(at));
        }
        if cost > u64::from(self.budget) {
            return Err(too_complex(self.over_budget.unwrap_or(ordinal)));
        }
        fail.map_or(Ok(()), Err)
    }

    /// Keeps a step-1 failure if its container starts before the one kept so far.
    pub(super) fn note_step1(&mut self, fail: Fail<'s>) {
        if self.step1.map_or(true, |kept| fail.at < kept.at) {
            self.step1 = Some(fail);
        }
    }

    /// True while a container is being built whole.
    fn capturing(&self) -> bool {
        self.capture
            .as_ref()
            .is_some_and(|capture| capture.is_active())
    }

    /// True if the value starting now is an item of a `uniqueItems` array still looking.
    fn wants_item(&self) -> bool {
        self.frames
            .last()
            .is_some_and(|frame| frame.unique && frame.repeat.is_none())
    }

    /// Inside a container past [`MAX_VALUE_DEPTH`]: values are only numbered.
    fn skip(&mut self, event: &Event<'a>) {
        match event {
            Event::ArrayStart | Event::ObjectStart => {
                self.next_ordinal = self.next_ordinal.saturating_add(1);
                self.skipping += 1;
            }
            Event::Null | Event::Bool(_) | Event::Number(_) | Event::String(_) => {
                self.next_ordinal = self.next_ordinal.saturating_add(1);
            }
            Event::StringStart => self.next_ordinal = self.next_ordinal.saturating_add(1),
            Event::ArrayEnd | Event::ObjectEnd => self.skipping -= 1,
            Event::StringPart(_) | Event::StringChar(_) | Event::StringEnd | Event::Key(_) => {}
        }
    }
}

impl<'s, 'a> Sink<'a> for Validation<'s, 'a> {
    fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
        if self.skipping > 0 {
            self.skip(&event);
            return ControlFlow::Continue(());
        }
        if let Some(capture) = &mut self.capture {
            if capture.is_active() {
                capture.feed(&event);
            }
        }
        match event {
            Event::Null => self.scalar(Scalar::Null, || Value::Null),
            Event::Bool(b) => self.scalar(Scalar::Bool(b), || Value::Bool(b)),
            Event::Number(number) => {
                let scalar = Scalar::number(number.as_str());
                self.scalar(scalar, || Value::Number(number.clone()));
            }
            Event::String(text) => {
                self.scalar(Scalar::string(text), || Value::String(Cow::Borrowed(text)));
            }
            Event::StringStart => self.begin_string(),
            Event::StringPart(part) => self.string_part(part),
            Event::StringChar(c) => self.string_part(c.encode_utf8(&mut [0; 4])),
            Event::Key(key) => self.key(key),
            Event::ArrayStart => self.begin_container(Shape::Array),
            Event::ObjectStart => self.begin_container(Shape::Object),
            Event::StringEnd | Event::ArrayEnd | Event::ObjectEnd => self.end(),
        }
        ControlFlow::Continue(())
    }
}
#[cfg(test)]
#[test]
fn sizes() {
    eprintln!(
        "Validation {} Frame {} Check {} Fail {} Value {}",
        std::mem::size_of::<Validation<'static, 'static>>(),
        std::mem::size_of::<Frame>(),
        std::mem::size_of::<Check<'static>>(),
        std::mem::size_of::<Fail<'static>>(),
        std::mem::size_of::<Value<'static>>()
    );
}
