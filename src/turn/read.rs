//! Reading a turn: every provider's form of an assistant message, as its official SDK dumps
//! it, down to the call elements and the text it holds, in order.
//!
//! The forms and what is read from each are in the table of the [module docs](super).
//!
//! Everything else passes by untouched: Anthropic `thinking` blocks and server tool blocks,
//! Responses `reasoning` items and hosted tool calls (`web_search_call`, …), Gemini thoughts,
//! inline data and code parts. Those are not calls toolgate checks: the provider runs its
//! hosted tools itself, and a client tool of another kind (a `computer_call`) has no
//! [`ToolSpec`](crate::ToolSpec) to check it against, so it is the caller's to answer.
//!
//! SDK dumps (`model_dump()`, `to_dict()`, `toJSON()`) write every field, `null` when unset,
//! and fields of their own (`refusal`, `annotations`, `index`, `parsed_arguments`,
//! `thoughtSignature`, `finish_reason`, `usage`). So, as in the envelope, a `null` member is
//! an absent one and members toolgate does not read are ignored; a member it does read,
//! given twice, is refused, since which one holds the calls would be a guess.
//!
//! The form is told by the members present, in this order: `choices`, `candidates`,
//! `output`, `parts`, a `message` object (one choice), a `content` object (a candidate),
//! `tool_calls` or `function_call` (an OpenAI chat message, even when they are `null`), a
//! `content` list (Anthropic), then `role`: `"assistant"` is an OpenAI message without calls,
//! `"model"` a Gemini content without parts. A bare list takes its form from its first
//! element whose `type` one provider alone uses, which only matters for
//! [`TurnForm::provider`].
//!
//! In a list (of content blocks, output items or calls), an element is a call when its `type`
//! is `tool_use`, `function_call` or `function`, or is not a string; when it has no `type` and
//! holds a `name`, `function`, `functionCall` or `function_call`; and when it holds nothing
//! else toolgate knows (no text): so every element of a list of broken calls is answered, with
//! the gate's reason. In Gemini's `parts`, only a part holding a `functionCall` is a call.

use super::error::{cut, TurnError};
use super::outline::{Node, Outline};
use super::TurnForm;
use crate::json::PREVIEW_CHARS;
use crate::json::{self, Value};
use crate::spec::names::with_article;
use std::borrow::Cow;

/// What a turn holds, in order.
struct Parts<'a, 'c> {
    form: TurnForm,
    /// Takes each call element as it is found, in order.
    call: &'c mut dyn FnMut(Element),
    /// The text parts, untouched.
    text: Vec<Cow<'a, str>>,
}

/// One call of a turn: where it stands in the turn's outline.
#[derive(Clone, Copy)]
pub(crate) struct Element {
    /// The call's value's place in the outline.
    pub(crate) place: usize,
    /// OpenAI's legacy `function_call` member, whose call is the member itself: it is
    /// checked as `{"function_call": …}`, the shape the envelope reads.
    pub(crate) legacy: bool,
}

/// How much of a member's value the turn's outline holds ([`outline`](super::outline)),
/// told by its key: the outline is built for this file, and holds only what it reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kept {
    /// The whole value: a member whose value this file reads.
    Whole,
    /// `true`, or `null` for a `null`: a member this file only asks is there (not
    /// `null`), to tell a call from a text block.
    Presence,
    /// Nothing, not even the key: a member this file never asks for, the calls' ids and
    /// arguments above all (the envelope reads those in the same pass). A
    /// [`TurnError`] that shows what arrived reads the value again from its text.
    Nothing,
}

/// Every member this file reads, by key: the one list the outline keeps members by
/// ([`kept`]). Each lookup below names its member by a `Key`, so a member this file reads
/// cannot be missing from the outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key {
    Choices,
    Candidates,
    Output,
    Parts,
    Message,
    Content,
    ToolCalls,
    /// OpenAI chat's legacy call, `function_call`, whose call is the member itself: it is
    /// checked as `{"function_call": …}`, the shape the envelope reads.
    FunctionCall,
    Role,
    Type,
    Text,
    Thought,
    Name,
    Function,
    FunctionCallCamel,
}

