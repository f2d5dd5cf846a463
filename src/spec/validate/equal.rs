//! JSON Schema equality (draft 2020-12, section 4.2.2), used by `enum`, `const` and
//! `uniqueItems`: numbers are equal by value (`1 == 1.0`), objects by their members whatever
//! their order, arrays element by element in order; `true` is never `1`.
//!
//! `Value`'s own `PartialEq` is textual (`1.0 != 1`, member order matters), which is right
//! for a parser's round trip and wrong here, hence this module.

use crate::json::decimal::{compare, Decimal};
use crate::json::same_name;
use crate::json::{Member, Value};
use std::cmp::Ordering;
use std::collections::HashMap;

/// Nesting this deep compares as unequal instead of recursing further; every value the
/// validator sees has passed its own depth check, so this bounds only hand-built values.
const MAX_DEPTH: usize = super::MAX_CHECK_DEPTH;

/// Objects up to this size compare member by member; larger ones sort their names first.
const PAIRWISE_OBJECT: usize = 32;

/// True if JSON Schema considers `a` and `b` the same value.
pub(crate) fn equal(a: &Value<'_>, b: &Value<'_>) -> bool {
    equal_within(a, b, 0)
}

fn equal_within(a: &Value<'_>, b: &Value<'_>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => {
            x.as_str() == y.as_str() || compare(x.as_str(), y.as_str()) == Ordering::Equal
        }
        (Value::String(x), Value::String(y)) => same_name(x, y),
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|(x, y)| equal_within(x, y, depth + 1))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            xs.len() == ys.len()
                && if xs.len() <= PAIRWISE_OBJECT {
                    // Every member of one matched by name and value in the other, and (for
                    // objects with repeated names, which only hand-built specs hold) every
                    // name of the other present in the first.
                    xs.iter().all(|(key, x)| {
                        ys.iter()
                            .any(|(other, y)| key == other && equal_within(x, y, depth + 1))
                    }) && ys
                        .iter()
                        .all(|(key, _)| xs.iter().any(|(other, _)| key == other))
                } else {
                    equal_sorted(xs, ys, depth)
                }
        }
        _ => false,
    }
}

/// Large objects compare sorted by name (one allocation each), in `O(n log n)`: pairing
/// members by search would be quadratic, and a value's size is the caller's to choose.
fn equal_sorted(xs: &[Member<'_>], ys: &[Member<'_>], depth: usize) -> bool {
    let sorted = |members: &[Member<'_>]| {
        let mut refs: Vec<usize> = (0..members.len()).collect();
        refs.sort_by(|&a, &b| {
            let name = |i: usize| members.get(i).map(|(key, _)| key.as_ref());
            name(a).cmp(&name(b))
        });
        refs
    };
    let (x_order, y_order) = (sorted(xs), sorted(ys));
    x_order
        .iter()
        .zip(&y_order)
        .all(|(&i, &j)| match (xs.get(i), ys.get(j)) {
            (Some((x_key, x)), Some((y_key, y))) => x_key == y_key && equal_within(x, y, depth + 1),
            _ => false,
        })
}

/// Positions by hash: the items of a `uniqueItems` array once it holds many (equal values
/// hash alike, so only items with the same hash need comparing), or an object's undeclared
/// keys.
#[derive(Debug, Default)]
pub(super) struct HashIndex {
    pub(super) by_hash: HashMap<u64, Vec<usize>>,
}

impl HashIndex {
    /// An index of the first `n` items, read with `get`.
    pub(super) fn build<'x, 'y: 'x>(
        n: usize,
        get: impl Fn(usize) -> Option<&'x Value<'y>>,
    ) -> Self {
        let mut index = HashIndex::default();
        for i in 0..n {
            if let Some(item) = get(i) {
                index.by_hash.entry(hash(item, 0)).or_default().push(i);
            }
        }
        index
    }
}

/// Items arrive one at a time; this is the check for the next one. `earlier` items came
/// before `item`, and `get(i)` reads item `i`; `index`, if given, indexes them all. Returns
/// the first earlier item equal to `item` (so that, stopping at the first `Some`, the
/// answer is the smallest `second` with its smallest `first`); otherwise `item` is now item
/// `earlier` (added to the index), and the caller keeps it.
pub(super) fn earlier_twin<'x, 'y: 'x>(
    earlier: usize,
    get: impl Fn(usize) -> Option<&'x Value<'y>>,
    index: Option<&mut HashIndex>,
    item: &Value<'_>,
) -> Option<usize> {
    let Some(index) = index else {
        return (0..earlier).find(|&i| get(i).is_some_and(|other| equal(other, item)));
    };
    let key = hash(item, 0);
    let twin = index.by_hash.get(&key).and_then(|candidates| {
        candidates
            .iter()
            .copied()
            .find(|&i| get(i).is_some_and(|other| equal(other, item)))
    });
    if twin.is_none() {
        index.by_hash.entry(key).or_default().push(earlier);
    }
    twin
}

