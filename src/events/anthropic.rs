//! Anthropic Messages events: `content_block_start` opens block `index` (a `tool_use` with
//! its `id` and `name`, a `text`, a thinking block), `content_block_delta` adds to it (an
//! `input_json_delta`'s `partial_json` to a call's input text, a `text_delta` to a text;
//! thinking and signature deltas pass), `content_block_stop` closes it, `message_delta`
//! brings the `stop_reason`. `message_start`, `message_stop` and `ping` pass.
//!
//! The whole form written is a message `{"type":"message","role":"assistant","content":[…],
//! "stop_reason":…}`. A `tool_use` input is its text parsed (`{}` when no delta came, as the
//! SDK gives it); a text that does not parse (cut, malformed, too deep) cannot be an
//! `input`, so that block is written as the plain call `{"id","name","arguments":"<text>"}`,
//! which the turn's check refuses as the gate refuses that text.

use super::read::{index, string, write_member, write_string, Problem};
use super::{Body, Step, TurnStream};
use crate::json::{self, Value};
use crate::turn::is_call;

/// The steps of one event.
///
/// # Errors
/// A [`Problem`] when a block starts twice, a delta or stop names a block never started,
/// a delta does not fit its block (an `input_json_delta` for a text), or a member the
/// event needs is missing or of the wrong kind.
pub(super) fn read(event: &Value<'_>, stream: &TurnStream<'_>) -> Result<Vec<Step>, Problem> {
    let kind = event
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut steps = Vec::new();
    match kind {
        "content_block_start" => {
            let key = index(event, "index", "a block's `index` as an integer")?;
            if stream.element(key).is_some() {
                return Err(Problem::new("a new block's `index`", event));
            }
            let block = match event.get("content_block") {
                Some(block @ Value::Object(_)) => block,
                _ => return Err(Problem::new("a `content_block` object", event)),
            };
            match block.get("type").and_then(Value::as_str) {
                Some("tool_use") => {
                    let Some(name) = string(block, "name") else {
                        return Err(Problem::new("a `tool_use` block with its `name`", block));
                    };
                    let id = string(block, "id");
                    steps.push(Step::Begin {
                        key: Some(key),
                        id,
                        item: None,
                        name,
                    });
                    // The name is whole: a name no tool has is refused now.
                    let fragment = String::new();
                    steps.push(Step::Arguments { key, fragment });
                }
                Some("text") => {
                    let text = string(block, "text").unwrap_or_default();
                    steps.push(Step::Text {
                        key: Some(key),
                        text,
                    });
                }
                // Kept as given: the whole form must not read it as a call.
                _ if is_call(block, true) => {
                    return Err(Problem::new(
                        "a `tool_use` block, or a block that is no call",
                        block,
                    ));
                }
                _ => steps.push(Step::Other {
                    key: Some(key),
                    item: block.clone().into_owned(),
                }),
            }
        }
        "content_block_delta" => {
            let key = index(event, "index", "a delta's block `index` as an integer")?;
            let Some(body) = stream.element(key) else {
                return Err(Problem::new("a delta for a block already started", event));
            };
            let delta = event.get("delta").unwrap_or(&Value::Null);
            let is = |expected: bool, what| match expected {
                true => Ok(()),
                false => Err(Problem::new(what, event)),
            };
            match delta.get("type").and_then(Value::as_str) {
                Some("input_json_delta") => {
                    is(
                        matches!(body, Body::Call(_)),
                        "an `input_json_delta` for a tool_use",
                    )?;
                    let Some(fragment) = string(delta, "partial_json") else {
                        return Err(Problem::new(
                            "an `input_json_delta` with its `partial_json`",
                            delta,
                        ));
                    };
                    steps.push(Step::Arguments { key, fragment });
                }
                Some("text_delta") => {
                    is(
                        matches!(body, Body::Text(_)),
                        "a `text_delta` for a text block",
                    )?;
                    let Some(text) = string(delta, "text") else {
                        return Err(Problem::new("a `text_delta` with its `text`", delta));
                    };
                    steps.push(Step::Text {
                        key: Some(key),
                        text,
                    });
                }
                _ => {}
            }
        }
        "content_block_stop" => {
            let key = index(event, "index", "a stop's block `index` as an integer")?;
            if stream.element(key).is_none() {
                return Err(Problem::new("a stop for a block already started", event));
            }
        }
        "message_delta" => {
            let delta = event.get("delta").unwrap_or(&Value::Null);
            if let Some(reason) = string(delta, "stop_reason") {
                steps.push(Step::Stop {
                    reason: Some(reason),
                    status: None,
                });
            }
        }
        _ => {}
    }
    Ok(steps)
}

/// The turn as a whole message.
pub(super) fn message(stream: &TurnStream<'_>) -> String {
    let mut out = String::from(r#"{"type":"message","role":"assistant","content":["#);
    for (n, element) in stream.elements.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        match &element.body {
            Body::Text(text) => {
                out.push_str(r#"{"type":"text","text":"#);
                write_string(&mut out, Some(text));
                out.push('}');
            }
            Body::Other(item) => json::write_compact(&mut out, item),
            Body::Call(index) => {
                let Some(call) = stream.calls.get(*index) else {
                    out.push_str("null");
                    continue;
                };
                let input = match call.arguments() {
                    "" => Ok(Value::Object(Vec::new())),
                    text => json::parse_with(text, stream.gate.limits()),
                };
                out.push('{');
                if input.is_ok() {
                    out.push_str(r#""type":"tool_use""#);
                }
                write_member(&mut out, "id", call.id.as_deref());
                write_member(&mut out, "name", Some(call.name()));
                match input {
                    Ok(input) => {
                        out.push_str(r#","input":"#);
                        json::write_compact(&mut out, &input);
                    }
                    Err(_) => write_member(&mut out, "arguments", Some(call.arguments())),
                }
                out.push('}');
            }
        }
    }
    out.push(']');
    write_member(&mut out, "stop_reason", stream.stop.as_deref());
    out.push('}');
    out
}
