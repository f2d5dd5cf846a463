//! Exact error messages and kinds: one row per condition, `(input, expected text)`.
//!
//! The texts are what a model reads when its call does not parse, so each row was written
//! by hand from the message design (what was expected, where, what arrived), not copied
//! from the parser's output.

use toolgate::json::{parse, parse_bytes, parse_with, Limits};

/// Asserts that `input` fails with exactly `expected` as its message.
fn check(input: &str, expected: &str) {
    match parse(input) {
        Ok(value) => panic!("{input:?} parsed as {value:?}, expected the error {expected:?}"),
        Err(error) => assert_eq!(error.to_string(), expected, "input: {input:?}"),
    }
}

#[test]
fn truncated_inputs_say_what_was_open_and_where_it_started() {
    check(
        "",
        "the input is empty or only whitespace: expected a JSON value",
    );
    check(
        " \n\t ",
        "the input is empty or only whitespace: expected a JSON value",
    );
    check(
        r#"{"a": [1, 2"#,
        "the input ended inside an array that starts at line 1, column 7",
    );
    check(
        r#"{"query": "abc"#,
        "the input ended inside a string that starts at line 1, column 11",
    );
    check(
        "tru",
        "the input ended inside a literal that starts at line 1, column 1",
    );
    check(
        "[-",
        "the input ended inside a number that starts at line 1, column 2",
    );
    check(
        "1.",
        "the input ended inside a number that starts at line 1, column 1",
    );
    check(
        "1e",
        "the input ended inside a number that starts at line 1, column 1",
    );
    check(
        "1e+",
        "the input ended inside a number that starts at line 1, column 1",
    );
    check(
        r#""\u12"#,
        "the input ended inside a string that starts at line 1, column 1",
    );
    check(
        r#""\"#,
        "the input ended inside a string that starts at line 1, column 1",
    );
    check(
        "{\n  \"a\":",
        "the input ended inside an object that starts at line 1, column 1",
    );
    check(
        "[1,",
        "the input ended inside an array that starts at line 1, column 1",
    );
    check(
        r#"{"a""#,
        "the input ended inside an object that starts at line 1, column 1",
    );
}

#[test]
fn unexpected_characters_say_what_was_expected_where_and_what_arrived() {
    check(
        r#"{"a": 1 x}"#,
        "expected ',' or '}' after an object member at line 1, column 9, found 'x'",
    );
    check(
        "[1 2]",
        "expected ',' or ']' after an array element at line 1, column 4, found '2'",
    );
    check(
        "[1,]",
        "expected a value after ',' at line 1, column 4, found ']'",
    );
    check(
        "[}",
        "expected a value or ']' at line 1, column 2, found '}'",
    );
    check(
        "{1:2}",
        "expected a string key or '}' at line 1, column 2, found '1'",
    );
    check(
        r#"{"a":1,}"#,
        "expected a string key after ',' at line 1, column 8, found '}'",
    );
    check(
        r#"{"a" 1}"#,
        "expected ':' after an object key at line 1, column 6, found '1'",
    );
    check(
        r#"{"a":}"#,
        "expected a value after ':' at line 1, column 6, found '}'",
    );
    check("x", "expected a JSON value at line 1, column 1, found 'x'");
    check(
        "'a'",
        "expected a JSON value at line 1, column 1, found '\\''",
    );
    check(".5", "expected a JSON value at line 1, column 1, found '.'");
    check("+1", "expected a JSON value at line 1, column 1, found '+'");
    check("trux", "expected 'true' at line 1, column 4, found 'x'");
    check("[nul1]", "expected 'null' at line 1, column 5, found '1'");
    check("[fals]", "expected 'false' at line 1, column 6, found ']'");
    check(
        "[é]",
        "expected a value or ']' at line 1, column 2, found 'é'",
    );
    check(
        "{\n  \"a\": 1,\n  \"b\" 2\n}",
        "expected ':' after an object key at line 3, column 7, found '2'",
    );
    check(
        "\u{feff}{}",
        "expected a JSON value at line 1, column 1, found '\\u{feff}'",
    );
}

#[test]
fn invalid_numbers_say_which_rule_broke() {
    check(
        "-x",
        "invalid number at line 1, column 2: expected a digit after '-', found 'x'",
    );
    check(
        "01",
        "invalid number at line 1, column 2: a leading 0 must not be followed by a digit, found '1'",
    );
    check("[-01]", "invalid number at line 1, column 4: a leading 0 must not be followed by a digit, found '1'");
    check(
        "1.x",
        "invalid number at line 1, column 3: expected a digit after '.', found 'x'",
    );
    check(
        "[1e]",
        "invalid number at line 1, column 4: expected a digit in the exponent, found ']'",
    );
    check(
        "1E+a",
        "invalid number at line 1, column 4: expected a digit in the exponent, found 'a'",
    );
}

#[test]
fn string_errors_name_the_rule_and_the_place() {
    check(
        "\"a\tb\"",
        "unescaped control character U+0009 in a string at line 1, column 3: write it as an \
         escape such as \\n or \\u0009",
    );
    check(
        "[\"\u{1}\"]",
        "unescaped control character U+0001 in a string at line 1, column 3: write it as an \
         escape such as \\n or \\u0001",
    );
    check(
        r#""\x""#,
        "invalid escape at line 1, column 3: expected one of \" \\ / b f n r t u after a \
         backslash, found 'x'",
    );
    check(
        r#""\u 0041""#,
        "invalid escape at line 1, column 4: expected four hex digits after \\u, found ' '",
    );
    check(
        r#""\u00G1""#,
        "invalid escape at line 1, column 6: expected four hex digits after \\u, found 'G'",
    );
    check(
        r#""\uDC00""#,
        "lone surrogate escape at line 1, column 2: a low surrogate \\uDC00-\\uDFFF must follow \
         a high one \\uD800-\\uDBFF",
    );
    check(
        r#"["ok", "\uD83Dx"]"#,
        "lone surrogate escape at line 1, column 9: a high surrogate \\uD800-\\uDBFF must be \
         followed by a low one \\uDC00-\\uDFFF",
    );
    check(
        r#""\uD83D\u0041""#,
        "lone surrogate escape at line 1, column 2: a high surrogate \\uD800-\\uDBFF must be \
         followed by a low one \\uDC00-\\uDFFF",
    );
}

#[test]
fn trailing_characters_limits_and_utf8_have_their_own_messages() {
    check(
        "1 2",
        "expected the end of the input after the JSON value at line 1, column 3, found '2'",
    );
    check(
        "{}}",
        "expected the end of the input after the JSON value at line 1, column 3, found '}'",
    );
    let deep = parse_with(
        "[[[]]]",
        Limits {
            max_depth: 2,
            ..Limits::default()
        },
    );
    assert_eq!(
        deep.map_err(|e| e.to_string()),
        Err("nesting deeper than 2 levels at line 1, column 3".to_string())
    );
    let large = parse_with(
        "[1]",
        Limits {
            max_bytes: 2,
            ..Limits::default()
        },
    );
    assert_eq!(
        large.map_err(|e| e.to_string()),
        Err("the input is 3 bytes, more than the limit of 2 bytes".to_string())
    );
    let bad_utf8 = parse_bytes(b"[\"a\xff\"]");
    assert_eq!(
        bad_utf8.map_err(|e| e.to_string()),
        Err("invalid UTF-8 at byte 3 (line 1, column 4)".to_string())
    );
}
