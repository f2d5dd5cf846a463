//! Reading a turn: every provider's form of an assistant message, as its SDK dumps it, down
//! to its call elements and text, in order (the forms are in the [module docs](super)).
//!
//! `null` members are absent and unknown members ignored; a member read twice is refused.
//! The form is told by the members present, in this order: `choices`, `candidates`, `output`,
//! `parts`, a `message` object, a `content` object, `tool_calls` or `function_call`, a
//! `content` list, then `role`. In a list, an element is a call when its `type` is a call's or
//! not a string, when it has no `type` and holds a name or call object, or when it holds
//! nothing else toolgate knows, so every broken call is answered. In Gemini's `parts`, only
//! a `functionCall` part is a call. Thinking, reasoning and hosted tool items pass by.
//!
//! The stop reason is read where a form carries it (a choice's `finish_reason`, a message's
//! `stop_reason`, a response's `incomplete_details`, a candidate's `finishReason`), before
//! the elements, so the turn knows whether its last element, when a call, was cut.

use super::error::{cut, TurnError};
use super::TurnForm;
use crate::json::{self, Member, Value, PREVIEW_CHARS};
use crate::spec::names::with_article;
use std::borrow::Cow;

/// Takes each call element as it is found, in order, with how it was found.
pub(crate) type OnCall<'c, 'a> = dyn FnMut(&mut Value<'a>, Found) + 'c;

/// How a call element was found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found {
    /// It is OpenAI's legacy `function_call` member, whose call is the member itself (it
    /// is checked as `{"function_call": …}`, the shape the envelope reads).
    pub(crate) legacy: bool,
    /// The turn stopped at the model's output limit (`cut::stopped_at_limit`): if this call
    /// turns out to be the turn's last element, it was cut.
    pub(crate) cut: bool,
}

/// What a turn holds, read.
pub(crate) struct Reading<'a> {
    pub(crate) form: TurnForm,
    /// The text parts, untouched.
    pub(crate) text: Vec<Cow<'a, str>>,
    /// The turn stopped at the model's output limit and its last element is a call: that
    /// call was cut, whatever its text says.
    pub(crate) last_call_cut: bool,
}

/// What a turn holds, in order.
struct Parts<'a, 'c, 'f> {
    form: TurnForm,
    call: &'f mut OnCall<'c, 'a>,
    /// The text parts, untouched.
    text: Vec<Cow<'a, str>>,
    /// The turn's stop reason says the model hit its output limit; read before its
    /// elements, so each call knows it as it is found.
    cut: bool,
    /// The last element read is a call.
    last_is_call: bool,
}

impl<'a> Parts<'a, '_, '_> {
    /// Hands a call element over.
    fn call(&mut self, element: &mut Value<'a>, legacy: bool) {
        self.last_is_call = true;
        let found = Found {
            legacy,
            cut: self.cut,
        };
        (self.call)(element, found);
    }

    /// Keeps a text part.
    fn text(&mut self, text: Cow<'a, str>) {
        self.last_is_call = false;
        self.text.push(text);
    }

    /// Reads the stop reason at `key` of `holder` (a choice, a message, a candidate).
    ///
    /// # Errors
    /// [`TurnError::DuplicateKey`] when `key` is given twice.
    fn stop_reason(
        &mut self,
        holder: &mut [Member<'a>],
        path: &str,
        key: &str,
    ) -> Result<(), TurnError> {
        let reason = member(holder, path, key)?.and_then(|reason| reason.as_str());
        self.cut = reason.is_some_and(super::cut::stopped_at_limit);
        Ok(())
    }
}

/// Reads a turn: its form and text, each call element handed to `call` in order as it is
/// found.
///
/// # Errors
/// [`TurnError::NotATurn`] when the value is in no form above; [`TurnError::WrongType`],
/// [`TurnError::Empty`], [`TurnError::Missing`] and [`TurnError::DuplicateKey`] when a
/// member the form reads is not what the form needs.
pub(crate) fn read<'a>(
    turn: &mut Value<'a>,
    call: &mut OnCall<'_, 'a>,
) -> Result<Reading<'a>, TurnError> {
    let mut parts = Parts {
        form: TurnForm::Calls,
        call,
        text: Vec::new(),
        cut: false,
        last_is_call: false,
    };
    match turn {
        // The form is told by the elements' types, read as the elements are.
        Value::Array(items) => read_items(items, true, &mut parts, true),
        Value::Object(members) => read_object(members, &mut parts)?,
        other => {
            return Err(TurnError::NotATurn {
                found: describe(other),
            })
        }
    }
    Ok(Reading {
        form: parts.form,
        text: parts.text,
        last_call_cut: parts.cut && parts.last_is_call,
    })
}

