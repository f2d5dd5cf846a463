//! Envelopes: every provider's shape of a tool call, read into one [`Call`].
//!
//! A model's tool call reaches an agent wrapped in its provider's envelope. The name, the
//! call id and the arguments are the same facts in every shape, but they sit in different
//! places, and the arguments come either as a JSON object or as *text* holding one:
//!
//! | Shape | Call id | Name | Arguments |
//! |---|---|---|---|
//! | the exercise's, MCP's `tools/call` params | `id` (optional) | `name` | `arguments`: object or text |
//! | OpenAI chat `{"type":"function","function":{…}}` | `id` | `function.name` | `function.arguments`: text |
//! | Anthropic `{"type":"tool_use",…}` | `id` | `name` | `input`: object |
//! | OpenAI Responses `{"type":"function_call",…}` | `call_id` (not `id`, the item's `fc_…`) | `name` | `arguments`: text |
//! | Gemini `{"functionCall":{…}}`, google-genai's `{"function_call":{…}}` | `…id` (optional) | `….name` | `….args`: object |
//! | OpenAI legacy `{"function_call":{…}}` | none | `function_call.name` | `function_call.arguments`: text |
//!
//! The shape is told by `"type"` when present (`tool_use`, `function_call`, `function`),
//! else by `function`, then `functionCall`/`function_call`, then a top-level `name`. The
//! plain shape also takes its arguments under `input`, `args` or `parameters` (Llama's
//! form), one of them at most.
//!
//! Rules shared by every shape, because the official SDKs' dumps need them:
//! - Fields toolgate does not read (`caller`, `status`, `index`, `parsed_arguments`, …) are
//!   ignored, though the parser still checks them: the call must be valid JSON throughout.
//! - A `null` field is an absent one; absent arguments are `{}`.
//! - Arguments *text* is parsed by the same parser under the same [`Limits`]; an empty text
//!   is truncated (the reply was cut before the arguments began), and a text that is JSON but
//!   not an object (`"null"`, `"[1]"`) is left for the object gate to refuse.
//! - A key given twice in the envelope is refused: two readers may pick different ones.
//! - The call id is kept whenever it can be read, even from a call cut off after it, since
//!   the answer to the model must carry it.
//!
//! How it stays cheap (a checked call costs about two heap allocations, most of them the
//! arguments' own objects): the envelope's object is read without building its tree
//! (`scan`); the arguments are parsed straight from the raw text where they stand, in one
//! pass that also finds their end, and straight into the slot that keeps them (a value
//! returned through a chain of calls is copied at every step), so a call borrows its name,
//! id and strings from the input instead of copying them; arguments text is parsed straight
//! from its string literal, or, when that reader is unsure, unescaped into a buffer kept per
//! thread (`text`) and its strings re-borrowed from the raw call (`rebase`). Each of these
//! defers to the parser whenever it is unsure, and the property tests hold the reader to a
//! plain reading of the parser's tree.

mod rebase;
mod scan;
mod text;

use crate::json::{self, Limits, Value};
use crate::rejection::{EnvelopeProblem, Part, Rejection, PREVIEW_CHARS};
use scan::{Cursor, KeySet, Stop};
use std::borrow::Cow;

/// One tool call, whatever shape it arrived in.
///
/// Fields borrow from the raw text where they can (`Cow::Borrowed`); a string that held an
/// escape owns its unescaped text.
#[derive(Clone, Debug, PartialEq)]
pub struct Call<'a> {
    /// The call id, where the shape has one: every answer to the model pairs with it.
    pub id: Option<Cow<'a, str>>,
    /// The tool name the model used.
    pub name: Cow<'a, str>,
    /// The arguments (`{}` when absent). Not necessarily an object: the object gate checks.
    pub args: Value<'a>,
}

impl Call<'_> {
    /// A copy that owns all its text, free of the raw input's lifetime.
    pub fn into_owned(self) -> Call<'static> {
        Call {
            id: self.id.map(|id| Cow::Owned(id.into_owned())),
            name: Cow::Owned(self.name.into_owned()),
            args: self.args.into_owned(),
        }
    }
}