/// The first repeat in `items`: the smallest `second` such that an earlier item equals it,
/// with the smallest such `first`. `None` if all items differ.
#[cfg(test)]
fn first_repeat(items: &[Value<'_>]) -> Option<(usize, usize)> {
    let mut index: Option<HashIndex> = None;
    items.iter().enumerate().find_map(|(second, item)| {
        if second == 32 {
            index = Some(HashIndex::build(second, |i| items.get(i)));
        }
        earlier_twin(second, |i| items.get(i), index.as_mut(), item).map(|first| (first, second))
    })
}

/// A hash that agrees with [`equal`]: numbers hash their decimal value (not their text) and
/// objects combine member hashes with a commutative sum (so member order does not count).
pub(super) fn hash(value: &Value<'_>, depth: usize) -> u64 {
    if depth > MAX_DEPTH {
        return 0;
    }
    match value {
        Value::Null => mix(1, 0),
        Value::Bool(b) => mix(2, u64::from(*b)),
        Value::Number(n) => Decimal::parse(n.as_str()).fold_value(mix(3, 0), mix),
        Value::String(s) => bytes_hash(mix(4, 0), s.as_bytes()),
        Value::Array(items) => items
            .iter()
            .fold(mix(5, 0), |acc, item| mix(acc, hash(item, depth + 1))),
        Value::Object(members) => members.iter().fold(mix(6, 0), |acc, (key, item)| {
            let member = mix(bytes_hash(7, key.as_bytes()), hash(item, depth + 1));
            acc.wrapping_add(member)
        }),
    }
}

pub(super) fn bytes_hash(seed: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(seed ^ 0xcbf2_9ce4_8422_2325, |acc, &b| {
        (acc ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A 64-bit finaliser (splitmix64) applied to the pair.
fn mix(a: u64, b: u64) -> u64 {
    let mut x = a.rotate_left(17) ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Number;
    use std::borrow::Cow;

    fn num(text: &str) -> Value<'static> {
        Value::Number(Number::from_text(text.to_owned()).unwrap_or_else(|| unreachable!()))
    }

    fn s(text: &str) -> Value<'static> {
        Value::String(Cow::Owned(text.to_owned()))
    }

    fn obj(members: Vec<(&str, Value<'static>)>) -> Value<'static> {
        Value::Object(
            members
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k.to_owned()), v))
                .collect(),
        )
    }

    #[test]
    fn equality_follows_json_schema() {
        assert!(equal(&num("1"), &num("1.0")));
        assert!(!equal(&num("1"), &Value::Bool(true)));
        assert!(!equal(&num("0"), &Value::Bool(false)));
        let a = obj(vec![("a", num("1")), ("b", s("x"))]);
        let b = obj(vec![("b", s("x")), ("a", num("1e0"))]);
        assert!(equal(&a, &b));
        let c = Value::Array(vec![num("1"), num("2")]);
        let d = Value::Array(vec![num("2"), num("1")]);
        assert!(!equal(&c, &d));
    }

    #[test]
    fn large_objects_compare_unordered() {
        let forward: Vec<(String, Value<'static>)> = (0..100)
            .map(|i| (format!("k{i}"), num(&i.to_string())))
            .collect();
        let a = obj(forward
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect());
        let b = obj(forward
            .iter()
            .rev()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect());
        assert!(equal(&a, &b));
        let mut changed = forward.clone();
        if let Some((_, value)) = changed.get_mut(50) {
            *value = num("50.5");
        }
        let c = obj(changed
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect());
        assert!(!equal(&a, &c));
    }

    #[test]
    fn repeats_are_found_the_same_way_in_short_and_long_arrays() {
        let mut items: Vec<Value<'static>> = (0..100).map(|i| num(&i.to_string())).collect();
        assert_eq!(first_repeat(&items), None);
        items.push(num("70.0"));
        items.push(num("3e0"));
        assert_eq!(first_repeat(&items), Some((70, 100)));
        let short = vec![s("a"), s("b"), s("b"), s("a")];
        assert_eq!(first_repeat(&short), Some((1, 2)));
        let mut long: Vec<Value<'static>> = (0..40).map(|i| s(&i.to_string())).collect();
        long.extend([s("7"), s("1")]);
        assert_eq!(first_repeat(&long), Some((7, 40)));
    }
}
