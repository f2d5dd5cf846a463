//! Property tests with the seeded PRNG in `tests/support/rng.rs`. The seed is printed (and
//! shown when a test fails); replay with `TOOLGATE_SEED=N`, and raise the number of cases
//! with `TOOLGATE_FUZZ_ITERS=N`.
//!
//! - Round trip: a random value, written compact, pretty, or spelled with random escapes
//!   (`\u` forms, surrogate pairs, either hex case) and random whitespace, parses back equal.
//! - Every byte prefix of a random valid text is `Ok` or `Truncated`.
//! - Random byte mutations never panic, and give `Ok` or an error whose offset is inside
//!   the input.

#[path = "support/rng.rs"]
mod rng;

use rng::Rng;
use std::borrow::Cow;
use std::fmt::Write;
use toolgate::json::{parse, parse_bytes, preview, to_pretty_string, Number, Value};

const CHARS: &[char] = &[
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

const NUMBERS: &[&str] = &[
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

fn random_string(rng: &mut Rng) -> String {
    (0..rng.below(10)).map(|_| *rng.pick(CHARS)).collect()
}

fn random_number(rng: &mut Rng) -> Number<'static> {
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

fn random_value(rng: &mut Rng, depth: usize) -> Value<'static> {
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

fn whitespace(rng: &mut Rng, out: &mut String) {
    while rng.chance(1, 4) {
        out.push(*rng.pick(&[' ', '\t', '\n', '\r']));
    }
}

/// One `\uXXXX` escape, hex in a random case.
fn unicode_escape(rng: &mut Rng, out: &mut String, unit: u16) {
    if rng.bool() {
        let _ = write!(out, "\\u{unit:04x}");
    } else {
        let _ = write!(out, "\\u{unit:04X}");
    }
}

/// `s` as a JSON string, each character written raw, short-escaped or `\u`-escaped at
/// random (astral characters as surrogate pairs), within what RFC 8259 allows.
fn spell_string(rng: &mut Rng, out: &mut String, s: &str) {
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
        let must_escape = c == '"' || c == '\\' || c < '\u{20}';
        match (rng.below(3), short) {
            (0, Some(short)) => out.push_str(short),
            (1, _) | (_, None) if must_escape || rng.bool() => {
                let mut units = [0; 2];
                for unit in c.encode_utf16(&mut units) {
                    unicode_escape(rng, out, *unit);
                }
            }
            (_, Some(short)) if must_escape => out.push_str(short),
            _ => out.push(c),
        }
    }
    out.push('"');
}

/// `value` as JSON text with random escapes and whitespace (recursion is fine here: the
/// test's values are at most a few levels deep).
fn spell(rng: &mut Rng, out: &mut String, value: &Value<'_>) {
    whitespace(rng, out);
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(n.as_str()),
        Value::String(s) => spell_string(rng, out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                spell(rng, out, item);
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
                spell_string(rng, out, key);
                whitespace(rng, out);
                out.push(':');
                spell(rng, out, item);
            }
            whitespace(rng, out);
            out.push('}');
        }
    }
    whitespace(rng, out);
}

fn parsed(text: &str, seed: u64) -> Value<'_> {
    match parse(text) {
        Ok(value) => value,
        Err(error) => panic!("seed {seed}: {text:?} failed: {error}"),
    }
}

#[test]
fn random_values_survive_writing_and_parsing() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(3000) {
        let value = random_value(&mut rng, 4);
        let compact = value.to_string();
        assert_eq!(
            parsed(&compact, seed),
            value,
            "seed {seed}: compact {compact:?}"
        );
        assert!(
            !compact.contains(|c: char| c < '\u{20}'),
            "seed {seed}: {compact:?} holds a control character"
        );
        let pretty = to_pretty_string(&value);
        assert_eq!(
            parsed(&pretty, seed),
            value,
            "seed {seed}: pretty {pretty:?}"
        );
        assert_eq!(format!("{value:#}"), pretty);
        let mut spelled = String::new();
        spell(&mut rng, &mut spelled, &value);
        assert_eq!(
            parsed(&spelled, seed),
            value,
            "seed {seed}: spelled {spelled:?}"
        );
    }
}

#[test]
fn preview_is_the_compact_text_cut_on_a_character_boundary() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(2000) {
        let value = random_value(&mut rng, 3);
        let compact = value.to_string();
        let max_chars = rng.below(40);
        let expected = if compact.chars().count() <= max_chars {
            compact.clone()
        } else {
            compact.chars().take(max_chars).chain(['…']).collect()
        };
        assert_eq!(
            preview(&value, max_chars),
            expected,
            "seed {seed}: {compact:?} at {max_chars}"
        );
    }
}

#[test]
fn every_byte_prefix_of_a_random_text_is_ok_or_truncated() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(300) {
        let value = random_value(&mut rng, 3);
        let mut text = String::new();
        spell(&mut rng, &mut text, &value);
        let bytes = text.as_bytes();
        for cut in 0..bytes.len() {
            if let Err(error) = parse_bytes(&bytes[..cut]) {
                assert!(
                    error.is_truncated(),
                    "seed {seed}: prefix {:?} of {text:?}: {error}",
                    String::from_utf8_lossy(&bytes[..cut])
                );
            }
        }
    }
}

/// Bytes that matter to the grammar, to mutate with.
const INTERESTING: &[u8] =
    b"[]{}:,\"\\/ux0123456789-+.eEtrfalsn \t\n\r\x00\x1f\x7f\x80\xbf\xc3\xe2\xf0\xff";

#[test]
fn mutated_texts_never_panic_and_errors_point_inside_the_input() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(5000) {
        let value = random_value(&mut rng, 3);
        let mut text = String::new();
        spell(&mut rng, &mut text, &value);
        let mut bytes = text.into_bytes();
        for _ in 0..rng.range(1, 4) {
            let at = rng.below(bytes.len() + 1);
            let byte = if rng.bool() {
                *rng.pick(INTERESTING)
            } else {
                rng.u8()
            };
            match rng.below(4) {
                0 if at < bytes.len() => bytes[at] = byte,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                2 => bytes.truncate(at),
                _ => bytes.insert(at, byte),
            }
        }
        match parse_bytes(&bytes) {
            Ok(value) => assert_eq!(parsed(&value.to_string(), seed), value, "seed {seed}"),
            Err(error) => {
                let shown = String::from_utf8_lossy(&bytes);
                assert!(
                    error.offset() <= bytes.len(),
                    "seed {seed}: {shown:?}: offset {} beyond",
                    error.offset()
                );
                assert!(
                    error.line() >= 1 && error.column() >= 1,
                    "seed {seed}: {shown:?}"
                );
                assert!(
                    !error.to_string().is_empty(),
                    "seed {seed}: {shown:?}: empty message"
                );
                if error.is_truncated() {
                    assert_eq!(error.offset(), bytes.len(), "seed {seed}: {shown:?}");
                }
            }
        }
    }
}

#[test]
fn the_rng_replays_its_seed_and_spreads_its_numbers() {
    let mut a = Rng::new(7);
    let mut b = Rng::new(7);
    let first: Vec<u64> = (0..8).map(|_| a.u64()).collect();
    assert_eq!(first, (0..8).map(|_| b.u64()).collect::<Vec<_>>());
    let mut c = Rng::new(8);
    assert_ne!(first, (0..8).map(|_| c.u64()).collect::<Vec<_>>());
    let mut seen = [false; 5];
    for _ in 0..1000 {
        let n = a.below(5);
        assert!(n < 5);
        seen[n] = true;
    }
    assert_eq!(seen, [true; 5]);
    assert_eq!(a.below(0), 0);
}
