//! Partial mode against whole values written out prefix by prefix: no tree a model
//! passes through while writing an accepted value is refused (on hand-picked values, on
//! every valid case of the JSON-Schema-Test-Suite, and on the corpus' accepted calls).

use super::partial_tests::{cases, schema};
use crate::json::{self, Open, Tail, Value};
use crate::spec::Schema;
use std::borrow::Cow;

/// What a prefix tree's value is: whole, or open with `n` containers down to what stands
/// last (0 for an open string or number).
type Opening = Option<(usize, Tail<'static>)>;

/// Every tree a model writing `value` left to right passes through, with what is open in
/// it (keys are leaked: they live as long as the test).
fn prefixes(value: &Value<'static>) -> Vec<(Value<'static>, Opening)> {
    let mut out = vec![(value.clone(), None)];
    match value {
        Value::String(text) => {
            for (end, _) in text.char_indices().chain([(text.len(), ' ')]) {
                let part = text.get(..end).unwrap_or_default().to_owned();
                out.push((Value::String(Cow::Owned(part)), Some((0, Tail::String))));
            }
        }
        Value::Number(_) => out.push((value.clone(), Some((0, Tail::Number)))),
        Value::Array(items) => {
            for k in 0..=items.len() {
                let whole: Vec<_> = items.iter().take(k).cloned().collect();
                out.push((Value::Array(whole.clone()), Some((1, Tail::Whole))));
                let Some(next) = items.get(k) else { continue };
                for (part, opening) in prefixes(next) {
                    let Some((n, tail)) = opening else { continue };
                    let mut open_items = whole.clone();
                    open_items.push(part);
                    out.push((Value::Array(open_items), Some((n + 1, tail))));
                }
            }
        }
        Value::Object(members) => {
            for k in 0..=members.len() {
                let whole: Vec<_> = members.iter().take(k).cloned().collect();
                out.push((Value::Object(whole.clone()), Some((1, Tail::Whole))));
                let Some((key, next)) = members.get(k) else {
                    continue;
                };
                let key: &'static str = Box::leak(key.to_string().into_boxed_str());
                out.push((Value::Object(whole.clone()), Some((1, Tail::Key(key)))));
                for (part, opening) in prefixes(next) {
                    let Some((n, tail)) = opening else { continue };
                    let mut open_members = whole.clone();
                    open_members.push((Cow::Borrowed(key), part));
                    out.push((Value::Object(open_members), Some((n + 1, tail))));
                }
            }
        }
        Value::Null | Value::Bool(_) => {}
    }
    out
}

/// Whole values to write out prefix by prefix, against the schemas of [`cases`] and a
/// tool's arguments.
const WHOLE_VALUES: &[&str] = &[
    "{}",
    r#"{"a": "x", "b": "xy"}"#,
    r#"{"s": "paid", "n": 7, "o": {"s": "a"}}"#,
    r#"{"s": "pending", "n": 12.5, "o": {"s": "abc"}, "p": [1, 2]}"#,
    r#"{"s": "2025-01-31", "a": 1}"#,
    r#"{"x": [1, "a", {"k": null}], "a": true}"#,
    "[1, 2]",
    r#"["a", "b", "a"]"#,
];

#[test]
fn no_prefix_of_an_accepted_value_is_refused() {
    let tool = r#"{"type": "object", "required": ["customer_id"], "additionalProperties": false,
        "properties": {
            "customer_id": {"type": "string", "minLength": 3, "maxLength": 12},
            "status": {"enum": ["pending", "paid"]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 3},
            "since": {"type": "string", "format": "date"},
            "ref": {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 4}]},
            "filters": {"type": "object", "properties": {"min": {"type": "number"}}, "required": ["min"]}
        }}"#;
    let tool_values = [
        r#"{"customer_id": "CUS-1", "status": "paid", "limit": 10}"#,
        r#"{"customer_id": "CUS-1", "tags": ["a", "b"], "since": "2025-01-31", "ref": "r-1"}"#,
        r#"{"customer_id": "CUS-1", "ref": 12, "filters": {"min": 1.5}}"#,
        r#"{"customer_id": "CUS-1", "status": "pend", "tags": ["a", "a"], "limit": 0}"#,
        r#"{"customer_id": "toolongtoolong", "colour": 1}"#,
    ];
    let mut pairs: Vec<(String, &str)> =
        tool_values.iter().map(|v| (tool.to_owned(), *v)).collect();
    for case in cases() {
        pairs.extend(WHOLE_VALUES.iter().map(|v| (case.schema.to_owned(), *v)));
    }
    let (mut n_accepted, mut n_refused_early) = (0, 0);
    for (text, whole) in &pairs {
        let schema = schema(text);
        let whole = json::parse(whole)
            .unwrap_or_else(|e| panic!("{e}"))
            .into_owned();
        let accepted = schema.validate(&whole).is_ok();
        n_accepted += usize::from(accepted);
        for (prefix, opening) in prefixes(&whole) {
            let Some((containers, tail)) = opening.filter(|(n, _)| *n > 0) else {
                continue;
            };
            let refused = schema.validate_partial(&prefix, Open { containers, tail });
            assert!(
                !(accepted && refused.is_err()),
                "{text} accepts {whole} but refuses its prefix {prefix} ({containers}, {tail:?}): {refused:?}"
            );
            n_refused_early += usize::from(refused.is_err());
        }
    }
    assert!(
        n_accepted > 30 && n_refused_early > 100,
        "{n_accepted} {n_refused_early}"
    );
}

