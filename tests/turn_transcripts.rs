//! One real round per provider: an assistant turn as the provider's SDK dumps it goes in,
//! the result message for the next request comes out, exactly. Each test prints its
//! transcript (`cargo test --test turn_transcripts -- --nocapture` shows them).
#![cfg(feature = "turns")]

use toolgate::spec::Provider;
use toolgate::{result_message, Registry, ToolSpec, Type};

/// `get_weather(city, units?)` and `search_orders(customer_id)`, with fixed answers.
fn registry() -> Registry {
    let mut registry = Registry::new();
    let weather = ToolSpec::new("get_weather", "Current weather for a city.")
        .required("city", Type::string().min_length(1))
        .optional("units", Type::string().one_of(["celsius", "fahrenheit"]))
        .build()
        .expect("the spec builds");
    let orders = ToolSpec::new("search_orders", "Search a customer's orders.")
        .required("customer_id", Type::string())
        .build()
        .expect("the spec builds");
    registry
        .register(weather, |args| {
            let city = args.get("city").and_then(|c| c.as_str()).unwrap_or("?");
            Ok(format!("{city}: 21 °C, sunny"))
        })
        .expect("registers");
    registry
        .register(orders, |_| {
            Ok("2 orders: ORD-1 (shipped), ORD-2 (delivered)".into())
        })
        .expect("registers");
    registry
}

/// Runs one round and compares the result message with `expected`.
fn transcript(provider: Provider, turn: &str, expected: &str) {
    let outcomes = registry().handle_turn(turn).expect("the turn reads");
    let message = result_message(&outcomes, provider).to_string();
    println!("{provider:?}\n  turn in:\n{turn}\n  result message out:\n{message}\n");
    assert_eq!(message, expected);
}

#[test]
fn openai_chat_completion() {
    transcript(
        Provider::OpenAi,
        r#"{"id":"chatcmpl-9xY","object":"chat.completion","created":1718000000,"model":"gpt-4o-2024-08-06","choices":[{"index":0,"finish_reason":"tool_calls","logprobs":null,"message":{"content":null,"refusal":null,"role":"assistant","annotations":[],"audio":null,"function_call":null,"tool_calls":[{"id":"call_A","function":{"arguments":"{\"city\":\"Oslo\"}","name":"get_weather"},"type":"function"},{"id":"call_B","function":{"arguments":"{\"customer_id\":\"C-17\"}","name":"serch_orders"},"type":"function"},{"id":"call_C","function":{"arguments":"{\"city\":\"Rome\",\"units\":\"kelvin\"}","name":"get_weather"},"type":"function"}]}}],"service_tier":"default","system_fingerprint":"fp_07871e2ad8","usage":{"completion_tokens":61,"prompt_tokens":152,"total_tokens":213,"completion_tokens_details":null,"prompt_tokens_details":null}}"#,
        r#"[{"role":"tool","tool_call_id":"call_A","content":"Oslo: 21 °C, sunny"},{"role":"tool","tool_call_id":"call_B","content":"Error: No tool named 'serch_orders'. Did you mean: search_orders? The tools are: get_weather, search_orders."},{"role":"tool","tool_call_id":"call_C","content":"Error: get_weather rejected: units must be one of \"celsius\", \"fahrenheit\"; received \"kelvin\"."}]"#,
    );
}

#[test]
fn anthropic_message() {
    transcript(
        Provider::Anthropic,
        r#"{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"text","text":"I'll check the weather and the orders.","citations":null},{"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{"city":"Oslo"}},{"type":"tool_use","id":"toolu_01B","name":"search_orders","input":{}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":410,"output_tokens":92,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"server_tool_use":null,"service_tier":"standard"}}"#,
        r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01A","content":"Oslo: 21 °C, sunny"},{"type":"tool_result","tool_use_id":"toolu_01B","content":"search_orders rejected: missing required field 'customer_id'.","is_error":true}]}"#,
    );
}

#[test]
fn responses_response() {
    transcript(
        Provider::Responses,
        r#"{"id":"resp_67ccd2bed1ec8190","object":"response","created_at":1741476542.0,"status":"completed","error":null,"incomplete_details":null,"instructions":null,"model":"gpt-4.1-2025-04-14","output":[{"id":"rs_67ccd2bf","type":"reasoning","summary":[],"encrypted_content":null,"status":null},{"id":"fc_67ccd3a1","type":"function_call","status":"completed","arguments":"{\"customer_id\":\"C-17\"}","call_id":"call_X","name":"search_orders"},{"id":"fc_67ccd3a2","type":"function_call","status":"incomplete","arguments":"{\"city\":\"Lis","call_id":"call_Y","name":"get_weather"}],"parallel_tool_calls":true,"temperature":1.0,"tool_choice":"auto","tools":[],"top_p":1.0,"text":{"format":{"type":"text"}},"usage":null,"user":null,"metadata":{}}"#,
        r#"[{"type":"function_call_output","call_id":"call_X","output":"2 orders: ORD-1 (shipped), ORD-2 (delivered)"},{"type":"function_call_output","call_id":"call_Y","output":"Error: The arguments of get_weather were cut off after 12 bytes, inside a string. Do not send the same call again: make it smaller, with fewer or shorter items."}]"#,
    );
}

#[test]
fn gemini_generate_content_response() {
    transcript(
        Provider::Gemini,
        r#"{"candidates":[{"content":{"parts":[{"text":"The user wants two cities.","thought":true},{"functionCall":{"name":"get_weather","args":{"city":"Oslo"}},"thoughtSignature":"CiQBVKhc7kSe..."},{"functionCall":{"name":"get_weather","args":{"city":""}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":61,"candidatesTokenCount":24,"totalTokenCount":125,"thoughtsTokenCount":40},"modelVersion":"gemini-2.5-flash","responseId":"mBbRaP7xL"}"#,
        r#"{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"output":"Oslo: 21 °C, sunny"}}},{"functionResponse":{"name":"get_weather","response":{"error":"get_weather rejected: city must be at least 1 character long; received \"\"."}}}]}"#,
    );
}
