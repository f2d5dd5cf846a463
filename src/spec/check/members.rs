//! Containers: what an object's keys and an array's items ask of the checks on their
//! container, what comes back when a member's value ends, and the rules settled when the
//! container ends (missing fields, item counts, repeats, whole-value comparisons).
//!
//! Each failure is kept with its rank, so the order the text arrives in does not matter:
//! unknown fields (input order), then missing required fields (declaration order), then
//! field names, then declared fields' values (declaration order), then other members'
//! values (input order).

use super::equal::{bytes_hash, earlier_twin, HashIndex};
use super::kinds::Shape;
use super::name::same_name;
use super::program::{AdditionalRule, Assertion, FieldRule, Node, NodeId, ObjectRules, Program};
use super::report::{Broken, Fail};
use super::run::{rank, Frame, Link, Request, Slot, SlotKind, State, Validation};
use super::scalar::{string_end_breaks, to_u64, Scalar};
use crate::json::Value;
use crate::spec::Kinds;
use std::borrow::Cow;

/// The phases of an object's member rules, the second part of a failure's rank.
const UNKNOWN: u64 = 0;
const REQUIRED: u64 = 1 << 36;
const NAMES: u64 = 2 << 36;
const FIELDS: u64 = 3 << 36;
const OTHERS: u64 = 4 << 36;

/// Up to this many kept keys, a new key is compared with each; past it, by hash.
const PAIRWISE_KEYS: usize = 32;

fn sub(phase: u64, index: usize) -> u64 {
    phase | to_u64(index).min((1 << 36) - 1)
}

/// Bits of [`Check::stopped`](super::run::Check): phases that count steps only up to their
/// first failure, as a depth-first validator stops there.
const STOPPED_ITEMS: u8 = 1;
const STOPPED_NAMES: u8 = 2;
const STOPPED_OTHERS: u8 = 4;

impl<'s, 'a> Validation<'s, 'a> {
    /// A container's checks at its first event: those that refuse its kind (or, for
    /// `enum` and `const`, can allow no container of its kind) fail now; object checks
    /// get their field bits.
    pub(super) fn start_container(&mut self, frame: &mut Frame) {
        let (array, ordinal) = (frame.shape == Shape::Array, frame.ordinal);
        for index in frame.checks..frame.checks_end {
            let Some(check) = self.checks.get_mut(index) else {
                continue;
            };
            if check.settled {
                continue;
            }
            let node = check.node;
            for (position, assertion) in node.assertions.iter().enumerate() {
                let fail = |what| Fail { at: ordinal, what };
                match assertion {
                    Assertion::Enum(choices) | Assertion::Const(choices) => {
                        if choices.may_allow_container(array) {
                            frame.compare_whole = true;
                        } else {
                            check.settle(rank(position, 0), fail(Broken::Keyword(assertion)));
                            break;
                        }
                    }
                    Assertion::Type(kinds) if !frame.shape.admitted_by(*kinds) => {
                        check.settle(rank(position, 0), fail(Broken::Kind(*kinds)));
                        break;
                    }
                    Assertion::Object(rules) if !array => {
                        let bits = self.bits.len();
                        for _ in 0..rules.fields.len().div_ceil(64) {
                            self.bits.push(0);
                        }
                        check.state = State::Object {
                            position,
                            bits,
                            next_field: 0,
                        };
                        if frame.primary.is_none() {
                            frame.primary = Some(index);
                        }
                    }
                    Assertion::UniqueItems if array => frame.unique = true,
                    _ => {}
                }
            }
        }
    }

