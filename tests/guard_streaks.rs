//! The rejection guard: the Nth rejection in a row for one tool stops the run; a success of
//! that tool ends its streak; streaks are kept per tool name; calls with no readable name
//! share one key; a tool failure counts as success.

use toolgate::{Gate, Guard, Outcome, Rejection, RejectionKind};

const TOOLS: &str = r#"[
  {"name": "get_order", "description": "Fetch one order.",
   "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}},
                    "required": ["order_id"], "additionalProperties": false}},
  {"name": "send_email", "description": "Email the customer.",
   "input_schema": {"type": "object", "properties": {"to": {"type": "string"}},
                    "required": ["to"], "additionalProperties": false}}
]"#;

fn gate() -> Gate {
    Gate::from_tools_json(TOOLS).expect("the test's tools load")
}

/// A real rejection of `raw`, with the kind the test expects.
fn rejection(raw: &str, kind: RejectionKind) -> Rejection {
    let rejection = gate()
        .check_call(raw)
        .expect_err("the test's call is refused");
    assert_eq!(rejection.kind(), kind, "{raw}");
    rejection
}

/// `get_order` with a missing field: a schema violation named `get_order`.
fn bad_get_order() -> Rejection {
    rejection(
        r#"{"name":"get_order","arguments":{}}"#,
        RejectionKind::SchemaViolation,
    )
}

/// `send_email` with a wrong type.
fn bad_send_email() -> Rejection {
    rejection(
        r#"{"name":"send_email","arguments":{"to":42}}"#,
        RejectionKind::SchemaViolation,
    )
}

