//! Partial mode: a value still being written (a stream's partial tree, with an [`Open`]
//! saying what is open at its end) is refused only where no ending of it could be
//! accepted, as jiter's partial mode and pydantic-core's `experimental_allow_partial` do.
//!
//! Only the chain of last members from the root can be open; every other member is whole
//! and gets the full rules. Along the chain, an open value gets only the rules that no
//! ending could mend:
//!
//! - an open array or object: its kind, `maxItems` and `maxProperties` (counting a key
//!   whose value has not begun), `uniqueItems` among its whole items, an unknown key or a
//!   `propertyNames` rule as soon as the key is whole, a repeated key, and an `enum` or
//!   `const` only when no allowed value is a container of its kind. Its end rules wait:
//!   `minItems`, `contains`, `minProperties`, `required`, `dependentRequired`,
//!   `unevaluated*`, `not`, `if`, and whether more than one `oneOf` alternative matches;
//! - an open string: its kind, `maxLength` on the code points so far, an `enum` or `const`
//!   no string of which starts with the text so far, and a bounded `format` (a `date`)
//!   once the text is longer than the format's longest value;
//! - an open number: only that a number can stand there (`type`, `enum`, `const`);
//! - through `$ref`, `allOf` (any part refuses) and `anyOf`/`oneOf` (every alternative
//!   refuses), and `dependentSchemas` whose key is given.
//!
//! The violation's path is that of the value (or, for a key, the object) that made the
//! refusal certain, so the stream can find its byte.

use super::kinds::admits;
use super::walk::{more_chars, Trail, Verdict, Walk};
use super::MAX_CHECK_DEPTH;
use crate::json::{Open, Tail, Value};
use crate::spec::{Kinds, Rule, Schema, Type};

/// How much of one value along the open chain has arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State<'k> {
    /// Whole: the full rules apply.
    Whole,
    /// An array or object still open, with `n` open containers from it down the chain
    /// (itself included, so at least 1) and what stands last in the innermost.
    Container(usize, Tail<'k>),
    /// A string still being written: the value holds its text so far.
    String,
    /// A number still being written: the value is a stand-in.
    Number,
}

impl<'k> State<'k> {
    /// The state of the root of a partial value.
    pub(super) fn of(open: Open<'k>) -> State<'k> {
        match open.containers {
            0 => State::Whole,
            n => State::Container(n, open.tail),
        }
    }

    /// The state of the last member (or item) of a container in this state.
    pub(super) fn last(self) -> State<'k> {
        match self {
            State::Container(1, Tail::String) => State::String,
            State::Container(1, Tail::Number) => State::Number,
            State::Container(n, tail) if n > 1 => State::Container(n - 1, tail),
            _ => State::Whole,
        }
    }

    /// The key of an open object whose value has not begun.
    pub(super) fn pending_key(self) -> Option<&'k str> {
        match self {
            State::Container(1, Tail::Key(key)) => Some(key),
            _ => None,
        }
    }
}

impl Schema {
    /// Refuses a value still being written only where no ending of it could be accepted:
    /// `value` is what has arrived, `open` what is still open at its end (see the
    /// [module](self)). A whole value ([`Open::WHOLE`]) gets [`Schema::validate`]'s answer.
    ///
    /// # Errors
    /// A [`Violation`](crate::spec::Violation) that every ending of the value would also meet (or another that
    /// the whole value then meets first), at the value or key that made it certain.
    #[cfg(feature = "stream")]
    pub(crate) fn validate_partial(
        &self,
        value: &Value<'_>,
        open: Open<'_>,
    ) -> Result<(), crate::spec::Violation> {
        self.verdict(value, open).map(|_| ())
    }
}

impl<'s> Walk<'s> {
    /// `value` against `ty`: the full check when it is whole, partial mode otherwise.
    pub(super) fn visit(
        &mut self,
        ty: &'s Type,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
        state: State<'_>,
    ) -> Verdict {
        match state {
            State::Whole => self.check(ty, value, at, depth),
            _ => self.partial(ty, value, at, depth, state),
        }
    }

