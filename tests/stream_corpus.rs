//! The streaming check against `check_call` over every prefix of every corpus call (about a
//! second in release): no valid call is
//! refused at any prefix, the last word equals `check_call` on the whole text, in the raw
//! form and in the provider form (name, then the arguments text); and the mean share of an
//! invalid call's bytes received before its refusal is printed.
#![cfg(feature = "stream")]

#[path = "support/corpus.rs"]
mod corpus;

use toolgate::stream::Progress;
use toolgate::{Gate, Rejection};

fn load() -> Option<(Gate, String)> {
    let dir = corpus::corpus()?;
    let tools = std::fs::read_to_string(dir.join("tools.json")).unwrap();
    let calls = std::fs::read_to_string(dir.join("calls.jsonl")).unwrap();
    Some((Gate::from_tools_json(&tools).unwrap(), calls))
}

/// Feeds `text` one character at a time (so that the answer after each step is the answer
/// on that prefix) and returns the bytes received when it was first refused, if it was.
fn raw_refusal(gate: &Gate, text: &str, line: usize) -> (Option<usize>, Result<(), Rejection>) {
    let mut stream = gate.stream_call();
    let mut refused = None;
    let mut fed = 0;
    for c in text.chars() {
        let mut buf = [0; 4];
        fed += c.len_utf8();
        let progress = stream.feed(c.encode_utf8(&mut buf));
        if refused.is_none() {
            if let Progress::Refused { at, .. } = progress {
                assert!(at < fed, "line {line}: refused at {at} after {fed} bytes");
                refused = Some(fed);
            }
        }
    }
    let last = stream.finish();
    assert_eq!(
        last.clone().map(drop),
        gate.check_call(text).map(drop),
        "line {line}: the streaming check's last word differs from check_call"
    );
    if let (Ok(streamed), Ok(whole)) = (&last, gate.check_call(text)) {
        assert_eq!(streamed, &whole.into_owned(), "line {line}");
    }
    (refused, last.map(drop))
}

/// The plain call the provider form stands for.
fn plain_call(name: &str, arguments: &str) -> String {
    let mut text = String::from("{\"name\":");
    toolgate::json::write_escaped_str(&mut text, name).unwrap();
    text.push_str(",\"arguments\":");
    toolgate::json::write_escaped_str(&mut text, arguments).unwrap();
    text.push('}');
    text
}

fn provider_refusal(gate: &Gate, name: &str, arguments: &str, line: usize) -> Option<usize> {
    let mut stream = gate.stream_call();
    let mut refused = None;
    if let Progress::Refused { .. } = stream.feed_name(name) {
        panic!("line {line}: refused on the name alone");
    }
    let mut fed = 0;
    for c in arguments.chars() {
        let mut buf = [0; 4];
        fed += c.len_utf8();
        let progress = stream.feed_arguments(c.encode_utf8(&mut buf));
        if refused.is_none() {
            if let Progress::Refused { .. } = progress {
                refused = Some(fed);
            }
        }
    }
    let whole = plain_call(name, arguments);
    assert_eq!(
        stream.finish(),
        gate.check_call(&whole).map(|call| call.into_owned()),
        "line {line}: provider form's last word differs from check_call"
    );
    refused
}

#[test]
fn every_prefix_of_the_corpus() {
    let Some((gate, calls)) = load() else { return };
    let mut n_checked = 0;
    let mut n_invalid = 0;
    let mut n_refused_early = 0;
    let mut share_sum = 0.0;
    let mut provider_share_sum = 0.0;
    let mut n_provider_invalid = 0;
    for (index, text) in calls.lines().enumerate() {
        let line = index + 1;
        let valid = gate.check_call(text).is_ok();
        n_checked += 1;
        let (refused, _) = raw_refusal(&gate, text, line);
        if valid {
            assert_eq!(
                refused, None,
                "line {line}: a valid call was refused: {text}"
            );
        } else {
            n_invalid += 1;
            if refused.is_some() {
                n_refused_early += 1;
            }
            share_sum += refused.unwrap_or(text.len()) as f64 / text.len().max(1) as f64;
        }
        // The provider form: the call's name, then its arguments as text.
        if let Ok(call) = toolgate::envelope::read_call(text, gate.limits()) {
            let arguments = call.args.to_string();
            let refused = provider_refusal(&gate, &call.name, &arguments, line);
            if valid {
                assert_eq!(
                    refused, None,
                    "line {line}: provider form refused a valid call"
                );
            } else {
                n_provider_invalid += 1;
                provider_share_sum +=
                    refused.unwrap_or(arguments.len()) as f64 / arguments.len().max(1) as f64;
            }
        }
    }
    assert!(n_checked >= 2_000, "only {n_checked} lines checked");
    println!(
        "stream corpus: {n_checked} lines at every prefix, {n_invalid} invalid, {n_refused_early} \
         refused before their end; raw form: mean share received before refusal {:.1}%; \
         provider form ({n_provider_invalid} invalid readable): {:.1}% of the arguments text",
        100.0 * share_sum / n_invalid.max(1) as f64,
        100.0 * provider_share_sum / n_provider_invalid.max(1) as f64,
    );
}
