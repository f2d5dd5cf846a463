//! [`SpecError`]: a declaration that cannot stand, found when the spec is built; the place
//! (tool, path) once, the condition as an enum with its data ([`SpecErrorKind`]).

use super::super::names::Quoted;
use super::super::{Bound, Kinds};
use std::fmt;

/// A spec that cannot be built: the declaration itself is wrong (an invalid tool name, a
/// field declared twice, a contradiction), so no call could ever be checked against it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecError {
    /// The tool's name as given; `""` when checking a schema on its own.
    pub(crate) tool: String,
    /// Where in the arguments' schema, as a [`Path`](crate::json::Path) in its location
    /// form: field names joined by dots (quoted when not plain, `["a b"]`), `[]` for an
    /// array's items, `*` for the values of an open map, `propertyNames`, `anyOf[1]` (and
    /// `oneOf`, `allOf`), `$defs.Name` for a definition; `""` for the arguments object
    /// itself.
    pub(crate) path: String,
    /// What is wrong.
    pub(crate) kind: SpecErrorKind,
}

/// What is wrong with a spec.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SpecErrorKind {
    /// The tool name breaks MCP's rule ([`NameRule::MCP`](crate::spec::NameRule::MCP): 1 to
    /// 128 characters of `A-Za-z0-9_.-`), the loosest any declaration may follow.
    InvalidName {
        /// The name given.
        name: String,
    },
    /// The arguments' schema accepts something other than an object: every provider
    /// sends arguments as an object.
    RootNotObject {
        /// The kinds the root accepts.
        accepts: Kinds,
    },
    /// One object declares the same field twice.
    DuplicateField {
        /// The field name.
        field: String,
    },
    /// `enum` lists no value, so nothing is accepted.
    EmptyEnum,
    /// An `enum` or `const` value is of a kind the type refuses, so it can never be
    /// accepted (`Type::string().one_of([1])`).
    ValueOfWrongKind {
        /// `enum` or `const`.
        keyword: &'static str,
        /// The value, as compact JSON (cut at
        /// [`PREVIEW_CHARS`](crate::json::PREVIEW_CHARS) characters).
        value: String,
        /// The kinds the type accepts.
        accepts: Kinds,
    },
    /// The bounds leave no number (minimum above maximum, or equal with one exclusive).
    EmptyRange {
        /// The lower bound.
        minimum: Bound,
        /// The upper bound.
        maximum: Bound,
    },
    /// `minLength` is above `maxLength`.
    EmptyLengthRange {
        /// `minLength`.
        min: u64,
        /// `maxLength`.
        max: u64,
    },
    /// `minItems` is above `maxItems`.
    EmptyItemsRange {
        /// `minItems`.
        min: u64,
        /// `maxItems`.
        max: u64,
    },
    /// `multipleOf` is zero, negative, infinite or NaN.
    BadMultipleOf {
        /// The divisor given.
        divisor: f64,
    },
    /// A `pattern` that does not compile, or uses a construct toolgate cannot check in
    /// linear time (backreferences, lookaround), named by the error.
    BadPattern {
        /// The pattern given.
        pattern: String,
        /// Why it was refused.
        error: crate::pattern::PatternError,
    },
    /// A bound given to the builder is infinite or NaN, which JSON cannot write.
    NotFinite {
        /// `minimum`, `maximum`, `exclusiveMinimum` or `exclusiveMaximum`.
        keyword: &'static str,
        /// The value given.
        value: f64,
    },
    /// A rule for a kind the type does not accept, so it could never apply
    /// (`Type::string().min(1)`, where `min_length` was meant). Reported for specs built in
    /// Rust only: JSON Schema allows such rules, and an imported schema keeps them.
    RuleNeverApplies {
        /// The rule, as JSON Schema names it (`minimum`, `minLength`, `items`,
        /// `properties`).
        keyword: &'static str,
        /// The kinds the type accepts.
        accepts: Kinds,
    },
    /// A `$ref` points past the list of definitions.
    UnknownReference {
        /// The index referred to.
        index: usize,
        /// How many definitions there are.
        n_defs: usize,
    },
    /// A definition reaches itself through `$ref`, `allOf`, `anyOf` or `oneOf` alone,
    /// without descending into a field or an item: checking it would never end.
    ReferenceCycle {
        /// The definition's name.
        definition: String,
    },
    /// Types nest deeper than the limit.
    TooDeep {
        /// The limit, in levels.
        limit: usize,
    },
}

