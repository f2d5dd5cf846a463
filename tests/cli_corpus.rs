//! `toolgate check` over the shared corpus (`TOOLGATE_CORPUS`, default `../shared/corpus`)
//! agrees with `calls.labels.tsv` on every line: the corpus' `ok` is accepted, `unknown_tool`
//! is `unknown_tool`, `schema:*` is `schema_violation`, `not_object` is
//! `arguments_not_object`, and `bad_json` / `bad_args_json` are `malformed_json` or
//! `truncated_json` (which one depends on where the text was cut).
#![cfg(all(
    feature = "pattern",
    feature = "format",
    feature = "turns",
    feature = "stream",
    feature = "mcp"
))]

mod support;

use std::process::Command;
use support::corpus::{corpus, read};
use toolgate::json;

/// The kinds `check` may answer for a corpus label.
fn expected_kinds(label: &str) -> &'static [&'static str] {
    match label {
        "ok" => &["ok"],
        "unknown_tool" => &["unknown_tool"],
        "not_object" => &["arguments_not_object"],
        "bad_json" | "bad_args_json" => &["malformed_json", "truncated_json"],
        label if label.starts_with("schema:") => &["schema_violation"],
        _ => &[],
    }
}

#[test]
fn check_agrees_with_the_corpus_labels_on_every_line() {
    let Some(dir) = corpus() else { return };
    let labels = read(&dir, "calls.labels.tsv");
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .arg("check")
        .arg("--tools")
        .arg(dir.join("tools.json"))
        .arg(dir.join("calls.jsonl"))
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "the corpus holds rejections: {stderr}"
    );
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    let verdicts: Vec<&str> = stdout.lines().collect();
    let labels: Vec<&str> = labels.lines().collect();
    assert_eq!(verdicts.len(), labels.len(), "one verdict per corpus line");
    let mut disagreements = Vec::new();
    for (line_idx, (verdict, label_line)) in verdicts.iter().zip(&labels).enumerate() {
        let line_no = line_idx + 1;
        let label = label_line.split('\t').nth(1).unwrap_or("");
        let value = json::parse(verdict).expect("each verdict is JSON");
        assert_eq!(
            value.get("line").and_then(|line| line.as_i64()),
            Some(line_no as i64),
            "{verdict}"
        );
        let kind = match value.get("ok").and_then(|ok| ok.as_bool()) {
            Some(true) => "ok",
            _ => value
                .get("kind")
                .and_then(|kind| kind.as_str())
                .unwrap_or("?"),
        };
        if !expected_kinds(label).contains(&kind) {
            disagreements.push(format!("line {line_no}: label {label}, got {verdict}"));
        }
        if kind != "ok" {
            let error = value
                .get("error")
                .and_then(|error| error.as_str())
                .unwrap_or("");
            assert!(!error.is_empty(), "line {line_no}: empty error text");
        }
        if kind == "schema_violation" {
            assert!(
                value.get("path").is_some(),
                "line {line_no}: no path: {verdict}"
            );
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} lines disagree, first ones:\n{}",
        disagreements.len(),
        disagreements
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
