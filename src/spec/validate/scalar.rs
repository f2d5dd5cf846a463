//! Scalars against a node's assertions, and strings that arrive in parts.
//!
//! A scalar arrives in one event, so each of its checks is one pass over the node's
//! assertions, stopping at the first it breaks. A string in parts (an escape, a chunk
//! boundary) is checked as it grows: `maxLength`, the allowed strings of `enum` and
//! `const`, and the longest string a bounded `format` accepts (a `date` is 10 bytes) can
//! refuse it before it ends, which the streaming check reports at once.

use super::choices::Choices;
use super::kinds::Shape;
use super::program::{Assertion, Node};
use super::report::{Broken, Fail};
use super::run::{rank, widen, Frame, State, Validation};
use crate::json::decimal::{compare_to, is_multiple_of, Decimal, Plain};
use crate::json::{Kind, Number};
use crate::spec::format::Format;
use crate::spec::Kinds;
use std::borrow::Cow;
use std::cmp::Ordering;

/// A scalar value, read once for every check.
pub(super) enum Scalar<'x> {
    Null,
    Bool(bool),
    /// A number's text, read once for the common form (`-? digits (. digits)?`, at most
    /// 18 digits before the point) and exactly otherwise.
    Number {
        text: &'x str,
        plain: Option<Plain>,
        shape: Shape,
    },
    String(&'x str),
}

impl<'x> Scalar<'x> {
    /// Inlined where a number is read, the exact reading of an uncommon form apart.
    #[inline(always)]
    pub(super) fn number(text: &'x str) -> Scalar<'x> {
        let plain = Plain::parse(text);
        let shape = match plain {
            Some(plain) if plain.is_integer() => Shape::Integer,
            Some(_) => Shape::Fraction,
            None => exact_shape(text),
        };
        Scalar::Number { text, plain, shape }
    }

    pub(super) fn string(text: &'x str) -> Scalar<'x> {
        Scalar::String(text)
    }

    pub(super) fn shape(&self) -> Shape {
        match self {
            Scalar::Null => Shape::Null,
            Scalar::Bool(_) => Shape::Bool,
            Scalar::Number { shape, .. } => *shape,
            Scalar::String(_) => Shape::String,
        }
    }

    /// The first assertion of `node` this scalar breaks, with its place in the node.
    /// Rules for other kinds of value assert nothing about it; rules about containers and
    /// the combinators are decided elsewhere.
    pub(super) fn first_failure<'s>(&self, node: &'s Node) -> Option<(usize, Broken<'s>)> {
        for (position, assertion) in node.assertions.iter().enumerate() {
            let broken = match assertion {
                Assertion::Enum(choices) | Assertion::Const(choices) => !self.is_one_of(choices),
                Assertion::Type(kinds) => {
                    if self.shape().admitted_by(*kinds) {
                        continue;
                    }
                    return Some((position, Broken::Kind(*kinds)));
                }
                _ => self.breaks_rule(assertion),
            };
            if broken {
                return Some((position, Broken::Keyword(assertion)));
            }
        }
        None
    }

    /// True if this scalar breaks `assertion`, a rule for one kind of value.
    #[inline]
    fn breaks_rule(&self, assertion: &Assertion) -> bool {
        match self {
            Scalar::Number { text, plain, .. } => match assertion {
                Assertion::Minimum { bound, .. } => below(
                    compare_to(text, *plain, bound.value.as_str(), bound.as_plain_i64()),
                    bound.exclusive,
                ),
                Assertion::Maximum { bound, .. } => above(
                    compare_to(text, *plain, bound.value.as_str(), bound.as_plain_i64()),
                    bound.exclusive,
                ),
                Assertion::MultipleOf(divisor) => !is_multiple_of(text, *divisor),
                Assertion::Format(format) => {
                    !format.accepts_number(&Number::from_checked(Cow::Borrowed(text)))
                }
                _ => false,
            },
            Scalar::String(text) => match assertion {
                Assertion::MinLength { min, .. } => too_short(text, *min),
                Assertion::MaxLength { max, .. } => too_long(text, *max),
                Assertion::Pattern(pattern) => !pattern.is_match(text),
                Assertion::Format(format) => !format.accepts_str(text),
                _ => false,
            },
            Scalar::Null | Scalar::Bool(_) => false,
        }
    }

    #[inline(always)]
    fn is_one_of(&self, choices: &Choices) -> bool {
        match self {
            Scalar::Null => choices.allows_null(),
            Scalar::Bool(b) => choices.allows_bool(*b),
            Scalar::Number { text, .. } => choices.allows_number(text),
            Scalar::String(text) => choices.allows_string(text),
        }
    }
}

/// The shape of number text [`Plain`] does not read.
#[inline(never)]
fn exact_shape(text: &str) -> Shape {
    Shape::of_number(&Decimal::parse(text))
}

/// True if `text` has fewer than `min` code points. Four bytes per code point at most: a
/// text of more than `4 * (min - 1)` bytes is long enough.
#[inline]
fn too_short(text: &str, min: u64) -> bool {
    to_u64(text.len()).div_ceil(4) < min && !has_at_least_chars(text, min)
}

/// True if `text` has more than `max` code points. At least one byte per code point: a text
/// of `max` bytes is short enough.
#[inline]
fn too_long(text: &str, max: u64) -> bool {
    to_u64(text.len()) > max && has_at_least_chars(text, max.saturating_add(1))
}

/// A node whose rules are those most tool fields declare, read off its assertions when it
/// is compiled: its kinds, an `enum` or `const`, a string's length bounds and `format`, and
/// a number's bounds when they are integers (`{"type": "string", "maxLength": 80}`,
/// `{"type": "integer", "minimum": 1, "maximum": 100}`). The quick path checks a scalar
/// against them in one step instead of walking the assertions. It holds nothing the
/// assertions do not say, and checks each rule with the code [`Scalar::first_failure`]
/// uses for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlainScalar {
    kinds: Kinds,
    /// Where the node's `enum` (or `const`) stands among its assertions.
    choices: Option<u32>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    /// A format for strings.
    format: Option<Format>,
    /// `minimum` (or `exclusiveMinimum`, `true`) when it is a plain integer.
    minimum: Option<(i64, bool)>,
    maximum: Option<(i64, bool)>,
}