impl Key {
    #[cfg(test)]
    const ALL: [Key; 15] = [
        Key::Choices,
        Key::Candidates,
        Key::Output,
        Key::Parts,
        Key::Message,
        Key::Content,
        Key::ToolCalls,
        Key::FunctionCall,
        Key::Role,
        Key::Type,
        Key::Text,
        Key::Thought,
        Key::Name,
        Key::Function,
        Key::FunctionCallCamel,
    ];

    /// The member's key.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Key::Choices => "choices",
            Key::Candidates => "candidates",
            Key::Output => "output",
            Key::Parts => "parts",
            Key::Message => "message",
            Key::Content => "content",
            Key::ToolCalls => "tool_calls",
            Key::FunctionCall => "function_call",
            Key::Role => "role",
            Key::Type => "type",
            Key::Text => "text",
            Key::Thought => "thought",
            Key::Name => "name",
            Key::Function => "function",
            Key::FunctionCallCamel => "functionCall",
        }
    }

    /// The member named `key`, if this file reads one so named (the inverse of
    /// [`Key::name`], which a test holds it to).
    pub(crate) fn of(key: &str) -> Option<Key> {
        Some(match key {
            "choices" => Key::Choices,
            "candidates" => Key::Candidates,
            "output" => Key::Output,
            "parts" => Key::Parts,
            "message" => Key::Message,
            "content" => Key::Content,
            "tool_calls" => Key::ToolCalls,
            "function_call" => Key::FunctionCall,
            "role" => Key::Role,
            "type" => Key::Type,
            "text" => Key::Text,
            "thought" => Key::Thought,
            "name" => Key::Name,
            "function" => Key::Function,
            "functionCall" => Key::FunctionCallCamel,
            _ => return None,
        })
    }
}

/// What the outline keeps of the member `key`: its presence for the members this file
/// only asks are there (a call's `name`, `function` and `functionCall`), the whole value
/// for every other member it reads. (A member it does not read, with no `Key`, is kept
/// [`Kept::Nothing`].)
pub(crate) fn kept(key: Key) -> Kept {
    match key {
        Key::Name | Key::Function | Key::FunctionCallCamel => Kept::Presence,
        _ => Kept::Whole,
    }
}

/// Reads a turn's outline: its form and text, each call element handed to `call` in
/// order as it is found (checked there, with no list of them in between).
///
/// # Errors
/// [`TurnError::NotATurn`] when the value is in no form above; [`TurnError::WrongType`],
/// [`TurnError::Empty`], [`TurnError::Missing`] and [`TurnError::DuplicateKey`] when a
/// member the form reads is not what the form needs.
pub(crate) fn read<'a>(
    outline: &Outline<'a>,
    call: &mut dyn FnMut(Element),
) -> Result<(TurnForm, Vec<Cow<'a, str>>), TurnError> {
    let mut parts = Parts {
        form: TurnForm::Calls,
        call,
        text: Vec::new(),
    };
    let turn = outline.node(0);
    match turn.value() {
        Value::Array(_) => {
            // The form is told by the elements' types, read as the elements are.
            read_items(turn, Fallback::Call, &mut parts, true);
        }
        Value::Object(_) => read_object(turn, &mut parts)?,
        _ => {
            return Err(TurnError::NotATurn {
                found: describe(turn),
            })
        }
    }
    Ok((parts.form, parts.text))
}

