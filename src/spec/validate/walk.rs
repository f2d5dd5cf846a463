//! The validator: a recursive walk of a [`Value`] against a schema's [`Type`] tree, in the
//! order the [module](super) documents, returning the first failure.
//!
//! Each call of [`Walk::check`] is one type against one value: its own rules (`enum`,
//! `const`, the kind, the kind's rules, the members or items, which recurse), then the
//! types it applies to the same value (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`,
//! `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`), then
//! `unevaluatedProperties` and `unevaluatedItems` (see `evaluated.rs`). Returning at the
//! first failure gives the documented order for free, since the walk visits rules and
//! members in that order.
//!
//! A walk either *judges* (a failure is only a mark, so that an `anyOf` alternative that
//! fails inside a valid value costs no allocation) or *reports* (each failure carries its
//! [`Violation`]). A value is judged first and walked again to report only when it fails,
//! so a valid value allocates nothing and a refused one costs at most two walks. The path
//! of a value is a [`Trail`] of borrowed steps on the stack, made into a string only for a
//! reported failure.

use super::kinds::{admits, kinds_counted};
use super::partial::State;
use super::{MAX_CHECK_DEPTH, RECEIVED_CHARS, STEP_BUDGET};
use crate::json::decimal::{compare_to, is_multiple_of, Plain};
use crate::json::{preview, Path, Segment, Value};
use crate::spec::format::Format;
use crate::spec::{Forbidden, Kinds, Rule, Schema, Type, Violation};
use std::cmp::Ordering;

/// One validation: the schema, the steps left, whether failures are reported, and
/// whether some `null` was read as absent.
pub(super) struct Walk<'s> {
    pub(super) schema: &'s Schema,
    /// Steps left of [`STEP_BUDGET`]: one per type checked against a value (and one per
    /// type looked at to explain failed alternatives).
    pub(super) steps_left: u32,
    /// True if failures carry their [`Violation`] (the second walk of a refused value).
    report: bool,
    /// True once a declared optional field's `null` was read as absent
    /// ([`absent`](crate::spec::absent)); may come from an alternative that did not match.
    pub(super) read_absent: bool,
}

/// A rule broken. `violation` is `Some` in a reporting walk, and always for a fatal
/// failure (a limit, a repeated key), which ends the whole validation even inside an
/// alternative or a `not`, so that it is reported whichever walk meets it.
#[derive(Debug)]
pub(super) struct Fail {
    pub(super) fatal: bool,
    pub(super) violation: Option<Box<Violation>>,
}

/// The result of checking one value against one type.
pub(super) type Verdict = Result<(), Fail>;

/// Where a value stands: the step from its parent and the parent's own place, borrowed
/// on the stack as the walk descends.
#[derive(Clone, Copy)]
pub(super) struct Trail<'t> {
    parent: Option<&'t Trail<'t>>,
    step: Step<'t>,
}

#[derive(Clone, Copy)]
enum Step<'t> {
    Root,
    Key(&'t str),
    Index(usize),
}

impl<'t> Trail<'t> {
    /// The root of the value.
    pub(super) const ROOT: Trail<'static> = Trail {
        parent: None,
        step: Step::Root,
    };

    /// The member `key` of the value here.
    pub(super) fn key(&'t self, key: &'t str) -> Trail<'t> {
        Trail {
            parent: Some(self),
            step: Step::Key(key),
        }
    }

    /// The item `index` of the value here.
    pub(super) fn index(&'t self, index: usize) -> Trail<'t> {
        Trail {
            parent: Some(self),
            step: Step::Index(index),
        }
    }

    /// The dotted path ([`Path::dotted`]) from the root to here.
    fn dotted(&self) -> String {
        let mut segments = Vec::new();
        let mut place = Some(self);
        while let Some(trail) = place {
            match trail.step {
                Step::Root => {}
                Step::Key(key) => segments.push(Segment::Key(key.to_owned())),
                Step::Index(index) => segments.push(Segment::Index(index)),
            }
            place = trail.parent;
        }
        segments.reverse();
        segments.into_iter().collect::<Path>().dotted()
    }
}

