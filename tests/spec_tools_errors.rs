//! Declaration files that do not load: the exact error texts (file positions, tool and
//! schema paths), the data errors carry, and what a lenient load lists instead.
#![cfg(feature = "pattern")]

use toolgate::json::parse;
use toolgate::spec::{load_tools, load_tools_lenient, LoadError, ToolSpec, Unenforced};

fn accepts(spec: &ToolSpec, args: &str) -> bool {
    let value = parse(args).unwrap_or_else(|e| panic!("{args}: {e}"));
    spec.validate(&value).is_ok()
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
              "zip": {"type": "string", "pattern": "^(?=[0-9]{5}$)"}}}}]"#,
        "tools[2].input_schema.properties.zip: pattern \"^(?=[0-9]{5}$)\" is refused: lookahead (?=...) at character 1 is not supported: it cannot be checked in linear time",
    ),
    (
        r#"[{"type": "function", "function": {"name": "f", "parameters": {"type": "object",
            "properties": {"tags": {"type": "array", "items": {"additionalItems": false}}}}}}]"#,
        "tools[0].function.parameters.properties.tags.items: 'additionalItems' is not enforced",
    ),
    (
        r#"{"tools": [{"functionDeclarations": [{"name": "a"}, {"name": "b", "parameters":
            {"type": "OBJECT", "properties": {"q": {"type": "STRING", "pattern": "(?=x)"}}}}]}]}"#,
        "tools[0].functionDeclarations[1].parameters.properties.q: pattern \"(?=x)\" is refused: lookahead (?=...) at character 0 is not supported: it cannot be checked in linear time",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "a b": {"type": "object", "dependencies": {"x": ["y"]}}}}}]"#,
        "tools[0].input_schema.properties[\"a b\"]: 'dependencies' is not enforced",
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
            "s": {"type": "string", "nullable": "yes"}}}}]"#,
        "tools[0].input_schema.properties.s: 'nullable' must be true or false; found \"yes\"",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "type": "object"}}]"#,
        "tools[0].input_schema: 'type' must be declared once (two JSON readers may keep \
         different copies); found it twice",
    ),
    (
        r#"[{"name": "a", "input_schema": {"type": "object", "properties": {
            "s": {"$id": 5, "type": "string"}}}}]"#,
        "tools[0].input_schema.properties.s: '$id' must be a string (a URI); found 5",
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
        // Issue #11: MCP's rule (SEP-986), which every tool name is held to at load.
        "tools[0]: invalid tool name \"get weather\": a name must be 1 to 128 characters, each \
         a letter, a digit, '_', '-' or '.' (the rule of MCP (SEP-986): ^[A-Za-z0-9_.-]{1,128}$)",
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
    assert!(matches!(error, LoadError::Pattern { .. }));
}

#[test]
fn lenient_loads_list_what_is_not_enforced() {
    let file = r#"[
      {"name": "a", "input_schema": {"type": "object", "properties": {
        "zip": {"type": "string", "pattern": "^(?=[0-9]{5}$)", "maxLength": 5},
        "labels": {"type": "object", "patternProperties": {"^(?=x-)": {"type": "string"}},
                   "additionalProperties": false},
        "pair": {"type": "array", "prefixItems": [{"type": "string"}], "additionalItems": false}},
        "additionalProperties": false}},
      {"type": "web_search_20250305", "name": "web_search"},
      {"name": "b", "input_schema": {"type": "object", "properties": {
        "n": {"oneOf": [{"type": "string", "pattern": "^(?=a)"}, {"type": "string", "maxLength": 3}]}}}}
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
            ("tools[0].input_schema.properties.pair", "additionalItems"),
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
