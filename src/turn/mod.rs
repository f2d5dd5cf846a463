//! Turns: a whole assistant message, every call in it checked with the gates of
//! [`Gate::check_call`], and the one message that answers them all.
//!
//! # Forms read
//!
//! | Form | Calls | Text |
//! |---|---|---|
//! | OpenAI chat message `{"role":"assistant","content","tool_calls"}`; a chat completion `{"choices":[…]}` (its first choice's `message`) or one choice | each `tool_calls` element, then a legacy `function_call` | `content`: a string, or the `text` of its parts |
//! | Anthropic message `{"role":"assistant","content":[…]}`, or its bare `content` list | `tool_use` blocks | `text` blocks |
//! | Responses `output` list, or a whole response `{"output":[…]}` | `function_call` items | the `output_text` parts of `message` items |
//! | Gemini `Content` `{"role":"model","parts":[…]}`, a candidate `{"content":{…}}`, a `GenerateContentResponse` `{"candidates":[…]}` (its first candidate) | parts with `functionCall` (`function_call` in google-genai dumps) | `text` parts that are not thoughts |
//! | a list of calls, each in any single-call shape | every element | — |
//!
//! Thinking blocks, reasoning items, hosted tool calls and Gemini thoughts pass by untouched.
//!
//! # Stop reasons
//!
//! A turn that stopped at the model's output limit (`finish_reason: "length"`,
//! `stop_reason: "max_tokens"`, `incomplete_details.reason: "max_output_tokens"`,
//! `finishReason: "MAX_TOKENS"`) whose last element is a call has that call cut, even when
//! its text parses: it is `truncated_json`, so the model makes it smaller instead of sending
//! it again.
//!
//! # The pairing rule
//!
//! Every provider refuses the next request unless every call id of the turn is answered
//! exactly once, in order, in the message that follows ([`result_message`]). So every call
//! gets one answer (output, failure or rejection, keeping every id that can be read), and the
//! retry cannot be asked from inside one call's check: the rejection goes back in the result
//! message and the correction comes in the next turn; a [`Session`] links the two. Run a turn
//! with [`Registry::handle_turn`](crate::Registry::handle_turn), with [`Session::handle_turn`]
//! for a conversation, or check it ([`Gate::check_turn`]), run the accepted calls yourself and
//! hand the outputs to [`Answers`].
//!
//! ```
//! use toolgate::{Registry, ToolSpec, Type};
//! use toolgate::spec::Provider;
//!
//! let mut registry = Registry::new();
//! let weather = ToolSpec::new("get_weather", "Current weather.").required("city", Type::string());
//! registry.register(weather.build()?, |args| {
//!     Ok(format!("{}: sunny", args.get("city").and_then(|c| c.as_str()).unwrap_or("?")))
//! })?;
//!
//! // Two parallel calls, as OpenAI's SDK dumps the message; the second forgot its city.
//! let message = r#"{"role":"assistant","content":null,"refusal":null,"tool_calls":[
//!   {"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}},
//!   {"id":"call_B","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}"#;
//! let outcomes = registry.handle_turn(message)?;
//! assert_eq!(
//!     toolgate::result_message(&outcomes, Provider::OpenAi).to_string(),
//!     r#"[{"role":"tool","tool_call_id":"call_A","content":"Oslo: sunny"},{"role":"tool","tool_call_id":"call_B","content":"Error: get_weather rejected: missing required field 'city'."}]"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answer;
mod cut;
mod dispatch;
mod error;
mod form;
#[cfg(feature = "stream")]
pub(crate) use form::is_call;
mod reply;
mod session;

pub use answer::{AnswerError, Answers};
pub use error::TurnError;
pub use reply::result_message;
pub use session::{Session, SessionError};

use crate::envelope;
use crate::envelope::Call;
use crate::gate::Gate;
use crate::json::{self, Limits, Value};
use crate::rejection::Rejection;
use crate::spec::Provider;
use std::borrow::Cow;

