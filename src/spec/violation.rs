//! [`Violation`]: the first rule a value breaks, as data ([`Rule`], counted by
//! [`Rule::label`]) and as one clause a model can act on, which the gate wraps as
//! `"{tool} rejected: {violation}."`: `amount_cents must be an integer from 1 to 500000;
//! received 0`.

use super::format::Format;
use super::names::{with_article, write_list, Escaped, Quoted};
use super::{Bound, Kinds};
use crate::json::{preview, Value, PREVIEW_CHARS};
use std::fmt;

/// The first rule an argument value breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Dotted path from the arguments root (`filters.limit`, `items.2.sku`; `""` for the
    /// root). For a rule about an object's members (a missing, unknown or repeated field, a
    /// field name) it is the object's path.
    pub(crate) path: String,
    /// The rule broken, with its data. Boxed so that a `Violation` (and every error that
    /// carries one, up to the gate's `Rejection`) stays a few words wide.
    pub(crate) rule: Box<Rule>,
    /// The value at `path` as compact JSON, cut at [`PREVIEW_CHARS`] characters
    /// (for [`Rule::PropertyName`], the field name as a JSON string).
    pub(crate) received: String,
}

/// A rule a value can break, with what the model needs to fix it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Rule {
    /// The value's kind is not accepted (`type`). `Kinds::NONE` means nothing is accepted
    /// here (a `false` schema).
    Type {
        /// The kinds accepted.
        expected: Kinds,
    },
    /// The value is none of the allowed values (`enum`).
    Enum {
        /// The allowed values, in declaration order.
        allowed: Vec<Value<'static>>,
    },
    /// The value is not the one allowed value (`const`).
    Const {
        /// The allowed value.
        expected: Value<'static>,
    },
    /// The number is below the minimum (or at an exclusive one).
    Minimum {
        /// The bound broken.
        minimum: Bound,
        /// The other end of the range, if there is one (for the message).
        maximum: Option<Bound>,
        /// True if only integers are accepted (for the message).
        integer: bool,
    },
    /// The number is above the maximum (or at an exclusive one).
    Maximum {
        /// The bound broken.
        maximum: Bound,
        /// The other end of the range, if there is one (for the message).
        minimum: Option<Bound>,
        /// True if only integers are accepted (for the message).
        integer: bool,
    },
    /// The number is not a multiple of `divisor` (`multipleOf`).
    MultipleOf {
        /// The divisor.
        divisor: f64,
    },
    /// The string has fewer code points than `min` (`minLength`).
    MinLength {
        /// The least length accepted.
        min: u64,
        /// The greatest, if there is one (for the message).
        max: Option<u64>,
    },
    /// The string has more code points than `max` (`maxLength`).
    MaxLength {
        /// The greatest length accepted.
        max: u64,
        /// The least, if there is one (for the message).
        min: Option<u64>,
    },
    /// The object has fewer members than `min` (`minProperties`).
    MinProperties {
        /// The least count accepted.
        min: u64,
        /// The greatest, if there is one (for the message).
        max: Option<u64>,
    },
    /// The object has more members than `max` (`maxProperties`).
    MaxProperties {
        /// The greatest count accepted.
        max: u64,
        /// The least, if there is one (for the message).
        min: Option<u64>,
    },
    /// The string does not match `pattern` anywhere (`pattern`).
    Pattern {
        /// The pattern, as the schema writes it (shown to the model).
        pattern: String,
    },
    /// The value is not of its `format` (an RFC 3339 date, an email address…).
    Format {
        /// The format, whose [`phrase`](Format::phrase) the message gives.
        format: Format,
    },
    /// The array has fewer items than `min` (`minItems`).
    MinItems {
        /// The least count accepted.
        min: u64,
        /// The greatest, if there is one (for the message).
        max: Option<u64>,
    },
    /// The array has more items than `max` (`maxItems`).
    MaxItems {
        /// The greatest count accepted.
        max: u64,
        /// The least, if there is one (for the message).
        min: Option<u64>,
    },
    /// Too few items match `contains` (fewer than `minContains`, 1 when not given), or too
    /// many (more than `maxContains`).
    Contains {
        /// The least count of matching items accepted.
        min: u64,
        /// The greatest, if there is one.
        max: Option<u64>,
        /// How many matched.
        matched: u64,
    },
    /// Two items are equal (`uniqueItems`): the first repeat, by the later index.
    UniqueItems {
        /// Index of the earlier item.
        first: usize,
        /// Index of the later, equal item.
        second: usize,
    },
    /// A required field is missing (`required`).
    Required {
        /// The missing field.
        field: String,
    },
    /// A field required because another is given is missing (`dependentRequired`).
    DependentRequired {
        /// The field given.
        field: String,
        /// The field it requires, which is missing.
        required: String,
    },
    /// A field the object does not declare, where unknown fields are refused
    /// (`additionalProperties: false`).
    Unknown {
        /// The unknown field.
        field: String,
        /// The declared fields, in declaration order.
        allowed: Vec<String>,
        /// The `patternProperties` patterns other names may match, in declaration order.
        patterns: Vec<String>,
    },
    /// A field name appears twice in one object: two parsers may keep different ones.
    DuplicateKey {
        /// The repeated name.
        key: String,
    },
    /// A field name breaks the rule for names (`propertyNames`).
    PropertyName {
        /// The field name.
        name: String,
        /// The rule the name breaks (a string rule: kind, enum, const or length).
        rule: Box<Rule>,
    },
    /// The value matches none of the alternatives (`anyOf`).
    AnyOf {
        /// How many alternatives there are.
        alternatives: usize,
    },
    /// The value does not match exactly one of the alternatives (`oneOf`).
    OneOf {
        /// How many alternatives there are.
        alternatives: usize,
        /// How many it matches: 0, or 2 and more.
        matched: usize,
    },
    /// The value matches the schema it must not match (`not`).
    Not {
        /// What that schema matches, as far as the message can say it.
        forbidden: Forbidden,
    },
    /// Checking went deeper than the validator's limit (a value or a recursive schema
    /// nested too far); nothing below this point was checked.
    TooDeep {
        /// The limit, in levels.
        limit: usize,
    },
    /// Checking took more steps than the validator's budget (alternatives nested so that
    /// the work grows exponentially); the value was not accepted.
    TooComplex {
        /// The budget, in steps.
        steps: u32,
    },
}

