//! What kind of value a value is, and what kinds a type can accept, looking through `enum`,
//! `const`, `$ref` and the alternatives: to explain a failed `anyOf`/`oneOf` ("must be a
//! string or null") and to check that a tool's root is an object.

use crate::json::decimal::Decimal;
use crate::json::Value;
use crate::spec::{Kinds, Type};

/// The kind of a value as the validator tells kinds apart: a number is an `Integer` when it
/// is an integer within `i64` (the `integer` type), otherwise a `Fraction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    Null,
    Bool,
    Integer,
    Fraction,
    String,
    Array,
    Object,
}

impl Shape {
    /// The shape of number text.
    pub(super) fn of_number(decimal: &Decimal<'_>) -> Shape {
        if decimal.is_i64() {
            Shape::Integer
        } else {
            Shape::Fraction
        }
    }

    /// True if a type that accepts `kinds` accepts a value of this shape.
    pub(super) fn admitted_by(self, kinds: Kinds) -> bool {
        match self {
            Shape::Null => kinds.contains(Kinds::NULL),
            Shape::Bool => kinds.contains(Kinds::BOOLEAN),
            Shape::Integer => kinds.accepts_fractions() || kinds.contains(Kinds::INTEGER),
            Shape::Fraction => kinds.accepts_fractions(),
            Shape::String => kinds.contains(Kinds::STRING),
            Shape::Array => kinds.contains(Kinds::ARRAY),
            Shape::Object => kinds.contains(Kinds::OBJECT),
        }
    }
}

/// True if a value of this kind may be accepted by a type that accepts `kinds`.
pub(crate) fn admits(kinds: Kinds, value: &Value<'_>) -> bool {
    let shape = match value {
        Value::Null => Shape::Null,
        Value::Bool(_) => Shape::Bool,
        Value::Number(number) => Shape::of_number(&Decimal::parse(number.as_str())),
        Value::String(_) => Shape::String,
        Value::Array(_) => Shape::Array,
        Value::Object(_) => Shape::Object,
    };
    shape.admitted_by(kinds)
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
        Value::Number(text) if Decimal::parse(text.as_str()).is_i64() => Kinds::INTEGER,
        Value::Number(_) => Kinds(Kinds::NUMBER.0 & !Kinds::INTEGER.0),
        Value::String(_) => Kinds::STRING,
        Value::Array(_) => Kinds::ARRAY,
        Value::Object(_) => Kinds::OBJECT,
    }
}