impl PlainScalar {
    /// The node's rules, when each is one of those above, given once.
    pub(crate) fn of(assertions: &[Assertion]) -> Option<PlainScalar> {
        let mut plain = PlainScalar {
            kinds: Kinds::ANY,
            choices: None,
            min_length: None,
            max_length: None,
            format: None,
            minimum: None,
            maximum: None,
        };
        let mut typed = false;
        for (position, assertion) in assertions.iter().enumerate() {
            match assertion {
                Assertion::Type(kinds) if !typed => {
                    typed = true;
                    plain.kinds = *kinds;
                }
                Assertion::Enum(_) | Assertion::Const(_) if plain.choices.is_none() => {
                    plain.choices = Some(u32::try_from(position).ok()?);
                }
                Assertion::MinLength { min, .. } if plain.min_length.is_none() => {
                    plain.min_length = Some(*min);
                }
                Assertion::MaxLength { max, .. } if plain.max_length.is_none() => {
                    plain.max_length = Some(*max);
                }
                Assertion::Format(format)
                    if plain.format.is_none() && format.applies_to() == Kind::String =>
                {
                    plain.format = Some(*format);
                }
                Assertion::Minimum { bound, .. } if plain.minimum.is_none() => {
                    plain.minimum = Some((bound.as_plain_i64()?, bound.exclusive));
                }
                Assertion::Maximum { bound, .. } if plain.maximum.is_none() => {
                    plain.maximum = Some((bound.as_plain_i64()?, bound.exclusive));
                }
                _ => return None,
            }
        }
        Some(plain)
    }

    /// True if `scalar` meets every rule of `node` (whose rules these are): what
    /// [`Scalar::first_failure`] says of the node's assertions, when it finds none broken.
    /// Inlined where the scalar is made, so that its kind is known and the checks for other
    /// kinds fall away.
    #[inline(always)]
    pub(super) fn accepts(&self, node: &Node, scalar: &Scalar<'_>) -> bool {
        if !scalar.shape().admitted_by(self.kinds) {
            return false;
        }
        if let Some(at) = self.choices {
            match node.assertions.get(widen(at)) {
                Some(Assertion::Enum(choices) | Assertion::Const(choices))
                    if scalar.is_one_of(choices) => {}
                _ => return false,
            }
        }
        match scalar {
            Scalar::String(text) => {
                !self.min_length.is_some_and(|min| too_short(text, min))
                    && !self.max_length.is_some_and(|max| too_long(text, max))
                    && !self.format.is_some_and(|format| !format.accepts_str(text))
            }
            Scalar::Number { plain, .. } => match (plain, self.minimum, self.maximum) {
                (_, None, None) => true,
                (Some(plain), minimum, maximum) => {
                    !minimum
                        .is_some_and(|(bound, exclusive)| below(plain.cmp_i64(bound), exclusive))
                        && !maximum.is_some_and(|(bound, exclusive)| {
                            above(plain.cmp_i64(bound), exclusive)
                        })
                }
                // Text with an exponent or many digits: the exact comparison.
                (None, _, _) => scalar.first_failure(node).is_none(),
            },
            Scalar::Null | Scalar::Bool(_) => true,
        }
    }
}

/// True if a number ordered `order` against a lower bound breaks it.
fn below(order: Ordering, exclusive: bool) -> bool {
    order == Ordering::Less || (exclusive && order == Ordering::Equal)
}

/// True if a number ordered `order` against an upper bound breaks it.
fn above(order: Ordering, exclusive: bool) -> bool {
    order == Ordering::Greater || (exclusive && order == Ordering::Equal)
}

/// True if `text` has at least `n` code points. A code point takes one to four bytes, so
/// the byte length often decides; otherwise short counts walk `n` characters and long ones
/// count them all.
fn has_at_least_chars(text: &str, n: u64) -> bool {
    let n_bytes = to_u64(text.len());
    if n_bytes < n {
        return false;
    }
    if n_bytes.div_ceil(4) >= n {
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
        _ => to_u64(text.chars().count()) >= n,
    }
}

