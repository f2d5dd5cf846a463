//! The writer: compact and pretty text, escapes, `preview`, and values deeper than any
//! recursion could print.

use std::borrow::Cow;
use toolgate::json::{parse, preview, to_pretty_string, write_escaped_str, Number, Value};

/// Asserts that `s` is written as the JSON string literal `expected`.
fn check(s: &str, expected: &str) {
    let mut out = String::new();
    assert_eq!(write_escaped_str(&mut out, s), Ok(()));
    assert_eq!(out, expected, "writing {s:?}");
    assert_eq!(
        parse(&out).ok().as_ref().and_then(Value::as_str),
        Some(s),
        "reading {out:?}"
    );
}

#[test]
fn every_control_character_is_escaped_and_nothing_else() {
    check("", "\"\"");
    check("plain", "\"plain\"");
    check("\"\\", "\"\\\"\\\\\"");
    check("\n\r\t\u{8}\u{c}", "\"\\n\\r\\t\\b\\f\"");
    check("\u{0}\u{1}\u{1f}", "\"\\u0000\\u0001\\u001f\"");
    check("/ \u{7f} é 中 🙏 \u{2028}", "\"/ \u{7f} é 中 🙏 \u{2028}\"");
    for byte in 0u8..0x20 {
        let mut out = String::new();
        assert_eq!(
            write_escaped_str(&mut out, &char::from(byte).to_string()),
            Ok(())
        );
        assert!(
            !out.bytes().any(|b| b < 0x20),
            "U+{byte:04X} written raw: {out:?}"
        );
    }
}

#[test]
fn compact_and_pretty_forms() {
    let value = match parse(
        r#" { "a" : [ 1 , true , null ] , "b" : { } , "c" : [ ] , "d" : { "e" : "f" } } "#,
    ) {
        Ok(value) => value,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(
        value.to_string(),
        r#"{"a":[1,true,null],"b":{},"c":[],"d":{"e":"f"}}"#
    );
    assert_eq!(
        to_pretty_string(&value),
        "{\n  \"a\": [\n    1,\n    true,\n    null\n  ],\n  \"b\": {},\n  \"c\": [],\n  \"d\": {\n    \"e\": \"f\"\n  }\n}"
    );
    assert_eq!(format!("{value:#}"), to_pretty_string(&value));
    assert_eq!(to_pretty_string(&Value::Null), "null");
    assert_eq!(Value::from("x\ny").to_string(), "\"x\\ny\"");
}

#[test]
fn numbers_are_written_as_they_were_read() {
    for text in [
        "1.0",
        "1E6",
        "-0",
        "1e-999",
        "123456789012345678901234567890",
    ] {
        let value = parse(text).map(|v| v.to_string());
        assert_eq!(value.as_deref(), Ok(text));
    }
    let built = Number::from_text("2.50")
        .map(Value::Number)
        .map(|v| v.to_string());
    assert_eq!(built.as_deref(), Some("2.50"));
}

#[test]
fn preview_cuts_on_a_character_boundary_and_marks_the_cut() {
    let value = Value::Array(vec![Value::from("é中🙏"), Value::from(12)]);
    assert_eq!(value.to_string(), "[\"é中🙏\",12]"); // 10 characters
    assert_eq!(preview(&value, 0), "…");
    assert_eq!(preview(&value, 3), "[\"é…");
    assert_eq!(preview(&value, 5), "[\"é中🙏…");
    assert_eq!(preview(&value, 8), "[\"é中🙏\",1…");
    assert_eq!(preview(&value, 9), "[\"é中🙏\",12…");
    assert_eq!(preview(&value, 10), "[\"é中🙏\",12]");
    assert_eq!(preview(&value, 1000), "[\"é中🙏\",12]");
    assert_eq!(preview(&Value::Null, 4), "null");
    assert_eq!(preview(&Value::Null, 3), "nul…");
}

#[test]
fn preview_of_a_huge_value_stops_early() {
    // A million strings: a full write would be megabytes; the preview is a few characters.
    let items: Vec<Value<'_>> = (0..1_000_000)
        .map(|_| Value::String(Cow::Borrowed("abc")))
        .collect();
    let value = Value::Array(items);
    assert_eq!(preview(&value, 12), "[\"abc\",\"abc\"…");
}

/// Takes a deep value apart level by level: the derived `Drop` would recurse.
fn dismantle(mut value: Value<'_>) {
    while let Value::Array(mut items) = value {
        value = items.pop().unwrap_or(Value::Null);
    }
}

#[test]
fn a_value_deeper_than_any_stack_is_written_without_recursion() {
    let depth = 200_000;
    let mut value = Value::Null;
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    let text = value.to_string();
    let cut = preview(&value, 3);
    // Taken apart before asserting: a failing assert would unwind through the derived Drop.
    dismantle(value);
    assert_eq!(text, "[".repeat(depth) + "null" + &"]".repeat(depth));
    assert_eq!(cut, "[[[…");
}

#[test]
fn an_f64_is_written_one_way_everywhere() {
    // `Value::from_f64`, a bound built in Rust and an exported `multipleOf` share one rule:
    // the shortest decimal that reads back as the same `f64`, in exponent form only when
    // very large or small.
    for (x, text) in [
        (0.1, "0.1"),
        (3.0, "3"),
        (-0.5, "-0.5"),
        (1e300, "1e300"),
        (2.5e-7, "2.5e-7"),
    ] {
        let value = Value::from_f64(x).map(|v| v.to_string());
        assert_eq!(value.as_deref(), Some(text), "{x}");
        let spec = toolgate::ToolSpec::new("t", "d")
            .required("n", toolgate::Type::number().min(x).multiple_of(x.abs()))
            .build()
            .unwrap();
        let schema = spec.params().to_json_schema().to_string();
        let abs = text.trim_start_matches('-');
        assert!(
            schema.contains(&format!(r#""minimum":{text},"multipleOf":{abs}"#)),
            "{schema}"
        );
    }
    assert!(Value::from_f64(f64::INFINITY).is_none());
}