/// Reads a raw call's envelope under the given limits, without checking the name or the
/// arguments against any spec.
///
/// ```
/// use toolgate::envelope::read_call;
/// use toolgate::json::Limits;
///
/// let raw = r#"{"type":"function_call","id":"fc_1","call_id":"call_9",
///              "name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}"#;
/// let call = read_call(raw, Limits::default()).unwrap();
/// assert_eq!(call.id.as_deref(), Some("call_9"));
/// assert_eq!(call.name, "get_weather");
/// assert_eq!(call.args.get("city").and_then(|c| c.as_str()), Some("Oslo"));
/// ```
///
/// # Errors
/// - [`Rejection::MalformedJson`] or [`Rejection::TruncatedJson`] with [`Part::Call`] when
///   the raw text is not JSON (cut short: truncated), and with [`Part::Arguments`] when the
///   arguments text inside it is not.
/// - [`Rejection::BadEnvelope`] when the JSON is not a tool call in any shape above: not an
///   object, no name, a field of the wrong kind, a key given twice, a `"type"` that is not a
///   tool call, or two places for the arguments filled at once.
pub fn read_call(raw: &str, limits: Limits) -> Result<Call<'_>, Rejection> {
    let mut outer = Outer::default();
    match scan_outer(raw, limits, &mut outer) {
        Ok(()) => resolve(&mut outer),
        Err(Stop) => Err(unscannable(raw, limits, &outer)),
    }
}

/// The envelope's top-level members that toolgate reads; `null` ones are left `None`.
#[derive(Default)]
struct Outer<'a> {
    type_: Option<Value<'a>>,
    id: Option<Value<'a>>,
    call_id: Option<Value<'a>>,
    name: Option<Value<'a>>,
    arguments: Option<Arguments<'a>>,
    input: Option<Value<'a>>,
    args: Option<Value<'a>>,
    parameters: Option<Value<'a>>,
    /// OpenAI chat's `function`.
    function: Option<Nested<'a>>,
    /// Gemini's wire form `functionCall`.
    function_call_camel: Option<Nested<'a>>,
    /// google-genai's dump and OpenAI's legacy form, `function_call`.
    function_call: Option<Nested<'a>>,
    duplicate: Option<Cow<'a, str>>,
}

/// A member that holds the call's own fields: read member by member when it is an object.
enum Nested<'a> {
    Object(Inner<'a>),
    Other(Value<'a>),
}

/// The members of a nested call object that toolgate reads.
#[derive(Default)]
struct Inner<'a> {
    id: Option<Value<'a>>,
    name: Option<Value<'a>>,
    arguments: Option<Arguments<'a>>,
    args: Option<Value<'a>>,
    duplicate: Option<Cow<'a, str>>,
}

/// The shapes, as told by the envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Plain,
    OpenAiChat,
    Anthropic,
    Responses,
    /// Gemini or OpenAI legacy, under this key.
    Nested(&'static str),
}

/// Walks the top-level object, filling `outer` as it goes (so a scan that stops early
/// leaves what it read, for the id of a cut-off call).
fn scan_outer<'a>(raw: &'a str, limits: Limits, outer: &mut Outer<'a>) -> Result<(), Stop> {
    if raw.len() > limits.max_bytes || limits.max_depth < 1 {
        return Err(Stop);
    }
    let mut cursor = Cursor::new(raw);
    cursor.skip_whitespace();
    if !cursor.at_object() {
        return Err(Stop);
    }
    let mut keys = KeySet::new();
    cursor.walk_object(&mut keys, |cursor, key| {
        let slot = match key.as_ref() {
            "type" => &mut outer.type_,
            "id" => &mut outer.id,
            "call_id" => &mut outer.call_id,
            "name" => &mut outer.name,
            "arguments" => {
                return read_arguments(cursor, limits, 1, &mut outer.arguments);
            }
            "input" => &mut outer.input,
            "args" => &mut outer.args,
            "parameters" => &mut outer.parameters,
            "function" | "functionCall" | "function_call" => {
                let nested = match key.as_ref() {
                    "function" => &mut outer.function,
                    "functionCall" => &mut outer.function_call_camel,
                    _ => &mut outer.function_call,
                };
                return scan_nested(cursor, limits, nested);
            }
            _ => {
                // Not read, but it must still be valid JSON.
                cursor.parse_value(limits, 1)?;
                return Ok(());
            }
        };
        cursor.keep_value(slot, limits, 1)
    })?;
    outer.duplicate = keys.duplicate();
    if cursor.at_end() {
        Ok(())
    } else {
        Err(Stop)
    }
}

