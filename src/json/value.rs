//! `Value<'a>`: one parsed JSON text, borrowing from the input where it can.
//!
//! Strings without escapes borrow from the input (`Cow::Borrowed`); only strings that held an
//! escape own their text. Objects keep their members in input order, duplicates included, in
//! a `Vec`: a map would silently keep one of two duplicate keys, and the gate must see both to
//! refuse them (two parsers may read `{"a":1,"a":2}` differently, RFC 8259 section 4).

use super::decimal::Decimal;
use std::borrow::Cow;

/// One JSON value.
///
/// Equality is structural and textual: numbers compare by the text they were written with
/// (`1.0 != 1`), and objects compare member by member in order. JSON Schema's looser
/// equality (`1.0` equals `1`, member order ignored) lives in the validator.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, kept as written.
    Number(Number<'a>),
    /// A string, unescaped.
    String(Cow<'a, str>),
    /// An array, in order.
    Array(Vec<Value<'a>>),
    /// An object's members in input order, duplicate keys included.
    Object(Vec<Member<'a>>),
}

/// One object member: key and value.
pub type Member<'a> = (Cow<'a, str>, Value<'a>);

/// The six kinds of JSON value, for messages and counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// A JSON number, kept as the text it was written with.
///
/// Keeping the text lets the writer show a number exactly as the model wrote it, and lets
/// [`Number::as_i64`] decide exactly (not through `f64`) whether `1e2` or
/// `9223372036854775808` is an integer within `i64`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number<'a> {
    /// Invariant: matches the RFC 8259 `number` grammar
    /// (`-? int frac? exp?`, no leading zeros, no `+` before the integer part).
    text: Cow<'a, str>,
}

impl Kind {
    /// The kind's name as JSON Schema spells it (`"boolean"`, not `"bool"`).
    pub fn label(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "boolean",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

impl<'a> Value<'a> {
    /// The kind of this value.
    pub fn kind(&self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number<'a>> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as an `i64`, if this is a number whose value is an integer within `i64`
    /// (`3`, `3.0` and `3e0` all give `Some(3)`; `3.5` and `1e19` give `None`).
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The number as the nearest `f64`, if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().map(Number::as_f64)
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members in input order, duplicates included, if this is an object.
    pub fn as_object(&self) -> Option<&[Member<'a>]> {
        match self {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The value of the first member named `key`, if this is an object that has one.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.as_object()?
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value)
    }

    /// A copy that owns all its text, free of the input's lifetime.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) => Value::Number(n.into_owned()),
            Value::String(s) => Value::String(Cow::Owned(s.into_owned())),
            Value::Array(items) => Value::Array(items.into_iter().map(Value::into_owned).collect()),
            Value::Object(members) => Value::Object(
                members
                    .into_iter()
                    .map(|(key, value)| (Cow::Owned(key.into_owned()), value.into_owned()))
                    .collect(),
            ),
        }
    }
}

impl<'a> Number<'a> {
    /// A number from text in the RFC 8259 grammar, or `None` if the text is not one
    /// (`"01"`, `"+1"`, `"1."`, `".5"`, `"NaN"` are not).
    pub fn from_text(text: impl Into<Cow<'a, str>>) -> Option<Number<'a>> {
        let text = text.into();
        if super::reader::is_number(text.as_bytes()) {
            Some(Number { text })
        } else {
            None
        }
    }

    /// Wraps text the reader has already checked against the number grammar.
    pub(crate) fn from_checked(text: Cow<'a, str>) -> Number<'a> {
        Number { text }
    }

    /// The number as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The value as the nearest `f64` (numbers beyond `f64`'s range give infinity).
    pub fn as_f64(&self) -> f64 {
        // The grammar is a subset of what `f64::from_str` reads, so this cannot fail.
        self.text.parse().unwrap_or(f64::NAN)
    }

    /// The value as an `i64` if it is an integer within `i64`, decided exactly from the
    /// decimal text: `1.0`, `1e2` and `-9223372036854775808` are; `1.5`, `1e19` and
    /// `9223372036854775808` are not.
    pub fn as_i64(&self) -> Option<i64> {
        // Fast path: plain digits, the common case in tool arguments.
        if let Ok(n) = self.text.parse::<i64>() {
            return Some(n);
        }
        Decimal::parse(&self.text).as_i64()
    }

    /// True if the value is an integer within `i64` (see [`Number::as_i64`]).
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// A copy that owns its text.
    pub fn into_owned(self) -> Number<'static> {
        Number {
            text: Cow::Owned(self.text.into_owned()),
        }
    }
}

impl From<bool> for Value<'static> {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<i64> for Value<'static> {
    fn from(n: i64) -> Self {
        Value::Number(Number {
            text: Cow::Owned(n.to_string()),
        })
    }
}

impl From<i32> for Value<'static> {
    fn from(n: i32) -> Self {
        Value::from(i64::from(n))
    }
}

impl From<u32> for Value<'static> {
    fn from(n: u32) -> Self {
        Value::from(i64::from(n))
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(s: &'a str) -> Self {
        Value::String(Cow::Borrowed(s))
    }
}

impl From<String> for Value<'static> {
    fn from(s: String) -> Self {
        Value::String(Cow::Owned(s))
    }
}

impl<'a> From<Number<'a>> for Value<'a> {
    fn from(n: Number<'a>) -> Self {
        Value::Number(n)
    }
}

impl Value<'static> {
    /// A number value from an `f64`, or `None` for NaN and infinities, which JSON cannot
    /// write. The text is Rust's shortest round-trip form (`0.1`, `3`, `1e300`).
    pub fn from_f64(x: f64) -> Option<Value<'static>> {
        Number::from_f64(x).map(Value::Number)
    }
}

