//! The keywords enforced since the one keyword table (`minProperties`, `maxProperties`):
//! each loads, refuses what it must with one sentence written for a model, and is written
//! back by the exports that can carry it.

use toolgate::json;
use toolgate::spec::Schema;

/// `(schema, value, the violation's text)`.
const TEXTS: &[(&str, &str, &str)] = &[
    (
        r#"{"properties": {"tags": {"minProperties": 1}}}"#,
        r#"{"tags": {}}"#,
        "tags must have at least 1 field; received {}",
    ),
    (
        r#"{"properties": {"tags": {"maxProperties": 2}}}"#,
        r#"{"tags": {"a": 1, "b": 2, "c": 3}}"#,
        "tags must have at most 2 fields; received {\"a\":1,\"b\":2,\"c\":3}",
    ),
    (
        r#"{"properties": {"tags": {"minProperties": 1, "maxProperties": 2}}}"#,
        r#"{"tags": {}}"#,
        "tags must have from 1 to 2 fields; received {}",
    ),
];

#[test]
fn each_new_rule_has_one_sentence_for_the_model() {
    for (schema, value, text) in TEXTS {
        let schema = Schema::from_json_schema(&json::parse(schema).unwrap())
            .unwrap_or_else(|e| panic!("{schema}: {e}"));
        let violation = schema.validate(&json::parse(value).unwrap()).unwrap_err();
        assert_eq!(violation.to_string(), *text, "{value}");
    }
}

#[test]
fn member_counts_accept_what_they_allow_and_ignore_other_kinds() {
    let schema = Schema::from_json_schema(
        &json::parse(r#"{"minProperties": 1, "maxProperties": 2}"#).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    for accepted in [r#"{"a": 1}"#, r#"{"a": 1, "b": 2}"#, "[]", "\"x\"", "3"] {
        assert!(
            schema.validate(&json::parse(accepted).unwrap()).is_ok(),
            "{accepted}"
        );
    }
    for refused in ["{}", r#"{"a": 1, "b": 2, "c": 3}"#] {
        assert!(
            schema.validate(&json::parse(refused).unwrap()).is_err(),
            "{refused}"
        );
    }
}

#[test]
fn exports_write_member_counts_back() {
    let spec = toolgate::ToolSpec::new("t", "T.")
        .required(
            "tags",
            toolgate::Type::object().min_properties(1).max_properties(3),
        )
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    for provider in [
        toolgate::spec::export::Provider::Anthropic,
        toolgate::spec::export::Provider::Mcp,
    ] {
        let text = toolgate::spec::export::export_tool(&spec, provider)
            .unwrap_or_else(|e| panic!("{e:?}"))
            .to_string();
        assert!(
            text.contains(r#""minProperties":1"#) && text.contains(r#""maxProperties":3"#),
            "{text}"
        );
    }
}
