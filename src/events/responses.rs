//! OpenAI Responses events: `response.output_item.added` opens output item `output_index`
//! (a `function_call` with its `call_id`, `name` and item `id`, a `message`, a reasoning or
//! hosted tool item), `response.function_call_arguments.delta` adds to a call's arguments
//! text, `.done` (and `response.output_item.done`) gives it whole, `response.output_text.delta`
//! adds to a message's text, and `response.completed` / `.incomplete` / `.failed` bring the
//! response's `status` and `incomplete_details`. Everything else passes.
//!
//! The whole form written is a response `{"object":"response","status":…,
//! "incomplete_details":{"reason":…},"output":[…]}`.

use super::read::{index, string, write_member, write_string, Problem};
use super::{Body, Step, TurnStream};
use crate::json::{self, Value};
use crate::turn::is_call;

/// The steps of one event.
///
/// # Errors
/// A [`Problem`] when an item starts twice, a delta names an item never started or of
/// another kind, a delta's `item_id` is another item's, a whole arguments text does not
/// continue the deltas, or a member the event needs is missing or of the wrong kind.
pub(super) fn read(event: &Value<'_>, stream: &TurnStream<'_>) -> Result<Vec<Step>, Problem> {
    let kind = event
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut steps = Vec::new();
    let key = || {
        index(
            event,
            "output_index",
            "an event's `output_index` as an integer",
        )
    };
    match kind {
        "response.output_item.added" => {
            let key = key()?;
            if stream.element(key).is_some() {
                return Err(Problem::new("a new item's `output_index`", event));
            }
            let item = match event.get("item") {
                Some(item @ Value::Object(_)) => item,
                _ => return Err(Problem::new("an `item` object", event)),
            };
            match item.get("type").and_then(Value::as_str) {
                Some("function_call") => {
                    let Some(name) = string(item, "name") else {
                        return Err(Problem::new("a `function_call` item with its `name`", item));
                    };
                    steps.push(Step::Begin {
                        key: Some(key),
                        id: string(item, "call_id"),
                        item: string(item, "id"),
                        name,
                    });
                    let fragment = string(item, "arguments").unwrap_or_default();
                    steps.push(Step::Arguments { key, fragment });
                }
                Some("message") => steps.push(Step::Text {
                    key: Some(key),
                    text: String::new(),
                }),
                // Kept as given: the whole form must not read it as a call.
                _ if is_call(item, true) => {
                    return Err(Problem::new(
                        "a `function_call` item, or an item that is no call",
                        item,
                    ));
                }
                _ => steps.push(Step::Other {
                    key: Some(key),
                    item: item.clone().into_owned(),
                }),
            }
        }
        "response.function_call_arguments.delta" => {
            let key = key()?;
            check_item(event, stream, key)?;
            let Some(fragment) = string(event, "delta") else {
                return Err(Problem::new("an arguments delta with its `delta`", event));
            };
            steps.push(Step::Arguments { key, fragment });
        }
        "response.function_call_arguments.done" => {
            let key = key()?;
            check_item(event, stream, key)?;
            rest_of(event, stream, key, &mut steps)?;
        }
        "response.output_item.done" => {
            let item = event.get("item").unwrap_or(&Value::Null);
            if item.get("type").and_then(Value::as_str) == Some("function_call") {
                let key = key()?;
                check_item(item, stream, key)?;
                rest_of(item, stream, key, &mut steps)?;
            }
        }
        "response.output_text.delta" => {
            let key = key()?;
            if !matches!(stream.element(key), Some(Body::Text(_))) {
                return Err(Problem::new("a text delta for a message item", event));
            }
            let text = string(event, "delta").unwrap_or_default();
            steps.push(Step::Text {
                key: Some(key),
                text,
            });
        }
        "response.completed" | "response.incomplete" | "response.failed" => {
            let response = event.get("response").unwrap_or(&Value::Null);
            let details = response.get("incomplete_details").unwrap_or(&Value::Null);
            steps.push(Step::Stop {
                reason: string(details, "reason"),
                status: string(response, "status"),
            });
        }
        _ => {}
    }
    Ok(steps)
}

/// Checks that the call at `key` began, and that `holder`'s item id (`item_id` of a delta,
/// `id` of an item), when given, is its own.
fn check_item(holder: &Value<'_>, stream: &TurnStream<'_>, key: u64) -> Result<(), Problem> {
    let Some(call) = stream.call(key) else {
        return Err(Problem::new(
            "an event for a function_call item already added",
            holder,
        ));
    };
    let named = string(holder, "item_id").or_else(|| string(holder, "id"));
    match (named, &call.item) {
        (Some(named), Some(own)) if named != *own => Err(Problem::new(
            "the `item_id` of the item at this `output_index`",
            holder,
        )),
        _ => Ok(()),
    }
}

/// The part of a whole arguments text (`holder`'s `arguments`) the deltas have not given.
fn rest_of(
    holder: &Value<'_>,
    stream: &TurnStream<'_>,
    key: u64,
    steps: &mut Vec<Step>,
) -> Result<(), Problem> {
    let (Some(whole), Some(call)) = (holder.get("arguments"), stream.call(key)) else {
        return Ok(());
    };
    let Some(whole) = whole.as_str() else {
        return Err(Problem::new("the whole `arguments` as a string", holder));
    };
    if stream.kept > stream.gate.limits().max_bytes {
        // The deltas were not all kept: the turn is too large whatever this says.
        return Ok(());
    }
    match whole.strip_prefix(call.arguments()) {
        Some("") => {}
        Some(rest) => steps.push(Step::Arguments {
            key,
            fragment: rest.to_owned(),
        }),
        None => {
            return Err(Problem::new(
                "whole `arguments` that continue the deltas",
                holder,
            ));
        }
    }
    Ok(())
}

/// The turn as a whole response.
pub(super) fn message(stream: &TurnStream<'_>) -> String {
    let mut out = String::from("{");
    write_member(&mut out, "object", Some("response"));
    write_member(&mut out, "status", stream.status.as_deref());
    out.push_str(r#","incomplete_details":"#);
    match &stream.stop {
        Some(reason) => {
            out.push('{');
            write_member(&mut out, "reason", Some(reason));
            out.push('}');
        }
        None => out.push_str("null"),
    }
    out.push_str(r#","output":["#);
    for (n, element) in stream.elements.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        match &element.body {
            Body::Text(text) => {
                out.push_str(r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"#);
                write_string(&mut out, Some(text));
                out.push_str("}]}");
            }
            Body::Other(item) => json::write_compact(&mut out, item),
            Body::Call(index) => {
                let Some(call) = stream.calls.get(*index) else {
                    out.push_str("null");
                    continue;
                };
                out.push_str(r#"{"type":"function_call""#);
                write_member(&mut out, "id", call.item.as_deref());
                write_member(&mut out, "call_id", call.id.as_deref());
                write_member(&mut out, "name", Some(call.name()));
                write_member(&mut out, "arguments", Some(call.arguments()));
                out.push('}');
            }
        }
    }
    out.push_str("]}");
    out
}