/// Malformed before any name could be read.
fn malformed() -> Rejection {
    let rejection = rejection(r#"{,"name":"get_order"}"#, RejectionKind::MalformedJson);
    assert_eq!(rejection.tool(), None);
    rejection
}

/// Cut off before any name could be read.
fn truncated() -> Rejection {
    let rejection = rejection(r#"{"na"#, RejectionKind::TruncatedJson);
    assert_eq!(rejection.tool(), None);
    rejection
}

fn unknown() -> Rejection {
    rejection(
        r#"{"name":"get_ordr","arguments":{}}"#,
        RejectionKind::UnknownTool,
    )
}

fn dispatched(tool: &str) -> Outcome {
    Outcome::Dispatched {
        id: None,
        tool: tool.to_owned(),
        output: String::from("ok"),
        first_rejection: None,
    }
}

fn tool_failed(tool: &str) -> Outcome {
    Outcome::ToolFailed {
        id: None,
        tool: tool.to_owned(),
        error: String::from("upstream 503"),
        panicked: false,
        first_rejection: None,
    }
}

fn rejected(error: Rejection) -> Outcome {
    Outcome::Rejected {
        id: None,
        error: error.clone(),
        first_rejection: Some(Box::new(error)),
    }
}

#[test]
fn the_third_rejection_in_a_row_stops_the_run_by_default() {
    let mut guard = Guard::default();
    assert_eq!(guard.limit(), 3);
    let last = bad_get_order();
    assert_eq!(guard.record_rejection(&last), Ok(()));
    assert_eq!(guard.record_rejection(&last), Ok(()));
    let stuck = guard.record_rejection(&last).expect_err("third in a row");
    assert_eq!(stuck.tool.as_deref(), Some("get_order"));
    assert_eq!(stuck.rejections, 3);
    assert_eq!(*stuck.last, last);
    let text = stuck.to_string();
    assert!(
        text.contains("'get_order' was rejected 3 times in a row"),
        "{text}"
    );
    assert!(text.contains(&last.to_string()), "{text}");
    assert!(text.contains("schema_violation"), "{text}");
}

#[test]
fn the_limit_is_configurable() {
    for limit in 1..=6 {
        let mut guard = Guard::new(limit);
        for n in 1..limit {
            assert_eq!(
                guard.record_rejection(&bad_get_order()),
                Ok(()),
                "{n} of {limit}"
            );
        }
        let stuck = guard
            .record_rejection(&bad_get_order())
            .expect_err("at the limit");
        assert_eq!(stuck.rejections, limit);
    }
}

#[test]
fn a_limit_of_zero_stops_at_the_first_rejection() {
    let mut guard = Guard::new(0);
    assert_eq!(guard.limit(), 1);
    assert!(guard.record_rejection(&bad_get_order()).is_err());
}

#[test]
fn a_success_of_the_tool_ends_its_streak() {
    let mut guard = Guard::default();
    for _ in 0..2 {
        guard
            .record_rejection(&bad_get_order())
            .expect("below the limit");
    }
    assert_eq!(guard.record(&dispatched("get_order")), Ok(()));
    assert_eq!(guard.streak(Some("get_order")), 0);
    for _ in 0..2 {
        guard
            .record_rejection(&bad_get_order())
            .expect("a new streak");
    }
    assert!(guard.record_rejection(&bad_get_order()).is_err());
}

#[test]
fn a_tool_failure_counts_as_success() {
    let mut guard = Guard::default();
    for _ in 0..2 {
        guard
            .record_rejection(&bad_get_order())
            .expect("below the limit");
    }
    assert_eq!(guard.record(&tool_failed("get_order")), Ok(()));
    assert_eq!(guard.streak(Some("get_order")), 0);
    for _ in 0..2 {
        guard
            .record_rejection(&bad_get_order())
            .expect("a new streak");
    }
}

#[test]
fn streaks_are_kept_per_tool() {
    // A fails, B fails, A fails: exploring two tools, each below the limit.
    let mut guard = Guard::default();
    guard.record_rejection(&bad_get_order()).expect("A 1");
    guard.record_rejection(&bad_send_email()).expect("B 1");
    guard.record_rejection(&bad_get_order()).expect("A 2");
    guard.record_rejection(&bad_send_email()).expect("B 2");
    assert_eq!(guard.streak(Some("get_order")), 2);
    assert_eq!(guard.streak(Some("send_email")), 2);
    assert_eq!(
        guard.streaks(),
        vec![(Some("get_order"), 2), (Some("send_email"), 2)]
    );
}

#[test]
fn another_tools_success_does_not_end_a_streak() {
    // A fails, B succeeds, A fails: not stuck at 3; but B's success says nothing about A's
    // arguments, so a third A rejection stops the run.
    let mut guard = Guard::default();
    guard.record(&rejected(bad_get_order())).expect("A 1");
    guard.record(&dispatched("send_email")).expect("B ok");
    guard
        .record(&rejected(bad_get_order()))
        .expect("A 2: exploring, not stuck");
    let stuck = guard.record(&rejected(bad_get_order())).expect_err("A 3");
    assert_eq!(stuck.tool.as_deref(), Some("get_order"));
}

#[test]
fn calls_with_no_readable_name_share_one_key() {
    let mut guard = Guard::default();
    guard.record_rejection(&malformed()).expect("1");
    guard.record_rejection(&truncated()).expect("2");
    assert_eq!(guard.streak(None), 2);
    let stuck = guard.record_rejection(&malformed()).expect_err("3");
    assert_eq!(stuck.tool, None);
    assert_eq!(stuck.rejections, 3);
    assert!(stuck.to_string().contains("could not be read"), "{stuck}");
}

#[test]
fn any_success_ends_the_unreadable_streak() {
    let mut guard = Guard::default();
    guard.record_rejection(&malformed()).expect("1");
    guard.record_rejection(&malformed()).expect("2");
    guard.record(&dispatched("send_email")).expect("ok");
    assert_eq!(guard.streak(None), 0);
    guard.record_rejection(&malformed()).expect("a new streak");
}

#[test]
fn unknown_names_are_keyed_by_name_and_end_with_any_success() {
    let mut guard = Guard::default();
    guard.record_rejection(&unknown()).expect("1");
    guard.record_rejection(&unknown()).expect("2");
    assert_eq!(guard.streak(Some("get_ordr")), 2);
    guard.record(&dispatched("get_order")).expect("ok");
    assert_eq!(guard.streak(Some("get_ordr")), 0);
    guard.record_rejection(&unknown()).expect("1 again");
    guard.record_rejection(&unknown()).expect("2 again");
    let stuck = guard.record_rejection(&unknown()).expect_err("3");
    assert_eq!(stuck.tool.as_deref(), Some("get_ordr"));
}

#[test]
fn argument_streaks_survive_other_successes_that_end_unknown_ones() {
    let mut guard = Guard::default();
    guard.record_rejection(&bad_get_order()).expect("A 1");
    guard.record_rejection(&unknown()).expect("unknown 1");
    guard.record(&dispatched("send_email")).expect("ok");
    assert_eq!(guard.streaks(), vec![(Some("get_order"), 1)]);
}

#[test]
fn once_tripped_it_stays_tripped_until_a_success() {
    let mut guard = Guard::new(2);
    guard.record_rejection(&bad_get_order()).expect("1");
    assert!(guard.record_rejection(&bad_get_order()).is_err());
    let again = guard
        .record_rejection(&bad_get_order())
        .expect_err("still stuck");
    assert_eq!(again.rejections, 3);
    guard.record_success("get_order");
    assert_eq!(guard.record_rejection(&bad_get_order()), Ok(()));
}

#[test]
fn two_guards_share_nothing() {
    let mut first = Guard::default();
    let mut second = Guard::default();
    first.record_rejection(&bad_get_order()).expect("1");
    first.record_rejection(&bad_get_order()).expect("2");
    second
        .record_rejection(&bad_get_order())
        .expect("the other run's first");
    assert_eq!(first.streak(Some("get_order")), 2);
    assert_eq!(second.streak(Some("get_order")), 1);
}

#[test]
fn a_cut_off_call_whose_name_was_read_counts_for_that_tool() {
    let cut = rejection(
        r#"{"name":"get_order","arguments":{"order_id":"ORD-"#,
        RejectionKind::TruncatedJson,
    );
    let mut guard = Guard::default();
    guard.record_rejection(&cut).expect("1");
    guard.record_rejection(&bad_get_order()).expect("2");
    assert_eq!(guard.streak(Some("get_order")), 2);
    assert_eq!(guard.streak(None), 0);
    let stuck = guard.record_rejection(&cut).expect_err("3");
    assert_eq!(stuck.tool.as_deref(), Some("get_order"));
}

#[test]
fn a_rejected_turn_is_one_step_keyed_by_its_last_rejection() {
    // `handle_tool_call`'s Rejected carries two refusals (the call's and the retry's); as
    // documented, the guard counts the turn once, under the retry's tool, so the default
    // limit stops the run after three turns, six refusals.
    let mut guard = Guard::default();
    let turn = Outcome::Rejected {
        id: None,
        error: bad_get_order(),
        first_rejection: Some(Box::new(bad_send_email())),
    };
    assert_eq!(guard.record(&turn), Ok(()));
    assert_eq!(guard.streak(Some("get_order")), 1);
    assert_eq!(guard.streak(Some("send_email")), 0);
    assert_eq!(guard.record(&turn), Ok(()));
    let stuck = guard.record(&turn).expect_err("the third rejected turn");
    assert_eq!(stuck.tool.as_deref(), Some("get_order"));
    assert_eq!(stuck.rejections, 3);
    assert_eq!(*stuck.last, bad_get_order());
}

#[test]
fn a_corrected_call_that_ran_is_a_success_not_a_rejection() {
    // The first call's refusal travels with the outcome for the counters; the guard sees a
    // call of get_order that passed, which ends get_order's streak.
    let mut guard = Guard::default();
    assert_eq!(guard.record(&rejected(bad_get_order())), Ok(()));
    let fixed = Outcome::Dispatched {
        id: None,
        tool: String::from("get_order"),
        output: String::from("ok"),
        first_rejection: Some(Box::new(bad_get_order())),
    };
    assert_eq!(guard.record(&fixed), Ok(()));
    assert_eq!(guard.streak(Some("get_order")), 0);
    assert!(guard.streaks().is_empty());
}

#[test]
fn a_tool_name_from_a_broken_call_is_quoted_on_one_line_when_the_guard_stops() {
    // The name of an unknown tool is whatever the model wrote: the operator's message
    // escapes it and cuts it like every other text that quotes a name.
    let unknown = rejection(
        r#"{"name":"it's\nbad","arguments":{}}"#,
        RejectionKind::UnknownTool,
    );
    let mut guard = Guard::new(2);
    assert!(guard.record_rejection(&unknown).is_ok());
    let stopped = guard.record_rejection(&unknown).unwrap_err().to_string();
    assert!(
        stopped.starts_with(r"Stopped the run: 'it\'s\nbad' was rejected 2 times in a row."),
        "{stopped}"
    );
    assert!(!stopped.contains('\n'), "{stopped}");
}
