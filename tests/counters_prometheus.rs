//! The counts as Prometheus text: every line parses as the text exposition format says
//! (metric and label names, a `# TYPE` before a family's samples, escaped label values), the
//! figures are the counters', and only registered tool names become labels.

use std::collections::BTreeMap;
use toolgate::{Counters, Gate, Outcome, Rejection};

const TOOLS: &str = r#"[{"name": "get_order", "description": "Fetch one order.",
  "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}},
                   "required": ["order_id"], "additionalProperties": false}}]"#;

fn refused(raw: &str) -> Rejection {
    let gate = Gate::from_tools_json(TOOLS).expect("the test's tools load");
    gate.check_call(raw)
        .expect_err("the test's call is refused")
}

fn rejected(error: Rejection, first: Option<Rejection>) -> Outcome {
    Outcome::Rejected {
        id: None,
        error,
        first_rejection: first.map(Box::new),
    }
}

/// One parsed sample: the metric name, its labels in order, its value.
type Sample = (String, Vec<(String, String)>, u64);

/// Parses the text as the exposition format's grammar says, failing on anything else:
/// returns the samples, having checked that each family is declared (`# HELP`, then
/// `# TYPE … counter`) once and before its samples, and that counters end in `_total`.
fn parse(text: &str) -> Vec<Sample> {
    assert!(text.ends_with('\n'), "the text ends with a line feed");
    let mut declared: BTreeMap<String, bool> = BTreeMap::new();
    let mut samples = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, help) = rest.split_once(' ').expect("HELP has a name and a text");
            assert!(is_metric_name(name) && !help.is_empty(), "{line}");
            assert!(!declared.contains_key(name), "{name} declared twice");
            declared.insert(name.to_owned(), false);
        } else if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("TYPE has a name and a type");
            assert_eq!(kind, "counter", "{line}");
            assert!(
                name.ends_with("_total"),
                "a counter's name ends in _total: {name}"
            );
            let typed = declared.get_mut(name).expect("HELP comes before TYPE");
            assert!(!*typed, "{name} typed twice");
            *typed = true;
        } else {
            let sample = parse_sample(line);
            assert_eq!(
                declared.get(&sample.0),
                Some(&true),
                "a sample of an undeclared family: {line}"
            );
            samples.push(sample);
        }
    }
    samples
}

fn parse_sample(line: &str) -> Sample {
    let name_end = line.find(['{', ' ']).expect("a sample has a value");
    let (name, mut rest) = line.split_at(name_end);
    assert!(is_metric_name(name), "{line}");
    let mut labels = Vec::new();
    if let Some(body) = rest.strip_prefix('{') {
        rest = body;
        loop {
            let (label, after) = rest.split_once("=\"").expect("label=\"value\"");
            assert!(is_label_name(label), "{line}");
            let mut value = String::new();
            let mut chars = after.char_indices();
            let end = loop {
                match chars.next().expect("a closed label value") {
                    (_, '\\') => match chars.next().expect("an escape") {
                        (_, '\\') => value.push('\\'),
                        (_, '"') => value.push('"'),
                        (_, 'n') => value.push('\n'),
                        (_, other) => panic!("no escape \\{other} in the format: {line}"),
                    },
                    (at, '"') => break at,
                    (_, c) => value.push(c),
                }
            };
            labels.push((label.to_owned(), value));
            rest = &after[end + 1..];
            match rest.strip_prefix(',') {
                Some(more) => rest = more,
                None => {
                    rest = rest.strip_prefix('}').expect("labels end with }");
                    break;
                }
            }
        }
    }
    let value = rest.strip_prefix(' ').expect("one space before the value");
    (
        name.to_owned(),
        labels,
        value.parse().expect("a whole count"),
    )
}

fn is_metric_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

fn is_label_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with("__")
}

