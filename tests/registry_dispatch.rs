//! `handle_tool_call`: dispatch of valid calls, exactly one retry, tool failures (errors and
//! caught panics) kept apart from rejections, ids on every outcome, duplicate
//! registrations, and one registry serving many threads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use toolgate::{handle_tool_call, Outcome, Registry, RegistryError, ToolSpec, Type};

/// A registry with `add(a, b)`, `fail()` (always `Err`) and `crash()` (always panics),
/// counting how often each handler runs.
fn registry(runs: &Arc<AtomicUsize>) -> Registry {
    let mut registry = Registry::new();
    let add = ToolSpec::new("add", "Adds two integers.")
        .required("a", Type::integer())
        .required("b", Type::integer())
        .build()
        .unwrap();
    let counter = Arc::clone(runs);
    registry
        .register(add, move |args| {
            counter.fetch_add(1, Ordering::SeqCst);
            let a = args.get("a").and_then(|a| a.as_i64()).unwrap_or(0);
            let b = args.get("b").and_then(|b| b.as_i64()).unwrap_or(0);
            Ok((a + b).to_string())
        })
        .unwrap();
    let counter = Arc::clone(runs);
    registry
        .register(
            ToolSpec::new("fail", "Always fails.").build().unwrap(),
            move |_| {
                counter.fetch_add(1, Ordering::SeqCst);
                Err("the database is down".to_string())
            },
        )
        .unwrap();
    let counter = Arc::clone(runs);
    registry
        .register(
            ToolSpec::new("crash", "Always panics.").build().unwrap(),
            move |_| {
                counter.fetch_add(1, Ordering::SeqCst);
                panic!("index out of bounds: the len is 0 but the index is 3")
            },
        )
        .unwrap();
    registry
}

/// Runs `handle_tool_call` with a model that answers `answer`, counting how often it is
/// asked and what it was told.
fn handle(registry: &Registry, raw: &str, answer: &str) -> (Outcome, Vec<String>) {
    let mut asked = Vec::new();
    let outcome = handle_tool_call(registry, raw, |error| {
        asked.push(error.to_string());
        answer.to_string()
    });
    (outcome, asked)
}

#[test]
fn a_valid_call_runs_once_and_the_model_is_not_asked() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let (outcome, asked) = handle(
        &registry,
        r#"{"type":"tool_use","id":"toolu_1","name":"add","input":{"a":2,"b":3}}"#,
        "unused",
    );
    assert_eq!(
        outcome,
        Outcome::Dispatched {
            id: Some("toolu_1".into()),
            tool: "add".into(),
            output: "5".into(),
            first_rejection: None,
        }
    );
    assert!(asked.is_empty());
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn a_rejected_call_asks_once_and_runs_the_corrected_call() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let first = r#"{"type":"tool_use","id":"toolu_1","name":"add","input":{"a":2}}"#;
    let (outcome, asked) = handle(
        &registry,
        first,
        r#"{"type":"tool_use","id":"toolu_2","name":"add","input":{"a":2,"b":40}}"#,
    );
    assert_eq!(asked, ["add rejected: missing required field 'b'."]);
    // The outcome keeps the first call's rejection: the very text the model was shown.
    let first_rejection = registry.gate().check_call(first).unwrap_err();
    assert_eq!(first_rejection.to_string(), asked[0]);
    assert_eq!(
        outcome,
        Outcome::Dispatched {
            id: Some("toolu_2".into()),
            tool: "add".into(),
            output: "42".into(),
            first_rejection: Some(Box::new(first_rejection)),
        }
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn a_corrected_call_without_an_id_answers_the_first_call_id() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let (outcome, _) = handle(
        &registry,
        r#"{"type":"tool_use","id":"toolu_1","name":"ad","input":{}}"#,
        r#"{"name":"add","arguments":{"a":1,"b":1}}"#,
    );
    assert_eq!(outcome.id(), Some("toolu_1"));
    assert!(outcome.retried());
}

