//! Validation: arguments against a [`Schema`], returning the first [`Violation`] in a
//! documented, deterministic order, and allocating nothing when the arguments are valid.
//!
//! The semantics are JSON Schema draft 2020-12's for every keyword the data model holds
//! (the official test suite agrees on every group that uses only those), with two
//! deliberate departures: a repeated key anywhere in the value is a violation, because two
//! parsers may keep different copies (RFC 8259 section 4) and the tool must see what the
//! gate saw; and a `null` for an optional field whose schema refuses `null` reads as absent,
//! because that is what the strict export tells a model to send for "not given" (see
//! [`absent`](super::absent); the gate removes it before the tool sees the value).
//!
//! # Order of checks
//!
//! The first violation found is the one reported, so the order decides what the model
//! reads. It is fixed:
//!
//! 1. **The whole value first**, before any schema rule: no object anywhere repeats a key
//!    (the first repeat in document order is reported), and nothing nests deeper than
//!    [`MAX_VALUE_DEPTH`] levels. Nothing else about a value with a repeated key can be
//!    trusted.
//! 2. **Then each value against its type**, depth first, in this order:
//!    1. `enum`, then `const`: the list of allowed values says more than the kind, so
//!       `status must be one of "pending", "paid"; received 5` beats `must be a string`;
//!    2. the kind (`type`; `integer` is a number with no fraction within `i64`);
//!    3. the rules for the value's kind:
//!       - numbers: `minimum`, `maximum`, `multipleOf`;
//!       - strings: `minLength`, `maxLength` (in code points);
//!       - arrays: `minItems`, `maxItems`, `uniqueItems`, then each item in index order;
//!       - objects: **unknown fields** (in input order), then **missing required fields**
//!         (in declaration order), then field names (`propertyNames`, input order), then
//!         the values of declared fields (declaration order), then the values of other
//!         members (`additionalProperties` as a schema, input order). Unknown comes before
//!         missing because a misspelt field (`customerid` for `customer_id`) is both, and
//!         the unknown-field message lists the allowed names, so one retry fixes both;
//!    4. `$ref`, then `allOf` in order, then `anyOf`, then `oneOf`.
//!
//! Step 1 is a separate pass over the value only when it is needed: while checking, each
//! object's keys are compared as they are matched to its declared fields, so a valid value
//! whose every object and array the types describe needs no second walk. Where the check
//! leaves part of a value unseen (members no type describes, arrays without `items`,
//! values nested deeper than [`MAX_VALUE_DEPTH`]) or finds any violation, the step-1 pass
//! runs and its answer comes first, so the report is the same as if it had run first.
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
//! No schema and value can exhaust the stack or loop: values nest at most
//! [`MAX_VALUE_DEPTH`] levels, one check descends at most [`MAX_CHECK_DEPTH`] levels of
//! types (a `$ref` or an `allOf` branch counts as a level, so a reference cycle that
//! consumes no input ends here even if the spec's own build check was bypassed), and one
//! validation takes at most [`STEP_BUDGET`] steps (nested alternatives can make the work
//! grow exponentially with depth). Hitting a limit is a violation ([`Rule::TooDeep`],
//! [`Rule::TooComplex`]), never a pass.
//!
//! # Allocation
//!
//! On success, nothing is allocated for any value whose objects have at most 32 members and
//! whose `uniqueItems` arrays have at most 32 items; a larger object sorts its keys for the
//! repeat check (and, when compared by `enum`, `const` or `uniqueItems`, its members), and
//! a larger unique array sorts item hashes (one allocation each), so that no check is
//! quadratic in the size of the value. On failure, the internal report holds
//! only borrowed references and the address of the failing value; the path is rebuilt by
//! finding that address from the root, so nothing is collected while checking.

mod equal;
mod kinds;
mod name;
/// Exact decimal arithmetic lives with the JSON layer, which also decides `Number::as_i64`.
pub(crate) use crate::json::decimal as number;
mod object;
mod report;
mod scan;
#[cfg(test)]
mod tests;

#[cfg(doc)]
use super::Rule;
use super::{ArrayRules, Bound, Field, Kinds, Schema, ToolSpec, Type, Violation};
use crate::json::Value;
use equal::{equal, first_repeat};
use kinds::kinds_charged;
pub(crate) use kinds::{admits, kinds_of};
pub(crate) use name::same_name;
use object::check_object;
use scan::scan;
use std::borrow::Cow;
use std::cmp::Ordering;