impl<'s> Walk<'s> {
    /// A walk of `schema` with the whole step budget.
    pub(super) fn new(schema: &'s Schema, report: bool) -> Walk<'s> {
        Walk {
            schema,
            steps_left: STEP_BUDGET,
            report,
            read_absent: false,
        }
    }

    /// A failure at `at`, about `value`: `rule` is made only when reporting.
    pub(super) fn fail(
        &self,
        at: &Trail<'_>,
        value: &Value<'_>,
        rule: impl FnOnce() -> Rule,
    ) -> Fail {
        Fail {
            fatal: false,
            violation: self.report.then(|| violation(at, value, rule())),
        }
    }

    /// A failure that ends the whole validation, reported in either walk.
    pub(super) fn fatal(&self, at: &Trail<'_>, value: &Value<'_>, rule: Rule) -> Fail {
        Fail {
            fatal: true,
            violation: Some(violation(at, value, rule)),
        }
    }

    /// Spends `n` steps, or fails as too complex at `at` when the budget runs out.
    pub(super) fn charge(&mut self, n: u32, at: &Trail<'_>, value: &Value<'_>) -> Verdict {
        match self.steps_left.checked_sub(n) {
            Some(left) => {
                self.steps_left = left;
                Ok(())
            }
            None => {
                self.steps_left = 0;
                let steps = STEP_BUDGET;
                Err(self.fatal(at, value, Rule::TooComplex { steps }))
            }
        }
    }

    /// Checks `value` (at `at`) against `ty`, `depth` types below the root type.
    /// Recursive: every descent adds one to `depth`, and [`MAX_CHECK_DEPTH`] ends it.
    pub(super) fn check(
        &mut self,
        ty: &'s Type,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
    ) -> Verdict {
        if depth >= MAX_CHECK_DEPTH {
            let limit = MAX_CHECK_DEPTH;
            return Err(self.fatal(at, value, Rule::TooDeep { limit }));
        }
        self.charge(1, at, value)?;
        self.own_rules(ty, value, at, depth)?;
        self.applied(ty, value, at, depth)?;
        self.unevaluated(ty, value, at, depth)
    }

    /// `check`, judging only: whether `ty` accepts `value`, with no violation built for
    /// an ordinary failure (for `not`, `if`, `contains` and the alternatives an
    /// `unevaluated*` keyword looks through, whose failures are never reported).
    pub(super) fn judge(
        &mut self,
        ty: &'s Type,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
    ) -> Verdict {
        let report = std::mem::replace(&mut self.report, false);
        let verdict = self.check(ty, value, at, depth);
        self.report = report;
        verdict
    }

    /// `enum`, `const`, the kind, then the rules for the value's kind.
    fn own_rules(
        &mut self,
        ty: &'s Type,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
    ) -> Verdict {
        if let Some(allowed) = &ty.enumeration {
            if !allowed.iter().any(|one| super::equal::equal(one, value)) {
                let allowed = || Rule::Enum {
                    allowed: allowed.clone(),
                };
                return Err(self.fail(at, value, allowed));
            }
        }
        if let Some(expected) = &ty.constant {
            if !super::equal::equal(expected, value) {
                let expected = || Rule::Const {
                    expected: expected.clone(),
                };
                return Err(self.fail(at, value, expected));
            }
        }
        if ty.kinds != Kinds::ANY && !admits(ty.kinds, value) {
            let expected = ty.kinds;
            return Err(self.fail(at, value, || Rule::Type { expected }));
        }
        match value {
            Value::Number(number) => self.number(ty, number.as_str(), value, at),
            Value::String(text) => self.string(ty, text, value, at),
            Value::Array(items) => self.array(ty, items, value, at, depth, None),
            Value::Object(members) => self.object(ty, members, value, at, depth, None),
            Value::Null | Value::Bool(_) => Ok(()),
        }
    }

    /// `minimum`, `maximum`, `multipleOf`, then a number `format`.
    fn number(&self, ty: &Type, text: &str, value: &Value<'_>, at: &Trail<'_>) -> Verdict {
        let rules = &ty.number;
        // Read once for the bounds, and only if there are any.
        let plain = match (&rules.minimum, &rules.maximum) {
            (None, None) => None,
            _ => Plain::parse(text),
        };
        let order = |bound: &crate::spec::Bound| {
            compare_to(text, plain, bound.value.as_str(), bound.as_plain_i64())
        };
        let integer = !ty.kinds.accepts_fractions();
        if let Some(minimum) = &rules.minimum {
            let order = order(minimum);
            if order == Ordering::Less || (minimum.exclusive && order == Ordering::Equal) {
                return Err(self.fail(at, value, || Rule::Minimum {
                    minimum: minimum.clone(),
                    maximum: rules.maximum.clone(),
                    integer,
                }));
            }
        }
        if let Some(maximum) = &rules.maximum {
            let order = order(maximum);
            if order == Ordering::Greater || (maximum.exclusive && order == Ordering::Equal) {
                return Err(self.fail(at, value, || Rule::Maximum {
                    maximum: maximum.clone(),
                    minimum: rules.minimum.clone(),
                    integer,
                }));
            }
        }
        if let Some(divisor) = rules.multiple_of {
            if !is_multiple_of(text, divisor) {
                return Err(self.fail(at, value, || Rule::MultipleOf { divisor }));
            }
        }
        match (self.format(ty), value) {
            (Some(format), Value::Number(number)) if !format.accepts_number(number) => {
                Err(self.fail(at, value, || Rule::Format { format }))
            }
            _ => Ok(()),
        }
    }

    /// `minLength`, `maxLength` (in code points), `pattern`, then a string `format`.
    fn string(&self, ty: &Type, text: &str, value: &Value<'_>, at: &Trail<'_>) -> Verdict {
        let rules = &ty.string;
        if let Some(min) = rules.min_length.filter(|&min| fewer_chars(text, min)) {
            let max = rules.max_length;
            return Err(self.fail(at, value, || Rule::MinLength { min, max }));
        }
        if let Some(max) = rules.max_length.filter(|&max| more_chars(text, max)) {
            let min = rules.min_length;
            return Err(self.fail(at, value, || Rule::MaxLength { max, min }));
        }
        // A pattern that does not compile never gets here: the builder and the importer
        // refuse it.
        if let Some(Ok(pattern)) = rules.pattern.as_ref().map(|p| p.compiled()) {
            if !pattern.is_match(text) {
                let pattern = || Rule::Pattern {
                    pattern: pattern.as_str().to_string(),
                };
                return Err(self.fail(at, value, pattern));
            }
        }
        match self.format(ty) {
            Some(format) if !format.accepts_str(text) => {
                Err(self.fail(at, value, || Rule::Format { format }))
            }
            _ => Ok(()),
        }
    }

    /// The format `ty` enforces: one toolgate knows, unless the schema reads formats as
    /// annotations.
    pub(super) fn format(&self, ty: &Type) -> Option<Format> {
        let format = ty.format.as_deref().and_then(Format::from_name)?;
        self.schema.asserts_formats().then_some(format)
    }

    /// The types `ty` applies to the same value, in order: `$ref`, `allOf`, `anyOf`,
    /// `oneOf`, `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`.
    fn applied(
        &mut self,
        ty: &'s Type,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
    ) -> Verdict {
        let below = depth + 1;
        if let Some(index) = ty.reference {
            match self.schema.defs.get(index) {
                Some((_, target)) => self.check(target, value, at, below)?,
                // Refused when a spec is built: accepts nothing.
                None => {
                    let expected = Kinds::NONE;
                    return Err(self.fail(at, value, || Rule::Type { expected }));
                }
            }
        }
        for branch in &ty.all_of {
            self.check(branch, value, at, below)?;
        }
        if !ty.any_of.is_empty() {
            self.alternatives(&ty.any_of, false, value, at, below, State::Whole)?;
        }
        if !ty.one_of.is_empty() {
            self.alternatives(&ty.one_of, true, value, at, below, State::Whole)?;
        }
        if let Some(negated) = &ty.not {
            match self.judge(negated, value, at, below) {
                Ok(()) => {
                    return Err(self.fail(at, value, || Rule::Not {
                        forbidden: forbidden(negated),
                    }))
                }
                Err(fail) if fail.fatal => return Err(fail),
                Err(_) => {}
            }
        }
        if let Some(conditional) = &ty.if_then_else {
            let matched = match self.judge(&conditional.condition, value, at, below) {
                Ok(()) => true,
                Err(fail) if fail.fatal => return Err(fail),
                Err(_) => false,
            };
            let branch = match matched {
                true => conditional.then.as_ref(),
                false => conditional.otherwise.as_ref(),
            };
            if let Some(branch) = branch {
                self.check(branch, value, at, below)?;
            }
        }
        let Value::Object(members) = value else {
            return Ok(());
        };
        let has = |name: &str| members.iter().any(|(key, _)| key == name);
        for (field, required) in &ty.dependent_required {
            if !has(field) {
                continue;
            }
            if let Some(missing) = required.iter().find(|name| !has(name)) {
                return Err(self.fail(at, value, || Rule::DependentRequired {
                    field: field.clone(),
                    required: missing.clone(),
                }));
            }
        }
        for (field, schema) in &ty.dependent_schemas {
            if has(field) {
                self.check(schema, value, at, below)?;
            }
        }
        Ok(())
    }

    /// `anyOf` (at least one alternative matches) or `oneOf` (`exactly_one`), and what to
    /// report when that fails: the kinds the alternatives accept when none accepts the
    /// value's kind, the one alternative's own failure when exactly one does, and
    /// otherwise [`Rule::AnyOf`] or [`Rule::OneOf`]. For a value still being written
    /// (`state`), one alternative that may still match is enough: whether more than one
    /// `oneOf` alternative matches waits for the value's end.
    pub(super) fn alternatives(
        &mut self,
        alternatives: &'s [Type],
        exactly_one: bool,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
        state: State<'_>,
    ) -> Verdict {
        let exactly_one_now = exactly_one && state == State::Whole;
        let mut n_matched: usize = 0;
        let mut n_kind_fits: usize = 0;
        let mut kind_fit_failure = None;
        for alternative in alternatives {
            match self.visit(alternative, value, at, depth, state) {
                Ok(()) if !exactly_one_now => return Ok(()),
                Ok(()) => n_matched = n_matched.saturating_add(1),
                Err(fail) if fail.fatal => return Err(fail),
                Err(fail) => {
                    if admits(self.explain(alternative, at, value)?, value) {
                        n_kind_fits = n_kind_fits.saturating_add(1);
                        kind_fit_failure.get_or_insert(fail);
                    }
                }
            }
        }
        let n = alternatives.len();
        let rule = match (n_matched, n_kind_fits, kind_fit_failure) {
            (1, _, _) => return Ok(()),
            (0, 0, _) => {
                let mut expected = Kinds::NONE;
                for alternative in alternatives {
                    expected = expected.union(self.explain(alternative, at, value)?);
                }
                Rule::Type { expected }
            }
            (0, 1, Some(fail)) => return Err(fail),
            (0, _, _) if exactly_one => Rule::OneOf {
                alternatives: n,
                matched: 0,
            },
            (0, _, _) => Rule::AnyOf { alternatives: n },
            (matched, _, _) => Rule::OneOf {
                alternatives: n,
                matched,
            },
        };
        Err(self.fail(at, value, || rule))
    }

    /// The kinds `ty` can accept at all ([`kinds_of`](super::kinds_of)), charging the
    /// types it looks at as steps, so that explaining costs no more than checking.
    fn explain(&mut self, ty: &Type, at: &Trail<'_>, value: &Value<'_>) -> Result<Kinds, Fail> {
        let (kinds, visits) = kinds_counted(&self.schema.defs, ty);
        self.charge(visits, at, value)?;
        Ok(kinds)
    }
}

/// The violation of `rule` by `value`, at `at`.
pub(super) fn violation(at: &Trail<'_>, value: &Value<'_>, rule: Rule) -> Box<Violation> {
    Box::new(Violation {
        path: at.dotted(),
        rule: Box::new(rule),
        received: preview(value, RECEIVED_CHARS),
    })
}

/// What a `not` violation can say of the schema it negates: its kinds when it names
/// nothing else (`"not": {"type": "null"}`: `must not be null`), its values when it lists
/// only those (`enum`, `const`), and otherwise only that the value matches it.
/// Annotations do not count; any other keyword (`format` too, which may assert) does.
pub(crate) fn forbidden(negated: &Type) -> Forbidden {
    let bare = Type {
        kinds: negated.kinds,
        enumeration: negated.enumeration.clone(),
        constant: negated.constant.clone(),
        description: negated.description.clone(),
        kept: negated.kept.clone(),
        ..Type::default()
    };
    if bare != *negated {
        return Forbidden::Schema;
    }
    match (&negated.enumeration, &negated.constant) {
        (None, None) => Forbidden::Kinds(negated.kinds),
        (Some(values), None) if negated.kinds == Kinds::ANY => Forbidden::Values(values.clone()),
        (None, Some(value)) if negated.kinds == Kinds::ANY => {
            Forbidden::Values(vec![value.clone()])
        }
        _ => Forbidden::Schema,
    }
}

/// True if `text` has fewer than `n` code points. A code point is one to four bytes, so
/// the byte length mostly decides without counting.
fn fewer_chars(text: &str, n: u64) -> bool {
    let bytes = to_u64(text.len());
    bytes < n || (bytes.div_ceil(4) < n && to_u64(text.chars().count()) < n)
}

/// True if `text` has more than `n` code points (counted only when the byte length does
/// not decide, as for [`fewer_chars`]).
pub(super) fn more_chars(text: &str, n: u64) -> bool {
    let bytes = to_u64(text.len());
    bytes > n && (bytes.div_ceil(4) > n || to_u64(text.chars().count()) > n)
}

/// A count as a `u64` (counts of things in memory always fit).
pub(super) fn to_u64(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}