/// What one element of a list is.
enum Class<'a> {
    Call,
    Text(Cow<'a, str>),
    /// A Responses `message` item, whose text is in its `content`.
    Message,
    Other,
}

/// Reads a top-level object in whichever form its members tell (see the module docs).
fn read_object<'a>(
    turn: &mut [Member<'a>],
    parts: &mut Parts<'a, '_, '_>,
) -> Result<(), TurnError> {
    if let Some(choices) = member(turn, "", "choices")? {
        parts.form = TurnForm::OpenAiChat;
        let choice = first(choices, "choices", "a list of choices", "a choice")?;
        let choice = object(choice, "choices.0", "a choice object")?;
        parts.stop_reason(choice, "choices.0", "finish_reason")?;
        let message = member(choice, "choices.0", "message")?.ok_or(TurnError::Missing {
            path: "choices.0.message".into(),
            expected: "the choice's assistant message",
        })?;
        let message = object(message, "choices.0.message", "an assistant message object")?;
        return read_chat_members(message, "choices.0.message", parts);
    }
    if let Some(candidates) = member(turn, "", "candidates")? {
        parts.form = TurnForm::Gemini;
        let candidate = first(
            candidates,
            "candidates",
            "a list of candidates",
            "a candidate",
        )?;
        let candidate = object(candidate, "candidates.0", "a candidate object")?;
        return read_candidate_members(candidate, "candidates.0", parts);
    }
    if member(turn, "", "output")?.is_some() {
        parts.form = TurnForm::Responses;
        if let Some(Value::Object(details)) = member(turn, "", "incomplete_details")? {
            parts.stop_reason(details, "incomplete_details", "reason")?;
        }
        let Some(output) = member(turn, "", "output")? else {
            return Ok(());
        };
        let Value::Array(items) = output else {
            return Err(wrong_type("output", "a list of output items", output));
        };
        read_items(items, true, parts, false);
        return Ok(());
    }
    if member(turn, "", "parts")?.is_some() {
        parts.form = TurnForm::Gemini;
        return read_content(turn, "", parts);
    }
    if let Some(Value::Object(_)) = member(turn, "", "message")? {
        parts.form = TurnForm::OpenAiChat;
        parts.stop_reason(turn, "", "finish_reason")?;
        let Some(Value::Object(message)) = member(turn, "", "message")? else {
            return Ok(());
        };
        return read_chat_members(message, "message", parts);
    }
    let content_kind = member(turn, "", "content")?.map(|content| content.kind());
    if content_kind == Some(json::Kind::Object) {
        parts.form = TurnForm::Gemini;
        return read_candidate_members(turn, "", parts);
    }
    // Even `null`: an OpenAI message without calls writes them so.
    let named = |key| turn.iter().any(|(name, _)| name == key);
    if named("tool_calls") || named("function_call") {
        parts.form = TurnForm::OpenAiChat;
        return read_chat_members(turn, "", parts);
    }
    if let Some(Value::Array(_)) = member(turn, "", "content")? {
        parts.form = TurnForm::Anthropic;
        parts.stop_reason(turn, "", "stop_reason")?;
        let Some(Value::Array(blocks)) = member(turn, "", "content")? else {
            return Ok(());
        };
        read_items(blocks, true, parts, false);
        return Ok(());
    }
    match member(turn, "", "role")?.and_then(|role| role.as_str()) {
        Some("assistant") => {
            parts.form = TurnForm::OpenAiChat;
            read_chat_members(turn, "", parts)
        }
        Some("model") => {
            parts.form = TurnForm::Gemini;
            read_content(turn, "", parts)
        }
        _ => Err(TurnError::NotATurn {
            found: describe_members(turn),
        }),
    }
}