/// Reads an `arguments` member into `slot`: a string is arguments text, read and parsed now
/// (its errors wait in the slot until the envelope has been judged); anything else is a
/// value. `null` is absent.
fn read_arguments<'a>(
    cursor: &mut Cursor<'a>,
    limits: Limits,
    depth: usize,
    slot: &mut Option<Arguments<'a>>,
) -> Result<(), Stop> {
    if slot.is_none() && cursor.at_container() {
        // Parsed straight into the slot; a failure leaves it as it was, empty.
        let parsed = match slot.insert(Arguments::Value(Value::Null)) {
            Arguments::Value(place) => cursor.parse_container_into(place, limits, depth),
            Arguments::Text(_) => Err(Stop),
        };
        if parsed.is_err() {
            *slot = None;
        }
        return parsed;
    }
    if !cursor.at_string() {
        *slot = match cursor.parse_value(limits, depth)? {
            Value::Null => None,
            value => Some(Arguments::Value(value)),
        };
        return Ok(());
    }
    let (text, length) = text::read_text(cursor.rest(), limits)?;
    cursor.advance(length);
    *slot = Some(Arguments::Text(text));
    Ok(())
}

/// Reads `function`, `functionCall` or `function_call`: member by member when it is an
/// object (filling the slot as it goes), else as one value for the error message.
fn scan_nested<'a>(
    cursor: &mut Cursor<'a>,
    limits: Limits,
    slot: &mut Option<Nested<'a>>,
) -> Result<(), Stop> {
    if !cursor.at_object() || limits.max_depth < 2 {
        *slot = match cursor.parse_value(limits, 1)? {
            Value::Null => None,
            value => Some(Nested::Other(value)),
        };
        return Ok(());
    }
    let Nested::Object(inner) = slot.insert(Nested::Object(Inner::default())) else {
        return Err(Stop);
    };
    let mut keys = KeySet::new();
    cursor.walk_object(&mut keys, |cursor, key| {
        let slot = match key.as_ref() {
            "id" => &mut inner.id,
            "name" => &mut inner.name,
            "arguments" => {
                return read_arguments(cursor, limits, 2, &mut inner.arguments);
            }
            "args" => &mut inner.args,
            _ => {
                cursor.parse_value(limits, 2)?;
                return Ok(());
            }
        };
        cursor.keep_value(slot, limits, 2)
    })?;
    inner.duplicate = keys.duplicate();
    Ok(())
}

/// The rejection for a text the scan could not read: the parser's own error when it is not
/// JSON, else the envelope problem.
fn unscannable(raw: &str, limits: Limits, outer: &Outer<'_>) -> Rejection {
    match json::parse_with(raw, limits) {
        Err(error) => json_rejection(
            error,
            Part::Call,
            recovered_id(outer).map(String::from),
            recovered_name(outer).map(String::from),
        ),
        Ok(Value::Object(_)) => Rejection::BadEnvelope {
            id: recovered_id(outer).map(String::from),
            problem: EnvelopeProblem::Unreadable,
        },
        Ok(other) => Rejection::BadEnvelope {
            id: None,
            problem: EnvelopeProblem::NotAnObject {
                found: other.kind(),
            },
        },
    }
}

/// A parse error as a rejection: truncated when the text simply stopped.
fn json_rejection(
    error: json::ParseError,
    part: Part,
    id: Option<String>,
    tool: Option<String>,
) -> Rejection {
    let error = Box::new(error);
    if error.is_truncated() {
        Rejection::TruncatedJson {
            id,
            tool,
            part,
            error,
        }
    } else {
        Rejection::MalformedJson {
            id,
            tool,
            part,
            error,
        }
    }
}

/// The string in a slot, if it holds one.
fn string<'p>(slot: &'p Option<Value<'_>>) -> Option<&'p str> {
    slot.as_ref().and_then(Value::as_str)
}

fn inner_of<'o, 'a>(nested: &'o Option<Nested<'a>>) -> Option<&'o Inner<'a>> {
    match nested {
        Some(Nested::Object(inner)) => Some(inner),
        _ => None,
    }
}