/// What a `not` forbids, as its violation says it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Forbidden {
    /// Values of these kinds: the negated schema names only a `type`
    /// (`"not": {"type": "null"}`). [`Kinds::ANY`]: every value (`"not": {}`).
    Kinds(Kinds),
    /// These values: the negated schema lists only an `enum` or a `const`.
    Values(Vec<Value<'static>>),
    /// Whatever the negated schema matches (it says more than a kind or a list).
    Schema,
}

impl Violation {
    /// Dotted path from the arguments root; `""` for the root itself.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The rule broken.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }

    /// The received value as compact JSON, cut at [`PREVIEW_CHARS`] characters.
    pub fn received(&self) -> &str {
        &self.received
    }
}

impl Rule {
    /// A stable short name for counters and the command line: `type`, `enum`, `const`,
    /// `minimum`, `maximum`, `multiple_of`, `min_length`, `max_length`, `min_items`,
    /// `max_items`, `contains`, `pattern`, `format`, `min_properties`, `max_properties`,
    /// `unique_items`, `required`, `dependent_required`, `additional`, `duplicate_key`,
    /// `property_names`, `any_of`, `one_of`, `not`, `too_deep`, `too_complex`.
    pub fn label(&self) -> &'static str {
        match self {
            Rule::Type { .. } => "type",
            Rule::Enum { .. } => "enum",
            Rule::Const { .. } => "const",
            Rule::Minimum { .. } => "minimum",
            Rule::Maximum { .. } => "maximum",
            Rule::MultipleOf { .. } => "multiple_of",
            Rule::MinLength { .. } => "min_length",
            Rule::MaxLength { .. } => "max_length",
            Rule::Pattern { .. } => "pattern",
            Rule::Format { .. } => "format",
            Rule::MinProperties { .. } => "min_properties",
            Rule::MaxProperties { .. } => "max_properties",
            Rule::MinItems { .. } => "min_items",
            Rule::MaxItems { .. } => "max_items",
            Rule::UniqueItems { .. } => "unique_items",
            Rule::Contains { .. } => "contains",
            Rule::Required { .. } => "required",
            Rule::DependentRequired { .. } => "dependent_required",
            Rule::Unknown { .. } => "additional",
            Rule::DuplicateKey { .. } => "duplicate_key",
            Rule::PropertyName { .. } => "property_names",
            Rule::AnyOf { .. } => "any_of",
            Rule::OneOf { .. } => "one_of",
            Rule::Not { .. } => "not",
            Rule::TooDeep { .. } => "too_deep",
            Rule::TooComplex { .. } => "too_complex",
        }
    }
}

