//! Every line of the shared corpus' `calls.jsonl` gets the verdict `calls.labels.tsv` gives
//! it, through `Gate::from_tools_json(tools.json)` and `check_call`.
//!
//! The corpus labels map to rejection kinds: `bad_json` (the line is cut) is
//! `truncated_json` or `malformed_json` in the call itself, `bad_args_json` the same in the
//! arguments text, `not_object` is `arguments_not_object`, `unknown_tool` is itself, and
//! `schema:<what>` is `schema_violation` whose rule is `<what>` (without its `nested_` or
//! `items_` prefix; `missing_required` is the rule `required`).
//!
//! The corpus is found through `TOOLGATE_CORPUS` (set by `.ci/run`); when it is unset the
//! test falls back to `../shared/corpus` beside the crate, and skips with a note when that
//! is absent too (a fresh clone). A set variable naming a missing folder fails, and so does
//! a folder without the corpus' files (`support/corpus.rs`).
#![cfg(feature = "format")]

mod support;

use std::collections::BTreeMap;
use support::corpus::{corpus, read};
use toolgate::{Gate, Part, Rejection};

/// Whether a verdict agrees with a corpus label, and why not.
fn agrees(label: &str, verdict: &Result<toolgate::Call<'_>, Rejection>) -> Result<(), String> {
    let rejection = match (label, verdict) {
        ("ok", Ok(_)) => return Ok(()),
        (_, Ok(_)) => return Err("accepted".into()),
        (_, Err(rejection)) => rejection,
    };
    let kind = rejection.kind().label();
    let fits = match label {
        "bad_json" => matches!(
            rejection,
            Rejection::MalformedJson {
                part: Part::Call,
                ..
            } | Rejection::TruncatedJson {
                part: Part::Call,
                ..
            }
        ),
        "bad_args_json" => matches!(
            rejection,
            Rejection::MalformedJson {
                part: Part::Arguments,
                ..
            } | Rejection::TruncatedJson {
                part: Part::Arguments,
                ..
            }
        ),
        "not_object" => kind == "arguments_not_object",
        "unknown_tool" => kind == "unknown_tool",
        schema => match (schema.strip_prefix("schema:"), rejection) {
            (Some(what), Rejection::SchemaViolation { violation, .. }) => {
                let what = what
                    .trim_start_matches("nested_")
                    .trim_start_matches("items_");
                let what = if what == "missing_required" {
                    "required"
                } else {
                    what
                };
                violation.rule().label() == what
            }
            _ => false,
        },
    };
    if fits {
        Ok(())
    } else {
        Err(format!("{kind}: {rejection}"))
    }
}

#[test]
fn every_corpus_call_gets_its_labelled_verdict() {
    let Some(dir) = corpus() else { return };
    let gate = Gate::from_tools_json(&read(&dir, "tools.json")).expect("tools.json loads");
    let calls = read(&dir, "calls.jsonl");
    let labels = read(&dir, "calls.labels.tsv");
    let (calls, labels): (Vec<&str>, Vec<&str>) =
        (calls.lines().collect(), labels.lines().collect());
    assert_eq!(calls.len(), labels.len(), "one label per call");
    assert!(calls.len() >= 20_000);

    let mut failures = Vec::new();
    let mut tally: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut n_without_id = 0;
    for (index, (raw, line)) in calls.iter().zip(&labels).enumerate() {
        let (shape, label) = line.split_once('\t').expect("<shape>\\t<label>");
        let verdict = gate.check_call(raw);
        if let Err(why) = agrees(label, &verdict) {
            failures.push(format!("line {}: {label}, got {why}\n  {raw}", index + 1));
        }
        let got = match &verdict {
            Ok(_) => "accepted".to_string(),
            Err(rejection) => rejection.kind().label().to_string(),
        };
        *tally.entry((label.to_string(), got)).or_default() += 1;
        // Anthropic and OpenAI calls carry an id; every verdict keeps it, unless the line was
        // cut before the id was complete.
        let id = match &verdict {
            Ok(call) => call.id.as_deref(),
            Err(rejection) => rejection.id(),
        };
        if shape != "plain" && id.is_none() {
            n_without_id += 1;
            if label != "bad_json" {
                failures.push(format!("line {}: {label} lost its id\n  {raw}", index + 1));
            }
        }
    }
    for ((label, got), count) in &tally {
        println!("{label:>32} -> {got:<22} {count:>6}");
    }
    println!("id-bearing calls whose verdict has no id (cut before the id): {n_without_id}");
    assert!(
        failures.is_empty(),
        "{} of {} lines disagree with their label:\n{}",
        failures.len(),
        calls.len(),
        failures.join("\n")
    );
}
