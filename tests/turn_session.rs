//! A conversation's turns in a `Session`: each refused call linked to its correction in the
//! next turn (same tool; an unknown name to a suggested one; an unreadable call to none),
//! never retried twice, every call counted once with its retry, the guard counting turns
//! per tool and stopping the run before that turn's calls run, and the async path counting
//! the same as the registry's.
#![cfg(feature = "turns")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use toolgate::{
    Answers, Counters, Guard, Outcome, Registry, RejectionKind, Session, SessionError, ToolSpec,
    Type,
};

/// `get_weather(city)` and `search_orders(customer_id)`, counting handler runs.
fn registry(runs: &Arc<AtomicUsize>) -> Registry {
    let mut registry = Registry::new();
    let weather = ToolSpec::new("get_weather", "Current weather for a city.")
        .required("city", Type::string())
        .build()
        .expect("the spec builds");
    let orders = ToolSpec::new("search_orders", "Search a customer's orders.")
        .required("customer_id", Type::string())
        .build()
        .expect("the spec builds");
    let counter = Arc::clone(runs);
    registry
        .register(weather, move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
            Ok("sunny".into())
        })
        .expect("registers");
    let counter = Arc::clone(runs);
    registry
        .register(orders, move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
            Ok("2 orders".into())
        })
        .expect("registers");
    registry
}

/// An Anthropic content list of `tool_use` blocks: `(id, name, input)`.
fn turn(calls: &[(&str, &str, &str)]) -> String {
    let blocks: Vec<String> = calls
        .iter()
        .map(|(id, name, input)| {
            format!(r#"{{"type":"tool_use","id":"{id}","name":"{name}","input":{input}}}"#)
        })
        .collect();
    format!(
        r#"{{"role":"assistant","content":[{{"type":"text","text":"On it."}},{}]}}"#,
        blocks.join(",")
    )
}

const CITY: &str = r#"{"city":"Oslo"}"#;
const NO_CITY: &str = r#"{}"#;
const CUSTOMER: &str = r#"{"customer_id":"C-1"}"#;

/// The ids of the rejections each outcome corrects, `-` for none.
fn corrects(outcomes: &[Outcome]) -> Vec<String> {
    outcomes
        .iter()
        .map(|outcome| match outcome.first_rejection() {
            Some(first) => first.id().unwrap_or("?").to_owned(),
            None => "-".to_owned(),
        })
        .collect()
}

#[test]
fn each_refused_call_is_linked_to_its_correction_in_the_next_turn() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::default();
    // Three parallel calls: one valid, one missing its field, one misspelled.
    let first = session
        .handle_turn(
            &registry,
            &turn(&[
                ("toolu_1", "get_weather", CITY),
                ("toolu_2", "get_weather", NO_CITY),
                ("toolu_3", "serch_orders", CUSTOMER),
            ]),
        )
        .expect("the turn reads");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(
        first.iter().map(Outcome::is_error).collect::<Vec<_>>(),
        [false, true, true]
    );
    assert_eq!(session.pending().len(), 2);
    // The next turn fixes both, in the other order, with new ids.
    let second = session
        .handle_turn(
            &registry,
            &turn(&[
                ("toolu_4", "search_orders", CUSTOMER),
                ("toolu_5", "get_weather", CITY),
            ]),
        )
        .expect("the turn reads");
    assert_eq!(corrects(&second), ["toolu_3", "toolu_2"]);
    // Each answer keeps its own call's id, not the refused call's.
    assert_eq!(
        second
            .iter()
            .map(|o| o.id().unwrap_or(""))
            .collect::<Vec<_>>(),
        ["toolu_4", "toolu_5"]
    );
    assert!(session.pending().is_empty());
    let counts = session.end();
    assert_eq!(counts.calls(), 3);
    assert_eq!(counts.dispatched, 3);
    assert_eq!(counts.rejected_calls, 0);
    assert_eq!((counts.retries_asked, counts.retries_succeeded), (2, 2));
    assert_eq!(counts.rejected_by(RejectionKind::SchemaViolation), 1);
    assert_eq!(counts.rejected_by(RejectionKind::UnknownTool), 1);
}

#[test]
fn two_refusals_of_one_tool_take_their_corrections_in_order() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::default();
    session
        .handle_turn(
            &registry,
            &turn(&[("a", "get_weather", NO_CITY), ("b", "get_weather", "[]")]),
        )
        .expect("reads");
    let second = session
        .handle_turn(
            &registry,
            &turn(&[
                ("c", "search_orders", CUSTOMER),
                ("d", "get_weather", CITY),
                ("e", "get_weather", CITY),
                ("f", "get_weather", CITY),
            ]),
        )
        .expect("reads");
    assert_eq!(corrects(&second), ["-", "a", "b", "-"]);
}

