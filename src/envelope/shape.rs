//! Finding the call in a `Value`: the shape, and where it keeps the id, the name and the
//! arguments (the table is in the [module docs](super)). One function for a call alone and
//! for each call of a turn, so a call gets the same answer wherever it stands.

use super::parse::{Slot, Texts};
use super::{json_rejection, Call};
use crate::json::{self, repeated_key, Limits, Member, Value, PREVIEW_CHARS};
use crate::rejection::{EnvelopeProblem, Part, Rejection};
use std::borrow::Cow;

/// The shapes, as told by the envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Plain,
    Anthropic,
    Responses,
    /// OpenAI chat ([`FUNCTION`]), Gemini (`functionCall`) or OpenAI legacy / google-genai
    /// (`function_call`).
    Nested(Nested),
}

/// A nested call object: its key, its `id`, `name`, `args` and `arguments` dotted for
/// messages, and the slot of its arguments text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Nested {
    key: &'static str,
    fields: [&'static str; 4],
    slot: Slot,
}

macro_rules! nested {
    ($key:literal, $slot:expr) => {
        Nested {
            key: $key,
            fields: [
                concat!($key, ".id"),
                concat!($key, ".name"),
                concat!($key, ".args"),
                concat!($key, ".arguments"),
            ],
            slot: $slot,
        }
    };
}

/// OpenAI chat's call object.
const FUNCTION: Nested = nested!("function", Slot::Function);

/// Where the call's arguments are: a member of the envelope (`inner: None`) or of its
/// nested call object, by index; `text` when a string there is arguments text.
struct Args {
    inner: Option<usize>,
    index: usize,
    text: Option<Slot>,
}

impl Args {
    /// Arguments that are a member of the envelope itself.
    fn top(index: usize, text: Option<Slot>) -> Args {
        Args {
            inner: None,
            index,
            text,
        }
    }
}

