//! Step 1 of validation, before any schema rule: no object anywhere in the value repeats a
//! key, and nothing nests deeper than [`MAX_VALUE_DEPTH`]. A value with a repeated key may
//! mean different things to different parsers (RFC 8259 section 4), so nothing else about
//! it is checked first.

use super::{same_name, Broken, Checked, Fail, MAX_VALUE_DEPTH, PAIRWISE_KEYS};
use crate::json::{Member, Value};

/// Step 1: repeated keys and nesting depth, over the whole value.
pub(super) fn scan<'v>(value: &'v Value<'v>, depth: usize) -> Checked<'static, 'v> {
    let fail = |what| Err(Fail { at: value, what });
    match value {
        Value::Array(items) => {
            if depth >= MAX_VALUE_DEPTH {
                return fail(Broken::TooDeep(MAX_VALUE_DEPTH));
            }
            items
                .iter()
                .filter(|item| is_container(item))
                .try_for_each(|item| scan(item, depth + 1))
        }
        Value::Object(members) => {
            if depth >= MAX_VALUE_DEPTH {
                return fail(Broken::TooDeep(MAX_VALUE_DEPTH));
            }
            if let Some(key) = first_duplicate(members) {
                return fail(Broken::DuplicateKey(key));
            }
            members
                .iter()
                .filter(|(_, item)| is_container(item))
                .try_for_each(|(_, item)| scan(item, depth + 1))
        }
        _ => Ok(()),
    }
}

/// Only arrays and objects need scanning; skipping the call for scalars is most of the
/// scan's speed on typical arguments.
pub(super) fn is_container(value: &Value<'_>) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

/// The first key that repeats an earlier one, in input order.
fn first_duplicate<'v>(members: &'v [Member<'v>]) -> Option<&'v str> {
    if members.len() <= PAIRWISE_KEYS {
        return members
            .iter()
            .enumerate()
            .skip(1)
            .find_map(|(index, (key, _))| {
                let earlier = members.get(..index)?;
                earlier
                    .iter()
                    .any(|(other, _)| same_name(other, key))
                    .then_some(key.as_ref())
            });
    }
    // Sorted by (key, index), each run of equal keys lists its occurrences in input order;
    // a pair of neighbours with equal keys ends at a repeat, and the earliest such end is
    // the first repeat in input order.
    let mut order: Vec<(&str, usize)> = members
        .iter()
        .enumerate()
        .map(|(index, (key, _))| (key.as_ref(), index))
        .collect();
    order.sort_unstable();
    let second = order
        .windows(2)
        .filter_map(|pair| match pair {
            [(a, _), (b, index)] if a == b => Some(*index),
            _ => None,
        })
        .min()?;
    members.get(second).map(|(key, _)| key.as_ref())
}