/// An OpenAI chat message's members: its `content` is text; its `tool_calls` elements are
/// calls, and so is a legacy `function_call`.
fn read_chat_members<'a>(
    message: &mut [Member<'a>],
    path: &str,
    parts: &mut Parts<'a, '_, '_>,
) -> Result<(), TurnError> {
    match member(message, path, "content")? {
        None => {}
        Some(Value::String(text)) => parts.text(text.clone()),
        Some(Value::Array(items)) => {
            for part in items.iter() {
                if type_of(part) == Some("text") {
                    if let Some(text) = text_of(part) {
                        parts.text(text);
                    }
                }
            }
        }
        Some(other) => {
            return Err(wrong_type(
                &join(path, "content"),
                "a string, null or a list of content parts",
                other,
            ))
        }
    }
    match member(message, path, "tool_calls")? {
        None => {}
        Some(Value::Array(calls)) => {
            for element in calls.iter_mut() {
                parts.call(element, false);
            }
        }
        Some(other) => {
            return Err(wrong_type(
                &join(path, "tool_calls"),
                "a list of tool calls",
                other,
            ))
        }
    }
    if let Some(legacy) = member(message, path, "function_call")? {
        parts.call(legacy, true);
    }
    Ok(())
}

/// A Gemini candidate's members: its `content`, when it has one (a candidate stopped for
/// safety may have none).
fn read_candidate_members<'a>(
    candidate: &mut [Member<'a>],
    path: &str,
    parts: &mut Parts<'a, '_, '_>,
) -> Result<(), TurnError> {
    let camel = candidate.iter().any(|(key, _)| key == "finishReason");
    let key = if camel {
        "finishReason"
    } else {
        "finish_reason"
    };
    parts.stop_reason(candidate, path, key)?;
    match member(candidate, path, "content")? {
        None => Ok(()),
        Some(content) => {
            let path = join(path, "content");
            let content = object(content, &path, "a content object with parts")?;
            read_content(content, &path, parts)
        }
    }
}

/// A Gemini `Content`'s members: its `parts`, when it has any.
fn read_content<'a>(
    content: &mut [Member<'a>],
    path: &str,
    parts: &mut Parts<'a, '_, '_>,
) -> Result<(), TurnError> {
    match member(content, path, "parts")? {
        None => Ok(()),
        Some(Value::Array(items)) => {
            read_items(items, false, parts, false);
            Ok(())
        }
        Some(other) => Err(wrong_type(&join(path, "parts"), "a list of parts", other)),
    }
}

/// A list of content blocks, output items, parts or calls, element by element. An element
/// nothing in says what it is is a call when `call_by_default` (so a broken call is
/// answered), and nothing in Gemini's parts. When it `tells_form` (a bare list), the first
/// element whose `type` one provider alone uses sets the form ([`list_form`]).
fn read_items<'a>(
    items: &mut [Value<'a>],
    call_by_default: bool,
    parts: &mut Parts<'a, '_, '_>,
    tells_form: bool,
) {
    let mut form_told = !tells_form;
    for item in items.iter_mut() {
        if !form_told {
            if let Some(form) = type_of(item).and_then(list_form) {
                parts.form = form;
                form_told = true;
            }
        }
        match classify(item, call_by_default) {
            Class::Call => parts.call(item, false),
            Class::Text(text) => parts.text(text),
            Class::Message => match item.get("content") {
                Some(Value::String(text)) => parts.text(text.clone()),
                Some(Value::Array(content)) => {
                    let is_text =
                        |part: &&Value<'a>| matches!(type_of(part), Some("output_text" | "text"));
                    parts
                        .text
                        .extend(content.iter().filter(is_text).filter_map(text_of));
                    parts.last_is_call = false;
                }
                _ => parts.last_is_call = false,
            },
            // Whatever comes after a call (a thinking block, a hosted tool's item) means
            // the call was whole before the limit hit.
            Class::Other => parts.last_is_call = false,
        }
    }
}

/// Whether an element of a list is read as a call (`call_by_default` as in [`read_items`]):
/// a turn stream keeps the other elements as given, so it checks that none is one.
#[cfg(feature = "stream")]
pub(crate) fn is_call(item: &Value<'_>, call_by_default: bool) -> bool {
    matches!(classify(item, call_by_default), Class::Call)
}

