//! Partial mode against hand-built partial values: for each rule, a value refused while
//! still being written and one that is not; and the property that matters to the stream,
//! that a value refused partially is refused by [`Schema::validate`] whatever ending it
//! gets.

use crate::json::{self, Number, Open, Tail, Value};
use crate::spec::Schema;
use std::borrow::Cow;

pub(super) fn schema(text: &str) -> Schema {
    let document = json::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// One case: a schema, the tree so far, what is open, and `None` if the partial value is
/// not refused or `Some("path: sentence")` if it is.
pub(super) struct Case {
    pub(super) schema: &'static str,
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

pub(super) fn cases() -> Vec<Case> {
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