pub(super) fn to_u64(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

impl<'s, 'a> Validation<'s, 'a> {
    /// A string in parts begins: its checks note which allowed strings it may become, and
    /// those that refuse strings fail now.
    pub(super) fn start_string(&mut self, frame: &Frame) {
        for index in frame.checks..frame.checks_end {
            let Some(check) = self.checks.get_mut(index) else {
                continue;
            };
            if check.settled {
                continue;
            }
            let (mut enumeration, mut constant) = Default::default();
            let node = check.node;
            for (position, assertion) in node.assertions.iter().enumerate() {
                let fail = |what| Fail {
                    at: frame.ordinal,
                    what,
                };
                match assertion {
                    Assertion::Enum(choices) | Assertion::Const(choices) => {
                        let all = choices.all_strings();
                        if choices.none_left(all) {
                            check.settle(rank(position, 0), fail(Broken::Keyword(assertion)));
                            break;
                        }
                        if matches!(assertion, Assertion::Enum(_)) {
                            enumeration = all;
                        } else {
                            constant = all;
                        }
                    }
                    Assertion::Type(kinds) if !Shape::String.admitted_by(*kinds) => {
                        check.settle(rank(position, 0), fail(Broken::Kind(*kinds)));
                        break;
                    }
                    _ => {}
                }
            }
            check.state = State::Strings {
                enumeration,
                constant,
            };
        }
    }

    /// More of the string in parts: what it can still become narrows, and a string past
    /// `maxLength`, or longer than its format's longest value, fails now.
    pub(super) fn string_part(&mut self, part: &str) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if frame.shape != Shape::String {
            return;
        }
        let offset = frame.bytes;
        frame.bytes = frame.bytes.saturating_add(part.len());
        frame.count = frame.count.saturating_add(part.chars().count());
        if frame.keep_text {
            self.text.push_str(part);
        }
        let (chars, ordinal, frame_bytes) = (to_u64(frame.count), frame.ordinal, frame.bytes);
        for index in frame.checks..frame.checks_end {
            let Some(check) = self.checks.get_mut(index) else {
                continue;
            };
            let State::Strings {
                mut enumeration,
                mut constant,
            } = check.state
            else {
                continue;
            };
            if check.settled {
                continue;
            }
            let node = check.node;
            for (position, assertion) in node.assertions.iter().enumerate() {
                let broken = match assertion {
                    Assertion::Enum(choices) => {
                        enumeration = choices.narrow(enumeration, offset, part.as_bytes());
                        choices.none_left(enumeration)
                    }
                    Assertion::Const(choices) => {
                        constant = choices.narrow(constant, offset, part.as_bytes());
                        choices.none_left(constant)
                    }
                    other => breaks_before_end(other, chars, frame_bytes),
                };
                if broken {
                    let what = Broken::Keyword(assertion);
                    check.record(rank(position, 0), Fail { at: ordinal, what });
                }
            }
            check.state = State::Strings {
                enumeration,
                constant,
            };
        }
    }
}

/// True if a string in parts of `chars` code points and `bytes` bytes so far already breaks
/// `assertion`, by a rule its end cannot mend: past `maxLength`, or longer than its bounded
/// `format`'s longest value. (`enum` and `const` narrow as the parts come; see
/// [`Choices::narrow`].) The eager quick path reads the same bounds off its node's outline
/// (`Parts` in `quick.rs`).
pub(super) fn breaks_before_end(assertion: &Assertion, chars: u64, bytes: usize) -> bool {
    match assertion {
        Assertion::MaxLength { max, .. } => chars > *max,
        Assertion::Format(format) => format.max_len().is_some_and(|max| bytes > max),
        _ => false,
    }
}

/// The string rules that need the whole string, for a check of a string in parts that has
/// ended: what `assertion` (at `position`) says of it, if it breaks it. `text` is the
/// string whole when the frame kept it (it does when a check has an assertion that
/// [reads the whole string](Assertion::reads_whole_string)).
pub(super) fn string_end_breaks<'s>(
    assertion: &'s Assertion,
    state: State,
    frame: &Frame,
    text: &str,
) -> Option<Broken<'s>> {
    let chars = to_u64(frame.count);
    let broken = match (assertion, state) {
        (
            Assertion::Enum(choices),
            State::Strings {
                enumeration: prefix,
                ..
            },
        )
        | (
            Assertion::Const(choices),
            State::Strings {
                constant: prefix, ..
            },
        ) => !choices.ends_allowed(prefix, frame.bytes),
        (Assertion::MinLength { min, .. }, _) => chars < *min,
        (Assertion::MaxLength { max, .. }, _) => chars > *max,
        (Assertion::Pattern(pattern), _) => frame.keep_text && !pattern.is_match(text),
        (Assertion::Format(format), _) => frame.keep_text && !format.accepts_str(text),
        _ => false,
    };
    broken.then_some(Broken::Keyword(assertion))
}
