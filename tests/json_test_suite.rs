//! JSONTestSuite (../shared/jsontestsuite, found through `TOOLGATE_JSONTESTSUITE`): every
//! `y_` file parses, every `n_` file is refused, every `i_` file has a row below with our
//! decision and its reason, and every `test_transform` file has a documented outcome.
//!
//! The tables must match the folder exactly: a file without a row, or a row without a file,
//! fails the test, so the decisions stay written down as the corpus changes.

mod support;

use std::path::PathBuf;
use support::corpus::json_test_suite;
use toolgate::json::{parse, parse_bytes, parse_bytes_with, ErrorKind, Limits, Value};

/// What we do with an input the RFC leaves to the implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    /// Parsed.
    Accept,
    /// Refused with this kind (named as [`kind_name`] names it).
    Reject(&'static str),
}

use Decision::{Accept, Reject};

/// `(file, decision, reason)` for every `i_` file.
const IMPLEMENTATION_DEFINED: &[(&str, Decision, &str)] = &[
    ("i_number_double_huge_neg_exp.json", Accept, "numbers keep their text; as_f64 underflows to 0.0, as_i64 is None"),
    ("i_number_huge_exp.json", Accept, "numbers keep their text; the exponent is never turned into an integer, so no overflow"),
    ("i_number_neg_int_huge_exp.json", Accept, "numbers keep their text; as_f64 is -inf, as_i64 is None"),
    ("i_number_pos_double_huge_exp.json", Accept, "numbers keep their text; as_f64 is +inf, as_i64 is None"),
    ("i_number_real_neg_overflow.json", Accept, "numbers keep their text; as_f64 is -inf"),
    ("i_number_real_pos_overflow.json", Accept, "numbers keep their text; as_f64 is +inf"),
    ("i_number_real_underflow.json", Accept, "numbers keep their text; as_f64 is 0.0"),
    ("i_number_too_big_neg_int.json", Accept, "beyond i64: as_i64 is None, decided exactly from the text"),
    ("i_number_too_big_pos_int.json", Accept, "beyond i64: as_i64 is None, decided exactly from the text"),
    ("i_number_very_big_negative_int.json", Accept, "beyond i64: as_i64 is None, decided exactly from the text"),
    ("i_object_key_lone_2nd_surrogate.json", Reject("LoneSurrogate"), "a lone surrogate cannot be held in a str; replacing it would change what the model sent"),
    ("i_string_1st_surrogate_but_2nd_missing.json", Reject("LoneSurrogate"), "a high surrogate without its low half"),
    ("i_string_1st_valid_surrogate_2nd_invalid.json", Reject("LoneSurrogate"), "a high surrogate followed by a non-surrogate escape"),
    ("i_string_UTF-16LE_with_BOM.json", Reject("InvalidUtf8"), "RFC 8259 section 8.1: JSON exchanged between systems is UTF-8"),
    ("i_string_UTF-8_invalid_sequence.json", Reject("InvalidUtf8"), "not UTF-8; refused at its byte offset"),
    ("i_string_UTF8_surrogate_U+D800.json", Reject("InvalidUtf8"), "UTF-8 cannot encode a surrogate (RFC 3629)"),
    ("i_string_incomplete_surrogate_and_escape_valid.json", Reject("LoneSurrogate"), "a high surrogate followed by \\n"),
    ("i_string_incomplete_surrogate_pair.json", Reject("LoneSurrogate"), "a low surrogate after a complete pair"),
    ("i_string_incomplete_surrogates_escape_valid.json", Reject("LoneSurrogate"), "two high surrogates in a row"),
    ("i_string_invalid_lonely_surrogate.json", Reject("LoneSurrogate"), "a high surrogate alone"),
    ("i_string_invalid_surrogate.json", Reject("LoneSurrogate"), "a high surrogate followed by plain text"),
    ("i_string_invalid_utf-8.json", Reject("InvalidUtf8"), "not UTF-8"),
    ("i_string_inverted_surrogates_U+1D11E.json", Reject("LoneSurrogate"), "the low half comes first"),
    ("i_string_iso_latin_1.json", Reject("InvalidUtf8"), "Latin-1 is not UTF-8; no guessing of encodings"),
    ("i_string_lone_second_surrogate.json", Reject("LoneSurrogate"), "a low surrogate alone"),
    ("i_string_lone_utf8_continuation_byte.json", Reject("InvalidUtf8"), "not UTF-8"),
    ("i_string_not_in_unicode_range.json", Reject("InvalidUtf8"), "beyond U+10FFFF is not UTF-8"),
    ("i_string_overlong_sequence_2_bytes.json", Reject("InvalidUtf8"), "overlong forms are not UTF-8"),
    ("i_string_overlong_sequence_6_bytes.json", Reject("InvalidUtf8"), "overlong forms are not UTF-8"),
    ("i_string_overlong_sequence_6_bytes_null.json", Reject("InvalidUtf8"), "overlong forms are not UTF-8"),
    ("i_string_truncated-utf-8.json", Reject("InvalidUtf8"), "a cut sequence followed by more bytes is not UTF-8 (only a cut at the very end is truncation)"),
    ("i_string_utf16BE_no_BOM.json", Reject("Unexpected"), "UTF-16 is not read; its NUL bytes are not JSON"),
    ("i_string_utf16LE_no_BOM.json", Reject("Unexpected"), "UTF-16 is not read; its NUL bytes are not JSON"),
    ("i_structure_500_nested_arrays.json", Reject("TooDeep"), "deeper than the default limit of 128 levels; parses with max_depth 500"),
    ("i_structure_UTF-8_BOM_empty_object.json", Reject("Unexpected"), "RFC 8259 section 8.1: senders must not add a BOM; a parser may ignore it, we refuse it"),
];