impl fmt::Display for Violation {
    /// One clause, no final period: `filters.limit must be an integer from 1 to 100;
    /// received 500`, `missing required field 'customer_id'`, `unknown field 'colour';
    /// allowed fields: color, size`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.as_str();
        let received = self.received.as_str();
        match self.rule.as_ref() {
            Rule::Required { field } if path.is_empty() => {
                write!(f, "missing required field {}", Quoted(field))
            }
            Rule::Required { field } => {
                write!(f, "{path} is missing required field {}", Quoted(field))
            }
            Rule::DependentRequired { field, required } => {
                if !path.is_empty() {
                    write!(f, "in {path}, ")?;
                }
                write!(
                    f,
                    "when {} is given, {} is required",
                    Quoted(field),
                    Quoted(required)
                )
            }
            Rule::Unknown {
                field,
                allowed,
                patterns,
            } => {
                if path.is_empty() {
                    write!(f, "unknown field {}; ", Quoted(field))?;
                } else {
                    write!(f, "{path} has unknown field {}; ", Quoted(field))?;
                }
                match (allowed.is_empty(), patterns.is_empty()) {
                    (true, true) => f.write_str("no fields are allowed"),
                    (false, true) => {
                        f.write_str("allowed fields: ")?;
                        write_list(f, allowed, |f, name| write!(f, "{}", Escaped(name)))
                    }
                    (true, false) => {
                        f.write_str("field names must match ")?;
                        if patterns.len() > 1 {
                            f.write_str("one of ")?;
                        }
                        write_list(f, patterns, |f, source| f.write_str(source))
                    }
                    (false, false) => {
                        f.write_str("allowed fields: ")?;
                        write_list(f, allowed, |f, name| write!(f, "{}", Escaped(name)))?;
                        f.write_str(", or names matching ")?;
                        write_list(f, patterns, |f, source| f.write_str(source))
                    }
                }
            }
            Rule::DuplicateKey { key } if path.is_empty() => {
                write!(f, "duplicate field {}", Quoted(key))
            }
            Rule::DuplicateKey { key } => {
                write!(f, "{path} has duplicate field {}", Quoted(key))
            }
            Rule::PropertyName { name, rule } => {
                write!(f, "field name {}", Quoted(name))?;
                if !path.is_empty() {
                    write!(f, " in {path}")?;
                }
                f.write_str(" ")?;
                write_predicate(f, rule, "is")?;
                write!(f, "; received {received}")
            }
            rule => {
                // The root is "the arguments", a plural subject.
                let is = if path.is_empty() {
                    f.write_str("the arguments ")?;
                    "are"
                } else {
                    write!(f, "{path} ")?;
                    "is"
                };
                write_predicate(f, rule, is)?;
                write!(f, "; received {received}")
            }
        }
    }
}

/// What the value must be or do, as the rest of a sentence after its subject
/// (`must be an integer from 1 to 100`); `is` is the verb that agrees with the subject.
fn write_predicate(f: &mut fmt::Formatter<'_>, rule: &Rule, is: &str) -> fmt::Result {
    match rule {
        Rule::Type { expected } if *expected == Kinds::NONE => write!(f, "{is} not allowed"),
        Rule::Type { expected } => write!(f, "must be {expected}"),
        Rule::Enum { allowed } => match allowed.as_slice() {
            [] => write!(f, "{is} not allowed (its enum lists no value)"),
            [only] => write!(f, "must be {}", preview(only, PREVIEW_CHARS)),
            _ => {
                f.write_str("must be one of ")?;
                write_list(f, allowed, |f, value| {
                    f.write_str(&preview(value, PREVIEW_CHARS))
                })
            }
        },
        Rule::Const { expected } => {
            write!(f, "must be {}", preview(expected, PREVIEW_CHARS))
        }
        Rule::Minimum {
            minimum,
            maximum,
            integer,
        } => write_range(f, Some(minimum), maximum.as_ref(), *integer),
        Rule::Maximum {
            maximum,
            minimum,
            integer,
        } => write_range(f, minimum.as_ref(), Some(maximum), *integer),
        Rule::MultipleOf { divisor } => write!(f, "must be a multiple of {divisor}"),
        Rule::MinLength { min, max } => write_count(f, "be", Some(*min), *max, "character"),
        Rule::MaxLength { max, min } => write_count(f, "be", *min, Some(*max), "character"),
        Rule::Pattern { pattern } => write!(f, "must match the pattern {pattern}"),
        // `must be an RFC 3339 date such as 2025-01-31`: the standard, and one value to
        // imitate.
        Rule::Format { format } => write!(f, "must be {}", format.phrase()),
        Rule::MinProperties { min, max } => write_count(f, "have", Some(*min), *max, "field"),
        Rule::MaxProperties { max, min } => write_count(f, "have", *min, Some(*max), "field"),
        Rule::MinItems { min, max } => write_count(f, "have", Some(*min), *max, "item"),
        Rule::MaxItems { max, min } => write_count(f, "have", *min, Some(*max), "item"),
        Rule::Contains { min, max, matched } => {
            write_count(f, "have", (*min > 0).then_some(*min), *max, "item")?;
            let verb = if *matched == 1 { "matches" } else { "match" };
            write!(
                f,
                " matching the schema given under \"contains\", but {matched} {verb}"
            )
        }
        Rule::UniqueItems { first, second } => write!(
            f,
            "must not repeat an item, but items {first} and {second} are equal"
        ),
        Rule::AnyOf { alternatives } => {
            write!(
                f,
                "must match at least one of its {alternatives} alternatives"
            )
        }
        Rule::OneOf {
            alternatives,
            matched,
        } => {
            let matched = if *matched == 0 {
                "none".to_string()
            } else {
                matched.to_string()
            };
            write!(
                f,
                "must match exactly one of its {alternatives} alternatives, but matches {matched}"
            )
        }
        Rule::Not { forbidden } => match forbidden {
            Forbidden::Kinds(kinds) if *kinds == Kinds::ANY => write!(f, "{is} not allowed"),
            Forbidden::Kinds(kinds) => write!(f, "must not be {kinds}"),
            Forbidden::Values(values) => match values.as_slice() {
                [only] => write!(f, "must not be {}", preview(only, PREVIEW_CHARS)),
                _ => {
                    f.write_str("must not be any of ")?;
                    write_list(f, values, |f, value| {
                        f.write_str(&preview(value, PREVIEW_CHARS))
                    })
                }
            },
            Forbidden::Schema => f.write_str("must not match the schema given under \"not\""),
        },
        Rule::TooDeep { limit } => write!(
            f,
            "{is} nested too deeply to check (more than {limit} levels)"
        ),
        Rule::TooComplex { steps } => write!(
            f,
            "took more than {steps} steps to check against its alternatives"
        ),
        // Rules about an object's members read as whole sentences (see `Display`); inside
        // a field-name rule they cannot occur, since a name is a string.
        Rule::Required { field } => write!(f, "must have field {}", Quoted(field)),
        Rule::DependentRequired { required, .. } => {
            write!(f, "must have field {}", Quoted(required))
        }
        Rule::Unknown { field, .. } => write!(f, "must not have field {}", Quoted(field)),
        Rule::DuplicateKey { key } => write!(f, "must not repeat field {}", Quoted(key)),
        Rule::PropertyName { name, .. } => write!(f, "must not have field {}", Quoted(name)),
    }
}

