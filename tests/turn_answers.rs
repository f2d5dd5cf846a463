//! Answering a turn: outputs handed back by index or id in any order (from other threads, as
//! an async runtime would), every misuse refused with its own error, panics in the
//! registry's dispatch caught per call, handlers given the call id, and `ask_model` able to
//! decline the single-call retry without inventing a rejection.
#![cfg(feature = "turns")]

use std::sync::mpsc;
use toolgate::spec::Provider;
use toolgate::{AnswerError, Answers, Counters, Gate, Outcome, Registry, ToolSpec, Type};

const MESSAGE: &str = r#"{"role":"assistant","content":null,"tool_calls":[
  {"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}},
  {"id":"call_B","type":"function","function":{"name":"get_weather","arguments":"{\"city\":9}"}},
  {"id":"call_C","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Rome\"}"}}]}"#;

fn gate() -> Gate {
    Gate::new(vec![ToolSpec::new("get_weather", "Current weather.")
        .required("city", Type::string())
        .build()
        .expect("the spec builds")])
    .expect("one tool")
}

#[test]
fn outputs_from_other_threads_in_any_order_are_answered_in_call_order() {
    let gate = gate();
    let turn = gate.check_turn(MESSAGE).expect("reads");
    let (send, receive) = mpsc::channel();
    // Each accepted call runs on its own thread; the later one finishes first.
    let workers: Vec<_> = turn
        .accepted()
        .map(|(index, call)| {
            let (send, id) = (send.clone(), call.id.as_deref().unwrap_or("").to_owned());
            let city = call
                .args
                .get("city")
                .and_then(|c| c.as_str())
                .unwrap_or("")
                .to_owned();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(if index == 0 {
                    30
                } else {
                    0
                }));
                send.send((id, format!("{city}: sunny")))
                    .expect("the receiver waits");
            })
        })
        .collect();
    drop(send);
    let mut answers = Answers::new(&turn);
    assert_eq!(answers.unanswered().collect::<Vec<_>>(), [0, 2]);
    for (id, output) in receive {
        answers
            .answer_id(&id, Ok(output))
            .expect("an accepted call");
    }
    for worker in workers {
        worker.join().expect("the worker ends");
    }
    assert_eq!(
        answers
            .result_message(Provider::OpenAi)
            .expect("all answered")
            .to_string(),
        r#"[{"role":"tool","tool_call_id":"call_A","content":"Oslo: sunny"},{"role":"tool","tool_call_id":"call_B","content":"Error: get_weather rejected: city must be a string; received 9."},{"role":"tool","tool_call_id":"call_C","content":"Rome: sunny"}]"#
    );
}

#[test]
fn every_misuse_is_refused_with_its_own_error() {
    let turn = gate().check_turn(MESSAGE).expect("reads");
    let mut answers = Answers::new(&turn);
    let unanswered = answers
        .result_message(Provider::Anthropic)
        .expect_err("none answered");
    assert_eq!(
        unanswered.to_string(),
        "call 0 (get_weather, id 'call_A') has no answer yet; the result message must answer \
         every call of the turn"
    );
    assert_eq!(
        answers.answer(1, Ok("x".into())),
        Err(AnswerError::Refused { index: 1 })
    );
    assert_eq!(
        answers.answer_id("call_B", Ok("x".into())),
        Err(AnswerError::UnknownId {
            id: "call_B".into()
        })
    );
    assert_eq!(
        answers.answer(3, Ok("x".into())),
        Err(AnswerError::NoSuchCall { index: 3, calls: 3 })
    );
    answers
        .answer(0, Err("the weather service is down".into()))
        .expect("accepted");
    assert_eq!(
        answers.answer_id("call_A", Ok("again".into())),
        Err(AnswerError::AlreadyAnswered { index: 0 })
    );
    assert_eq!(
        answers.answer(0, Ok("again".into())),
        Err(AnswerError::AlreadyAnswered { index: 0 })
    );
    answers
        .answer_id("call_C", Ok("Rome: sunny".into()))
        .expect("accepted");
    let outcomes = answers.into_outcomes().expect("all answered");
    assert!(matches!(
        &outcomes[0],
        Outcome::ToolFailed {
            panicked: false,
            ..
        }
    ));
    assert!(matches!(&outcomes[1], Outcome::Rejected { .. }));
    assert!(matches!(&outcomes[2], Outcome::Dispatched { .. }));
    assert_eq!(
        toolgate::result_message(&outcomes, Provider::Anthropic).to_string(),
        r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_A","content":"get_weather failed: the weather service is down","is_error":true},{"type":"tool_result","tool_use_id":"call_B","content":"get_weather rejected: city must be a string; received 9.","is_error":true},{"type":"tool_result","tool_use_id":"call_C","content":"Rome: sunny"}]}"#
    );
}

