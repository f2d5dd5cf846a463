//! `toolgate bench check --turns N --events`: what reading a turn from its stream events
//! costs ([`toolgate::TurnStream`]) against checking the same turn whole, per provider.
//!
//! The log's calls that read as a plain call (a name and arguments, [`read_call`]) become
//! turns of N calls, and each turn becomes the events each provider's SDK delivers for it,
//! written with the crate's JSON writer, with the fields and `null`s the SDKs dump:
//!
//! | Provider | Events of one turn |
//! |---|---|
//! | OpenAI chat | per call a chunk with its `id` and `function.name`, then `function.arguments` in 16-byte fragments; a last chunk with `finish_reason` `"tool_calls"` |
//! | Anthropic | `message_start`; per call `content_block_start` (`tool_use`), `input_json_delta`s of 16 bytes, `content_block_stop`; `message_delta` (`stop_reason` `"tool_use"`), `message_stop` |
//! | Responses | `response.created`; per call `output_item.added`, arguments deltas of 16 bytes, `function_call_arguments.done`, `output_item.done`; `response.completed` with the whole output |
//! | Gemini | one chunk per `functionCall` part, the last with `finishReason` `"STOP"` |
//!
//! Three rows per provider, each in nanoseconds per turn: (a) every event fed to a fresh
//! `TurnStream`, then `finish()`; (b) `Gate::check_turn` on the turn's assembled whole form
//! (`TurnStream::message`, written before timing); (c) `json::parse` on every event alone,
//! the floor no event reader goes under. Issue #28 asks a/b to stay at most 2; c/b says
//! how much of that the events' own JSON (envelopes around 16-byte fragments) takes.
//!
//! [`read_call`]: toolgate::envelope::read_call

use crate::bench_check::{pieces, timed, Measure};
use std::fmt::Write as _;
use std::hint::black_box;
use toolgate::{json, Gate};

/// The providers whose streams are timed, in the order of the report.
const PROVIDERS: [Provider; 4] = [
    Provider::OpenAi,
    Provider::Anthropic,
    Provider::Responses,
    Provider::Gemini,
];

/// One provider's stream.
#[derive(Clone, Copy)]
enum Provider {
    OpenAi,
    Anthropic,
    Responses,
    Gemini,
}

/// A call as every stream spells it: its name, and its arguments as compact JSON text.
struct Plain {
    name: String,
    arguments: String,
}

/// One provider's three measures.
struct Row {
    provider: Provider,
    n_turns: usize,
    n_events: usize,
    /// Events the turn stream refused: a bug of this generator (or of the reader).
    refused: usize,
    stream: Measure,
    whole: Measure,
    parse: Measure,
}

/// Times each provider's stream on `lines` (the log's lines that are JSON) as turns of
/// `per_turn` calls, and writes the section of the report.
pub fn report(gate: &Gate, lines: &[&str], per_turn: usize, passes: usize) -> String {
    let calls: Vec<Plain> = lines
        .iter()
        .filter_map(|raw| {
            let call = toolgate::envelope::read_call(raw, gate.limits()).ok()?;
            Some(Plain {
                name: call.name.into_owned(),
                arguments: call.args.to_string(),
            })
        })
        .collect();
    let rows: Vec<Row> = PROVIDERS
        .iter()
        .map(|provider| measure(gate, *provider, &calls, per_turn, passes))
        .collect();
    let mut out = format!(
        "events: turns of {} calls as each provider's stream events, {} of {} calls read as \
         a name and arguments ({} left out); ns per turn, median of {passes} passes\n",
        per_turn.min(calls.len()),
        calls.len(),
        lines.len(),
        lines.len().saturating_sub(calls.len()),
    );
    let _ = writeln!(
        out,
        "{:<12}{:>7}{:>13}{:>13}{:>13}{:>13}{:>12}{:>8}{:>8}{:>8}",
        "",
        "turns",
        "events/turn",
        "allocs (a)",
        "(a) events",
        "(b) whole",
        "(c) parse",
        "a/b",
        "a/c",
        "c/b"
    );
    for row in &rows {
        let (Some(a), Some(b), Some(c)) = (
            row.stream.median_ns,
            row.whole.median_ns,
            row.parse.median_ns,
        ) else {
            let _ = writeln!(out, "{:<12}{:>7}{:>13}", row.provider.label(), 0, "-");
            continue;
        };
        let _ = writeln!(
            out,
            "{:<12}{:>7}{:>13.1}{:>13.1}{:>13.0}{:>13.0}{:>12.0}{:>7.2}x{:>7.2}x{:>7.2}x",
            row.provider.label(),
            row.n_turns,
            row.n_events as f64 / row.n_turns.max(1) as f64,
            row.stream.allocations,
            a,
            b,
            c,
            a / b,
            a / c,
            c / b
        );
        if row.refused > 0 {
            let _ = writeln!(
                out,
                "  warning: the {} stream refused {} of its events",
                row.provider.label(),
                row.refused
            );
        }
    }
    out
}

