//! What kind of value a value is, and what kinds a type can accept, looking through `enum`,
//! `const`, `$ref` and the alternatives: to explain a failed `anyOf`/`oneOf` ("must be a
//! string or null") and to check that a tool's root is an object.

use crate::json::decimal::Decimal;
use crate::json::Value;
use crate::spec::{Kinds, Type};

/// True if a value of this kind may be accepted by a type that accepts `kinds`. A number
/// is read only when the type takes integers but no other numbers.
pub(crate) fn admits(kinds: Kinds, value: &Value<'_>) -> bool {
    match value {
        Value::Null => kinds.contains(Kinds::NULL),
        Value::Bool(_) => kinds.contains(Kinds::BOOLEAN),
        Value::Number(number) => {
            kinds.accepts_fractions() || (kinds.contains(Kinds::INTEGER) && is_i64(number.as_str()))
        }
        Value::String(_) => kinds.contains(Kinds::STRING),
        Value::Array(_) => kinds.contains(Kinds::ARRAY),
        Value::Object(_) => kinds.contains(Kinds::OBJECT),
    }
}

/// True if number text is an integer within `i64` (the `integer` type): at a glance for
/// plain digits (at most 18 always fit), exactly otherwise (`1.0`, `1e2`, 19 digits).
fn is_i64(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let plain = (1..=18).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
    plain || Decimal::parse(text).is_i64()
}

/// The kinds a type can accept at all, looking through `enum`, `const`, `$ref` and the
/// alternatives. The walk visits at most [`KINDS_VISITS`] types (alternatives over shared
/// definitions can branch exponentially); past that, a type counts for its own kinds, a
/// superset of the exact answer.
pub(crate) fn kinds_of(defs: &[(String, Type)], ty: &Type) -> Kinds {
    kinds_counted(defs, ty).0
}

/// [`kinds_of`], and how many types it visited: explaining a failed alternative costs the
/// validation that many steps, so that explaining cannot cost more than checking did.
pub(super) fn kinds_counted(defs: &[(String, Type)], ty: &Type) -> (Kinds, u32) {
    let mut visits_left = KINDS_VISITS;
    let kinds = kinds_within(defs, ty, &mut visits_left);
    (kinds, KINDS_VISITS - visits_left)
}

/// How many types one [`kinds_of`] looks at.
const KINDS_VISITS: u32 = 256;

/// Recursive, but each call spends one of the bounded visits first, so it nests at most
/// [`KINDS_VISITS`] deep.
fn kinds_within(defs: &[(String, Type)], ty: &Type, visits_left: &mut u32) -> Kinds {
    let mut kinds = ty.kinds;
    match visits_left.checked_sub(1) {
        Some(left) => *visits_left = left,
        None => return kinds,
    }
    if let Some(values) = &ty.enumeration {
        let of_values = values
            .iter()
            .fold(Kinds::NONE, |all, v| all.union(kind_of(v)));
        kinds = kinds.intersection(of_values);
    }
    if let Some(value) = &ty.constant {
        kinds = kinds.intersection(kind_of(value));
    }
    if let Some((_, target)) = ty.reference.and_then(|index| defs.get(index)) {
        kinds = kinds.intersection(kinds_within(defs, target, visits_left));
    }
    for branch in &ty.all_of {
        kinds = kinds.intersection(kinds_within(defs, branch, visits_left));
    }
    for alternatives in [&ty.any_of, &ty.one_of] {
        if !alternatives.is_empty() {
            let union = alternatives.iter().fold(Kinds::NONE, |all, alt| {
                all.union(kinds_within(defs, alt, visits_left))
            });
            kinds = kinds.intersection(union);
        }
    }
    kinds
}

/// The one kind a value is: an integer within `i64` is `INTEGER`, any other number the
/// fractional part of `NUMBER`.
fn kind_of(value: &Value<'_>) -> Kinds {
    match value {
        Value::Null => Kinds::NULL,
        Value::Bool(_) => Kinds::BOOLEAN,
        Value::Number(text) if is_i64(text.as_str()) => Kinds::INTEGER,
        Value::Number(_) => Kinds(Kinds::NUMBER.0 & !Kinds::INTEGER.0),
        Value::String(_) => Kinds::STRING,
        Value::Array(_) => Kinds::ARRAY,
        Value::Object(_) => Kinds::OBJECT,
    }
}
