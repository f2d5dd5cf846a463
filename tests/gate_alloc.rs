//! What an accepted call costs the heap: the call's tree and nothing else. Each array or
//! object with members is one `Vec` made at its size (the outermost is the builder's stack
//! itself), each string that held an escape is one `String`, and the gates, the validation
//! included, allocate nothing more. Checked with a counting global allocator, on a call of
//! each shape and on every accepted corpus line.
//!
//! This file is its own test binary because a global allocator applies to a whole binary;
//! the allocator is the one in `support/alloc.rs`.

#[path = "support/alloc.rs"]
mod alloc;
#[path = "support/corpus.rs"]
mod corpus;

use alloc::{allocations_during, Counting};
use toolgate::{Gate, ToolSpec, Type};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations of `gate.check_call(raw)` and of `gate.check_call_bytes`, which must
/// both accept it and allocate alike.
fn allocations(gate: &Gate, raw: &str) -> u64 {
    let (mut text, mut bytes) = (false, false);
    let n_text = allocations_during(|| text = gate.check_call(raw).is_ok());
    let n_bytes = allocations_during(|| bytes = gate.check_call_bytes(raw.as_bytes()).is_ok());
    assert!(text && bytes, "not accepted: {raw}");
    assert_eq!(n_text, n_bytes, "{raw}");
    n_text
}

#[test]
fn every_shape_allocates_its_containers_and_escaped_strings_only() {
    let refund = ToolSpec::new("issue_refund", "Refund an order.")
        .required("order_id", Type::string().min_length(3))
        .required("amount_cents", Type::integer().min(1).max(500_000))
        .optional("note", Type::string())
        .build()
        .unwrap();
    let ping = ToolSpec::new("ping", "Takes nothing.").build().unwrap();
    let gate = Gate::new(vec![refund, ping]).unwrap();
    // One string with escapes (`note`): one `String`.
    let args = r#"{"order_id":"ORD-1","amount_cents":100,"note":"caf\u00e9 \"ok\""}"#;
    let plain_args = r#"{"order_id":"ORD-1","amount_cents":100}"#;
    let mut text = String::new();
    toolgate::json::write_escaped_str(&mut text, args).unwrap();
    let calls = [
        // The call object and the arguments object, and the escaped string.
        (
            format!(r#"{{"name":"issue_refund","arguments":{args}}}"#),
            3,
        ),
        (
            format!(r#"{{"name":"issue_refund","arguments":{plain_args}}}"#),
            2,
        ),
        (
            format!(r#"{{"arguments":{args},"name":"issue_refund"}}"#),
            3,
        ),
        // Arguments as text: parsed in place, the strings without escapes borrowed.
        (
            format!(r#"{{"name":"issue_refund","arguments":{text}}}"#),
            3,
        ),
        (
            format!(r#"{{"type":"tool_use","id":"toolu_1","name":"issue_refund","input":{args}}}"#),
            3,
        ),
        (
            format!(r#"{{"id":"toolu_1","input":{args},"name":"issue_refund","type":"tool_use"}}"#),
            3,
        ),
        // The nested `function` object is one more.
        (
            format!(
                r#"{{"id":"call_1","type":"function","function":{{"name":"issue_refund","arguments":{text}}}}}"#
            ),
            4,
        ),
        (
            format!(
                r#"{{"type":"function_call","id":"fc_1","call_id":"c","name":"issue_refund","arguments":{text}}}"#
            ),
            3,
        ),
        (
            format!(r#"{{"functionCall":{{"name":"issue_refund","args":{args}}}}}"#),
            4,
        ),
        // No arguments: `{}` takes no heap.
        (r#"{"name":"ping"}"#.to_owned(), 1),
    ];
    for (call, expect) in &calls {
        assert_eq!(allocations(&gate, call), *expect, "{call}");
    }
}

// The corpus's tools use `format`.
#[cfg(feature = "format")]
#[test]
fn accepted_corpus_lines_allocate_as_their_trees_do() {
    let Some(dir) = corpus::corpus() else { return };
    let calls = corpus::read(&dir, "calls.jsonl");
    let gate = Gate::from_tools_json(&corpus::read(&dir, "tools.json")).unwrap();
    let (mut n_accepted, mut total, mut most) = (0u64, 0u64, 0u64);
    for line in calls.lines() {
        if gate.check_call(line).is_err() {
            continue;
        }
        let n = allocations(&gate, line);
        n_accepted += 1;
        total += n;
        most = most.max(n);
    }
    assert_eq!(n_accepted, 19_530);
    // The corpus's calls hold 2 to 4 containers and a few escaped strings: 3.72 on average
    // as measured when this test was written, 15 at most.
    let mean = total as f64 / n_accepted as f64;
    assert!(mean <= 3.75, "{mean:.2} allocations per accepted call");
    assert!(most <= 15, "{most} allocations for one accepted call");
}
