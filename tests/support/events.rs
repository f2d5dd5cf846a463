//! Recorded stream events of one assistant turn per provider, each event's JSON text as the
//! SDK delivers it (field order, `null`s, usage chunks, pings), with the whole message each
//! stream stands for, written by hand; and the tools they call. `turn_events.rs` pins what
//! the turn stream says of them, `turn_events_fuzz.rs` breaks them.
#![allow(dead_code)]

use toolgate::Gate;

pub const TOOLS: &str = r#"[
  {"name": "get_weather", "description": "Current weather for a city.",
   "input_schema": {"type": "object",
     "properties": {"city": {"type": "string", "minLength": 1},
                    "units": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
     "required": ["city"], "additionalProperties": false}},
  {"name": "search_orders", "description": "Search a customer's orders.",
   "input_schema": {"type": "object",
     "properties": {"customer_id": {"type": "string"}},
     "required": ["customer_id"], "additionalProperties": false}}
]"#;

pub fn gate() -> Gate {
    Gate::from_tools_json(TOOLS).expect("the test's tools load")
}

/// A recorded stream: its name, its events, and the whole message it stands for.
pub struct Recorded {
    pub name: &'static str,
    pub events: &'static [&'static str],
    pub whole: &'static str,
}

pub const ALL: [Recorded; 4] = [OPENAI, ANTHROPIC, RESPONSES, GEMINI];

/// OpenAI chat chunks: text in two pieces, then three parallel calls whose deltas
/// interleave: `call_A` is fine, `call_B` misspells its tool, `call_C` gives a number for a
/// city. A usage chunk with no choices ends the stream.
pub const OPENAI: Recorded = Recorded {
    name: "openai",
    events: &[
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"content":"Checking "},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"content":"three."},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_A","function":{"arguments":"","name":"get_weather"},"type":"function"}]},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"ci"}}]},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_B","function":{"arguments":"","name":"get_wether"},"type":"function"}]},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"id":"call_C","function":{"arguments":"{\"city\"","name":"get_weather"},"type":"function"}]},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\": \"Os"}},{"index":1,"function":{"arguments":"{\"city\": \"Rome\"}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":": 4"}}]},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"lo\"}"}},{"index":2,"function":{"arguments":"2}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}"#,
        r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_07871e2ad8","choices":[],"usage":{"completion_tokens":61,"prompt_tokens":152,"total_tokens":213,"completion_tokens_details":{"reasoning_tokens":0},"prompt_tokens_details":{"cached_tokens":0}}}"#,
    ],
    whole: r#"{"choices":[{"index":0,"message":{"role":"assistant",
        "content":"Checking three.","tool_calls":[
          {"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"Oslo\"}"}},
          {"id":"call_B","type":"function","function":{"name":"get_wether","arguments":"{\"city\": \"Rome\"}"}},
          {"id":"call_C","type":"function","function":{"name":"get_weather","arguments":"{\"city\": 42}"}}]},
        "finish_reason":"tool_calls"}]}"#,
};

/// Anthropic Messages events: a thinking block, text, a ping, then two tool_use blocks; the
/// second asks for units no enum value starts like.
pub const ANTHROPIC: Recorded = Recorded {
    name: "anthropic",
    events: &[
        r#"{"type":"message_start","message":{"id":"msg_01XF","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":410,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,"service_tier":"standard"}}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Two cities."}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"","citations":null}}"#,
        r#"{"type":"ping"}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"I'll check "}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"both."}}"#,
        r#"{"type":"content_block_stop","index":1}"#,
        r#"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{}}}"#,
        r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}"#,
        r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Os"}}"#,
        r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"lo\"}"}}"#,
        r#"{"type":"content_block_stop","index":2}"#,
        r#"{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_01B","name":"get_weather","input":{}}}"#,
        r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Rome\", \"unit"}}"#,
        r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"s\": \"kelvin\"}"}}"#,
        r#"{"type":"content_block_stop","index":3}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":92}}"#,
        r#"{"type":"message_stop"}"#,
    ],
    whole: r#"{"type":"message","role":"assistant","content":[
        {"type":"thinking","thinking":"","signature":""},
        {"type":"text","text":"I'll check both."},
        {"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{"city":"Oslo"}},
        {"type":"tool_use","id":"toolu_01B","name":"get_weather","input":{"city":"Rome","units":"kelvin"}}],
      "stop_reason":"tool_use"}"#,
};

