//! OpenAI chat completion chunks: the first choice's `delta.content` is the turn's text,
//! its `delta.tool_calls[]` its calls, told apart by `index` (several calls may interleave);
//! a call's first delta brings its `id` and `function.name`, the rest `function.arguments`
//! fragments; `finish_reason` comes last, and a usage chunk with no choices may follow.
//!
//! The whole form written is a chat completion with one choice:
//! `{"choices":[{"index":0,"message":{"role":"assistant","content":…,"tool_calls":[…]},"finish_reason":…}]}`.

use super::read::{index, string, write_member, Problem};
use super::{Body, Step, TurnStream};
use crate::json::Value;

/// The steps of one chunk.
///
/// # Errors
/// A [`Problem`] when `choices`, a choice, its `delta` or `tool_calls` is not what a chunk
/// holds, a tool call delta has no `index`, a new call comes without its name, a known
/// call's id changes, or a legacy `function_call` delta comes.
pub(super) fn read(chunk: &Value<'_>, stream: &TurnStream<'_>) -> Result<Vec<Step>, Problem> {
    let mut steps = Vec::new();
    let choices = match chunk.get("choices") {
        None | Some(Value::Null) => return Ok(steps),
        Some(Value::Array(choices)) => choices,
        Some(other) => return Err(Problem::new("`choices` as a list", other)),
    };
    for choice in choices {
        if !matches!(choice, Value::Object(_)) {
            return Err(Problem::new("a choice object", choice));
        }
        // The turn is the first choice, as in a whole completion.
        let first = match choice.get("index") {
            None | Some(Value::Null) => true,
            Some(_) => index(choice, "index", "a choice's `index` as an integer")? == 0,
        };
        if !first {
            continue;
        }
        match choice.get("delta") {
            None | Some(Value::Null) => {}
            Some(delta @ Value::Object(_)) => read_delta(delta, stream, &mut steps)?,
            Some(other) => return Err(Problem::new("a choice's `delta` as an object", other)),
        }
        if let Some(reason) = string(choice, "finish_reason") {
            steps.push(Step::Stop {
                reason: Some(reason),
                status: None,
            });
        }
    }
    Ok(steps)
}

/// One choice's delta: its text, then its tool call deltas.
fn read_delta(
    delta: &Value<'_>,
    stream: &TurnStream<'_>,
    steps: &mut Vec<Step>,
) -> Result<(), Problem> {
    // A legacy `function_call` delta would be a call no reader here checks: refused, never
    // dropped in silence.
    if delta
        .get("function_call")
        .is_some_and(|call| !call.is_null())
    {
        let expected = "calls as `tool_calls` deltas (legacy `function_call` deltas are not read)";
        return Err(Problem::new(expected, delta));
    }
    if let Some(text) = string(delta, "content").filter(|text| !text.is_empty()) {
        steps.push(Step::Text { key: None, text });
    }
    let calls = match delta.get("tool_calls") {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Array(calls)) => calls,
        Some(other) => return Err(Problem::new("`delta.tool_calls` as a list", other)),
    };
    // Calls begun by this chunk, which its later deltas may continue.
    let mut begun = Vec::new();
    for call in calls {
        let key = index(call, "index", "a tool call delta with its `index`")?;
        let function = call.get("function");
        let member = |key: &str| function.and_then(|function| string(function, key));
        let id = string(call, "id");
        let known = stream.call(key);
        if known.is_none() && !begun.contains(&key) {
            let Some(name) = member("name") else {
                return Err(Problem::new(
                    "a new tool call's first delta, with its `function.name`",
                    call,
                ));
            };
            begun.push(key);
            steps.push(Step::Begin {
                key: Some(key),
                id,
                item: None,
                name,
            });
        } else {
            let known_id = known.and_then(|known| known.id.as_deref());
            if let (Some(id), Some(known_id)) = (id.as_deref(), known_id) {
                if id != known_id {
                    return Err(Problem::new(
                        "the same `id` for every delta of a call",
                        call,
                    ));
                }
            }
            // A name in pieces, before the arguments begin (some servers split it).
            if let Some(fragment) = member("name").filter(|name| !name.is_empty()) {
                steps.push(Step::Name { key, fragment });
            }
        }
        if let Some(fragment) = member("arguments") {
            steps.push(Step::Arguments { key, fragment });
        }
    }
    Ok(())
}

/// The turn as a chat completion with one choice.
pub(super) fn message(stream: &TurnStream<'_>) -> String {
    let mut out = String::from(r#"{"choices":[{"index":0,"message":{"role":"assistant""#);
    let mut text = None::<String>;
    for element in &stream.elements {
        if let Body::Text(part) = &element.body {
            text.get_or_insert_with(String::new).push_str(part);
        }
    }
    write_member(&mut out, "content", text.as_deref());
    out.push_str(r#","tool_calls":"#);
    if stream.calls.is_empty() {
        out.push_str("null");
    } else {
        out.push('[');
        for (n, call) in stream.calls.iter().enumerate() {
            if n > 0 {
                out.push(',');
            }
            out.push('{');
            write_member(&mut out, "id", call.id.as_deref());
            out.push_str(r#","type":"function","function":{"#);
            write_member(&mut out, "name", Some(call.name()));
            write_member(&mut out, "arguments", Some(call.arguments()));
            out.push_str("}}");
        }
        out.push(']');
    }
    out.push('}');
    write_member(&mut out, "finish_reason", stream.stop.as_deref());
    out.push_str("}]}");
    out
}
