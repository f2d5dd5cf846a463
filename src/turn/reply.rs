//! The result message: the answers to one turn's calls, in the one message each provider
//! expects next.
//!
//! The pairing rule (see the [module docs](super)) is why this is one function over every
//! outcome of a turn rather than a block at a time: the next request must answer each call
//! id of the turn exactly once, in order, so the message is built from the turn's outcomes
//! in call order, one block each, and nothing else. Each block is the call's
//! [`result_block`](crate::result_block), keyed to its id and flagged as an error for
//! failures and rejections; this file only says how each provider wraps them:
//!
//! | Provider | Result message |
//! |---|---|
//! | OpenAI chat | a list of messages, one `{"role":"tool","tool_call_id","content"}` per call, to append to `messages` in order |
//! | Anthropic | one message `{"role":"user","content":[tool_result, …]}` |
//! | Responses | a list of `function_call_output` items, to append to `input` |
//! | Gemini | one content `{"role":"user","parts":[{"functionResponse"}, …]}` |
//! | MCP | a list of `CallToolResult`s, one per call (MCP answers each `tools/call` request on its own) |
//!
//! A call without an id gets a block without one (an id never sent cannot be invented): so
//! the blocks still line up with the calls, which is how Gemini pairs calls that carry no id.

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