/// The call in `envelope`, its arguments taken out of it (arguments text parsed, from
/// `texts` when it was parsed in place).
///
/// # Errors
/// [`Rejection::BadEnvelope`] when `envelope` is not a call in any shape;
/// [`Rejection::MalformedJson`] or [`Rejection::TruncatedJson`] with [`Part::Arguments`]
/// when the arguments text is not JSON.
pub(crate) fn find<'a>(
    envelope: &mut Value<'a>,
    texts: &mut Texts<'a>,
    limits: Limits,
) -> Result<Call<'a>, Rejection> {
    let Value::Object(members) = envelope else {
        let problem = EnvelopeProblem::NotAnObject {
            found: envelope.kind(),
        };
        return Err(bad(None, problem));
    };
    let top: &[Member<'a>] = members;
    if let Some(index) = repeated_key(top, |(key, _)| key) {
        let key = top
            .get(index)
            .map_or(String::new(), |(key, _)| key.to_string());
        let problem = EnvelopeProblem::DuplicateKey { key };
        return Err(bad(recovered_id(top), problem));
    }
    let shape = shape(top).map_err(|problem| bad(recovered_id(top), problem))?;
    let id_of = |field: &str| get(top, field).map(|(_, value)| value);
    let (id, id_field, name, name_field, args) = match shape {
        Shape::Plain => {
            // Only `arguments` may hold text; a string elsewhere is just a string.
            let places = [
                ("arguments", Some(Slot::Top)),
                ("input", None),
                ("args", None),
                ("parameters", None),
            ];
            let mut filled = places.iter().filter_map(|(place, text)| {
                get(top, place).map(|(index, _)| (*place, index, *text))
            });
            let args = filled.next();
            if let (Some((first, ..)), Some((second, ..))) = (args, filled.next()) {
                let problem = EnvelopeProblem::Conflict { first, second };
                return Err(bad(string(id_of("id")), problem));
            }
            let args = args.map(|(_, index, text)| Args::top(index, text));
            (id_of("id"), "id", id_of("name"), "name", args)
        }
        Shape::Anthropic => {
            let args = get(top, "input").map(|(index, _)| Args::top(index, None));
            (id_of("id"), "id", id_of("name"), "name", args)
        }
        Shape::Responses => {
            let args = get(top, "arguments").map(|(index, _)| Args::top(index, Some(Slot::Top)));
            (id_of("call_id"), "call_id", id_of("name"), "name", args)
        }
        Shape::Nested(nested) => {
            let [id_field, name_field, args_field, arguments_field] = nested.fields;
            let chat = nested == FUNCTION;
            // OpenAI chat's id is the envelope's own; the others' is in the call object.
            let chat_id = if chat { id_of("id") } else { None };
            let outer_id = string(chat_id);
            let (at, inner) = match get(top, nested.key) {
                Some((at, Value::Object(inner))) => (at, inner.as_slice()),
                Some((_, other)) => {
                    let problem = wrong_type(nested.key, "an object", other);
                    return Err(bad(outer_id, problem));
                }
                None => {
                    let problem = EnvelopeProblem::MissingName { field: name_field };
                    return Err(bad(outer_id, problem));
                }
            };
            let id = if chat {
                chat_id
            } else {
                get(inner, "id").map(|(_, value)| value)
            };
            if let Some(index) = repeated_key(inner, |(key, _)| key) {
                let key = inner.get(index).map_or("", |(key, _)| key.as_ref());
                let key = format!("{}.{key}", nested.key);
                return Err(bad(string(id), EnvelopeProblem::DuplicateKey { key }));
            }
            if id_of("name").is_some() {
                let problem = EnvelopeProblem::Conflict {
                    first: name_field,
                    second: "name",
                };
                return Err(bad(string(id), problem));
            }
            // OpenAI chat reads `arguments` alone; the others `args`, or `arguments`.
            let args = if chat { None } else { get(inner, "args") };
            let arguments = get(inner, "arguments");
            if let (Some(_), Some(_)) = (args, arguments) {
                let problem = EnvelopeProblem::Conflict {
                    first: args_field,
                    second: arguments_field,
                };
                return Err(bad(string(id), problem));
            }
            let args = match (args, arguments) {
                (Some((index, _)), _) => Some((index, None)),
                (None, Some((index, _))) => Some((index, Some(nested.slot))),
                (None, None) => None,
            };
            let args = args.map(|(index, text)| Args {
                inner: Some(at),
                index,
                text,
            });
            let id_field = if chat { "id" } else { id_field };
            (
                id,
                id_field,
                get(inner, "name").map(|(_, value)| value),
                name_field,
                args,
            )
        }
    };
    let id = match id {
        None => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(other) => return Err(bad(None, wrong_type(id_field, "a string", other))),
    };
    let name = match name {
        Some(Value::String(name)) => name.clone(),
        Some(other) => {
            let problem = wrong_type(name_field, "a string", other);
            return Err(bad(id.as_deref(), problem));
        }
        None => {
            let problem = EnvelopeProblem::MissingName { field: name_field };
            return Err(bad(id.as_deref(), problem));
        }
    };
    let args = match args {
        None => Value::Object(Vec::new()),
        Some(args) => {
            let place = match args.inner {
                None => members.get_mut(args.index),
                Some(at) => match members.get_mut(at) {
                    Some((_, Value::Object(inner))) => inner.get_mut(args.index),
                    _ => None,
                },
            };
            let value = place.map_or(Value::Null, |(_, value)| {
                std::mem::replace(value, Value::Null)
            });
            match (value, args.text) {
                (Value::String(text), Some(slot)) => match texts.take(slot) {
                    Some(value) => value,
                    None => match parse_text(text, limits) {
                        Ok(value) => value,
                        Err(error) => {
                            let id = id.map(Cow::into_owned);
                            let tool = Some(name.into_owned());
                            return Err(json_rejection(error, Part::Arguments, id, tool));
                        }
                    },
                },
                (value, _) => value,
            }
        }
    };
    Ok(Call { id, name, args })
}

