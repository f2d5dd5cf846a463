//! Counters: each outcome lands in its own count, every rejection the gate made counts by
//! its kind (a refusal the retry fixed too), retries are counted apart, many threads
//! recording at once lose nothing, and the snapshot prints a table of counts and rates.

use std::sync::Arc;
use toolgate::{
    Counters, Counts, Gate, Outcome, Registry, Rejection, RejectionKind, ToolSpec, Type,
};

const TOOLS: &str = r#"[{"name": "get_order", "description": "Fetch one order.",
  "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}},
                   "required": ["order_id"], "additionalProperties": false}}]"#;

/// A real rejection of each kind the test uses.
fn rejection(raw: &str, kind: RejectionKind) -> Rejection {
    let gate = Gate::from_tools_json(TOOLS).expect("the test's tools load");
    let rejection = gate
        .check_call(raw)
        .expect_err("the test's call is refused");
    assert_eq!(rejection.kind(), kind, "{raw}");
    rejection
}

fn schema_violation() -> Rejection {
    rejection(
        r#"{"name":"get_order","arguments":{"order_id":7}}"#,
        RejectionKind::SchemaViolation,
    )
}

fn unknown_tool() -> Rejection {
    rejection(
        r#"{"name":"get_ordr","arguments":{}}"#,
        RejectionKind::UnknownTool,
    )
}

/// `first`: the first call's rejection, when the model was asked for a corrected call.
fn dispatched(first: Option<Rejection>) -> Outcome {
    Outcome::Dispatched {
        id: Some(String::from("toolu_1")),
        tool: String::from("get_order"),
        output: String::from("shipped"),
        first_rejection: first.map(Box::new),
    }
}

fn tool_failed(first: Option<Rejection>) -> Outcome {
    Outcome::ToolFailed {
        id: None,
        tool: String::from("get_order"),
        error: String::from("503"),
        panicked: false,
        first_rejection: first.map(Box::new),
    }
}

fn rejected(error: Rejection, first: Option<Rejection>) -> Outcome {
    Outcome::Rejected {
        id: None,
        error,
        first_rejection: first.map(Box::new),
    }
}

#[test]
fn each_outcome_lands_in_its_own_count() {
    let counters = Counters::new();
    counters.record(&dispatched(None));
    counters.record(&dispatched(Some(unknown_tool())));
    counters.record(&tool_failed(None));
    counters.record(&tool_failed(Some(schema_violation())));
    counters.record(&rejected(schema_violation(), Some(unknown_tool())));
    counters.record(&rejected(unknown_tool(), None));
    counters.record_rejection(RejectionKind::MalformedJson);
    let counts = counters.snapshot();
    assert_eq!(counts.dispatched, 2);
    assert_eq!(counts.tool_failed, 2);
    assert_eq!(counts.rejected_calls, 3);
    assert_eq!(counts.calls(), 7);
    // Every rejection the gate made, by kind: the first calls' refusals that the retry
    // fixed (one unknown_tool, one schema_violation), both refusals of the call rejected
    // twice, the call rejected without a retry, and the one recorded by kind.
    assert_eq!(counts.rejected_by(RejectionKind::SchemaViolation), 2);
    assert_eq!(counts.rejected_by(RejectionKind::UnknownTool), 3);
    assert_eq!(counts.rejected_by(RejectionKind::MalformedJson), 1);
    assert_eq!(counts.rejected_by(RejectionKind::TruncatedJson), 0);
    assert_eq!(counts.rejected_total(), 6);
    // Asked: the retried dispatch, tool failure and rejection; succeeded: the first two.
    assert_eq!(counts.retries_asked, 3);
    assert_eq!(counts.retries_succeeded, 2);
    // One decision per call and per retry: the 4 accepted plus the 6 rejections.
    assert_eq!(counts.decisions(), 10);
    assert_eq!(
        counts.decisions(),
        counts.dispatched + counts.tool_failed + counts.rejected_total()
    );
}

#[test]
fn a_refusal_the_retry_fixed_still_counts_by_its_kind() {
    // The typo turn of the demo: the model misspells the tool, the gate refuses it, the
    // corrected call runs. The unknown_tool refusal happened and must be counted.
    let mut registry = Registry::new();
    let spec = ToolSpec::new("get_order", "Fetch one order.")
        .required("order_id", Type::string())
        .build()
        .expect("the spec builds");
    registry
        .register(spec, |_| Ok(String::from("shipped")))
        .expect("one registration");
    let outcome = registry.handle_tool_call(r#"{"name":"get_ordr","arguments":{}}"#, |_| {
        String::from(r#"{"name":"get_order","arguments":{"order_id":"A1"}}"#)
    });
    assert!(matches!(outcome, Outcome::Dispatched { .. }), "{outcome:?}");
    let counters = Counters::new();
    counters.record(&outcome);
    let counts = counters.snapshot();
    assert_eq!(counts.rejected_by(RejectionKind::UnknownTool), 1);
    assert_eq!(counts.rejected_total(), 1);
    // As a call, it was dispatched, not rejected.
    assert_eq!((counts.calls(), counts.dispatched), (1, 1));
    assert_eq!(counts.rejected_calls, 0);
    assert_eq!((counts.retries_asked, counts.retries_succeeded), (1, 1));
    assert_eq!(counts.decisions(), 2);
}