/// The best guess at the call id from whatever was read: `call_id` (Responses) before `id`
/// (which in Responses is the item's id), then a nested id (Gemini).
fn recovered_id<'o>(outer: &'o Outer<'_>) -> Option<&'o str> {
    string(&outer.call_id)
        .or_else(|| string(&outer.id))
        .or_else(|| inner_of(&outer.function_call_camel).and_then(|inner| string(&inner.id)))
        .or_else(|| inner_of(&outer.function_call).and_then(|inner| string(&inner.id)))
}

/// The best guess at the tool name from whatever was read.
fn recovered_name<'o>(outer: &'o Outer<'_>) -> Option<&'o str> {
    string(&outer.name)
        .or_else(|| inner_of(&outer.function).and_then(|inner| string(&inner.name)))
        .or_else(|| inner_of(&outer.function_call_camel).and_then(|inner| string(&inner.name)))
        .or_else(|| inner_of(&outer.function_call).and_then(|inner| string(&inner.name)))
}

/// Turns the members read into a call, or the envelope problem that prevents it.
fn resolve<'a>(outer: &mut Outer<'a>) -> Result<Call<'a>, Rejection> {
    let fail = |outer: &Outer<'_>, problem| Rejection::BadEnvelope {
        id: recovered_id(outer).map(String::from),
        problem,
    };
    if let Some(key) = outer.duplicate.take() {
        let problem = EnvelopeProblem::DuplicateKey {
            key: key.into_owned(),
        };
        return Err(fail(outer, problem));
    }
    let shape = match shape(outer) {
        Ok(shape) => shape,
        Err(problem) => return Err(fail(outer, problem)),
    };
    // The places this shape keeps the id and the name in (taken out below, so that
    // nothing larger than they are is moved), and its arguments.
    let (id, id_field, name, name_field, arguments) = match shape {
        Shape::Plain => {
            let arguments = one_of(outer)?;
            (&mut outer.id, "id", &mut outer.name, "name", arguments)
        }
        Shape::Anthropic => (
            &mut outer.id,
            "id",
            &mut outer.name,
            "name",
            outer.input.take().map(Arguments::Value),
        ),
        Shape::Responses => (
            &mut outer.call_id,
            "call_id",
            &mut outer.name,
            "name",
            outer.arguments.take(),
        ),
        Shape::OpenAiChat => {
            let inner = nested_object(&mut outer.function, "function", outer.id.as_ref())?;
            if let Some(key) = &inner.duplicate {
                let problem = EnvelopeProblem::DuplicateKey {
                    key: format!("function.{key}"),
                };
                return Err(bad(string(&outer.id), problem));
            }
            (
                &mut outer.id,
                "id",
                &mut inner.name,
                "function.name",
                inner.arguments.take(),
            )
        }
        Shape::Nested(key) => {
            let slot = if key == "functionCall" {
                &mut outer.function_call_camel
            } else {
                &mut outer.function_call
            };
            let inner = nested_object(slot, key, None)?;
            let fields = nested_fields(key);
            if let Some(duplicate) = &inner.duplicate {
                let problem = EnvelopeProblem::DuplicateKey {
                    key: format!("{key}.{duplicate}"),
                };
                return Err(bad(string(&inner.id), problem));
            }
            let arguments = match (inner.args.take(), inner.arguments.take()) {
                (Some(_), Some(_)) => {
                    let problem = EnvelopeProblem::Conflict {
                        first: fields.args,
                        second: fields.arguments,
                    };
                    return Err(bad(string(&inner.id), problem));
                }
                (Some(args), None) => Some(Arguments::Value(args)),
                (None, arguments) => arguments,
            };
            (
                &mut inner.id,
                fields.id,
                &mut inner.name,
                fields.name,
                arguments,
            )
        }
    };

    let id = match id.take() {
        None => None,
        Some(Value::String(id)) => Some(id),
        Some(other) => {
            return Err(bad(None, wrong_type(id_field, "a string", &other)));
        }
    };
    let name = match name.take() {
        Some(Value::String(name)) => name,
        Some(other) => {
            let problem = wrong_type(name_field, "a string", &other);
            return Err(bad(id.as_deref(), problem));
        }
        None => {
            let problem = EnvelopeProblem::MissingName { field: name_field };
            return Err(bad(id.as_deref(), problem));
        }
    };
    let args = match arguments {
        None => Value::Object(Vec::new()),
        Some(Arguments::Value(value) | Arguments::Text(Ok(value))) => value,
        Some(Arguments::Text(Err(error))) => {
            return Err(json_rejection(
                *error,
                Part::Arguments,
                id.map(Cow::into_owned),
                Some(name.into_owned()),
            ))
        }
    };
    Ok(Call { id, name, args })
}

