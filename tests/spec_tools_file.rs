//! Declaration files: the corpus's tools.json, every provider's form with what real files
//! carry (extra keys, nulls, snake_case, Gemini's dialect), and the exact error texts.

use std::path::PathBuf;
use toolgate::json::parse;
use toolgate::spec::{load_tools, load_tools_lenient, LoadError, ToolSpec, Unenforced};
use toolgate::Type;

/// The corpus folder, or `None` (after one line saying why).
fn corpus() -> Option<PathBuf> {
    match std::env::var_os("TOOLGATE_CORPUS") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            assert!(
                dir.is_dir(),
                "TOOLGATE_CORPUS is set but {dir:?} is not a folder"
            );
            Some(dir)
        }
        None => {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
            if dir.is_dir() {
                Some(dir)
            } else {
                println!("skipped: corpus not found (TOOLGATE_CORPUS unset, {dir:?} absent)");
                None
            }
        }
    }
}

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
    let text = std::fs::read_to_string(dir.join("tools.json")).expect("tools.json");
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
        let exported = toolgate::spec::export_tools(&specs, provider).to_string();
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
    assert_eq!(
        load(&file.replace(floats, r#""minimum": 1, "maximum": 3"#))[0],
        expected
    );
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

/// `(file, the error's text)`.
const LOAD_ERRORS: &[(&str, &str)] = &[
    (
        "[\n  {\"name\": \"x\",\n  ]",
        "not valid JSON: expected a string key after ',' at line 3, column 3, found ']'",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object"}},
            {"name": "b", "input_schema": {"type": "object"}},
            {"name": "c", "input_schema": {"type": "object", "properties": {
              "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}}}]"#,
        "tools[2].input_schema.properties.zip: 'pattern' is not enforced",
    ),
    (
        r#"[{"type": "function", "function": {"name": "f", "parameters": {"type": "object",
            "properties": {"tags": {"type": "array", "items": {"not": {"type": "null"}}}}}}}]"#,
        "tools[0].function.parameters.properties.tags.items: 'not' is not enforced",
    ),
    (
        r#"{"tools": [{"functionDeclarations": [{"name": "a"}, {"name": "b", "parameters":
            {"type": "OBJECT", "properties": {"q": {"type": "STRING", "pattern": "x"}}}}]}]}"#,
        "tools[0].functionDeclarations[1].parameters.properties.q: 'pattern' is not enforced",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "a b": {"type": "object", "if": {"required": ["x"]}}}}}]"#,
        "tools[0].input_schema.properties[\"a b\"]: 'if' is not enforced",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "a": {"$ref": "https://example.com/a.json"}}}}]"#,
        "tools[0].input_schema.properties.a: '$ref' to 'https://example.com/a.json' is not \
         enforced: toolgate follows only references inside this schema ('#', '#/$defs/NAME', \
         '#/definitions/NAME' or another JSON pointer)",
    ),
    (
        r##"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "a": {"$ref": "#/$defs/Adress"}}, "$defs": {"Address": {"type": "string"}}}}]"##,
        "tools[0].input_schema.properties.a: '$ref' to '#/$defs/Adress' points at nothing: no \
         schema stands there",
    ),
    (
        r##"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "a": {"$ref": "#/properties"}}}}]"##,
        "tools[0].input_schema.properties.a: '$ref' to '#/properties' points at something that \
         is not a schema",
    ),
    (
        r##"[{"name": "a", "input_schema": {"type": "object", "$ref": "#/$defs/a",
            "$defs": {"a": {"anyOf": [{"$ref": "#/$defs/b"}]}, "b": {"$ref": "#/$defs/a"}}}}]"##,
        "tools[0].input_schema.$defs.a: '$ref' to '#/$defs/a' leads back to itself without going \
         into the value, so validation would never end",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "s": {"type": "string", "minLength": -1}}}}]"#,
        "tools[0].input_schema.properties.s: 'minLength' must be a non-negative integer; found -1",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "s": {"type": "str"}}}}]"#,
        "tools[0].input_schema.properties.s: 'type' must be a type name (null, boolean, object, \
         array, number, string, integer) or a non-empty array of them; found \"str\"",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "s": {"type": "string", "maxLength": "10"}}}}]"#,
        "tools[0].input_schema.properties.s: 'maxLength' must be a non-negative integer; found \
         \"10\"",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "s": {"type": "string", "nullable": true}}}}]"#,
        "tools[0].input_schema.properties.s: 'nullable' is not enforced (an OpenAPI keyword, not \
         JSON Schema; write \"type\": [\"string\", \"null\"])",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "type": "object"}}]"#,
        "tools[0].input_schema: 'type' must be declared once (two JSON readers may keep \
         different copies); found it twice",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "s": {"$id": "https://example.com/s", "type": "string"}}}}]"#,
        "tools[0].input_schema.properties.s: '$id' is not enforced (below the root, '$id' \
         changes where references point; toolgate resolves them from the root only)",
    ),
    (
        r#"[{"name": "a", "input_schema": {"$schema": "http://json-schema.org/draft-04/schema#",
            "type": "object"}}]"#,
        "tools[0].input_schema: '$schema' is not enforced (toolgate reads draft 2020-12, and \
         draft 2019-09, draft-07 and draft-06, which agree with it on the subset toolgate \
         enforces)",
    ),
    (
        r##"[{"name": "a", "input_schema": {"$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object", "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 3}},
            "definitions": {"s": {"type": "string"}}}}]"##,
        "tools[0].input_schema.properties.a: 'maxLength' beside '$ref' is ignored by draft-07 \
         but applied by draft 2020-12; say which with \"$schema\", or move it into 'allOf'",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "s": {"type": "string", "anyOf": []}}}}]"#,
        "tools[0].input_schema.properties.s: 'anyOf' must be a non-empty array of schemas; found []",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {"s": 5}}}]"#,
        "tools[0].input_schema.properties.s: expected a schema (an object, true or false); found 5",
    ),
    (
        r#"{"foo": 1}"#,
        "the tools file: expected a tools array, or an object with a \"tools\" array; found {\"foo\":1}",
    ),
    (
        r#"[{"description": "no name"}]"#,
        "tools[0]: expected a tool in Anthropic, OpenAI, Responses, MCP or Gemini form (an object \
         with a \"name\"); found {\"description\":\"no name\"}",
    ),
    (
        r#"[{"name": 1, "input_schema": {"type": "object"}}]"#,
        "tools[0].name: expected the tool's name (a string); found 1",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object"}, "parameters": {"type": "object"}}]"#,
        "tools[0]: expected one key declaring the arguments; found both 'input_schema' and \
         'parameters'",
    ),
    (
        r#"[{"name": "a", "name": "b"}]"#,
        "tools[0]: expected each key once (two JSON readers may keep different copies); found \
         \"name\" twice",
    ),
    (
        r#"[{"type": "web_search_20250305", "name": "web_search", "max_uses": 5}]"#,
        "tools[0]: 'web_search_20250305' is a provider's built-in tool; its arguments' schema is \
         not in the file, so its calls cannot be checked (declare it as a function tool, or load \
         leniently to skip it)",
    ),
    (
        r#"[{"functionDeclarations": [], "googleSearch": {}}]"#,
        "tools[0].googleSearch: 'googleSearch' is a provider's built-in tool; its arguments' \
         schema is not in the file, so its calls cannot be checked (declare it as a function \
         tool, or load leniently to skip it)",
    ),
    (
        r#"[{"name": "a"}, {"functionDeclarations": [{"name": "a"}]}]"#,
        "tools[1].functionDeclarations[0]: the tool name 'a' is already declared at tools[0]",
    ),
    (
        r#"[{"name": "get weather", "input_schema": {"type": "object"}}]"#,
        "tools[0]: invalid tool name \"get weather\": a name must be 1 to 64 characters, each a \
         letter, a digit, '_' or '-' (providers require ^[a-zA-Z0-9_-]{1,64}$)",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "string"}}]"#,
        "tools[0]: a: the arguments must be an object, but the schema accepts a string",
    ),
];