/// The folder a conformance corpus is in: `var` if set (it must exist), else `default`
/// beside the checkout if present; `None`, said in one line, when neither is there.
fn shared(var: &str, default: &str) -> Option<std::path::PathBuf> {
    match std::env::var_os(var) {
        Some(dir) => {
            let dir = std::path::PathBuf::from(dir);
            assert!(
                dir.is_dir(),
                "{var} is set but {} is not a folder",
                dir.display()
            );
            Some(dir)
        }
        None => {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(default);
            let found = dir.is_dir();
            if !found {
                println!("skipped: {var} is unset and {} is absent", dir.display());
            }
            found.then_some(dir)
        }
    }
}

/// The prefixes of `value` that partial mode refuses, as lines for a failure message.
fn refused_prefixes(schema: &Schema, value: &Value<'static>) -> Vec<String> {
    let mut refused = Vec::new();
    for (prefix, opening) in prefixes(value) {
        let Some((containers, tail)) = opening.filter(|(n, _)| *n > 0) else {
            continue;
        };
        if let Err(v) = schema.validate_partial(&prefix, Open { containers, tail }) {
            refused.push(format!("{prefix} ({containers}, {tail:?}): {v}"));
        }
    }
    refused
}

#[test]
fn no_prefix_of_a_valid_case_of_the_schema_test_suite_is_refused() {
    let Some(dir) = shared(
        "TOOLGATE_JSON_SCHEMA_TEST_SUITE",
        "../shared/json-schema-test-suite",
    ) else {
        return;
    };
    let mut n_valid = 0;
    for entry in std::fs::read_dir(dir.join("draft2020-12"))
        .into_iter()
        .flatten()
    {
        let path = entry.map(|e| e.path()).unwrap_or_default();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let groups = json::parse(&text)
            .map(Value::into_owned)
            .unwrap_or(Value::Null);
        for group in groups.as_array().unwrap_or_default() {
            let field = |value: &Value<'static>, name: &str| value.get(name).cloned();
            let Some(Ok(schema)) = field(group, "schema").map(|s| Schema::from_json_schema(&s))
            else {
                continue;
            };
            let tests = field(group, "tests").unwrap_or(Value::Null);
            for test in tests.as_array().unwrap_or_default() {
                let data = field(test, "data").unwrap_or(Value::Null);
                if schema.validate(&data).is_ok() {
                    n_valid += 1;
                    let refused = refused_prefixes(&schema, &data);
                    assert!(
                        refused.is_empty(),
                        "{}: {data}: {refused:?}",
                        path.display()
                    );
                }
            }
        }
    }
    assert!(n_valid > 500, "{n_valid}");
}

#[test]
fn no_prefix_of_an_accepted_corpus_call_is_refused() {
    let Some(dir) = shared("TOOLGATE_CORPUS", "../shared/corpus") else {
        return;
    };
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let gate = crate::Gate::from_tools_json(&read("tools.json"))
        .unwrap_or_else(|e| panic!("tools.json: {e}"));
    let mut n_accepted = 0;
    // Every 7th call: the prefixes of all 20,000 take a while in a debug build.
    for line in read("calls.jsonl").lines().step_by(7) {
        let Ok(call) = gate.check_call(line) else {
            continue;
        };
        let Some(spec) = gate.spec(&call.name) else {
            continue;
        };
        n_accepted += 1;
        let args = call.args.into_owned();
        let refused = refused_prefixes(spec.params(), &args);
        assert!(refused.is_empty(), "{line}: {refused:?}");
    }
    assert!(n_accepted > 2000, "{n_accepted}");
}
