//! Turning the validator's internal report ([`Fail`](super::Fail): borrowed references
//! and the failing value's address) into a [`Violation`]: the path, the rule as owned data,
//! and the received value cut at `PREVIEW_CHARS`. This runs only when a value is refused,
//! so it may allocate freely.

use super::{Broken, Fail, NameRule, MAX_VALUE_DEPTH, RECEIVED_CHARS, STEP_BUDGET};
use crate::json::Value;
use crate::spec::{Rule, Violation};
use std::borrow::Cow;

impl<'s, 'v> Fail<'s, 'v> {
    /// A validator limit or a repeated key: it ends the whole validation, even inside an
    /// alternative (where an ordinary failure only means "try the next one"). A repeated key
    /// belongs to step 1, which no alternative can excuse.
    pub(super) fn is_fatal(&self) -> bool {
        matches!(
            self.what,
            Broken::TooDeep(_) | Broken::TooComplex | Broken::DuplicateKey(_)
        )
    }

    pub(super) fn into_violation(self, root: &Value<'_>) -> Violation {
        let received = match &self.what {
            Broken::PropertyName(key, _) => {
                crate::json::preview(&Value::String(Cow::Borrowed(key)), RECEIVED_CHARS)
            }
            _ => crate::json::preview(self.at, RECEIVED_CHARS),
        };
        Violation {
            path: path_to(root, self.at),
            rule: Box::new(self.what.into_rule()),
            received,
        }
    }
}

impl Broken<'_, '_> {
    fn into_rule(self) -> Rule {
        match self {
            Broken::Kind(expected) => Rule::Type { expected },
            Broken::Enum(allowed) => Rule::Enum {
                allowed: allowed.to_vec(),
            },
            Broken::Const(expected) => Rule::Const {
                expected: expected.clone(),
            },
            Broken::Minimum(bound, ty) => Rule::Minimum {
                minimum: bound.clone(),
                maximum: ty.number.maximum.clone(),
                integer: !ty.kinds.accepts_fractions(),
            },
            Broken::Maximum(bound, ty) => Rule::Maximum {
                maximum: bound.clone(),
                minimum: ty.number.minimum.clone(),
                integer: !ty.kinds.accepts_fractions(),
            },
            Broken::MultipleOf(divisor) => Rule::MultipleOf { divisor },
            Broken::MinLength(min, max) => Rule::MinLength { min, max },
            Broken::MaxLength(max, min) => Rule::MaxLength { max, min },
            Broken::MinItems(min, max) => Rule::MinItems { min, max },
            Broken::MaxItems(max, min) => Rule::MaxItems { max, min },
            Broken::Unique(first, second) => Rule::UniqueItems { first, second },
            Broken::Required(field) => Rule::Required {
                field: field.to_owned(),
            },
            Broken::Unknown(field, fields) => Rule::Unknown {
                field: field.to_owned(),
                allowed: fields.iter().map(|f| f.name.clone()).collect(),
            },
            Broken::DuplicateKey(key) => Rule::DuplicateKey {
                key: key.to_owned(),
            },
            Broken::PropertyName(name, rule) => Rule::PropertyName {
                name: name.to_owned(),
                rule: Box::new(rule.into_rule()),
            },
            Broken::AnyOf(alternatives) => Rule::AnyOf { alternatives },
            Broken::OneOf(alternatives, matched) => Rule::OneOf {
                alternatives,
                matched,
            },
            Broken::TooDeep(limit) => Rule::TooDeep { limit },
            Broken::TooComplex => Rule::TooComplex { steps: STEP_BUDGET },
        }
    }
}

impl NameRule<'_> {
    fn into_rule(self) -> Rule {
        match self {
            NameRule::Kind(kinds) => Broken::Kind(kinds),
            NameRule::Enum(allowed) => Broken::Enum(allowed),
            NameRule::Const(expected) => Broken::Const(expected),
            NameRule::MinLength(min, max) => Broken::MinLength(min, max),
            NameRule::MaxLength(max, min) => Broken::MaxLength(max, min),
            NameRule::AnyOf(n) => Broken::AnyOf(n),
            NameRule::OneOf(n, matched) => Broken::OneOf(n, matched),
        }
        .into_rule()
    }
}

/// The dotted path from `root` to the value at `target`'s address (`filters.limit`,
/// `items.2.sku`), found by a depth-bounded search; `""` for the root.
fn path_to(root: &Value<'_>, target: &Value<'_>) -> String {
    let mut segments: Vec<Segment<'_>> = Vec::new();
    find(root, target, &mut segments, 0);
    let mut path = String::new();
    for segment in segments.iter().rev() {
        if !path.is_empty() {
            path.push('.');
        }
        match segment {
            Segment::Key(key) => path.push_str(key),
            Segment::Index(index) => path.push_str(&index.to_string()),
        }
    }
    path
}

fn address(value: &Value<'_>) -> *const () {
    (value as *const Value<'_>).cast()
}

enum Segment<'v> {
    Key(&'v str),
    Index(usize),
}

/// Pushes the segments from `target` up to `node` (innermost first) and returns true if
/// `target` lies within `node`.
fn find<'v>(
    node: &'v Value<'_>,
    target: &Value<'_>,
    out: &mut Vec<Segment<'v>>,
    depth: usize,
) -> bool {
    if std::ptr::eq(address(node), address(target)) {
        return true;
    }
    if depth > MAX_VALUE_DEPTH {
        return false;
    }
    match node {
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                if find(item, target, out, depth + 1) {
                    out.push(Segment::Index(index));
                    return true;
                }
            }
        }
        Value::Object(members) => {
            for (key, item) in members {
                if find(item, target, out, depth + 1) {
                    out.push(Segment::Key(key));
                    return true;
                }
            }
        }
        _ => {}
    }
    false
}
