//! A call in a turn gets the verdict it gets alone, ids and positions included: the turn is
//! read once, each call's envelope as the turn goes by, so this holds that one pass to what
//! `Gate::check_call` says of the call's own bytes. Over random turns of corpus lines (and
//! of lines edited until they are odd but still JSON: duplicate keys, nested lists, wrong
//! kinds), in a chat message, a chat completion (whose choice is itself a list element), a
//! list of calls and beside a legacy `function_call`; and for the calls the pass leaves to
//! a check of their own bytes (nested deeper than the limits, a list of objects inside a
//! call). A turn that is not JSON is refused with the parser's own error.
#![cfg(feature = "turns")]

mod support;

use support::corpus::{corpus, read};
use support::mutate::{mutate, Edit};
use support::rng::Rng;
use toolgate::json::{self, Limits};
use toolgate::{Gate, ToolSpec, TurnError, Type};

/// A turn holding `lines` (JSON texts) as its calls, in one of the forms whose every
/// element is a call, with `legacy` as a legacy `function_call` beside them; and the text
/// each call is checked as alone, in call order.
fn turn(rng: &mut Rng, lines: &[&str], legacy: Option<&str>) -> (String, Vec<String>) {
    let separator = *rng.pick(&[",", ", ", ",\n  "]);
    let list = format!("[{}]", lines.join(separator));
    let mut alone: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
    let legacy_member = match legacy {
        Some(call) => {
            alone.push(format!("{{\"function_call\":{call}}}"));
            format!(",\"function_call\":{call}")
        }
        None => String::new(),
    };
    let message =
        format!("{{\"role\":\"assistant\",\"content\":null,\"tool_calls\":{list}{legacy_member}}}");
    let raw = match rng.below(3) {
        0 => message,
        1 => format!(
            "{{\"id\":\"chatcmpl-1\",\"choices\":[{{\"index\":0,\"message\":{message}}}],\"usage\":null}}"
        ),
        // A bare list: its elements' own `type` decides what each is, so only the
        // message forms take a legacy call or any line.
        _ if legacy.is_none() && lines.iter().all(|line| plainly_a_call(line)) => list,
        _ => message,
    };
    (raw, alone)
}

/// True for a line a bare list reads as a call whatever else it holds: an object whose
/// `type` is a call's.
fn plainly_a_call(line: &str) -> bool {
    let Ok(value) = json::parse(line) else {
        return false;
    };
    matches!(
        value.get("type").and_then(|kind| kind.as_str()),
        Some("function" | "tool_use" | "function_call")
    ) && value
        .as_object()
        .is_some_and(|members| members.iter().filter(|(key, _)| key == "type").count() == 1)
}

/// Checks every call of `raw` against its text alone.
fn assert_alone(gate: &Gate, raw: &str, alone: &[String], context: &str) {
    let turn = gate
        .check_turn(raw)
        .unwrap_or_else(|error| panic!("{error}\n{context}\n{raw}"));
    assert_eq!(turn.calls.len(), alone.len(), "{context}\n{raw}");
    for (index, (call, text)) in turn.calls.iter().zip(alone).enumerate() {
        assert_eq!(
            call.verdict,
            gate.check_call(text),
            "call {index}: {context}\n{raw}"
        );
    }
}

/// The corpus lines that are JSON (a turn holding one that is not would not be JSON).
fn json_lines(calls: &str) -> Vec<&str> {
    calls
        .lines()
        .filter(|line| json::parse(line).is_ok())
        .collect()
}

fn corpus_gate() -> Option<(Gate, String)> {
    let dir = corpus()?;
    let gate = Gate::from_tools_json(&read(&dir, "tools.json")).expect("tools.json loads");
    Some((gate, read(&dir, "calls.jsonl")))
}

#[test]
fn every_corpus_call_in_a_turn_gets_its_verdict_alone() {
    let Some((gate, calls)) = corpus_gate() else {
        return;
    };
    let lines = json_lines(&calls);
    assert!(lines.len() > 19_000);
    let mut rng = Rng::from_env();
    let mut rest = &lines[..];
    let mut n_turns = 0;
    while !rest.is_empty() {
        let n = rng.range(1, 6).min(rest.len());
        let (these, after) = rest.split_at(n);
        rest = after;
        let legacy = rng.chance(1, 8).then(|| *rng.pick(&lines));
        let (raw, alone) = turn(&mut rng, these, legacy);
        let context = format!("seed {} turn {n_turns}", rng.seed());
        assert_alone(&gate, &raw, &alone, &context);
        n_turns += 1;
    }
    println!("{n_turns} turns of corpus calls");
}

