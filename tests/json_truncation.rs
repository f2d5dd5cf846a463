//! Truncation: every proper prefix of a valid text is `Ok` or `Truncated`, never another
//! kind, and input that no continuation could make valid is never `Truncated`.
//!
//! The gate answers the two differently ("call again with fewer items" against "fix the
//! syntax"), so a wrong kind sends the model the wrong advice.

use toolgate::json::{parse, parse_bytes, ErrorKind, Inside, ParseError};

/// Valid texts that between them open every kind of value and every escape.
const VALID: &[&str] = &[
    r#"{"a": [1, 2], "b": {"c": null}}"#,
    r#"[true, false, null, -0.5e+10, 0, 12, 1E-3, "", "x"]"#,
    r#"{"query": "caf\u00e9 \"quoted\" \\ \/ \b\f\n\r\t", "emoji": "\ud83d\ude4f"}"#,
    "{\"name\": \"Zürich 中文 🙏\", \"n\": [[], {}, [{}]]}",
    " \n [ 1 , \"two\" , { \"three\" : 3 } ] \t ",
    "-1",
    "\"\\u0041\"",
    "123.456e789",
];

/// Parses `input` and insists on `Ok` or `Truncated`.
fn check_prefix(input: &str, of: &str) {
    if let Err(error) = parse(input) {
        assert!(
            error.is_truncated(),
            "{input:?} (a prefix of {of:?}) gave {:?}: {error}",
            error.kind()
        );
        assert_eq!(
            error.offset(),
            input.len(),
            "{input:?}: truncation is reported at the end"
        );
    }
}

#[test]
fn every_proper_prefix_of_a_valid_text_is_ok_or_truncated() {
    for text in VALID {
        assert!(parse(text).is_ok(), "{text:?} must parse");
        for (cut, _) in text.char_indices() {
            check_prefix(&text[..cut], text);
        }
    }
}

#[test]
fn every_byte_prefix_is_ok_or_truncated_including_cut_characters() {
    for text in VALID {
        let bytes = text.as_bytes();
        for cut in 0..bytes.len() {
            if let Err(error) = parse_bytes(&bytes[..cut]) {
                assert!(
                    error.is_truncated(),
                    "byte prefix {:?} of {text:?} gave {error}",
                    String::from_utf8_lossy(&bytes[..cut])
                );
            }
        }
    }
}

fn kind(result: Result<toolgate::json::Value<'_>, ParseError>) -> Option<ErrorKind> {
    result.err().map(|error| error.kind().clone())
}

#[test]
fn a_cut_off_character_in_a_string_is_truncated_where_the_string_starts() {
    let euro = "€".as_bytes(); // three bytes
    let mut input = b"{\"price\": \"12 ".to_vec();
    input.extend_from_slice(&euro[..2]);
    let error = parse_bytes(&input)
        .map(|_| ())
        .map_err(|e| (e.to_string(), e.offset()));
    assert_eq!(
        error,
        Err((
            "the input ended inside a string that starts at line 1, column 11".to_string(),
            input.len()
        ))
    );
    // The same bytes outside a string can never become valid: no character may stand there.
    let mut outside = b"[1, ".to_vec();
    outside.extend_from_slice(&euro[..2]);
    assert_eq!(kind(parse_bytes(&outside)), Some(ErrorKind::InvalidUtf8));
    // A cut character after a complete value is not truncation either.
    let mut after = b"\"a\" ".to_vec();
    after.extend_from_slice(&euro[..1]);
    assert!(!parse_bytes(&after).is_err_and(|e| e.is_truncated()));
}

#[test]
fn what_was_open_is_the_innermost_value() {
    let inside = |input: &str| match kind(parse(input)) {
        Some(ErrorKind::Truncated { inside, start }) => Some((inside, start.offset)),
        _ => None,
    };
    assert_eq!(inside(""), Some((Inside::Document, 0)));
    assert_eq!(inside("   "), Some((Inside::Document, 3)));
    assert_eq!(inside(r#"{"a": [1, 2"#), Some((Inside::Array, 6)));
    assert_eq!(inside(r#"{"a": [1, 2], "#), Some((Inside::Object, 0)));
    assert_eq!(inside(r#"[{"k": "ab"#), Some((Inside::String, 7)));
    assert_eq!(inside(r#"[{"k"#), Some((Inside::String, 2)));
    assert_eq!(inside("[nul"), Some((Inside::Literal, 1)));
    assert_eq!(inside("[-"), Some((Inside::Number, 1)));
    assert_eq!(inside("[12"), Some((Inside::Array, 0)));
    assert_eq!(inside("12"), None);
}

#[test]
fn input_that_no_continuation_can_fix_is_never_truncated() {
    for input in [
        "-x",
        "1.x",
        "1ex",
        "01",
        "[1,]",
        "[1 2",
        "{\"a\" 1",
        "{,",
        "trux",
        "\"\\x",
        "\"\\u12g",
        "\"\\uDC",
        "\"\\uDFF",
        "\"\\uD800\\uD8",
        "\"\\uD800x",
        "\"\\uD800\\n",
        "1 x",
        "]",
        "\"a\u{1}",
    ] {
        match parse(input) {
            Ok(value) => panic!("{input:?} parsed as {value:?}"),
            Err(error) => assert!(
                !error.is_truncated(),
                "{input:?} is not a prefix of any valid text: {error}"
            ),
        }
    }
}

#[test]
fn escapes_cut_anywhere_are_truncated() {
    for input in [
        "\"\\",
        "\"\\u",
        "\"\\u0",
        "\"\\u00e",
        "\"\\uD83D",
        "\"\\uD83D\\",
        "\"\\uD83D\\u",
        "\"\\uD83D\\uDE",
        "\"\\uDB",
    ] {
        assert!(
            matches!(
                kind(parse(input)),
                Some(ErrorKind::Truncated {
                    inside: Inside::String,
                    ..
                })
            ),
            "{input:?}: {:?}",
            kind(parse(input))
        );
    }
}
