//! Envelopes: every provider's shape of a tool call, read into one [`Call`].
//!
//! A model's tool call reaches an agent wrapped in its provider's envelope. The name, the
//! call id and the arguments are the same facts in every shape, but they sit in different
//! places, and the arguments come either as a JSON object or as *text* holding one:
//!
//! | Shape | Call id | Name | Arguments |
//! |---|---|---|---|
//! | plain `{name, arguments}` (also MCP `tools/call` params) | `id` (optional) | `name` | `arguments`: object or text |
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
//!   ignored, though the reader still checks them: the call must be valid JSON throughout.
//! - A `null` field is an absent one; absent arguments are `{}`.
//! - Arguments *text* is read by the same reader under the same [`Limits`]; an empty text
//!   is truncated (the reply was cut before the arguments began), and a text that is JSON but
//!   not an object (`"null"`, `"[1]"`) is left for the object gate to refuse.
//! - A key given twice in the envelope is refused: two readers may pick different ones.
//! - A top-level `name` beside a nested call object (`function`, `functionCall`,
//!   `function_call`) is refused: the call would name two tools. So a top-level `name`,
//!   where a call is accepted at all, is always the name that counts, and a streamed call
//!   can be refused as soon as that name is known to be no tool's.
//! - The call id is kept whenever it can be read, even from a call cut off after it, since
//!   the answer to the model must carry it.
//!
//! How it is read: in one pass of the one JSON [`Reader`], whose events go to the
//! envelope's sink (`read`). The sink reads the envelope member by member without
//! building its tree, keeps the id and name borrowed from the raw call, and sends the
//! arguments' events on to a downstream sink (`Downstream`), told the tool name read so far beside
//! them: a `Value` builder for [`read_call`] (a checked call costs about two heap
//! allocations, most of them the arguments' own objects), or the gate's validation for a
//! check-only verdict, which builds nothing. Arguments given as text are read through the
//! literal's escapes by a second reader (`text`), which walks the literal in the raw call
//! itself while the call's reader waits: the call's reader offers the sink the literal
//! ([`Sink::literal`]) and goes on after what the sink read of it, without stopping. The
//! second reader has the same downstream sink, whose strings are borrowed from the raw
//! call wherever they stand in it unescaped. Which place and which name the call uses is known only once the envelope has
//! ended, so the sink keeps what it made of every place until then.
//!
//! Since the sink only takes events, a call fed to the reader in chunks as it streams could
//! be read by the same sink (what it keeps must then own its text: the chunks do not
//! outlive the call).

mod keys;
mod read;
mod text;

use crate::json::PREVIEW_CHARS;
use crate::json::{self, Builder, ErrorKind, Kind, Limits, Reader, Sink, Stop, Value};
use crate::rejection::{EnvelopeProblem, Part, Rejection};
use read::Envelope;
use std::borrow::Cow;
pub(crate) use text::read_again;

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
///   tool call, two places for the arguments filled at once, or a top-level `name` beside a
///   nested call object (two names for one call).
pub fn read_call(raw: &str, limits: Limits) -> Result<Call<'_>, Rejection> {
    read_str_with(raw, limits, &mut Builder::new()).map(Read::into_call)
}

/// A call's envelope read, its arguments' events sent to `downstream` as the reader produces
/// them: the id, the name, and what `downstream` kept of the arguments (`None` when absent).
///
/// # Errors
/// As [`read_call`].
pub(crate) fn read_str_with<'a, D: Downstream<'a>>(
    raw: &'a str,
    limits: Limits,
    downstream: &mut D,
) -> Result<Read<'a, D::Read>, Rejection> {
    // An arguments literal is offered to the sink whole ([`Sink::literal`]), and read
    // through its escapes by the text's reader while the call's reader waits.
    let mut envelope = Envelope::new(limits, downstream);
    let mut reader = Reader::new(limits);
    let read = reader.feed_str(raw, &mut envelope);
    let read = read.and_then(|()| reader.finish(&mut envelope));
    into_read(read, &mut envelope, raw.as_bytes())
}

