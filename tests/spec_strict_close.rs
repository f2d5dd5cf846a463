//! Strict forms and open objects (issue #11): an object that declares its fields but leaves
//! the rest open (no `"additionalProperties": false`, the common case in plain JSON Schema)
//! is closed, and the notes name every such object by path, nested ones included; with
//! `close_open_objects: false` the export refuses instead, naming them all. Objects that
//! declare nothing (free-form, maps) cannot be closed without changing their meaning, and
//! keep the `"strict": false` fallback.

use toolgate::json::Value;
use toolgate::spec::{
    check_strict, export_tools_with, load_tools, ExportNote, ExportOptions, ExportRefusal,
    OpenObjects, Provider, StrictProblem, ToolSpec,
};
use toolgate::Gate;

/// Open objects at the root, in a field, in array items, in a definition and in an
/// `anyOf` branch.
const OPEN: &str = r##"[{"name": "search_flights", "description": "Find flights.",
  "input_schema": {"type": "object",
    "properties": {
      "from": {"type": "string"},
      "filters": {"type": "object", "properties": {"max_price": {"type": "integer"}}},
      "legs": {"type": "array", "items": {"type": "object",
                "properties": {"to": {"type": "string"}}, "required": ["to"]}},
      "home": {"$ref": "#/$defs/Address"},
      "pay": {"anyOf": [{"type": "object", "properties": {"card": {"type": "string"}},
                         "required": ["card"]},
                        {"type": "null"}]}},
    "required": ["from"],
    "$defs": {"Address": {"type": "object", "properties": {"city": {"type": "string"}},
                          "required": ["city"]}}}}]"##;

fn specs(text: &str) -> Vec<ToolSpec> {
    load_tools(text).unwrap_or_else(|e| panic!("{e}"))
}

fn expected_paths() -> Vec<String> {
    // The root's objects in declaration order, then each definition's.
    ["", "filters", "legs[]", "pay.anyOf[0]", "$defs.Address"]
        .map(String::from)
        .to_vec()
}

/// Every object schema in `value` says `"additionalProperties": false`.
fn all_closed(value: &Value<'_>) -> bool {
    match value {
        Value::Object(members) => {
            let is_object_schema = members.iter().any(|(k, _)| k == "properties");
            let closed = members
                .iter()
                .any(|(k, v)| k == "additionalProperties" && *v == Value::Bool(false));
            (!is_object_schema || closed) && members.iter().all(|(_, v)| all_closed(v))
        }
        Value::Array(items) => items.iter().all(all_closed),
        _ => true,
    }
}

#[test]
fn a_strict_export_closes_every_open_object_and_names_each() {
    let specs = specs(OPEN);
    assert_eq!(check_strict(&specs[0]), Ok(expected_paths()));
    for provider in [Provider::OpenAiStrict, Provider::ResponsesStrict] {
        let exported = export_tools_with(&specs, provider, ExportOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            exported.notes,
            [ExportNote::Closed(OpenObjects {
                tool: "search_flights".into(),
                paths: expected_paths(),
            })],
            "{provider:?}"
        );
        assert_eq!(
            exported.notes[0].to_string(),
            "search_flights: strict mode requires \"additionalProperties\": false on every \
             object; closed: the arguments object, filters, legs[], pay.anyOf[0], $defs.Address"
        );
        let tool = &exported.tools.as_array().unwrap_or(&[])[0];
        let declaration = tool.get("function").unwrap_or(tool);
        assert_eq!(declaration.get("strict"), Some(&Value::Bool(true)));
        let parameters = declaration.get("parameters").unwrap_or(&Value::Null);
        assert!(all_closed(parameters), "{parameters}");
        // The strict reading is a fixed point: read back and exported again, nothing is
        // left to close, and the JSON is the same.
        let back = specs_of(&exported.tools);
        let again = export_tools_with(&back, provider, ExportOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.tools, exported.tools);
        assert_eq!(again.notes, []);
    }
}

