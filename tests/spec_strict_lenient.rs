//! Keywords a lenient load does not enforce are kept (issue #11): every export writes them
//! back where its form can carry them, so the model is still shown them, and the export
//! loads back (leniently) as the same specs with the same list of what is not enforced.
#![cfg(feature = "pattern")]

use toolgate::spec::{
    check_strict, export_tools, export_tools_with, load_tools, load_tools_lenient, ExportNote,
    ExportOptions, Provider, StrictProblem, ToolSpec,
};

/// A zip code with a `pattern`, an array with `additionalItems` (an older draft's keyword,
/// refused by name), and a `patternProperties`
/// map (whose lookahead toolgate does not run, so the `additionalProperties` beside it is
/// skipped too).
const FILE: &str = r#"[{"name": "lookup_zip", "description": "Find a town.",
  "input_schema": {"type": "object", "properties": {
     "zip": {"type": "string", "pattern": "^(?=[0-9]{5}$)"},
     "tags": {"type": "array", "items": {"type": "string"}, "additionalItems": {"const": "x"}},
     "extra": {"type": "object", "patternProperties": {"^(?=x-)": {"type": "string"}},
               "additionalProperties": false}},
   "required": ["zip"], "additionalProperties": false}}]"#;

/// Only a `pattern`: strict mode and Gemini's dialect can say it.
const ZIP: &str = r#"[{"name": "lookup_zip", "description": "Find a town.",
  "input_schema": {"type": "object", "properties": {
     "zip": {"type": "string", "pattern": "^(?=[0-9]{5}$)"}},
   "required": ["zip"], "additionalProperties": false}}]"#;

