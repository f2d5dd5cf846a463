//! What a validation finds ([`Fail`]: a broken rule and the value it is about), and how it
//! becomes a [`Violation`]: the dotted path, the rule as owned data, and the received value
//! cut at 120 characters.
//!
//! While checking, a failure holds only references into the compiled program and the
//! *ordinal* of the value it is about (its place in the value's pre-order: the root is 0,
//! then each value in the order its first byte arrives), so that a failing alternative
//! inside a passing `anyOf` costs nothing, and so that no event needs to be kept. Only a
//! refusal is placed: [`Failure::locate`] walks the value to that ordinal, which gives the
//! path (a [`Path`], in its dotted form: `items.2.sku`) and the received text.

use super::program::{Assertion, ObjectRules};
use super::{MAX_VALUE_DEPTH, RECEIVED_CHARS, STEP_BUDGET};
use crate::json::{Path, Segment, Value};
use crate::spec::{Kinds, Rule, Violation};
use std::borrow::Cow;
use std::fmt;

/// A rule broken by the value at ordinal `at` (for member rules, the object).
#[derive(Clone, Copy, Debug)]
pub(super) struct Fail<'s> {
    pub(super) at: usize,
    pub(super) what: Broken<'s>,
}

/// The rule broken, borrowing what its message needs from the compiled program. Member
/// names are member indices, read back from the value when the failure is placed.
#[derive(Clone, Copy, Debug)]
pub(super) enum Broken<'s> {
    /// The value's kind is refused; the kinds accepted.
    Kind(Kinds),
    /// An assertion that carries everything its message needs (`enum`, `const`, bounds,
    /// lengths, item counts).
    Keyword(&'s Assertion),
    /// `1` items matched `contains`, which that assertion's counts refuse.
    Contains(&'s Assertion, u64),
    /// Items `first` and `second` are equal.
    Unique(usize, usize),
    /// A required field is missing.
    Required(&'s str),
    /// The object has member `0`, and so must have `1`, which it lacks (`dependentRequired`).
    DependentRequired(&'s str, &'s str),
    /// Member `0` is not declared, and the object refuses undeclared members.
    Unknown(usize, &'s ObjectRules),
    /// Member `0` repeats an earlier key.
    DuplicateKey(usize),
    /// Member `0`'s name breaks `propertyNames`.
    PropertyName(usize, NameRule<'s>),
    AnyOf(usize),
    OneOf(usize, usize),
    TooDeep(usize),
    TooComplex,
}

/// The rules a field name (a string) can break.
#[derive(Clone, Copy, Debug)]
pub(super) enum NameRule<'s> {
    Kind(Kinds),
    Keyword(&'s Assertion),
    AnyOf(usize),
    OneOf(usize, usize),
}

impl Fail<'_> {
    /// A validator limit or a repeated key: it ends the whole validation, even inside an
    /// alternative (where an ordinary failure only means "try the next one").
    pub(super) fn is_fatal(&self) -> bool {
        matches!(
            self.what,
            Broken::TooDeep(_) | Broken::TooComplex | Broken::DuplicateKey(_)
        )
    }

    /// This failure of a field name's check, as a failure of the object (at `object`) that
    /// has member `member`. `kinds` is what the name's type accepts, for a rule a name
    /// cannot break (a string has no items).
    pub(super) fn of_name(self, object: usize, member: usize, kinds: Kinds) -> Self {
        let rule = match self.what {
            Broken::Kind(kinds) => NameRule::Kind(kinds),
            Broken::Keyword(assertion) => NameRule::Keyword(assertion),
            Broken::AnyOf(n) => NameRule::AnyOf(n),
            Broken::OneOf(n, matched) => NameRule::OneOf(n, matched),
            Broken::TooDeep(_) | Broken::TooComplex | Broken::DuplicateKey(_) => {
                return Fail {
                    at: object,
                    what: self.what,
                }
            }
            _ => NameRule::Kind(kinds),
        };
        Fail {
            at: object,
            what: Broken::PropertyName(member, rule),
        }
    }
}

/// The first violation a [`Validation`](super::Validation) found, not yet placed in a
/// value: [`Failure::locate`] turns it into the [`Violation`] a model reads.
#[derive(Clone, Copy)]
pub struct Failure<'s> {
    pub(super) fail: Fail<'s>,
}

impl fmt::Debug for Failure<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Failure")
            .field("at", &self.fail.at)
            .field("rule", &self.rule(|_| Some("…")).label())
            .finish()
    }
}

