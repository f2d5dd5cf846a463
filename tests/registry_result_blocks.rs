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
}

/// Gemini's block for the rejection of `raw` by a gate holding only `get_weather`.
fn gemini_rejection_block(raw: &str) -> String {
    let spec = ToolSpec::new("get_weather", "Weather.")
        .required("city", Type::string())
        .build()
        .unwrap();
    let gate = Gate::new(vec![spec]).unwrap();
    let rejection = gate.check_call(raw).unwrap_err();
    // The block before the retry and the block of the final outcome agree.
    let outcome = Outcome::Rejected {
        id: rejection.id().map(String::from),
        error: rejection.clone(),
        first_rejection: None,
    };
    let block = rejection.result_block(Provider::Gemini).to_string();
    assert_eq!(block, result_block(&outcome, Provider::Gemini).to_string());
    block
}

#[test]
fn gemini_always_names_the_function_it_answers() {
    // Gemini requires functionResponse.name. No name could be read: the placeholder.
    assert_eq!(
        gemini_rejection_block("[1]"),
        r#"{"functionResponse":{"name":"unknown","response":{"error":"The call is an array, not a JSON object. Send one object: {\"name\": \"<tool>\", \"arguments\": {...}}."}}}"#
    );
    assert_eq!(toolgate::result_block::GEMINI_UNKNOWN_NAME, "unknown");
}

#[test]
fn gemini_answers_an_unknown_tool_by_the_name_the_model_wrote() {
    let block =
        gemini_rejection_block(r#"{"functionCall":{"name":"get_wether","args":{},"id":"g7"}}"#);
    assert!(
        block.starts_with(r#"{"functionResponse":{"name":"get_wether","id":"g7","response":{"error":"No tool named 'get_wether'."#),
        "{block}"
    );
}

#[test]
fn gemini_answers_a_cut_off_call_by_the_name_read_before_the_cut() {
    let block =
        gemini_rejection_block(r#"{"functionCall":{"name":"get_weather","args":{"city":"Os"#);
    assert!(
        block.starts_with(r#"{"functionResponse":{"name":"get_weather","response":{"error":"#),
        "{block}"
    );
}

#[test]
fn a_name_gemini_would_refuse_becomes_the_placeholder() {
    let long = "a".repeat(65);
    let longest = "a".repeat(64);
    for (name, expect) in [
        ("", "unknown"),
        ("get weather", "unknown"),
        ("get_weather!", "unknown"),
        ("7_tools", "unknown"),
        ("météo", "unknown"),
        (long.as_str(), "unknown"),
        (longest.as_str(), longest.as_str()),
        ("_private.v2:get-weather", "_private.v2:get-weather"),
    ] {
        let raw = format!(r#"{{"functionCall":{{"name":"{name}","args":{{}}}}}}"#);
        let block = gemini_rejection_block(&raw);
        let prefix = format!(r#"{{"functionResponse":{{"name":"{expect}","response":{{"error":"#);
        assert!(block.starts_with(&prefix), "{name:?}: {block}");
    }
}

#[test]
fn gemini_names_follow_the_documented_rule() {
    use toolgate::result_block::is_gemini_name;
    for name in ["a", "_", "get_weather", "A.b:c-d_9", &"x".repeat(64)] {
        assert!(is_gemini_name(name), "{name}");
    }
    for name in ["", "9a", "-a", ".a", "a b", "a/b", "añ", &"x".repeat(65)] {
        assert!(!is_gemini_name(name), "{name}");
    }
}