#[test]
fn an_unknown_name_is_corrected_by_a_call_to_a_suggested_name() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::default();
    session
        .handle_turn(&registry, &turn(&[("a", "get_wether", CITY)]))
        .expect("reads");
    let second = session
        .handle_turn(
            &registry,
            &turn(&[("b", "search_orders", CUSTOMER), ("c", "get_weather", CITY)]),
        )
        .expect("reads");
    // get_weather is the suggestion for get_wether; search_orders is not.
    assert_eq!(corrects(&second), ["-", "a"]);
    let counts = session.end();
    assert_eq!((counts.calls(), counts.retries_succeeded), (2, 1));
}

#[test]
fn a_call_is_retried_at_most_once() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::default();
    for (id, input) in [("a", NO_CITY), ("b", NO_CITY), ("c", CITY)] {
        session
            .handle_turn(&registry, &turn(&[(id, "get_weather", input)]))
            .expect("reads");
    }
    // b corrects a and is refused too: final. c is a new call, correcting nothing.
    let counts = session.end();
    assert_eq!(counts.calls(), 2, "{counts}");
    assert_eq!((counts.rejected_calls, counts.dispatched), (1, 1));
    assert_eq!((counts.retries_asked, counts.retries_succeeded), (1, 0));
    assert_eq!(counts.rejected_by(RejectionKind::SchemaViolation), 2);
}

#[test]
fn the_third_try_is_a_new_call_not_a_second_retry() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::default();
    session
        .handle_turn(&registry, &turn(&[("a", "get_weather", NO_CITY)]))
        .expect("reads");
    let second = session
        .handle_turn(&registry, &turn(&[("b", "get_weather", NO_CITY)]))
        .expect("reads");
    assert_eq!(corrects(&second), ["a"]);
    assert!(
        session.pending().is_empty(),
        "a refused correction is final"
    );
    let third = session
        .handle_turn(&registry, &turn(&[("c", "get_weather", CITY)]))
        .expect("reads");
    assert_eq!(corrects(&third), ["-"]);
}

#[test]
fn a_refusal_nothing_corrects_counts_once_the_next_turn_is_read() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let counters = Arc::new(Counters::new());
    let mut session = Session::new(Guard::default(), Arc::clone(&counters));
    session
        .handle_turn(&registry, &turn(&[("a", "get_weather", NO_CITY)]))
        .expect("reads");
    // Not counted yet: the next turn may correct it.
    assert_eq!(counters.snapshot().calls(), 0);
    session
        .handle_turn(&registry, &turn(&[("b", "search_orders", CUSTOMER)]))
        .expect("reads");
    let counts = counters.snapshot();
    assert_eq!((counts.rejected_calls, counts.dispatched), (1, 1));
    assert_eq!(counts.retries_asked, 0);
}

#[test]
fn a_call_whose_name_cannot_be_read_is_never_linked() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::default();
    session
        .handle_turn(
            &registry,
            r#"[{"type":"tool_use","id":"a","input":{}}, 42]"#,
        )
        .expect("reads");
    let second = session
        .handle_turn(&registry, &turn(&[("b", "get_weather", CITY)]))
        .expect("reads");
    assert_eq!(corrects(&second), ["-"]);
    let counts = session.end();
    assert_eq!((counts.rejected_calls, counts.dispatched), (2, 1));
    assert_eq!(counts.rejected_by(RejectionKind::BadEnvelope), 2);
}

#[test]
fn end_counts_the_refusals_still_pending() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::default();
    session
        .handle_turn(&registry, &turn(&[("a", "get_weather", NO_CITY)]))
        .expect("reads");
    let counts = session.end();
    assert_eq!((counts.calls(), counts.rejected_calls), (1, 1));
}

#[test]
fn an_unreadable_turn_changes_nothing() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::default();
    session
        .handle_turn(&registry, &turn(&[("a", "get_weather", NO_CITY)]))
        .expect("reads");
    let error = session
        .handle_turn(
            &registry,
            r#"{"role":"assistant","content":[{"type":"tool_use""#,
        )
        .expect_err("cut off");
    assert!(matches!(error, SessionError::Unreadable(_)), "{error}");
    assert_eq!(session.pending().len(), 1);
    // The turn after it still corrects the refused call.
    let next = session
        .handle_turn(&registry, &turn(&[("b", "get_weather", CITY)]))
        .expect("reads");
    assert_eq!(corrects(&next), ["a"]);
}