/// Responses events: a reasoning item, a message in two text deltas, a call that is fine
/// and one to a tool that does not exist, each with its `.done` events; `response.completed`.
pub const RESPONSES: Recorded = Recorded {
    name: "responses",
    events: &[
        r#"{"type":"response.created","sequence_number":0,"response":{"id":"resp_01","object":"response","created_at":1718000000,"status":"in_progress","error":null,"incomplete_details":null,"model":"gpt-4.1-2025-04-14","output":[],"parallel_tool_calls":true,"usage":null}}"#,
        r#"{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_01","object":"response","created_at":1718000000,"status":"in_progress","error":null,"incomplete_details":null,"model":"gpt-4.1-2025-04-14","output":[],"parallel_tool_calls":true,"usage":null}}"#,
        r#"{"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_01","type":"reasoning","summary":[],"encrypted_content":null}}"#,
        r#"{"type":"response.output_item.done","sequence_number":3,"output_index":0,"item":{"id":"rs_01","type":"reasoning","summary":[],"encrypted_content":null}}"#,
        r#"{"type":"response.output_item.added","sequence_number":4,"output_index":1,"item":{"id":"msg_01","type":"message","status":"in_progress","content":[],"role":"assistant"}}"#,
        r#"{"type":"response.content_part.added","sequence_number":5,"item_id":"msg_01","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}"#,
        r#"{"type":"response.output_text.delta","sequence_number":6,"item_id":"msg_01","output_index":1,"content_index":0,"delta":"Looking ","logprobs":[]}"#,
        r#"{"type":"response.output_text.delta","sequence_number":7,"item_id":"msg_01","output_index":1,"content_index":0,"delta":"it up.","logprobs":[]}"#,
        r#"{"type":"response.output_text.done","sequence_number":8,"item_id":"msg_01","output_index":1,"content_index":0,"text":"Looking it up.","logprobs":[]}"#,
        r#"{"type":"response.content_part.done","sequence_number":9,"item_id":"msg_01","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"Looking it up."}}"#,
        r#"{"type":"response.output_item.done","sequence_number":10,"output_index":1,"item":{"id":"msg_01","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Looking it up."}],"role":"assistant"}}"#,
        r#"{"type":"response.output_item.added","sequence_number":11,"output_index":2,"item":{"id":"fc_01","type":"function_call","status":"in_progress","arguments":"","call_id":"call_A","name":"get_weather"}}"#,
        r#"{"type":"response.function_call_arguments.delta","sequence_number":12,"item_id":"fc_01","output_index":2,"delta":"{\"city\":"}"#,
        r#"{"type":"response.function_call_arguments.delta","sequence_number":13,"item_id":"fc_01","output_index":2,"delta":"\"Oslo\"}"}"#,
        r#"{"type":"response.function_call_arguments.done","sequence_number":14,"item_id":"fc_01","output_index":2,"arguments":"{\"city\":\"Oslo\"}"}"#,
        r#"{"type":"response.output_item.done","sequence_number":15,"output_index":2,"item":{"id":"fc_01","type":"function_call","status":"completed","arguments":"{\"city\":\"Oslo\"}","call_id":"call_A","name":"get_weather"}}"#,
        r#"{"type":"response.output_item.added","sequence_number":16,"output_index":3,"item":{"id":"fc_02","type":"function_call","status":"in_progress","arguments":"","call_id":"call_B","name":"search_order"}}"#,
        r#"{"type":"response.function_call_arguments.delta","sequence_number":17,"item_id":"fc_02","output_index":3,"delta":"{\"customer_id\":\"C-17\"}"}"#,
        r#"{"type":"response.function_call_arguments.done","sequence_number":18,"item_id":"fc_02","output_index":3,"arguments":"{\"customer_id\":\"C-17\"}"}"#,
        r#"{"type":"response.output_item.done","sequence_number":19,"output_index":3,"item":{"id":"fc_02","type":"function_call","status":"completed","arguments":"{\"customer_id\":\"C-17\"}","call_id":"call_B","name":"search_order"}}"#,
        r#"{"type":"response.completed","sequence_number":20,"response":{"id":"resp_01","object":"response","created_at":1718000000,"status":"completed","error":null,"incomplete_details":null,"model":"gpt-4.1-2025-04-14","output":[],"parallel_tool_calls":true,"usage":{"input_tokens":100,"output_tokens":40,"total_tokens":140}}}"#,
    ],
    whole: r#"{"object":"response","status":"completed","incomplete_details":null,"output":[
        {"id":"rs_01","type":"reasoning","summary":[],"encrypted_content":null},
        {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Looking it up."}]},
        {"type":"function_call","id":"fc_01","call_id":"call_A","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"},
        {"type":"function_call","id":"fc_02","call_id":"call_B","name":"search_order","arguments":"{\"customer_id\":\"C-17\"}"}]}"#,
};

/// Gemini chunks (REST, camelCase): text in pieces, a thought that passes, then two calls
/// whole in one chunk; the second gives a number for a city.
pub const GEMINI: Recorded = Recorded {
    name: "gemini",
    events: &[
        r#"{"candidates":[{"content":{"parts":[{"text":"Weighing it.","thought":true}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":50,"totalTokenCount":50,"thoughtsTokenCount":4},"modelVersion":"gemini-2.5-flash","responseId":"r-1"}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"Checking "}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":2,"totalTokenCount":56},"modelVersion":"gemini-2.5-flash","responseId":"r-1"}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"both."}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":4,"totalTokenCount":58},"modelVersion":"gemini-2.5-flash","responseId":"r-1"}"#,
        r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"city":"Oslo"}}},{"functionCall":{"name":"get_weather","args":{"city":42}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":20,"totalTokenCount":74},"modelVersion":"gemini-2.5-flash","responseId":"r-1"}"#,
    ],
    whole: r#"{"candidates":[{"content":{"role":"model","parts":[
        {"text":"Checking both."},
        {"functionCall":{"name":"get_weather","args":{"city":"Oslo"}}},
        {"functionCall":{"name":"get_weather","args":{"city":42}}}]},
      "finishReason":"STOP"}]}"#,
};
