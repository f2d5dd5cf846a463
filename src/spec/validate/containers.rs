//! The walk's rules for arrays and objects: counts, `uniqueItems`, items, `contains`, and
//! an object's members in the documented order (unknown, missing, names, declared fields,
//! pattern fields, other fields).
//!
//! The same code checks a container still being written (`open` is `Some`, see
//! `partial.rs`): its rules about its end (`minItems`, `contains`, `minProperties`,
//! `required`) wait, its counts include a key whose value has not begun, and its last
//! member or item, which may be open too, is checked in partial mode.

use super::equal::{earlier_twin, HashIndex};
use super::partial::State;
use super::walk::{to_u64, Trail, Verdict, Walk};
use crate::json::{Member, Value};
use crate::spec::absent::reads_as_absent;
use crate::spec::{Additional, Kinds, ObjectType, Rule, Type};
use std::borrow::Cow;

/// Arrays up to this many items look for a repeat pairwise; longer ones hash their items
/// first, so that `uniqueItems` is never quadratic.
const PAIRWISE_ITEMS: usize = 32;

impl<'s> Walk<'s> {
    /// `minItems`, `maxItems`, `uniqueItems`, each item in index order, then `contains`.
    /// `open` is the array's state when it is still being written.
    pub(super) fn array(
        &mut self,
        ty: &'s Type,
        items: &[Value<'_>],
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
        open: Option<State<'_>>,
    ) -> Verdict {
        let rules = &ty.array;
        let n = to_u64(items.len());
        let last = open.map_or(State::Whole, State::last);
        if let Some(min) = rules.min_items.filter(|&min| n < min && open.is_none()) {
            let max = rules.max_items;
            return Err(self.fail(at, value, || Rule::MinItems { min, max }));
        }
        if let Some(max) = rules.max_items.filter(|&max| n > max) {
            let min = rules.min_items;
            return Err(self.fail(at, value, || Rule::MaxItems { max, min }));
        }
        if rules.unique {
            // An item still being written is not yet equal to anything.
            let whole = match last {
                State::Whole => items,
                _ => items.split_last().map_or(items, |(_, whole)| whole),
            };
            if let Some((first, second)) = first_repeat(whole) {
                return Err(self.fail(at, value, || Rule::UniqueItems { first, second }));
            }
        }
        for (index, item) in items.iter().enumerate() {
            if let Some(item_type) = rules.prefix.get(index).or(rules.items.as_deref()) {
                let state = if index + 1 == items.len() {
                    last
                } else {
                    State::Whole
                };
                self.visit(item_type, item, &at.index(index), depth + 1, state)?;
            }
        }
        let Some(contains) = rules.contains.as_deref().filter(|_| open.is_none()) else {
            return Ok(());
        };
        let mut matched: u64 = 0;
        for (index, item) in items.iter().enumerate() {
            match self.judge(contains, item, &at.index(index), depth + 1) {
                Ok(()) => matched = matched.saturating_add(1),
                Err(fail) if fail.fatal => return Err(fail),
                Err(_) => {}
            }
        }
        let (min, max) = (rules.min_contains.unwrap_or(1), rules.max_contains);
        if matched < min || max.is_some_and(|max| matched > max) {
            return Err(self.fail(at, value, || Rule::Contains { min, max, matched }));
        }
        Ok(())
    }

    /// `minProperties`, `maxProperties`, then the member rules: unknown fields (input
    /// order), missing required fields (declaration order), field names, declared fields
    /// (declaration order), pattern fields (input order, then pattern order), other fields.
    /// `open` is the object's state when it is still being written.
    pub(super) fn object(
        &mut self,
        ty: &'s Type,
        members: &[Member<'_>],
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
        open: Option<State<'_>>,
    ) -> Verdict {
        let pending = open.and_then(State::pending_key);
        if let Some(key) = pending.filter(|&key| members.iter().any(|(k, _)| k == key)) {
            let key = key.to_owned();
            return Err(self.fatal(at, value, Rule::DuplicateKey { key }));
        }
        let last = open.map_or(State::Whole, State::last);
        let n = to_u64(members.len()).saturating_add(u64::from(pending.is_some()));
        if let Some(min) = ty.members.min.filter(|&min| n < min && open.is_none()) {
            let max = ty.members.max;
            return Err(self.fail(at, value, || Rule::MinProperties { min, max }));
        }
        if let Some(max) = ty.members.max.filter(|&max| n > max) {
            let min = ty.members.min;
            return Err(self.fail(at, value, || Rule::MaxProperties { max, min }));
        }
        let Some(object) = ty.object.as_deref() else {
            return Ok(());
        };
        let keys = || members.iter().map(|(key, _)| key.as_ref()).chain(pending);
        // Each member's field, found once: the first unknown member, and how many required
        // fields are given (keys do not repeat), so that the required fields are looked
        // for one by one only when one is missing.
        let forbidden = object.additional == Additional::Forbidden;
        let mut n_required_given: usize = 0;
        for key in keys() {
            match object.fields.iter().find(|field| field.name == key) {
                Some(field) => {
                    n_required_given = n_required_given.saturating_add(usize::from(field.required))
                }
                None if forbidden && !matches_pattern(object, key) => {
                    return Err(self.fail(at, value, || unknown(object, key)));
                }
                None => {}
            }
        }
        let given = |name: &str| members.iter().enumerate().find(|(_, (key, _))| key == name);
        let n_required = object.fields.iter().filter(|field| field.required).count();
        if open.is_none() && n_required_given < n_required {
            if let Some(field) = object
                .fields
                .iter()
                .find(|f| f.required && given(&f.name).is_none())
            {
                let field = field.name.clone();
                return Err(self.fail(at, value, || Rule::Required { field }));
            }
        }
        if let Some(names) = object.property_names.as_deref() {
            for key in keys() {
                let name = Value::String(Cow::Borrowed(key));
                match self.check(names, &name, at, depth + 1) {
                    Ok(()) => {}
                    Err(fail) if fail.fatal => return Err(fail),
                    Err(mut fail) => {
                        // The name was checked as a value at the object's place, so the
                        // violation has the object's path and the name as what arrived.
                        if let Some(violation) = fail.violation.as_deref_mut() {
                            let name = Rule::PropertyName {
                                name: key.to_string(),
                                rule: Box::new(Rule::Type {
                                    expected: Kinds::NONE,
                                }),
                            };
                            let rule = std::mem::replace(&mut *violation.rule, name);
                            if let Rule::PropertyName { rule: slot, .. } = &mut *violation.rule {
                                **slot = rule;
                            }
                        }
                        return Err(fail);
                    }
                }
            }
        }
        // The state of member `index`: only the last may still be open.
        let state = |index: usize| match index + 1 == members.len() {
            true => last,
            false => State::Whole,
        };
        for field in &object.fields {
            let Some((index, (key, item))) = given(&field.name) else {
                continue;
            };
            match self.visit(&field.ty, item, &at.key(key), depth + 1, state(index)) {
                Ok(()) => {}
                Err(fail)
                    if !fail.fatal
                        && reads_as_absent(
                            field.required,
                            field.ty.kinds == Kinds::NONE,
                            item.is_null(),
                            || true,
                        ) =>
                {
                    self.read_absent = true;
                }
                Err(fail) => return Err(fail),
            }
        }
        for (index, (key, item)) in members.iter().enumerate() {
            for pattern_field in &object.patterns {
                if matches(&pattern_field.pattern, key) {
                    let at = at.key(key);
                    self.visit(&pattern_field.ty, item, &at, depth + 1, state(index))?;
                }
            }
        }
        if let Additional::Typed(others) = &object.additional {
            for (index, (key, item)) in members.iter().enumerate() {
                if is_other(object, key) {
                    self.visit(others, item, &at.key(key), depth + 1, state(index))?;
                }
            }
        }
        Ok(())
    }
}

/// True if `key` is a member no field declares and no pattern matches.
pub(super) fn is_other(object: &ObjectType, key: &str) -> bool {
    !object.fields.iter().any(|field| field.name == key) && !matches_pattern(object, key)
}

/// True if some pattern of `object` matches `key`.
fn matches_pattern(object: &ObjectType, key: &str) -> bool {
    object.patterns.iter().any(|p| matches(&p.pattern, key))
}

/// True if `pattern` matches `key` (a pattern that does not compile never reaches a
/// schema: the builder and the importer refuse it).
pub(super) fn matches(pattern: &crate::spec::string_pattern::StringPattern, key: &str) -> bool {
    pattern
        .compiled()
        .is_ok_and(|compiled| compiled.is_match(key))
}

/// The violation of an unknown field `key`.
fn unknown(object: &ObjectType, key: &str) -> Rule {
    Rule::Unknown {
        field: key.to_owned(),
        allowed: object.fields.iter().map(|f| f.name.clone()).collect(),
        patterns: object
            .patterns
            .iter()
            .map(|p| p.pattern.source().to_owned())
            .collect(),
    }
}

/// The first repeat in `items`: the smallest `second` such that an earlier item equals it,
/// with the smallest such `first`. Past [`PAIRWISE_ITEMS`] items a hash index of the
/// earlier items finds candidates, so long arrays are not compared pairwise.
pub(super) fn first_repeat(items: &[Value<'_>]) -> Option<(usize, usize)> {
    let mut index: Option<HashIndex> = None;
    items.iter().enumerate().find_map(|(second, item)| {
        if second == PAIRWISE_ITEMS {
            index = Some(HashIndex::build(second, |i| items.get(i)));
        }
        earlier_twin(second, |i| items.get(i), index.as_mut(), item).map(|first| (first, second))
    })
}