#[test]
fn edited_calls_that_stay_json_get_their_verdict_alone_in_a_turn() {
    let Some((gate, calls)) = corpus_gate() else {
        return;
    };
    let lines = json_lines(&calls);
    let edits = [Edit::Delete(3), Edit::Insert, Edit::Copy(30), Edit::Swap];
    let tokens = [
        "[{}]",
        "{\"a\":[{\"b\":1}]},",
        "\"name\":\"x\",",
        "\"type\":\"function\",",
        "\"function_call\":{\"name\":\"f\"},",
        "\"arguments\":\"{\\\"a\\\":[1,\\\"\\\\u00e9\\\"]}\",",
        "\"input\":[{}],",
        "\"parameters\":{\"list\":[{\"k\":[]}]},",
        "null,",
        "\"id\":7,",
        "\\\"",
    ];
    let mut rng = Rng::from_env();
    let mut n_turns = 0;
    for case in 0..Rng::iters(3000) {
        let mut these = Vec::new();
        for _ in 0..rng.range(1, 4) {
            let line = *rng.pick(&lines);
            let edited = mutate(&mut rng, line, (1, 3), &edits, &tokens);
            if json::parse(&edited).is_ok() {
                these.push(edited);
            }
        }
        if these.is_empty() {
            continue;
        }
        let these: Vec<&str> = these.iter().map(String::as_str).collect();
        let (raw, alone) = turn(&mut rng, &these, None);
        let context = format!("seed {} case {case}", rng.seed());
        assert_alone(&gate, &raw, &alone, &context);
        n_turns += 1;
    }
    println!("{n_turns} turns of edited calls");
    assert!(n_turns > 0);
}

