//! The draft 2020-12 (and OpenAPI) keywords added in 0.2.0 beyond the first subset: what
//! each means once loaded, the sentence a model reads when a value breaks it, how it is
//! written back by each export, and (for some) that the streaming check never refuses a
//! prefix some ending would accept.
#![cfg(feature = "stream")]

mod support;

use support::rng::Rng;
use support::values::spell;
use toolgate::json::{parse, Value};
use toolgate::spec::{export_tool, Provider, Schema, ToolSpec};
use toolgate::stream::Progress;

fn schema(text: &str) -> Schema {
    let value = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Schema::from_json_schema(&value).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// `Ok` or the violation's sentence, for `value` against the schema `text`.
fn verdict(text: &str, value: &str) -> Result<(), String> {
    let data = parse(value).unwrap_or_else(|e| panic!("{value}: {e}"));
    schema(text).validate(&data).map_err(|v| v.to_string())
}

/// Every value in `accepted` passes, and each `(value, sentence)` in `refused` is refused
/// with exactly that sentence.
fn check(text: &str, accepted: &[&str], refused: &[(&str, &str)]) {
    for value in accepted {
        assert_eq!(verdict(text, value), Ok(()), "{text} should accept {value}");
    }
    for (value, sentence) in refused {
        assert_eq!(
            verdict(text, value),
            Err(sentence.to_string()),
            "{text} against {value}"
        );
    }
}

fn tool(text: &str) -> ToolSpec {
    let value = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    ToolSpec::from_json_schema("t", "d", &value).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The arguments schema of `spec` as `provider` writes it (`parameters`, `input_schema`…).
fn exported(spec: &ToolSpec, provider: Provider, key: &str) -> Option<String> {
    let tool = export_tool(spec, provider).unwrap_or_else(|e| panic!("{e}"));
    let function = tool.get("function").unwrap_or(&tool);
    function.get(key).map(Value::to_string)
}

#[test]
fn nullable_adds_null_to_the_kinds_type_names() {
    let text = r#"{"type": "object", "properties": {"note": {"type": "string", "nullable": true},
        "tag": {"type": "string", "enum": ["a", "b"], "nullable": true},
        "any": {"nullable": true}}}"#;
    check(
        text,
        &[
            r#"{"note": null, "tag": null}"#,
            r#"{"note": "x", "tag": "a"}"#,
            r#"{"any": [1]}"#,
            r#"{"any": null}"#,
        ],
        &[
            (
                r#"{"note": 1}"#,
                "note must be a string or null; received 1",
            ),
            (
                r#"{"tag": "c"}"#,
                "tag must be one of \"a\", \"b\", null; received \"c\"",
            ),
        ],
    );
    // (A declared optional field's `null` reads as absent; at the root it cannot.)
    check(
        r#"{"type": "integer", "nullable": false}"#,
        &["1"],
        &[("null", "the arguments must be an integer; received null")],
    );
    // Written back as the type it means, which reads back the same.
    let loaded = schema(r#"{"type": "string", "nullable": true}"#);
    assert_eq!(
        loaded.to_json_schema().to_string(),
        r#"{"type":["string","null"]}"#
    );
    assert_eq!(
        Schema::from_json_schema(&loaded.to_json_schema()),
        Ok(loaded)
    );
}

#[test]
fn openapi_annotations_load_assert_nothing_and_are_written_back() {
    let text = r#"{"type": "object", "properties": {"pet": {"type": "string",
        "example": "cat", "x-order": 2}}, "discriminator": {"propertyName": "pet"},
        "x-vendor": {"a": [1]}, "additionalProperties": false}"#;
    check(
        text,
        &[r#"{"pet": "dog"}"#, "{}"],
        &[(r#"{"pet": 1}"#, "pet must be a string; received 1")],
    );
    let spec = tool(text);
    let plain = r#"{"type":"object","properties":{"pet":{"type":"string","example":"cat","x-order":2}},"additionalProperties":false,"discriminator":{"propertyName":"pet"},"x-vendor":{"a":[1]}}"#;
    assert_eq!(
        exported(&spec, Provider::Anthropic, "input_schema").as_deref(),
        Some(plain)
    );
    // Gemini's `Schema` has `example` but neither `discriminator` nor extensions: the
    // schema goes whole as `parametersJsonSchema`.
    assert_eq!(exported(&spec, Provider::Gemini, "parameters"), None);
    assert_eq!(
        exported(&spec, Provider::Gemini, "parametersJsonSchema").as_deref(),
        Some(plain)
    );
    let only_example =
        tool(r#"{"type": "object", "properties": {"pet": {"type": "string", "example": "cat"}}}"#);
    assert_eq!(
        exported(&only_example, Provider::Gemini, "parameters").as_deref(),
        Some(r#"{"type":"OBJECT","properties":{"pet":{"type":"STRING","example":"cat"}}}"#)
    );
    // Strict mode refuses keywords it does not list; these assert nothing, so they are
    // left out and the tool stays strict.
    assert_eq!(
        exported(&spec, Provider::OpenAiStrict, "parameters").as_deref(),
        Some(
            r#"{"type":"object","properties":{"pet":{"type":["string","null"]}},"required":["pet"],"additionalProperties":false}"#
        )
    );
    // Every plain form reads back as the same spec.
    let back = toolgate::spec::load_tools(&format!(
        "[{}]",
        export_tool(&spec, Provider::Gemini).unwrap_or_else(|e| panic!("{e}"))
    ));
    assert_eq!(back, Ok(vec![spec]));
}

/// The lenient load of `text`: what it loaded and the `(path, keyword)` it skipped.
fn lenient(text: &str) -> (Schema, Vec<(String, String)>) {
    let value = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let (schema, skipped) =
        Schema::from_json_schema_lenient(&value).unwrap_or_else(|e| panic!("{text}: {e}"));
    let skipped = skipped.into_iter().map(|u| (u.path, u.keyword)).collect();
    (schema, skipped)
}

fn accepts(schema: &Schema, value: &str) -> bool {
    schema
        .validate(&parse(value).unwrap_or_else(|e| panic!("{value}: {e}")))
        .is_ok()
}

#[test]
fn not_refuses_what_its_schema_matches_and_says_what_that_is() {
    let text = r#"{"type": "object", "properties": {
        "notes": {"items": {"not": {"type": "null"}}},
        "id": {"type": "string", "not": {"enum": ["root", "admin"]}},
        "code": {"not": {"const": 0}},
        "name": {"type": "string", "not": {"minLength": 1, "maxLength": 2}},
        "never": {"not": {}}}}"#;
    check(
        text,
        &[
            r#"{"notes": [1], "id": "ana", "code": 1, "name": "abc"}"#,
            "{}",
        ],
        &[
            (
                r#"{"notes": ["a", null]}"#,
                "notes.1 must not be null; received null",
            ),
            (
                r#"{"id": "admin"}"#,
                "id must not be any of \"root\", \"admin\"; received \"admin\"",
            ),
            (r#"{"code": 0.0}"#, "code must not be 0; received 0.0"),
            (
                r#"{"name": "ab"}"#,
                "name must not match the schema given under \"not\"; received \"ab\"",
            ),
            (r#"{"never": 1}"#, "never is not allowed; received 1"),
        ],
    );
    // The type's own rules come first; `not` after the combinators.
    check(
        r#"{"type": "string", "not": {"const": "x"}}"#,
        &["\"y\""],
        &[("1", "the arguments must be a string; received 1")],
    );
    // At the root, "the arguments".
    check(
        r#"{"not": {"type": "object", "required": ["a"]}}"#,
        &[r#"{"b": 1}"#],
        &[(
            r#"{"a": 1}"#,
            "the arguments must not match the schema given under \"not\"; received {\"a\":1}",
        )],
    );
    let rule = schema(r#"{"not": {"type": ["string", "null"]}}"#)
        .validate(&parse("null").unwrap_or_else(|e| panic!("{e}")))
        .map_err(|v| v.rule().label());
    assert_eq!(rule, Err("not"));
}

#[test]
fn not_through_references_and_nesting() {
    check(
        r##"{"$defs": {"blank": {"type": "string", "maxLength": 0}},
            "type": "array", "items": {"not": {"$ref": "#/$defs/blank"}}}"##,
        &[r#"["a", 1, null]"#, "[]"],
        &[(
            r#"["a", ""]"#,
            "1 must not match the schema given under \"not\"; received \"\"",
        )],
    );
    // A double negation is the schema itself.
    check(
        r#"{"not": {"not": {"type": "integer"}}}"#,
        &["1", "2.0"],
        &[(
            "1.5",
            "the arguments must not match the schema given under \"not\"; received 1.5",
        )],
    );
}

#[test]
fn a_lenient_load_skips_a_not_whose_schema_it_weakened() {
    // Skipping the `pattern` inside `not` (a lookahead, which cannot run in linear time)
    // would make `not` refuse every string: `"b"` is valid under the whole schema. So the
    // `not` goes too, and both are listed.
    let (loaded, skipped) = lenient(r#"{"not": {"type": "string", "pattern": "^(?=a)"}}"#);
    assert_eq!(
        skipped,
        [
            ("not".to_string(), "pattern".to_string()),
            (String::new(), "not".to_string())
        ]
    );
    assert!(accepts(&loaded, r#""b""#));
    assert!(accepts(&loaded, r#""a""#));
    // Kept for the export, as written.
    assert_eq!(
        loaded.to_json_schema().to_string(),
        r#"{"not":{"type":"string","pattern":"^(?=a)"}}"#
    );
}

#[test]
fn not_is_written_by_json_schema_and_refused_by_the_forms_that_cannot_say_it() {
    let spec = tool(
        r#"{"type": "object", "properties": {"id": {"type": "string", "not": {"const": "root"}}},
            "required": ["id"], "additionalProperties": false}"#,
    );
    let plain = r#"{"type":"object","properties":{"id":{"type":"string","not":{"const":"root"}}},"required":["id"],"additionalProperties":false}"#;
    assert_eq!(
        exported(&spec, Provider::Anthropic, "input_schema").as_deref(),
        Some(plain)
    );
    assert_eq!(exported(&spec, Provider::Gemini, "parameters"), None);
    assert_eq!(
        toolgate::spec::check_strict(&spec).map_err(|e| e.to_string()),
        Err("t: id has no OpenAI strict form: 'not', which strict mode does not support".into())
    );
    let back = Schema::from_json_schema(&spec.params().to_json_schema());
    assert_eq!(back.as_ref(), Ok(spec.params()));
}

/// What the model reads when `raw` (a whole call) is checked by a gate of `spec`.
fn gate_says(spec: &ToolSpec, raw: &str) -> String {
    let gate = toolgate::Gate::new(vec![spec.clone()]).unwrap_or_else(|e| panic!("{e}"));
    match gate.check_call(raw) {
        Ok(_) => "ok".to_string(),
        Err(rejection) => rejection.to_string(),
    }
}

#[test]
fn dependent_required_names_the_field_given_and_the_one_missing() {
    let order = r#"{"type": "object", "properties": {
        "shipping": {"type": "string"}, "address": {"type": "string"},
        "zip": {"type": "string"}, "gift": {"type": "object", "properties": {
            "wrap": {"type": "boolean"}, "note": {"type": "string"}},
            "dependentRequired": {"note": ["wrap"]}}},
        "dependentRequired": {"shipping": ["address", "zip"], "zip": []},
        "additionalProperties": false}"#;
    let spec = tool(order);
    let cases = [
        (r#"{"name": "t", "arguments": {}}"#, "ok"),
        (
            r#"{"name": "t", "arguments": {"shipping": "express", "address": "1 Main St", "zip": "0150"}}"#,
            "ok",
        ),
        (
            r#"{"name": "t", "arguments": {"shipping": "express"}}"#,
            "t rejected: when 'shipping' is given, 'address' is required.",
        ),
        (
            r#"{"name": "t", "arguments": {"zip": "0150", "shipping": "express", "address": "x"}}"#,
            "ok",
        ),
        (
            r#"{"name": "t", "arguments": {"address": "x", "shipping": "express"}}"#,
            "t rejected: when 'shipping' is given, 'zip' is required.",
        ),
        (
            r#"{"name": "t", "arguments": {"gift": {"note": "Happy birthday"}}}"#,
            "t rejected: in gift, when 'note' is given, 'wrap' is required.",
        ),
        // The object's own rules come first: an unknown field before the dependency.
        (
            r#"{"name": "t", "arguments": {"shipping": "express", "colour": "red"}}"#,
            "t rejected: unknown field 'colour'; allowed fields: shipping, address, zip, gift.",
        ),
    ];
    for (raw, expected) in cases {
        assert_eq!(gate_says(&spec, raw), expected, "{raw}");
    }
    // Other kinds are not objects: the keyword asserts nothing about them.
    check(
        r#"{"dependentRequired": {"a": ["b"]}}"#,
        &["1", "[\"a\"]", "\"a\""],
        &[],
    );
    let label = schema(r#"{"dependentRequired": {"a": ["b"]}}"#)
        .validate(&parse(r#"{"a": 1}"#).unwrap_or_else(|e| panic!("{e}")))
        .map_err(|v| v.rule().label());
    assert_eq!(label, Err("dependent_required"));
    // Written back by JSON Schema (and read back the same); Gemini falls back; strict
    // mode refuses it by name.
    assert!(exported(&spec, Provider::Mcp, "inputSchema").is_some_and(
        |text| text.contains(r#""dependentRequired":{"shipping":["address","zip"],"zip":[]}"#)
    ));
    assert_eq!(exported(&spec, Provider::Gemini, "parameters"), None);
    assert_eq!(
        toolgate::spec::check_strict(&spec).map_err(|e| e.to_string()),
        Err(
            "t: the arguments object has no OpenAI strict form: 'dependentRequired', which \
             strict mode does not support"
                .into()
        )
    );
    assert_eq!(
        Schema::from_json_schema(&spec.params().to_json_schema()).as_ref(),
        Ok(spec.params())
    );
}

#[test]
fn dependent_required_values_are_checked_at_load() {
    for text in [
        r#"{"dependentRequired": ["a"]}"#,
        r#"{"dependentRequired": {"a": "b"}}"#,
        r#"{"dependentRequired": {"a": ["b", "b"]}}"#,
        r#"{"dependentRequired": {"a": [1]}}"#,
    ] {
        let value = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let error = Schema::from_json_schema(&value)
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert_eq!(
            error
                .as_ref()
                .map_err(|e| e.split("; found").next().unwrap_or("")),
            Err(
                "the schema root: 'dependentRequired' must be an object of arrays of member \
                 names (strings, each once)"
            ),
            "{text}"
        );
    }
}

#[test]
fn prefix_items_checks_each_place_and_items_the_rest() {
    let text = r#"{"type": "object", "properties": {
        "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
                  "items": false},
        "row": {"prefixItems": [{"type": "string"}], "items": {"type": "integer"}},
        "pair": {"prefixItems": [{"const": "id"}, {"type": "string"}]}}}"#;
    check(
        text,
        &[
            r#"{"point": [1, 2.5], "row": ["a", 1, 2], "pair": ["id", "x", null]}"#,
            r#"{"point": [1], "row": [], "pair": ["id"]}"#,
            r#"{"point": [], "row": "not an array"}"#,
        ],
        &[
            (
                r#"{"point": [1, "2"]}"#,
                "point.1 must be a number; received \"2\"",
            ),
            (
                r#"{"point": [1, 2, 3]}"#,
                "point.2 is not allowed; received 3",
            ),
            (r#"{"row": [1]}"#, "row.0 must be a string; received 1"),
            (
                r#"{"row": ["a", 1, "b"]}"#,
                "row.2 must be an integer; received \"b\"",
            ),
            (
                r#"{"pair": ["ID"]}"#,
                "pair.0 must be \"id\"; received \"ID\"",
            ),
        ],
    );
    // The first item in index order is the one reported.
    check(
        text,
        &[],
        &[(
            r#"{"row": [2, 1, "b"]}"#,
            "row.0 must be a string; received 2",
        )],
    );
    let spec = tool(text);
    let plain = r#"{"type":"object","properties":{"point":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"items":false},"row":{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}},"pair":{"prefixItems":[{"const":"id"},{"type":"string"}]}}}"#;
    assert_eq!(
        exported(&spec, Provider::Anthropic, "input_schema").as_deref(),
        Some(plain)
    );
    assert_eq!(exported(&spec, Provider::Gemini, "parameters"), None);
    assert_eq!(
        toolgate::spec::check_strict(&spec).map_err(|e| e.to_string()),
        Err(
            "t: point has no OpenAI strict form: 'prefixItems', which strict mode does not \
             support"
                .into()
        )
    );
    assert_eq!(
        Schema::from_json_schema(&spec.params().to_json_schema()).as_ref(),
        Ok(spec.params())
    );
    // `items: false` alone: no items at all.
    check(
        r#"{"items": false}"#,
        &["[]", "{}"],
        &[("[null]", "0 is not allowed; received null")],
    );
}

/// Schemas that use the keywords of this file, for the streaming property.
const STREAMED: &[&str] = &[
    r#"{"type": "object", "dependentRequired": {"a": ["b"], "b": ["c"]},
        "properties": {"c": {"not": {"type": "null"}}}}"#,
    r#"{"type": "object", "properties": {"a": {"type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false},
        "b": {"prefixItems": [{"not": {"type": "integer"}}], "items": {"type": "string"}}}}"#,
    r#"{"type": "object", "not": {"required": ["c"]}, "additionalProperties": {"not": {"enum": [1, "x"]}}}"#,
    r#"{"type": "object", "properties": {"a": {"contains": {"type": "string"}, "maxContains": 2},
        "b": {"contains": {"not": {"type": "null"}}, "minContains": 2}}}"#,
    r#"{"type": "object", "if": {"required": ["a"]}, "then": {"properties": {"b": {"type": "string"}}},
        "else": {"properties": {"b": {"type": "integer"}}},
        "dependentSchemas": {"c": {"required": ["d"], "properties": {"d": {"not": {"type": "null"}}}}}}"#,
    r#"{"type": "object", "x-order": 1, "example": {"a": 1},
        "properties": {"a": {"type": "integer", "nullable": true}}, "additionalProperties": false}"#,
    r#"{"type": "object", "anyOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]},
        {"properties": {"b": {"type": "string"}}}], "unevaluatedProperties": {"type": "array"}}"#,
    r#"{"type": "object", "properties": {"c": {"prefixItems": [{"type": "string"}],
        "contains": {"type": "integer"}, "unevaluatedItems": {"type": "null"}}},
        "unevaluatedProperties": false}"#,
];