/// What one element of a list is (see the module docs).
fn classify<'a>(item: &Value<'a>, call_by_default: bool) -> Class<'a> {
    let otherwise = if call_by_default {
        Class::Call
    } else {
        Class::Other
    };
    if !matches!(item, Value::Object(_)) {
        return otherwise;
    }
    match item.get("type") {
        Some(Value::String(kind)) => match kind.as_ref() {
            "tool_use" | "function_call" | "function" => Class::Call,
            "text" => text_of(item).map_or(Class::Other, Class::Text),
            "message" => Class::Message,
            _ => Class::Other,
        },
        None | Some(Value::Null) => {
            let holds = |key: &&str| item.get(key).is_some_and(|value| !value.is_null());
            if ["name", "function", "functionCall", "function_call"]
                .iter()
                .any(holds)
            {
                Class::Call
            } else if item.get("thought") == Some(&Value::Bool(true)) {
                Class::Other
            } else if let Some(text) = text_of(item) {
                Class::Text(text)
            } else {
                otherwise
            }
        }
        // Not a string: the gate says why that is no call.
        Some(_) => Class::Call,
    }
}

/// The form a bare list's element of type `kind` tells, if only one provider uses it; the
/// list's form is the first element's that tells one.
fn list_form(kind: &str) -> Option<TurnForm> {
    match kind {
        "text" | "tool_use" | "thinking" | "redacted_thinking" | "server_tool_use" => {
            Some(TurnForm::Anthropic)
        }
        "message" | "reasoning" | "function_call" => Some(TurnForm::Responses),
        _ => None,
    }
}

/// The `type` member, when it is a string.
fn type_of<'v>(item: &'v Value<'_>) -> Option<&'v str> {
    item.get("type").and_then(Value::as_str)
}

/// The `text` member, when it is a string.
fn text_of<'a>(item: &Value<'a>) -> Option<Cow<'a, str>> {
    match item.get("text") {
        Some(Value::String(text)) => Some(text.clone()),
        _ => None,
    }
}

/// The value of `key` in `object` (`None` when absent or `null`).
///
/// # Errors
/// [`TurnError::DuplicateKey`] when `key` is given twice.
fn member<'v, 'a>(
    object: &'v mut [Member<'a>],
    path: &str,
    key: &str,
) -> Result<Option<&'v mut Value<'a>>, TurnError> {
    let mut named = object.iter_mut().filter(|(name, _)| name == key);
    let value = named.next();
    if named.next().is_some() {
        return Err(TurnError::DuplicateKey {
            path: join(path, key),
        });
    }
    Ok(value
        .map(|(_, value)| value)
        .filter(|value| !value.is_null()))
}

/// `value`'s members, when it is an object.
///
/// # Errors
/// [`TurnError::WrongType`] otherwise.
fn object<'v, 'a>(
    value: &'v mut Value<'a>,
    path: &str,
    expected: &'static str,
) -> Result<&'v mut [Member<'a>], TurnError> {
    match value {
        Value::Object(members) => Ok(members),
        other => Err(wrong_type(path, expected, other)),
    }
}

/// The first element of the list at `path`.
///
/// # Errors
/// [`TurnError::WrongType`] when it is not a list, [`TurnError::Empty`] when it is empty.
fn first<'v, 'a>(
    list: &'v mut Value<'a>,
    path: &str,
    expected_list: &'static str,
    expected_item: &'static str,
) -> Result<&'v mut Value<'a>, TurnError> {
    match list {
        Value::Array(items) => items.first_mut().ok_or_else(|| TurnError::Empty {
            path: path.to_owned(),
            expected: expected_item,
        }),
        other => Err(wrong_type(path, expected_list, other)),
    }
}

fn wrong_type(path: &str, expected: &'static str, received: &Value<'_>) -> TurnError {
    TurnError::WrongType {
        path: path.to_owned(),
        expected,
        received: json::preview(received, PREVIEW_CHARS),
    }
}

/// `path.key`, or `key` at the top level.
fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// What arrived, for [`TurnError::NotATurn`]: an object's keys, or a value's kind and text.
fn describe(value: &Value<'_>) -> String {
    match value {
        Value::Object(members) => describe_members(members),
        other => format!(
            "{}: {}",
            with_article(other.kind().label()),
            json::preview(other, PREVIEW_CHARS)
        ),
    }
}

/// An object's keys, for [`describe`].
fn describe_members(members: &[Member<'_>]) -> String {
    if members.is_empty() {
        return "an empty object".to_owned();
    }
    let mut keys = String::from("an object with keys ");
    for (index, (key, _)) in members.iter().enumerate() {
        if index > 0 {
            keys.push_str(", ");
        }
        // Writing to a `String` cannot fail.
        let _ = json::write_escaped_str(&mut keys, key);
        if keys.len() > PREVIEW_CHARS.saturating_mul(4) {
            break;
        }
    }
    cut(keys)
}
