//! Export: the exact JSON of a small spec in every provider form, the documented fallbacks
//! (Gemini's `parametersJsonSchema`, strict mode's `"strict": false`), and that every form
//! reads back to the same spec.
#![cfg(feature = "format")]

use toolgate::json::parse;
use toolgate::spec::{
    check_strict, load_tools, ExportError, Provider, Schema, StrictProblem, ToolSpec,
};
use toolgate::Type;

/// The export of specs whose names every provider accepts (so it cannot be refused).
fn export_tools(specs: &[ToolSpec], provider: Provider) -> toolgate::json::Value<'static> {
    toolgate::spec::export_tools(specs, provider).unwrap_or_else(|e| panic!("{e}"))
}

/// One tool whose name every provider accepts (so its export cannot be refused).
fn export_tool(spec: &ToolSpec, provider: Provider) -> toolgate::json::Value<'static> {
    toolgate::spec::export_tool(spec, provider).unwrap_or_else(|e| panic!("{e}"))
}

fn weather() -> ToolSpec {
    ToolSpec::new("get_weather", "Current weather for a city.")
        .required("city", Type::string().describe("City name, e.g. Lyon."))
        .optional("units", Type::string().one_of(["metric", "imperial"]))
        .optional("days", Type::integer().min(1).max(14))
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

const PARAMETERS: &str = r#"{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. Lyon."},"units":{"type":"string","enum":["metric","imperial"]},"days":{"type":"integer","minimum":1,"maximum":14}},"required":["city"],"additionalProperties":false}"#;

const STRICT_PARAMETERS: &str = r#"{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. Lyon."},"units":{"type":["string","null"],"enum":["metric","imperial",null]},"days":{"type":["integer","null"],"minimum":1,"maximum":14}},"required":["city","units","days"],"additionalProperties":false}"#;

const GEMINI_PARAMETERS: &str = r#"{"type":"OBJECT","properties":{"city":{"type":"STRING","description":"City name, e.g. Lyon."},"units":{"type":"STRING","enum":["metric","imperial"]},"days":{"type":"INTEGER","minimum":1,"maximum":14}},"required":["city"],"additionalProperties":false}"#;

fn check(provider: Provider, expected: &str) {
    assert_eq!(
        export_tool(&weather(), provider).to_string(),
        expected,
        "{}",
        provider.label()
    );
}

#[test]
fn every_form_has_exactly_the_keys_its_sdk_declares() {
    let head = r#""name":"get_weather","description":"Current weather for a city.""#;
    check(
        Provider::Anthropic,
        &format!(r#"{{{head},"input_schema":{PARAMETERS}}}"#),
    );
    check(
        Provider::OpenAi,
        &format!(r#"{{"type":"function","function":{{{head},"parameters":{PARAMETERS}}}}}"#),
    );
    check(
        Provider::OpenAiStrict,
        &format!(
            r#"{{"type":"function","function":{{{head},"parameters":{STRICT_PARAMETERS},"strict":true}}}}"#
        ),
    );
    check(
        Provider::Responses,
        &format!(r#"{{"type":"function",{head},"parameters":{PARAMETERS},"strict":false}}"#),
    );
    check(
        Provider::ResponsesStrict,
        &format!(r#"{{"type":"function",{head},"parameters":{STRICT_PARAMETERS},"strict":true}}"#),
    );
    check(
        Provider::Gemini,
        &format!(r#"{{{head},"parameters":{GEMINI_PARAMETERS}}}"#),
    );
    check(
        Provider::Mcp,
        &format!(r#"{{{head},"inputSchema":{PARAMETERS}}}"#),
    );
}

#[test]
fn a_request_tools_array_wraps_gemini_declarations_in_one_tool() {
    let specs = [weather(), weather_named("get_forecast")];
    let gemini = export_tools(&specs, Provider::Gemini).to_string();
    assert!(gemini.starts_with(r#"[{"functionDeclarations":[{"name":"get_weather","#));
    assert_eq!(
        parse(&gemini)
            .ok()
            .and_then(|v| v.as_array().map(<[_]>::len)),
        Some(1)
    );
    let anthropic = export_tools(&specs, Provider::Anthropic);
    assert_eq!(anthropic.as_array().map(<[_]>::len), Some(2));
    assert_eq!(export_tools(&[], Provider::Gemini).to_string(), "[]");
}

fn weather_named(name: &str) -> ToolSpec {
    let json = export_tool(&weather(), Provider::Anthropic)
        .to_string()
        .replace("get_weather", name);
    load_tools(&format!("[{json}]"))
        .unwrap_or_else(|e| panic!("{e}"))
        .remove(0)
}

#[test]
fn what_gemini_parameters_cannot_say_goes_whole_into_parameters_json_schema() {
    let cases = [
        (
            "oneOf",
            Type::exactly_one_of([Type::string(), Type::integer()]),
        ),
        ("const", Type::string().constant("fixed")),
        ("exclusive bound", Type::number().exclusive_min(0)),
        ("multipleOf", Type::number().multiple_of(5)),
        ("uniqueItems", Type::array(Type::string()).unique_items()),
        (
            "two kinds",
            Type::any_of([Type::string()]).nullable().nullable(),
        ),
    ];
    for (what, ty) in cases {
        let spec = ToolSpec::new("t", "d")
            .required("x", ty)
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        let exported = export_tool(&spec, Provider::Gemini);
        let keys: Vec<&str> = exported
            .as_object()
            .map(|m| m.iter().map(|(k, _)| k.as_ref()).collect())
            .unwrap_or_default();
        if what == "two kinds" {
            // anyOf [string, null] is Gemini's: it stays in `parameters`.
            assert_eq!(keys, ["name", "description", "parameters"], "{what}");
        } else {
            assert_eq!(
                keys,
                ["name", "description", "parametersJsonSchema"],
                "{what}"
            );
            assert_eq!(
                exported.get("parametersJsonSchema"),
                Some(&spec.params().to_json_schema()),
                "{what}"
            );
        }
        // Either way it reads back as the same spec.
        let back =
            load_tools(&export_tools(std::slice::from_ref(&spec), Provider::Gemini).to_string());
        assert_eq!(back.as_deref(), Ok(&[spec][..]), "{what}");
    }
}

#[test]
fn gemini_writes_nullable_and_counts_as_its_sdks_do() {
    let spec = ToolSpec::new("t", "d")
        .required("q", Type::string().max_length(10).nullable())
        .optional("unit", Type::string().one_of(["c", "f"]).nullable())
        .optional("level", Type::integer().one_of([1, 2]))
        .optional("tags", Type::array(Type::string()).min_items(1))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        export_tool(&spec, Provider::Gemini).get("parameters").map(ToString::to_string),
        Some(
            r#"{"type":"OBJECT","properties":{"q":{"type":"STRING","nullable":true,"maxLength":"10"},"unit":{"type":"STRING","enum":["c","f"],"nullable":true},"level":{"type":"INTEGER","enum":["1","2"]},"tags":{"type":"ARRAY","minItems":"1","items":{"type":"STRING"}}},"required":["q"],"additionalProperties":false}"#
                .to_string()
        )
    );
}

#[test]
fn strict_mode_falls_back_to_the_plain_form_and_says_why() {
    let cases = [
        // A map cannot be closed without becoming `{}` only (an open object that declares
        // its fields is closed instead: issue #11, tests/spec_strict_close.rs).
        (
            ToolSpec::new("t", "d").optional("labels", Type::object().additional(Type::string())),
            "labels",
            StrictProblem::OpenObject,
            "t: labels has no OpenAI strict form: an object that accepts \
             undeclared fields; strict mode requires \"additionalProperties\": false on every object",
        ),
        (
            ToolSpec::new("t", "d").required("x", Type::string().max_length(3)),
            "x",
            StrictProblem::Keyword("maxLength"),
            "t: x has no OpenAI strict form: 'maxLength', which strict mode does not support",
        ),
        (
            ToolSpec::new("t", "d").optional(
                "filters",
                Type::object().required("tags", Type::array(Type::any())),
            ),
            "filters.tags[]",
            StrictProblem::Untyped,
            "t: filters.tags[] has no OpenAI strict form: a value of any kind; strict mode \
             requires a \"type\" (or \"anyOf\", \"$ref\")",
        ),
        (
            ToolSpec::new("t", "d")
                .required("x", Type::exactly_one_of([Type::string(), Type::integer()])),
            "x",
            StrictProblem::Keyword("oneOf"),
            "t: x has no OpenAI strict form: 'oneOf', which strict mode does not support",
        ),
    ];
    for (builder, path, problem, text) in cases {
        let spec = builder.build().unwrap_or_else(|e| panic!("{e}"));
        let error = check_strict(&spec).unwrap_err();
        assert_eq!(
            error,
            ExportError {
                tool: "t".into(),
                path: path.into(),
                problem
            }
        );
        assert_eq!(error.to_string(), text);
        // The fallback: the exact schema, with `strict: false`.
        let exported = export_tool(&spec, Provider::OpenAiStrict);
        let function = exported.get("function").expect("function");
        assert_eq!(
            function.get("strict").and_then(|v| v.as_bool()),
            Some(false)
        );
        assert_eq!(
            function.get("parameters"),
            Some(&spec.params().to_json_schema())
        );
        let responses = export_tool(&spec, Provider::ResponsesStrict);
        assert_eq!(
            responses.get("strict").and_then(|v| v.as_bool()),
            Some(false)
        );
        // And it reads back as the same spec.
        let back = load_tools(
            &export_tools(std::slice::from_ref(&spec), Provider::OpenAiStrict).to_string(),
        );
        assert_eq!(back.as_deref(), Ok(&[spec][..]));
    }
    assert_eq!(check_strict(&weather()), Ok(Vec::new()));
}

#[test]
fn the_strict_form_reads_back_as_its_own_fixed_point() {
    let spec = weather();
    for provider in [Provider::OpenAiStrict, Provider::ResponsesStrict] {
        let first = export_tools(std::slice::from_ref(&spec), provider);
        let read = load_tools(&first.to_string()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(export_tools(&read, provider), first, "{}", provider.label());
        let strict = &read[0];
        // Every field is now required; an optional one is sent as null when not meant.
        assert!(strict
            .validate(&parse(r#"{"city":"Lyon","units":null,"days":null}"#).unwrap())
            .is_ok());
        assert!(strict
            .validate(&parse(r#"{"city":"Lyon","units":"metric","days":3}"#).unwrap())
            .is_ok());
        assert!(strict
            .validate(&parse(r#"{"city":"Lyon"}"#).unwrap())
            .is_err());
        assert!(strict
            .validate(&parse(r#"{"city":"Lyon","units":"kelvin","days":null}"#).unwrap())
            .is_err());
        assert!(strict
            .validate(&parse(r#"{"city":null,"units":null,"days":null}"#).unwrap())
            .is_err());
        // And the original accepts the same call with those nulls left out.
        assert!(spec.validate(&parse(r#"{"city":"Lyon"}"#).unwrap()).is_ok());
    }
}

#[test]
fn every_plain_form_reads_back_as_the_same_spec() {
    let specs = [
        weather(),
        ToolSpec::new("nested", "Nested objects, maps and alternatives.")
            .required(
                "filters",
                Type::object()
                    .optional("limit", Type::integer().exclusive_min(0).max(100))
                    .optional(
                        "tags",
                        Type::array(Type::string().min_length(1))
                            .max_items(5)
                            .unique_items(),
                    )
                    .open(),
            )
            .optional("labels", Type::object().additional(Type::string()))
            .optional(
                "id",
                Type::any_of([Type::string(), Type::integer()]).nullable(),
            )
            .optional(
                "kind",
                Type::exactly_one_of([Type::null(), Type::boolean()]),
            )
            .optional("ratio", Type::number().multiple_of(0.25).format("float"))
            .build()
            .unwrap_or_else(|e| panic!("{e}")),
        ToolSpec::new("ping", "")
            .build()
            .unwrap_or_else(|e| panic!("{e}")),
    ];
    for provider in Provider::ALL {
        if matches!(provider, Provider::OpenAiStrict | Provider::ResponsesStrict) {
            continue;
        }
        let text = export_tools(&specs, provider).to_string();
        let back =
            load_tools(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", provider.label()));
        assert_eq!(back, specs, "{}", provider.label());
    }
}

#[test]
fn to_json_schema_reads_back_as_the_same_schema() {
    let source = parse(
        r##"{"$defs": {"Node": {"type": "object", "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
              "required": ["value"], "additionalProperties": false},
             "unused": {"pattern": "x"}},
            "type": "object", "properties": {"root": {"$ref": "#/$defs/Node"},
              "self": {"$ref": "#"}, "names": {"propertyNames": {"maxLength": 3}}}}"##,
    )
    .unwrap();
    let schema = Schema::from_json_schema(&source).unwrap_or_else(|e| panic!("{e}"));
    let written = schema.to_json_schema();
    assert_eq!(
        written.to_string(),
        r##"{"$ref":"#/$defs/root","$defs":{"Node":{"type":"object","properties":{"value":{"type":"integer"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["value"],"additionalProperties":false},"root":{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"},"self":{"$ref":"#/$defs/root"},"names":{"properties":{},"propertyNames":{"maxLength":3}}}}}}"##
    );
    assert_eq!(Schema::from_json_schema(&written), Ok(schema));
}

#[test]
fn provider_labels_read_back() {
    for provider in Provider::ALL {
        assert_eq!(Provider::from_label(provider.label()), Some(provider));
    }
    assert_eq!(Provider::from_label("claude"), None);
}