/// A value built from the names and values those schemas talk about.
fn value_for(rng: &mut Rng, depth: usize) -> Value<'static> {
    let scalars = ["null", "1", "2.5", "\"x\"", "\"y\"", "true"];
    match rng.below(if depth > 2 { 2 } else { 4 }) {
        0 | 1 => {
            let scalar: &&str = rng.pick(&scalars);
            parse(scalar).map(|v| v.into_owned()).unwrap_or(Value::Null)
        }
        2 => Value::Array(
            (0..rng.below(4))
                .map(|_| value_for(rng, depth + 1))
                .collect(),
        ),
        _ => object_for(rng, depth + 1),
    }
}

fn object_for(rng: &mut Rng, depth: usize) -> Value<'static> {
    let keys = ["a", "b", "c", "d"];
    let mut members = Vec::new();
    for key in keys {
        if rng.chance(1, 2) {
            members.push((key.into(), value_for(rng, depth)));
        }
    }
    Value::Object(members)
}

/// The streaming check never refuses a prefix that some ending makes valid: a call the
/// gate accepts whole is `Pending` after every chunk of its arguments; one it refuses may be
/// refused early or at the end, and `finish` agrees with the gate.
#[test]
fn the_streaming_check_refuses_no_prefix_of_an_accepted_call() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    let (mut n_accepted, mut n_early) = (0, 0);
    for text in STREAMED {
        let spec = tool(text);
        let gate = toolgate::Gate::new(vec![spec]).unwrap_or_else(|e| panic!("{e}"));
        for _ in 0..Rng::iters(400) {
            let value = object_for(&mut rng, 0);
            let mut args = String::new();
            spell(&mut rng, &mut args, &value, (1, 4));
            let raw = format!(
                r#"{{"name": "t", "arguments": {}}}"#,
                Value::String(args.clone().into())
            );
            let whole = gate.check_call(&raw).map(|_| ()).map_err(|e| e.to_string());
            let mut stream = gate.stream_call();
            assert_eq!(stream.feed_name("t"), Progress::Pending);
            let mut fed = 0;
            let mut refused = false;
            while fed < args.len() {
                let mut end = (fed + 1 + rng.below(6)).min(args.len());
                while !args.is_char_boundary(end) {
                    end += 1;
                }
                let progress = stream.feed_arguments(&args[fed..end]);
                fed = end;
                if progress != Progress::Pending {
                    refused = true;
                    assert!(
                        whole.is_err(),
                        "seed {seed}: {text}\nrefused after {:?} of the accepted {args}",
                        &args[..fed]
                    );
                }
            }
            n_early += usize::from(refused);
            let finished = stream.finish().map(|_| ()).map_err(|e| e.to_string());
            assert_eq!(finished, whole, "seed {seed}: {text}\n{args}");
            n_accepted += usize::from(whole.is_ok());
        }
    }
    println!("streamed: {n_accepted} accepted, {n_early} refused before their end");
    assert!(
        n_accepted > 50,
        "seed {seed}: too few accepted values to mean anything"
    );
}