fn lenient(text: &str) -> (Vec<ToolSpec>, Vec<String>) {
    let (specs, unenforced) = load_tools_lenient(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let keywords = unenforced.iter().map(|u| u.keyword.clone()).collect();
    (specs, keywords)
}

fn exported(specs: &[ToolSpec], provider: Provider) -> String {
    export_tools(specs, provider)
        .unwrap_or_else(|e| panic!("{e}"))
        .to_string()
}

#[test]
fn every_plain_form_writes_the_unenforced_keywords_back() {
    let (specs, keywords) = lenient(FILE);
    assert_eq!(
        keywords,
        [
            "pattern",
            "additionalItems",
            "patternProperties",
            "additionalProperties"
        ]
    );
    for provider in [
        Provider::Anthropic,
        Provider::OpenAi,
        Provider::Responses,
        Provider::Mcp,
        Provider::Gemini,
    ] {
        let text = exported(&specs, provider);
        for kept in [
            r#""zip":{"type":"string","pattern":"^(?=[0-9]{5}$)"}"#,
            r#""additionalItems":{"const":"x"}"#,
            r#""extra":{"type":"object","patternProperties":{"^(?=x-)":{"type":"string"}},"additionalProperties":false}"#,
        ] {
            assert!(text.contains(kept), "{provider:?} lost {kept}: {text}");
        }
        // Read back leniently: the same specs, and the same keywords said not enforced.
        assert_eq!(
            lenient(&text),
            (specs.clone(), keywords.clone()),
            "{provider:?}"
        );
        // Read back strictly: refused by name, as the original was; nothing is ignored.
        let refused = load_tools(&text).unwrap_err();
        assert_eq!(
            refused.unsupported_keyword(),
            Some("pattern"),
            "{provider:?}"
        );
    }
}

#[test]
fn strict_forms_and_gemini_carry_a_pattern_and_fall_back_for_the_rest() {
    let (zip, _) = lenient(ZIP);
    assert_eq!(check_strict(&zip[0]), Ok(Vec::new()));
    for provider in [Provider::OpenAiStrict, Provider::ResponsesStrict] {
        let text = exported(&zip, provider);
        assert!(text.contains(r#""pattern":"^(?=[0-9]{5}$)""#), "{text}");
        assert!(text.contains(r#""strict":true"#), "{text}");
    }
    let gemini = exported(&zip, Provider::Gemini);
    assert!(
        gemini.contains(
            r#""parameters":{"type":"OBJECT","properties":{"zip":{"type":"STRING","pattern":"^(?=[0-9]{5}$)"}}"#
        ),
        "{gemini}"
    );
    assert_eq!(lenient(&gemini).0, zip);

    let (specs, _) = lenient(FILE);
    let error = check_strict(&specs[0]).unwrap_err();
    assert_eq!(
        (error.path.as_str(), error.problem),
        ("tags", StrictProblem::Keyword("additionalItems"))
    );
    let strict = export_tools_with(&specs, Provider::OpenAiStrict, ExportOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(strict.notes, [ExportNote::NotStrict(error)]);
    assert_eq!(
        strict.notes[0].to_string(),
        "exported with \"strict\": false: lookup_zip: tags has no OpenAI strict form: \
         'additionalItems', which strict mode does not support"
    );
    // Gemini's dialect has no `additionalItems`: the whole schema goes as JSON Schema.
    assert!(exported(&specs, Provider::Gemini).contains("parametersJsonSchema"));
    // A keyword no draft defines is kept too, and strict mode says so.
    let (custom, keywords) = lenient(
        r#"[{"name": "t", "input_schema": {"type": "object", "properties":
            {"n": {"type": "integer", "maxWords": 3}}, "additionalProperties": false}}]"#,
    );
    assert_eq!(keywords, ["maxWords"]);
    assert!(exported(&custom, Provider::Mcp).contains(r#""n":{"type":"integer","maxWords":3}"#));
    assert_eq!(
        check_strict(&custom[0]).unwrap_err().to_string(),
        "t: n has no OpenAI strict form: a keyword no JSON Schema draft defines, which strict \
         mode does not support"
    );
}

#[test]
fn what_cannot_be_carried_is_not_written() {
    // A skipped keyword whose value holds a `$ref` names a place in the source document,
    // which the export does not keep: it is left out (and was never enforced).
    let (specs, keywords) = lenient(
        r##"[{"name": "t", "input_schema": {"type": "object", "properties": {
              "a": {"type": "array", "additionalItems": {"$ref": "#/$defs/Bad"}}},
            "additionalProperties": false, "$defs": {"Bad": {"const": "x"}}}}]"##,
    );
    assert_eq!(keywords, ["additionalItems"]);
    let text = exported(&specs, Provider::Mcp);
    assert!(!text.contains("additionalItems"), "{text}");
    // What draft-07 ignores beside `$ref` is not part of the schema: not written either.
    let (specs, keywords) = lenient(
        r##"[{"name": "t", "input_schema": {"$schema": "http://json-schema.org/draft-07/schema#",
              "type": "object", "properties": {"a": {"$ref": "#/definitions/S", "maxLength": 2}},
              "definitions": {"S": {"type": "string"}}, "additionalProperties": false}}]"##,
    );
    assert_eq!(keywords, ["maxLength"]);
    assert!(!exported(&specs, Provider::Mcp).contains("maxLength"));
}

#[test]
fn a_schema_skipped_whole_is_written_back_whole() {
    let (specs, keywords) = lenient(
        r#"[{"name": "t", "input_schema": {"type": "object", "properties": {
              "doc": {"$schema": "https://example.com/other-dialect", "type": "string",
                      "shape": "round"}}, "additionalProperties": false}}]"#,
    );
    assert_eq!(keywords, ["$schema"]);
    let text = exported(&specs, Provider::Anthropic);
    assert!(
        text.contains(
            r#""doc":{"$schema":"https://example.com/other-dialect","type":"string","shape":"round"}"#
        ),
        "{text}"
    );
    // Nothing of it is enforced: any value passes, as the lenient load said.
    let value = toolgate::json::parse(r#"{"doc": 5}"#).unwrap_or_else(|e| panic!("{e}"));
    assert!(specs[0].validate(&value).is_ok());
    assert_eq!(lenient(&text).0, specs);
}