/// What becomes of a `test_transform` file.
#[derive(Clone, Copy, Debug)]
enum Outcome {
    /// Parsed; written back compact as this text; the first element's `as_i64` (for the
    /// number files) is the second field.
    Written(&'static str, Option<Option<i64>>),
    /// Refused with this kind.
    Refused(&'static str),
}

use Outcome::{Refused, Written};

/// `(file, outcome, reason)` for every `test_transform` file.
const TRANSFORMS: &[(&str, Outcome, &str)] = &[
    (
        "number_-9223372036854775808.json",
        Written("[-9223372036854775808]", Some(Some(i64::MIN))),
        "i64::MIN exactly",
    ),
    (
        "number_-9223372036854775809.json",
        Written("[-9223372036854775809]", Some(None)),
        "kept as written; below i64",
    ),
    (
        "number_1.0.json",
        Written("[1.0]", Some(Some(1))),
        "written as it came; 1.0 is the integer 1",
    ),
    (
        "number_1.000000000000000005.json",
        Written("[1.000000000000000005]", Some(None)),
        "decided exactly, not through f64 (which rounds it to 1.0)",
    ),
    (
        "number_1000000000000000.json",
        Written("[1000000000000000]", Some(Some(1_000_000_000_000_000))),
        "an ordinary integer",
    ),
    (
        "number_10000000000000000999.json",
        Written("[10000000000000000999]", Some(None)),
        "kept as written; beyond i64",
    ),
    (
        "number_1e-999.json",
        Written("[1E-999]", Some(None)),
        "kept as written; as_f64 is 0.0",
    ),
    (
        "number_1e6.json",
        Written("[1E6]", Some(Some(1_000_000))),
        "kept as written; the integer 1000000",
    ),
    (
        "number_9223372036854775807.json",
        Written("[9223372036854775807]", Some(Some(i64::MAX))),
        "i64::MAX exactly",
    ),
    (
        "number_9223372036854775808.json",
        Written("[9223372036854775808]", Some(None)),
        "kept as written; beyond i64",
    ),
    (
        "object_key_nfc_nfd.json",
        Written("{\"\u{e9}\":\"NFC\",\"e\u{301}\":\"NFD\"}", None),
        "keys are compared as bytes, never normalized: two members",
    ),
    (
        "object_key_nfd_nfc.json",
        Written("{\"e\u{301}\":\"NFD\",\"\u{e9}\":\"NFC\"}", None),
        "keys are compared as bytes, never normalized: two members",
    ),
    (
        "object_same_key_different_values.json",
        Written("{\"a\":1,\"a\":2}", None),
        "both members kept in order; the gate refuses the duplicate",
    ),
    (
        "object_same_key_same_value.json",
        Written("{\"a\":1,\"a\":1}", None),
        "both members kept in order; the gate refuses the duplicate",
    ),
    (
        "object_same_key_unclear_values.json",
        Written("{\"a\":0,\"a\":-0}", None),
        "both kept, -0 as written",
    ),
    (
        "string_1_escaped_invalid_codepoint.json",
        Refused("LoneSurrogate"),
        "a lone surrogate escape is refused",
    ),
    (
        "string_1_invalid_codepoint.json",
        Refused("InvalidUtf8"),
        "an encoded surrogate is not UTF-8",
    ),
    (
        "string_2_escaped_invalid_codepoints.json",
        Refused("LoneSurrogate"),
        "two high surrogates are not a pair",
    ),
    (
        "string_2_invalid_codepoints.json",
        Refused("InvalidUtf8"),
        "encoded surrogates are not UTF-8",
    ),
    (
        "string_3_escaped_invalid_codepoints.json",
        Refused("LoneSurrogate"),
        "three high surrogates are not pairs",
    ),
    (
        "string_3_invalid_codepoints.json",
        Refused("InvalidUtf8"),
        "encoded surrogates are not UTF-8",
    ),
    (
        "string_with_escaped_NULL.json",
        Written("[\"A\\u0000B\"]", None),
        "U+0000 is kept, and escaped again when written",
    ),
];

fn kind_name(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Truncated { .. } => "Truncated",
        ErrorKind::Unexpected { .. } => "Unexpected",
        ErrorKind::InvalidNumber => "InvalidNumber",
        ErrorKind::ControlCharacter { .. } => "ControlCharacter",
        ErrorKind::InvalidEscape => "InvalidEscape",
        ErrorKind::LoneSurrogate => "LoneSurrogate",
        ErrorKind::TrailingCharacters => "TrailingCharacters",
        ErrorKind::TooDeep { .. } => "TooDeep",
        ErrorKind::TooLarge { .. } => "TooLarge",
        ErrorKind::InvalidUtf8 => "InvalidUtf8",
        _ => "a kind this test does not know",
    }
}

/// `(file name, bytes)` of every file in `dir`, sorted by name.
fn files(dir: PathBuf) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {dir:?}: {e}"))
        .map(|entry| {
            let path = entry
                .unwrap_or_else(|e| panic!("cannot list {dir:?}: {e}"))
                .path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let bytes =
                std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path:?}: {e}"));
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_test_parsing_file_gets_its_verdict() {
    let Some(dir) = json_test_suite() else { return };
    let (mut n_accepted, mut n_rejected, mut n_implementation) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut rows_seen = vec![false; IMPLEMENTATION_DEFINED.len()];
    for (name, bytes) in files(dir.join("test_parsing")) {
        let result = parse_bytes(&bytes);
        if let Err(error) = &result {
            assert!(
                error.offset() <= bytes.len(),
                "{name}: offset {} beyond the input",
                error.offset()
            );
            assert!(!error.to_string().is_empty(), "{name}: empty message");
        }
        if name.starts_with("y_") {
            match &result {
                Ok(value) => {
                    n_accepted += 1;
                    let written = value.to_string();
                    if parse(&written).as_ref() != Ok(value) {
                        failures.push(format!("{name}: does not survive writing, as {written:?}"));
                    }
                }
                Err(error) => failures.push(format!("{name}: must parse, got: {error}")),
            }
        } else if name.starts_with("n_") {
            match &result {
                Ok(value) => failures.push(format!("{name}: must be refused, parsed as {value}")),
                Err(_) => n_rejected += 1,
            }
        } else if name.starts_with("i_") {
            n_implementation += 1;
            let Some(row) = IMPLEMENTATION_DEFINED
                .iter()
                .position(|(file, ..)| *file == name)
            else {
                failures.push(format!("{name}: no row in IMPLEMENTATION_DEFINED"));
                continue;
            };
            rows_seen[row] = true;
            let decided = match &result {
                Ok(_) => Accept,
                Err(error) => Reject(kind_name(error.kind())),
            };
            let (_, decision, reason) = IMPLEMENTATION_DEFINED[row];
            if decided != decision {
                failures.push(format!(
                    "{name}: decided {decision:?} ({reason}), got {decided:?}"
                ));
            }
        } else {
            failures.push(format!("{name}: neither y_, n_ nor i_"));
        }
    }
    for (seen, (file, ..)) in rows_seen.iter().zip(IMPLEMENTATION_DEFINED) {
        if !seen {
            failures.push(format!("{file}: a row without a file"));
        }
    }
    println!(
        "JSONTestSuite: {n_accepted} y_ parsed, {n_rejected} n_ refused, {n_implementation} i_ \
         decided ({} accepted, {} refused)",
        IMPLEMENTATION_DEFINED
            .iter()
            .filter(|row| row.1 == Accept)
            .count(),
        IMPLEMENTATION_DEFINED
            .iter()
            .filter(|row| row.1 != Accept)
            .count(),
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        n_accepted > 0 && n_rejected > 0,
        "the corpus at {:?} looks empty",
        json_test_suite()
    );
}

#[test]
fn five_hundred_nested_arrays_parse_when_the_limit_allows_them() {
    let Some(dir) = json_test_suite() else { return };
    let bytes = std::fs::read(dir.join("test_parsing/i_structure_500_nested_arrays.json"))
        .unwrap_or_else(|e| panic!("cannot read the 500 nested arrays: {e}"));
    let limits = Limits {
        max_depth: 500,
        ..Limits::default()
    };
    let mut value = parse_bytes_with(&bytes, limits).map_err(|e| e.to_string());
    let mut depth = 0;
    while let Ok(Value::Array(items)) = value {
        depth += 1;
        value = items.into_iter().next().ok_or_else(|| "empty".to_string());
    }
    assert_eq!(depth, 500);
}

#[test]
fn every_test_transform_file_has_its_documented_outcome() {
    let Some(dir) = json_test_suite() else { return };
    let mut failures = Vec::new();
    let mut rows_seen = vec![false; TRANSFORMS.len()];
    for (name, bytes) in files(dir.join("test_transform")) {
        let Some(row) = TRANSFORMS.iter().position(|(file, ..)| *file == name) else {
            failures.push(format!("{name}: no row in TRANSFORMS"));
            continue;
        };
        rows_seen[row] = true;
        let (_, outcome, reason) = TRANSFORMS[row];
        match (parse_bytes(&bytes), outcome) {
            (Ok(value), Written(text, integer)) => {
                if value.to_string() != text {
                    failures.push(format!(
                        "{name}: written as {value}, expected {text} ({reason})"
                    ));
                }
                if let Some(integer) = integer {
                    let first = value
                        .as_array()
                        .and_then(|items| items.first())
                        .and_then(Value::as_i64);
                    if first != integer {
                        failures.push(format!(
                            "{name}: as_i64 {first:?}, expected {integer:?} ({reason})"
                        ));
                    }
                }
            }
            (Err(error), Refused(kind)) if kind_name(error.kind()) == kind => {}
            (got, _) => failures.push(format!(
                "{name}: expected {outcome:?} ({reason}), got {got:?}"
            )),
        }
    }
    for (seen, (file, ..)) in rows_seen.iter().zip(TRANSFORMS) {
        if !seen {
            failures.push(format!("{file}: a row without a file"));
        }
    }
    println!(
        "JSONTestSuite test_transform: {} files, each as documented",
        TRANSFORMS.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