#[test]
fn one_id_given_to_two_calls_answers_them_in_order() {
    let turn = gate()
        .check_turn(
            r#"[{"type":"tool_use","id":"dup","name":"get_weather","input":{"city":"A"}},
                {"type":"tool_use","id":"dup","name":"get_weather","input":{"city":"B"}}]"#,
        )
        .expect("reads");
    let mut answers = Answers::new(&turn);
    answers
        .answer_id("dup", Ok("first".into()))
        .expect("the first");
    answers
        .answer_id("dup", Ok("second".into()))
        .expect("the second");
    assert_eq!(
        answers.answer_id("dup", Ok("third".into())),
        Err(AnswerError::AlreadyAnswered { index: 1 })
    );
    let outputs: Vec<String> = answers
        .into_outcomes()
        .expect("answered")
        .iter()
        .map(Outcome::text)
        .collect();
    assert_eq!(outputs, ["first", "second"]);
}

#[test]
fn the_registry_catches_each_panic_and_gives_handlers_the_call_id() {
    let mut registry = Registry::new();
    registry
        .register_with_id(
            ToolSpec::new("echo_id", "Says its call id.")
                .build()
                .expect("builds"),
            |id, _| Ok(format!("I am {}", id.unwrap_or("nobody"))),
        )
        .expect("registers");
    registry
        .register(
            ToolSpec::new("crash", "Always panics.")
                .build()
                .expect("builds"),
            |_| panic!("boom"),
        )
        .expect("registers");
    let outcomes = registry
        .handle_turn(
            r#"{"role":"model","parts":[{"functionCall":{"id":"g1","name":"echo_id","args":{}}},
                {"functionCall":{"name":"crash","args":{}}},
                {"functionCall":{"name":"echo_id","args":{}}}]}"#,
        )
        .expect("reads");
    assert_eq!(
        toolgate::result_message(&outcomes, Provider::Gemini).to_string(),
        r#"{"role":"user","parts":[{"functionResponse":{"name":"echo_id","id":"g1","response":{"output":"I am g1"}}},{"functionResponse":{"name":"crash","response":{"error":"crash failed: the tool crashed (boom)"}}},{"functionResponse":{"name":"echo_id","response":{"output":"I am nobody"}}}]}"#
    );
    assert!(matches!(
        &outcomes[1],
        Outcome::ToolFailed { panicked: true, .. }
    ));
}

#[test]
fn ask_model_can_decline_without_inventing_a_rejection() {
    let mut registry = Registry::new();
    let spec = ToolSpec::new("get_weather", "Current weather.").required("city", Type::string());
    registry
        .register(spec.build().expect("builds"), |_| Ok("sunny".into()))
        .expect("registers");
    let raw = r#"{"id":"call_1","name":"get_weather","arguments":{}}"#;
    let declined = registry.handle_tool_call_or_decline(raw, |_| None);
    assert_eq!(
        declined,
        Outcome::Rejected {
            id: Some("call_1".into()),
            error: registry.gate().check_call(raw).expect_err("refused"),
            first_rejection: None,
        }
    );
    let counters = Counters::new();
    counters.record(&declined);
    let counts = counters.snapshot();
    assert_eq!((counts.rejected_calls, counts.retries_asked), (1, 0));
    assert_eq!(
        counts.rejected_total(),
        1,
        "one rejection, not an invented second"
    );
    // A corrected call returned through the same function is the one retry.
    let fixed = registry.handle_tool_call_or_decline(raw, |_| {
        Some(r#"{"id":"call_2","name":"get_weather","arguments":{"city":"Oslo"}}"#.into())
    });
    assert!(matches!(&fixed, Outcome::Dispatched { .. }) && fixed.retried());
}
