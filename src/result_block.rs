//! Result blocks: an [`Outcome`] as the message each provider expects back, keyed to the
//! call id (none when the call had none: an id is never invented) and flagged as an error for
//! failures and rejections (OpenAI and Responses have no flag: the text starts `Error: `).
//! Gemini requires a `name`: the call's own when Gemini accepts it, else
//! [`GEMINI_UNKNOWN_NAME`].

use crate::json::Value;
use crate::registry::Outcome;
use crate::rejection::Rejection;
use crate::spec::export::object;
use crate::spec::Provider;

/// The `name` of a Gemini `functionResponse` for a call whose own name is not a name Gemini
/// accepts, or could not be read at all. Gemini requires the field; this placeholder is a
/// valid Gemini name that says plainly that the call's name is not known.
pub const GEMINI_UNKNOWN_NAME: &str = "unknown";

/// True if Gemini accepts `name` as a function name: 1 to 64 characters, the first a letter
/// or `_`, the rest ASCII letters, digits, `_`, `.`, `:` or `-` (the rule of Gemini's
/// `FunctionDeclaration.name`, which a `functionResponse.name` must match:
/// [`NameRule::GEMINI`](crate::spec::NameRule::GEMINI), the rule its export checks too).
///
/// ```
/// use toolgate::result_block::is_gemini_name;
///
/// assert!(is_gemini_name("search_orders"));
/// assert!(!is_gemini_name("search orders"));
/// assert!(!is_gemini_name(""));
/// ```
pub fn is_gemini_name(name: &str) -> bool {
    crate::spec::NameRule::GEMINI.accepts(name)
}

/// The provider's tool-result message for `outcome`.
///
/// Gemini's block always carries a `name`, which Gemini requires: the call's own, or
/// [`GEMINI_UNKNOWN_NAME`] when that is missing or not a name Gemini accepts (see the
/// [module docs](self)).
///
/// ```
/// use toolgate::{result_block, Outcome};
/// use toolgate::spec::Provider;
///
/// let outcome = Outcome::Dispatched {
///     id: Some("toolu_01".into()),
///     tool: "get_weather".into(),
///     output: "Sunny, 21 °C".into(),
///     first_rejection: None,
/// };
/// assert_eq!(
///     result_block(&outcome, Provider::Anthropic).to_string(),
///     r#"{"type":"tool_result","tool_use_id":"toolu_01","content":"Sunny, 21 °C"}"#
/// );
/// ```
pub fn result_block(outcome: &Outcome, provider: Provider) -> Value<'static> {
    let is_error = outcome.is_error();
    let text = outcome.text();
    let id = outcome.id().map(|id| Value::from(id.to_owned()));
    let flagged = || {
        if is_error {
            format!("Error: {text}")
        } else {
            text.clone()
        }
    };
    let mut members: Vec<(&'static str, Value<'static>)> = Vec::new();
    match provider {
        Provider::Anthropic => {
            members.push(("type", Value::from("tool_result")));
            members.extend(id.map(|id| ("tool_use_id", id)));
            members.push(("content", Value::from(text)));
            if is_error {
                members.push(("is_error", Value::Bool(true)));
            }
        }
        Provider::OpenAi | Provider::OpenAiStrict => {
            members.push(("role", Value::from("tool")));
            members.extend(id.map(|id| ("tool_call_id", id)));
            members.push(("content", Value::from(flagged())));
        }
        Provider::Responses | Provider::ResponsesStrict => {
            members.push(("type", Value::from("function_call_output")));
            members.extend(id.map(|id| ("call_id", id)));
            members.push(("output", Value::from(flagged())));
        }
        Provider::Gemini => {
            let name = outcome
                .tool()
                .filter(|name| is_gemini_name(name))
                .unwrap_or(GEMINI_UNKNOWN_NAME);
            let mut inner = vec![("name", Value::from(name.to_owned()))];
            inner.extend(id.map(|id| ("id", id)));
            let field = if is_error { "error" } else { "output" };
            inner.push(("response", object(vec![(field, Value::from(text))])));
            members.push(("functionResponse", object(inner)));
        }
        Provider::Mcp => {
            let part = object(vec![
                ("type", Value::from("text")),
                ("text", Value::from(text)),
            ]);
            members.push(("content", Value::Array(vec![part])));
            members.push(("isError", Value::Bool(is_error)));
        }
    }
    object(members)
}

impl Outcome {
    /// The provider's tool-result message for this outcome (see [`result_block`]).
    pub fn result_block(&self, provider: Provider) -> Value<'static> {
        result_block(self, provider)
    }
}

impl Rejection {
    /// The provider's tool-result message refusing this call: keyed to its id when it had
    /// one, flagged as an error, with the rejection's text. It is what the model reads
    /// before its one retry.
    pub fn result_block(&self, provider: Provider) -> Value<'static> {
        result_block(&Outcome::refused(self.clone(), None), provider)
    }
}
