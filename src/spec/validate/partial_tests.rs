//! Partial mode against hand-built partial values: for each rule, a value refused while
//! still being written and one that is not; and the property that matters to the stream,
//! that a value refused partially is refused by [`Schema::validate`] whatever ending it
//! gets.

use crate::json::{self, Number, Open, Tail, Value};
use crate::spec::Schema;
use std::borrow::Cow;

fn schema(text: &str) -> Schema {
    let document = json::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// One case: a schema, the tree so far, what is open, and `None` if the partial value is
/// not refused or `Some("path: sentence")` if it is.
struct Case {
    schema: &'static str,
    value: &'static str,
    open: Open<'static>,
    expect: Option<&'static str>,
}

const fn case(
    schema: &'static str,
    value: &'static str,
    open: Open<'static>,
    expect: Option<&'static str>,
) -> Case {
    Case {
        schema,
        value,
        open,
        expect,
    }
}

const WHOLE: Tail<'static> = Tail::Whole;
const STRING: Tail<'static> = Tail::String;
const NUMBER: Tail<'static> = Tail::Number;

fn o(containers: usize, tail: Tail<'static>) -> Open<'static> {
    Open { containers, tail }
}

fn cases() -> Vec<Case> {
    vec![
        // required waits for the end; an unknown key refuses as soon as it is whole.
        case(r#"{"required": ["a"]}"#, "{}", o(1, WHOLE), None),
        case(
            r#"{"properties": {"a": {}}, "additionalProperties": false}"#,
            "{}",
            o(1, Tail::Key("zz")),
            Some(": unknown field 'zz'; allowed fields: a"),
        ),
        case(
            r#"{"properties": {"a": {}}, "additionalProperties": false}"#,
            "{}",
            o(1, Tail::Key("a")),
            None,
        ),
        // minItems and contains wait; maxItems refuses once past.
        case(r#"{"minItems": 2}"#, "[1]", o(1, WHOLE), None),
        case(r#"{"contains": {"type": "string"}}"#, "[1]", o(1, WHOLE), None),
        case(
            r#"{"maxItems": 2}"#,
            "[1, 2, 3]",
            o(1, WHOLE),
            Some(": the arguments must have at most 2 items; received [1,2,3]"),
        ),
        case(r#"{"maxItems": 2}"#, "[1, 2]", o(1, WHOLE), None),
        // minProperties waits; maxProperties counts a pending key.
        case(r#"{"minProperties": 1}"#, "{}", o(1, WHOLE), None),
        case(
            r#"{"maxProperties": 1}"#,
            r#"{"a": 1}"#,
            o(1, Tail::Key("b")),
            Some(r#": the arguments must have at most 1 field; received {"a":1}"#),
        ),
        case(r#"{"maxProperties": 1}"#, r#"{"a": 1}"#, o(1, WHOLE), None),
        // propertyNames on a whole key, pending or not.
        case(
            r#"{"propertyNames": {"maxLength": 2}}"#,
            "{}",
            o(1, Tail::Key("abc")),
            Some(r#": field name 'abc' must be at most 2 characters long; received "abc""#),
        ),
        case(r#"{"propertyNames": {"maxLength": 2}}"#, "{}", o(1, Tail::Key("ab")), None),
        // A repeated key, pending or whole.
        case(
            "{}",
            r#"{"a": 1}"#,
            o(1, Tail::Key("a")),
            Some(": duplicate field 'a'"),
        ),
        // dependentRequired, unevaluated*, not, if wait for the end.
        case(r#"{"dependentRequired": {"a": ["b"]}}"#, r#"{"a": 1}"#, o(1, WHOLE), None),
        case(
            r#"{"properties": {"a": true}, "unevaluatedProperties": false}"#,
            r#"{"x": 1}"#,
            o(1, WHOLE),
            None,
        ),
        case(r#"{"not": {"type": "object"}}"#, "{}", o(1, WHOLE), None),
        case(
            r#"{"if": {"type": "object"}, "then": {"required": ["a"]}}"#,
            "{}",
            o(1, WHOLE),
            None,
        ),
        // oneOf: matching more than one waits; every alternative refusing does not.
        case(r#"{"oneOf": [{"type": "object"}, {"type": "object"}]}"#, "{}", o(1, WHOLE), None),
        case(
            r#"{"oneOf": [{"type": "array"}, {"type": "string"}]}"#,
            "{}",
            o(1, WHOLE),
            Some(": the arguments must be a string or an array; received {}"),
        ),
        // enum and const on an open container: only its kind is known.
        case(r#"{"enum": [[1]]}"#, "[]", o(1, WHOLE), None),
        case(
            r#"{"enum": ["a"]}"#,
            "[]",
            o(1, WHOLE),
            Some(r#": the arguments must be "a"; received []"#),
        ),
        // An open string: maxLength, enum/const prefixes, a bounded format, its kind.
        case(
            r#"{"properties": {"s": {"maxLength": 3}}}"#,
            r#"{"s": "abcd"}"#,
            o(1, STRING),
            Some(r#"s: s must be at most 3 characters long; received "abcd""#),
        ),
        case(r#"{"properties": {"s": {"maxLength": 3}}}"#, r#"{"s": "abc"}"#, o(1, STRING), None),
        case(
            r#"{"properties": {"s": {"minLength": 3}}}"#,
            r#"{"s": "a"}"#,
            o(1, STRING),
            None,
        ),
        case(
            r#"{"properties": {"s": {"enum": ["paid", "pending"]}}}"#,
            r#"{"s": "px"}"#,
            o(1, STRING),
            Some(r#"s: s must be one of "paid", "pending"; received "px""#),
        ),
        case(
            r#"{"properties": {"s": {"enum": ["paid", "pending"]}}}"#,
            r#"{"s": "pa"}"#,
            o(1, STRING),
            None,
        ),
        case(
            r#"{"properties": {"s": {"const": "yes"}}}"#,
            r#"{"s": "yo"}"#,
            o(1, STRING),
            Some(r#"s: s must be "yes"; received "yo""#),
        ),
        case(
            r#"{"properties": {"s": {"format": "date"}}}"#,
            r#"{"s": "2025-01-011"}"#,
            o(1, STRING),
            Some(r#"s: s must be an RFC 3339 date such as 2025-01-31; received "2025-01-011""#),
        ),
        case(
            r#"{"properties": {"s": {"format": "date"}}}"#,
            r#"{"s": "2025-01"}"#,
            o(1, STRING),
            None,
        ),
        case(
            r#"{"properties": {"s": {"pattern": "^[0-9]+$"}}}"#,
            r#"{"s": "x"}"#,
            o(1, STRING),
            None,
        ),
        case(
            r#"{"properties": {"s": {"type": "integer"}}}"#,
            r#"{"s": ""}"#,
            o(1, STRING),
            Some(r#"s: s must be an integer; received """#),
        ),
        // An open number: only whether a number can stand there.
        case(
            r#"{"properties": {"n": {"type": "string"}}}"#,
            r#"{"n": 1}"#,
            o(1, NUMBER),
            Some("n: n must be a string; received 1"),
        ),
        case(r#"{"properties": {"n": {"type": "integer", "minimum": 10}}}"#, r#"{"n": 1}"#, o(1, NUMBER), None),
        case(r#"{"properties": {"n": {"type": "integer"}}}"#, r#"{"n": 1}"#, o(1, NUMBER), None),
        case(r#"{"properties": {"n": {"enum": ["a", 7]}}}"#, r#"{"n": 1}"#, o(1, NUMBER), None),
        case(
            r#"{"properties": {"n": {"enum": ["a", null]}}}"#,
            r#"{"n": 1}"#,
            o(1, NUMBER),
            Some(r#"n: n must be one of "a", null; received 1"#),
        ),
        // anyOf refuses only when every alternative does; allOf when any does.
        case(
            r#"{"properties": {"s": {"anyOf": [{"type": "integer"}, {"maxLength": 2}]}}}"#,
            r#"{"s": "abc"}"#,
            o(1, STRING),
            Some(r#"s: s must be at most 2 characters long; received "abc""#),
        ),
        case(
            r#"{"properties": {"s": {"anyOf": [{"type": "integer"}, {"maxLength": 2}]}}}"#,
            r#"{"s": "ab"}"#,
            o(1, STRING),
            None,
        ),
        case(
            r#"{"properties": {"s": {"allOf": [{"type": "string"}, {"maxLength": 2}]}}}"#,
            r#"{"s": "abc"}"#,
            o(1, STRING),
            Some(r#"s: s must be at most 2 characters long; received "abc""#),
        ),
        // Whole members inside an open container get the full rules.
        case(
            r#"{"properties": {"a": {"type": "string"}, "b": {}}}"#,
            r#"{"a": 5, "b": "x"}"#,
            o(1, STRING),
            Some("a: a must be a string; received 5"),
        ),
        case(
            r#"{"properties": {"a": {"minLength": 3}, "b": {}}}"#,
            r#"{"a": "x", "b": "x"}"#,
            o(1, STRING),
            Some(r#"a: a must be at least 3 characters long; received "x""#),
        ),
        // uniqueItems among whole items only.
        case(
            r#"{"uniqueItems": true}"#,
            "[1, 1]",
            o(1, WHOLE),
            Some(": the arguments must not repeat an item, but items 0 and 1 are equal; received [1,1]"),
        ),
        case(r#"{"uniqueItems": true}"#, "[1, 1]", o(1, NUMBER), None),
        // Along a chain of open containers, the path is the open value's.
        case(
            r#"{"properties": {"o": {"properties": {"s": {"maxLength": 1}}}}}"#,
            r#"{"o": {"s": "ab"}}"#,
            o(2, STRING),
            Some(r#"o.s: o.s must be at most 1 character long; received "ab""#),
        ),
        case(
            r#"{"properties": {"o": {"required": ["s"]}}}"#,
            r#"{"o": {}}"#,
            o(2, WHOLE),
            None,
        ),
        case(
            r#"{"properties": {"o": {"required": ["s"]}}}"#,
            r#"{"o": {}, "p": 1}"#,
            o(1, WHOLE),
            Some("o: o is missing required field 's'"),
        ),
        // Through a reference and a dependent schema whose key is given.
        case(
            r##"{"$defs": {"S": {"maxLength": 1}}, "properties": {"s": {"$ref": "#/$defs/S"}}}"##,
            r#"{"s": "ab"}"#,
            o(1, STRING),
            Some(r#"s: s must be at most 1 character long; received "ab""#),
        ),
        case(
            r#"{"dependentSchemas": {"a": {"maxProperties": 1}}}"#,
            r#"{"a": 1}"#,
            o(1, Tail::Key("b")),
            Some(r#": the arguments must have at most 1 field; received {"a":1}"#),
        ),
    ]
}

/// `path: sentence`, or `None` if the partial value is not refused.
fn partial(schema: &Schema, value: &Value<'_>, open: Open<'_>) -> Option<String> {
    schema
        .validate_partial(value, open)
        .err()
        .map(|v| format!("{}: {v}", v.path()))
}

#[test]
fn each_rule_refuses_a_partial_value_only_when_no_ending_could_be_accepted() {
    for case in cases() {
        let schema = schema(case.schema);
        let value = json::parse(case.value).unwrap_or_else(|e| panic!("{}: {e}", case.value));
        let found = partial(&schema, &value, case.open);
        assert_eq!(
            found.as_deref(),
            case.expect,
            "{} on {} {:?}",
            case.schema,
            case.value,
            case.open
        );
    }
}

#[test]
fn a_whole_value_gets_the_full_answer() {
    let schema = schema(r#"{"required": ["a"], "properties": {"a": {"maxLength": 1}}}"#);
    for text in ["{}", r#"{"a": "xy"}"#, r#"{"a": "x"}"#] {
        let value = json::parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            schema.validate_partial(&value, Open::WHOLE),
            schema.validate(&value),
            "{text}"
        );
    }
}

/// The last value along the open chain of `value` (`levels` containers deep).
fn open_end<'v, 'a>(value: &'v mut Value<'a>, levels: usize) -> Option<&'v mut Value<'a>> {
    let mut here = value;
    for _ in 0..levels {
        here = match here {
            Value::Array(items) => items.last_mut()?,
            Value::Object(members) => &mut members.last_mut()?.1,
            _ => return None,
        };
    }
    Some(here)
}

/// Some endings of a partial value, as whole values: closed as it stands, with the open
/// string or number finished in a few ways, with a pending key given a few values, and
/// with one more item or member in the innermost open container.
fn completions(value: &Value<'static>, open: Open<'static>) -> Vec<Value<'static>> {
    let n = open.containers;
    let mut out = Vec::new();
    let mut with = |edit: &dyn Fn(&mut Value<'static>, usize)| {
        let mut copy = value.clone();
        edit(&mut copy, n);
        out.push(copy);
    };
    match open.tail {
        Tail::Key(key) => {
            for filler in [Value::Null, Value::Bool(true), Value::from("s")] {
                with(&|v, n| {
                    if let Some(Value::Object(members)) =
                        n.checked_sub(1).and_then(|n| open_end(v, n))
                    {
                        members.push((Cow::Borrowed(key), filler.clone()));
                    }
                });
            }
        }
        Tail::String => {
            for more in ["", "z", "zzzzzzzzzzzz", "aid"] {
                with(&|v, n| {
                    if let Some(Value::String(text)) = open_end(v, n) {
                        text.to_mut().push_str(more);
                    }
                });
            }
        }
        Tail::Number => {
            for digits in ["1", "15", "1.5", "100"] {
                with(&|v, n| {
                    if let (Some(slot), Some(number)) = (open_end(v, n), Number::from_text(digits))
                    {
                        *slot = Value::Number(number);
                    }
                });
            }
        }
        Tail::Whole => with(&|_, _| {}),
    }
    if open.tail == Tail::Whole && n > 0 {
        with(
            &|v, n| match n.checked_sub(1).and_then(|n| open_end(v, n)) {
                Some(Value::Array(items)) => items.push(Value::from(1i64)),
                Some(Value::Object(members)) => {
                    members.push((Cow::Borrowed("q"), Value::Bool(true)))
                }
                _ => {}
            },
        );
    }
    out
}

#[test]
fn a_value_refused_partially_is_refused_whatever_follows() {
    let mut n_refused = 0;
    for case in cases() {
        let schema = schema(case.schema);
        let value = json::parse(case.value)
            .unwrap_or_else(|e| panic!("{e}"))
            .into_owned();
        let refused = schema.validate_partial(&value, case.open).is_err();
        for ending in completions(&value, case.open) {
            let accepted = schema.validate(&ending).is_ok();
            assert!(
                !(refused && accepted),
                "{} refuses {} {:?} partially but accepts the ending {ending}",
                case.schema,
                case.value,
                case.open
            );
        }
        n_refused += usize::from(refused);
    }
    assert!(n_refused > 20, "{n_refused}");
}

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
