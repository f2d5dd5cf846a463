//! Result blocks: each outcome as each provider's tool-result message, keyed to the call id
//! and flagged as an error for tool failures and rejections.

use toolgate::spec::Provider;
use toolgate::{result_block, Gate, Outcome, ToolSpec, Type};

fn dispatched(id: Option<&str>) -> Outcome {
    Outcome::Dispatched {
        id: id.map(String::from),
        tool: "get_weather".into(),
        output: "Sunny, 21 °C".into(),
        first_rejection: None,
    }
}

fn failed() -> Outcome {
    Outcome::ToolFailed {
        id: Some("call_1".into()),
        tool: "get_weather".into(),
        error: "timeout after 5 s".into(),
        panicked: false,
        first_rejection: None,
    }
}

fn rejected() -> Outcome {
    let spec = ToolSpec::new("get_weather", "Weather.")
        .required("city", Type::string())
        .build()
        .unwrap();
    let gate = Gate::new(vec![spec]).unwrap();
    let error = gate
        .check_call(r#"{"type":"tool_use","id":"call_1","name":"get_weather","input":{}}"#)
        .unwrap_err();
    Outcome::Rejected {
        id: Some("call_1".into()),
        error: error.clone(),
        first_rejection: Some(Box::new(error)),
    }
}

fn check(outcome: &Outcome, provider: Provider, expect: &str) {
    assert_eq!(
        result_block(outcome, provider).to_string(),
        expect,
        "{provider:?}"
    );
    assert_eq!(
        outcome.result_block(provider).to_string(),
        expect,
        "{provider:?}"
    );
}

#[test]
fn anthropic_tool_result() {
    check(
        &dispatched(Some("toolu_1")),
        Provider::Anthropic,
        r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"Sunny, 21 °C"}"#,
    );
    check(
        &failed(),
        Provider::Anthropic,
        r#"{"type":"tool_result","tool_use_id":"call_1","content":"get_weather failed: timeout after 5 s","is_error":true}"#,
    );
    check(
        &rejected(),
        Provider::Anthropic,
        r#"{"type":"tool_result","tool_use_id":"call_1","content":"get_weather rejected: missing required field 'city'.","is_error":true}"#,
    );
}

#[test]
fn openai_chat_tool_message() {
    for provider in [Provider::OpenAi, Provider::OpenAiStrict] {
        check(
            &dispatched(Some("call_1")),
            provider,
            r#"{"role":"tool","tool_call_id":"call_1","content":"Sunny, 21 °C"}"#,
        );
        check(
            &failed(),
            provider,
            r#"{"role":"tool","tool_call_id":"call_1","content":"Error: get_weather failed: timeout after 5 s"}"#,
        );
        check(
            &rejected(),
            provider,
            r#"{"role":"tool","tool_call_id":"call_1","content":"Error: get_weather rejected: missing required field 'city'."}"#,
        );
    }
}

#[test]
fn openai_responses_function_call_output() {
    check(
        &dispatched(Some("call_1")),
        Provider::Responses,
        r#"{"type":"function_call_output","call_id":"call_1","output":"Sunny, 21 °C"}"#,
    );
    check(
        &failed(),
        Provider::Responses,
        r#"{"type":"function_call_output","call_id":"call_1","output":"Error: get_weather failed: timeout after 5 s"}"#,
    );
}

#[test]
fn gemini_function_response() {
    check(
        &dispatched(None),
        Provider::Gemini,
        r#"{"functionResponse":{"name":"get_weather","response":{"output":"Sunny, 21 °C"}}}"#,
    );
    check(
        &dispatched(Some("g1")),
        Provider::Gemini,
        r#"{"functionResponse":{"name":"get_weather","id":"g1","response":{"output":"Sunny, 21 °C"}}}"#,
    );
    check(
        &rejected(),
        Provider::Gemini,
        r#"{"functionResponse":{"name":"get_weather","id":"call_1","response":{"error":"get_weather rejected: missing required field 'city'."}}}"#,
    );
}

#[test]
fn mcp_call_tool_result() {
    check(
        &dispatched(None),
        Provider::Mcp,
        r#"{"content":[{"type":"text","text":"Sunny, 21 °C"}],"isError":false}"#,
    );
    check(
        &failed(),
        Provider::Mcp,
        r#"{"content":[{"type":"text","text":"get_weather failed: timeout after 5 s"}],"isError":true}"#,
    );
}

#[test]
fn a_call_without_an_id_gets_a_block_without_one() {
    check(
        &dispatched(None),
        Provider::Anthropic,
        r#"{"type":"tool_result","content":"Sunny, 21 °C"}"#,
    );
    // A rejection whose tool name could not be read: Gemini's block has no name.
    let gate = Gate::new(Vec::new()).unwrap();
    let error = gate.check_call("[1]").unwrap_err();
    let outcome = Outcome::Rejected {
        id: None,
        error,
        first_rejection: None,
    };
    check(
        &outcome,
        Provider::Gemini,
        r#"{"functionResponse":{"response":{"error":"The call is an array, not a JSON object. Send one object: {\"name\": \"<tool>\", \"arguments\": {...}}."}}}"#,
    );
}
