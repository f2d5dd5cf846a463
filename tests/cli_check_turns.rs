//! `toolgate check` on lines that hold whole assistant turns: one verdict per call, in call
//! order, with `"call"` (the index in the turn) after `"line"` and the same fields as a
//! line of one call; lines of one call print as before, beside them; `--summary` counts
//! calls, not lines, and notes turns without calls.
#![cfg(all(
    feature = "pattern",
    feature = "format",
    feature = "turns",
    feature = "stream",
    feature = "mcp"
))]

mod support;

use support::cli::{self, file};

const TOOLS: &str = r#"[
  {"name": "get_weather", "description": "Current weather for a city.",
   "input_schema": {"type": "object",
     "properties": {"city": {"type": "string", "minLength": 1}},
     "required": ["city"], "additionalProperties": false}}
]"#;

/// Runs `toolgate check --tools TOOLS [extra]` on `stdin`: (exit code, stdout, stderr).
fn toolgate(extra: &[&str], stdin: &str) -> (i32, String, String) {
    let tools = file("cli_check_turns_tools.json", TOOLS);
    let mut args = vec!["check", "--tools", &tools];
    args.extend_from_slice(extra);
    cli::toolgate(&args, stdin)
}

fn check(stdin: &str, expected_code: i32, expected_stdout: &str) {
    let (code, stdout, stderr) = toolgate(&[], stdin);
    assert_eq!(stdout, expected_stdout, "stderr: {stderr}");
    assert_eq!(code, expected_code, "stderr: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn a_turn_line_prints_one_verdict_per_call_with_its_index() {
    check(
        concat!(
            r#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}},{"id":"call_B","type":"function","function":{"name":"get_wether","arguments":"{}"}},{"id":"call_C","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Ro"}}]}"#,
            "\n",
            r#"{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}"#,
            "\n",
            r#"{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"Hm."},{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":""}}]}"#,
            "\n",
        ),
        1,
        concat!(
            r#"{"line":1,"call":0,"ok":true,"tool":"get_weather","id":"call_A"}"#,
            "\n",
            r#"{"line":1,"call":1,"ok":false,"kind":"unknown_tool","tool":"get_wether","id":"call_B","error":"No tool named 'get_wether'. Did you mean: get_weather? The tools are: get_weather."}"#,
            "\n",
            r#"{"line":1,"call":2,"ok":false,"kind":"truncated_json","tool":"get_weather","id":"call_C","error":"The arguments of get_weather were cut off after 11 bytes, inside a string. Do not send the same call again: make it smaller, with fewer or shorter items."}"#,
            "\n",
            r#"{"line":2,"ok":true,"tool":"get_weather","id":"toolu_1"}"#,
            "\n",
            r#"{"line":3,"call":0,"ok":false,"kind":"schema_violation","tool":"get_weather","path":"city","id":"toolu_2","error":"get_weather rejected: city must be at least 1 character long; received \"\"."}"#,
            "\n",
        ),
    );
}

#[test]
fn every_form_is_read_on_the_command_line() {
    for line in [
        r#"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}}]}"#,
        r#"[{"type":"tool_use","id":"c1","name":"get_weather","input":{"city":"Oslo"}}]"#,
        r#"{"id":"resp_1","object":"response","output":[{"type":"reasoning","id":"rs_1","summary":[]},{"type":"function_call","id":"fc_1","call_id":"c1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}]}"#,
        r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"get_weather","args":{"city":"Oslo"}}}]}}]}"#,
        r#"{"role":"model","parts":[{"function_call":{"id":"c1","name":"get_weather","args":{"city":"Oslo"}},"text":null}]}"#,
    ] {
        check(
            &format!("{line}\n"),
            0,
            "{\"line\":1,\"call\":0,\"ok\":true,\"tool\":\"get_weather\",\"id\":\"c1\"}\n",
        );
    }
}

#[test]
fn a_line_that_is_no_call_and_no_turn_keeps_its_one_verdict() {
    // No name and no turn form: the call's own bad_envelope line, as before.
    check(
        "{\"tool\":\"get_weather\",\"args\":{}}\n",
        1,
        "{\"line\":1,\"ok\":false,\"kind\":\"bad_envelope\",\"error\":\"The call has no \
         \\\"name\\\", so no tool can be chosen. Send one object: {\\\"name\\\": \
         \\\"<tool>\\\", \\\"arguments\\\": {...}}.\"}\n",
    );
}

#[test]
fn a_turn_without_calls_prints_nothing_and_summary_counts_calls() {
    let stdin = concat!(
        r#"{"role":"assistant","content":"Sunny.","tool_calls":null}"#,
        "\n",
        r#"[{"name":"get_weather","arguments":{"city":"Oslo"}},{"name":"get_weather","arguments":{}},{"name":"get_weather","arguments":{"city":"Rome"}}]"#,
        "\n\n",
        r#"{"name":"get_weather","arguments":{"city":"Bern"}}"#,
        "\n",
    );
    let (code, stdout, stderr) = toolgate(&["--summary"], stdin);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    assert_eq!(
        stderr,
        "                           count      rate
calls                          4
accepted                       3   75.00 %
malformed_json                 0    0.00 %
truncated_json                 0    0.00 %
bad_envelope                   0    0.00 %
unknown_tool                   0    0.00 %
arguments_not_object           0    0.00 %
schema_violation               1   25.00 %
(1 blank line skipped)
(1 turn without calls)
"
    );
}
