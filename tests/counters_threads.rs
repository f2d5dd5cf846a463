//! Counters: each outcome lands in its own count, retries are counted apart, many threads
//! recording at once lose nothing, and the snapshot prints a table of counts and rates.

use std::sync::Arc;
use toolgate::{Counters, Counts, Gate, Outcome, Rejection, RejectionKind};

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

fn dispatched(retried: bool) -> Outcome {
    Outcome::Dispatched {
        id: Some(String::from("toolu_1")),
        tool: String::from("get_order"),
        output: String::from("shipped"),
        retried,
    }
}

fn tool_failed(retried: bool) -> Outcome {
    Outcome::ToolFailed {
        id: None,
        tool: String::from("get_order"),
        error: String::from("503"),
        panicked: false,
        retried,
    }
}

fn rejected(error: Rejection, retried: bool) -> Outcome {
    Outcome::Rejected {
        id: None,
        error,
        retried,
    }
}

#[test]
fn each_outcome_lands_in_its_own_count() {
    let counters = Counters::new();
    counters.record(&dispatched(false));
    counters.record(&dispatched(true));
    counters.record(&tool_failed(false));
    counters.record(&tool_failed(true));
    counters.record(&rejected(schema_violation(), true));
    counters.record(&rejected(unknown_tool(), false));
    counters.record_rejection(RejectionKind::MalformedJson);
    let counts = counters.snapshot();
    assert_eq!(counts.dispatched, 2);
    assert_eq!(counts.tool_failed, 2);
    assert_eq!(counts.rejected_by(RejectionKind::SchemaViolation), 1);
    assert_eq!(counts.rejected_by(RejectionKind::UnknownTool), 1);
    assert_eq!(counts.rejected_by(RejectionKind::MalformedJson), 1);
    assert_eq!(counts.rejected_by(RejectionKind::TruncatedJson), 0);
    assert_eq!(counts.rejected_total(), 3);
    assert_eq!(counts.calls(), 7);
    // Asked: the retried dispatch, tool failure and rejection; succeeded: the first two.
    assert_eq!(counts.retries_asked, 3);
    assert_eq!(counts.retries_succeeded, 2);
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
                        0 => counters.record(&dispatched(round % 2 == 0)),
                        1 => counters.record(&tool_failed(false)),
                        2 => counters.record(&rejected(violation.clone(), true)),
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
    for thread_idx in 0..THREADS {
        for round in 0..ROUNDS {
            match (round + thread_idx) % 4 {
                0 => {
                    expected.dispatched += 1;
                    if round % 2 == 0 {
                        expected.retries_asked += 1;
                        expected.retries_succeeded += 1;
                    }
                }
                1 => expected.tool_failed += 1,
                2 => expected.retries_asked += 1,
                _ => {}
            }
        }
    }
    assert_eq!(counts.dispatched, expected.dispatched);
    assert_eq!(counts.tool_failed, expected.tool_failed);
    assert_eq!(counts.retries_asked, expected.retries_asked);
    assert_eq!(counts.retries_succeeded, expected.retries_succeeded);
    let quarter = THREADS * ROUNDS / 4;
    assert_eq!(counts.rejected_by(RejectionKind::SchemaViolation), quarter);
    assert_eq!(counts.rejected_by(RejectionKind::TruncatedJson), quarter);
    assert_eq!(counts.calls(), THREADS * ROUNDS);
}

#[test]
fn the_snapshot_prints_a_table_of_counts_and_rates() {
    let counters = Counters::new();
    for _ in 0..6 {
        counters.record(&dispatched(false));
    }
    counters.record(&dispatched(true));
    counters.record(&tool_failed(false));
    counters.record(&rejected(schema_violation(), true));
    counters.record(&rejected(unknown_tool(), true));
    let expected = "\
outcome                      count     rate
calls                           10
dispatched                       7   70.0 %
tool failed                      1   10.0 %
rejected                         2   20.0 %
  malformed_json                 0    0.0 %
  truncated_json                 0    0.0 %
  bad_envelope                   0    0.0 %
  unknown_tool                   1   10.0 %
  arguments_not_object           0    0.0 %
  schema_violation               1   10.0 %
retries asked                    3   30.0 %
retries succeeded                1   33.3 %
(rates: share of calls; retries succeeded: share of retries asked)";
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
