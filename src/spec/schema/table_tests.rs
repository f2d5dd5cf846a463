//! The keyword table's own tests: every keyword it marks enforced refuses a value that
//! breaks it, and is written back by the JSON Schema export.

use crate::spec::Schema;

/// For each keyword the importer enforces: a schema that uses it, and a value that
/// schema refuses only because of that keyword.
fn sample(keyword: &str) -> Option<(&'static str, &'static str)> {
    Some(match keyword {
        "type" => (r#"{"type": "string"}"#, "1"),
        "nullable" => (r#"{"type": "string", "nullable": true}"#, "1"),
        "enum" => (r#"{"enum": [1]}"#, "2"),
        "const" => (r#"{"const": 1}"#, "2"),
        "minimum" => (r#"{"minimum": 1}"#, "0"),
        "maximum" => (r#"{"maximum": 1}"#, "2"),
        "exclusiveMinimum" => (r#"{"exclusiveMinimum": 1}"#, "1"),
        "exclusiveMaximum" => (r#"{"exclusiveMaximum": 1}"#, "1"),
        "multipleOf" => (r#"{"multipleOf": 2}"#, "3"),
        "minLength" => (r#"{"minLength": 1}"#, r#""""#),
        "maxLength" => (r#"{"maxLength": 1}"#, r#""ab""#),
        "pattern" => (r#"{"pattern": "^[A-Z]{3}$"}"#, r#""ab""#),
        "format" => (r#"{"format": "email"}"#, r#""bob at example dot com""#),
        "items" => (r#"{"items": {"type": "null"}}"#, "[1]"),
        "prefixItems" => (r#"{"prefixItems": [{"type": "null"}]}"#, "[1]"),
        "contains" => (r#"{"contains": {"type": "null"}}"#, "[1]"),
        "minContains" => (
            r#"{"contains": {"type": "null"}, "minContains": 2}"#,
            "[null]",
        ),
        "maxContains" => (
            r#"{"contains": {"type": "null"}, "maxContains": 1}"#,
            "[null, null]",
        ),
        "minItems" => (r#"{"minItems": 1}"#, "[]"),
        "maxItems" => (r#"{"maxItems": 1}"#, "[1, 2]"),
        "uniqueItems" => (r#"{"uniqueItems": true}"#, "[1, 1]"),
        "properties" => (r#"{"properties": {"a": {"type": "null"}}}"#, r#"{"a": 1}"#),
        "required" => (r#"{"required": ["a"]}"#, "{}"),
        "minProperties" => (r#"{"minProperties": 1}"#, "{}"),
        "maxProperties" => (r#"{"maxProperties": 1}"#, r#"{"a": 1, "b": 2}"#),
        "additionalProperties" => (r#"{"additionalProperties": false}"#, r#"{"a": 1}"#),
        "propertyNames" => (r#"{"propertyNames": {"maxLength": 2}}"#, r#"{"abc": 1}"#),
        "patternProperties" => (
            r#"{"patternProperties": {"^x-": {"type": "string"}}}"#,
            r#"{"x-a": 1}"#,
        ),
        "anyOf" => (r#"{"anyOf": [{"type": "null"}]}"#, "1"),
        "oneOf" => (r#"{"oneOf": [{"type": "null"}]}"#, "1"),
        "allOf" => (r#"{"allOf": [{"type": "null"}]}"#, "1"),
        "not" => (r#"{"not": {"type": "null"}}"#, "null"),
        "dependentRequired" => (r#"{"dependentRequired": {"a": ["b"]}}"#, r#"{"a": 1}"#),
        "if" | "then" => (
            r#"{"if": {"type": "integer"}, "then": {"minimum": 1}}"#,
            "0",
        ),
        "else" => (
            r#"{"if": {"type": "integer"}, "else": {"type": "null"}}"#,
            "\"a\"",
        ),
        "dependentSchemas" => (
            r#"{"dependentSchemas": {"a": {"required": ["b"]}}}"#,
            r#"{"a": 1}"#,
        ),
        "$ref" => (
            r##"{"$defs": {"a": {"type": "null"}}, "$ref": "#/$defs/a"}"##,
            "1",
        ),
        "$dynamicRef" => (
            r##"{"$defs": {"a": {"$dynamicAnchor": "a", "type": "null"}},
                 "$dynamicRef": "#a"}"##,
            "1",
        ),
        "unevaluatedProperties" => (
            r#"{"properties": {"a": true}, "unevaluatedProperties": false}"#,
            r#"{"a": 1, "b": 2}"#,
        ),
        "unevaluatedItems" => (
            r#"{"prefixItems": [true], "unevaluatedItems": false}"#,
            "[1, 2]",
        ),
        _ => return None,
    })
}

/// Walks the one keyword table: a keyword marked enforced whose schema accepts the value
/// it must refuse would load and be silently ignored.
#[test]
fn every_keyword_the_table_marks_enforced_refuses_its_sample() {
    let mut n_enforced = 0;
    for (keyword, enforced) in super::keyword_table() {
        if !enforced {
            continue;
        }
        n_enforced += 1;
        let (text, refused) = sample(keyword).unwrap_or_else(|| {
            panic!("the table marks '{keyword}' enforced: add an assertion and a sample here")
        });
        let document = crate::json::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let schema = Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{text}: {e}"));
        let value = crate::json::parse(refused).unwrap_or_else(|e| panic!("{refused}: {e}"));
        assert!(
            schema.validate(&value).is_err(),
            "'{keyword}': {text} accepts {refused}"
        );
    }
    // `pattern`, `patternProperties` and `format` are rows of their features.
    let with_features =
        2 * usize::from(cfg!(feature = "pattern")) + usize::from(cfg!(feature = "format"));
    assert_eq!(n_enforced, 38 + with_features);
}

/// The same walk for the export: a keyword the table marks enforced that the JSON
/// Schema export did not write would be checked at the gate and never shown to the
/// model. Each sample is written, named in the text, and reads back as itself.
#[test]
fn every_keyword_the_table_marks_enforced_is_written_by_the_json_schema_export() {
    for (keyword, enforced) in super::keyword_table() {
        if !enforced {
            continue;
        }
        let Some((text, _)) = sample(keyword) else {
            panic!("the table marks '{keyword}' enforced: add a sample here");
        };
        let document = crate::json::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let schema = Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{text}: {e}"));
        let written = schema.to_json_schema();
        // `nullable: true` is written as what it means, a `null` type; a `$dynamicRef`
        // as the `$ref` it resolved to.
        let spelling = match keyword {
            "nullable" => "null",
            "$dynamicRef" => "$ref",
            keyword => keyword,
        };
        assert!(
            written.to_string().contains(&format!("\"{spelling}\"")),
            "'{keyword}' is enforced but the export leaves it out: {text} -> {written}"
        );
        let again = Schema::from_json_schema(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(again, schema, "'{keyword}': {text} -> {written}");
    }
}
