//! `Gate::verdict` (the check-only answer, which runs the spec on the reader's events and
//! builds no tree) says exactly what `Gate::check_call` says: the same acceptance, and the
//! same rejection (kind, text, id, tool, path), on every corpus line, on the corpus lines
//! with their members reordered (arguments before the name, the name last), on random edits
//! of them, and on a table of calls that each break one gate, in every shape.
#![cfg(feature = "format")]

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/mutate.rs"]
mod mutate;
#[path = "support/rng.rs"]
mod rng;

use mutate::{mutate, Edit};
use rng::Rng;
use toolgate::json::{self, Value};
use toolgate::{Accepted, Gate, ToolSpec, Type};

/// Asserts that the verdict on `raw` is `check_call`'s (and the same for bytes), and
/// returns whether it accepted.
fn check(gate: &Gate, raw: &str, what: &str) -> bool {
    let verdict = gate.verdict(raw);
    let checked = gate.check_call(raw).map(Accepted::from);
    assert_eq!(
        verdict, checked,
        "{what}: verdict differs from check_call on {raw}"
    );
    if let Err(rejection) = &verdict {
        let again = checked.as_ref().unwrap_err();
        assert_eq!(rejection.to_string(), again.to_string(), "{what}: {raw}");
        assert_eq!(rejection.path(), again.path(), "{what}: {raw}");
        assert_eq!(rejection.id(), again.id(), "{what}: {raw}");
    }
    check_bytes(gate, raw.as_bytes(), what);
    verdict.is_ok()
}

/// Asserts that the verdict on bytes is `check_call_bytes`'s.
fn check_bytes(gate: &Gate, raw: &[u8], what: &str) {
    let verdict = gate.verdict_bytes(raw);
    let checked = gate.check_call_bytes(raw).map(Accepted::from);
    assert_eq!(verdict, checked, "{what}: verdict_bytes differs on {raw:?}");
}

fn load() -> Option<(Gate, String)> {
    let dir = corpus::corpus()?;
    let tools = corpus::read(&dir, "tools.json");
    let calls = corpus::read(&dir, "calls.jsonl");
    Some((Gate::from_tools_json(&tools).unwrap(), calls))
}

