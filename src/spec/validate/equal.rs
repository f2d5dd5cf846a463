//! JSON Schema equality (draft 2020-12, section 4.2.2), used by `enum`, `const` and
//! `uniqueItems`: numbers are equal by value (`1 == 1.0`), objects by their members whatever
//! their order, arrays element by element in order; `true` is never `1`.
//!
//! `Value`'s own `PartialEq` is textual (`1.0 != 1`, member order matters), which is right
//! for a parser's round trip and wrong here, hence this module.

use super::number::{compare, Decimal};
use crate::json::{Member, Value};
use std::cmp::Ordering;

/// Nesting this deep compares as unequal instead of recursing further; every value the
/// validator sees has passed its own depth check, so this bounds only hand-built values.
const MAX_DEPTH: usize = super::MAX_CHECK_DEPTH;

/// Arrays up to this length are checked for repeats pair by pair, without allocating;
/// longer ones sort a list of hashes (one allocation) so the check stays `O(n log n)`.
const PAIRWISE_LIMIT: usize = 32;

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
        (Value::String(x), Value::String(y)) => super::same_name(x, y),
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|(x, y)| equal_within(x, y, depth + 1))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            xs.len() == ys.len()
                && if xs.len() <= PAIRWISE_LIMIT {
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

/// The first repeat in `items`: the smallest `second` such that an earlier item equals it,
/// with the smallest such `first`. `None` if all items differ.
pub(crate) fn first_repeat(items: &[Value<'_>]) -> Option<(usize, usize)> {
    if items.len() <= PAIRWISE_LIMIT {
        return (1..items.len()).find_map(|second| {
            let item = items.get(second)?;
            let earlier = items.get(..second)?;
            earlier
                .iter()
                .position(|other| equal(other, item))
                .map(|first| (first, second))
        });
    }
    // Equal values hash alike, so only items with the same hash need comparing. Within a
    // run of equal hashes (sorted by index), the first repeat is found as above; the answer
    // is the run's repeat with the smallest `second`.
    let mut hashed: Vec<(u64, usize)> = items
        .iter()
        .enumerate()
        .map(|(index, item)| (hash(item, 0), index))
        .collect();
    hashed.sort_unstable();
    let mut best: Option<(usize, usize)> = None;
    for run in hashed.chunk_by_hash() {
        for (position, &(_, second)) in run.iter().enumerate() {
            if best.is_some_and(|(_, b)| b <= second) {
                break;
            }
            let earlier = run.get(..position).unwrap_or(&[]);
            let found = earlier.iter().find(|&&(_, first)| {
                matches!((items.get(first), items.get(second)), (Some(x), Some(y)) if equal(x, y))
            });
            if let Some(&(_, first)) = found {
                best = Some((first, second));
                break;
            }
        }
    }
    best
}

/// Splitting a sorted `(hash, index)` list into runs of equal hash (`slice::chunk_by` is
/// newer than the crate's `rust-version`).
trait ChunkByHash {
    fn chunk_by_hash(&self) -> Runs<'_>;
}

impl ChunkByHash for Vec<(u64, usize)> {
    fn chunk_by_hash(&self) -> Runs<'_> {
        Runs { rest: self }
    }
}

struct Runs<'a> {
    rest: &'a [(u64, usize)],
}

impl<'a> Iterator for Runs<'a> {
    type Item = &'a [(u64, usize)];

    fn next(&mut self) -> Option<Self::Item> {
        let &(hash, _) = self.rest.first()?;
        let len = self
            .rest
            .iter()
            .position(|&(other, _)| other != hash)
            .unwrap_or(self.rest.len());
        let (run, rest) = self.rest.split_at(len);
        self.rest = rest;
        Some(run)
    }
}

/// A hash that agrees with [`equal`]: numbers hash their decimal value (not their text) and
/// objects combine member hashes with a commutative sum (so member order does not count).
fn hash(value: &Value<'_>, depth: usize) -> u64 {
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

fn bytes_hash(seed: u64, bytes: &[u8]) -> u64 {
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