#[test]
fn contains_counts_the_items_that_match() {
    let text = r#"{"type": "object", "properties": {
        "tags": {"type": "array", "contains": {"const": "urgent"}},
        "pets": {"contains": {"type": "string"}, "minContains": 2, "maxContains": 3},
        "few": {"contains": {"type": "integer"}, "maxContains": 1},
        "any": {"contains": {"type": "integer"}, "minContains": 0, "maxContains": 1}}}"#;
    check(
        text,
        &[
            r#"{"tags": ["a", "urgent"], "pets": ["cat", 1, "dog"], "few": [1, "a"], "any": []}"#,
            r#"{"pets": ["a", "b", "c", null], "few": "not an array"}"#,
        ],
        &[
            (
                r#"{"tags": ["a", "b"]}"#,
                "tags must have at least 1 item matching the schema given under \"contains\", \
                 but 0 match; received [\"a\",\"b\"]",
            ),
            (
                r#"{"tags": []}"#,
                "tags must have at least 1 item matching the schema given under \"contains\", \
                 but 0 match; received []",
            ),
            (
                r#"{"pets": ["cat"]}"#,
                "pets must have from 2 to 3 items matching the schema given under \"contains\", \
                 but 1 matches; received [\"cat\"]",
            ),
            (
                r#"{"pets": ["a", "b", "c", "d"]}"#,
                "pets must have from 2 to 3 items matching the schema given under \"contains\", \
                 but 4 match; received [\"a\",\"b\",\"c\",\"d\"]",
            ),
            (
                r#"{"few": []}"#,
                "few must have exactly 1 item matching the schema given under \"contains\", \
                 but 0 match; received []",
            ),
            (
                r#"{"any": [1, 2]}"#,
                "any must have at most 1 item matching the schema given under \"contains\", \
                 but 2 match; received [1,2]",
            ),
        ],
    );
    let spec = tool(text);
    assert!(
        exported(&spec, Provider::Anthropic, "input_schema").is_some_and(|text| text
            .contains(r#""pets":{"contains":{"type":"string"},"minContains":2,"maxContains":3}"#))
    );
    assert_eq!(exported(&spec, Provider::Gemini, "parameters"), None);
    assert_eq!(
        Schema::from_json_schema(&spec.params().to_json_schema()).as_ref(),
        Ok(spec.params())
    );
}

#[test]
fn if_then_else_applies_the_branch_the_condition_selects() {
    let text = r#"{"type": "object", "properties": {
        "country": {"type": "string"}, "postal_code": {"type": "string"}},
        "if": {"properties": {"country": {"const": "US"}}, "required": ["country"]},
        "then": {"properties": {"postal_code": {"pattern": "^[0-9]{5}$"}}},
        "else": {"properties": {"postal_code": {"maxLength": 10}}}}"#;
    check(
        text,
        &[
            r#"{"country": "US", "postal_code": "20500"}"#,
            r#"{"country": "FR", "postal_code": "75008"}"#,
            r#"{"postal_code": "SW1A 2AA"}"#,
        ],
        &[
            (
                r#"{"country": "US", "postal_code": "SW1A 2AA"}"#,
                "postal_code must match the pattern ^[0-9]{5}$; received \"SW1A 2AA\"",
            ),
            (
                r#"{"postal_code": "12345678901"}"#,
                "postal_code must be at most 10 characters long; received \"12345678901\"",
            ),
        ],
    );
    // `then` or `else` alone: the other case asserts nothing; neither without `if`.
    check(
        r#"{"if": {"type": "string"}, "then": {"minLength": 2}}"#,
        &["\"ab\"", "1"],
        &[(
            "\"a\"",
            "the arguments must be at least 2 characters long; received \"a\"",
        )],
    );
    check(
        r#"{"if": {"type": "string"}, "else": {"type": "null"}}"#,
        &["\"a\"", "null"],
        &[("1", "the arguments must be null; received 1")],
    );
    check(r#"{"then": false, "else": false}"#, &["1", "\"a\""], &[]);
    let spec = tool(text);
    assert!(exported(&spec, Provider::Anthropic, "input_schema").is_some_and(|t| t.contains(
        r#""if":{"properties":{"country":{"const":"US"}},"required":["country"]},"then":{"properties":{"postal_code":{"pattern":"^[0-9]{5}$"}}},"else""#
    )));
    assert_eq!(exported(&spec, Provider::Gemini, "parameters"), None);
    assert_eq!(
        toolgate::spec::check_strict(&spec).map_err(|e| e.to_string()),
        Err(
            "t: the arguments object has no OpenAI strict form: 'if', which strict mode does \
             not support"
                .into()
        )
    );
    assert_eq!(
        Schema::from_json_schema(&spec.params().to_json_schema()).as_ref(),
        Ok(spec.params())
    );
}