/// `an integer from 1 to 500000`, `at least 1`, `greater than 0 and at most 100`.
fn write_range(
    f: &mut fmt::Formatter<'_>,
    minimum: Option<&Bound>,
    maximum: Option<&Bound>,
    integer: bool,
) -> fmt::Result {
    let noun = if integer { "an integer" } else { "a number" };
    f.write_str("must be ")?;
    match (minimum, maximum) {
        (Some(low), Some(high)) if !low.exclusive && !high.exclusive => write!(
            f,
            "{noun} from {} to {}",
            low.value.as_str(),
            high.value.as_str()
        ),
        (low, high) => {
            let low = low.map(|b| {
                (
                    if b.exclusive {
                        "greater than"
                    } else {
                        "at least"
                    },
                    b,
                )
            });
            let high = high.map(|b| (if b.exclusive { "less than" } else { "at most" }, b));
            let mut sep = "";
            for (words, bound) in low.into_iter().chain(high) {
                write!(f, "{sep}{words} {}", bound.value.as_str())?;
                sep = " and ";
            }
            if sep.is_empty() {
                f.write_str(noun)?;
            }
            Ok(())
        }
    }
}

/// `must be at least 3 characters long`, `must have from 1 to 5 items`, `must have exactly
/// 1 item`: `verb` is `be` (lengths, which end in `long`) or `have`.
fn write_count(
    f: &mut fmt::Formatter<'_>,
    verb: &str,
    min: Option<u64>,
    max: Option<u64>,
    unit: &str,
) -> fmt::Result {
    write!(f, "must {verb} ")?;
    let long = if verb == "be" { " long" } else { "" };
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    match (min, max) {
        (Some(low), Some(high)) if low == high => write!(f, "exactly {low} {unit}{}", plural(low)),
        (Some(low), Some(high)) => write!(f, "from {low} to {high} {unit}{}", plural(high)),
        (Some(low), None) => write!(f, "at least {low} {unit}{}", plural(low)),
        (None, Some(high)) => write!(f, "at most {high} {unit}{}", plural(high)),
        (None, None) => write!(f, "any number of {unit}s"),
    }?;
    f.write_str(long)
}

impl fmt::Display for Kinds {
    /// The kinds as a phrase for messages: `a string`, `a string or null`,
    /// `an integer, a string or null`; `any value` for [`Kinds::ANY`], `nothing` for
    /// [`Kinds::NONE`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Kinds::ANY {
            return f.write_str("any value");
        }
        let n_words = self.names().count();
        if n_words == 0 {
            return f.write_str("nothing");
        }
        for (index, name) in self.names().enumerate() {
            if index > 0 {
                f.write_str(if index + 1 == n_words { " or " } else { ", " })?;
            }
            f.write_str(with_article(name))?;
        }
        Ok(())
    }
}
