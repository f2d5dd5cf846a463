//! Gemini streamed responses: each chunk is a `GenerateContentResponse` whose first
//! candidate's `content.parts` continue the turn. A `functionCall` part (`function_call` in
//! google-genai dumps) arrives whole, so its call is checked at once; text parts arrive in
//! pieces, joined into one text part until another part comes; thought parts pass. The
//! candidate's `finishReason` (`finish_reason`) comes with the last chunk; a chunk of
//! metadata only passes.
//!
//! The whole form written is a response with one candidate:
//! `{"candidates":[{"content":{"role":"model","parts":[…]},"finishReason":…}]}`, each call
//! part as it came.

use super::read::{index, string, write_member, write_string, Problem};
use super::{Body, Step, TurnStream};
use crate::json::{self, Value};
use crate::turn::is_call;

/// The steps of one chunk.
///
/// # Errors
/// A [`Problem`] when `candidates`, the candidate's `content` or `parts` is not what a
/// chunk holds, or a call part has no name.
pub(super) fn read(chunk: &Value<'_>, _stream: &TurnStream<'_>) -> Result<Vec<Step>, Problem> {
    let mut steps = Vec::new();
    let candidates = match chunk.get("candidates") {
        None | Some(Value::Null) => return Ok(steps),
        Some(Value::Array(candidates)) => candidates,
        Some(other) => return Err(Problem::new("`candidates` as a list", other)),
    };
    for candidate in candidates {
        if !matches!(candidate, Value::Object(_)) {
            return Err(Problem::new("a candidate object", candidate));
        }
        let first = match candidate.get("index") {
            None | Some(Value::Null) => true,
            Some(_) => index(candidate, "index", "a candidate's `index` as an integer")? == 0,
        };
        if !first {
            continue;
        }
        let parts = match candidate.get("content").map(|content| content.get("parts")) {
            None | Some(None | Some(Value::Null)) => &[][..],
            Some(Some(Value::Array(parts))) => parts,
            Some(Some(other)) => return Err(Problem::new("`content.parts` as a list", other)),
        };
        for part in parts {
            read_part(part, &mut steps)?;
        }
        let reason =
            string(candidate, "finishReason").or_else(|| string(candidate, "finish_reason"));
        if reason.is_some() {
            steps.push(Step::Stop {
                reason,
                status: None,
            });
        }
    }
    Ok(steps)
}

/// One part: a call, whole; a piece of text; a thought (passes); anything else, as given.
fn read_part(part: &Value<'_>, steps: &mut Vec<Step>) -> Result<(), Problem> {
    let call = ["functionCall", "function_call"]
        .iter()
        .find_map(|key| part.get(key).filter(|call| !call.is_null()));
    // Parts are kept as given: the whole form must read a call part, and only it, as a call.
    if call.is_some() != is_call(part, false) {
        return Err(Problem::new("a call part as a `functionCall` alone", part));
    }
    if let Some(call) = call {
        let Some(name) = string(call, "name") else {
            return Err(Problem::new("a `functionCall` with its `name`", part));
        };
        let mut arguments = String::new();
        match call.get("args") {
            None | Some(Value::Null) => arguments.push_str("{}"),
            Some(args) => json::write_compact(&mut arguments, args),
        }
        steps.push(Step::Whole {
            id: string(call, "id"),
            name,
            arguments,
            part: part.clone().into_owned(),
        });
    } else if part.get("thought") == Some(&Value::Bool(true)) {
    } else if let Some(text) = string(part, "text") {
        steps.push(Step::Text { key: None, text });
    } else {
        let item = part.clone().into_owned();
        steps.push(Step::Other { key: None, item });
    }
    Ok(())
}

/// The turn as a whole response with one candidate.
pub(super) fn message(stream: &TurnStream<'_>) -> String {
    let mut out = String::from(r#"{"candidates":[{"content":{"role":"model","parts":["#);
    for (n, element) in stream.elements.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        match &element.body {
            Body::Text(text) => {
                out.push_str(r#"{"text":"#);
                write_string(&mut out, Some(text));
                out.push('}');
            }
            Body::Other(item) => json::write_compact(&mut out, item),
            Body::Call(index) => match stream.calls.get(*index).and_then(|c| c.part.as_ref()) {
                Some(part) => json::write_compact(&mut out, part),
                None => out.push_str("null"),
            },
        }
    }
    out.push_str("]}");
    write_member(&mut out, "finishReason", stream.stop.as_deref());
    out.push_str("}]}");
    out
}
