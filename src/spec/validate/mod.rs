//! Validation: a [`Value`] checked against a compiled [`Schema`], returning the first
//! [`Violation`] in a documented, deterministic order, and allocating nothing when the
//! value is valid.
//!
//! The semantics are JSON Schema draft 2020-12's for every keyword the data model holds
//! (the official test suite agrees on every group that uses only those), with two
//! deliberate departures: a repeated key anywhere in the value is a violation, because two
//! parsers may keep different copies (RFC 8259 section 4) and the tool must see what the
//! gate saw; and a `null` for an optional field whose schema refuses `null` reads as absent,
//! because that is what the strict export tells a model to send for "not given" (see
//! [`absent`](super::absent); the gate removes it before the tool sees the value).
//!
//! # The files
//!
//! The validator is a recursive walk of the value against the schema's [`Type`] tree:
//! `walk.rs` (one type against one value: the order below, the combinators, the limits),
//! `containers.rs` (arrays and objects), `whole.rs` (step 1: repeated keys and depth),
//! `evaluated.rs` (`unevaluatedProperties`, `unevaluatedItems`), `partial.rs` (a value
//! still being written), with `equal.rs` (JSON Schema equality) and `kinds.rs` (what kinds
//! a type accepts) beside them.
//!
//! # Order of checks
//!
//! The first violation found is the one reported, so the order decides what the model
//! reads. It is fixed:
//!
//! 1. **The whole value first**, before any schema rule: no object anywhere repeats a key,
//!    and nothing nests deeper than [`MAX_VALUE_DEPTH`] levels; of several such problems,
//!    the first in the value's pre-order (an object's own repeat before its members).
//! 2. **Then each value against its type**, depth first, in this order:
//!    1. `enum`, then `const`: the list of allowed values says more than the kind, so
//!       `status must be one of "pending", "paid"; received 5` beats `must be a string`;
//!    2. the kind (`type`; `integer` is a number with no fraction within `i64`);
//!    3. the rules for the value's kind:
//!       - numbers: `minimum`, `maximum`, `multipleOf`, then `format` (`int32`, `int64`);
//!       - strings: `minLength`, `maxLength` (in code points), `pattern`, then `format`
//!         (see [`format`](crate::spec::format); a name toolgate does not know asserts
//!         nothing, and `Schema::without_format_assertions` makes every format an
//!         annotation);
//!       - arrays: `minItems`, `maxItems`, `uniqueItems`, each item in index order
//!         (against its `prefixItems` entry, or past those against `items`), then
//!         `contains` (`minContains`, `maxContains`);
//!       - objects: `minProperties`, `maxProperties`, then **unknown fields** (input
//!         order), **missing required fields** (declaration order), field names
//!         (`propertyNames`, input order), declared fields' values (declaration order),
//!         `patternProperties` (input order, then pattern order), then other members
//!         (`additionalProperties` as a schema, input order). Unknown comes before
//!         missing because a misspelt field (`customerid`) is both, and the unknown-field
//!         message lists the allowed names, so one retry fixes both;
//!    4. `$ref`, `allOf` in order, `anyOf`, `oneOf`, `not` (whose violation says what it
//!       forbids when its schema is only a `type`, an `enum` or a `const`: `must not be
//!       null`), `if` with `then` or `else` (the branch's own first violation),
//!       `dependentRequired` (`when 'shipping' is given, 'address' is required`), then
//!       `dependentSchemas` (declaration order; the schema's own first violation);
//!    5. last, `unevaluatedProperties`, then `unevaluatedItems` (see `evaluated.rs`).
//!
//! When no alternative of an `anyOf` (or `oneOf`) matches, the report names what is most
//! useful: if no alternative accepts the value's kind, a `type` violation listing the kinds
//! the alternatives accept (`must be a string or null`); if exactly one accepts its kind,
//! that alternative's own first violation (which may lie deeper, `address.zip`); otherwise
//! [`Rule::AnyOf`] (or [`Rule::OneOf`]). Matching more than one `oneOf` alternative is
//! [`Rule::OneOf`] with the count.
//!
//! # Limits
//!
//! Values nest at most [`MAX_VALUE_DEPTH`] levels; one check descends at most
//! [`MAX_CHECK_DEPTH`] types (each field, item, `$ref` and alternative is a level, so a
//! reference cycle that consumes no input ends here even if the spec's own build check was
//! bypassed), which also bounds the walk's recursion; and one validation takes at most
//! [`STEP_BUDGET`] steps, one per type checked against a value (nested alternatives can
//! make the work grow exponentially with depth). Hitting a limit is a violation
//! ([`Rule::TooDeep`], [`Rule::TooComplex`]) that no alternative or `not` excuses, never a
//! pass.
//!
//! # Allocation
//!
//! A valid value allocates nothing, except where `unevaluatedProperties` or
//! `unevaluatedItems` must mark which members were evaluated, or an object of more than 32
//! members is checked for a repeated key, or a `uniqueItems` array of more than 32 items
//! hashes its items. A refused value is walked a second time to build its [`Violation`]:
//! the path, the rule as owned data, and the received value cut at 120 characters.
//!
//! [`Rule::AnyOf`]: super::Rule::AnyOf
//! [`Rule::OneOf`]: super::Rule::OneOf
//! [`Rule::TooDeep`]: super::Rule::TooDeep
//! [`Rule::TooComplex`]: super::Rule::TooComplex