    /// An object member's key: each object check finds the field it names (asking for its
    /// value's check), refuses it as unknown, or asks for the check of other members; the
    /// name is checked against `propertyNames`; and step 1 looks for a repeat.
    pub(super) fn key(&mut self, key: Cow<'a, str>) {
        self.requests.clear();
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if frame.shape != Shape::Object {
            return;
        }
        let member = frame.count;
        frame.count = frame.count.saturating_add(1);
        let (start, end, ordinal, primary) =
            (frame.checks, frame.checks_end, frame.ordinal, frame.primary);
        // Names first: their checks use the request list, which then gathers the value's.
        for index in start..end {
            let Some(check) = self.checks.get(index) else {
                continue;
            };
            let Some((position, rules)) = object_rules(check.node, check.state) else {
                continue;
            };
            if let Some(names) = rules.names {
                if check.wants(rank(position, sub(NAMES, member))) {
                    let depth = check.depth + 1;
                    self.check_name(&key, index, names, depth, position, member, ordinal);
                }
            }
        }
        let mut declared_repeat = None;
        for index in start..end {
            let Some(check) = self.checks.get_mut(index) else {
                continue;
            };
            if check.settled {
                continue;
            }
            let State::Object {
                position,
                bits,
                next_field,
            } = check.state
            else {
                continue;
            };
            let Some((_, rules)) = object_rules(check.node, check.state) else {
                continue;
            };
            let depth = check.depth + 1;
            let mut ask = |node: NodeId, kind: SlotKind, index_in: usize, parent: usize| {
                self.requests.push(Request {
                    node,
                    depth,
                    link: Link::Member {
                        parent,
                        slot: Slot {
                            kind,
                            position,
                            index: index_in,
                        },
                    },
                });
            };
            match field_index(&rules.fields, &key, next_field) {
                Some(field) => {
                    let (word, mask) = (bits + field / 64, 1u64 << (field % 64));
                    let seen = self.bits.get(word).is_some_and(|w| w & mask != 0);
                    if let Some(w) = self.bits.get_mut(word) {
                        *w |= mask;
                    }
                    if primary == Some(index) {
                        declared_repeat = Some(seen);
                    }
                    check.state = State::Object {
                        position,
                        bits,
                        next_field: field + 1,
                    };
                    if check.wants(rank(position, sub(FIELDS, field))) {
                        if let Some(rule) = rules.fields.get(field) {
                            ask(rule.node, SlotKind::Field, field, index);
                        }
                    }
                }
                None => match rules.additional {
                    AdditionalRule::Forbidden => check.record(
                        rank(position, sub(UNKNOWN, member)),
                        Fail {
                            at: ordinal,
                            what: Broken::Unknown(member, rules),
                        },
                    ),
                    AdditionalRule::Allowed => {}
                    AdditionalRule::Typed(node) => {
                        if check.wants(rank(position, sub(OTHERS, member))) {
                            ask(node, SlotKind::Additional, member, index);
                        }
                    }
                },
            }
        }
        self.check_repeat(key, declared_repeat, member);
    }

    /// A field name against `propertyNames`: the name is checked as a string value, and
    /// its result goes to the object check's names phase.
    #[allow(clippy::too_many_arguments)]
    fn check_name(
        &mut self,
        key: &str,
        parent: usize,
        names: NodeId,
        depth: usize,
        position: usize,
        member: usize,
        ordinal: usize,
    ) {
        self.requests.clear();
        self.requests.push(Request {
            node: names,
            depth,
            link: Link::Member {
                parent,
                slot: Slot {
                    kind: SlotKind::Name,
                    position,
                    index: member,
                },
            },
        });
        self.check_scalar(&Scalar::string(key), ordinal);
    }