/// What an element of a list is when nothing in it says: a call (in a list of calls,
/// content blocks or output items, so that a broken call is answered) or nothing to
/// answer (in Gemini's parts, where inline data and code parts are not calls).
#[derive(Clone, Copy)]
enum Fallback {
    Call,
    Other,
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
fn read_object<'a>(turn: Node<'_, 'a>, parts: &mut Parts<'a, '_>) -> Result<(), TurnError> {
    if let Some(choices) = member(turn, "", Key::Choices)? {
        parts.form = TurnForm::OpenAiChat;
        let choice = first(choices, "choices", "a list of choices", "a choice")?;
        let choice = object(choice, "choices.0", "a choice object")?;
        let message = member(choice, "choices.0", Key::Message)?.ok_or(TurnError::Missing {
            path: "choices.0.message".into(),
            expected: "the choice's assistant message",
        })?;
        return read_chat_message(message, "choices.0.message", parts);
    }
    if let Some(candidates) = member(turn, "", Key::Candidates)? {
        parts.form = TurnForm::Gemini;
        let candidate = first(
            candidates,
            "candidates",
            "a list of candidates",
            "a candidate",
        )?;
        return read_candidate(candidate, "candidates.0", parts);
    }
    if let Some(output) = member(turn, "", Key::Output)? {
        parts.form = TurnForm::Responses;
        if !matches!(output.value(), Value::Array(_)) {
            return Err(wrong_type("output", "a list of output items", output));
        }
        read_items(output, Fallback::Call, parts, false);
        return Ok(());
    }
    if member(turn, "", Key::Parts)?.is_some() {
        parts.form = TurnForm::Gemini;
        return read_content(turn, "", parts);
    }
    if let Some(message) = member(turn, "", Key::Message)? {
        if matches!(message.value(), Value::Object(_)) {
            parts.form = TurnForm::OpenAiChat;
            return read_chat_message(message, "message", parts);
        }
    }
    let content = member(turn, "", Key::Content)?;
    let content_value = content.map(Node::value);
    if let Some(Value::Object(_)) = content_value {
        parts.form = TurnForm::Gemini;
        return read_candidate(turn, "", parts);
    }
    // Even `null`: an OpenAI message without calls writes them so.
    if get(turn, Key::ToolCalls).is_some() || get(turn, Key::FunctionCall).is_some() {
        parts.form = TurnForm::OpenAiChat;
        return read_chat_message(turn, "", parts);
    }
    if let (Some(blocks), Some(Value::Array(_))) = (content, content_value) {
        parts.form = TurnForm::Anthropic;
        read_items(blocks, Fallback::Call, parts, false);
        return Ok(());
    }
    match member(turn, "", Key::Role)?.and_then(|role| role.value().as_str()) {
        Some("assistant") => {
            parts.form = TurnForm::OpenAiChat;
            read_chat_message(turn, "", parts)
        }
        Some("model") => {
            parts.form = TurnForm::Gemini;
            read_content(turn, "", parts)
        }
        _ => Err(TurnError::NotATurn {
            found: describe(turn),
        }),
    }
}

/// An OpenAI chat message: its `content` is text; its `tool_calls` elements are calls, and
/// so is a legacy `function_call`.
fn read_chat_message<'a>(
    message: Node<'_, 'a>,
    path: &str,
    parts: &mut Parts<'a, '_>,
) -> Result<(), TurnError> {
    let message = object(message, path, "an assistant message object")?;
    if let Some(content) = member(message, path, Key::Content)? {
        match content.value() {
            Value::String(text) => parts.text.push(text.clone()),
            Value::Array(_) => {
                for part in content.items() {
                    if type_of(part) == Some("text") {
                        parts.text.extend(text_of(part));
                    }
                }
            }
            _ => {
                return Err(wrong_type(
                    &join(path, Key::Content.name()),
                    "a string, null or a list of content parts",
                    content,
                ))
            }
        }
    }
    if let Some(calls) = member(message, path, Key::ToolCalls)? {
        if !matches!(calls.value(), Value::Array(_)) {
            return Err(wrong_type(
                &join(path, Key::ToolCalls.name()),
                "a list of tool calls",
                calls,
            ));
        }
        for element in calls.items() {
            (parts.call)(Element {
                place: element.place(),
                legacy: false,
            });
        }
    }
    if let Some(legacy) = member(message, path, Key::FunctionCall)? {
        (parts.call)(Element {
            place: legacy.place(),
            legacy: true,
        });
    }
    Ok(())
}

