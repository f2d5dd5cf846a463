//! Containers: what an object's keys and an array's items ask of the checks on their
//! container, what comes back when a member's value ends, and the rules settled when the
//! container ends (missing fields, item counts, repeats, whole-value comparisons).
//!
//! Each failure is kept with its rank, so the order the text arrives in does not matter:
//! unknown fields (input order), then missing required fields (declaration order), then
//! field names, then declared fields' values (declaration order), then the values of
//! members a `patternProperties` pattern matches (input order), then other members'
//! values (input order).

use super::equal::{bytes_hash, earlier_twin, HashIndex};
use super::kinds::Shape;
use super::program::{AdditionalRule, Assertion, FieldRule, Node, ObjectRules, Program};
use super::report::{Broken, Fail};
use super::run::{
    narrow, rank, widen, Frame, Key, Link, Request, Slot, SlotKind, State, Validation,
};
use super::scalar::{string_end_breaks, to_u64, Scalar};
use crate::json::same_name;
use crate::json::Value;
use crate::spec::absent::reads_as_absent;
use crate::spec::Kinds;
use std::borrow::Cow;

/// The phases of an object's member rules, the second part of a failure's rank.
const UNKNOWN: u64 = 0;
const REQUIRED: u64 = 1 << 36;
const NAMES: u64 = 2 << 36;
const FIELDS: u64 = 3 << 36;
const PATTERNS: u64 = 4 << 36;
const OTHERS: u64 = 5 << 36;

/// Up to this many kept keys (or unique items), a new one is compared with each; past it,
/// by hash, so that no check is quadratic.
const PAIRWISE_KEYS: usize = 32;
const PAIRWISE_ITEMS: usize = 32;

fn sub(phase: u64, index: impl TryInto<u64>) -> u64 {
    phase | index.try_into().unwrap_or(u64::MAX).min((1 << 36) - 1)
}