/// One assistant turn, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn<'a> {
    /// The form the turn came in.
    pub form: TurnForm,
    /// One entry per call, in call order: the order the result message answers them in.
    pub calls: Vec<TurnCall<'a>>,
    /// The turn's text parts, in order, untouched (the model's words around its calls).
    pub text: Vec<Cow<'a, str>>,
}

/// One call of a turn: what the gate said of it (exactly what [`Gate::check_call`] says of
/// the call alone), and, in a [`Session`], the refused call of the previous turn it corrects.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnCall<'a> {
    /// The checked call, ready to run, or why it was refused (nothing may run).
    pub verdict: Result<Call<'a>, Rejection>,
    /// The refused call of the previous turn this call corrects, when a [`Session`] linked
    /// them.
    pub corrects: Option<Box<Rejection>>,
}

/// The form a turn came in (see the table in the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TurnForm {
    /// An OpenAI chat message, one choice, or a whole chat completion.
    OpenAiChat,
    /// An Anthropic message or its `content` list.
    Anthropic,
    /// A Responses `output` list or a whole response.
    Responses,
    /// A Gemini `Content`, a candidate, or a whole `GenerateContentResponse`.
    Gemini,
    /// A list of calls in single-call shapes, none of which says its provider.
    Calls,
}

impl TurnForm {
    /// The provider whose result message answers a turn of this form; `None` for a plain
    /// list of calls, which does not say.
    pub fn provider(self) -> Option<Provider> {
        match self {
            TurnForm::OpenAiChat => Some(Provider::OpenAi),
            TurnForm::Anthropic => Some(Provider::Anthropic),
            TurnForm::Responses => Some(Provider::Responses),
            TurnForm::Gemini => Some(Provider::Gemini),
            TurnForm::Calls => None,
        }
    }
}

impl<'a> Turn<'a> {
    /// A copy that owns all its text, free of the raw turn's lifetime.
    pub fn into_owned(self) -> Turn<'static> {
        Turn {
            form: self.form,
            calls: self
                .calls
                .into_iter()
                .map(|call| TurnCall {
                    verdict: call.verdict.map(Call::into_owned),
                    corrects: call.corrects,
                })
                .collect(),
            text: self
                .text
                .into_iter()
                .map(|text| Cow::Owned(text.into_owned()))
                .collect(),
        }
    }

    /// The calls that passed every gate (what may run), with their positions.
    pub fn accepted(&self) -> impl Iterator<Item = (usize, &Call<'a>)> {
        self.calls
            .iter()
            .enumerate()
            .filter_map(|(index, call)| call.verdict.as_ref().ok().map(|call| (index, call)))
    }

    /// The refused calls, with their positions in [`Turn::calls`].
    pub fn rejected(&self) -> impl Iterator<Item = (usize, &Rejection)> {
        self.calls
            .iter()
            .enumerate()
            .filter_map(|(index, call)| call.verdict.as_ref().err().map(|error| (index, error)))
    }
}

impl TurnCall<'_> {
    /// The call id, when it could be read (refused calls keep it too).
    pub fn id(&self) -> Option<&str> {
        match &self.verdict {
            Ok(call) => call.id.as_deref(),
            Err(rejection) => rejection.id(),
        }
    }

    /// The tool name the call used, when it could be read.
    pub fn tool(&self) -> Option<&str> {
        match &self.verdict {
            Ok(call) => Some(&call.name),
            Err(rejection) => rejection.tool(),
        }
    }
}

/// Nesting a turn's form adds above a call (`candidates[0].content.parts[i]`).
const TURN_NESTING: usize = 5;

/// The limits a whole turn (or one of its stream events, which nest as deep) is read
/// under: a call's, with room for the form's nesting above it.
pub(crate) fn turn_limits(limits: Limits) -> Limits {
    Limits {
        max_depth: limits
            .max_depth
            .saturating_add(TURN_NESTING)
            .min(Limits::DEPTH_CEILING),
        ..limits
    }
}