#[test]
fn a_lenient_load_skips_an_if_it_weakened() {
    // With its `pattern` (a lookahead) skipped, `if` would match `"b"` and send it to
    // `then`.
    let (loaded, skipped) = lenient(
        r#"{"if": {"type": "string", "pattern": "^(?=a)"}, "then": {"maxLength": 0},
            "else": {"minLength": 1}}"#,
    );
    assert_eq!(
        skipped,
        [
            ("if".to_string(), "pattern".to_string()),
            (String::new(), "if".to_string())
        ]
    );
    assert!(accepts(&loaded, r#""b""#));
    assert!(accepts(&loaded, "\"\""));
}

#[test]
fn dependent_schemas_apply_when_the_field_is_given() {
    let text = r#"{"type": "object", "properties": {"card": {"type": "string"}},
        "dependentSchemas": {"card": {"properties": {"cvc": {"type": "string", "maxLength": 4}},
                                      "required": ["cvc"]}}}"#;
    check(
        text,
        &[
            r#"{"card": "4111", "cvc": "123"}"#,
            r#"{"cvc": 12345}"#,
            "{}",
        ],
        &[
            (r#"{"card": "4111"}"#, "missing required field 'cvc'"),
            (
                r#"{"card": "4111", "cvc": "12345"}"#,
                "cvc must be at most 4 characters long; received \"12345\"",
            ),
        ],
    );
    let spec = tool(text);
    assert!(exported(&spec, Provider::Mcp, "inputSchema").is_some_and(|t| t.contains(
        r#""dependentSchemas":{"card":{"properties":{"cvc":{"type":"string","maxLength":4}},"required":["cvc"]}}"#
    )));
    assert_eq!(
        Schema::from_json_schema(&spec.params().to_json_schema()).as_ref(),
        Ok(spec.params())
    );
    // A reference cycle through them never reaches into the value: refused at load.
    let cycle = parse(r##"{"$defs": {"a": {"if": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"}"##)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(Schema::from_json_schema(&cycle).is_err());
}

#[test]
fn a_plain_name_reference_finds_the_schema_that_declares_the_anchor() {
    let text = r##"{"type": "object", "properties": {"ship_to": {"$ref": "#address"},
        "bill_to": {"$ref": "#address"}},
        "$defs": {"addr": {"$anchor": "address", "type": "object",
                           "properties": {"zip": {"type": "string", "maxLength": 5}}}}}"##;
    check(
        text,
        &[r#"{"ship_to": {"zip": "0150"}, "bill_to": {}}"#],
        &[(
            r#"{"bill_to": {"zip": "123456"}}"#,
            "bill_to.zip must be at most 5 characters long; received \"123456\"",
        )],
    );
    // Exported with the pointer it resolved to, which reads back the same.
    let loaded = schema(text);
    let written = loaded.to_json_schema().to_string();
    assert!(
        written.contains(r##""ship_to":{"$ref":"#/$defs/addr"}"##),
        "{written}"
    );
    assert_eq!(
        Schema::from_json_schema(&loaded.to_json_schema()),
        Ok(loaded)
    );
    // No schema, or two, declare it: refused by name, as before.
    for text in [
        r##"{"$ref": "#nowhere"}"##,
        r##"{"$ref": "#twice", "$defs": {"a": {"$anchor": "twice"}, "b": {"$anchor": "twice"}}}"##,
    ] {
        let value = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let error = Schema::from_json_schema(&value).map(|_| ()).unwrap_err();
        assert_eq!(error.unsupported_keyword(), Some("$ref"), "{text}");
    }
}
