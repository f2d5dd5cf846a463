//! The proxy's own answers to the client, for requests it does not forward. A refused call is
//! a tool result with `isError: true` (MCP 2025-11-25: input validation errors are tool
//! results, so the model reads the sentence and corrects its call); a message the proxy
//! cannot read is a JSON-RPC error, as a server would give.

use crate::json;

/// JSON-RPC: the message is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the message is JSON but not a request the proxy will pass on.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: the method's parameters are invalid (MCP: an unknown tool, as a protocol
/// error).
pub const INVALID_PARAMS: i64 = -32602;

/// `{"jsonrpc":"2.0","id":ID,"result":{"content":[{"type":"text","text":TEXT}],"isError":true}}`,
/// `id` already JSON.
pub(crate) fn tool_error(id: &str, text: &str) -> String {
    let mut answer = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":"
    );
    // Writing to a `String` cannot fail.
    let _ = json::write_escaped_str(&mut answer, text);
    answer.push_str("}],\"isError\":true}}");
    answer
}

/// `{"jsonrpc":"2.0","id":ID,"error":{"code":CODE,"message":TEXT}}`, `id` already JSON.
pub(crate) fn rpc_error(id: &str, code: i64, text: &str) -> String {
    let mut answer =
        format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":{code},\"message\":");
    let _ = json::write_escaped_str(&mut answer, text);
    answer.push_str("}}");
    answer
}