    /// Step 1 for one key: does it repeat an earlier key of its object? A key one of the
    /// object's checks declares repeats exactly when that field was seen before; any other
    /// is compared with the other undeclared keys, which are kept for this.
    fn check_repeat(&mut self, key: Cow<'a, str>, declared_repeat: Option<bool>, member: usize) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if frame.repeated_key {
            return;
        }
        let repeated = match declared_repeat {
            Some(seen) => seen,
            None => {
                let kept = self.keys.len() - frame.keys;
                let start = frame.keys;
                let found = if frame.key_index.is_none() && kept < PAIRWISE_KEYS {
                    self.keys
                        .iter_from(start)
                        .any(|other| same_name(other, &key))
                } else {
                    let keys = &self.keys;
                    let index = &mut frame
                        .key_index
                        .get_or_insert_with(|| {
                            let mut index = HashIndex::default();
                            for (n, other) in keys.iter_from(start).enumerate() {
                                index.by_hash.entry(key_hash(other)).or_default().push(n);
                            }
                            Box::new(index)
                        })
                        .by_hash;
                    let hash = key_hash(&key);
                    let found = index.get(&hash).is_some_and(|candidates| {
                        candidates.iter().any(|&n| {
                            keys.get(start + n)
                                .is_some_and(|other| same_name(other, &key))
                        })
                    });
                    if !found {
                        index.entry(hash).or_default().push(kept);
                    }
                    found
                };
                if !found {
                    self.keys.push(key);
                }
                found
            }
        };
        if repeated {
            frame.repeated_key = true;
            let fail = Fail {
                at: frame.ordinal,
                what: Broken::DuplicateKey(member),
            };
            self.note_step1(fail);
        }
    }

    /// An array item begins: each array check counts it (`maxItems` can fail now) and asks
    /// for its check against `items`.
    pub(super) fn next_item(&mut self) {
        self.requests.clear();
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let index = frame.count;
        frame.count = frame.count.saturating_add(1);
        let (n_items, ordinal) = (to_u64(frame.count), frame.ordinal);
        for parent in frame.checks..frame.checks_end {
            let Some(check) = self.checks.get_mut(parent) else {
                continue;
            };
            if check.settled {
                continue;
            }
            let node = check.node;
            for (position, assertion) in node.assertions.iter().enumerate() {
                match assertion {
                    Assertion::MaxItems { max, .. } if n_items > *max => check.record(
                        rank(position, 0),
                        Fail {
                            at: ordinal,
                            what: Broken::Keyword(assertion),
                        },
                    ),
                    Assertion::Items(items) if check.wants(rank(position, to_u64(index))) => {
                        self.requests.push(Request {
                            node: *items,
                            depth: check.depth + 1,
                            link: Link::Member {
                                parent,
                                slot: Slot {
                                    kind: SlotKind::Item,
                                    position,
                                    index,
                                },
                            },
                        });
                    }
                    _ => {}
                }
            }
        }
    }

    /// A member's (or item's, or field name's) check has ended: its steps and any failure
    /// go to the container's check that asked for it.
    pub(super) fn member_done(
        &mut self,
        parent: usize,
        slot: Slot,
        fail: Option<Fail<'s>>,
        cost: u64,
    ) {
        let ordinal = self.frames.last().map_or(0, |frame| frame.ordinal);
        let program = self.program;
        let Some(check) = self.checks.get_mut(parent) else {
            return;
        };
        let (sub_rank, stop) = match slot.kind {
            SlotKind::Field => (sub(FIELDS, slot.index), 0),
            SlotKind::Additional => (sub(OTHERS, slot.index), STOPPED_OTHERS),
            SlotKind::Name => (sub(NAMES, slot.index), STOPPED_NAMES),
            SlotKind::Item => (to_u64(slot.index), STOPPED_ITEMS),
        };
        if check.stopped & stop != 0 {
            return;
        }
        check.cost = check.cost.saturating_add(cost);
        if let Some(fail) = fail {
            let fail = match slot.kind {
                SlotKind::Name => {
                    let kinds = names_kinds(program, check.node, slot.position);
                    fail.of_name(ordinal, slot.index, kinds)
                }
                _ => fail,
            };
            check.record(rank(slot.position, sub_rank), fail);
            check.stopped |= stop;
        }
    }

    /// An item of the `uniqueItems` array on top has ended: is it equal to an earlier one?
    pub(super) fn add_item(&mut self, item: Value<'a>) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if !frame.unique || frame.repeat.is_some() {
            return;
        }
        let start = frame.items;
        let earlier = self.items.len() - start;
        let items = &self.items;
        let twin = earlier_twin(
            earlier,
            |i| items.get(start + i),
            &mut frame.item_index,
            &item,
        );
        let Some(first) = twin else {
            self.items.push(item);
            return;
        };
        frame.repeat = Some((first, earlier));
        for index in frame.checks..frame.checks_end {
            let Some(check) = self.checks.get_mut(index) else {
                continue;
            };
            if check.settled {
                continue;
            }
            let position = check
                .node
                .assertions
                .iter()
                .position(|a| matches!(a, Assertion::UniqueItems));
            if let Some(position) = position {
                let fail = Fail {
                    at: frame.ordinal,
                    what: Broken::Unique(first, earlier),
                };
                check.record(rank(position, 0), fail);
            }
        }
    }

    /// A container's (or a string in parts') check when its value ends: the rules that need
    /// all of it. Rules ranked after the check's first failure so far are not looked at.
    pub(super) fn finish_check(&mut self, index: usize, frame: &Frame) {
        let whole = if frame.compare_whole {
            self.capture.last()
        } else {
            None
        };
        let bits = &self.bits;
        let Some(check) = self.checks.get_mut(index) else {
            return;
        };
        let (node, state, n) = (check.node, check.state, to_u64(frame.count));
        for (position, assertion) in node.assertions.iter().enumerate() {
            if !check.ranks_first(rank(position, 0)) {
                break;
            }
            let keyword = Broken::Keyword(assertion);
            let found = match (frame.shape, assertion) {
                (Shape::String, _) => string_end_breaks(assertion, state, frame).map(|w| (0, w)),
                (_, Assertion::Enum(choices) | Assertion::Const(choices)) => {
                    let array = frame.shape == Shape::Array;
                    // A container the capture gave up on (too deep: step 1 refuses it
                    // anyway) counts as allowed.
                    let allowed = !choices.may_allow_container(array)
                        || whole.map_or(true, |value| choices.allows_container(value));
                    (!allowed).then_some((0, keyword))
                }
                // Failed at its first event: only the rules before that one are left.
                _ if check.settled => None,
                (Shape::Array, Assertion::MinItems { min, .. }) => {
                    (n < *min).then_some((0, keyword))
                }
                (Shape::Array, Assertion::MaxItems { max, .. }) => {
                    (n > *max).then_some((0, keyword))
                }
                (Shape::Array, Assertion::UniqueItems) => frame
                    .repeat
                    .map(|(first, second)| (0, Broken::Unique(first, second))),
                (Shape::Object, Assertion::Object(rules)) => match state {
                    State::Object { bits: start, .. } => {
                        first_missing(rules, |word| bits.get(start + word).copied()).map(|field| {
                            let name = rules.fields.get(field).map_or("", |f| f.name.as_str());
                            (sub(REQUIRED, field), Broken::Required(name))
                        })
                    }
                    State::Plain | State::Strings { .. } => None,
                },
                _ => None,
            };
            if let Some((sub_rank, what)) = found {
                let fail = Fail {
                    at: frame.ordinal,
                    what,
                };
                check.record(rank(position, sub_rank), fail);
            }
        }
    }
}