#[test]
fn load_errors_say_where_and_what() {
    for (file, expected) in LOAD_ERRORS {
        match load_tools(file) {
            Ok(specs) => panic!("loaded {} tools from {file}", specs.len()),
            Err(error) => assert_eq!(error.to_string(), *expected, "\nfile: {file}"),
        }
    }
}

#[test]
fn errors_carry_their_data() {
    let error = load_tools("[\n {\"name\": }").unwrap_err();
    let syntax = error.syntax().expect("a syntax error");
    assert_eq!((syntax.line(), syntax.column()), (2, 11));
    let error = load_tools(LOAD_ERRORS[1].0).unwrap_err();
    assert_eq!(error.path(), "tools[2].input_schema.properties.zip");
    assert_eq!(error.unsupported_keyword(), Some("pattern"));
    assert!(matches!(error, LoadError::Unsupported { .. }));
}

#[test]
fn lenient_loads_list_what_is_not_enforced() {
    let file = r#"[
      {"name": "a", "input_schema": {"type": "object", "properties": {
        "zip": {"type": "string", "pattern": "^[0-9]{5}$", "maxLength": 5},
        "labels": {"type": "object", "patternProperties": {"^x-": {"type": "string"}},
                   "additionalProperties": false},
        "pair": {"type": "array", "prefixItems": [{"type": "string"}], "items": false}},
        "additionalProperties": false}},
      {"type": "web_search_20250305", "name": "web_search"},
      {"name": "b", "input_schema": {"type": "object", "properties": {
        "n": {"oneOf": [{"type": "string", "pattern": "^a"}, {"type": "string", "maxLength": 3}]}}}}
    ]"#;
    let (specs, unenforced) = load_tools_lenient(file).expect("lenient load");
    let listed: Vec<(String, String)> = unenforced
        .iter()
        .map(|Unenforced { path, keyword }| (path.clone(), keyword.clone()))
        .collect();
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(p, k)| (p.to_string(), k.to_string()))
            .collect()
    };
    assert_eq!(
        listed,
        pairs(&[
            ("tools[0].input_schema.properties.zip", "pattern"),
            (
                "tools[0].input_schema.properties.labels",
                "patternProperties"
            ),
            (
                "tools[0].input_schema.properties.labels",
                "additionalProperties"
            ),
            ("tools[0].input_schema.properties.pair", "prefixItems"),
            ("tools[0].input_schema.properties.pair", "items"),
            ("tools[1]", "web_search_20250305"),
            ("tools[2].input_schema.properties.n.oneOf[0]", "pattern"),
            ("tools[2].input_schema.properties.n", "oneOf"),
        ])
    );
    assert_eq!(
        unenforced[0].to_string(),
        "tools[0].input_schema.properties.zip: 'pattern' is not enforced"
    );
    let names: Vec<&str> = specs.iter().map(ToolSpec::name).collect();
    assert_eq!(names, ["a", "b"]);
    // What is enforced still is; what is not, accepts.
    assert!(
        !accepts(&specs[0], r#"{"zip": "123456"}"#),
        "maxLength still holds"
    );
    assert!(accepts(
        &specs[0],
        r#"{"zip": "abcde", "labels": {"y": 1}, "pair": ["a", 2]}"#
    ));
    assert!(
        !accepts(&specs[0], r#"{"other": 1}"#),
        "the root stays closed"
    );
    // "zz" matches only the second branch of the full oneOf; with the pattern skipped it
    // would match both, so the oneOf is skipped rather than made to refuse it.
    assert!(accepts(&specs[1], r#"{"n": "zz"}"#));
}

#[test]
fn lenient_loads_still_refuse_malformed_schemas() {
    for (file, expected) in [
        (
            r##"[{"name": "a", "input_schema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}}}]"##,
            "tools[0].input_schema.properties.a: '$ref' to '#/$defs/x' points at nothing: no schema stands there",
        ),
        (
            r#"[{"name": "a", "input_schema": {"type": "object", "properties": {"a": {"minimum": "1"}}}}]"#,
            "tools[0].input_schema.properties.a: 'minimum' must be a number; found \"1\"",
        ),
    ] {
        assert_eq!(load_tools_lenient(file).unwrap_err().to_string(), expected);
    }
    let (_, unenforced) = load_tools_lenient(
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {"a": {"$ref": "other.json"}}}}]"#,
    )
    .expect("a remote reference is listed");
    assert_eq!(
        unenforced,
        [Unenforced {
            path: "tools[0].input_schema.properties.a".into(),
            keyword: "$ref".into()
        }]
    );
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
