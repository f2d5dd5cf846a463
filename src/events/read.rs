//! What every provider's reader shares: which provider an event belongs to, the provider's
//! own `error` event, an event that does not fit ([`Problem`]), and the small readers and
//! writers of members.

use super::EventError;
use crate::json::{self, Value, PREVIEW_CHARS};
use crate::turn::TurnForm;

/// An event that does not fit the stream: what was expected, what arrived.
pub(super) struct Problem {
    pub(super) expected: &'static str,
    pub(super) received: String,
}

impl Problem {
    /// `expected`, and `received` as compact JSON cut at [`PREVIEW_CHARS`].
    pub(super) fn new(expected: &'static str, received: &Value<'_>) -> Problem {
        Problem {
            expected,
            received: json::preview(received, PREVIEW_CHARS),
        }
    }

    /// An event of no provider's stream.
    pub(super) fn unknown(event: &Value<'_>) -> Problem {
        Problem::new(
            "an event of an OpenAI chat, Anthropic, Responses or Gemini stream",
            event,
        )
    }

    /// An event of `form`'s stream in a stream of `own`'s.
    pub(super) fn other(own: TurnForm, form: TurnForm, event: &Value<'_>) -> Problem {
        Problem {
            expected: noun(own),
            received: format!("{}: {}", noun(form), json::preview(event, PREVIEW_CHARS)),
        }
    }

    /// The error of event number `event`.
    pub(super) fn at(self, event: usize) -> EventError {
        EventError::Unexpected {
            event,
            expected: self.expected,
            received: self.received,
        }
    }
}

/// An event of a `form` stream, in words.
fn noun(form: TurnForm) -> &'static str {
    match form {
        TurnForm::OpenAiChat => "an OpenAI chat completion chunk",
        TurnForm::Anthropic => "an Anthropic Messages event",
        TurnForm::Responses => "an OpenAI Responses event",
        _ => "a Gemini response chunk",
    }
}

/// The provider whose stream `event` belongs to: a Responses event's `type` starts with
/// `response.`, an Anthropic event's is one of its own, an OpenAI chunk has `choices` (or
/// says `chat.completion.chunk`), a Gemini chunk `candidates` or only its metadata.
pub(super) fn form_of(event: &Value<'_>) -> Option<TurnForm> {
    match event.get("type").and_then(Value::as_str) {
        Some(kind) if kind.starts_with("response.") => return Some(TurnForm::Responses),
        Some(
            "message_start"
            | "content_block_start"
            | "content_block_delta"
            | "content_block_stop"
            | "message_delta"
            | "message_stop"
            | "ping",
        ) => return Some(TurnForm::Anthropic),
        _ => {}
    }
    let has = |key: &str| event.get(key).is_some();
    let chunk = event.get("object").and_then(Value::as_str) == Some("chat.completion.chunk");
    if chunk || has("choices") {
        return Some(TurnForm::OpenAiChat);
    }
    let gemini = [
        "candidates",
        "usageMetadata",
        "usage_metadata",
        "promptFeedback",
    ];
    gemini
        .iter()
        .any(|key| has(key))
        .then_some(TurnForm::Gemini)
}

/// The message of a provider's `error` event: Anthropic's and Responses'
/// `{"type":"error",…}`, a Gemini chunk's `{"error":{…}}`.
pub(super) fn failure(event: &Value<'_>) -> Option<String> {
    let typed = event.get("type").and_then(Value::as_str) == Some("error");
    let error = event
        .get("error")
        .filter(|error| matches!(error, Value::Object(_)));
    if !typed && error.is_none() {
        return None;
    }
    let message = error
        .and_then(|error| error.get("message"))
        .or_else(|| event.get("message"));
    Some(match message {
        Some(Value::String(message)) => cut(message),
        _ => json::preview(event, PREVIEW_CHARS),
    })
}

/// `text` cut at [`PREVIEW_CHARS`] characters.
fn cut(text: &str) -> String {
    match text.char_indices().nth(PREVIEW_CHARS) {
        Some((end, _)) => format!("{}…", text.get(..end).unwrap_or_default()),
        None => text.to_owned(),
    }
}

/// The index at `key` of `holder` (a block, output item, tool call or choice index).
///
/// # Errors
/// A [`Problem`] saying `expected` when it is missing or no non-negative integer.
pub(super) fn index(holder: &Value<'_>, key: &str, expected: &'static str) -> Result<u64, Problem> {
    match holder.get(key) {
        Some(value) => value
            .as_i64()
            .and_then(|index| u64::try_from(index).ok())
            .ok_or_else(|| Problem::new(expected, value)),
        None => Err(Problem::new(expected, holder)),
    }
}

/// The string at `key` of `holder`, owned.
pub(super) fn string(holder: &Value<'_>, key: &str) -> Option<String> {
    holder.get(key).and_then(Value::as_str).map(String::from)
}

/// Writes `text` as a JSON string, or `null`.
pub(super) fn write_string(out: &mut String, text: Option<&str>) {
    match text {
        // Writing to a `String` cannot fail.
        Some(text) => {
            let _ = json::write_escaped_str(out, text);
        }
        None => out.push_str("null"),
    }
}

/// Writes `"key":` and `text` as a JSON string or `null`, after a comma unless first.
pub(super) fn write_member(out: &mut String, key: &str, text: Option<&str>) {
    if !out.ends_with('{') {
        out.push(',');
    }
    write_string(out, Some(key));
    out.push(':');
    write_string(out, text);
}
