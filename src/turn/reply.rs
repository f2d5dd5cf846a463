//! The result message: a turn's answers, one [`result_block`](crate::result_block) per
//! call in call order, wrapped as each provider expects (Anthropic and Gemini: one user
//! message; OpenAI, Responses and MCP: the list of blocks).

use crate::json::Value;
use crate::registry::Outcome;
use crate::result_block::result_block;
use crate::spec::Provider;
use std::borrow::Cow;

/// The provider's message answering a turn: one block per outcome, in the order given
/// (give them in call order, as [`Registry::handle_turn`](crate::Registry::handle_turn) and
/// [`Answers`](super::Answers) do).
///
/// ```
/// use toolgate::{result_message, Outcome};
/// use toolgate::spec::Provider;
///
/// let outcomes = [Outcome::Dispatched {
///     id: Some("toolu_1".into()),
///     tool: "get_weather".into(),
///     output: "Oslo: sunny".into(),
///     first_rejection: None,
/// }];
/// assert_eq!(
///     result_message(&outcomes, Provider::Gemini).to_string(),
///     r#"{"role":"user","parts":[{"functionResponse":{"name":"get_weather","id":"toolu_1","response":{"output":"Oslo: sunny"}}}]}"#
/// );
/// ```
pub fn result_message<'o>(
    outcomes: impl IntoIterator<Item = &'o Outcome>,
    provider: Provider,
) -> Value<'static> {
    let blocks: Vec<Value<'static>> = outcomes
        .into_iter()
        .map(|outcome| result_block(outcome, provider))
        .collect();
    // Anthropic and Gemini answer in one user message holding the blocks; the others take
    // the blocks themselves, appended in order.
    let list_key = match provider {
        Provider::Anthropic => "content",
        Provider::Gemini => "parts",
        Provider::OpenAi
        | Provider::OpenAiStrict
        | Provider::Responses
        | Provider::ResponsesStrict
        | Provider::Mcp => return Value::Array(blocks),
    };
    Value::Object(vec![
        (Cow::Borrowed("role"), Value::String(Cow::Borrowed("user"))),
        (Cow::Borrowed(list_key), Value::Array(blocks)),
    ])
}