impl Number<'static> {
    /// An `f64` as a JSON number: Rust's shortest decimal that reads back as the same
    /// `f64` (`0.5`, `3`), in exponent form only when very large or small (`1e300`);
    /// `None` for NaN and the infinities. The one rule for every `f64` toolgate writes
    /// (bounds built in Rust, an exported `multipleOf`, [`Value::from_f64`]).
    pub(crate) fn from_f64(x: f64) -> Option<Number<'static>> {
        if !x.is_finite() {
            return None;
        }
        let magnitude = x.abs();
        let text = if magnitude == 0.0 || (1e-6..1e16).contains(&magnitude) {
            format!("{x}")
        } else {
            format!("{x:e}")
        };
        // `-0` prints as "-0", valid JSON; every finite f64 prints in the number grammar.
        Number::from_text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str) -> Option<i64> {
        Number::from_text(text).and_then(|n| n.as_i64())
    }

    #[test]
    fn integers_are_decided_exactly_from_the_text() {
        assert_eq!(int("1.0"), Some(1));
        assert_eq!(int("1e2"), Some(100));
        assert_eq!(int("1E+2"), Some(100));
        assert_eq!(int("-0"), Some(0));
        assert_eq!(int("0.0e-5"), Some(0));
        assert_eq!(int("12300e-2"), Some(123));
        assert_eq!(int("1.5"), None);
        assert_eq!(int("1e-1"), None);
        assert_eq!(int("9223372036854775807"), Some(i64::MAX));
        assert_eq!(int("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(int("9223372036854775808"), None);
        assert_eq!(int("92233720368547758.07e2"), Some(i64::MAX));
        assert_eq!(int("1e19"), None);
        assert_eq!(int("1e999999999999999999999"), None);
        assert_eq!(int("1e-999999999999999999999"), None);
    }

    #[test]
    fn the_number_grammar_is_rfc_8259() {
        for good in ["0", "-0", "1", "10", "1.5", "1e5", "1E-5", "-1.25e+10"] {
            assert!(Number::from_text(good).is_some(), "{good}");
        }
        for bad in [
            "", "-", "01", "+1", "1.", ".5", "1e", "1e+", "NaN", "1 ", "0x1",
        ] {
            assert!(Number::from_text(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn from_f64_writes_valid_numbers() {
        assert_eq!(Value::from_f64(0.5).and_then(|v| v.as_f64()), Some(0.5));
        assert_eq!(Value::from_f64(3.0).and_then(|v| v.as_i64()), Some(3));
        assert_eq!(Value::from_f64(1e300).and_then(|v| v.as_f64()), Some(1e300));
        assert!(Value::from_f64(f64::NAN).is_none());
    }
}