#[test]
fn a_call_refused_twice_counts_both_rejections_and_one_call() {
    let counters = Counters::new();
    counters.record(&rejected(schema_violation(), Some(unknown_tool())));
    let counts = counters.snapshot();
    assert_eq!(counts.calls(), 1);
    assert_eq!(counts.rejected_calls, 1);
    assert_eq!(counts.rejected_by(RejectionKind::UnknownTool), 1);
    assert_eq!(counts.rejected_by(RejectionKind::SchemaViolation), 1);
    assert_eq!((counts.retries_asked, counts.retries_succeeded), (1, 0));
}

#[test]
fn many_threads_add_up_exactly() {
    const THREADS: u64 = 8;
    const ROUNDS: u64 = 5_000;
    let counters = Arc::new(Counters::new());
    let violation = schema_violation();
    let handles: Vec<_> = (0..THREADS)
        .map(|thread_idx| {
            let counters = Arc::clone(&counters);
            let violation = violation.clone();
            std::thread::spawn(move || {
                for round in 0..ROUNDS {
                    // Each thread records the same mix, shifted so threads collide on
                    // different counters at different times.
                    match (round + thread_idx) % 4 {
                        0 => counters
                            .record(&dispatched((round % 2 == 0).then(|| violation.clone()))),
                        1 => counters.record(&tool_failed(None)),
                        2 => counters.record(&rejected(violation.clone(), Some(violation.clone()))),
                        _ => counters.record_rejection(RejectionKind::TruncatedJson),
                    }
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().expect("no recording thread panics");
    }
    let counts = counters.snapshot();
    let mut expected = Counts::default();
    let mut expected_violations = 0;
    let mut expected_truncated = 0;
    for thread_idx in 0..THREADS {
        for round in 0..ROUNDS {
            match (round + thread_idx) % 4 {
                0 => {
                    expected.dispatched += 1;
                    if round % 2 == 0 {
                        expected.retries_asked += 1;
                        expected.retries_succeeded += 1;
                        expected_violations += 1;
                    }
                }
                1 => expected.tool_failed += 1,
                2 => {
                    expected.rejected_calls += 1;
                    expected.retries_asked += 1;
                    expected_violations += 2;
                }
                _ => {
                    expected.rejected_calls += 1;
                    expected_truncated += 1;
                }
            }
        }
    }
    assert_eq!(counts.dispatched, expected.dispatched);
    assert_eq!(counts.tool_failed, expected.tool_failed);
    assert_eq!(counts.rejected_calls, expected.rejected_calls);
    assert_eq!(counts.retries_asked, expected.retries_asked);
    assert_eq!(counts.retries_succeeded, expected.retries_succeeded);
    assert_eq!(
        counts.rejected_by(RejectionKind::SchemaViolation),
        expected_violations
    );
    assert_eq!(
        counts.rejected_by(RejectionKind::TruncatedJson),
        expected_truncated
    );
    assert_eq!(counts.calls(), THREADS * ROUNDS);
}

#[test]
fn the_snapshot_prints_a_table_of_counts_and_rates() {
    let counters = Counters::new();
    for _ in 0..6 {
        counters.record(&dispatched(None));
    }
    counters.record(&dispatched(Some(unknown_tool())));
    counters.record(&tool_failed(None));
    counters.record(&rejected(schema_violation(), Some(schema_violation())));
    counters.record(&rejected(unknown_tool(), Some(unknown_tool())));
    // Calls: 10, of which 3 were retried. Gate decisions: 10 + 3 = 13, of which 5 were
    // rejections: unknown_tool 3 (the fixed typo, both refusals of the last call),
    // schema_violation 2. 5/13 = 38.5 %, 3/13 = 23.1 %, 2/13 = 15.4 %.
    let expected = "\
outcome                      count     rate
calls                           10
dispatched                       7   70.0 %
tool failed                      1   10.0 %
rejected                         2   20.0 %
retries asked                    3   30.0 %
retries succeeded                1   33.3 %
gate decisions                  13
rejections                       5   38.5 %
  malformed_json                 0    0.0 %
  truncated_json                 0    0.0 %
  bad_envelope                   0    0.0 %
  unknown_tool                   3   23.1 %
  arguments_not_object           0    0.0 %
  schema_violation               2   15.4 %
(rates: dispatched, tool failed, rejected and retries asked are shares of calls;
 retries succeeded, of retries asked; rejections, of gate decisions: one per call,
 one per retry, so a refusal the retry fixed still counts by its kind)";
    assert_eq!(counters.snapshot().to_string(), expected);
}

#[test]
fn rates_of_nothing_are_a_dash() {
    let table = Counters::new().snapshot().to_string();
    let dispatched_row = table
        .lines()
        .find(|line| line.starts_with("dispatched"))
        .expect("a dispatched row");
    assert_eq!(
        dispatched_row,
        "dispatched                       0        -"
    );
}