/// The value of the sample with exactly these labels.
fn value(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> Option<u64> {
    samples
        .iter()
        .find(|(n, l, _)| {
            n == name
                && l.len() == labels.len()
                && l.iter()
                    .zip(labels)
                    .all(|((a, b), (c, d))| a == c && b == d)
        })
        .map(|sample| sample.2)
}

#[test]
fn the_text_parses_and_carries_every_count() {
    let counters = Counters::new();
    let violation = || refused(r#"{"name":"get_order","arguments":{"order_id":7}}"#);
    let unknown = refused(r#"{"name":"get_ordr","arguments":{}}"#);
    let not_object = refused(r#"{"name":"get_order","arguments":[1]}"#);
    counters.record(&Outcome::Dispatched {
        id: None,
        tool: "get_order".into(),
        output: "shipped".into(),
        first_rejection: Some(Box::new(violation())),
    });
    counters.record(&Outcome::ToolFailed {
        id: None,
        tool: "get_order".into(),
        error: "database down".into(),
        panicked: false,
        first_rejection: None,
    });
    counters.record(&rejected(not_object, Some(violation())));
    counters.record(&rejected(unknown, None));

    let samples = parse(&counters.snapshot().prometheus());
    let calls = |outcome| value(&samples, "toolgate_calls_total", &[("outcome", outcome)]);
    assert_eq!(calls("dispatched"), Some(1));
    assert_eq!(calls("tool_failed"), Some(1));
    assert_eq!(calls("rejected"), Some(2));
    let kinds = |kind| value(&samples, "toolgate_rejections_total", &[("kind", kind)]);
    assert_eq!(kinds("schema_violation"), Some(2));
    assert_eq!(kinds("arguments_not_object"), Some(1));
    assert_eq!(kinds("unknown_tool"), Some(1));
    assert_eq!(kinds("malformed_json"), Some(0));
    assert_eq!(
        value(&samples, "toolgate_retries_asked_total", &[]),
        Some(2)
    );
    assert_eq!(
        value(&samples, "toolgate_retries_succeeded_total", &[]),
        Some(1)
    );

    let tool = |outcome| {
        let labels = [("tool", "get_order"), ("outcome", outcome)];
        value(&samples, "toolgate_tool_calls_total", &labels)
    };
    // The unknown name's call counts in the totals only: it is no tool's.
    assert_eq!(
        (tool("dispatched"), tool("tool_failed"), tool("rejected")),
        (Some(1), Some(1), Some(1))
    );
    let tool_kind = |kind| {
        let labels = [("tool", "get_order"), ("kind", kind)];
        value(&samples, "toolgate_tool_rejections_total", &labels)
    };
    assert_eq!(tool_kind("schema_violation"), Some(2));
    assert_eq!(tool_kind("arguments_not_object"), Some(1));
    let tools: Vec<&str> = samples
        .iter()
        .flat_map(|(_, labels, _)| labels)
        .filter(|(label, _)| label == "tool")
        .map(|(_, value)| value.as_str())
        .collect();
    assert!(tools.iter().all(|tool| *tool == "get_order"), "{tools:?}");
}

#[test]
fn label_values_are_escaped() {
    let counters = Counters::new();
    let tool = "odd\\name \"quoted\"\nsecond line";
    counters.record(&Outcome::Dispatched {
        id: None,
        tool: tool.into(),
        output: String::new(),
        first_rejection: None,
    });
    let text = counters.snapshot().prometheus();
    assert!(
        text.contains(
            "toolgate_tool_calls_total{tool=\"odd\\\\name \\\"quoted\\\"\\nsecond line\",outcome=\"dispatched\"} 1\n"
        ),
        "{text}"
    );
    let samples = parse(&text);
    let labels = [("tool", tool), ("outcome", "dispatched")];
    assert_eq!(
        value(&samples, "toolgate_tool_calls_total", &labels),
        Some(1)
    );
}

#[test]
fn nothing_recorded_is_every_family_at_zero() {
    let samples = parse(&Counters::new().snapshot().prometheus());
    // Three outcomes, six kinds, two retry counts; no tool seen, no tool sample.
    assert_eq!(samples.len(), 3 + 6 + 2);
    assert!(samples.iter().all(|sample| sample.2 == 0));
}