/// A call's envelope read from the events of a larger text's one reader (a turn), by the
/// same sink and rules as a call alone: each call of a turn is read while the turn is,
/// instead of again from its own bytes afterwards. Fed the events of the call's value (it is
/// a [`Sink`]), it answers what [`read_call`] answers on the call's own text: the events are
/// the same (the turn's reader offers an arguments literal whole, [`Sink::literal`], as a
/// call's own reader does), and nothing the envelope keeps depends on where the call
/// stands. Only a
/// nesting limit depends on where the call starts: keeping the call within the limits as
/// if alone is the feeder's to do. One reads the calls of a text one after the other.
#[cfg(feature = "turns")]
pub(crate) struct Embedded<'a, 'd> {
    envelope: Envelope<'a, 'd, Builder<'a>>,
    raw: &'a str,
}

#[cfg(feature = "turns")]
impl<'a, 'd> Embedded<'a, 'd> {
    /// A reader of calls whose arguments `builder` builds (it holds nothing at the start),
    /// under the calls' `limits`; offsets count in `raw`.
    pub(crate) fn new(limits: Limits, builder: &'d mut Builder<'a>, raw: &'a str) -> Self {
        Embedded {
            envelope: Envelope::new(limits, builder),
            raw,
        }
    }

    /// A call's events come next (whatever became of the last one).
    pub(crate) fn begin(&mut self) {
        self.envelope.restart();
    }

    /// The call's value has ended: the call, or why it is refused (as [`read_call`]).
    pub(crate) fn finish(&mut self) -> Result<Call<'a>, Rejection> {
        into_read(Ok(()), &mut self.envelope, self.raw.as_bytes()).map(Read::into_call)
    }

    /// Stops reading the call (before its end, unless [`Embedded::finish`] did): the
    /// builder drops what it held of the arguments, as for a call alone.
    pub(crate) fn abandon(&mut self) {
        self.envelope.downstream().drop_unfinished();
    }
}

#[cfg(feature = "turns")]
impl<'a> Sink<'a> for Embedded<'a, '_> {
    #[inline(always)]
    fn event(&mut self, event: json::Event<'a>, at: usize) -> std::ops::ControlFlow<()> {
        self.envelope.event(event, at)
    }

    #[inline(always)]
    fn literal(&mut self, quote: usize, body: &'a str) -> Option<usize> {
        self.envelope.literal(quote, body)
    }
}

/// What the envelope read of a call: its id and name, and what the [`Downstream`] sink kept
/// of its arguments.
#[derive(Debug)]
pub(crate) struct Read<'a, R> {
    pub(crate) id: Option<Cow<'a, str>>,
    pub(crate) name: Cow<'a, str>,
    /// `None` when the call gives no arguments (they are `{}`).
    pub(crate) args: Option<R>,
}

impl<'a> Read<'a, Value<'a>> {
    fn into_call(self) -> Call<'a> {
        Call {
            id: self.id,
            name: self.name,
            // Lazily, as `Builder::take_value` does: an eager default cost its destructor
            // call on every call (callgrind: 50 instructions).
            args: self.args.unwrap_or_else(|| Value::Object(Vec::new())),
        }
    }
}

/// Where the envelope sends the arguments' events: a [`Builder`] for a call handed back, the
/// gate's validation for a check-only verdict (which needs no tree). The envelope tells it
/// where each place that may hold the arguments begins, with the tool name read so far
/// beside it, and keeps what it made of each place until the shape says which one counts:
/// only then is it known which place and which name the call uses.
pub(crate) trait Downstream<'a>: Sink<'a> {
    /// What it keeps of one place's arguments.
    type Read;
    /// A place's value begins at offset `at` (in the arguments text when `in_text`, else in
    /// the raw call). `name` is the tool name read so far in the same object, if any: the
    /// arguments may come before it (Anthropic's SDK dumps `input` before `name`).
    fn begin(&mut self, name: Option<&str>, at: usize, in_text: bool);
    /// The value begun last has ended (or, in a text that is not JSON, stopped).
    fn end(&mut self) -> Self::Read;
}

impl<'a> Downstream<'a> for Builder<'a> {
    type Read = Value<'a>;
    /// An arguments text that was not JSON stops the builder inside a value, even where
    /// the shape does not use it (a plain `arguments` beside OpenAI's `function`): the next
    /// place is not built into it.
    #[inline]
    fn begin(&mut self, _name: Option<&str>, _at: usize, _in_text: bool) {
        self.drop_unfinished();
    }
    fn end(&mut self) -> Value<'a> {
        self.take_value()
    }
}

