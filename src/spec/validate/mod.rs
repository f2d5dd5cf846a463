//! Validation as a [`Sink`](crate::json::Sink): a compiled schema run against a value's
//! [`Event`](crate::json::Event)s as they arrive, returning the first [`Violation`] in a
//! documented, deterministic order, building no tree and allocating nothing when the
//! arguments are valid.
//!
//! The semantics are JSON Schema draft 2020-12's for every keyword the data model holds
//! (the official test suite agrees on every group that uses only those), with two
//! deliberate departures: a repeated key anywhere in the value is a violation, because two
//! parsers may keep different copies (RFC 8259 section 4) and the tool must see what the
//! gate saw; and a `null` for an optional field whose schema refuses `null` reads as absent,
//! because that is what the strict export tells a model to send for "not given" (see
//! [`absent`](super::absent); the gate removes it before the tool sees the value).
//!
//! A [`Validation`] is fed events: by the one reader straight from the call's bytes (a
//! check-only verdict), or by [`json::replay`](crate::json::replay) from a [`Value`]
//! already built ([`Schema::validate`]). After any event, [`Validation::refused`] says
//! whether the text so far is already refused whatever follows (the streaming check asks
//! it after each chunk); [`Validation::finish`] gives the verdict once the value is whole.
//!
//! # Order of checks
//!
//! The first violation found is the one reported, so the order decides what the model
//! reads. It is fixed:
//!
//! 1. **The whole value first**, before any schema rule: no object anywhere repeats a key,
//!    and nothing nests deeper than [`MAX_VALUE_DEPTH`] levels. Of several such problems,
//!    the one in the container that starts first is reported (an object's own repeat before
//!    anything inside it; then its members in order). Nothing else about a value with a
//!    repeated key can be trusted.
//! 2. **Then each value against its type**, depth first, in this order:
//!    1. `enum`, then `const`: the list of allowed values says more than the kind, so
//!       `status must be one of "pending", "paid"; received 5` beats `must be a string`;
//!    2. the kind (`type`; `integer` is a number with no fraction within `i64`);
//!    3. the rules for the value's kind:
//!       - numbers: `minimum`, `maximum`, `multipleOf`, then `format` (`int32`, `int64`);
//!       - strings: `minLength`, `maxLength` (in code points), `pattern`, then `format`
//!         (`date`, `email`…: see [`format`](crate::spec::format); a name toolgate does
//!         not know asserts nothing, and [`Schema::without_format_assertions`] makes every
//!         format an annotation);
//!       - arrays: `minItems`, `maxItems`, `uniqueItems`, then each item in index order
//!         (against its `prefixItems` entry, or past those against `items`), then how many
//!         items match `contains` (`minContains`, `maxContains`), judged at the array's end;
//!       - objects: **unknown fields** (in input order), then **missing required fields**
//!         (in declaration order), then field names (`propertyNames`, input order), then
//!         the values of declared fields (declaration order), then the values of members
//!         whose names `patternProperties` matches (input order, then pattern order), then
//!         the values of other members (`additionalProperties` as a schema, input order). Unknown comes before
//!         missing because a misspelt field (`customerid` for `customer_id`) is both, and
//!         the unknown-field message lists the allowed names, so one retry fixes both;
//!    4. `$ref`, then `allOf` in order, then `anyOf`, then `oneOf`, then `not` (whose
//!       violation says what it forbids when its schema is only a `type`, an `enum` or a
//!       `const`: `must not be null`), then `if` with `then` or `else` (the branch's own
//!       first violation), then `dependentRequired` (in declaration order of the fields
//!       given, then of those they require: `when 'shipping' is given, 'address' is
//!       required`), then `dependentSchemas` (in declaration order; the schema's own first
//!       violation);
//!    5. last, `unevaluatedProperties`, then `unevaluatedItems`: the members (items) that
//!       nothing above evaluated, here or in a subschema that matched, each against the
//!       keyword's schema, in input (index) order, reported with the member's own first
//!       violation (see `spec/validate/unevaluated.rs`).
//!
//! This order is not the order of the text (a later unknown key beats an earlier bad
//! value), so the validation keeps, for each check still open, the first violation by this
//! order among those found so far (a *rank*: the assertion's place in its type, then the
//! member or item), and settles each check when its value ends.
//!
//! When no alternative of an `anyOf` (or `oneOf`) matches, the report names what is most
//! useful: if no alternative accepts the value's kind, a `type` violation listing the kinds
//! the alternatives accept (`must be a string or null`); if exactly one accepts its kind,
//! that alternative's own first violation (which may lie deeper, `address.zip`); otherwise
//! [`Rule::AnyOf`] (or [`Rule::OneOf`]). Matching more than one `oneOf` alternative is
//! [`Rule::OneOf`] with the count.
//!
//! # How a stream is checked
//!
//! The schema is compiled once into a flat program (one node per type, each a list of
//! assertions in the order above). While a value is open, each type it must meet is a
//! *check* on a stack: a field's type, and through `$ref`, `allOf`, `anyOf`, `oneOf`, `not`,
//! `if`/`then`/`else` and `dependentSchemas` the types those apply to the same value, all
//! run side by side on its events (a `dependentRequired` entry applies two nodes of its
//! own: "has the field given" and "has the fields it requires", so that it reads the
//! object's keys as any object rule does; `dependentSchemas` the first of those). A check of an
//! object or array asks, member by member, for checks of the member's value; when that
//! value ends, its result goes back to the check that asked. The same type applied twice to
//! one value at one depth (two alternatives that refer to one definition) is one check.
//!
//! # The quick path
//!
//! [`Schema::validate`] first asks the quick path (`spec/validate/quick.rs`): an
//! accept-only walk of the same compiled program that keeps one small frame per open
//! container and checks scalars with the same code. It answers "accepted" only where this validation would, and gives up at
//! anything else (any failure, combinators, members a type does not declare), and then this
//! validation runs from the start. A valid call of plain types so costs about half of the
//! instructions; a refused one costs the quick path's short walk more.
//!
//! # Limits
//!
//! No schema and value can exhaust the stack or loop: nothing recurses (every stack is
//! explicit), values nest at most [`MAX_VALUE_DEPTH`] levels, one check descends at most
//! [`MAX_CHECK_DEPTH`] levels of types (a `$ref` or an `allOf` branch counts as a level,
//! so a reference cycle that consumes no input ends here even if the spec's own build check
//! was bypassed), and one validation takes at most [`STEP_BUDGET`] steps (nested
//! alternatives can make the work grow exponentially with depth). A step is one type
//! checked against one value, counted as a depth-first validator that stops at the first
//! failure and at the first matching `anyOf` alternative would count it (so the budget ends
//! the same validations it always has, except that a declared field after a failing one
//! still counts); when it runs out, the violation is reported at the innermost value whose
//! check passed the budget. The checks actually run are bounded by the same budget, and at
//! most 65,536 are open at once. Hitting a limit is a violation ([`Rule::TooDeep`],
//! [`Rule::TooComplex`]), never a pass.
//!
//! # Allocation
//!
//! On success, nothing is allocated for a value that nests at most 8 containers deep,
//! whose open values need at most 8 checks at once (a type, and those its combinators
//! apply), whose objects have at most 8 members their type does not declare and whose
//! `uniqueItems` arrays hold at most 8 scalar items; past those sizes the working stacks
//! move to the heap (objects past 32 undeclared members and unique arrays past 32 items also
//! keep a hash index, so that no check is quadratic). Arrays and objects compared whole (by
//! an `enum` or `const` that lists containers, as items of a `uniqueItems` array, or judged
//! by `unevaluatedProperties` or `unevaluatedItems`), keys
//! that arrived escaped and are not declared, and strings in parts that are unique items,
//! are kept as owned values. A string in parts checked by a `pattern` or a `format` is
//! joined in place up to 64 bytes (most such strings: a date, an e-mail address with an
//! accented letter), and past that in one heap buffer, which the validation reuses for every
//! such string. A bounded format
//! (`date`, `email`, `uuid`…) refuses a string in parts as soon as it is longer than the
//! format's longest value, so the streaming check need not wait for its end. A refusal allocates its [`Violation`]: [`Failure::locate`]
//! finds the path (a [`Path`](crate::json::Path), in its dotted form) and the received
//! value in the value itself.
//!
//! [`Rule::AnyOf`]: super::Rule::AnyOf
//! [`Rule::OneOf`]: super::Rule::OneOf
//! [`Rule::TooDeep`]: super::Rule::TooDeep
//! [`Rule::TooComplex`]: super::Rule::TooComplex

