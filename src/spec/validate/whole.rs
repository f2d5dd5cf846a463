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
        let container = matches!(value, Value::Array(_) | Value::Object(_));
        if container && depth >= MAX_VALUE_DEPTH {
            let limit = MAX_VALUE_DEPTH;
            return Err(self.fatal(at, value, Rule::TooDeep { limit }));
        }
        match value {
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.whole(item, &at.index(index), depth + 1)?;
                }
            }
            Value::Object(members) => {
                if let Some(key) = first_repeated_key(members) {
                    let key = key.to_owned();
                    return Err(self.fatal(at, value, Rule::DuplicateKey { key }));
                }
                for (key, item) in members {
                    self.whole(item, &at.key(key), depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The key of the first member (by position) whose key an earlier member already has.
fn first_repeated_key<'m>(members: &'m [Member<'_>]) -> Option<&'m str> {
    if members.len() <= PAIRWISE_KEYS {
        return members.iter().enumerate().find_map(|(index, (key, _))| {
            let earlier = members.get(..index)?;
            earlier
                .iter()
                .any(|(other, _)| other == key)
                .then_some(key.as_ref())
        });
    }
    let mut seen = HashSet::with_capacity(members.len());
    members
        .iter()
        .map(|(key, _)| key.as_ref())
        .find(|&key| !seen.insert(key))
}