impl<'s> Failure<'s> {
    /// The violation, placed in `value`, the value whose events the validation was fed
    /// (the path, the member names and the received text come from it).
    pub fn locate(&self, value: &Value<'_>) -> Violation {
        let (path, found) = find(value, self.fail.at);
        let key = |member: usize| -> Option<&str> {
            let (key, _) = found?.as_object()?.get(member)?;
            Some(key)
        };
        let received = match self.fail.what {
            Broken::PropertyName(member, _) => crate::json::preview(
                &Value::String(Cow::Borrowed(key(member).unwrap_or(""))),
                RECEIVED_CHARS,
            ),
            _ => found.map_or_else(String::new, |value| {
                crate::json::preview(value, RECEIVED_CHARS)
            }),
        };
        Violation {
            path: path.dotted(),
            rule: Box::new(self.rule(key)),
            received,
        }
    }

    /// The rule as owned data, reading member names with `key`.
    fn rule<'k>(&self, key: impl Fn(usize) -> Option<&'k str>) -> Rule {
        let name = |member: usize| key(member).unwrap_or("").to_owned();
        match self.fail.what {
            Broken::Kind(expected) => Rule::Type { expected },
            Broken::Keyword(assertion) => keyword_rule(assertion),
            Broken::Unique(first, second) => Rule::UniqueItems { first, second },
            Broken::Contains(assertion, matched) => match assertion {
                Assertion::Contains { min, max, .. } => Rule::Contains {
                    min: *min,
                    max: *max,
                    matched,
                },
                _ => keyword_rule(assertion),
            },
            Broken::Required(field) => Rule::Required {
                field: field.to_owned(),
            },
            Broken::DependentRequired(field, required) => Rule::DependentRequired {
                field: field.to_owned(),
                required: required.to_owned(),
            },
            Broken::Unknown(member, rules) => Rule::Unknown {
                field: name(member),
                allowed: rules.fields.iter().map(|f| f.name.clone()).collect(),
                patterns: rules
                    .patterns
                    .iter()
                    .map(|(pattern, _)| pattern.as_str().to_string())
                    .collect(),
            },
            Broken::DuplicateKey(member) => Rule::DuplicateKey { key: name(member) },
            Broken::PropertyName(member, rule) => Rule::PropertyName {
                name: name(member),
                rule: Box::new(match rule {
                    NameRule::Kind(expected) => Rule::Type { expected },
                    NameRule::Keyword(assertion) => keyword_rule(assertion),
                    NameRule::AnyOf(alternatives) => Rule::AnyOf { alternatives },
                    NameRule::OneOf(alternatives, matched) => Rule::OneOf {
                        alternatives,
                        matched,
                    },
                }),
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

/// The rule an assertion's own failure reports.
fn keyword_rule(assertion: &Assertion) -> Rule {
    match assertion {
        Assertion::Enum(choices) => Rule::Enum {
            allowed: choices.values.clone(),
        },
        Assertion::Const(choices) => Rule::Const {
            expected: choices.values.first().cloned().unwrap_or(Value::Null),
        },
        Assertion::Type(expected) => Rule::Type {
            expected: *expected,
        },
        Assertion::Minimum {
            bound,
            other,
            integer,
        } => Rule::Minimum {
            minimum: bound.clone(),
            maximum: other.clone(),
            integer: *integer,
        },
        Assertion::Maximum {
            bound,
            other,
            integer,
        } => Rule::Maximum {
            maximum: bound.clone(),
            minimum: other.clone(),
            integer: *integer,
        },
        Assertion::MultipleOf(divisor) => Rule::MultipleOf { divisor: *divisor },
        Assertion::MinLength { min, max } => Rule::MinLength {
            min: *min,
            max: *max,
        },
        Assertion::MaxLength { max, min } => Rule::MaxLength {
            max: *max,
            min: *min,
        },
        Assertion::MinProperties { min, max } => Rule::MinProperties {
            min: *min,
            max: *max,
        },
        Assertion::MaxProperties { max, min } => Rule::MaxProperties {
            max: *max,
            min: *min,
        },
        Assertion::Pattern(pattern) => Rule::Pattern {
            pattern: pattern.as_str().to_string(),
        },
        Assertion::Format(format) => Rule::Format { format: *format },
        Assertion::MinItems { min, max } => Rule::MinItems {
            min: *min,
            max: *max,
        },
        Assertion::MaxItems { max, min } => Rule::MaxItems {
            max: *max,
            min: *min,
        },
        Assertion::Not { forbidden, .. } => Rule::Not {
            forbidden: forbidden.clone(),
        },
        // The others fail through their own `Broken` variants; a reference past the
        // definitions accepts nothing.
        Assertion::UniqueItems
        | Assertion::Items(_)
        | Assertion::PrefixItems { .. }
        | Assertion::Contains { .. }
        | Assertion::Object(_)
        | Assertion::Ref(_)
        | Assertion::DanglingRef
        | Assertion::AllOf(_)
        | Assertion::AnyOf(_)
        | Assertion::OneOf(_)
        | Assertion::Conditional(_)
        | Assertion::UnevaluatedProperties(_)
        | Assertion::UnevaluatedItems(_) => Rule::Type {
            expected: Kinds::NONE,
        },
    }
}

/// The value at pre-order `ordinal` in `root` and its path, walking with an explicit stack
/// (as deep as the validation itself went: values past [`MAX_VALUE_DEPTH`] are numbered
/// but never the subject of a failure other than the too-deep container itself).
fn find<'v>(root: &'v Value<'_>, ordinal: usize) -> (Path, Option<&'v Value<'v>>) {
    // A step from a container to a child, borrowed until the path is built.
    #[derive(Clone, Copy)]
    enum Step<'v> {
        Key(&'v str),
        Index(usize),
    }
    // Each open container, the step that leads into it from its parent, and its next child.
    struct Open<'v, 'a> {
        value: &'v Value<'a>,
        step: Option<Step<'v>>,
        next: usize,
    }
    let segment = |step: Step<'_>| match step {
        Step::Key(key) => Segment::Key(key.to_owned()),
        Step::Index(index) => Segment::Index(index),
    };
    let mut stack: Vec<Open<'v, '_>> = Vec::new();
    let (mut current, mut step): (&Value<'_>, Option<Step<'v>>) = (root, None);
    let mut seen = 0usize;
    loop {
        if seen == ordinal {
            let steps = stack.iter().filter_map(|open| open.step).chain(step);
            return (steps.map(segment).collect(), Some(shorten(current)));
        }
        seen = seen.saturating_add(1);
        let container = matches!(current, Value::Array(_) | Value::Object(_));
        if container && stack.len() <= MAX_VALUE_DEPTH {
            stack.push(Open {
                value: current,
                step: step.take(),
                next: 0,
            });
        } else if container {
            // Deeper than the validation looked: count what lies inside, in pre-order.
            seen = seen.saturating_add(count_inside(current));
        }
        // The next value in pre-order: the next child of the innermost open container that
        // has one, closing those that are done.
        loop {
            let Some(open) = stack.last_mut() else {
                return (Path::root(), None);
            };
            let child = match open.value {
                Value::Array(items) => items
                    .get(open.next)
                    .map(|item| (Step::Index(open.next), item)),
                Value::Object(members) => members
                    .get(open.next)
                    .map(|(key, item)| (Step::Key(key.as_ref()), item)),
                _ => None,
            };
            match child {
                Some((next_step, item)) => {
                    open.next += 1;
                    (current, step) = (item, Some(next_step));
                    break;
                }
                None => {
                    stack.pop();
                }
            }
        }
    }
}

/// The same reference with the lifetime of the walk (values are covariant).
fn shorten<'v>(value: &'v Value<'_>) -> &'v Value<'v> {
    value
}

/// How many values lie inside `value` (not counting itself), with an explicit stack.
pub(super) fn count_inside(value: &Value<'_>) -> usize {
    let mut n = 0usize;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => {
                n = n.saturating_add(items.len());
                stack.extend(items.iter());
            }
            Value::Object(members) => {
                n = n.saturating_add(members.len());
                stack.extend(members.iter().map(|(_, item)| item));
            }
            _ => {}
        }
    }
    n
}
