//! Strict mode's `null` (issue #11): a `null` for an optional field whose schema refuses it
//! is "not given". Validation accepts it, at any depth, and the tool receives the arguments
//! without it; a required field's `null`, a `null` the field's schema accepts, and a field
//! declared `false` are untouched by the rule.
#![cfg(feature = "turns")]

use std::sync::{Arc, Mutex};
use toolgate::json::{self, Value};
use toolgate::spec::Schema;
use toolgate::{Gate, Outcome, Registry, ToolSpec, Type};

/// The issue's tool: a strict-mode model sends `"date": null` when it means no date.
fn flights() -> ToolSpec {
    ToolSpec::new("search_flights", "Find flights.")
        .required("from", Type::string())
        .optional("date", Type::string())
        .optional("seats", Type::integer().min(1).max(9))
        .optional("class", Type::string().one_of(["economy", "business"]))
        .optional("note", Type::string().nullable())
        .optional(
            "return",
            Type::object()
                .required("date", Type::string())
                .optional("flexible", Type::boolean()),
        )
        .optional(
            "legs",
            Type::array(
                Type::object()
                    .required("to", Type::string())
                    .optional("via", Type::string()),
            ),
        )
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A registry whose one handler records the arguments it was given, as JSON.
fn recording(spec: ToolSpec) -> (Registry, Arc<Mutex<Vec<String>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let mut registry = Registry::new();
    registry
        .register(spec, move |args| {
            log.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(args.to_string());
            Ok("ok".into())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    (registry, seen)
}

/// One `(arguments, what the tool receives or the rejection text)` row.
fn check(registry: &Registry, seen: &Mutex<Vec<String>>, args: &str, expect: &str) {
    let raw = format!(r#"{{"name":"search_flights","arguments":{args}}}"#);
    let outcome = registry.handle_tool_call_or_decline(&raw, |_| None);
    let got = match &outcome {
        Outcome::Dispatched { .. } => seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default(),
        other => other.text(),
    };
    assert_eq!(got, expect, "{args}");
    // The check-only path gives the same verdict and the same arguments.
    match registry.gate().check_call(&raw) {
        Ok(call) => assert_eq!(call.args.to_string(), expect, "{args}"),
        Err(rejection) => assert_eq!(rejection.to_string(), expect, "{args}"),
    }
}

#[test]
fn a_null_for_an_optional_field_is_absent_and_the_tool_never_sees_it() {
    let (registry, seen) = recording(flights());
    let table = [
        // The issue's call, refused before issue #11.
        (r#"{"from":"OSL","date":null}"#, r#"{"from":"OSL"}"#),
        // Every optional field left out the strict way.
        (
            r#"{"from":"OSL","date":null,"seats":null,"class":null,"return":null,"legs":null}"#,
            r#"{"from":"OSL"}"#,
        ),
        // Nested objects and array items: the rule holds at every object.
        (
            r#"{"from":"OSL","return":{"date":"2026-05-01","flexible":null}}"#,
            r#"{"from":"OSL","return":{"date":"2026-05-01"}}"#,
        ),
        (
            r#"{"from":"OSL","legs":[{"to":"CDG","via":null},{"to":"LIS","via":"MAD"}]}"#,
            r#"{"from":"OSL","legs":[{"to":"CDG"},{"to":"LIS","via":"MAD"}]}"#,
        ),
        // A field whose schema accepts null receives its null: it is a value there.
        (
            r#"{"from":"OSL","note":null,"date":null}"#,
            r#"{"from":"OSL","note":null}"#,
        ),
        // Given values are untouched.
        (
            r#"{"from":"OSL","date":"2026-05-01","seats":2}"#,
            r#"{"from":"OSL","date":"2026-05-01","seats":2}"#,
        ),
        // A required field's null is still refused, at the root and nested.
        (
            r#"{"from":null}"#,
            "search_flights rejected: from must be a string; received null.",
        ),
        (
            r#"{"from":"OSL","return":{"date":null}}"#,
            "search_flights rejected: return.date must be a string; received null.",
        ),
        // The rule is about null only: a wrong value is still wrong.
        (
            r#"{"from":"OSL","date":null,"seats":0}"#,
            "search_flights rejected: seats must be an integer from 1 to 9; received 0.",
        ),
        // An undeclared field is not optional: its null is an unknown field.
        (
            r#"{"from":"OSL","gate":null}"#,
            "search_flights rejected: unknown field 'gate'; allowed fields: from, date, seats, \
             class, note, return, legs.",
        ),
    ];
    for (args, expect) in table {
        check(&registry, &seen, args, expect);
    }
}

fn schema(text: &str) -> Schema {
    let value = json::parse(text).unwrap_or_else(|e| panic!("{e}"));
    Schema::from_json_schema(&value).unwrap_or_else(|e| panic!("{e}"))
}

/// Validates `args`; on success returns them with the absent nulls removed.
fn read(schema: &Schema, args: &str) -> Result<String, String> {
    let mut value: Value<'_> = json::parse(args).unwrap_or_else(|e| panic!("{e}"));
    schema.validate(&value).map_err(|v| v.to_string())?;
    schema.remove_absent_nulls(&mut value);
    Ok(value.to_string())
}

#[test]
fn the_rule_follows_references_and_the_alternative_that_matched() {
    let schema = schema(
        r##"{"type": "object", "properties": {
              "home": {"$ref": "#/$defs/Address"},
              "contact": {"anyOf": [
                  {"type": "object", "properties": {"email": {"type": "string"},
                     "name": {"type": "string"}}, "required": ["email"],
                   "additionalProperties": false},
                  {"type": "object", "properties": {"phone": {"type": "string"},
                     "name": {"type": "string"}}, "required": ["phone"],
                   "additionalProperties": false}]},
              "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}},
              "gone": false},
            "additionalProperties": false,
            "$defs": {
              "Address": {"type": "object", "properties": {"street": {"type": "string"},
                 "zip": {"type": "string"}}, "required": ["street"],
               "additionalProperties": false},
              "Tag": {"type": "object", "properties": {"label": {"type": "string"},
                 "colour": {"enum": ["red", "blue"]}}, "required": ["label"]}}}"##,
    );
    let table: [(&str, Result<&str, &str>); 7] = [
        (
            r#"{"home":{"street":"Main 1","zip":null}}"#,
            Ok(r#"{"home":{"street":"Main 1"}}"#),
        ),
        (
            r#"{"contact":{"phone":"123","name":null}}"#,
            Ok(r#"{"contact":{"phone":"123"}}"#),
        ),
        (
            r#"{"contact":{"email":"a@b","name":null}}"#,
            Ok(r#"{"contact":{"email":"a@b"}}"#),
        ),
        (
            r#"{"tags":[{"label":"x","colour":null},{"label":"y","colour":"red"}]}"#,
            Ok(r#"{"tags":[{"label":"x"},{"label":"y","colour":"red"}]}"#),
        ),
        (r#"{"home":null}"#, Ok("{}")),
        // A field declared `false` is declared to be forbidden: its null is not "not given".
        (
            r#"{"gone":null}"#,
            Err("gone is not allowed; received null"),
        ),
        (
            r#"{"home":{"street":null}}"#,
            Err("home.street must be a string; received null"),
        ),
    ];
    for (args, expect) in table {
        let got = read(&schema, args);
        assert_eq!(got.as_deref().map_err(String::as_str), expect, "{args}");
    }
}

#[test]
fn whole_turns_hand_the_tool_the_same_arguments() {
    let gate = Gate::new(vec![flights()]).unwrap_or_else(|e| panic!("{e}"));
    let turn = gate
        .check_turn(
            r#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
               "function":{"name":"search_flights","arguments":"{\"from\":\"OSL\",\"date\":null}"}}]}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let call = turn.calls[0]
        .verdict
        .as_ref()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(call.args.to_string(), r#"{"from":"OSL"}"#);
}
