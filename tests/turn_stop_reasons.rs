//! Stop reasons in whole turns: a turn that ended at the model's output limit has its last
//! call cut, even when that call's text parses. Per provider: the cut last call is
//! `truncated_json` with the smaller-call sentence (keeping its id and name), the same turn
//! with a normal stop reason is accepted, and a cut turn whose last element is text keeps
//! every call's verdict.
#![cfg(feature = "turns")]

use toolgate::{Gate, Turn};

const TOOLS: &str = r#"[
  {"name": "get_weather", "description": "Current weather for a city.",
   "input_schema": {"type": "object",
     "properties": {"city": {"type": "string", "minLength": 1},
                    "units": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
     "required": ["city"], "additionalProperties": false}}
]"#;

fn gate() -> Gate {
    Gate::from_tools_json(TOOLS).expect("the test's tools load")
}

/// One line per call: `ok ID` or `KIND ID: TEXT`.
fn verdicts(turn: &Turn<'_>) -> Vec<String> {
    let id = |id: Option<&str>| id.unwrap_or("-").to_owned();
    turn.calls
        .iter()
        .map(|call| match &call.verdict {
            Ok(call) => format!("ok {}", id(call.id.as_deref())),
            Err(rejection) => format!(
                "{} {}: {rejection}",
                rejection.kind().label(),
                id(rejection.id())
            ),
        })
        .collect()
}

/// Reads `raw` as a turn and compares its calls' verdicts with `expected`.
fn check(raw: &str, expected: &[&str]) {
    let turn = gate()
        .check_turn(raw)
        .unwrap_or_else(|error| panic!("the turn was not read: {error}\n{raw}"));
    assert_eq!(verdicts(&turn), expected, "{raw}");
}

/// The sentence a call cut after `n` bytes of an object reads.
fn cut(id: &str, n: usize) -> String {
    format!(
        "truncated_json {id}: The arguments of get_weather were cut off after {n} bytes, inside \
         an object. Do not send the same call again: make it smaller, with fewer or shorter \
         items."
    )
}

const MISSING_CITY: &str = "get_weather rejected: missing required field 'city'.";

fn openai(finish_reason: &str) -> String {
    format!(
        r#"{{"id":"chatcmpl-1","object":"chat.completion","created":1718000000,"model":"gpt-4o",
            "choices":[{{"index":0,"finish_reason":"{finish_reason}","logprobs":null,
            "message":{{"role":"assistant","content":null,"refusal":null,"tool_calls":[
              {{"id":"call_A","type":"function","function":{{"name":"get_weather","arguments":"{{\"city\":\"Oslo\"}}"}}}},
              {{"id":"call_B","type":"function","function":{{"name":"get_weather","arguments":"{{\"city\": \"Rome\"}}"}}}}]}}}}],
            "usage":null}}"#
    )
}

#[test]
fn openai_length_cuts_the_last_call_even_when_it_parses() {
    // `{"city": "Rome"}` is 16 bytes as sent, 15 as compact JSON: the count is the latter.
    check(&openai("length"), &["ok call_A", &cut("call_B", 15)]);
    check(&openai("tool_calls"), &["ok call_A", "ok call_B"]);
    // One choice alone carries its finish reason too.
    check(
        r#"{"finish_reason":"length","index":0,"message":{"role":"assistant","content":"Sure.",
            "tool_calls":[{"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}}"#,
        &[&cut("call_A", 2)],
    );
}

#[test]
fn openai_length_keeps_a_refusal_the_cut_does_not_explain() {
    // An unknown name and malformed JSON were wrong before the cut: their verdicts stand.
    check(
        r#"{"choices":[{"index":0,"finish_reason":"length","message":{"role":"assistant","tool_calls":[
            {"id":"call_A","type":"function","function":{"name":"get_wether","arguments":"{}"}}]}}]}"#,
        &["unknown_tool call_A: No tool named 'get_wether'. Did you mean: get_weather? The tools are: get_weather."],
    );
    check(
        r#"{"choices":[{"index":0,"finish_reason":"length","message":{"role":"assistant","tool_calls":[
            {"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\""}}]}}]}"#,
        &["truncated_json call_A: The arguments of get_weather were cut off after 14 bytes, inside an object. Do not send the same call again: make it smaller, with fewer or shorter items."],
    );
}