/// Which shape the members describe.
fn shape(outer: &Outer<'_>) -> Result<Shape, EnvelopeProblem> {
    if let Some(type_) = &outer.type_ {
        return match type_ {
            Value::String(name) => match name.as_ref() {
                "tool_use" => Ok(Shape::Anthropic),
                "function_call" => Ok(Shape::Responses),
                "function" => Ok(Shape::OpenAiChat),
                _ => Err(EnvelopeProblem::NotACall {
                    type_name: preview(type_),
                }),
            },
            other => Err(wrong_type("type", "a string", other)),
        };
    }
    match (
        &outer.function,
        &outer.function_call_camel,
        &outer.function_call,
    ) {
        (Some(_), _, _) => Ok(Shape::OpenAiChat),
        (None, Some(_), Some(_)) => Err(EnvelopeProblem::Conflict {
            first: "functionCall",
            second: "function_call",
        }),
        (None, Some(_), None) => Ok(Shape::Nested("functionCall")),
        (None, None, Some(_)) => Ok(Shape::Nested("function_call")),
        (None, None, None) => Ok(Shape::Plain),
    }
}

/// The dotted field names inside a nested call object, for messages.
struct NestedFields {
    id: &'static str,
    name: &'static str,
    args: &'static str,
    arguments: &'static str,
}

fn nested_fields(key: &str) -> NestedFields {
    if key == "functionCall" {
        NestedFields {
            id: "functionCall.id",
            name: "functionCall.name",
            args: "functionCall.args",
            arguments: "functionCall.arguments",
        }
    } else {
        NestedFields {
            id: "function_call.id",
            name: "function_call.name",
            args: "function_call.args",
            arguments: "function_call.arguments",
        }
    }
}

/// The nested call object under `key`, or the problem with it. Its fields are then taken
/// out one by one: the object itself is never moved.
fn nested_object<'o, 'a>(
    slot: &'o mut Option<Nested<'a>>,
    key: &'static str,
    id: Option<&Value<'_>>,
) -> Result<&'o mut Inner<'a>, Rejection> {
    let id = id.and_then(Value::as_str);
    match slot {
        Some(Nested::Object(inner)) => Ok(inner),
        Some(Nested::Other(other)) => Err(bad(id, wrong_type(key, "an object", other))),
        None => {
            let field = if key == "function" {
                "function.name"
            } else {
                nested_fields(key).name
            };
            Err(bad(id, EnvelopeProblem::MissingName { field }))
        }
    }
}

/// The plain shape's arguments: under `arguments`, `input`, `args` or `parameters`, at most
/// one of them. Only `arguments` may hold text.
fn one_of<'a>(outer: &mut Outer<'a>) -> Result<Option<Arguments<'a>>, Rejection> {
    // Looked at in place first: only the one that is used is moved out.
    let places = [
        ("arguments", outer.arguments.is_some()),
        ("input", outer.input.is_some()),
        ("args", outer.args.is_some()),
        ("parameters", outer.parameters.is_some()),
    ];
    let mut filled = places.iter().filter(|(_, is_filled)| *is_filled);
    if let (Some((first, _)), Some((second, _))) = (filled.next(), filled.next()) {
        let problem = EnvelopeProblem::Conflict { first, second };
        return Err(bad(string(&outer.id), problem));
    }
    Ok(outer
        .arguments
        .take()
        .or_else(|| outer.input.take().map(Arguments::Value))
        .or_else(|| outer.args.take().map(Arguments::Value))
        .or_else(|| outer.parameters.take().map(Arguments::Value)))
}

/// Arguments as the envelope holds them. Only `arguments` holds text; a string under
/// `input` or `args` is just a string, which the object gate refuses.
enum Arguments<'a> {
    /// A value: the arguments themselves.
    Value(Value<'a>),
    /// Text holding the arguments, already parsed (or the parser's error for it).
    Text(text::TextArgs<'a>),
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
    crate::json::preview(value, PREVIEW_CHARS)
}