/// Arguments text read by the parser: borrowed where the text is (it stood in the call
/// without escapes), else owned, since the unescaped text it borrowed from is dropped.
fn parse_text(text: Cow<'_, str>, limits: Limits) -> Result<Value<'_>, json::ParseError> {
    match text {
        Cow::Borrowed(text) => json::parse_with(text, limits),
        Cow::Owned(text) => json::parse_with(&text, limits).map(Value::into_owned),
    }
}

/// Which shape the members describe.
fn shape(top: &[Member<'_>]) -> Result<Shape, EnvelopeProblem> {
    if let Some((_, type_)) = get(top, "type") {
        return match type_ {
            Value::String(name) => match name.as_ref() {
                "tool_use" => Ok(Shape::Anthropic),
                "function_call" => Ok(Shape::Responses),
                "function" => Ok(Shape::Nested(FUNCTION)),
                _ => Err(EnvelopeProblem::NotACall {
                    type_name: preview(type_),
                }),
            },
            other => Err(wrong_type("type", "a string", other)),
        };
    }
    let present = |key| get(top, key).is_some();
    match (
        present("function"),
        present("functionCall"),
        present("function_call"),
    ) {
        (true, _, _) => Ok(Shape::Nested(FUNCTION)),
        (false, true, true) => Err(EnvelopeProblem::Conflict {
            first: "functionCall",
            second: "function_call",
        }),
        (false, true, false) => Ok(Shape::Nested(nested!(
            "functionCall",
            Slot::FunctionCallCamel
        ))),
        (false, false, true) => Ok(Shape::Nested(nested!("function_call", Slot::FunctionCall))),
        (false, false, false) => Ok(Shape::Plain),
    }
}

/// The member named `key` and its index: the last one so named (only a rejection for a
/// key given twice reads a member given twice), `None` when it is absent or `null`.
fn get<'v, 'a>(members: &'v [Member<'a>], key: &str) -> Option<(usize, &'v Value<'a>)> {
    let (index, (_, value)) = members
        .iter()
        .enumerate()
        .rev()
        .find(|(_, (name, _))| name == key)?;
    (!value.is_null()).then_some((index, value))
}

/// The string in a field, if it holds one.
fn string<'v>(value: Option<&'v Value<'_>>) -> Option<&'v str> {
    value.and_then(Value::as_str)
}

/// The members of the nested call object `key`, when it is one.
fn nested<'v, 'a>(members: &'v [Member<'a>], key: &str) -> &'v [Member<'a>] {
    match get(members, key) {
        Some((_, Value::Object(inner))) => inner,
        _ => &[],
    }
}

/// The best guess at the call id from the members read: `call_id` (Responses) before `id`
/// (which in Responses is the item's id), then a nested id (Gemini).
pub(crate) fn recovered_id<'v>(top: &'v [Member<'_>]) -> Option<&'v str> {
    let field = |members, key| string(get(members, key).map(|(_, value)| value));
    field(top, "call_id")
        .or_else(|| field(top, "id"))
        .or_else(|| field(nested(top, "functionCall"), "id"))
        .or_else(|| field(nested(top, "function_call"), "id"))
}

/// The best guess at the tool name from the members read.
pub(crate) fn recovered_name<'v>(top: &'v [Member<'_>]) -> Option<&'v str> {
    let field = |members, key| string(get(members, key).map(|(_, value)| value));
    field(top, "name")
        .or_else(|| field(nested(top, "function"), "name"))
        .or_else(|| field(nested(top, "functionCall"), "name"))
        .or_else(|| field(nested(top, "function_call"), "name"))
}

fn bad(id: Option<&str>, problem: EnvelopeProblem) -> Rejection {
    Rejection::BadEnvelope {
        id: id.map(String::from),
        problem,
    }
}

fn wrong_type(
    field: &'static str,
    expected: &'static str,
    received: &Value<'_>,
) -> EnvelopeProblem {
    EnvelopeProblem::WrongType {
        field,
        expected,
        received: preview(received),
    }
}

/// A received value as compact JSON, cut at [`PREVIEW_CHARS`] characters.
fn preview(value: &Value<'_>) -> String {
    json::preview(value, PREVIEW_CHARS)
}