#[test]
fn two_rejections_return_the_second_and_run_nothing() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let (outcome, asked) = handle(
        &registry,
        r#"{"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":1,"}}"#,
        r#"{"id":"call_2","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":\"2\"}"}}"#,
    );
    assert_eq!(
        asked,
        [
            "The arguments of add were cut off after 7 bytes, inside an object. Do not send the \
          same call again: make it smaller, with fewer or shorter items."
        ]
    );
    let Outcome::Rejected {
        id,
        error,
        first_rejection,
    } = &outcome
    else {
        panic!("expected Rejected, got {outcome:?}");
    };
    assert_eq!(id.as_deref(), Some("call_2"));
    // Both rejections are kept, in order: the first call's, then the retry's.
    let first = first_rejection
        .as_deref()
        .expect("the model was asked once");
    assert_eq!(first.kind().label(), "truncated_json");
    assert_eq!(first.to_string(), asked[0]);
    let labels: Vec<_> = outcome.rejections().map(|r| r.kind().label()).collect();
    assert_eq!(labels, ["truncated_json", "schema_violation"]);
    assert_eq!(error.kind().label(), "schema_violation");
    assert_eq!(
        error.to_string(),
        "add rejected: b must be an integer; received \"2\"."
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_tool_error_is_a_failure_not_a_rejection_and_is_not_retried() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let (outcome, asked) = handle(&registry, r#"{"id":"c1","name":"fail"}"#, "unused");
    assert_eq!(
        outcome,
        Outcome::ToolFailed {
            id: Some("c1".into()),
            tool: "fail".into(),
            error: "the database is down".into(),
            panicked: false,
            first_rejection: None,
        }
    );
    assert_eq!(outcome.text(), "fail failed: the database is down");
    assert!(
        asked.is_empty(),
        "a tool failure must not ask the model for another call"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn a_panicking_tool_is_caught_and_reported_once() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let (outcome, asked) = handle(&registry, r#"{"id":"c1","name":"crash"}"#, "unused");
    assert_eq!(
        outcome,
        Outcome::ToolFailed {
            id: Some("c1".into()),
            tool: "crash".into(),
            error: "index out of bounds: the len is 0 but the index is 3".into(),
            panicked: true,
            first_rejection: None,
        }
    );
    assert_eq!(
        outcome.text(),
        "crash failed: the tool crashed (index out of bounds: the len is 0 but the index is 3)"
    );
    assert!(asked.is_empty());
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // The registry still works after the panic.
    let (outcome, _) = handle(&registry, r#"{"name":"add","arguments":{"a":1,"b":2}}"#, "");
    assert!(matches!(outcome, Outcome::Dispatched { ref output, .. } if output == "3"));
}

#[test]
fn a_panic_without_a_message_still_fails_cleanly() {
    let mut registry = Registry::new();
    registry
        .register(
            ToolSpec::new("odd", "Panics oddly.").build().unwrap(),
            |_| std::panic::panic_any(42_u8),
        )
        .unwrap();
    let (outcome, _) = handle(&registry, r#"{"name":"odd"}"#, "");
    assert_eq!(
        outcome,
        Outcome::ToolFailed {
            id: None,
            tool: "odd".into(),
            error: "the tool panicked without a message".into(),
            panicked: true,
            first_rejection: None,
        }
    );
}

/// A panic payload whose destructor panics too.
struct PanicsOnDrop;

impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        panic!("the payload's destructor panicked");
    }
}

#[test]
fn a_panic_whose_payload_panics_when_dropped_does_not_escape() {
    // std's catch_unwind docs: dropping the caught payload can panic. That second panic must
    // not unwind out of handle_tool_call.
    let mut registry = Registry::new();
    registry
        .register(
            ToolSpec::new("bomb", "Panics with a payload that panics on drop.")
                .build()
                .unwrap(),
            |_| std::panic::panic_any(PanicsOnDrop),
        )
        .unwrap();
    let (outcome, asked) = handle(&registry, r#"{"id":"c9","name":"bomb"}"#, "unused");
    assert_eq!(
        outcome,
        Outcome::ToolFailed {
            id: Some("c9".into()),
            tool: "bomb".into(),
            error: "the tool panicked without a message".into(),
            panicked: true,
            first_rejection: None,
        }
    );
    assert!(asked.is_empty());
}

#[test]
fn a_boxed_str_panic_keeps_its_message() {
    let mut registry = Registry::new();
    registry
        .register(
            ToolSpec::new("boxed", "Panics with a Box<str>.")
                .build()
                .unwrap(),
            |_| std::panic::panic_any(Box::<str>::from("the cache file is corrupt")),
        )
        .unwrap();
    let (outcome, _) = handle(&registry, r#"{"name":"boxed"}"#, "");
    assert_eq!(
        outcome.text(),
        "boxed failed: the tool crashed (the cache file is corrupt)"
    );
}

#[test]
fn an_empty_error_or_panic_message_still_gives_the_model_a_sentence() {
    let mut registry = Registry::new();
    registry
        .register(
            ToolSpec::new("mute", "Errs with nothing.").build().unwrap(),
            |_| Err(String::new()),
        )
        .unwrap();
    registry
        .register(
            ToolSpec::new("gasp", "Panics with nothing.")
                .build()
                .unwrap(),
            |_| panic!(""),
        )
        .unwrap();
    let (mute, _) = handle(&registry, r#"{"name":"mute"}"#, "");
    assert_eq!(
        mute.text(),
        "mute failed: the tool returned an error without a message"
    );
    let (gasp, _) = handle(&registry, r#"{"name":"gasp"}"#, "");
    assert!(matches!(gasp, Outcome::ToolFailed { panicked: true, .. }));
    assert_eq!(
        gasp.text(),
        "gasp failed: the tool crashed without a message"
    );
}

#[test]
fn duplicate_registration_is_an_error_and_changes_nothing() {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut registry = registry(&runs);
    let again = ToolSpec::new("add", "Another add.").build().unwrap();
    let error = registry.register(again, |_| Ok("no".into())).unwrap_err();
    assert_eq!(
        error,
        RegistryError {
            duplicate: "add".into()
        }
    );
    assert_eq!(
        error.to_string(),
        "the tool 'add' is already registered; every tool needs its own name"
    );
    assert_eq!(registry.gate().specs().len(), 3);
    let (outcome, _) = handle(&registry, r#"{"name":"add","arguments":{"a":1,"b":2}}"#, "");
    assert!(matches!(outcome, Outcome::Dispatched { ref output, .. } if output == "3"));
}

#[test]
fn the_registry_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Registry>();
    assert_send_sync::<Outcome>();
}

#[test]
fn one_registry_serves_many_threads() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let n_threads = 8;
    let n_calls = 500;
    let asked = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for thread in 0..n_threads {
            let (registry, asked) = (&registry, &asked);
            scope.spawn(move || {
                for call in 0..n_calls {
                    let raw = format!(
                        r#"{{"id":"c{thread}_{call}","name":"add","arguments":{{"a":{thread},"b":{call}}}}}"#
                    );
                    // Every fifth call is broken first and corrected on the retry.
                    let first = if call % 5 == 0 {
                        format!(r#"{{"id":"c{thread}_{call}","name":"add","arguments":{{"a":{thread}}}}}"#)
                    } else {
                        raw.clone()
                    };
                    let outcome = registry.handle_tool_call(&first, |_| {
                        asked.fetch_add(1, Ordering::SeqCst);
                        raw.clone()
                    });
                    let expect = (thread + call).to_string();
                    assert_eq!(outcome.id(), Some(format!("c{thread}_{call}").as_str()));
                    assert!(
                        matches!(&outcome, Outcome::Dispatched { output, .. }
                            if *output == expect && outcome.retried() == (call % 5 == 0)),
                        "{outcome:?}"
                    );
                }
            });
        }
    });
    assert_eq!(runs.load(Ordering::SeqCst), n_threads * n_calls);
    assert_eq!(asked.load(Ordering::SeqCst), n_threads * n_calls / 5);
}

#[test]
fn ask_model_can_get_the_rejection_itself() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut seen = Vec::new();
    let outcome = registry.handle_tool_call_with(
        r#"{"id":"call_1","type":"function","function":{"name":"ad","arguments":"{}"}}"#,
        |rejection| {
            seen.push((
                rejection.kind().label(),
                rejection.id().map(String::from),
                rejection.tool().map(String::from),
            ));
            r#"{"id":"call_2","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":1}"}}"#
                .to_string()
        },
    );
    assert_eq!(
        seen,
        [(
            "unknown_tool",
            Some("call_1".to_string()),
            Some("ad".to_string())
        )]
    );
    assert!(
        matches!(outcome, Outcome::Dispatched { ref output, first_rejection: Some(ref first), .. }
            if output == "2" && first.kind().label() == "unknown_tool")
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}
