//! `toolgate bench check`: it runs in process over a log and reports accepted and rejected
//! calls apart, with time and allocations per call. Only the report's shape and counts are
//! checked: speed is measured, never asserted.

mod support;

use std::process::Command;
use support::cli::file;

const TOOLS: &str = r#"[{"name": "get_weather", "description": "Weather for a city.",
  "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"], "additionalProperties": false}}]"#;

const CALLS: &str = r#"{"name":"get_weather","arguments":{"city":"Oslo"}}
{"name":"get_weather","arguments":{"city":"Rome"}}

{"name":"get_wether","arguments":{"city":"Oslo"}}
"#;

#[test]
fn bench_check_reports_accepted_and_rejected_calls_apart() {
    let tools = file("cli_bench_tools.json", TOOLS);
    let calls = file("cli_bench_calls.jsonl", CALLS);
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(["bench", "check", "--tools", &tools, "--passes", "1", &calls])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some(format!("Gate::check_call on 3 calls from {calls} (2 accepted, 1 rejected), median of 1 passes, warm heap").as_str())
    );
    let header = lines.next().unwrap_or("");
    for column in ["calls", "ns/call", "calls/s", "allocs/call", "bytes/call"] {
        assert!(header.contains(column), "{header}");
    }
    let rows: Vec<(String, String)> = lines
        .map(|line| {
            let (label, rest) = line.split_at(24.min(line.len()));
            let n_calls = rest.split_whitespace().next().unwrap_or("").to_owned();
            (label.trim_end().to_owned(), n_calls)
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("accepted".to_owned(), "2".to_owned()),
            ("rejected".to_owned(), "1".to_owned()),
            ("rejected + error text".to_owned(), "1".to_owned()),
        ]
    );
}

#[test]
fn bench_check_turns_compares_a_turn_with_its_calls_alone() {
    let tools = file("cli_bench_turn_tools.json", TOOLS);
    let calls = file("cli_bench_turn_calls.jsonl", CALLS);
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args([
            "bench", "check", "--tools", &tools, "--passes", "1", "--turns", "2", &calls,
        ])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    let calls_of = |label: &str| {
        lines
            .iter()
            .find(|line| line.starts_with(label))
            .and_then(|line| line.get(24..))
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_owned)
    };
    // The three lines that are JSON, as one turn of 2 and one of 1.
    assert_eq!(
        calls_of("turn calls one by one"),
        Some("3".to_owned()),
        "{stdout}"
    );
    assert_eq!(
        calls_of("turns (per call)"),
        Some("3".to_owned()),
        "{stdout}"
    );
    let last = lines.last().copied().unwrap_or("");
    assert!(
        last.starts_with("turns: a turn of 2 calls costs ")
            && last.ends_with("x its calls checked one by one"),
        "{last}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(["bench", "check", "--tools", &tools, "--turns", "0", &calls])
        .output()
        .expect("the binary runs");
    assert_eq!(bad.status.code(), Some(2));
}