/// The object rules a check is applying, with their place in its node.
fn object_rules(node: &Node, state: State) -> Option<(usize, &ObjectRules)> {
    let State::Object { position, .. } = state else {
        return None;
    };
    match node.assertions.get(position) {
        Some(Assertion::Object(rules)) => Some((position, rules)),
        _ => None,
    }
}

/// The kinds the `propertyNames` type of the object rules at `position` accepts (for a
/// name rule a string cannot break, which is never reported).
fn names_kinds(program: &Program, node: &Node, position: usize) -> Kinds {
    let names = match node.assertions.get(position) {
        Some(Assertion::Object(ObjectRules {
            names: Some(names), ..
        })) => program.node(*names),
        _ => return Kinds::ANY,
    };
    names
        .assertions
        .iter()
        .find_map(|assertion| match assertion {
            Assertion::Type(kinds) => Some(*kinds),
            _ => None,
        })
        .unwrap_or(Kinds::ANY)
}

/// The declared field named `key`, trying the one after the last match first (models
/// mostly write fields in declaration order).
fn field_index(fields: &[FieldRule], key: &str, next: usize) -> Option<usize> {
    match fields.get(next) {
        Some(field) if same_name(&field.name, key) => Some(next),
        _ => fields.iter().position(|field| same_name(&field.name, key)),
    }
}

/// The first required field (in declaration order) whose bit is not set.
fn first_missing(rules: &ObjectRules, bits: impl Fn(usize) -> Option<u64>) -> Option<usize> {
    rules
        .required
        .iter()
        .enumerate()
        .find_map(|(word, &required)| {
            let missing = required & !bits(word).unwrap_or(0);
            (missing != 0).then(|| word * 64 + missing.trailing_zeros() as usize)
        })
}

fn key_hash(key: &str) -> u64 {
    bytes_hash(0, key.as_bytes())
}
