//! `Guard::record_turn`: one turn is one step of each tool's streak however many of its calls
//! were refused; a tool with a call that passed in the turn has succeeded; successes end the
//! unreadable and unknown-name streaks before the turn's refusals count; the first tool to
//! reach the limit, in call order, is the one reported; and the per-call API is unchanged.
#![cfg(feature = "turns")]

use toolgate::{Gate, Guard, Rejection};

const TOOLS: &str = r#"[
  {"name": "get_order", "description": "Fetch one order.",
   "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}},
                    "required": ["order_id"], "additionalProperties": false}},
  {"name": "send_email", "description": "Email the customer.",
   "input_schema": {"type": "object", "properties": {"to": {"type": "string"}},
                    "required": ["to"], "additionalProperties": false}}
]"#;

fn refused(raw: &str) -> Rejection {
    Gate::from_tools_json(TOOLS)
        .expect("the test's tools load")
        .check_call(raw)
        .expect_err("the test's call is refused")
}

fn bad_order() -> Rejection {
    refused(r#"{"name":"get_order","arguments":{}}"#)
}

fn bad_email() -> Rejection {
    refused(r#"{"name":"send_email","arguments":{}}"#)
}

#[test]
fn several_refusals_of_one_tool_in_one_turn_count_once() {
    let (bad, mut guard) = (bad_order(), Guard::default());
    for turn in 1..=2 {
        guard
            .record_turn([Err(&bad), Err(&bad), Err(&bad)])
            .expect("below the limit");
        assert_eq!(guard.streak(Some("get_order")), turn);
    }
    let stop = guard
        .record_turn([Err(&bad), Err(&bad)])
        .expect_err("the third turn in a row");
    assert_eq!(
        (stop.tool.as_deref(), stop.rejections),
        (Some("get_order"), 3)
    );
    // The per-call API still counts every call.
    let mut per_call = Guard::default();
    assert!(per_call.record_rejection(&bad).is_ok());
    assert!(per_call.record_rejection(&bad).is_ok());
    assert!(per_call.record_rejection(&bad).is_err());
}

#[test]
fn a_call_that_passed_is_a_success_of_its_tool_for_the_turn() {
    let (bad, mut guard) = (bad_order(), Guard::new(1));
    // Whatever the order of the good and the bad call.
    guard
        .record_turn([Err(&bad), Ok("get_order")])
        .expect("a success");
    guard
        .record_turn([Ok("get_order"), Err(&bad)])
        .expect("a success");
    assert_eq!(guard.streak(Some("get_order")), 0);
}

#[test]
fn each_tool_keeps_its_own_streak_and_the_first_to_trip_is_reported() {
    let (order, email, mut guard) = (bad_order(), bad_email(), Guard::new(2));
    guard
        .record_turn([Err(&order), Err(&email)])
        .expect("one each");
    let stop = guard
        .record_turn([Err(&email), Err(&order)])
        .expect_err("both reach 2");
    // In call order: send_email came first in this turn.
    assert_eq!(stop.tool.as_deref(), Some("send_email"));
    // Both streaks were recorded.
    assert_eq!(guard.streak(Some("get_order")), 2);
    assert_eq!(guard.streak(Some("send_email")), 2);
}

#[test]
fn successes_end_the_unreadable_and_unknown_streaks_before_the_turns_refusals() {
    let unreadable = refused(r#"{"arguments":{}}"#);
    let unknown = refused(r#"{"name":"get_ordr","arguments":{}}"#);
    let mut guard = Guard::default();
    guard
        .record_turn([Err(&unreadable), Err(&unknown)])
        .expect("one each");
    guard
        .record_turn([Err(&unreadable), Err(&unknown), Ok("send_email")])
        .expect("the success comes first");
    // The success cleared the streaks of 1; this turn's refusals then count 1 again.
    assert_eq!(guard.streak(None), 1);
    assert_eq!(guard.streak(Some("get_ordr")), 1);
}

#[test]
fn an_empty_turn_changes_nothing() {
    let (bad, mut guard) = (bad_order(), Guard::default());
    guard.record_turn([Err(&bad)]).expect("one");
    guard.record_turn([]).expect("nothing");
    assert_eq!(guard.streak(Some("get_order")), 1);
}