/// Values nest at most this many levels of arrays and objects (the parser's default limit
/// is 128, so parsed arguments always fit).
pub const MAX_VALUE_DEPTH: usize = 2 * crate::json::Limits::DEFAULT_MAX_DEPTH;

/// One validation descends at most this many types deep (each field, item, `$ref` and
/// alternative is a level).
pub const MAX_CHECK_DEPTH: usize = 2 * MAX_VALUE_DEPTH;

/// One validation checks a value against a type at most this many times.
pub const STEP_BUDGET: u32 = 1_000_000;

/// Objects up to this size are checked for repeated keys pair by pair, without allocating.
const PAIRWISE_KEYS: usize = 32;

/// Objects with up to this many members and fields record which member holds each
/// declared field on the stack (a member index plus one fits a `u8`); larger ones find
/// members by name.
const MAPPED_MEMBERS: usize = 254;
const MAPPED_FIELDS: usize = 64;

// The depth test in `check` relies on this order.
const _: () = assert!(MAX_VALUE_DEPTH <= MAX_CHECK_DEPTH);

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
    /// The first [`Violation`]: its [`Rule`] says which rule (kind, enum, bound, missing or
    /// unknown field, repeated key, alternatives, a validator limit), its path where.
    pub fn validate(&self, value: &Value<'_>) -> Result<(), Violation> {
        self.validate_noting_absent(value).map(|_| ())
    }

    /// [`Schema::validate`], also saying whether some `null` was read as absent on the way
    /// ([`absent`](super::absent)): a hint for the gate, which then removes them; `true` may
    /// come from an alternative that did not match, never `false` when one was read.
    pub(crate) fn validate_noting_absent(&self, value: &Value<'_>) -> Result<bool, Violation> {
        let mut cx = Cx {
            defs: &self.defs,
            fuel: STEP_BUDGET,
            covered: true,
            read_absent: false,
        };
        // Step 1 (repeats and depth) is decided by `scan` only when the check did not
        // already settle it: a passing check that looked at every object's keys and stayed
        // shallow has seen every repeat, and on a failure the scan runs first so that its
        // answer (the first repeat in document order) takes precedence, as documented.
        let checked = check(&mut cx, &self.root, value, 0);
        let outcome = match checked {
            Ok(()) if cx.covered => Ok(()),
            Ok(()) => scan(value, 0),
            Err(fail) => Err(scan(value, 0).err().unwrap_or(fail)),
        };
        outcome
            .map(|()| cx.read_absent)
            .map_err(|fail| fail.into_violation(value))
    }
}

/// Whether `ty` accepts `value` (`None` when `fuel`, the steps left, runs out first): for
/// the walk that removes what validation read as absent, which must choose alternatives
/// and ask whether a field refuses `null` the way validation did.
pub(crate) fn accepts(
    defs: &[(String, Type)],
    ty: &Type,
    value: &Value<'_>,
    fuel: &mut u32,
) -> Option<bool> {
    let mut cx = Cx {
        defs,
        fuel: *fuel,
        covered: true,
        read_absent: false,
    };
    let checked = check(&mut cx, ty, value, 0);
    *fuel = cx.fuel;
    match checked {
        Ok(()) => Some(true),
        Err(fail) if matches!(fail.what, Broken::TooComplex) => None,
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

/// What one validation carries down: the definitions references point into, and the steps
/// left.
struct Cx<'s> {
    defs: &'s [(String, Type)],
    fuel: u32,
    /// True while every object the check has passed had its keys compared for repeats and
    /// every value it passed was shallower than [`MAX_VALUE_DEPTH`]: then a passing check
    /// needs no separate step-1 scan. Cleared (never set again) where a check leaves part of
    /// a value unseen: members no type describes, arrays without `items`, deep values.
    covered: bool,
    /// Set when a `null` was read as absent ([`absent`](super::absent)), anywhere.
    read_absent: bool,
}

/// The first violation as found: borrowed references only, so that a failing alternative
/// inside a passing `anyOf` costs no allocation. Turned into a [`Violation`] at the top.
struct Fail<'s, 'v> {
    /// The value the rule is about (for member rules, the object).
    at: &'v Value<'v>,
    what: Broken<'s, 'v>,
}

enum Broken<'s, 'v> {
    Kind(Kinds),
    Enum(&'s [Value<'static>]),
    Const(&'s Value<'static>),
    Minimum(&'s Bound, &'s Type),
    Maximum(&'s Bound, &'s Type),
    MultipleOf(f64),
    MinLength(u64, Option<u64>),
    MaxLength(u64, Option<u64>),
    MinItems(u64, Option<u64>),
    MaxItems(u64, Option<u64>),
    Unique(usize, usize),
    Required(&'s str),
    Unknown(&'v str, &'s [Field]),
    DuplicateKey(&'v str),
    PropertyName(&'v str, NameRule<'s>),
    AnyOf(usize),
    OneOf(usize, usize),
    TooDeep(usize),
    TooComplex,
}

/// The rules a field name (a string) can break.
enum NameRule<'s> {
    Kind(Kinds),
    Enum(&'s [Value<'static>]),
    Const(&'s Value<'static>),
    MinLength(u64, Option<u64>),
    MaxLength(u64, Option<u64>),
    AnyOf(usize),
    OneOf(usize, usize),
}