/// The three measures of `provider`'s stream on `calls` as turns of `per_turn`.
fn measure(
    gate: &Gate,
    provider: Provider,
    calls: &[Plain],
    per_turn: usize,
    passes: usize,
) -> Row {
    let turns: Vec<Vec<String>> = calls
        .chunks(per_turn)
        .enumerate()
        .map(|(turn, calls)| provider.events(turn, calls))
        .collect();
    let mut refused = 0usize;
    let messages: Vec<String> = turns
        .iter()
        .filter_map(|events| {
            let mut stream = gate.stream_turn();
            for event in events {
                if stream.feed(event).is_err() {
                    refused = refused.saturating_add(1);
                }
            }
            stream.message()
        })
        .collect();
    let n_turns = turns.len();
    let stream = timed("events", n_turns, passes, || {
        for events in &turns {
            let mut stream = gate.stream_turn();
            for event in events {
                let _ = black_box(stream.feed(black_box(event)));
            }
            let _ = black_box(stream.finish());
        }
    });
    let whole = timed("whole", messages.len(), passes, || {
        for message in &messages {
            let _ = black_box(gate.check_turn(black_box(message)));
        }
    });
    let parse = timed("parse", n_turns, passes, || {
        for events in &turns {
            for event in events {
                let _ = black_box(json::parse(black_box(event)));
            }
        }
    });
    Row {
        provider,
        n_turns,
        n_events: turns.iter().map(Vec::len).sum(),
        refused,
        stream,
        whole,
        parse,
    }
}

impl Provider {
    /// The provider's name in the report.
    fn label(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
            Provider::Responses => "responses",
            Provider::Gemini => "gemini",
        }
    }

    /// The events of turn number `turn` (which numbers its ids), as this provider's SDK
    /// delivers them.
    fn events(self, turn: usize, calls: &[Plain]) -> Vec<String> {
        match self {
            Provider::OpenAi => openai(turn, calls),
            Provider::Anthropic => anthropic(turn, calls),
            Provider::Responses => responses(turn, calls),
            Provider::Gemini => gemini(turn, calls),
        }
    }
}

/// `text` as a JSON string literal, by the crate's writer.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len().saturating_add(2));
    // Writing into a `String` cannot fail.
    let _ = json::write_escaped_str(&mut out, text);
    out
}

