//! `patternProperties` enforced: members whose names match a pattern are checked against
//! its type, declared or not; `additionalProperties` applies only to names no field
//! declares and no pattern matches; the unknown-field sentence names the patterns; a
//! pattern toolgate cannot run is refused by name, or skipped with `additionalProperties`
//! by a lenient load; exports write the keyword or refuse it by name.
#![cfg(feature = "pattern")]

use toolgate::json;
use toolgate::spec::{export_tool, LoadError, Provider, Schema};
use toolgate::{Gate, ToolSpec, Type};

fn schema(text: &str) -> Schema {
    Schema::from_json_schema(&json::parse(text).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn verdict(schema: &Schema, args: &str) -> Result<(), String> {
    let value = json::parse(args).unwrap_or_else(|e| panic!("{args}: {e}"));
    schema.validate(&value).map_err(|v| v.to_string())
}

/// Headers: a declared `id`, any number of `x-` names holding strings, nothing else.
const HEADERS: &str = r#"{
    "type": "object",
    "properties": {"id": {"type": "integer"}},
    "patternProperties": {"^x-": {"type": "string", "maxLength": 5}},
    "additionalProperties": false
}"#;

#[test]
fn matching_members_meet_the_patterns_type_and_are_not_unknown() {
    let headers = schema(HEADERS);
    assert_eq!(
        verdict(&headers, r#"{"id": 1, "x-a": "ok", "x-b": ""}"#),
        Ok(())
    );
    assert_eq!(
        verdict(&headers, r#"{"id": 1, "x-a": 7}"#),
        Err("x-a must be a string; received 7".to_string())
    );
    assert_eq!(
        verdict(&headers, r#"{"x-long": "abcdefgh"}"#),
        Err("x-long must be at most 5 characters long; received \"abcdefgh\"".to_string())
    );
    assert_eq!(
        verdict(&headers, r#"{"id": 1, "y": 2}"#),
        Err("unknown field 'y'; allowed fields: id, or names matching ^x-".to_string())
    );
}

#[test]
fn a_declared_field_that_a_pattern_matches_meets_both_types() {
    let both = schema(
        r#"{"properties": {"x-id": {"type": "string"}},
            "patternProperties": {"^x-": {"maxLength": 3}}}"#,
    );
    assert_eq!(verdict(&both, r#"{"x-id": "abc"}"#), Ok(()));
    assert!(verdict(&both, r#"{"x-id": "abcd"}"#).is_err());
    assert!(verdict(&both, r#"{"x-id": 5}"#).is_err());
}

#[test]
fn every_matching_pattern_applies_and_others_are_checked_by_additional_properties() {
    let two = schema(
        r#"{"patternProperties": {"a": {"type": "string"}, "b": {"maxLength": 2}},
            "additionalProperties": {"type": "integer"}}"#,
    );
    assert_eq!(verdict(&two, r#"{"a": "long", "b": "xy", "c": 3}"#), Ok(()));
    // "ab" matches both patterns: a string, and short.
    assert!(verdict(&two, r#"{"ab": "xyz"}"#).is_err());
    assert!(verdict(&two, r#"{"ab": 1}"#).is_err());
    // "c" matches neither: additionalProperties.
    assert_eq!(
        verdict(&two, r#"{"c": "3"}"#),
        Err("c must be an integer; received \"3\"".to_string())
    );
}

#[test]
fn a_required_name_that_a_pattern_matches_is_checked_by_the_pattern_not_refused() {
    let required = schema(
        r#"{"required": ["x-key"], "patternProperties": {"^x-": {"type": "string"}},
            "additionalProperties": false}"#,
    );
    assert_eq!(verdict(&required, r#"{"x-key": "k"}"#), Ok(()));
    assert!(verdict(&required, r#"{"x-key": 1}"#).is_err());
    assert_eq!(
        verdict(&required, "{}"),
        Err("missing required field 'x-key'".to_string())
    );
}

#[test]
fn declared_fields_are_reported_before_pattern_members_and_those_before_others() {
    let ordered = schema(
        r#"{"properties": {"z": {"type": "string"}},
            "patternProperties": {"^p": {"type": "string"}},
            "additionalProperties": {"type": "string"}}"#,
    );
    // In the text: other, pattern, declared; reported: declared first.
    assert_eq!(
        verdict(&ordered, r#"{"o": 1, "p": 2, "z": 3}"#),
        Err("z must be a string; received 3".to_string())
    );
    assert_eq!(
        verdict(&ordered, r#"{"o": 1, "p": 2}"#),
        Err("p must be a string; received 2".to_string())
    );
}

#[test]
fn the_builder_and_the_gate_check_pattern_fields() {
    let spec = ToolSpec::new("tag", "Tag a record.")
        .required(
            "labels",
            Type::object().pattern_field("^[a-z]+$", Type::string()),
        )
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let gate = Gate::new(vec![spec]).unwrap_or_else(|e| panic!("{e}"));
    let ok = r#"{"name":"tag","arguments":{"labels":{"team":"core"}}}"#;
    assert!(gate.check_call(ok).is_ok());
    let bad = r#"{"name":"tag","arguments":{"labels":{"Team":"core"}}}"#;
    assert_eq!(
        gate.check_call(bad).unwrap_err().to_string(),
        "tag rejected: labels has unknown field 'Team'; field names must match ^[a-z]+$."
    );
    let error = ToolSpec::new("t", "T.")
        .required("m", Type::object().pattern_field("(?=a)", Type::string()))
        .build()
        .unwrap_err();
    assert!(error.to_string().contains("lookahead"), "{error}");
}

#[test]
fn a_pattern_toolgate_cannot_run_is_refused_by_name_or_skipped_with_additional_properties() {
    let text = r#"{"patternProperties": {"^(?=x)": {"type": "string"}},
                   "additionalProperties": false}"#;
    let document = json::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let error = Schema::from_json_schema(&document).unwrap_err();
    assert!(
        matches!(
            error,
            LoadError::Pattern {
                keyword: "patternProperties",
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(error.unsupported_keyword(), Some("patternProperties"));
    let (lenient, skipped) =
        Schema::from_json_schema_lenient(&document).unwrap_or_else(|e| panic!("{e}"));
    let keywords: Vec<&str> = skipped.iter().map(|u| u.keyword.as_str()).collect();
    assert_eq!(keywords, ["patternProperties", "additionalProperties"]);
    // Skipping only the patterns would refuse the members they admit.
    assert_eq!(verdict(&lenient, r#"{"xa": 1}"#), Ok(()));
}

#[test]
fn exports_write_pattern_properties_where_the_form_can_carry_it() {
    let written = schema(HEADERS).to_json_schema();
    let again = Schema::from_json_schema(&written).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, schema(HEADERS));
    assert!(
        written
            .to_string()
            .contains(r#""patternProperties":{"^x-":"#),
        "{written}"
    );
    let spec = ToolSpec::new("h", "Headers.")
        .required(
            "headers",
            Type::object().pattern_field("^x-", Type::string()),
        )
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let strict = export_tool(&spec, Provider::OpenAiStrict);
    assert!(
        format!("{strict:?}").contains("patternProperties"),
        "the strict form must name the keyword it cannot carry: {strict:?}"
    );
}