type Checked<'s, 'v> = Result<(), Fail<'s, 'v>>;

/// Step 2: one value against one type. Inlined into its callers (the field and item
/// loops), so that a scalar against a plain type costs no call; containers and the
/// combinators go out of line.
#[inline(always)]
fn check<'s, 'v>(
    cx: &mut Cx<'s>,
    ty: &'s Type,
    value: &'v Value<'v>,
    depth: usize,
) -> Checked<'s, 'v> {
    let fail = |what| Err(Fail { at: value, what });
    // Types nest at least as deep as the values they check, so below `MAX_VALUE_DEPTH`
    // the value is shallow enough for step 1; deeper, the scan decides.
    if depth >= MAX_VALUE_DEPTH {
        if depth >= MAX_CHECK_DEPTH {
            return fail(Broken::TooDeep(MAX_CHECK_DEPTH));
        }
        cx.covered = false;
    }
    match cx.fuel.checked_sub(1) {
        Some(fuel) => cx.fuel = fuel,
        None => return fail(Broken::TooComplex),
    }
    if let Some(allowed) = &ty.enumeration {
        let found = match value {
            // The common enum: strings, compared without the general equality's dispatch.
            Value::String(text) => allowed.iter().any(|candidate| match candidate {
                Value::String(allowed_text) => same_name(allowed_text, text),
                _ => false,
            }),
            _ => allowed.iter().any(|candidate| equal(candidate, value)),
        };
        if !found {
            return fail(Broken::Enum(allowed));
        }
    }
    if let Some(expected) = &ty.constant {
        if !equal(expected, value) {
            return fail(Broken::Const(expected));
        }
    }
    let kinds = ty.kinds;
    match value {
        Value::Null if !kinds.contains(Kinds::NULL) => return fail(Broken::Kind(kinds)),
        Value::Bool(_) if !kinds.contains(Kinds::BOOLEAN) => return fail(Broken::Kind(kinds)),
        Value::Number(number) => {
            if let Err(what) = check_number(ty, number.as_str()) {
                return fail(what);
            }
        }
        Value::String(text) => {
            if !kinds.contains(Kinds::STRING) {
                return fail(Broken::Kind(kinds));
            }
            if let Err(what) = check_length(ty, text) {
                return fail(what);
            }
        }
        Value::Array(items) => {
            if !kinds.contains(Kinds::ARRAY) {
                return fail(Broken::Kind(kinds));
            }
            check_array(cx, &ty.array, items, value, depth)?;
        }
        Value::Object(members) => {
            if !kinds.contains(Kinds::OBJECT) {
                return fail(Broken::Kind(kinds));
            }
            match &ty.object {
                Some(object) => check_object(cx, object, members, value, depth)?,
                None if members.is_empty() => {}
                None => cx.covered = false,
            }
        }
        Value::Null | Value::Bool(_) => {}
    }
    // One branch for the rare case (`|`, not `||`: every value passes this test).
    if ty.reference.is_some() | (ty.all_of.len() | ty.any_of.len() | ty.one_of.len() != 0) {
        check_combined(cx, ty, value, depth)?;
    }
    Ok(())
}

