//! A check-only verdict on an accepted call allocates nothing: the arguments' events go
//! straight into the tool's validation, no tree is built. Checked with a counting global
//! allocator, on every accepted corpus line and on a call of each shape.
//!
//! This file is its own test binary because a global allocator applies to a whole binary;
//! the allocator is the one in `support/alloc.rs`.
#![cfg(feature = "format")]

#[path = "support/alloc.rs"]
mod alloc;
#[path = "support/corpus.rs"]
mod corpus;

use alloc::{allocations_during, Counting};
use toolgate::{Gate, ToolSpec, Type};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations of `gate.verdict(raw)` and of `gate.verdict_bytes`, which must both
/// accept it.
fn allocations(gate: &Gate, raw: &str) -> u64 {
    let (mut text, mut bytes) = (false, false);
    let n = allocations_during(|| {
        text = gate.verdict(raw).is_ok();
        bytes = gate.verdict_bytes(raw.as_bytes()).is_ok();
    });
    assert!(text && bytes, "not accepted: {raw}");
    n
}

/// The allocations of the verdicts of every accepted corpus line, one entry per line that
/// allocated: `(line number, allocations)`.
fn corpus_allocations(gate: &Gate, calls: &str) -> Vec<(usize, u64)> {
    let mut n_accepted = 0;
    let mut allocating = Vec::new();
    for (index, line) in calls.lines().enumerate() {
        if gate.check_call(line).is_err() {
            continue;
        }
        n_accepted += 1;
        let n = allocations(gate, line);
        if n > 0 {
            allocating.push((index + 1, n));
        }
    }
    assert_eq!(n_accepted, 19_530);
    allocating
}

#[test]
fn accepted_corpus_lines_allocate_nothing() {
    let Some(dir) = corpus::corpus() else { return };
    let calls = corpus::read(&dir, "calls.jsonl");
    let gate = Gate::from_tools_json(&corpus::read(&dir, "tools.json")).unwrap();
    // With formats as annotations, and with formats enforced: a string that arrives in
    // parts (it holds an escape) and has a format is checked by the full validation, which
    // joins its text for the format (about 1% of the corpus: e-mail addresses like
    // `ex\u00e4mple.de`), in place when it is short.
    let annotated: Vec<ToolSpec> = gate
        .specs()
        .iter()
        .cloned()
        .map(ToolSpec::without_format_assertions)
        .collect();
    let annotated = Gate::new(annotated).unwrap();
    assert_eq!(corpus_allocations(&annotated, &calls), []);
    assert_eq!(corpus_allocations(&gate, &calls), []);
}

#[test]
fn every_shape_allocates_nothing() {
    let refund = ToolSpec::new("issue_refund", "Refund an order.")
        .required("order_id", Type::string().min_length(3))
        .required("amount_cents", Type::integer().min(1).max(500_000))
        .optional("note", Type::string())
        .build()
        .unwrap();
    let ping = ToolSpec::new("ping", "Takes nothing.").build().unwrap();
    let gate = Gate::new(vec![refund, ping]).unwrap();
    let args = r#"{"order_id":"ORD-1","amount_cents":100,"note":"caf\u00e9 \"ok\""}"#;
    let mut text = String::new();
    toolgate::json::write_escaped_str(&mut text, args).unwrap();
    let calls = [
        format!(r#"{{"name":"issue_refund","arguments":{args}}}"#),
        // Arguments before the name: read again once the name is known, still no heap.
        format!(r#"{{"arguments":{args},"name":"issue_refund"}}"#),
        format!(r#"{{"name":"issue_refund","arguments":{text}}}"#),
        format!(r#"{{"type":"tool_use","id":"toolu_1","name":"issue_refund","input":{args}}}"#),
        format!(r#"{{"id":"toolu_1","input":{args},"name":"issue_refund","type":"tool_use"}}"#),
        format!(
            r#"{{"id":"call_1","type":"function","function":{{"name":"issue_refund","arguments":{text}}}}}"#
        ),
        format!(
            r#"{{"type":"function_call","id":"fc_1","call_id":"c","name":"issue_refund","arguments":{text}}}"#
        ),
        format!(r#"{{"functionCall":{{"name":"issue_refund","args":{args}}}}}"#),
        r#"{"name":"ping"}"#.to_owned(),
    ];
    for call in &calls {
        assert_eq!(allocations(&gate, call), 0, "{call}");
    }
}