#[test]
fn calls_the_pass_leaves_unread_get_their_verdict_alone() {
    let Some((gate, _)) = corpus_gate() else {
        return;
    };
    let deep_args = format!("{}{}", "[".repeat(6), "]".repeat(6));
    let calls = [
        // A list of objects inside a call, outside its arguments.
        r#"{"type":"tool_use","id":"toolu_1","name":"get_shipment","caller":[{"type":"direct"}],"input":{"order_id":"ORD-2024-000001"}}"#.to_owned(),
        r#"{"name":"get_shipment","parameters":{"order_id":"ORD-2024-000001","x":[{"y":[{}]}]}}"#.to_owned(),
        // A call in a list inside a call.
        r#"{"id":"call_1","type":"function","function":{"name":"get_shipment","arguments":"{}"},"more":[{"name":"get_shipment","arguments":{}}]}"#.to_owned(),
        // Deeper than the limits below allow a call alone.
        format!(r#"{{"id":"call_2","type":"function","function":{{"name":"get_shipment","arguments":{{"a":{deep_args}}}}}}}"#),
        format!(r#"{{"id":"call_3","name":"get_shipment","arguments":"{{\"a\":{deep_args}}}"}}"#),
    ];
    let shallow = gate.clone().with_limits(Limits {
        max_depth: 6,
        ..Limits::default()
    });
    // A chat message: its calls are shallow enough in the turn to be deeper than the
    // limits alone allow and still read as part of it.
    for gate in [&gate, &shallow] {
        for (index, call) in calls.iter().enumerate() {
            let raw = format!(
                "{{\"role\":\"assistant\",\"tool_calls\":[{call}],\"function_call\":{call}}}"
            );
            let alone = [call.clone(), format!("{{\"function_call\":{call}}}")];
            assert_alone(gate, &raw, &alone, &format!("call {index}"));
        }
    }
}

#[test]
fn a_turn_that_is_not_json_is_refused_with_the_parsers_error() {
    let Some((gate, calls)) = corpus_gate() else {
        return;
    };
    let lines = json_lines(&calls);
    let edits = [
        Edit::Delete(4),
        Edit::Insert,
        Edit::Cut,
        Edit::Copy(20),
        Edit::Swap,
    ];
    let tokens = [
        "{", "}", "[", "]", ",", ":", "\"", "\\\"", "\\u12", "\\", "\u{1}",
    ];
    let limits = Limits {
        max_depth: Limits::DEFAULT_MAX_DEPTH + 5,
        ..Limits::default()
    };
    let mut rng = Rng::from_env();
    let (mut n_refused, mut n_read) = (0, 0);
    for case in 0..Rng::iters(3000) {
        let these: Vec<&str> = (0..rng.range(1, 4)).map(|_| *rng.pick(&lines)).collect();
        let (raw, _) = turn(&mut rng, &these, None);
        let broken = mutate(&mut rng, &raw, (1, 3), &edits, &tokens);
        let context = format!("seed {} case {case}\n{broken}", rng.seed());
        match (gate.check_turn(&broken), json::parse_with(&broken, limits)) {
            (Err(TurnError::NotJson(error)), Err(expected)) => {
                assert_eq!(*error, expected, "{context}");
                n_refused += 1;
            }
            (Err(TurnError::NotJson(error)), Ok(_)) => panic!("{error}\n{context}"),
            (_, Err(expected)) => panic!("read, but not JSON: {expected}\n{context}"),
            (_, Ok(_)) => n_read += 1,
        }
    }
    println!("{n_refused} broken turns refused, {n_read} still JSON");
    assert!(n_refused > 0 && n_read > 0);
}

#[test]
fn a_call_after_one_with_an_unused_arguments_text_cut_off_gets_its_verdict_alone() {
    let Some((gate, _)) = corpus_gate() else {
        return;
    };
    // The first call's top-level `arguments` text is cut off, and unused: its shape takes
    // the arguments under `function`.
    let first = r#"{"id":"call_1","arguments":"{\"a","type":"function","function":{"name":"get_shipment","arguments":"{\"order_id\":\"ORD-2024-000001\"}"}}"#;
    let second = r#"{"name":"get_shipment","arguments":{"order_id":"ORD-2024-000002"}}"#;
    let raw = format!("[{first},{second}]");
    assert_alone(&gate, &raw, &[first.to_owned(), second.to_owned()], "");
}

#[test]
fn a_legacy_call_written_before_the_tool_calls_gets_its_verdict_alone() {
    // The turn answers `tool_calls` first and the legacy `function_call` last, whatever
    // order the message writes them in: the one written first is met out of the order the
    // turn answers in, and must still get its own verdict, not a neighbour's.
    let gate = Gate::new(vec![
        ToolSpec::new("get_weather", "Current weather.")
            .required("city", Type::string())
            .build()
            .expect("spec builds"),
        ToolSpec::new("get_time", "Current time.")
            .required("zone", Type::string())
            .build()
            .expect("spec builds"),
    ])
    .expect("gate builds");
    let tool_calls = [
        r#"{"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}"#,
        r#"{"id":"call_B","type":"function","function":{"name":"get_time","arguments":"{\"zone\":7}"}}"#,
    ];
    let legacies = [
        r#"{"name":"get_time","arguments":"{\"zone\":\"CET\"}"}"#,
        r#"{"name":"get_weather","arguments":"{}"}"#,
        r#"{"name":"get_wether","arguments":"{\"city\":\"Rome\"}"}"#,
    ];
    for legacy in legacies {
        let list = tool_calls.join(",");
        let message = format!(
            r#"{{"role":"assistant","content":null,"function_call":{legacy},"tool_calls":[{list}]}}"#
        );
        let completion = format!(r#"{{"choices":[{{"index":0,"message":{message}}}]}}"#);
        let mut alone: Vec<String> = tool_calls.iter().map(|call| call.to_string()).collect();
        alone.push(format!("{{\"function_call\":{legacy}}}"));
        assert_alone(&gate, &message, &alone, "a chat message");
        assert_alone(&gate, &completion, &alone, "a chat completion");
        let turn = gate.check_turn(&message).expect("a turn");
        let ids: Vec<Option<&str>> = turn.calls.iter().map(|call| call.id()).collect();
        assert_eq!(ids, [Some("call_A"), Some("call_B"), None]);
    }
}
