//! Property: mutations of the shared corpus' real calls never panic the gate, every
//! rejection has a non-empty text and one of the six labels, and the call is refused as not
//! JSON exactly when the parser refuses it. (Corpus location: see `support/corpus.rs`.)
#![cfg(feature = "format")]

mod support;

use support::corpus::{corpus, read};
use support::mutate::Edit;
use support::rng::Rng;
use toolgate::json;
use toolgate::{Gate, Part, Rejection, RejectionKind};

/// Fragments that break or reshape JSON and the three shapes' keys.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ",",
    ":",
    "null",
    "-1",
    "1e999",
    "\\u00e9",
    "\\ud800",
    "\"name\":",
    "\"id\":",
    "\"type\":",
    "\"tool_use\"",
    "é",
    "😀",
];

/// Deletes, inserts, duplicates or cuts a few characters.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let edits = [Edit::Delete(8), Edit::Insert, Edit::Cut, Edit::Copy(16)];
    support::mutate::mutate(rng, text, (1, 3), &edits, TOKENS)
}

#[test]
fn mutated_corpus_calls_are_refused_cleanly() {
    let Some(dir) = corpus() else { return };
    let tools = read(&dir, "tools.json");
    let calls = read(&dir, "calls.jsonl");
    let gate = Gate::from_tools_json(&tools).expect("tools.json loads");
    let lines: Vec<&str> = calls.lines().collect();
    let labels: Vec<&str> = RejectionKind::ALL.iter().map(|kind| kind.label()).collect();
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(20_000) {
        let line = lines[rng.below(lines.len())];
        let raw = mutate(&mut rng, line);
        let verdict = gate.check_call(&raw);
        let not_json = matches!(
            &verdict,
            Err(Rejection::MalformedJson {
                part: Part::Call,
                ..
            } | Rejection::TruncatedJson {
                part: Part::Call,
                ..
            })
        );
        assert_eq!(
            not_json,
            json::parse(&raw).is_err(),
            "seed {seed}: {raw}\n{verdict:?}"
        );
        if let Err(rejection) = verdict {
            assert!(!rejection.to_string().is_empty(), "seed {seed}: {raw}");
            assert!(labels.contains(&rejection.kind().label()), "seed {seed}");
        }
    }
}