/// [`read_call`] for bytes that should be UTF-8 (a line read from a log), read by the same
/// reader: a call cut inside a multi-byte character is truncated, like any other cut.
///
/// # Errors
/// As [`read_call`]; bytes that are not UTF-8 are [`Rejection::MalformedJson`] at the first
/// bad byte.
pub(crate) fn read_call_bytes(raw: &[u8], limits: Limits) -> Result<Call<'_>, Rejection> {
    read_bytes_with(raw, limits, &mut Builder::new()).map(Read::into_call)
}

/// [`read_str_with`] for bytes, as [`read_call_bytes`] reads them.
///
/// # Errors
/// As [`read_call_bytes`].
pub(crate) fn read_bytes_with<'a, D: Downstream<'a>>(
    raw: &'a [u8],
    limits: Limits,
    downstream: &mut D,
) -> Result<Read<'a, D::Read>, Rejection> {
    // Valid UTF-8 (nearly every line) is checked once, in std's word-at-a-time loop, and
    // read as text; only bytes that fail it go through the reader's own checks, for the
    // offset and the tool and id read before the bad byte. Measured with callgrind on 2,000
    // corpus lines: the reader's check string by string cost 1,400 instructions a call more.
    if let Ok(text) = std::str::from_utf8(raw) {
        return read_str_with(text, limits, downstream);
    }
    let mut envelope = Envelope::new(limits, downstream);
    let mut reader = Reader::new(limits);
    let read = reader.feed(raw, &mut envelope);
    let read = read.and_then(|()| reader.finish(&mut envelope));
    into_read(read, &mut envelope, raw)
}

/// The call the envelope read, or the rejection: the reader's error first (the call must be
/// JSON throughout), then what is wrong with the envelope.
fn into_read<'a, D: Downstream<'a>>(
    read: Result<(), Stop>,
    envelope: &mut Envelope<'a, '_, D>,
    raw: &[u8],
) -> Result<Read<'a, D::Read>, Rejection> {
    let outer = &mut envelope.outer;
    match (read, envelope.root) {
        (Err(Stop::Invalid(error)), _) => {
            let error = error.locate(raw);
            // Bytes that are not UTF-8 are refused as a whole, naming neither the id nor
            // the tool read before them (as `toolgate check` has always printed them).
            if *error.kind() == ErrorKind::InvalidUtf8 {
                return Err(json_rejection(error, Part::Call, None, None));
            }
            let id = recovered_id(outer).map(String::from);
            let tool = recovered_name(outer).map(String::from);
            Err(json_rejection(error, Part::Call, id, tool))
        }
        (Ok(()), Some(Kind::Object)) => resolve(outer, raw),
        (Ok(()), Some(found)) => Err(Rejection::BadEnvelope {
            id: None,
            problem: EnvelopeProblem::NotAnObject { found },
        }),
        // The envelope's sink never breaks, and a text the reader accepts has a value.
        (Err(Stop::Sink) | Ok(()), _) => Err(Rejection::BadEnvelope {
            id: recovered_id(outer).map(String::from),
            problem: EnvelopeProblem::Unreadable,
        }),
    }
}

/// The envelope's top-level members that toolgate reads; `null` ones are left `None`.
/// The places of the arguments hold what the [`Downstream`] sink kept of them, `R`.
#[derive(Debug)]
pub(crate) struct Outer<'a, R> {
    pub(crate) type_: Option<Value<'a>>,
    pub(crate) id: Option<Value<'a>>,
    pub(crate) call_id: Option<Value<'a>>,
    pub(crate) name: Option<Value<'a>>,
    pub(crate) arguments: Option<Arguments<R>>,
    pub(crate) input: Option<R>,
    pub(crate) args: Option<R>,
    pub(crate) parameters: Option<R>,
    /// OpenAI chat's `function`.
    pub(crate) function: Option<Nested<'a, R>>,
    /// Gemini's wire form `functionCall`.
    pub(crate) function_call_camel: Option<Nested<'a, R>>,
    /// google-genai's dump and OpenAI's legacy form, `function_call`.
    pub(crate) function_call: Option<Nested<'a, R>>,
    pub(crate) duplicate: Option<Cow<'a, str>>,
}