/// Step 2.4: `$ref`, then `allOf` in order, then `anyOf`, then `oneOf`.
#[inline(never)]
fn check_combined<'s, 'v>(
    cx: &mut Cx<'s>,
    ty: &'s Type,
    value: &'v Value<'v>,
    depth: usize,
) -> Checked<'s, 'v> {
    if let Some(index) = ty.reference {
        match cx.defs.get(index) {
            Some((_, target)) => check(cx, target, value, depth + 1)?,
            // A dangling reference is refused when the spec is built; accept nothing.
            None => {
                return Err(Fail {
                    at: value,
                    what: Broken::Kind(Kinds::NONE),
                })
            }
        }
    }
    for branch in &ty.all_of {
        check(cx, branch, value, depth + 1)?;
    }
    if !ty.any_of.is_empty() {
        check_alternatives(cx, &ty.any_of, value, depth, false)?;
    }
    if !ty.one_of.is_empty() {
        check_alternatives(cx, &ty.one_of, value, depth, true)?;
    }
    Ok(())
}

#[inline(never)]
fn check_number<'s>(ty: &'s Type, text: &str) -> Result<(), Broken<'s, 'static>> {
    let kinds = ty.kinds;
    let rules = &ty.number;
    if kinds.accepts_fractions()
        && rules.minimum.is_none()
        && rules.maximum.is_none()
        && rules.multiple_of.is_none()
    {
        return Ok(());
    }
    // Read once: the kind and both bounds need it.
    let plain = number::Plain::parse(text);
    if !kinds.accepts_fractions() {
        let integer = match plain {
            Some(plain) => plain.is_integer(),
            None => number::is_i64(text),
        };
        if !(integer && kinds.contains(Kinds::INTEGER)) {
            return Err(Broken::Kind(kinds));
        }
    }
    if let Some(bound) = &rules.minimum {
        let order = number::compare_to(text, plain, bound.value.as_str(), bound.as_plain_i64());
        if order == Ordering::Less || (bound.exclusive && order == Ordering::Equal) {
            return Err(Broken::Minimum(bound, ty));
        }
    }
    if let Some(bound) = &rules.maximum {
        let order = number::compare_to(text, plain, bound.value.as_str(), bound.as_plain_i64());
        if order == Ordering::Greater || (bound.exclusive && order == Ordering::Equal) {
            return Err(Broken::Maximum(bound, ty));
        }
    }
    if let Some(divisor) = rules.multiple_of {
        if !number::is_multiple_of(text, divisor) {
            return Err(Broken::MultipleOf(divisor));
        }
    }
    Ok(())
}

/// `minLength` and `maxLength` in code points, counting only when the byte length cannot
/// decide (a code point takes one to four bytes).
#[inline(always)]
fn check_length<'s>(ty: &'s Type, text: &str) -> Result<(), Broken<'s, 'static>> {
    let rules = &ty.string;
    let n_bytes = u64::try_from(text.len()).unwrap_or(u64::MAX);
    if let Some(min) = rules.min_length {
        // Four bytes per code point at most: a text of `4 * min` bytes is long enough.
        if n_bytes / 4 < min && !has_at_least_chars(text, min) {
            return Err(Broken::MinLength(min, rules.max_length));
        }
    }
    if let Some(max) = rules.max_length {
        // At least one byte per code point: a text of `max` bytes is short enough.
        if n_bytes > max && has_at_least_chars(text, max.saturating_add(1)) {
            return Err(Broken::MaxLength(max, rules.min_length));
        }
    }
    Ok(())
}

/// True if `text` has at least `n` code points. A code point takes one to four bytes, so
/// the byte length often decides; otherwise short counts walk `n` characters and long ones
/// count them all.
fn has_at_least_chars(text: &str, n: u64) -> bool {
    let n_bytes = u64::try_from(text.len()).unwrap_or(u64::MAX);
    if n_bytes < n {
        return false;
    }
    if n_bytes / 4 >= n {
        return true;
    }
    // The first `n` bytes all ASCII: `n` characters (the usual case for ids and names).
    if let Some(head) = usize::try_from(n)
        .ok()
        .and_then(|n| text.as_bytes().get(..n))
    {
        if head.is_ascii() {
            return true;
        }
    }
    match usize::try_from(n) {
        Ok(n @ 1..=32) => text.chars().nth(n - 1).is_some(),
        _ => u64::try_from(text.chars().count()).unwrap_or(u64::MAX) >= n,
    }
}