#[test]
fn the_guard_counts_turns_not_calls() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::default();
    let three_bad = turn(&[
        ("a", "get_weather", NO_CITY),
        ("b", "get_weather", NO_CITY),
        ("c", "get_weather", NO_CITY),
    ]);
    // One message with three bad calls to one tool is one refused turn.
    session
        .handle_turn(&registry, &three_bad)
        .expect("turn 1 goes on");
    assert_eq!(session.guard().streak(Some("get_weather")), 1);
    session
        .handle_turn(&registry, &three_bad)
        .expect("turn 2 goes on");
    assert_eq!(session.guard().streak(Some("get_weather")), 2);
    // The third refused turn in a row stops the run, before anything of it runs.
    runs.store(0, Ordering::SeqCst);
    let mut third = three_bad.clone();
    third.insert_str(
        third.len() - 2,
        r#",{"type":"tool_use","id":"d","name":"search_orders","input":{"customer_id":"C-1"}}"#,
    );
    let error = session
        .handle_turn(&registry, &third)
        .expect_err("the guard stops the run");
    let SessionError::Stopped(stop) = error else {
        panic!("expected the guard: {error}");
    };
    assert_eq!(stop.tool.as_deref(), Some("get_weather"));
    assert_eq!(stop.rejections, 3);
    assert_eq!(
        runs.load(Ordering::SeqCst),
        0,
        "nothing of the stopped turn runs"
    );
    assert!(session.pending().is_empty());
    // Turn 1's three refusals are corrected, and refused again, in turn 2: three calls
    // rejected after their retry. Turn 3's three refusals are final, without one. Its valid
    // call never ran and is not counted. Nine schema violations in all.
    let counts = session.end();
    assert_eq!(counts.rejected_calls, 6, "{counts}");
    assert_eq!((counts.retries_asked, counts.retries_succeeded), (3, 0));
    assert_eq!(counts.rejected_by(RejectionKind::SchemaViolation), 9);
    assert_eq!(counts.dispatched, 0);
}

#[test]
fn a_tool_with_a_call_that_passed_in_the_turn_is_not_refused_that_turn() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::new(Guard::new(2), Arc::new(Counters::new()));
    let mixed = turn(&[("a", "get_weather", NO_CITY), ("b", "get_weather", CITY)]);
    for _ in 0..3 {
        session.handle_turn(&registry, &mixed).expect("never stops");
        assert_eq!(session.guard().streak(Some("get_weather")), 0);
    }
}

#[test]
fn checking_then_answering_counts_like_the_registry() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let raws = [
        turn(&[("a", "get_weather", CITY), ("b", "get_weather", NO_CITY)]),
        turn(&[("c", "get_weather", CITY)]),
    ];
    let mut by_registry = Session::default();
    let mut by_hand = Session::default();
    for raw in &raws {
        let expected = by_registry.handle_turn(&registry, raw).expect("reads");
        let turn = by_hand.check_turn(registry.gate(), raw).expect("reads");
        let mut answers = Answers::new(&turn);
        // An answer missing: nothing is counted, and the answers can be completed after.
        let ids: Vec<(usize, String)> = turn
            .accepted()
            .map(|(index, call)| (index, call.id.as_deref().unwrap_or("").to_owned()))
            .collect();
        if !ids.is_empty() {
            let error = by_hand
                .finish_turn(answers.clone())
                .expect_err("unanswered");
            assert!(error.to_string().contains("has no answer yet"), "{error}");
        }
        for (_, id) in ids {
            answers
                .answer_id(&id, Ok("sunny".into()))
                .expect("accepted");
        }
        let outcomes = by_hand.finish_turn(answers).expect("all answered");
        assert_eq!(outcomes, expected);
    }
    assert_eq!(by_hand.end(), by_registry.end());
}

#[test]
fn sessions_can_share_counters() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let counters = Arc::new(Counters::new());
    for _ in 0..2 {
        let mut session = Session::new(Guard::default(), Arc::clone(&counters));
        session
            .handle_turn(&registry, &turn(&[("a", "get_weather", CITY)]))
            .expect("reads");
        session.end();
    }
    assert_eq!(counters.snapshot().dispatched, 2);
}

#[test]
fn a_correction_in_a_stopped_turn_never_runs_and_its_first_try_counts_refused() {
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let mut session = Session::new(Guard::new(2), Arc::new(Counters::new()));
    session
        .handle_turn(
            &registry,
            &turn(&[("a", "get_weather", NO_CITY), ("b", "search_orders", "{}")]),
        )
        .expect("one refused turn each");
    runs.store(0, Ordering::SeqCst);
    // get_weather is corrected; search_orders is refused a second turn running: stop.
    let error = session
        .handle_turn(
            &registry,
            &turn(&[("c", "get_weather", CITY), ("d", "search_orders", "{}")]),
        )
        .expect_err("search_orders, two turns in a row");
    assert!(matches!(error, SessionError::Stopped(_)), "{error}");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    let counts = session.end();
    // a: refused, its correction never ran; b and d: one call refused after its retry.
    assert_eq!((counts.calls(), counts.rejected_calls), (2, 2), "{counts}");
    assert_eq!((counts.retries_asked, counts.retries_succeeded), (1, 0));
    assert_eq!(counts.rejected_by(RejectionKind::SchemaViolation), 3);
}