/// A Gemini candidate: its `content`, when it has one (a candidate stopped for safety may
/// have none, and then holds no calls).
fn read_candidate<'a>(
    candidate: Node<'_, 'a>,
    path: &str,
    parts: &mut Parts<'a, '_>,
) -> Result<(), TurnError> {
    let candidate = object(candidate, path, "a candidate object")?;
    match member(candidate, path, Key::Content)? {
        None => Ok(()),
        Some(content) => read_content(content, &join(path, Key::Content.name()), parts),
    }
}

/// A Gemini `Content`: its `parts`, when it has any.
fn read_content<'a>(
    content: Node<'_, 'a>,
    path: &str,
    parts: &mut Parts<'a, '_>,
) -> Result<(), TurnError> {
    let content = object(content, path, "a content object with parts")?;
    match member(content, path, Key::Parts)? {
        None => Ok(()),
        Some(items) if matches!(items.value(), Value::Array(_)) => {
            read_items(items, Fallback::Other, parts, false);
            Ok(())
        }
        Some(other) => Err(wrong_type(
            &join(path, Key::Parts.name()),
            "a list of parts",
            other,
        )),
    }
}

/// A list of content blocks, output items, parts or calls, element by element. When it
/// `tells_form` (a bare list), the first element whose `type` one provider alone uses
/// sets the form ([`list_form`]), from the `type` classifying the element looks up anyway.
fn read_items<'a>(
    items: Node<'_, 'a>,
    fallback: Fallback,
    parts: &mut Parts<'a, '_>,
    tells_form: bool,
) {
    let mut form_told = !tells_form;
    for item in items.items() {
        let kind = get(item, Key::Type).map(Node::value);
        if !form_told {
            if let Some(form) = kind.and_then(Value::as_str).and_then(list_form) {
                parts.form = form;
                form_told = true;
            }
        }
        match classify(item, kind, fallback) {
            Class::Call => (parts.call)(Element {
                place: item.place(),
                legacy: false,
            }),
            Class::Text(text) => parts.text.push(text),
            Class::Message => {
                let Some(content) = get(item, Key::Content) else {
                    continue;
                };
                match content.value() {
                    Value::String(text) => parts.text.push(text.clone()),
                    Value::Array(_) => {
                        let is_text = |part: &Node<'_, 'a>| {
                            matches!(type_of(*part), Some("output_text" | "text"))
                        };
                        let texts = content.items().filter(is_text).filter_map(text_of);
                        parts.text.extend(texts);
                    }
                    _ => {}
                }
            }
            Class::Other => {}
        }
    }
}