#[inline(never)]
fn check_array<'s, 'v>(
    cx: &mut Cx<'s>,
    rules: &'s ArrayRules,
    items: &'v [Value<'v>],
    value: &'v Value<'v>,
    depth: usize,
) -> Checked<'s, 'v> {
    let fail = |what| Err(Fail { at: value, what });
    let n_items = u64::try_from(items.len()).unwrap_or(u64::MAX);
    if let Some(min) = rules.min_items {
        if n_items < min {
            return fail(Broken::MinItems(min, rules.max_items));
        }
    }
    if let Some(max) = rules.max_items {
        if n_items > max {
            return fail(Broken::MaxItems(max, rules.min_items));
        }
    }
    if rules.unique {
        if let Some((first, second)) = first_repeat(items) {
            return fail(Broken::Unique(first, second));
        }
    }
    match &rules.items {
        Some(item_type) => {
            for item in items {
                check(cx, item_type, item, depth + 1)?;
            }
        }
        None if items.iter().any(scan::is_container) => cx.covered = false,
        None => {}
    }
    Ok(())
}

/// A field name against `propertyNames`: the name is checked as a string value, and a
/// violation is reported on the object, naming the field.
fn check_name<'s, 'v>(
    cx: &mut Cx<'s>,
    names: &'s Type,
    key: &'v str,
    object: &'v Value<'v>,
    depth: usize,
) -> Checked<'s, 'v> {
    let name = Value::String(Cow::Borrowed(key));
    let what = match check(cx, names, &name, depth + 1) {
        Ok(()) => return Ok(()),
        Err(fail) => fail.what,
    };
    let rule = match what {
        Broken::Kind(kinds) => NameRule::Kind(kinds),
        Broken::Enum(allowed) => NameRule::Enum(allowed),
        Broken::Const(expected) => NameRule::Const(expected),
        Broken::MinLength(min, max) => NameRule::MinLength(min, max),
        Broken::MaxLength(max, min) => NameRule::MaxLength(max, min),
        Broken::AnyOf(n) => NameRule::AnyOf(n),
        Broken::OneOf(n, matched) => NameRule::OneOf(n, matched),
        Broken::TooDeep(limit) => {
            return Err(Fail {
                at: object,
                what: Broken::TooDeep(limit),
            })
        }
        Broken::TooComplex => {
            return Err(Fail {
                at: object,
                what: Broken::TooComplex,
            })
        }
        // A string breaks no number, array or object rule, and has no members.
        _ => NameRule::Kind(names.kinds),
    };
    Err(Fail {
        at: object,
        what: Broken::PropertyName(key, rule),
    })
}

/// `anyOf` (at least one alternative matches) or `oneOf` (exactly one does).
fn check_alternatives<'s, 'v>(
    cx: &mut Cx<'s>,
    alternatives: &'s [Type],
    value: &'v Value<'v>,
    depth: usize,
    exactly_one: bool,
) -> Checked<'s, 'v> {
    let mut n_matched: usize = 0;
    // Alternatives that accept the value's kind but failed, and the first one's failure.
    let mut n_kind_fits: usize = 0;
    let mut kind_fit_failure = None;
    for alternative in alternatives {
        match check(cx, alternative, value, depth + 1) {
            Ok(()) if !exactly_one => return Ok(()),
            Ok(()) => n_matched = n_matched.saturating_add(1),
            Err(fail) if fail.is_fatal() => return Err(fail),
            Err(fail) => {
                if admits(kinds_charged(cx, alternative), value) {
                    n_kind_fits = n_kind_fits.saturating_add(1);
                    kind_fit_failure.get_or_insert(fail);
                }
            }
        }
    }
    let n = alternatives.len();
    let what = match (n_matched, n_kind_fits, kind_fit_failure) {
        (1, _, _) => return Ok(()),
        (0, 0, _) => {
            let accepted = alternatives
                .iter()
                .fold(Kinds::NONE, |all, alt| all.union(kinds_charged(cx, alt)));
            Broken::Kind(accepted)
        }
        (0, 1, Some(failure)) => return Err(failure),
        (0, _, _) if exactly_one => Broken::OneOf(n, 0),
        (0, _, _) => Broken::AnyOf(n),
        (matched, _, _) => Broken::OneOf(n, matched),
    };
    Err(Fail { at: value, what })
}