fn anthropic(stop_reason: &str, last: &str) -> String {
    format!(
        r#"{{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-20250514",
            "content":[{{"type":"text","text":"Checking.","citations":null}},
              {{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{{"city":"Oslo"}}}},
              {{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{{}}}}{last}],
            "stop_reason":"{stop_reason}","stop_sequence":null,"usage":{{"input_tokens":10,"output_tokens":90}}}}"#
    )
}

#[test]
fn anthropic_max_tokens_cuts_a_last_tool_use() {
    // The API sends `{}` for a cut tool_use input: "missing city" would mislead the model.
    check(
        &anthropic("max_tokens", ""),
        &["ok toolu_1", &cut("toolu_2", 2)],
    );
    check(
        &anthropic("model_context_window_exceeded", ""),
        &["ok toolu_1", &cut("toolu_2", 2)],
    );
    check(
        &anthropic("tool_use", ""),
        &[
            "ok toolu_1",
            &format!("schema_violation toolu_2: {MISSING_CITY}"),
        ],
    );
}

#[test]
fn anthropic_max_tokens_after_text_changes_no_call() {
    let text = r#",{"type":"text","text":"And then","citations":null}"#;
    check(
        &anthropic("max_tokens", text),
        &[
            "ok toolu_1",
            &format!("schema_violation toolu_2: {MISSING_CITY}"),
        ],
    );
}

fn responses(status: &str, details: &str, last: &str) -> String {
    format!(
        r#"{{"id":"resp_01","object":"response","created_at":1718000000.0,"status":"{status}",
            "error":null,"incomplete_details":{details},"model":"gpt-4.1",
            "output":[{{"id":"rs_01","type":"reasoning","summary":[]}},
              {{"arguments":"{{\"city\":\"Oslo\",\"units\":\"celsius\"}}","call_id":"call_A","name":"get_weather",
               "type":"function_call","id":"fc_01","status":"completed"}}{last}],
            "usage":null}}"#
    )
}

#[test]
fn responses_incomplete_at_max_output_tokens_cuts_a_last_function_call() {
    let limit = r#"{"reason":"max_output_tokens"}"#;
    check(&responses("incomplete", limit, ""), &[&cut("call_A", 33)]);
    check(&responses("completed", "null", ""), &["ok call_A"]);
    // Incomplete for another reason: not a cut at the output limit.
    let filter = r#"{"reason":"content_filter"}"#;
    check(&responses("incomplete", filter, ""), &["ok call_A"]);
    let message = r#",{"id":"msg_01","type":"message","role":"assistant","status":"incomplete",
        "content":[{"type":"output_text","text":"And","annotations":[]}]}"#;
    check(&responses("incomplete", limit, message), &["ok call_A"]);
}

fn gemini(finish: &str, last: &str) -> String {
    format!(
        r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"text":"Checking."}},
            {{"functionCall":{{"name":"get_weather","args":{{"city":"Oslo"}}}}}}{last}]}},
            "finishReason":"{finish}","index":0}}],"modelVersion":"gemini-2.5-flash"}}"#
    )
}

#[test]
fn gemini_max_tokens_cuts_a_last_function_call() {
    check(&gemini("MAX_TOKENS", ""), &[&cut("-", 15)]);
    check(&gemini("STOP", ""), &["ok -"]);
    check(&gemini("MAX_TOKENS", r#",{"text":"More"}"#), &["ok -"]);
}

#[test]
fn google_genai_dumps_say_max_tokens_either_way() {
    // `Candidate.model_dump()` in snake case; the enum as its value or as `str()` gives it.
    for reason in ["MAX_TOKENS", "FinishReason.MAX_TOKENS"] {
        let raw = format!(
            r#"{{"content":{{"parts":[{{"function_call":{{"id":null,"args":{{"city":"Oslo"}},"name":"get_weather"}},
                "text":null,"thought":null}}],"role":"model"}},"citation_metadata":null,
                "finish_message":null,"token_count":null,"finish_reason":"{reason}","index":0}}"#
        );
        check(&raw, &[&cut("-", 15)]);
    }
}