/// OpenAI chat completion chunks, as the Python SDK's `model_dump` gives them.
fn openai(turn: usize, calls: &[Plain]) -> Vec<String> {
    let chunk = |delta: &str, finish_reason: &str| {
        format!(
            r#"{{"id":"chatcmpl-bench{turn}","choices":[{{"delta":{{"content":null,"function_call":null,"refusal":null,{delta}}},"finish_reason":{finish_reason},"index":0,"logprobs":null}}],"created":1718000000,"model":"gpt-4o-2024-08-06","object":"chat.completion.chunk","service_tier":"default","system_fingerprint":"fp_07871e2ad8","usage":null}}"#
        )
    };
    let mut events = Vec::new();
    for (n, call) in calls.iter().enumerate() {
        let role = if n == 0 { r#""assistant""# } else { "null" };
        events.push(chunk(
            &format!(
                r#""role":{role},"tool_calls":[{{"index":{n},"id":"call_bench{turn}x{n}","function":{{"arguments":"","name":{}}},"type":"function"}}]"#,
                quoted(&call.name)
            ),
            "null",
        ));
        for piece in pieces(&call.arguments) {
            events.push(chunk(
                &format!(
                    r#""role":null,"tool_calls":[{{"index":{n},"id":null,"function":{{"arguments":{},"name":null}},"type":null}}]"#,
                    quoted(piece)
                ),
                "null",
            ));
        }
    }
    events.push(chunk(r#""role":null,"tool_calls":null"#, r#""tool_calls""#));
    events
}

/// Anthropic Messages events, as the SDK's stream yields them.
fn anthropic(turn: usize, calls: &[Plain]) -> Vec<String> {
    let mut events = vec![format!(
        r#"{{"type":"message_start","message":{{"id":"msg_bench{turn}","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[],"stop_reason":null,"stop_sequence":null,"usage":{{"input_tokens":410,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,"service_tier":"standard"}}}}}}"#
    )];
    for (n, call) in calls.iter().enumerate() {
        events.push(format!(
            r#"{{"type":"content_block_start","index":{n},"content_block":{{"type":"tool_use","id":"toolu_bench{turn}x{n}","name":{},"input":{{}}}}}}"#,
            quoted(&call.name)
        ));
        for piece in pieces(&call.arguments) {
            events.push(format!(
                r#"{{"type":"content_block_delta","index":{n},"delta":{{"type":"input_json_delta","partial_json":{}}}}}"#,
                quoted(piece)
            ));
        }
        events.push(format!(r#"{{"type":"content_block_stop","index":{n}}}"#));
    }
    events.push(String::from(
        r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":92}}"#,
    ));
    events.push(String::from(r#"{"type":"message_stop"}"#));
    events
}

/// OpenAI Responses events, numbered by `sequence_number` as the API sends them.
fn responses(turn: usize, calls: &[Plain]) -> Vec<String> {
    let response = |status: &str, output: &str, usage: &str| {
        format!(
            r#"{{"id":"resp_bench{turn}","object":"response","created_at":1718000000,"status":"{status}","error":null,"incomplete_details":null,"instructions":null,"model":"gpt-4.1-2025-04-14","output":[{output}],"parallel_tool_calls":true,"temperature":1.0,"tool_choice":"auto","top_p":1.0,"usage":{usage}}}"#
        )
    };
    let mut events = vec![format!(
        r#"{{"type":"response.created","sequence_number":0,"response":{}}}"#,
        response("in_progress", "", "null")
    )];
    let mut output = Vec::new();
    for (n, call) in calls.iter().enumerate() {
        let item = |status: &str, arguments: &str| {
            format!(
                r#"{{"id":"fc_bench{turn}x{n}","type":"function_call","status":"{status}","arguments":{},"call_id":"call_bench{turn}x{n}","name":{}}}"#,
                quoted(arguments),
                quoted(&call.name)
            )
        };
        let mut push = |kind: &str, rest: String| {
            let number = events.len();
            events.push(format!(
                r#"{{"type":"response.{kind}","sequence_number":{number},{rest}}}"#
            ));
        };
        push(
            "output_item.added",
            format!(r#""output_index":{n},"item":{}"#, item("in_progress", "")),
        );
        for piece in pieces(&call.arguments) {
            push(
                "function_call_arguments.delta",
                format!(
                    r#""item_id":"fc_bench{turn}x{n}","output_index":{n},"delta":{}"#,
                    quoted(piece)
                ),
            );
        }
        push(
            "function_call_arguments.done",
            format!(
                r#""item_id":"fc_bench{turn}x{n}","output_index":{n},"arguments":{}"#,
                quoted(&call.arguments)
            ),
        );
        let done = item("completed", &call.arguments);
        push(
            "output_item.done",
            format!(r#""output_index":{n},"item":{done}"#),
        );
        output.push(done);
    }
    let usage = r#"{"input_tokens":410,"input_tokens_details":{"cached_tokens":0},"output_tokens":92,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":502}"#;
    events.push(format!(
        r#"{{"type":"response.completed","sequence_number":{},"response":{}}}"#,
        events.len(),
        response("completed", &output.join(","), usage)
    ));
    events
}

/// Gemini `GenerateContentResponse` chunks (REST, camelCase), one call part each.
fn gemini(turn: usize, calls: &[Plain]) -> Vec<String> {
    let last = calls.len().saturating_sub(1);
    calls
        .iter()
        .enumerate()
        .map(|(n, call)| {
            let finish = if n == last {
                r#","finishReason":"STOP""#
            } else {
                ""
            };
            // The arguments text is the crate's compact JSON of the call's arguments.
            format!(
                r#"{{"candidates":[{{"content":{{"parts":[{{"functionCall":{{"name":{},"args":{}}}}}],"role":"model"}}{finish},"index":0}}],"usageMetadata":{{"promptTokenCount":410,"candidatesTokenCount":{},"totalTokenCount":{}}},"modelVersion":"gemini-2.5-flash","responseId":"r-bench{turn}"}}"#,
                quoted(&call.name),
                call.arguments,
                n.saturating_add(1).saturating_mul(20),
                n.saturating_add(1).saturating_mul(20).saturating_add(410)
            )
        })
        .collect()
}
