//! Export: specs in each provider's tools form, derived from the same specs that validate.
//! (Skeleton: lands with issue #3.)

use super::ToolSpec;
use crate::json::Value;

/// A provider's tool-declaration form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// Anthropic Messages: `{name, description, input_schema}`.
    Anthropic,
    /// OpenAI chat: `{type: function, function: {name, description, parameters}}`.
    OpenAi,
    /// OpenAI chat in strict mode.
    OpenAiStrict,
    /// OpenAI Responses: `{type: function, name, description, parameters, strict}`.
    Responses,
    /// Gemini: `{functionDeclarations: [...]}`.
    Gemini,
    /// MCP: `{name, description, inputSchema}`.
    Mcp,
}

/// One tool in the provider's form.
pub fn export_tool(spec: &ToolSpec, provider: Provider) -> Value<'static> {
    let _ = (spec, provider);
    Value::Null
}

/// A request's tools array in the provider's form.
pub fn export_tools(specs: &[ToolSpec], provider: Provider) -> Value<'static> {
    Value::Array(specs.iter().map(|s| export_tool(s, provider)).collect())
}