    /// An open value (`state` is not [`State::Whole`]) against `ty`. Recursive like
    /// [`Walk::check`], and bounded the same way.
    fn partial(
        &mut self,
        ty: &'s Type,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
        state: State<'_>,
    ) -> Verdict {
        let shown = matches!(
            (state, value),
            (State::String, Value::String(_))
                | (State::Number, Value::Number(_))
                | (State::Container(..), Value::Array(_) | Value::Object(_))
        );
        if !shown {
            // An `Open` that does not describe this tree says nothing certain.
            return Ok(());
        }
        if depth >= MAX_CHECK_DEPTH {
            let limit = MAX_CHECK_DEPTH;
            return Err(self.fatal(at, value, Rule::TooDeep { limit }));
        }
        self.charge(1, at, value)?;
        let could_be = |allowed: &Value<'_>| may_end_as(state, value, allowed);
        if let Some(allowed) = &ty.enumeration {
            if !allowed.iter().any(could_be) {
                let allowed = || Rule::Enum {
                    allowed: allowed.clone(),
                };
                return Err(self.fail(at, value, allowed));
            }
        }
        if let Some(expected) = &ty.constant {
            if !could_be(expected) {
                let expected = || Rule::Const {
                    expected: expected.clone(),
                };
                return Err(self.fail(at, value, expected));
            }
        }
        // The kind of an open value is known from its first byte, but a number's digits
        // so far do not say whether it will be an integer.
        let kind_fits = match state {
            State::Number => ty.kinds.intersects(Kinds::NUMBER),
            _ => admits(ty.kinds, value),
        };
        if !kind_fits {
            let expected = ty.kinds;
            return Err(self.fail(at, value, || Rule::Type { expected }));
        }
        match value {
            Value::String(text) => self.open_string(ty, text, value, at)?,
            Value::Array(items) => self.array(ty, items, value, at, depth, Some(state))?,
            Value::Object(members) => self.object(ty, members, value, at, depth, Some(state))?,
            _ => {}
        }
        let below = depth + 1;
        if let Some((_, target)) = ty.reference.and_then(|index| self.schema.defs.get(index)) {
            self.partial(target, value, at, below, state)?;
        }
        for branch in &ty.all_of {
            self.partial(branch, value, at, below, state)?;
        }
        if !ty.any_of.is_empty() {
            self.alternatives(&ty.any_of, false, value, at, below, state)?;
        }
        if !ty.one_of.is_empty() {
            self.alternatives(&ty.one_of, true, value, at, below, state)?;
        }
        if let Value::Object(members) = value {
            for (field, schema) in &ty.dependent_schemas {
                if members.iter().any(|(key, _)| key == field) {
                    self.partial(schema, value, at, below, state)?;
                }
            }
        }
        Ok(())
    }

    /// The rules an open string already breaks whatever follows: past `maxLength`, or
    /// longer than its bounded format's longest value.
    fn open_string(&self, ty: &Type, text: &str, value: &Value<'_>, at: &Trail<'_>) -> Verdict {
        if let Some(max) = ty.string.max_length.filter(|&max| more_chars(text, max)) {
            let min = ty.string.min_length;
            return Err(self.fail(at, value, || Rule::MaxLength { max, min }));
        }
        match self.format(ty) {
            Some(format) if format.max_len().is_some_and(|max| text.len() > max) => {
                Err(self.fail(at, value, || Rule::Format { format }))
            }
            _ => Ok(()),
        }
    }
}

/// True if the open `value` (in `state`) may still end as `allowed`: a string that starts
/// with the text so far, any number, or a container of the same kind.
fn may_end_as(state: State<'_>, value: &Value<'_>, allowed: &Value<'_>) -> bool {
    match (state, value, allowed) {
        (State::String, Value::String(text), Value::String(candidate)) => {
            candidate.starts_with(text.as_ref())
        }
        (State::Number, _, Value::Number(_)) => true,
        (State::Container(..), Value::Array(_), Value::Array(_)) => true,
        (State::Container(..), Value::Object(_), Value::Object(_)) => true,
        _ => false,
    }
}
