//! What the parser builds and where it stops: values, borrowing, duplicate keys, the depth
//! and size limits, and tokens that may not hold whitespace.

use std::borrow::Cow;
use toolgate::json::{parse, parse_bytes, parse_with, ErrorKind, Inside, Kind, Limits, Value};

/// Asserts that `input` parses and writes back compact as `expected`.
fn check(input: &str, expected: &str) {
    match parse(input) {
        Ok(value) => assert_eq!(value.to_string(), expected, "input: {input:?}"),
        Err(error) => panic!("{input:?} failed: {error}"),
    }
}

fn nested(depth: usize) -> String {
    "[".repeat(depth) + &"]".repeat(depth)
}

#[test]
fn values_parse_and_write_back_compact() {
    check(" null ", "null");
    check("true", "true");
    check("false", "false");
    check("0", "0");
    check("-0.5e+10", "-0.5e+10");
    check("\"\"", "\"\"");
    check("[ ]", "[]");
    check("{ }", "{}");
    check("[1, [2, [3]], {\"a\": {}}]", "[1,[2,[3]],{\"a\":{}}]");
    check("\t\r\n{\"k\" :\n\"v\" }\n", "{\"k\":\"v\"}");
    check(r#""\"\\\/\b\f\n\r\t""#, r#""\"\\/\b\f\n\r\t""#);
    check(r#""\u00e9\u4E2D\ud83D\uDE4F""#, "\"é中🙏\"");
}

#[test]
fn strings_without_escapes_borrow_and_strings_with_escapes_own() {
    let value = parse(r#"{"plain": "abc", "escaped": "a\nb"}"#).map_err(|e| e.to_string());
    let Ok(Value::Object(members)) = value else {
        panic!("expected an object, got {value:?}");
    };
    assert!(matches!(members[0].0, Cow::Borrowed("plain")));
    assert!(matches!(members[0].1, Value::String(Cow::Borrowed("abc"))));
    assert!(matches!(&members[1].1, Value::String(Cow::Owned(s)) if s == "a\nb"));
}

#[test]
fn objects_keep_every_member_in_input_order_duplicates_included() {
    let value = parse(r#"{"b": 1, "a": 2, "b": 3}"#).map_err(|e| e.to_string());
    let keys: Vec<&str> = match &value {
        Ok(value) => value
            .as_object()
            .unwrap_or_default()
            .iter()
            .map(|(k, _)| k.as_ref())
            .collect(),
        Err(e) => panic!("{e}"),
    };
    assert_eq!(keys, ["b", "a", "b"]);
    // `get` finds the first.
    assert_eq!(
        value.ok().and_then(|v| v.get("b").and_then(Value::as_i64)),
        Some(1)
    );
}

#[test]
fn accessors_read_what_was_parsed() {
    let value = match parse(r#"{"n": 12, "x": 1.5, "s": "t", "b": true, "a": [null], "o": {}}"#) {
        Ok(value) => value,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(value.kind(), Kind::Object);
    assert_eq!(value.get("n").and_then(Value::as_i64), Some(12));
    assert_eq!(value.get("x").and_then(Value::as_f64), Some(1.5));
    assert_eq!(value.get("x").and_then(Value::as_i64), None);
    assert_eq!(value.get("s").and_then(Value::as_str), Some("t"));
    assert_eq!(value.get("b").and_then(Value::as_bool), Some(true));
    assert_eq!(
        value.get("a").and_then(Value::as_array).map(<[_]>::len),
        Some(1)
    );
    assert_eq!(value.get("o").map(Value::kind), Some(Kind::Object));
    assert_eq!(value.get("missing"), None);
    let owned: Value<'static> = value.clone().into_owned();
    assert_eq!(owned, value);
}

#[test]
fn the_depth_limit_admits_exactly_its_depth() {
    assert!(parse(&nested(128)).is_ok(), "128 levels must parse");
    let error = parse(&nested(129))
        .map(|_| ())
        .map_err(|e| e.kind().clone());
    assert_eq!(error, Err(ErrorKind::TooDeep { limit: 128 }));
    let objects = "{\"a\":".repeat(128) + "1" + &"}".repeat(128);
    assert!(parse(&objects).is_ok(), "128 levels of objects must parse");
    let objects = "{\"a\":".repeat(129) + "1" + &"}".repeat(129);
    let error = parse(&objects)
        .map(|_| ())
        .map_err(|e| (e.kind().clone(), e.offset()));
    assert_eq!(error, Err((ErrorKind::TooDeep { limit: 128 }, 128 * 5)));
    let shallow = Limits {
        max_depth: 1,
        ..Limits::default()
    };
    assert!(parse_with("[1, 2]", shallow).is_ok());
    assert!(parse_with("[[]]", shallow).is_err());
    assert!(parse_with(
        "1",
        Limits {
            max_depth: 0,
            ..Limits::default()
        }
    )
    .is_ok());
}

#[test]
fn a_million_open_brackets_are_an_error_not_a_stack_overflow() {
    let open = "[".repeat(1_000_000);
    let error = parse_with(
        &open,
        Limits {
            max_bytes: usize::MAX,
            ..Limits::default()
        },
    )
    .map(|_| ())
    .map_err(|e| e.kind().clone());
    assert_eq!(error, Err(ErrorKind::TooDeep { limit: 128 }));
    // No setting lifts depth past the ceiling: a value that deep could overflow the stack
    // when dropped, so it is refused at the ceiling instead.
    let unbounded = Limits {
        max_depth: usize::MAX,
        max_bytes: usize::MAX,
    };
    let error = parse_with(&open, unbounded)
        .map(|_| ())
        .map_err(|e| e.kind().clone());
    assert_eq!(
        error,
        Err(ErrorKind::TooDeep {
            limit: Limits::DEPTH_CEILING
        })
    );
    // Below the ceiling, the explicit stack grows on the heap and the input simply ends.
    let shallow_open = "[".repeat(Limits::DEPTH_CEILING);
    let error = parse_with(&shallow_open, unbounded)
        .map(|_| ())
        .map_err(|e| e.kind().clone());
    assert!(
        matches!(
            error,
            Err(ErrorKind::Truncated {
                inside: Inside::Array,
                ..
            })
        ),
        "{error:?}"
    );
    // Under the default 1 MiB limit a million brackets fit, and meet the depth limit.
    assert!(parse(&open).is_err());
}

#[test]
fn the_size_limit_counts_bytes() {
    let text = "\"ééé\""; // 8 bytes
    let at = |max_bytes| {
        parse_with(
            text,
            Limits {
                max_bytes,
                ..Limits::default()
            },
        )
    };
    assert!(at(8).is_ok());
    let error = at(7).map(|_| ()).map_err(|e| e.kind().clone());
    assert_eq!(error, Err(ErrorKind::TooLarge { limit: 7, size: 8 }));
    assert!(parse(&" ".repeat((1 << 20) + 1))
        .is_err_and(|e| matches!(e.kind(), ErrorKind::TooLarge { .. })));
}

#[test]
fn no_whitespace_inside_a_token() {
    for input in [
        r#""\u 0041""#,
        r#""\ n""#,
        "t rue",
        "- 1",
        "1 .5",
        "1. 5",
        "1e 5",
        "n ull",
    ] {
        match parse(input) {
            Ok(value) => panic!("{input:?} parsed as {value:?}"),
            Err(error) => assert!(!error.is_truncated(), "{input:?}: {error}"),
        }
    }
    let error = parse(r#""\u 0041""#)
        .map(|_| ())
        .map_err(|e| (e.kind().clone(), e.offset()));
    assert_eq!(error, Err((ErrorKind::InvalidEscape, 3)));
}

#[test]
fn error_kinds_and_offsets() {
    let cases: &[(&str, ErrorKind, usize)] = &[
        (
            "[1,]",
            ErrorKind::Unexpected {
                expected: "a value after ','",
                found: ']',
            },
            3,
        ),
        ("01", ErrorKind::InvalidNumber, 1),
        ("-x", ErrorKind::InvalidNumber, 1),
        ("1.x", ErrorKind::InvalidNumber, 2),
        (
            "[\"a\u{1f}\"]",
            ErrorKind::ControlCharacter { byte: 0x1f },
            3,
        ),
        ("\"\\a\"", ErrorKind::InvalidEscape, 2),
        ("\"\\uDE00\"", ErrorKind::LoneSurrogate, 1),
        // Cut off, but no completion could make these valid: not truncation.
        ("\"\\uDC", ErrorKind::LoneSurrogate, 1),
        ("\"\\uD800\\uD8", ErrorKind::LoneSurrogate, 1),
        ("\"\\uDC\"", ErrorKind::InvalidEscape, 5),
        ("{} x", ErrorKind::TrailingCharacters, 3),
    ];
    for (input, kind, offset) in cases {
        let got = parse(input)
            .map(|_| ())
            .map_err(|e| (e.kind().clone(), e.offset()));
        assert_eq!(got, Err((kind.clone(), *offset)), "input: {input:?}");
    }
}

#[test]
fn invalid_utf8_is_reported_at_its_byte_unless_a_syntax_error_comes_first() {
    let kind_at = |bytes: &[u8]| {
        parse_bytes(bytes)
            .map(|_| ())
            .map_err(|e| (e.kind().clone(), e.offset()))
    };
    assert_eq!(kind_at(b"[\"ab\xff\"]"), Err((ErrorKind::InvalidUtf8, 4)));
    assert_eq!(kind_at(b"\xff"), Err((ErrorKind::InvalidUtf8, 0)));
    assert_eq!(
        kind_at(b"[x, \"\xff\"]"),
        Err((
            ErrorKind::Unexpected {
                expected: "a value or ']'",
                found: 'x'
            },
            1
        ))
    );
    assert_eq!(kind_at(b"[1 \xe2\x82"), Err((ErrorKind::InvalidUtf8, 3)));
    assert_eq!(kind_at("[\"€\"]".as_bytes()).map_err(|e| e.0), Ok(()));
}

#[test]
fn long_numbers_are_decided_exactly_and_in_linear_time() {
    let int = |text: &str| parse(text).ok().and_then(|v| v.as_i64());
    let zeros = "0".repeat(200_000);
    // A million-digit number is a few hundred kilobytes of JSON: it must not take quadratic time.
    assert_eq!(int(&format!("0.{zeros}1")), None);
    assert_eq!(int(&format!("0.{zeros}")), Some(0));
    assert_eq!(int(&format!("1{zeros}e-200000")), Some(1));
    assert_eq!(int(&format!("1.{zeros}")), Some(1));
    assert_eq!(int(&format!("-12.5{zeros}e1")), Some(-125));
    assert_eq!(int(&format!("1{zeros}")), None);
}

#[test]
fn a_value_at_the_depth_ceiling_drops_clones_and_compares_on_a_small_thread_stack() {
    // The derived Drop, Clone, PartialEq and Debug recurse once per level; the ceiling is
    // what keeps them inside the 2 MiB stack std gives a spawned thread.
    let depth = Limits::DEPTH_CEILING;
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let limits = Limits {
                max_depth: usize::MAX,
                max_bytes: usize::MAX,
            };
            let value = parse_with(&text, limits).map_err(|e| e.to_string())?;
            let copy = value.clone();
            let equal = copy == value;
            let printed = format!("{value:?}").len();
            drop(copy);
            drop(value);
            Ok::<_, String>((equal, printed > depth))
        });
    let result = worker.map(|handle| handle.join());
    assert!(matches!(result, Ok(Ok(Ok((true, true))))), "{result:?}");
}