impl Gate {
    /// Reads an assistant turn in any provider's form and checks each of its calls, each
    /// held to the gate's [`Limits`] as if alone (the size limit holds for the whole turn).
    ///
    /// ```
    /// use toolgate::{Gate, ToolSpec, Type};
    ///
    /// let gate = Gate::new(vec![ToolSpec::new("get_weather", "Current weather.")
    ///     .required("city", Type::string())
    ///     .build()?])?;
    /// // An Anthropic message as the SDK dumps it: text, then two calls; the second misspells.
    /// let message = r#"{"id":"msg_01","type":"message","role":"assistant","content":[
    ///     {"type":"text","text":"Checking both.","citations":null},
    ///     {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}},
    ///     {"type":"tool_use","id":"toolu_2","name":"get_wether","input":{"city":"Rome"}}],
    ///   "stop_reason":"tool_use","stop_sequence":null}"#;
    /// let turn = gate.check_turn(message)?;
    /// assert_eq!(turn.text, ["Checking both."]);
    /// assert_eq!(turn.calls.len(), 2);
    /// assert_eq!(turn.calls[0].verdict.as_ref().map(|call| &*call.name), Ok("get_weather"));
    /// let refused = turn.calls[1].verdict.as_ref().unwrap_err();
    /// assert_eq!((refused.kind().label(), refused.id()), ("unknown_tool", Some("toolu_2")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A [`TurnError`] when the text is no turn at all (no calls to answer). A call that
    /// cannot be read is a [`TurnCall`] whose verdict is its [`Rejection`].
    pub fn check_turn<'a>(&self, raw: &'a str) -> Result<Turn<'a>, TurnError> {
        let mut value = json::parse_with(raw, turn_limits(self.limits()))
            .map_err(|error| TurnError::NotJson(Box::new(error)))?;
        let mut calls = Vec::new();
        let mut last_args = None;
        let reading = form::read(&mut value, &mut |element, found| {
            let (verdict, args) = check_element(self, element, found);
            last_args = args;
            calls.push(TurnCall {
                verdict,
                corrects: None,
            });
        })?;
        if reading.last_call_cut {
            if let (Some(last), Some((kind, args))) = (calls.last_mut(), last_args) {
                cut::cut_off(&mut last.verdict, kind, &args);
            }
        }
        Ok(Turn {
            form: reading.form,
            calls,
            text: reading.text,
        })
    }
}

/// A call's arguments, when its turn was cut: their kind, and as compact JSON.
type CutArgs = Option<(json::Kind, String)>;

/// Checks one call element of a turn (a legacy `function_call` as `{"function_call": …}`),
/// with the verdict [`Gate::check_call`] gives its own text: a call nested deeper than the
/// limits allow is written back and checked as text, to be refused as alone. In a turn cut
/// at the output limit, the arguments read are handed back too, for [`cut::cut_off`].
fn check_element<'a>(
    gate: &Gate,
    element: &mut Value<'a>,
    found: form::Found,
) -> (Result<Call<'a>, Rejection>, CutArgs) {
    let limits = gate.limits();
    let mut element = match found.legacy {
        true => Value::Object(vec![(
            Cow::Borrowed("function_call"),
            std::mem::replace(element, Value::Null),
        )]),
        false => std::mem::replace(element, Value::Null),
    };
    if deeper_than(&element, limits.max_depth) {
        let mut text = String::new();
        json::write_compact(&mut text, &element);
        return (gate.check_call(&text).map(Call::into_owned), None);
    }
    let call = match envelope::find_call(&mut element, limits) {
        Ok(call) => call,
        Err(rejection) => return (Err(rejection), None),
    };
    let args = found.cut.then(|| {
        let mut args = String::new();
        json::write_compact(&mut args, &call.args);
        (call.args.kind(), args)
    });
    (gate.checked(call).map(|(_, call)| call), args)
}

/// Whether `value` nests more than `max_depth` arrays and objects (a recursion at most
/// `max_depth + 1` deep).
pub(crate) fn deeper_than(value: &Value<'_>, max_depth: usize) -> bool {
    let below = max_depth.saturating_sub(1);
    match value {
        Value::Array(items) => max_depth == 0 || items.iter().any(|item| deeper_than(item, below)),
        Value::Object(members) => {
            max_depth == 0 || members.iter().any(|(_, value)| deeper_than(value, below))
        }
        _ => false,
    }
}