impl<R> Default for Outer<'_, R> {
    fn default() -> Self {
        Outer {
            type_: None,
            id: None,
            call_id: None,
            name: None,
            arguments: None,
            input: None,
            args: None,
            parameters: None,
            function: None,
            function_call_camel: None,
            function_call: None,
            duplicate: None,
        }
    }
}

/// A member that holds the call's own fields: read member by member when it is an object.
#[derive(Debug)]
pub(crate) enum Nested<'a, R> {
    Object(Inner<'a, R>),
    Other(Value<'a>),
}

/// The members of a nested call object that toolgate reads.
#[derive(Debug)]
pub(crate) struct Inner<'a, R> {
    pub(crate) id: Option<Value<'a>>,
    pub(crate) name: Option<Value<'a>>,
    pub(crate) arguments: Option<Arguments<R>>,
    pub(crate) args: Option<R>,
    pub(crate) duplicate: Option<Cow<'a, str>>,
}

impl<R> Default for Inner<'_, R> {
    fn default() -> Self {
        Inner {
            id: None,
            name: None,
            arguments: None,
            args: None,
            duplicate: None,
        }
    }
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

fn inner_of<'o, 'a, R>(nested: &'o Option<Nested<'a, R>>) -> Option<&'o Inner<'a, R>> {
    match nested {
        Some(Nested::Object(inner)) => Some(inner),
        _ => None,
    }
}

/// The best guess at the call id from whatever was read: `call_id` (Responses) before `id`
/// (which in Responses is the item's id), then a nested id (Gemini).
fn recovered_id<'o, R>(outer: &'o Outer<'_, R>) -> Option<&'o str> {
    string(&outer.call_id)
        .or_else(|| string(&outer.id))
        .or_else(|| inner_of(&outer.function_call_camel).and_then(|inner| string(&inner.id)))
        .or_else(|| inner_of(&outer.function_call).and_then(|inner| string(&inner.id)))
}

/// The best guess at the tool name from whatever was read.
fn recovered_name<'o, R>(outer: &'o Outer<'_, R>) -> Option<&'o str> {
    string(&outer.name)
        .or_else(|| inner_of(&outer.function).and_then(|inner| string(&inner.name)))
        .or_else(|| inner_of(&outer.function_call_camel).and_then(|inner| string(&inner.name)))
        .or_else(|| inner_of(&outer.function_call).and_then(|inner| string(&inner.name)))
}

/// Turns the members read into a call, or the envelope problem that prevents it.
fn resolve<'a, R>(outer: &mut Outer<'a, R>, raw: &[u8]) -> Result<Read<'a, R>, Rejection> {
    let fail = |outer: &Outer<'_, R>, problem| Rejection::BadEnvelope {
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
            if outer.name.is_some() {
                let problem = EnvelopeProblem::Conflict {
                    first: "function.name",
                    second: "name",
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
            if outer.name.is_some() {
                let problem = EnvelopeProblem::Conflict {
                    first: fields.name,
                    second: "name",
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
        None => None,
        Some(Arguments::Value(value) | Arguments::Text(Ok(value))) => Some(value),
        Some(Arguments::Text(Err(error))) => {
            return Err(json_rejection(
                error.locate(raw),
                Part::Arguments,
                id.map(Cow::into_owned),
                Some(name.into_owned()),
            ))
        }
    };
    Ok(Read { id, name, args })
}

/// Which shape the members describe.
fn shape<R>(outer: &Outer<'_, R>) -> Result<Shape, EnvelopeProblem> {
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
fn nested_object<'o, 'a, R>(
    slot: &'o mut Option<Nested<'a, R>>,
    key: &'static str,
    id: Option<&Value<'_>>,
) -> Result<&'o mut Inner<'a, R>, Rejection> {
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
fn one_of<R>(outer: &mut Outer<'_, R>) -> Result<Option<Arguments<R>>, Rejection> {
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

/// Arguments as the envelope holds them: what the downstream sink kept of them. Only
/// `arguments` holds text; a string under `input` or `args` is just a string, which the
/// object gate refuses.
#[derive(Debug)]
pub(crate) enum Arguments<R> {
    /// A value: the arguments themselves.
    Value(R),
    /// Text holding the arguments, already read (or why it is not JSON).
    Text(text::TextArgs<R>),
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