mod capture;
mod choices;
mod contains;
mod equal;
mod joined;
mod kinds;
mod members;
mod program;
mod quick;
#[cfg(test)]
#[cfg(all(feature = "stream", feature = "pattern", feature = "format"))]
mod quick_tests;
mod report;
mod resolve;
mod run;
mod scalar;
mod stack;
#[cfg(test)]
mod tests;
mod unevaluated;

pub(crate) use kinds::{admits, kinds_of};
pub(crate) use program::{AdditionalRule, Assertion, Compiled, ConditionKind, NodeId, Program};
pub(crate) use quick::Quick;
pub use report::Failure;
pub use run::Validation;

use super::{Schema, ToolSpec, Violation};
use crate::json::Value;

/// Values nest at most this many levels of arrays and objects (the parser's default limit
/// is 128, so parsed arguments always fit).
pub const MAX_VALUE_DEPTH: usize = 2 * crate::json::Limits::DEFAULT_MAX_DEPTH;

/// One validation descends at most this many types deep (each field, item, `$ref` and
/// alternative is a level).
pub const MAX_CHECK_DEPTH: usize = 2 * MAX_VALUE_DEPTH;

/// One validation checks a value against a type at most this many times.
pub const STEP_BUDGET: u32 = 1_000_000;

/// Received values are cut to this many characters.
const RECEIVED_CHARS: usize = crate::json::PREVIEW_CHARS;