/// Bits of [`Check::stopped`](super::run::Check): phases that count steps only up to their
/// first failure, as a depth-first validator stops there.
const STOPPED_ITEMS: u8 = 1;
const STOPPED_NAMES: u8 = 2;
const STOPPED_OTHERS: u8 = 4;
const STOPPED_PATTERNS: u8 = 8;

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
                        // The first 64 fields' bits live in the state; more, on `bits`.
                        let bits = self.bits.len();
                        for _ in 1..rules.fields.len().div_ceil(64) {
                            self.bits.push(0);
                        }
                        check.state = State::Object {
                            rules,
                            position: narrow(position),
                            seen: 0,
                            bits: narrow(bits),
                            next_field: 0,
                        };
                        if frame.primary.is_none() {
                            frame.primary = Some(index);
                        }
                        frame.has_names |= rules.names.is_some();
                    }
                    Assertion::UniqueItems if array => frame.unique = true,
                    // Judged on the container whole, once it has ended.
                    Assertion::UnevaluatedItems(_) if array => frame.compare_whole = true,
                    Assertion::UnevaluatedProperties(_) if !array => frame.compare_whole = true,
                    _ => {}
                }
            }
        }
    }

    /// An object member's key: each object check finds the field it names (asking for its
    /// value's check), refuses it as unknown, or asks for the check of other members; the
    /// name is checked against `propertyNames`; and step 1 looks for a repeat.
    #[inline(never)]
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
        if frame.has_names {
            // Names first: their checks use the request list, which then gathers the
            // value's.
            self.check_names(&key, start..end, member, ordinal);
        }
        let program = self.program;
        let mut declared_repeat = None;
        for index in start..end {
            let Some(check) = self.checks.get_mut(index) else {
                continue;
            };
            let depth = check.depth + 1;
            // The patterns that match the name each check the value, declared or not.
            let mut matched = false;
            if let State::Object {
                rules, position, ..
            } = check.state
            {
                let wants = check.wants(rank(position, sub(PATTERNS, member)));
                for (pattern, node) in &rules.patterns {
                    if !pattern.is_match(&key) {
                        continue;
                    }
                    matched = true;
                    if wants {
                        self.requests.ask(Request {
                            node: program.node(*node),
                            depth,
                            link: Link::Member {
                                parent: narrow(index),
                                slot: Slot {
                                    kind: SlotKind::Pattern,
                                    position,
                                    index: narrow(member),
                                },
                            },
                        });
                    }
                }
            }
            let State::Object {
                rules,
                position,
                seen,
                bits,
                next_field,
            } = &mut check.state
            else {
                continue;
            };
            let (rules, position) = (*rules, *position);
            let field = field_index(&rules.fields, &key, *next_field);
            let (node, kind, slot_index) = match field {
                Some(field) => {
                    let mask = 1u64 << (field % 64);
                    let word = match field.checked_sub(64) {
                        None => Some(seen),
                        Some(beyond) => self.bits.get_mut(widen(*bits) + beyond / 64),
                    };
                    if let Some(word) = word {
                        if primary == Some(index) {
                            declared_repeat = Some(*word & mask != 0);
                        }
                        *word |= mask;
                    }
                    *next_field = narrow(field + 1);
                    let Some(rule) = rules.fields.get(field) else {
                        continue;
                    };
                    if check.fail.is_some() && !check.wants(rank(position, sub(FIELDS, field))) {
                        continue;
                    }
                    (rule.node, SlotKind::Field, field)
                }
                None if matched => continue,
                None => match rules.additional {
                    AdditionalRule::Forbidden => {
                        let what = Broken::Unknown(member, rules);
                        let fail = Fail { at: ordinal, what };
                        check.record(rank(position, sub(UNKNOWN, member)), fail);
                        continue;
                    }
                    AdditionalRule::Allowed => continue,
                    AdditionalRule::Typed(node) => {
                        if !check.wants(rank(position, sub(OTHERS, member))) {
                            continue;
                        }
                        (node, SlotKind::Additional, member)
                    }
                },
            };
            self.requests.ask(Request {
                node: program.node(node),
                depth,
                link: Link::Member {
                    parent: narrow(index),
                    slot: Slot {
                        kind,
                        position,
                        index: narrow(slot_index),
                    },
                },
            });
        }
        // A declared field seen for the first time repeats nothing.
        if declared_repeat != Some(false) {
            self.check_repeat(key, declared_repeat, member);
        }
    }

    /// Each object check's `propertyNames` against this member's name.
    fn check_names(
        &mut self,
        key: &str,
        checks: std::ops::Range<usize>,
        member: usize,
        ordinal: usize,
    ) {
        for index in checks {
            let Some(check) = self.checks.get(index) else {
                continue;
            };
            let State::Object {
                rules, position, ..
            } = check.state
            else {
                continue;
            };
            let Some(names) = rules.names else {
                continue;
            };
            if !check.wants(rank(position, sub(NAMES, member))) {
                continue;
            }
            let depth = check.depth + 1;
            self.requests.clear();
            self.requests.ask(Request {
                node: self.program.node(names),
                depth,
                link: Link::Member {
                    parent: narrow(index),
                    slot: Slot {
                        kind: SlotKind::Name,
                        position,
                        index: narrow(member),
                    },
                },
            });
            self.check_scalar(&Scalar::string(key), ordinal);
        }
    }

    /// Step 1 for one key: does it repeat an earlier key of its object? A key one of the
    /// object's checks declares repeats exactly when that field was seen before; any other
    /// is compared with the other undeclared keys, which are kept for this.
    #[inline(never)]
    fn check_repeat(&mut self, key: Cow<'a, str>, declared_repeat: Option<bool>, member: usize) {
        let depth = self.frames.len();
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if frame.repeated_key {
            return;
        }
        let repeated = match declared_repeat {
            Some(seen) => seen,
            None => {
                let (start, kept) = (frame.keys, self.keys.len() - frame.keys);
                let (keys, owned) = (&self.keys, &self.owned_keys);
                let text = |n: usize| -> &str {
                    match keys.get(start + n) {
                        Some(Key::Borrowed(text)) => text,
                        Some(Key::Owned(index)) => owned.get(*index).map_or("", String::as_str),
                        None => "",
                    }
                };
                let found = if !frame.indexed && kept < PAIRWISE_KEYS {
                    (0..kept).any(|n| same_name(text(n), &key))
                } else {
                    if !frame.indexed {
                        let mut index = HashIndex::default();
                        for n in 0..kept {
                            index.by_hash.entry(key_hash(text(n))).or_default().push(n);
                        }
                        self.indexes.push((depth, index));
                        frame.indexed = true;
                    }
                    let by_hash = match self.indexes.last_mut() {
                        Some((_, index)) => &mut index.by_hash,
                        None => return,
                    };
                    let hash = key_hash(&key);
                    let found = by_hash.get(&hash).is_some_and(|candidates| {
                        candidates.iter().any(|&n| same_name(text(n), &key))
                    });
                    if !found {
                        by_hash.entry(hash).or_default().push(kept);
                    }
                    found
                };
                if !found {
                    let key = match key {
                        Cow::Borrowed(text) => Key::Borrowed(text),
                        Cow::Owned(text) => {
                            self.owned_keys.push(text);
                            Key::Owned(self.owned_keys.len() - 1)
                        }
                    };
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
    /// for its check against `items` (or its entry of `prefixItems`).
    #[inline(never)]
    pub(super) fn next_item(&mut self) {
        self.requests.clear();
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let index = frame.count;
        frame.count = frame.count.saturating_add(1);
        let (n_items, ordinal, program) = (to_u64(frame.count), frame.ordinal, self.program);
        for parent in frame.checks..frame.checks_end {
            let Some(check) = self.checks.get_mut(parent) else {
                continue;
            };
            if check.settled {
                continue;
            }
            let node = check.node;
            for (position, assertion) in node.assertions.iter().enumerate() {
                let (items, kind) = match assertion {
                    Assertion::MaxItems { max, .. } if n_items > *max => {
                        check.record(
                            rank(position, 0),
                            Fail {
                                at: ordinal,
                                what: Broken::Keyword(assertion),
                            },
                        );
                        continue;
                    }
                    Assertion::Items(items) => (*items, SlotKind::Item),
                    Assertion::PrefixItems { prefix, rest } => {
                        match prefix.get(index).copied().or(*rest) {
                            Some(items) => (items, SlotKind::Item),
                            None => continue,
                        }
                    }
                    Assertion::Contains { node, .. } => (*node, SlotKind::Contained),
                    _ => continue,
                };
                if check.wants(rank(position, to_u64(index))) {
                    self.requests.ask(Request {
                        node: program.node(items),
                        depth: check.depth + 1,
                        link: Link::Member {
                            parent: narrow(parent),
                            slot: Slot {
                                kind,
                                position: narrow(position),
                                index: narrow(index),
                            },
                        },
                    });
                }
            }
        }
    }

    /// A member's (or item's, or field name's) check has ended: its steps and any failure
    /// go to the container's check that asked for it. `null` says the member's value was
    /// `null`: a declared optional field's `null` that its type refuses reads as absent
    /// ([`absent`](crate::spec::absent)).
    #[inline]
    pub(super) fn member_done(
        &mut self,
        parent: u32,
        slot: Slot,
        fail: Option<Fail<'s>>,
        cost: u64,
        null: bool,
    ) {
        if slot.kind == SlotKind::Contained {
            return self.contained(parent, fail, cost);
        }
        let program = self.program;
        let Some(check) = self.checks.get_mut(widen(parent)) else {
            return;
        };
        if slot.kind == SlotKind::Field {
            // Declared fields: every one counts (their order is not the input's).
            check.cost = check.cost.saturating_add(cost);
            let Some(fail) = fail else {
                return;
            };
            if let State::Object { rules, .. } = check.state {
                let index = widen(slot.index);
                let never = rules.fields.get(index).is_some_and(|field| field.never);
                // The failure says the type refuses this `null`.
                let refused_null = || true;
                if !fail.is_fatal()
                    && reads_as_absent(rules.is_required(index), never, null, refused_null)
                {
                    self.read_absent = true;
                    return;
                }
            }
            check.record(rank(slot.position, sub(FIELDS, slot.index)), fail);
            return;
        }
        let (sub_rank, stop) = match slot.kind {
            SlotKind::Field => (sub(FIELDS, slot.index), 0),
            SlotKind::Additional => (sub(OTHERS, slot.index), STOPPED_OTHERS),
            SlotKind::Pattern => (sub(PATTERNS, slot.index), STOPPED_PATTERNS),
            SlotKind::Name => (sub(NAMES, slot.index), STOPPED_NAMES),
            SlotKind::Item => (u64::from(slot.index), STOPPED_ITEMS),
            SlotKind::Contained => return,
        };
        if check.stopped & stop != 0 {
            return;
        }
        check.cost = check.cost.saturating_add(cost);
        if let Some(fail) = fail {
            let fail = match slot.kind {
                SlotKind::Name => {
                    let kinds = names_kinds(program, check.node, widen(slot.position));
                    let object = self.frames.last().map_or(0, |frame| frame.ordinal);
                    fail.of_name(object, widen(slot.index), kinds)
                }
                _ => fail,
            };
            check.record(rank(slot.position, sub_rank), fail);
            check.stopped |= stop;
        }
    }

    /// An item of the `uniqueItems` array on top has ended: is it equal to an earlier one?
    pub(super) fn add_item(&mut self, item: Value<'a>) {
        let depth = self.frames.len();
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if !frame.unique || frame.repeat.is_some() {
            return;
        }
        let start = frame.items;
        let earlier = self.items.len() - start;
        let items = &self.items;
        let get = |i: usize| items.get(start + i);
        let twin = if !frame.indexed && earlier < PAIRWISE_ITEMS {
            earlier_twin(earlier, get, None, &item)
        } else {
            if !frame.indexed {
                self.indexes.push((depth, HashIndex::build(earlier, get)));
                frame.indexed = true;
            }
            let index = self.indexes.last_mut().map(|(_, index)| index);
            earlier_twin(earlier, get, index, &item)
        };
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
        let whole = match &self.capture {
            Some(capture) if frame.compare_whole => capture.last(),
            _ => None,
        };
        let bits = &self.bits;
        let text = self.text.as_str();
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
                (Shape::String, _) => {
                    string_end_breaks(assertion, state, frame, text).map(|w| (0, w))
                }
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
                (Shape::Object, Assertion::MinProperties { min, .. }) => {
                    (n < *min).then_some((0, keyword))
                }
                (Shape::Object, Assertion::MaxProperties { max, .. }) => {
                    (n > *max).then_some((0, keyword))
                }
                (Shape::Array, Assertion::Contains { .. }) => {
                    super::contains::breaks(assertion, state).map(|what| (0, what))
                }
                (Shape::Array, Assertion::UniqueItems) => frame
                    .repeat
                    .map(|(first, second)| (0, Broken::Unique(first, second))),
                (Shape::Object, Assertion::Object(rules)) => match state {
                    State::Object {
                        seen, bits: start, ..
                    } => {
                        let word = |w: usize| match w.checked_sub(1) {
                            None => Some(seen),
                            Some(beyond) => bits.get(widen(start) + beyond).copied(),
                        };
                        first_missing(rules, word).map(|field| {
                            let name = rules.fields.get(field).map_or("", |f| f.name.as_str());
                            (sub(REQUIRED, field), Broken::Required(name))
                        })
                    }
                    State::Plain | State::Strings { .. } | State::Contains { .. } => None,
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
#[inline(always)]
pub(super) fn field_index(fields: &[FieldRule], key: &str, next: u32) -> Option<usize> {
    let next = widen(next);
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