/// What one element of a list is (see the module docs).
fn classify<'a>(item: Node<'_, 'a>, kind: Option<&Value<'a>>, fallback: Fallback) -> Class<'a> {
    let otherwise = match fallback {
        Fallback::Call => Class::Call,
        Fallback::Other => Class::Other,
    };
    if !matches!(item.value(), Value::Object(_)) {
        return otherwise;
    }
    match kind {
        Some(Value::String(kind)) => match kind.as_ref() {
            "tool_use" | "function_call" | "function" => Class::Call,
            "text" => text_of(item).map_or(Class::Other, Class::Text),
            "message" => Class::Message,
            _ => Class::Other,
        },
        None | Some(Value::Null) => {
            let holds = |key: &Key| get(item, *key).is_some_and(|value| !value.value().is_null());
            let call_keys = [
                Key::Name,
                Key::Function,
                Key::FunctionCallCamel,
                Key::FunctionCall,
            ];
            if call_keys.iter().any(holds) {
                Class::Call
            } else if get(item, Key::Thought).map(Node::value) == Some(&Value::Bool(true)) {
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
fn type_of<'o>(item: Node<'o, '_>) -> Option<&'o str> {
    get(item, Key::Type).and_then(|kind| kind.value().as_str())
}

/// The `text` member, when it is a string.
fn text_of<'a>(item: Node<'_, 'a>) -> Option<Cow<'a, str>> {
    match get(item, Key::Text).map(Node::value) {
        Some(Value::String(text)) => Some(text.clone()),
        _ => None,
    }
}

/// The value of `key` in `object` (`None` when absent or `null`).
///
/// # Errors
/// [`TurnError::DuplicateKey`] when `key` is given twice.
fn member<'o, 'a>(
    object: Node<'o, 'a>,
    path: &str,
    key: Key,
) -> Result<Option<Node<'o, 'a>>, TurnError> {
    let mut found = object.named(key);
    let value = found.next();
    if found.next().is_some() {
        return Err(TurnError::DuplicateKey {
            path: join(path, key.name()),
        });
    }
    Ok(value.filter(|value| !value.value().is_null()))
}

/// The first member named `key` of `object`, if it is an object with one.
fn get<'o, 'a>(object: Node<'o, 'a>, key: Key) -> Option<Node<'o, 'a>> {
    object.named(key).next()
}

/// `value` when it is an object.
///
/// # Errors
/// [`TurnError::WrongType`] otherwise.
fn object<'o, 'a>(
    value: Node<'o, 'a>,
    path: &str,
    expected: &'static str,
) -> Result<Node<'o, 'a>, TurnError> {
    match value.value() {
        Value::Object(_) => Ok(value),
        _ => Err(wrong_type(path, expected, value)),
    }
}

/// The first element of the list at `path`.
///
/// # Errors
/// [`TurnError::WrongType`] when it is not a list, [`TurnError::Empty`] when it is empty.
fn first<'o, 'a>(
    list: Node<'o, 'a>,
    path: &str,
    expected_list: &'static str,
    expected_item: &'static str,
) -> Result<Node<'o, 'a>, TurnError> {
    if !matches!(list.value(), Value::Array(_)) {
        return Err(wrong_type(path, expected_list, list));
    }
    list.items().next().ok_or_else(|| TurnError::Empty {
        path: path.to_owned(),
        expected: expected_item,
    })
}

fn wrong_type(path: &str, expected: &'static str, received: Node<'_, '_>) -> TurnError {
    TurnError::WrongType {
        path: path.to_owned(),
        expected,
        received: json::preview(&received.whole(), PREVIEW_CHARS),
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

/// What arrived, for [`TurnError::NotATurn`]: an object's keys (all of them, read again
/// from its text), or a value's kind and text.
fn describe(node: Node<'_, '_>) -> String {
    match node.whole() {
        Value::Object(members) if members.is_empty() => "an empty object".to_owned(),
        Value::Object(members) => {
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
        other => format!(
            "{}: {}",
            with_article(other.kind().label()),
            json::preview(&other, PREVIEW_CHARS)
        ),
    }
}

#[cfg(test)]
#[test]
fn every_key_is_named_and_found_by_its_name() {
    // Lists every variant: one added to `Key` stops this from compiling until it is added
    // here and to `Key::ALL`.
    let listed = |key: Key| match key {
        Key::Choices
        | Key::Candidates
        | Key::Output
        | Key::Parts
        | Key::Message
        | Key::Content
        | Key::ToolCalls
        | Key::FunctionCall
        | Key::Role
        | Key::Type
        | Key::Text
        | Key::Thought
        | Key::Name
        | Key::Function
        | Key::FunctionCallCamel => Key::ALL.contains(&key),
    };
    for key in Key::ALL {
        assert!(listed(key));
        assert_eq!(Key::of(key.name()), Some(key));
    }
    assert_eq!(Key::of("arguments"), None);
    assert_eq!(Key::of("id"), None);
}