impl SpecError {
    /// The tool's name as given; `""` when a schema was checked on its own.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// Where in the arguments' schema (see the field's documentation); `""` for the root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong.
    pub fn kind(&self) -> &SpecErrorKind {
        &self.kind
    }
}

impl fmt::Display for SpecError {
    /// `get_weather: at units: enum lists no value, so nothing is accepted`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.tool.is_empty() && !matches!(self.kind, SpecErrorKind::InvalidName { .. }) {
            write!(f, "{}: ", self.tool)?;
        }
        if !self.path.is_empty() {
            write!(f, "at {}: ", self.path)?;
        }
        match &self.kind {
            SpecErrorKind::InvalidName { name } => {
                let rule = &crate::spec::NameRule::MCP;
                write!(
                    f,
                    "invalid tool name {name:?}: a name must be {} (the rule of {}: {})",
                    rule.words, rule.owner, rule.pattern
                )
            }
            SpecErrorKind::RootNotObject { accepts } => write!(
                f,
                "the arguments must be an object, but the schema accepts {accepts}"
            ),
            SpecErrorKind::DuplicateField { field } => {
                write!(f, "field {} is declared twice", Quoted(field))
            }
            SpecErrorKind::EmptyEnum => f.write_str("enum lists no value, so nothing is accepted"),
            SpecErrorKind::ValueOfWrongKind {
                keyword,
                value,
                accepts,
            } => write!(
                f,
                "{keyword} value {value} can never be accepted: the type accepts only {accepts}"
            ),
            SpecErrorKind::EmptyRange { minimum, maximum } => {
                let low = if minimum.exclusive {
                    "exclusiveMinimum"
                } else {
                    "minimum"
                };
                let high = if maximum.exclusive {
                    "exclusiveMaximum"
                } else {
                    "maximum"
                };
                write!(
                    f,
                    "{low} {} and {high} {} leave no number between them",
                    minimum.value.as_str(),
                    maximum.value.as_str()
                )
            }
            SpecErrorKind::EmptyLengthRange { min, max } => write!(
                f,
                "minLength {min} is above maxLength {max}, so no string is accepted"
            ),
            SpecErrorKind::EmptyItemsRange { min, max } => write!(
                f,
                "minItems {min} is above maxItems {max}, so no array is accepted"
            ),
            SpecErrorKind::BadMultipleOf { divisor } => write!(
                f,
                "multipleOf must be a finite number above 0, not {divisor}"
            ),
            SpecErrorKind::BadPattern { pattern, error } => {
                write!(f, "pattern {pattern:?} is refused: {error}")
            }
            SpecErrorKind::NotFinite { keyword, value } => {
                write!(f, "{keyword} must be a finite number, not {value}")
            }
            SpecErrorKind::RuleNeverApplies { keyword, accepts } => {
                let kind = match *keyword {
                    "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"
                    | "multipleOf" => "numbers",
                    "minLength" | "maxLength" => "strings",
                    "properties" | "additionalProperties" | "propertyNames" => "objects",
                    _ => "arrays",
                };
                write!(
                    f,
                    "{keyword} applies only to {kind}, but the type accepts only {accepts}"
                )
            }
            SpecErrorKind::UnknownReference { index, n_defs } => write!(
                f,
                "$ref points to definition {index}, but there are only {n_defs}"
            ),
            SpecErrorKind::ReferenceCycle { definition } => write!(
                f,
                "definition {} refers to itself without descending into a field or an \
                 item, so checking it would never end",
                Quoted(definition)
            ),
            SpecErrorKind::TooDeep { limit } => {
                write!(f, "types nest deeper than {limit} levels")
            }
        }
    }
}

impl std::error::Error for SpecError {}