mod containers;
mod equal;
mod evaluated;
mod kinds;
mod partial;
// Partial mode is the stream's.
#[cfg(all(test, feature = "stream"))]
mod partial_prefix_tests;
#[cfg(all(test, feature = "stream"))]
mod partial_tests;
#[cfg(test)]
mod tests;
mod walk;
mod whole;

pub(crate) use kinds::{admits, kinds_of};

use super::{Rule, Schema, ToolSpec, Type, Violation};
use crate::json::{Open, Value};
use partial::State;
use walk::{Trail, Walk};

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
    /// Checks `value` against this schema, in the order the [module](self) documents.
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
    /// The first [`Violation`]: its [`Rule`] says which rule (kind, enum,
    /// bound, missing or unknown field, repeated key, alternatives, a validator limit), its
    /// path where.
    pub fn validate(&self, value: &Value<'_>) -> Result<(), Violation> {
        self.validate_noting_absent(value).map(|_| ())
    }

    /// [`Schema::validate`], also saying whether some `null` was read as absent on the way
    /// ([`absent`](super::absent)): a hint for the gate, which then removes them; `true` may
    /// come from an alternative that did not match, never `false` when one was read.
    ///
    /// The value is judged first, building nothing; only a refused value is walked again
    /// to build its violation.
    pub(crate) fn validate_noting_absent(&self, value: &Value<'_>) -> Result<bool, Violation> {
        self.verdict(value, Open::WHOLE)
    }

    /// The verdict on `value`, of which `open` is still being written (see
    /// `partial.rs`): judged first, building nothing, and walked again to report only
    /// when refused. `Ok` says whether some `null` was read as absent.
    fn verdict(&self, value: &Value<'_>, open: Open<'_>) -> Result<bool, Violation> {
        let run = |walk: &mut Walk<'_>| {
            walk.whole(value, &Trail::ROOT, 0)?;
            let root = &walk.schema.root;
            walk.visit(root, value, &Trail::ROOT, 0, State::of(open))
        };
        let mut judge = Walk::new(self, false);
        let fail = match run(&mut judge) {
            Ok(()) => return Ok(judge.read_absent),
            Err(fail) => fail,
        };
        let violation = match fail.violation {
            Some(violation) => Some(violation),
            None => run(&mut Walk::new(self, true))
                .err()
                .and_then(|fail| fail.violation),
        };
        // The walks are deterministic: the second refuses where the first did.
        let steps = STEP_BUDGET;
        let fallback = || walk::violation(&Trail::ROOT, value, Rule::TooComplex { steps });
        Err(*violation.unwrap_or_else(fallback))
    }

    /// Whether `ty`, a type of this schema, accepts `value`, spending at most `*fuel`
    /// steps (`None` when they run out, and then `*fuel` is 0): for the walk that removes
    /// what validation read as absent, which must choose alternatives the way validation
    /// did.
    pub(crate) fn accepts(&self, ty: &Type, value: &Value<'_>, fuel: &mut u32) -> Option<bool> {
        let mut judge = Walk::new(self, false);
        judge.steps_left = *fuel;
        let verdict = judge.check(ty, value, &Trail::ROOT, 0);
        *fuel = judge.steps_left;
        match verdict {
            Ok(()) => Some(true),
            Err(_) if judge.steps_left == 0 => None,
            Err(_) => Some(false),
        }
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