impl Schema {
    /// The compiled program (compiled the first time it is asked for).
    pub(crate) fn program(&self) -> &Program {
        self.compiled.get(self)
    }

    /// A validation of one value against this schema, to be fed the value's events.
    ///
    /// ```
    /// use toolgate::json::{self, Sink};
    /// use toolgate::{ToolSpec, Type};
    /// let spec = ToolSpec::new("get_weather", "Current weather.")
    ///     .required("city", Type::string())
    ///     .build()?;
    /// let mut validation = spec.params().validation();
    /// let _ = validation.event(json::Event::ObjectStart, 0);
    /// let _ = validation.event(json::Event::Key("city".into()), 1);
    /// assert!(!validation.refused());
    /// let _ = validation.event(json::Event::Number(json::Number::from_text("42").unwrap()), 9);
    /// // No ending of `{"city": 42` can be accepted.
    /// assert!(validation.refused());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn validation<'a>(&self) -> Validation<'_, 'a> {
        Validation::new(self.program())
    }

    /// Checks `value` against this schema, in the order the [module](self) documents: the
    /// value's events ([`json::replay`](crate::json::replay)) through a [`Validation`].
    ///
    /// ```
    /// use toolgate::{json, ToolSpec, Type};
    /// let spec = ToolSpec::new("search_orders", "Search a customer's orders.")
    ///     .required("customer_id", Type::string().min_length(3))
    ///     .optional("limit", Type::integer().min(1).max(100))
    ///     .build()?;
    /// let args = json::parse(r#"{"customer_id":"CUS-967852","limit":500}"#)?;
    /// let violation = spec.params().validate(&args).unwrap_err();
    /// assert_eq!(violation.path(), "limit");
    /// assert_eq!(
    ///     violation.to_string(),
    ///     "limit must be an integer from 1 to 100; received 500"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The first [`Violation`]: its [`Rule`](super::Rule) says which rule (kind, enum,
    /// bound, missing or unknown field, repeated key, alternatives, a validator limit), its
    /// path where.
    pub fn validate(&self, value: &Value<'_>) -> Result<(), Violation> {
        self.validate_noting_absent(value).map(|_| ())
    }

    /// [`Schema::validate`], also saying whether some `null` was read as absent on the way
    /// ([`absent`](super::absent)): a hint for the gate, which then removes them; `true` may
    /// come from an alternative that did not match, never `false` when one was read.
    pub(crate) fn validate_noting_absent(&self, value: &Value<'_>) -> Result<bool, Violation> {
        if Quick::read_value(self.program(), value) {
            return Ok(false);
        }
        self.validate_fully(value)
    }

    /// The full validation of [`Schema::validate_noting_absent`], apart so that an accepted
    /// call does not set up its frame (the validation's stacks are kilobytes).
    #[inline(never)]
    fn validate_fully(&self, value: &Value<'_>) -> Result<bool, Violation> {
        let mut validation = self.validation();
        let _ = crate::json::replay(value, &mut validation);
        let read_absent = validation.read_absent();
        validation
            .finish()
            .map(|()| read_absent)
            .map_err(|failure| failure.locate(value))
    }
}

/// Whether `node` of `program` accepts `value` (`None` when `fuel`, the steps left, runs
/// out first, and then `fuel` is 0): for the walk that removes what validation read as
/// absent, which must choose alternatives and ask whether a field refuses `null` the way
/// validation did.
pub(crate) fn accepts(
    program: &Program,
    node: NodeId,
    value: &Value<'_>,
    fuel: &mut u32,
) -> Option<bool> {
    let mut validation = Validation::starting_at(program, node, *fuel);
    let _ = crate::json::replay(value, &mut validation);
    *fuel = fuel.saturating_sub(validation.steps_used());
    match validation.finish() {
        Ok(()) => Some(true),
        Err(failure) if failure.is_too_complex() => {
            *fuel = 0;
            None
        }
        Err(_) => Some(false),
    }
}

impl ToolSpec {
    /// Checks a call's arguments against this tool's contract ([`Schema::validate`] on
    /// [`ToolSpec::params`]).
    ///
    /// # Errors
    /// The first [`Violation`], as [`Schema::validate`] describes.
    pub fn validate(&self, args: &Value<'_>) -> Result<(), Violation> {
        self.params.validate(args)
    }
}
