//! `toolgate bench check`: it runs in process over a log and reports accepted and rejected
//! calls apart, with time and allocations per call. Only the report's shape and counts are
//! checked: speed is measured, never asserted. Also here, since the benchmarks are the
//! commands that print the most: every command stops quietly when its output is closed.
#![cfg(all(
    feature = "pattern",
    feature = "format",
    feature = "turns",
    feature = "stream",
    feature = "mcp"
))]

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
    // A log shorter than `--turns` is one turn of all its calls, and the line says so.
    let long = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args([
            "bench", "check", "--tools", &tools, "--passes", "1", "--turns", "1000", &calls,
        ])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&long.stdout);
    let last = stdout.lines().last().unwrap_or("");
    assert!(
        last.starts_with("turns: a turn of 3 calls costs "),
        "{last}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(["bench", "check", "--tools", &tools, "--turns", "0", &calls])
        .output()
        .expect("the binary runs");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn bench_check_verdicts_times_the_verdict_and_the_validator_alone() {
    let tools = file("cli_bench_verdict_tools.json", TOOLS);
    let calls = file("cli_bench_verdict_calls.jsonl", CALLS);
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args([
            "bench",
            "check",
            "--tools",
            &tools,
            "--passes",
            "1",
            "--verdicts",
            &calls,
        ])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let rows: Vec<(&str, &str)> = stdout
        .lines()
        .skip(5)
        .map(|line| {
            let (label, rest) = line.split_at(24.min(line.len()));
            (
                label.trim_end(),
                rest.split_whitespace().next().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("check-only accepted", "2"),
            ("check-only rejected", "1"),
            ("validate accepted", "2"),
            ("validate, exact copies", "2"),
        ]
    );
}

/// Every command that prints stops quietly when the reader of its output goes away
/// (`toolgate bench check ... | head -3`), where `println!` would panic: exit 0, no
/// message. The pipe is closed before the command writes, so its first write fails.
#[test]
fn a_closed_standard_output_ends_each_command_without_a_panic() {
    let tools = file("cli_bench_pipe_tools.json", TOOLS);
    let calls = file("cli_bench_pipe_calls.jsonl", CALLS);
    let commands: [&[&str]; 6] = [
        &["bench", "check", "--tools", &tools, "--passes", "1", &calls],
        &["bench", "parse", "--passes", "1", &calls],
        &["schema", "--tools", &tools, "--to", "openai"],
        &["check", "--tools", &tools, &calls],
        &["--help"],
        &[],
    ];
    for args in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolgate"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("the binary ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        // `check` answers for the calls it read (one was rejected) or stops at the pipe.
        let expected: &[i32] = if args.first() == Some(&"check") {
            &[0, 1]
        } else {
            &[0]
        };
        let code = output.status.code().unwrap_or(-1);
        assert!(expected.contains(&code), "{args:?}: exit {code}, {stderr}");
    }
}

/// `--events` adds a section with one row per provider, each over the turns of `--turns N`
/// plain calls, and says how many lines it could not read as a name and arguments; without
/// `--turns` it is a usage error, since the events are of those turns.
#[test]
fn bench_check_events_times_each_providers_stream_of_the_turns() {
    let tools = file("cli_bench_events_tools.json", TOOLS);
    let calls = file(
        "cli_bench_events_calls.jsonl",
        format!("{CALLS}{{\"name\":7,\"arguments\":{{}}}}\n"),
    );
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args([
            "bench", "check", "--tools", &tools, "--passes", "1", "--turns", "2", "--events",
            &calls,
        ])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines
        .iter()
        .position(|line| line.starts_with("events: "))
        .unwrap_or_else(|| panic!("no events section: {stdout}"));
    assert!(
        lines[start].starts_with(
            "events: turns of 2 calls as each provider's stream events, 3 of 4 calls read as \
             a name and arguments (1 left out)"
        ),
        "{stdout}"
    );
    for column in [
        "turns",
        "events/turn",
        "(a) events",
        "(b) whole",
        "(c) parse",
        "a/b",
        "a/c",
    ] {
        assert!(lines[start + 1].contains(column), "{stdout}");
    }
    // Three calls make a turn of 2 and a turn of 1; no event was refused by the reader.
    let rows: Vec<(&str, &str)> = lines[start + 2..]
        .iter()
        .map(|line| {
            let mut words = line.split_whitespace();
            (words.next().unwrap_or(""), words.next().unwrap_or(""))
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("openai", "2"),
            ("anthropic", "2"),
            ("responses", "2"),
            ("gemini", "2"),
        ],
        "{stdout}"
    );
    let alone = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(["bench", "check", "--tools", &tools, "--events", &calls])
        .output()
        .expect("the binary runs");
    assert_eq!(alone.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&alone.stderr);
    assert!(
        stderr.starts_with("toolgate bench check: --events needs --turns N"),
        "{stderr}"
    );
}
