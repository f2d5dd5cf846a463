//! Envelopes: every provider's shape of a tool call, read into one [`Call`].
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
//! The shape is told by `"type"` when present, else by `function`, then
//! `functionCall`/`function_call`, then a top-level `name`. The plain shape also takes its
//! arguments under `input`, `args` or `parameters`, one of them at most. In every shape, as
//! SDK dumps need: unknown fields are ignored (but must be valid JSON), a `null` field is
//! absent, absent arguments are `{}`, an empty arguments text is truncated, and a text that is
//! JSON but no object is left for gate 2. A key given twice, or a top-level `name` beside a
//! nested call object, is refused: which one counts would be a guess. The id is kept whenever
//! it can be read, even from a call cut off after it.

mod parse;
mod recover;
mod shape;

use crate::json::{self, ErrorKind, Limits, Value};
use crate::rejection::{Part, Rejection};
use parse::Texts;
use std::borrow::Cow;

/// One tool call, whatever shape it arrived in, borrowing from the raw text where it can.
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
/// [`Rejection::MalformedJson`] or [`Rejection::TruncatedJson`] when the call or its
/// arguments text ([`Part`]) is not JSON; [`Rejection::BadEnvelope`] when the JSON is no
/// tool call in any shape above.
pub fn read_call(raw: &str, limits: Limits) -> Result<Call<'_>, Rejection> {
    match parse::parse(raw, limits) {
        Ok((mut value, mut texts)) => shape::find(&mut value, &mut texts, limits),
        Err(error) => Err(not_json(error, raw.as_bytes(), limits)),
    }
}

/// [`read_call`] for bytes that should be UTF-8 (a call cut inside a character is
/// truncated); invalid UTF-8 is [`Rejection::MalformedJson`].
pub(crate) fn read_call_bytes(raw: &[u8], limits: Limits) -> Result<Call<'_>, Rejection> {
    if let Ok(text) = std::str::from_utf8(raw) {
        return read_call(text, limits);
    }
    match json::parse_bytes_with(raw, limits) {
        Ok(mut value) => shape::find(&mut value, &mut Texts::default(), limits),
        Err(error) => Err(not_json(error, raw, limits)),
    }
}

/// The call in a value already parsed (an element of a turn), its arguments taken out.
#[cfg(feature = "turns")]
pub(crate) fn find_call<'a>(value: &mut Value<'a>, limits: Limits) -> Result<Call<'a>, Rejection> {
    shape::find(value, &mut Texts::default(), limits)
}

/// The rejection of a call that is not JSON, with the id and tool read before the error
/// (none for invalid UTF-8).
fn not_json(error: json::ParseError, raw: &[u8], limits: Limits) -> Rejection {
    if *error.kind() == ErrorKind::InvalidUtf8 {
        return json_rejection(error, Part::Call, None, None);
    }
    let members = recover::recover(raw, limits);
    let id = shape::recovered_id(&members).map(String::from);
    let tool = shape::recovered_name(&members).map(String::from);
    json_rejection(error, Part::Call, id, tool)
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
