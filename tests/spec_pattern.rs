//! `pattern` enforced: the Rust builder refuses a pattern that does not compile, the
//! importer refuses one by name (lookaround, backreferences), strings are checked whole
//! and in parts, a violation shows the pattern to the model, and exports write it.
#![cfg(feature = "pattern")]

mod support;

use std::borrow::Cow;
use support::parts::accepts;
use toolgate::json::{self, Event};
use toolgate::spec::build::SpecErrorKind;
use toolgate::spec::{LoadError, Schema};
use toolgate::{ToolSpec, Type};

fn schema(text: &str) -> Schema {
    Schema::from_json_schema(&json::parse(text).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn code_spec() -> ToolSpec {
    ToolSpec::new("book", "Books a flight.")
        .required("code", Type::string().pattern("^[A-Z]{3}$"))
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_builder_refuses_a_pattern_that_does_not_compile() {
    for (pattern, message) in [
        (
            "^(?=a)",
            "lookahead (?=...) at character 1 is not supported: it cannot be checked in \
             linear time",
        ),
        (
            "(a",
            "the group '(' at character 0 is never closed with ')'",
        ),
    ] {
        let error = ToolSpec::new("t", "T.")
            .required("s", Type::string().pattern(pattern))
            .build()
            .unwrap_err();
        assert!(
            matches!(error.kind(), SpecErrorKind::BadPattern { pattern: p, .. } if p == pattern),
            "{error:?}"
        );
        assert!(error.to_string().contains(message), "{error}");
    }
    let error = ToolSpec::new("t", "T.")
        .required("n", Type::integer().pattern("^1"))
        .build()
        .unwrap_err();
    assert!(
        matches!(
            error.kind(),
            SpecErrorKind::RuleNeverApplies {
                keyword: "pattern",
                ..
            }
        ),
        "{error:?}"
    );
}

#[test]
fn the_importer_refuses_a_pattern_it_cannot_run_by_name() {
    let document = json::parse(r#"{"properties": {"a": {"pattern": "(a)\\1"}}}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    let error = Schema::from_json_schema(&document).unwrap_err();
    assert!(matches!(error, LoadError::Pattern { .. }), "{error:?}");
    assert_eq!(error.unsupported_keyword(), Some("pattern"));
    assert_eq!(error.path(), "properties.a");
    // Leniently it is listed, skipped, and kept for export.
    let (lenient, skipped) =
        Schema::from_json_schema_lenient(&document).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0].keyword, "pattern");
    assert!(lenient
        .validate(&json::parse(r#"{"a": "ab"}"#).unwrap())
        .is_ok());
    // A pattern that is not ECMA-262 at all is refused even leniently: it is no schema.
    let document = json::parse(r#"{"pattern": 5}"#).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        Schema::from_json_schema(&document),
        Err(LoadError::Invalid { .. })
    ));
}

/// `(args, the violation's text)`.
const TEXTS: &[(&str, &str)] = &[
    (
        r#"{"code": "ab"}"#,
        "code must match the pattern ^[A-Z]{3}$; received \"ab\"",
    ),
    (
        r#"{"code": "ABCD"}"#,
        "code must match the pattern ^[A-Z]{3}$; received \"ABCD\"",
    ),
];

#[test]
fn a_violation_shows_the_pattern() {
    let spec = code_spec();
    for (args, text) in TEXTS {
        let value = json::parse(args).unwrap_or_else(|e| panic!("{e}"));
        let violation = spec.validate(&value).unwrap_err();
        assert_eq!(violation.to_string(), *text, "{args}");
        assert_eq!(violation.rule().label(), "pattern");
    }
    assert!(spec
        .validate(&json::parse(r#"{"code": "OSL"}"#).unwrap())
        .is_ok());
}

#[test]
fn search_semantics_unanchored_unless_the_pattern_anchors() {
    let schema = schema(r#"{"pattern": "es"}"#);
    assert!(schema.validate(&json::parse(r#""test""#).unwrap()).is_ok());
    assert!(schema.validate(&json::parse(r#""tax""#).unwrap()).is_err());
    // Not a string: the rule does not apply.
    assert!(schema.validate(&json::parse("12").unwrap()).is_ok());
}

#[test]
fn a_string_in_parts_is_checked_whole_at_its_end() {
    let schema = schema(r#"{"properties": {"code": {"pattern": "^[A-Z]{3}$"}}}"#);
    let key = Event::Key(Cow::Borrowed("code"));
    let in_parts = |parts: &[Event<'static>]| {
        let mut events = vec![Event::ObjectStart, key.clone(), Event::StringStart];
        events.extend_from_slice(parts);
        events.extend([Event::StringEnd, Event::ObjectEnd]);
        events
    };
    let accepted = in_parts(&[
        Event::StringPart("O"),
        Event::StringChar('S'),
        Event::StringPart("L"),
    ]);
    assert!(accepts(&schema, &accepted));
    let refused = in_parts(&[
        Event::StringPart("O"),
        Event::StringChar('s'),
        Event::StringPart("L"),
    ]);
    assert!(!accepts(&schema, &refused));
    let too_long = in_parts(&[Event::StringPart("OS"), Event::StringPart("LO")]);
    assert!(!accepts(&schema, &too_long));
}

#[test]
fn every_export_writes_the_pattern() {
    let spec = code_spec();
    for provider in toolgate::spec::export::Provider::ALL {
        let tool = toolgate::spec::export::export_tool(&spec, provider)
            .unwrap_or_else(|e| panic!("{provider:?}: {e:?}"));
        let text = tool.to_string();
        assert!(
            text.contains(r#""pattern":"^[A-Z]{3}$""#),
            "{provider:?}: {text}"
        );
    }
}
