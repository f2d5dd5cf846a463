//! `unevaluatedProperties` and `unevaluatedItems` (issue #11): what each subschema
//! evaluates, which subschemas count (only those that match), the sentence a model reads,
//! where the rule ranks, lenient loads, the export, and the nesting limit.
#![cfg(all(feature = "pattern", feature = "format"))]

use toolgate::json::parse;
use toolgate::spec::{Rule, Schema};

fn schema(text: &str) -> Schema {
    let value = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Schema::from_json_schema(&value).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// `Ok` or the violation's sentence, for each value against the schema `text`.
fn verdicts(text: &str, values: &[&str]) -> Vec<Result<(), String>> {
    let schema = schema(text);
    values
        .iter()
        .map(|value| {
            let data = parse(value).unwrap_or_else(|e| panic!("{value}: {e}"));
            schema.validate(&data).map_err(|v| v.to_string())
        })
        .collect()
}

fn refused(text: &str) -> Result<(), String> {
    Err(text.to_string())
}

#[test]
fn members_no_subschema_evaluated_are_judged() {
    // `properties` here and in a matching `anyOf` branch evaluate; a failing branch does
    // not, so what it declares is judged.
    let text = r#"{"type": "object", "properties": {"id": {"type": "string"}},
        "anyOf": [{"properties": {"kind": {"const": "user"}, "name": {}}, "required": ["kind"]},
                  {"properties": {"kind": {"const": "team"}, "size": {}}, "required": ["kind"]}],
        "unevaluatedProperties": false}"#;
    assert_eq!(
        verdicts(
            text,
            &[
                r#"{"id": "a", "kind": "user", "name": "Ann"}"#,
                r#"{"kind": "team", "size": 3}"#,
                r#"{"kind": "team", "name": "Ann"}"#,
                r#"{"id": "a", "kind": "user", "extra": 1}"#,
            ]
        ),
        [
            Ok(()),
            Ok(()),
            refused(r#"name is not allowed; received "Ann""#),
            refused("extra is not allowed; received 1"),
        ]
    );
}

#[test]
fn a_schema_judges_each_unevaluated_member_with_its_own_violation_and_path() {
    let text = r#"{"type": "object", "properties": {"address": {"type": "object",
        "properties": {"city": {"type": "string"}},
        "patternProperties": {"^x-": {}},
        "unevaluatedProperties": {"type": "string", "maxLength": 2}}}}"#;
    assert_eq!(
        verdicts(
            text,
            &[
                r#"{"address": {"city": "Paris", "x-note": 5, "country": "FR"}}"#,
                r#"{"address": {"city": "Paris", "country": "France"}}"#,
                r#"{"address": {"zip": 75001}}"#,
            ]
        ),
        [
            Ok(()),
            refused(r#"address.country must be at most 2 characters long; received "France""#),
            refused("address.zip must be a string; received 75001"),
        ]
    );
}