fn specs_of(tools: &Value<'_>) -> Vec<ToolSpec> {
    load_tools(&tools.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn refusing_to_close_names_every_open_object() {
    let specs = specs(OPEN);
    let options = ExportOptions {
        close_open_objects: false,
        ..ExportOptions::default()
    };
    for provider in [Provider::OpenAiStrict, Provider::ResponsesStrict] {
        let refusal = export_tools_with(&specs, provider, options).unwrap_err();
        assert_eq!(
            refusal,
            ExportRefusal::OpenObjects(OpenObjects {
                tool: "search_flights".into(),
                paths: expected_paths(),
            })
        );
        assert_eq!(
            refusal.to_string(),
            "search_flights: strict mode requires \"additionalProperties\": false on every \
             object, and these accept undeclared fields: the arguments object, filters, legs[], \
             pay.anyOf[0], $defs.Address"
        );
    }
    // The option is about strict forms only; the plain forms say the schema as it is.
    for provider in [Provider::OpenAi, Provider::Responses, Provider::Anthropic] {
        let exported =
            export_tools_with(&specs, provider, options).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(exported.notes, []);
        assert_eq!(specs_of(&exported.tools), specs);
    }
}

#[test]
fn objects_that_declare_nothing_keep_the_fallback() {
    let table = [
        (
            r#"{"type": "object", "properties": {"meta": {"type": "object"}}}"#,
            "meta",
        ),
        (
            r#"{"type": "object", "properties": {"labels": {"type": "object",
                "additionalProperties": {"type": "string"}}}, "additionalProperties": false}"#,
            "labels",
        ),
    ];
    for (schema, path) in table {
        let file = format!(r#"[{{"name": "t", "description": "d", "input_schema": {schema}}}]"#);
        let specs = specs(&file);
        let error = check_strict(&specs[0]).unwrap_err();
        assert_eq!(
            (error.path.as_str(), error.problem),
            (path, StrictProblem::OpenObject)
        );
        let exported = export_tools_with(&specs, Provider::OpenAiStrict, ExportOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(exported.notes, [ExportNote::NotStrict(error.clone())]);
        assert_eq!(
            exported.notes[0].to_string(),
            format!("exported with \"strict\": false: {error}")
        );
        let function = exported.tools.as_array().unwrap_or(&[])[0]
            .get("function")
            .cloned()
            .unwrap_or(Value::Null);
        assert_eq!(function.get("strict"), Some(&Value::Bool(false)));
        // The fallback is the plain schema: it reads back as the same spec.
        assert_eq!(specs_of(&exported.tools), specs);
    }
}

#[test]
fn every_call_the_closed_form_allows_the_open_declaration_accepts() {
    let specs = specs(OPEN);
    let gate = Gate::new(specs.clone()).unwrap_or_else(|e| panic!("{e}"));
    let strict = specs_of(
        &export_tools_with(&specs, Provider::OpenAiStrict, ExportOptions::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .tools,
    );
    let strict_gate = Gate::new(strict).unwrap_or_else(|e| panic!("{e}"));
    let calls = [
        r#"{"from":"OSL","filters":null,"legs":null,"home":null,"pay":null}"#,
        r#"{"from":"OSL","filters":{"max_price":null},"legs":[{"to":"CDG"}],"home":{"city":"Oslo"},"pay":{"card":"4242"}}"#,
        r#"{"from":"OSL","filters":{"max_price":300},"legs":[],"home":null,"pay":null}"#,
    ];
    for args in calls {
        let raw = format!(r#"{{"name":"search_flights","arguments":{args}}}"#);
        assert!(
            strict_gate.check_call(&raw).is_ok(),
            "strict form refuses {args}"
        );
        assert!(gate.check_call(&raw).is_ok(), "declaration refuses {args}");
    }
    // The declaration is looser than what the model is shown: it still accepts an extra
    // field, which the closed form (and so a strict-mode model) never sends.
    let extra = r#"{"name":"search_flights","arguments":{"from":"OSL","filters":{"x":1}}}"#;
    assert!(gate.check_call(extra).is_ok());
    assert!(strict_gate.check_call(extra).is_err());
}
