//! A build without the `pattern` or `format` feature refuses the keywords those features
//! enforce, at load and by name, with the feature that enforces them: a rule is never
//! silently dropped because the build left its checker out. Run with
//! `cargo test --no-default-features`; the default build has every feature, and these
//! tests are not compiled in it.
#![cfg(any(not(feature = "pattern"), not(feature = "format")))]

use toolgate::json;
use toolgate::spec::{LoadError, Schema};

/// Loads `schema` strictly and leniently: the strict load's error text must be `expect`,
/// and the lenient load must list the same keyword, at the same place, as not enforced.
fn check(schema: &str, expect: &str) {
    let document = json::parse(schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
    let error = Schema::from_json_schema(&document).unwrap_err();
    assert_eq!(error.to_string(), expect, "{schema}");
    let LoadError::Unsupported { path, keyword } = &error else {
        panic!("{schema}: {error:?} is not Unsupported");
    };
    assert_eq!(error.unsupported_keyword(), Some(keyword.as_str()));
    let (_, unenforced) = Schema::from_json_schema_lenient(&document)
        .unwrap_or_else(|e| panic!("{schema}: a lenient load refused: {e}"));
    let listed: Vec<(&str, &str)> = unenforced
        .iter()
        .map(|entry| (entry.path.as_str(), entry.keyword.as_str()))
        .collect();
    assert_eq!(listed, [(path.as_str(), keyword.as_str())], "{schema}");
}

#[cfg(not(feature = "pattern"))]
#[test]
fn without_the_pattern_feature_pattern_keywords_are_refused_by_name() {
    check(
        r#"{"type": "string", "pattern": "^[A-Z]{3}$"}"#,
        "the schema root: 'pattern' is not enforced (this build of toolgate leaves out its \
         'pattern' feature, which enforces it)",
    );
    check(
        r#"{"type": "object", "properties": {"tags": {"type": "object",
            "patternProperties": {"^x-": {"type": "string"}}}}}"#,
        "properties.tags: 'patternProperties' is not enforced (this build of toolgate leaves out its \
         'pattern' feature, which enforces it)",
    );
}

#[cfg(not(feature = "format"))]
#[test]
fn without_the_format_feature_every_format_is_refused_by_name() {
    // A name the checkers would enforce, and one they would keep as an annotation: without
    // the checkers the two cannot be told apart, so both are refused.
    for name in ["date", "float"] {
        check(
            &format!(r#"{{"type": "object", "properties": {{"due": {{"type": "string", "format": "{name}"}}}}}}"#),
            "properties.due: 'format' is not enforced (this build of toolgate leaves out its 'format' \
             feature, which enforces it)",
        );
    }
}

#[cfg(not(feature = "format"))]
#[test]
fn without_the_format_feature_a_tools_file_with_a_format_is_refused() {
    let tools = r#"[{"name": "remind", "description": "Set a reminder.", "input_schema":
        {"type": "object", "properties": {"due": {"type": "string", "format": "date"}}}}]"#;
    let error = toolgate::Gate::from_tools_json(tools).unwrap_err();
    assert_eq!(
        error.to_string(),
        "tools[0].input_schema.properties.due: 'format' is not enforced (this build of \
         toolgate leaves out its 'format' feature, which enforces it)"
    );
}
