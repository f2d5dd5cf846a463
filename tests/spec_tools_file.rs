//! Declaration files: the corpus's tools.json, every provider's form with what real files
//! carry (extra keys, nulls, snake_case, Gemini's dialect), and generator-shaped schemas.
#![cfg(feature = "format")]

mod support;

use support::corpus::{corpus, read};
use toolgate::json::parse;
use toolgate::spec::{load_tools, ToolSpec};
use toolgate::Type;

fn load(text: &str) -> Vec<ToolSpec> {
    load_tools(text).unwrap_or_else(|e| panic!("{e}\nin {text}"))
}

fn accepts(spec: &ToolSpec, args: &str) -> bool {
    let value = parse(args).unwrap_or_else(|e| panic!("{args}: {e}"));
    spec.validate(&value).is_ok()
}

fn built(spec: toolgate::spec::build::ToolSpecBuilder) -> ToolSpec {
    spec.build().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_corpus_tools_file_loads() {
    let Some(dir) = corpus() else { return };
    let text = read(&dir, "tools.json");
    let specs = load(&text);
    let names: Vec<&str> = specs.iter().map(ToolSpec::name).collect();
    assert_eq!(
        names,
        [
            "search_orders",
            "get_shipment",
            "issue_refund",
            "lookup_policy",
            "update_address",
            "send_email"
        ]
    );
    let search = &specs[0];
    assert!(accepts(
        search,
        r#"{"customer_id":"CUS-102938","filters":{"limit":100}}"#
    ));
    assert!(!accepts(
        search,
        r#"{"customer_id":"CUS-102938","filters":{"limit":101}}"#
    ));
    assert!(!accepts(
        search,
        r#"{"customer_id":"CUS-102938","customerid":"x"}"#
    ));
    assert!(!accepts(search, r#"{"customer_id":"CU"}"#), "minLength 3");
    // lookup_policy declares no additionalProperties: JSON Schema leaves it open.
    let policy = specs
        .iter()
        .find(|s| s.name() == "lookup_policy")
        .expect("lookup_policy");
    assert!(accepts(policy, r#"{"topic": "returns"}"#));
    assert!(accepts(
        policy,
        r#"{"topic": "returns", "an_undeclared_field": 1}"#
    ));
    assert!(!accepts(policy, r#"{"topic": ""}"#), "minLength 1");
    // Every spec exports and reads back as itself.
    for provider in toolgate::spec::Provider::ALL {
        if matches!(
            provider,
            toolgate::spec::Provider::OpenAiStrict | toolgate::spec::Provider::ResponsesStrict
        ) {
            continue;
        }
        let exported = toolgate::spec::export_tools(&specs, provider)
            .unwrap_or_else(|e| panic!("{e}"))
            .to_string();
        assert_eq!(load(&exported), specs, "{}", provider.label());
    }
}

#[test]
fn every_provider_form_loads_with_what_real_files_carry() {
    let file = r#"[
      {"name": "anthropic_tool", "description": "A.", "cache_control": {"type": "ephemeral"},
       "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                        "required": ["city"], "additionalProperties": false}},
      {"type": "custom", "name": "anthropic_custom", "description": null,
       "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                        "required": ["city"], "additionalProperties": false}},
      {"type": "function", "function": {"name": "openai_tool", "description": "A.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                       "required": ["city"], "additionalProperties": false},
        "strict": null}},
      {"type": "function", "name": "responses_tool", "description": "A.", "strict": false,
       "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                      "required": ["city"], "additionalProperties": false}},
      {"name": "mcp_tool", "title": "MCP", "description": "A.",
       "annotations": {"readOnlyHint": true}, "outputSchema": {"type": "object", "pattern": "x"},
       "_meta": {"k": 1}, "icons": null,
       "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                       "required": ["city"], "additionalProperties": false}},
      {"name": "mcp_snake", "description": "A.",
       "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                        "required": ["city"], "additionalProperties": false}},
      {"functionDeclarations": [
        {"name": "gemini_tool", "description": "A.",
         "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}},
                        "required": ["city"], "additionalProperties": false}}]},
      {"function_declarations": [
        {"name": "gemini_snake", "description": "A.", "response": null,
         "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}},
                        "required": ["city"], "additional_properties": false}}]}
    ]"#;
    let specs = load(file);
    let names: Vec<&str> = specs.iter().map(ToolSpec::name).collect();
    assert_eq!(
        names,
        [
            "anthropic_tool",
            "anthropic_custom",
            "openai_tool",
            "responses_tool",
            "mcp_tool",
            "mcp_snake",
            "gemini_tool",
            "gemini_snake"
        ]
    );
    // Every one is the same contract as the one written in Rust.
    for spec in &specs {
        let description = if spec.name() == "anthropic_custom" {
            ""
        } else {
            "A."
        };
        let expected =
            built(ToolSpec::new(spec.name(), description).required("city", Type::string()));
        assert_eq!(spec, &expected, "{}", spec.name());
    }
}

#[test]
fn the_file_may_be_a_request_an_mcp_result_or_one_gemini_tool() {
    let tool = r#"{"name": "t", "description": "d", "inputSchema": {"type": "object"}}"#;
    for file in [
        format!(r#"{{"model": "m", "tools": [{tool}], "messages": []}}"#),
        format!(r#"{{"tools": [{tool}], "nextCursor": null}}"#),
        format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"tools": [{tool}]}}}}"#),
        r#"{"functionDeclarations": [{"name": "t", "description": "d", "parameters": {"type": "OBJECT"}}]}"#.to_string(),
    ] {
        let specs = load(&file);
        assert_eq!(specs.len(), 1, "{file}");
        assert_eq!(specs[0].name(), "t");
        assert!(accepts(&specs[0], r#"{"anything": 1}"#), "an object schema without properties is open");
    }
    assert_eq!(load("[]"), Vec::<ToolSpec>::new());
}

#[test]
fn gemini_dialect_reads_as_the_sdks_write_it() {
    let file = r#"[{"functionDeclarations": [{"name": "g", "description": "d",
      "parameters": {"type": "OBJECT", "propertyOrdering": ["q", "n", "m", "level", "tags"],
        "properties": {
          "q": {"type": "STRING", "nullable": true, "maxLength": "10", "minLength": 1.0,
                "example": "x", "title": "Q", "default": null, "anyOf": null},
          "n": {"type": "NUMBER", "minimum": 1.5, "maximum": 2.5, "format": "float"},
          "m": {"type": "INTEGER", "minimum": 1.0, "maximum": 3.0},
          "level": {"type": "INTEGER", "format": "enum", "enum": ["1", "2"]},
          "tags": {"type": "ARRAY", "items": {"type": "STRING", "enum": ["a", "b"]},
                   "max_items": "3", "nullable": true}},
        "required": ["q"]}}]}]"#;
    let specs = load(file);
    let expected = built(
        ToolSpec::new("g", "d")
            .required("q", Type::string().max_length(10).min_length(1).nullable())
            .optional("n", Type::number().min(1.5).max(2.5).format("float"))
            .optional("m", Type::integer().min(1).max(3))
            .optional("level", Type::integer().format("enum").one_of([1, 2]))
            .optional(
                "tags",
                Type::array(Type::string().one_of(["a", "b"]))
                    .max_items(3)
                    .nullable(),
            )
            .open(),
    );
    // Bounds keep the text they were written with ("1.0"); the builder writes integers as
    // integers. The texts differ there, the contracts do not.
    let floats = r#""minimum": 1.0, "maximum": 3.0"#;
    // `example` is kept as written (the builder has no method for it): the same
    // contract, compared without it.
    let plain = file
        .replace(floats, r#""minimum": 1, "maximum": 3"#)
        .replace(r#""example": "x", "#, "");
    assert_eq!(load(&plain)[0], expected);
    assert!(accepts(&specs[0], r#"{"q": "a", "m": 1}"#));
    assert!(accepts(&specs[0], r#"{"q": "a", "m": 3.0}"#));
    assert!(!accepts(&specs[0], r#"{"q": "a", "m": 0}"#));
    assert!(!accepts(&specs[0], r#"{"q": "a", "m": 4}"#));
    assert!(accepts(
        &specs[0],
        r#"{"q": null, "level": 2, "tags": null}"#
    ));
    assert!(!accepts(&specs[0], r#"{"q": "12345678901"}"#));
    assert!(!accepts(&specs[0], r#"{"q": "a", "level": 3}"#));
    assert!(
        accepts(&specs[0], r#"{"q": "a", "extra": true}"#),
        "OpenAPI objects are open"
    );
}

#[test]
fn a_nullable_enum_in_gemini_also_accepts_null() {
    let specs = load(
        r#"[{"name": "g", "parameters": {"type": "OBJECT", "properties": {
            "unit": {"type": "STRING", "enum": ["c", "f"], "nullable": true}}}}]"#,
    );
    assert!(accepts(&specs[0], r#"{"unit": null}"#));
    assert!(accepts(&specs[0], r#"{"unit": "c"}"#));
    assert!(!accepts(&specs[0], r#"{"unit": "k"}"#));
}

#[test]
fn parameters_json_schema_takes_precedence_over_parameters() {
    for key in ["parametersJsonSchema", "parameters_json_schema"] {
        let file = format!(
            r#"[{{"functionDeclarations": [{{"name": "g", "description": "d",
              "parameters": {{"type": "OBJECT", "properties": {{"n": {{"type": "STRING"}}}}}},
              "{key}": {{"type": "object", "properties": {{"n": {{"type": "integer"}}}},
                         "required": ["n"], "additionalProperties": false}}}}]}}]"#
        );
        let specs = load(&file);
        assert!(accepts(&specs[0], r#"{"n": 5}"#), "{key}");
        assert!(!accepts(&specs[0], r#"{"n": "five"}"#), "{key}");
        // It is JSON Schema, not Gemini's dialect: upper-case names are not read there.
        let upper = file.replace(r#""type": "integer""#, r#""type": "INTEGER""#);
        assert!(load_tools(&upper).is_err(), "{key}");
    }
}

#[test]
fn a_tool_without_parameters_takes_no_arguments() {
    for file in [
        r#"[{"name": "ping", "description": "Is it up?"}]"#,
        r#"[{"functionDeclarations": [{"name": "ping", "description": "Is it up?", "parameters": null}]}]"#,
        r#"[{"type": "function", "function": {"name": "ping", "description": "Is it up?"}}]"#,
        r#"[{"type": "function", "name": "ping", "description": "Is it up?", "parameters": null, "strict": false}]"#,
    ] {
        let specs = load(file);
        assert_eq!(
            specs[0],
            built(ToolSpec::new("ping", "Is it up?")),
            "{file}"
        );
        assert!(accepts(&specs[0], "{}"));
        assert!(!accepts(&specs[0], r#"{"host": "a"}"#));
    }
}

/// Tools as the usual generators write them: pydantic (FastMCP), zod-to-json-schema
/// (draft-07, the TypeScript MCP SDK), zod 4 (draft 2020-12) and an OpenAPI converter.
#[test]
fn schemas_from_the_usual_generators_load_with_everything_enforced() {
    let file = r##"{"tools": [
      {"name": "search_docs", "description": "Search the docs.",
       "inputSchema": {"type": "object", "title": "search_docsArguments",
         "properties": {
           "query": {"title": "Query", "type": "string", "minLength": 1},
           "limit": {"anyOf": [{"type": "integer", "exclusiveMinimum": 0}, {"type": "null"}],
                     "default": null, "title": "Limit"},
           "filters": {"$ref": "#/$defs/Filters"},
           "shape": {"oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}],
                     "discriminator": {"propertyName": "kind",
                       "mapping": {"circle": "#/$defs/Circle", "square": "#/$defs/Square"}}},
           "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
           "meta": {"type": "object", "additionalProperties": {"type": "string"}}},
         "required": ["query"], "additionalProperties": false,
         "$defs": {
           "Filters": {"title": "Filters", "type": "object", "additionalProperties": false,
             "properties": {"lang": {"enum": ["en", "de"], "title": "Lang", "type": "string"},
                            "since": {"format": "date", "type": "string"}}},
           "Circle": {"type": "object", "properties": {"kind": {"const": "circle"},
             "r": {"type": "number"}}, "required": ["kind", "r"]},
           "Square": {"type": "object", "properties": {"kind": {"const": "square"},
             "side": {"type": "number"}}, "required": ["kind", "side"]}}},
       "annotations": {"readOnlyHint": true}},
      {"name": "write_file", "description": "Write a file.",
       "inputSchema": {"type": "object", "properties": {
           "path": {"type": "string", "description": "Where."},
           "content": {"type": "string"},
           "mode": {"type": "string", "enum": ["overwrite", "append"], "default": "overwrite"},
           "headers": {"type": "object", "propertyNames": {"enum": ["a", "b"]},
                       "additionalProperties": {"type": "string"}}},
         "required": ["path", "content"], "additionalProperties": false,
         "$schema": "http://json-schema.org/draft-07/schema#"}},
      {"name": "zod4_tool", "description": "zod 4.",
       "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema",
         "type": "object", "properties": {"n": {"type": "integer", "minimum": -9007199254740991,
           "maximum": 9007199254740991}}, "required": ["n"], "additionalProperties": false}},
      {"name": "get_pet", "description": "From an OpenAPI document.",
       "inputSchema": {"type": "object", "properties": {
           "petId": {"type": "integer", "format": "int64", "example": 10},
           "status": {"type": "string", "enum": ["available", "sold"], "example": "sold",
                      "externalDocs": {"url": "https://example.com"}}},
         "required": ["petId"]}}
    ]}"##;
    let specs = load(file);
    assert_eq!(specs.len(), 4);
    let search = &specs[0];
    assert!(accepts(
        search,
        r#"{"query": "q", "limit": null, "shape": {"kind": "circle", "r": 1}}"#
    ));
    assert!(
        !accepts(search, r#"{"query": "q", "limit": 0}"#),
        "exclusiveMinimum 0"
    );
    assert!(!accepts(
        search,
        r#"{"query": "q", "filters": {"lang": "fr"}}"#
    ));
    assert!(
        !accepts(search, r#"{"query": "q", "shape": {"kind": "circle"}}"#),
        "oneOf"
    );
    assert!(
        !accepts(search, r#"{"query": "q", "tags": ["a", "a"]}"#),
        "uniqueItems"
    );
    assert!(
        !accepts(search, r#"{"query": "q", "meta": {"k": 1}}"#),
        "map values"
    );
    let write = &specs[1];
    assert!(accepts(
        write,
        r#"{"path": "p", "content": "c", "headers": {"a": "x"}}"#
    ));
    assert!(
        !accepts(
            write,
            r#"{"path": "p", "content": "c", "headers": {"c": "x"}}"#
        ),
        "propertyNames"
    );
    assert!(!accepts(&specs[2], r#"{"n": 9007199254740992}"#));
    assert!(
        accepts(&specs[3], r#"{"petId": 10, "other": true}"#),
        "no additionalProperties: open"
    );
}

#[test]
fn gemini_references_and_snake_case_read_as_json_schema_does() {
    let gemini = load(
        r##"[{"name": "adopt", "description": "d", "parameters": {"type": "OBJECT",
            "properties": {"pet": {"ref": "#/defs/Pet"},
                           "tag": {"any_of": [{"type": "STRING"}, {"type": "INTEGER"}]}},
            "required": ["pet"],
            "defs": {"Pet": {"type": "OBJECT", "properties": {"name": {"type": "STRING",
                     "min_length": "1"}}, "required": ["name"], "additional_properties": false}}}}]"##,
    );
    let json_schema = load(
        r##"[{"name": "adopt", "description": "d", "input_schema": {"type": "object",
            "properties": {"pet": {"$ref": "#/$defs/Pet"},
                           "tag": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
            "required": ["pet"],
            "$defs": {"Pet": {"type": "object", "properties": {"name": {"type": "string",
                      "minLength": 1}}, "required": ["name"], "additionalProperties": false}}}}]"##,
    );
    assert_eq!(gemini, json_schema);
    assert!(!accepts(&gemini[0], r#"{"pet": {"name": ""}}"#));
    // References have no Gemini `parameters` spelling here: the export uses
    // `parametersJsonSchema`, and reads back the same.
    let exported = toolgate::spec::export_tools(&gemini, toolgate::spec::Provider::Gemini)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(exported.to_string().contains(r#""parametersJsonSchema":"#));
    assert_eq!(load(&exported.to_string()), gemini);
}
