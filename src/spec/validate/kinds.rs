//! What kinds of value a type can accept, looking through `enum`, `const`, `$ref` and the
//! alternatives: to explain a failed `anyOf`/`oneOf` ("must be a string or null") and to
//! check that a tool's root is an object.

use super::number;
use super::Cx;
use crate::json::Value;
use crate::spec::{Kinds, Type};

/// True if a value of this kind may be accepted by a type that accepts `kinds`.
pub(crate) fn admits(kinds: Kinds, value: &Value<'_>) -> bool {
    match value {
        Value::Null => kinds.contains(Kinds::NULL),
        Value::Bool(_) => kinds.contains(Kinds::BOOLEAN),
        Value::Number(number) => {
            kinds.accepts_fractions()
                || (kinds.contains(Kinds::INTEGER) && number::is_i64(number.as_str()))
        }
        Value::String(_) => kinds.contains(Kinds::STRING),
        Value::Array(_) => kinds.contains(Kinds::ARRAY),
        Value::Object(_) => kinds.contains(Kinds::OBJECT),
    }
}

/// The kinds a type accepts, during validation: its visits count against the step budget, so that
/// explaining failures cannot cost more than checking did.
pub(super) fn kinds_charged(cx: &mut Cx<'_>, ty: &Type) -> Kinds {
    let allowed = KINDS_VISITS.min(cx.fuel);
    let mut visits_left = allowed;
    let kinds = kinds_within(cx.defs, ty, &mut visits_left);
    cx.fuel = cx.fuel.saturating_sub(allowed.saturating_sub(visits_left));
    kinds
}

/// How many types one [`kinds_of`] looks at.
const KINDS_VISITS: u32 = 256;

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
        Value::Number(text) if number::is_i64(text.as_str()) => Kinds::INTEGER,
        Value::Number(_) => Kinds(Kinds::NUMBER.0 & !Kinds::INTEGER.0),
        Value::String(_) => Kinds::STRING,
        Value::Array(_) => Kinds::ARRAY,
        Value::Object(_) => Kinds::OBJECT,
    }
}
