//! Step 1 of a validation, before any schema rule: no object anywhere repeats a key, and
//! nothing nests deeper than [`MAX_VALUE_DEPTH`]. Of several such problems the one in the
//! container that comes first in the value's pre-order is reported (an object's own
//! repeat before anything inside it). Nothing else about a value with a repeated key can
//! be trusted: two parsers may keep different copies (RFC 8259 section 4).

use super::walk::{Trail, Verdict, Walk};
use super::MAX_VALUE_DEPTH;
use crate::json::{Member, Value};
use crate::spec::Rule;
use std::collections::HashSet;

/// Objects up to this many members look for a repeated key pairwise; larger ones use a
/// set, so that the check is never quadratic.
const PAIRWISE_KEYS: usize = 32;

impl Walk<'_> {
    /// Step 1 for `value` (at `at`, `depth` containers below the root). Recursive, at
    /// most [`MAX_VALUE_DEPTH`] deep.
    pub(super) fn whole(&self, value: &Value<'_>, at: &Trail<'_>, depth: usize) -> Verdict {
        if is_container(value) && depth >= MAX_VALUE_DEPTH {
            let limit = MAX_VALUE_DEPTH;
            return Err(self.fatal(at, value, Rule::TooDeep { limit }));
        }
        match value {
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate().filter(|(_, v)| is_container(v)) {
                    self.whole(item, &at.index(index), depth + 1)?;
                }
            }
            Value::Object(members) => {
                if let Some(key) = first_repeated_key(members) {
                    let key = key.to_owned();
                    return Err(self.fatal(at, value, Rule::DuplicateKey { key }));
                }
                for (key, item) in members.iter().filter(|(_, v)| is_container(v)) {
                    self.whole(item, &at.key(key), depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// True for an array or an object: scalars hold no keys and nest nothing.
fn is_container(value: &Value<'_>) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

/// The key of the first member (by position) whose key an earlier member already has.
/// Small objects keep a 64-bit summary of the keys seen (one bit per key, chosen by its
/// length and end bytes), and compare a key with the earlier ones only when its bit is
/// already set, so an object without repeats costs one pass.
fn first_repeated_key<'m>(members: &'m [Member<'_>]) -> Option<&'m str> {
    if members.len() <= PAIRWISE_KEYS {
        let mut seen: u64 = 0;
        return members.iter().enumerate().find_map(|(index, (key, _))| {
            let bit = 1u64 << (summary(key) % 64);
            let repeated =
                seen & bit != 0 && members.get(..index)?.iter().any(|(other, _)| other == key);
            seen |= bit;
            repeated.then_some(key.as_ref())
        });
    }
    let mut seen = HashSet::with_capacity(members.len());
    members
        .iter()
        .map(|(key, _)| key.as_ref())
        .find(|&key| !seen.insert(key))
}

/// A few bits of `key`: equal keys agree on them, most different keys do not.
fn summary(key: &str) -> u32 {
    let bytes = key.as_bytes();
    let first = bytes.first().copied().unwrap_or(0);
    let last = bytes.last().copied().unwrap_or(0);
    let length = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    length.wrapping_mul(31) ^ u32::from(first).wrapping_mul(7) ^ u32::from(last)
}