#[test]
fn every_other_rule_of_the_schema_ranks_first() {
    // The `allOf` branch fails on `a`; that is reported, not the unevaluated `b`, however
    // the members are ordered.
    let text = r#"{"allOf": [{"properties": {"a": {"type": "string"}}}],
        "unevaluatedProperties": false}"#;
    assert_eq!(
        verdicts(text, &[r#"{"b": 1, "a": 1}"#, r#"{"a": "x", "b": 1}"#]),
        [
            refused("a must be a string; received 1"),
            refused("b is not allowed; received 1"),
        ]
    );
}

#[test]
fn what_evaluates_and_what_does_not() {
    // `additionalProperties: true` evaluates every member it applies to; absent, none.
    assert_eq!(
        verdicts(
            r#"{"allOf": [{"additionalProperties": true}], "unevaluatedProperties": false}"#,
            &[r#"{"x": 1}"#]
        ),
        [Ok(())]
    );
    assert_eq!(
        verdicts(
            r#"{"allOf": [{"properties": {}}], "unevaluatedProperties": false}"#,
            &[r#"{"x": 1}"#]
        ),
        [refused("x is not allowed; received 1")]
    );
    // A name only `required` lists is not evaluated: `required` asserts presence only.
    assert_eq!(
        verdicts(
            r#"{"required": ["n"], "unevaluatedProperties": {"type": "string"}}"#,
            &[r#"{"n": "x"}"#, r#"{"n": 1}"#]
        ),
        [Ok(()), refused("n must be a string; received 1")]
    );
    // A matching `if` evaluates, and so does the branch it picks; `dependentSchemas` when
    // its member is given; `not` never.
    let text = r#"{"if": {"properties": {"t": {"const": 1}}, "required": ["t"]},
        "then": {"properties": {"one": {}}}, "else": {"properties": {"other": {}}},
        "dependentSchemas": {"d": {"properties": {"e": {}}}},
        "not": {"properties": {"z": {}}, "required": ["z"]},
        "unevaluatedProperties": false}"#;
    assert_eq!(
        verdicts(
            text,
            &[
                r#"{"t": 1, "one": 0}"#,
                r#"{"other": 0}"#,
                r#"{"t": 1, "other": 0}"#,
                r#"{"other": 0, "d": 1, "e": 2}"#,
                r#"{"other": 0, "e": 2}"#,
            ]
        ),
        [
            Ok(()),
            Ok(()),
            refused("other is not allowed; received 0"),
            refused("d is not allowed; received 1"),
            refused("e is not allowed; received 2"),
        ]
    );
    // A nested `unevaluatedProperties` in a matching branch evaluates every member.
    assert_eq!(
        verdicts(
            r#"{"anyOf": [{"unevaluatedProperties": true}], "unevaluatedProperties": false}"#,
            &[r#"{"x": 1}"#]
        ),
        [Ok(())]
    );
}

#[test]
fn items_prefix_items_and_contains_evaluate_items() {
    let text = r#"{"prefixItems": [{"type": "string"}], "contains": {"type": "integer"},
        "unevaluatedItems": {"type": "null"}}"#;
    assert_eq!(
        verdicts(
            text,
            &[r#"["a", 1, null, 2]"#, r#"["a", 1, true]"#, r#"["a", 1]"#]
        ),
        [Ok(()), refused("2 must be null; received true"), Ok(()),]
    );
    assert_eq!(
        verdicts(
            r#"{"anyOf": [{"items": true}, {"prefixItems": [true]}], "unevaluatedItems": false}"#,
            &["[1, 2]"]
        ),
        [Ok(())]
    );
    assert_eq!(
        verdicts(
            r#"{"allOf": [{"prefixItems": [true]}], "unevaluatedItems": false}"#,
            &["[1, 2]"]
        ),
        [refused("1 is not allowed; received 2")]
    );
}

#[test]
fn a_lenient_load_skips_the_rule_when_it_skipped_what_evaluates() {
    // The pattern (a lookahead) cannot run: `patternProperties` is skipped, and with it the
    // `unevaluatedProperties` that would refuse the members it evaluates.
    let text = r#"{"patternProperties": {"^(?=x)": {}}, "unevaluatedProperties": false}"#;
    let value = parse(text).unwrap_or_else(|e| panic!("{e}"));
    let (loaded, skipped) =
        Schema::from_json_schema_lenient(&value).unwrap_or_else(|e| panic!("{e}"));
    let skipped: Vec<&str> = skipped.iter().map(|u| u.keyword.as_str()).collect();
    assert_eq!(skipped, ["patternProperties", "unevaluatedProperties"]);
    let data = parse(r#"{"xa": 1}"#).unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.validate(&data).is_ok());
    // Nothing skipped: enforced.
    let text = r#"{"patternProperties": {"^x": {}}, "unevaluatedProperties": false}"#;
    let value = parse(text).unwrap_or_else(|e| panic!("{e}"));
    let (loaded, skipped) =
        Schema::from_json_schema_lenient(&value).unwrap_or_else(|e| panic!("{e}"));
    assert!(skipped.is_empty());
    let data = parse(r#"{"xa": 1, "b": 2}"#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        loaded.validate(&data).map_err(|v| v.to_string()),
        refused("b is not allowed; received 2")
    );
}

#[test]
fn the_json_schema_export_writes_what_the_rule_reads() {
    // `additionalProperties: true` and a name only `required` lists mean something beside
    // `unevaluatedProperties`: written as they were, and read back as the same schema.
    let text = r#"{"required": ["n"], "allOf": [{"additionalProperties": true}],
        "unevaluatedProperties": false, "properties": {"l": {"unevaluatedItems": false}}}"#;
    let loaded = schema(text);
    let written = loaded.to_json_schema();
    let out = written.to_string();
    for part in [
        r#""additionalProperties":true"#,
        r#""unevaluatedProperties":false"#,
        r#""unevaluatedItems":false"#,
        r#""required":["n"]"#,
    ] {
        assert!(out.contains(part), "{part} missing from {out}");
    }
    assert!(!out.contains(r#""n":"#), "{out}");
    assert_eq!(Schema::from_json_schema(&written), Ok(loaded));
}

#[test]
fn judgments_inside_judgments_stop_at_a_limit() {
    // Each level holds a judgment, and judging it asks whether the level below matches,
    // which holds a judgment of its own: one level deeper each time, and the work doubles
    // with each level. The value is refused as too complex (at the nesting limit or the
    // step budget, whichever comes first), never accepted unchecked, and nothing
    // overflows.
    let nested = |levels: usize| {
        let mut text = String::from(r#"{"properties": {"x": {}}}"#);
        for _ in 0..levels {
            text = format!(r#"{{"anyOf": [{text}], "unevaluatedProperties": false}}"#);
        }
        text
    };
    let deep = schema(&nested(40));
    let data = parse(r#"{"x": 1}"#).unwrap_or_else(|e| panic!("{e}"));
    let violation = deep.validate(&data).unwrap_err();
    assert!(
        matches!(violation.rule(), Rule::TooComplex { .. }),
        "{violation}"
    );
    // A few levels are judged as usual.
    assert_eq!(
        verdicts(&nested(3), &[r#"{"x": 1}"#, r#"{"y": 1}"#]),
        [Ok(()), refused("y is not allowed; received 1")]
    );
}