/// The call with its top-level members (and those of a nested object) in reverse order:
/// the arguments then come before the name in every shape.
fn reversed(value: &Value<'_>) -> Value<'static> {
    match value {
        Value::Object(members) => Value::Object(
            members
                .iter()
                .rev()
                .map(|(key, member)| {
                    let member = match member {
                        Value::Object(_) if key == "function" || key == "functionCall" => {
                            reversed(member)
                        }
                        other => other.clone().into_owned(),
                    };
                    (key.clone().into_owned().into(), member)
                })
                .collect(),
        ),
        other => other.clone().into_owned(),
    }
}

#[test]
fn every_corpus_line_and_its_reordering() {
    let Some((gate, calls)) = load() else { return };
    let (mut n_lines, mut n_accepted) = (0, 0);
    for (index, line) in calls.lines().enumerate() {
        let what = format!("line {}", index + 1);
        n_lines += 1;
        n_accepted += usize::from(check(&gate, line, &what));
        if let Ok(value) = json::parse(line) {
            let text = reversed(&value).to_string();
            check(&gate, &text, &format!("{what} reversed"));
        }
    }
    assert_eq!(n_lines, 20_000);
    // The corpus's labels: 19,530 lines are valid calls.
    assert_eq!(n_accepted, 19_530);
}

#[test]
fn random_edits_of_corpus_lines() {
    let Some((gate, calls)) = load() else { return };
    let lines: Vec<&str> = calls.lines().collect();
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    let edits = [
        Edit::Delete(3),
        Edit::Insert,
        Edit::Cut,
        Edit::Copy(12),
        Edit::Swap,
    ];
    let tokens = [
        "\"",
        "\\\"",
        ",",
        ":",
        "{",
        "}",
        "[",
        "]",
        "null",
        "1",
        "-0.5e3",
        "true",
        "\\u00e9",
        "\"name\":\"issue_refund\",",
        "\"name\":\"nope\",",
        "\"input\":{},",
        "\"arguments\":\"{}\",",
        "\"type\":\"tool_use\",",
        "\"type\":\"function\",",
        "\"function\":{\"name\":\"x\"},",
        "\"extra\":[1,{\"a\":null}],",
        "\"args\":{\"a\":1},",
        "\"id\":\"call_1\",",
        "\"id\":7,",
    ];
    let (mut n_accepted, iters) = (0, Rng::iters(20_000));
    for round in 0..iters {
        let line = *rng.pick(&lines);
        let text = mutate(&mut rng, line, (1, 3), &edits, &tokens);
        let what = format!("seed {seed}, round {round}");
        n_accepted += usize::from(check(&gate, &text, &what));
        // Bytes: cut anywhere (inside a character too), or one byte replaced.
        let mut bytes = text.into_bytes();
        if rng.bool() {
            bytes.truncate(rng.below(bytes.len() + 1));
        } else if let Some(byte) = bytes.get_mut(rng.below(line.len().max(1))) {
            *byte = rng.u8();
        }
        check_bytes(&gate, &bytes, &what);
    }
    // Edits often keep a call valid (inside a string, an ignored member): both paths run.
    assert!(
        n_accepted > iters / 20,
        "seed {seed}: {n_accepted} accepted"
    );
}

fn gate() -> Gate {
    let refund = ToolSpec::new("issue_refund", "Refund an order.")
        .required("order_id", Type::string().min_length(3))
        .required("amount_cents", Type::integer().min(1).max(500_000))
        .optional("note", Type::string().max_length(20))
        .build()
        .unwrap();
    let ping = ToolSpec::new("ping", "Takes nothing.").build().unwrap();
    let open = ToolSpec::new("lookup", "Open.")
        .optional("q", Type::string())
        .build()
        .unwrap();
    let dotted = ToolSpec::new("github.create_issue", "Mapped name.")
        .required("title", Type::string())
        .build()
        .unwrap();
    Gate::new(vec![refund, ping, open, dotted]).unwrap()
}

#[test]
fn each_gate_in_each_shape() {
    let gate = gate();
    let args = [
        r#"{"order_id":"ORD-1","amount_cents":100}"#,
        r#"{"order_id":"ORD-1","amount_cents":0}"#,
        r#"{"order_id":"O","amount_cents":100,"note":"a note far too long to pass"}"#,
        r#"{"order_id":"ORD-1","amount_cents":100,"order_id":"ORD-2"}"#,
        r#"{"order_id":"ORD\u002d1","amount_cents":1e2,"extra":true}"#,
        r#"{"order_id":"ORD-1","amount_cents":100,"note":null}"#,
        r#"{"order_id":"ORD-1"}"#,
        r#"{"amount_cents":100,"order_id":"ORD-1","nested":{"a":[1,2,{"b":null}]}}"#,
        r#"[1,2]"#,
        r#""text""#,
        r#"null"#,
        r#"{}"#,
        r#"{"order_id":"ORD-1","amount_cents":100"#,
    ];
    let names = [
        "issue_refund",
        "ping",
        "lookup",
        "github_create_issue",
        "issue_refnd",
    ];
    let mut n_cases = 0;
    for args in args {
        let text = {
            let mut text = String::new();
            json::write_escaped_str(&mut text, args).unwrap();
            text
        };
        for name in names {
            let shapes = [
                format!(r#"{{"name":"{name}","arguments":{args}}}"#),
                format!(r#"{{"arguments":{args},"name":"{name}"}}"#),
                format!(r#"{{"name":"{name}","arguments":{text}}}"#),
                format!(r#"{{"arguments":{text},"name":"{name}","id":"c1"}}"#),
                format!(r#"{{"name":"{name}","parameters":{args}}}"#),
                format!(r#"{{"type":"tool_use","id":"toolu_1","name":"{name}","input":{args}}}"#),
                format!(r#"{{"id":"toolu_1","input":{args},"name":"{name}","type":"tool_use"}}"#),
                format!(
                    r#"{{"id":"call_1","type":"function","function":{{"name":"{name}","arguments":{text}}}}}"#
                ),
                format!(
                    r#"{{"function":{{"arguments":{text},"name":"{name}"}},"id":"call_1","type":"function"}}"#
                ),
                format!(
                    r#"{{"type":"function_call","id":"fc_1","call_id":"c9","name":"{name}","arguments":{text}}}"#
                ),
                format!(r#"{{"functionCall":{{"name":"{name}","args":{args},"id":"g1"}}}}"#),
                format!(r#"{{"functionCall":{{"args":{args},"name":"{name}"}}}}"#),
                format!(r#"{{"function_call":{{"name":"{name}","arguments":{text}}}}}"#),
                // The top-level name is not the one this shape reads.
                format!(
                    r#"{{"name":"{name}","arguments":{args},"function":{{"name":"ping","arguments":"{{}}"}}}}"#
                ),
                format!(r#"{{"name":"ping","input":{args},"type":"tool_use","name":"{name}"}}"#),
                format!(r#"{{"name":"{name}","arguments":{args},"input":{args}}}"#),
                format!(r#"{{"name":"{name}"}}"#),
                format!(r#"{{"name":"{name}","arguments":{args}}} x"#),
                format!(r#"{{"name":"{name}","arguments":{args},"id":5}}"#),
                format!(r#"{{"name":"{name}","arguments":{args},"name":"{name}"}}"#),
                format!(r#"{{"name":"{name}","arguments":{args},"type":"message"}}"#),
                format!(r#"{{"name":"{name}","arguments":{args},"bad":tru}}"#),
            ];
            for shape in &shapes {
                check(&gate, shape, "table");
                n_cases += 1;
            }
        }
    }
    assert_eq!(n_cases, 13 * 5 * 22);
}

#[test]
fn accepted_in_every_shape() {
    let gate = gate();
    let accepted = [
        r#"{"name":"issue_refund","arguments":{"order_id":"ORD-1","amount_cents":100}}"#,
        r#"{"arguments":{"order_id":"ORD-1","amount_cents":100},"name":"issue_refund"}"#,
        r#"{"type":"tool_use","id":"t","name":"ping","input":{}}"#,
        r#"{"id":"t","input":{"q":"x"},"name":"lookup","type":"tool_use"}"#,
        r#"{"id":"c","type":"function","function":{"name":"issue_refund","arguments":"{\"order_id\":\"ORD-1\",\"amount_cents\":7}"}}"#,
        r#"{"function":{"arguments":"{\"q\":\"\\u00e9\"}","name":"lookup"},"type":"function","id":"c"}"#,
        r#"{"functionCall":{"args":{"title":"t"},"name":"github_create_issue"}}"#,
        r#"{"name":"ping"}"#,
        r#"{"name":"issue_refund","arguments":{"order_id":"ORD-1","amount_cents":100,"note":null}}"#,
    ];
    for raw in accepted {
        assert!(check(&gate, raw, "accepted"), "{raw}");
    }
}

#[test]
fn arguments_that_are_not_an_object_under_a_schema_that_takes_anything() {
    // The object gate comes before the spec, even when the spec itself would take a list.
    for schema in [r#"{}"#, r#"{"type":["object","array"]}"#] {
        let tools = format!(r#"[{{"name":"open","input_schema":{schema}}}]"#);
        let gate = Gate::from_tools_json(&tools).unwrap();
        for args in ["[1]", "\"[1]\"", "7", "\"7\""] {
            let raw = format!(r#"{{"name":"open","arguments":{args}}}"#);
            assert!(!check(&gate, &raw, schema), "{raw}");
            let raw = format!(r#"{{"arguments":{args},"name":"open"}}"#);
            assert!(!check(&gate, &raw, schema), "{raw}");
        }
        assert!(check(
            &gate,
            r#"{"name":"open","arguments":{"a":[1]}}"#,
            schema
        ));
    }
}

/// An arguments text the call's shape does not read (a top-level `arguments` beside OpenAI
/// chat's `"type": "function"`), cut off or not JSON, before or after the one it reads: the
/// call is the one its shape names, with the arguments its shape reads. (The builder the
/// unread text stopped inside once built the read arguments into what it held, and
/// `check_call` refused a valid call with "received null" while the verdict accepted it.)
#[test]
fn an_unread_arguments_text_that_is_not_json_spoils_nothing() {
    let gate = gate();
    let read = r#""function":{"name":"issue_refund","arguments":"{\"order_id\":\"ORD-1\",\"amount_cents\":100}"}"#;
    for unread in [
        r#"{"#,
        r#"{\"order_id\":"#,
        r#"{\"order_id\":\"OR"#,
        r#"[1,{\"a\":[2"#,
        r#"{\"a\":}"#,
        r#"{\"a\":1}}"#,
        r#""#,
    ] {
        for raw in [
            format!(r#"{{"id":"c1","arguments":"{unread}","type":"function",{read}}}"#),
            format!(r#"{{"id":"c1","type":"function",{read},"arguments":"{unread}"}}"#),
        ] {
            assert!(check(&gate, &raw, "unread text"), "refused: {raw}");
            let call = gate.check_call(&raw).unwrap();
            assert_eq!(call.name, "issue_refund", "{raw}");
            let order = call.args.get("order_id").and_then(Value::as_str);
            assert_eq!(order, Some("ORD-1"), "{raw}");
        }
    }
}
