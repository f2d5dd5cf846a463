//! Random JSON values and random spellings of them, for the property tests that hold two
//! readers of the same text to the same answer (`json_properties.rs`: write, parse, cut,
//! mutate; `envelope_text_args.rs`: arguments given as text).
//!
//! Values mix every kind, strings with the characters that matter to JSON (quotes,
//! backslashes, control characters, DEL, non-ASCII, astral and the last code point) and
//! numbers from a list of edge cases or built at random. A spelling writes a value with
//! random whitespace and each character raw, short-escaped (`\n`) or `\u`-escaped (either
//! hex case, astral characters as surrogate pairs), within what RFC 8259 allows.
#![allow(dead_code)]

use super::rng::Rng;
use std::borrow::Cow;
use std::fmt::Write;
use toolgate::json::{Number, Value};

/// The characters random strings are made of.
pub const CHARS: &[char] = &[
    'a',
    'b',
    'z',
    'A',
    '0',
    ' ',
    '"',
    '\\',
    '/',
    '\u{0}',
    '\u{8}',
    '\u{9}',
    '\u{a}',
    '\u{c}',
    '\u{d}',
    '\u{1f}',
    '\u{7f}',
    'é',
    'ß',
    'ж',
    '中',
    '\u{2028}',
    '\u{feff}',
    '\u{ffff}',
    '🙏',
    '\u{10000}',
    '\u{10ffff}',
];

/// Numbers at the edges: signed zero, exponents of both cases and signs, the ends of `i64`
/// and just past them, more digits than a `u128`, an exponent far below `f64`.
pub const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "42",
    "1.5",
    "-0.25",
    "1e3",
    "1E-3",
    "2.5e+10",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "123456789012345678901234567890",
    "0.1e-400",
];

/// How often `spell_string` gives a character its plainest spelling (raw where JSON allows
/// it, else its short escape, else `\u`): mostly, as a model writes.
pub const MOSTLY_PLAIN: (usize, usize) = (5, 6);

/// Half the time: the other spellings as often as the plain one.
pub const HALF_PLAIN: (usize, usize) = (1, 2);

/// A string of 0 to 9 characters from `CHARS`.
pub fn random_string(rng: &mut Rng) -> String {
    (0..rng.below(10)).map(|_| *rng.pick(CHARS)).collect()
}

/// A valid JSON number: half the time from `NUMBERS`, else built from random parts.
pub fn random_number(rng: &mut Rng) -> Number<'static> {
    let text = if rng.bool() {
        rng.pick(NUMBERS).to_string()
    } else {
        let mut text = String::new();
        if rng.bool() {
            text.push('-');
        }
        text.push_str(&(rng.u64() >> rng.below(64)).to_string());
        if rng.bool() {
            let _ = write!(text, ".{}", rng.below(1000));
        }
        if rng.bool() {
            let _ = write!(
                text,
                "{}{}{}",
                rng.pick(&["e", "E"]),
                rng.pick(&["", "+", "-"]),
                rng.below(400)
            );
        }
        text
    };
    match Number::from_text(text.clone()) {
        Some(number) => number.into_owned(),
        None => panic!("the test made an invalid number {text:?}"),
    }
}

/// A random value at most `depth` containers deep, each container holding 0 to 4 items.
pub fn random_value(rng: &mut Rng, depth: usize) -> Value<'static> {
    let choice = if depth == 0 {
        rng.below(4)
    } else {
        rng.below(6)
    };
    match choice {
        0 => Value::Null,
        1 => Value::Bool(rng.bool()),
        2 => Value::Number(random_number(rng)),
        3 => Value::String(Cow::Owned(random_string(rng))),
        4 => Value::Array(
            (0..rng.below(5))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(5))
                .map(|_| (Cow::Owned(random_string(rng)), random_value(rng, depth - 1)))
                .collect(),
        ),
    }
}

/// A run of JSON whitespace, empty three times in four.
pub fn whitespace(rng: &mut Rng, out: &mut String) {
    while rng.chance(1, 4) {
        out.push(*rng.pick(&[' ', '\t', '\n', '\r']));
    }
}

/// One `\uXXXX` escape, hex in a random case.
pub fn unicode_escape(rng: &mut Rng, out: &mut String, unit: u16) {
    if rng.bool() {
        let _ = write!(out, "\\u{unit:04x}");
    } else {
        let _ = write!(out, "\\u{unit:04X}");
    }
}

/// One way to write a character inside a JSON string.
#[derive(Clone, Copy)]
enum Form {
    Raw,
    Short(&'static str),
    Unicode,
}

/// `s` as a JSON string literal: each character takes its plainest spelling with the chance
/// `plain` (`MOSTLY_PLAIN`, `HALF_PLAIN`), else one of its other spellings at random.
pub fn spell_string(rng: &mut Rng, out: &mut String, s: &str, plain: (usize, usize)) {
    out.push('"');
    for c in s.chars() {
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '/' => Some("\\/"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            _ => None,
        };
        // RFC 8259 section 7: the quote, the backslash and the control characters below
        // U+0020 must be escaped; everything else may stand raw.
        let must_escape = c == '"' || c == '\\' || c < '\u{20}';
        let forms: Vec<Form> = [
            (!must_escape).then_some(Form::Raw),
            short.map(Form::Short),
            Some(Form::Unicode),
        ]
        .into_iter()
        .flatten()
        .collect();
        let form = match forms.split_first() {
            Some((plainest, [])) => *plainest,
            Some((plainest, others)) => {
                if rng.chance(plain.0, plain.1) {
                    *plainest
                } else {
                    *rng.pick(others)
                }
            }
            None => Form::Unicode,
        };
        match form {
            Form::Raw => out.push(c),
            Form::Short(short) => out.push_str(short),
            Form::Unicode => {
                let mut units = [0; 2];
                for unit in c.encode_utf16(&mut units) {
                    unicode_escape(rng, out, *unit);
                }
            }
        }
    }
    out.push('"');
}

/// `value` as JSON text with random whitespace and string spellings (`plain` as in
/// `spell_string`). Recursion is fine here: the tests' values are a few levels deep.
pub fn spell(rng: &mut Rng, out: &mut String, value: &Value<'_>, plain: (usize, usize)) {
    whitespace(rng, out);
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(n.as_str()),
        Value::String(s) => spell_string(rng, out, s, plain),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                spell(rng, out, item, plain);
            }
            whitespace(rng, out);
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                whitespace(rng, out);
                spell_string(rng, out, key, plain);
                whitespace(rng, out);
                out.push(':');
                spell(rng, out, item, plain);
            }
            whitespace(rng, out);
            out.push('}');
        }
    }
    whitespace(rng, out);
}
