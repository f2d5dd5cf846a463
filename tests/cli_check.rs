//! `toolgate check`: the output contract other programs read (one JSON object per non-blank
//! line, in order, with `line`, `ok`, `kind`, `tool`, `path`, `id`, `error`), the exit
//! status, standard input, blank lines, lines that are not UTF-8 or far too long, the
//! `--summary` table, and the errors for tools files that cannot be used.
#![cfg(all(
    feature = "pattern",
    feature = "format",
    feature = "turns",
    feature = "stream",
    feature = "mcp"
))]

mod support;

use support::cli::{file, toolgate};
use toolgate::json;
use toolgate::Gate;

const TOOLS: &str = r#"[
  {"name": "get_weather", "description": "Current weather for a city.",
   "input_schema": {"type": "object",
     "properties": {"city": {"type": "string", "minLength": 1},
                    "units": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
     "required": ["city"], "additionalProperties": false}},
  {"name": "search_orders", "description": "Search a customer's orders.",
   "input_schema": {"type": "object",
     "properties": {"customer_id": {"type": "string"},
                    "filters": {"type": "object",
                                "properties": {"since": {"type": "string"}},
                                "additionalProperties": false},
                    "tags": {"type": "array", "items": {"type": "string"}}},
     "required": ["customer_id"], "additionalProperties": false}}
]"#;

fn tools() -> String {
    file("cli_check_tools.json", TOOLS.as_bytes())
}

/// Runs `check` over `calls` on standard input and compares exit code and whole stdout.
fn check(calls: &str, expected_code: i32, expected_stdout: &str) {
    let tools = tools();
    let (code, stdout, stderr) = toolgate(&["check", "--tools", &tools], calls.as_bytes());
    assert_eq!(stdout, expected_stdout, "stderr: {stderr}");
    assert_eq!(code, expected_code, "stderr: {stderr}");
    assert_eq!(stderr, "");
}

/// The line `check` must print for a rejected `raw` call at `line`, built from the
/// library's own rejection (its text is the gate's, tested by the gate's tests; here the
/// point is the encoding).
fn rejected_line(line: usize, raw: &str) -> String {
    let gate = Gate::from_tools_json(TOOLS).expect("the test's tools load");
    let rejection = gate
        .check_call(raw)
        .expect_err("the test's call is refused");
    let mut out = format!(
        "{{\"line\":{line},\"ok\":false,\"kind\":\"{}\"",
        rejection.kind().label()
    );
    let fields = [
        ("tool", rejection.tool()),
        ("path", rejection.path()),
        ("id", rejection.id()),
    ];
    for (name, value) in fields {
        if let Some(value) = value {
            out.push_str(&format!(",\"{name}\":"));
            json::write_escaped_str(&mut out, value).expect("a String takes any text");
        }
    }
    out.push_str(",\"error\":");
    json::write_escaped_str(&mut out, &rejection.to_string()).expect("a String takes any text");
    out.push_str("}\n");
    out
}

#[test]
fn accepted_calls_print_line_tool_and_id() {
    check(
        concat!(
            r#"{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}"#,
            "\n\n",
            r#"{"name":"get_weather","arguments":{"city":"Oslo","units":"celsius"}}"#,
            "\n",
            r#"{"id":"call_9","type":"function","function":{"name":"search_orders","arguments":"{\"customer_id\":\"C-1\"}"}}"#,
            "\n"
        ),
        0,
        concat!(
            "{\"line\":1,\"ok\":true,\"tool\":\"get_weather\",\"id\":\"toolu_1\"}\n",
            "{\"line\":3,\"ok\":true,\"tool\":\"get_weather\"}\n",
            "{\"line\":4,\"ok\":true,\"tool\":\"search_orders\",\"id\":\"call_9\"}\n",
        ),
    );
}

#[test]
fn every_rejection_kind_prints_its_fields() {
    let raws = [
        r#"{"name":"serch_orders","arguments":{"customer_id":"C-1"}}"#,
        r#"{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Paris","units":"kelvin"}}"#,
        r#"{"name":"search_orders","arguments":{"customer_id":"C-1","tags":["a",7]}}"#,
        r#"{"name":"search_orders","arguments":{"customer_id":"C-1","filters":{"snice":"x"}}}"#,
        r#"{"name":"get_weather","arguments":{}}"#,
        r#"{"id":"call_3","type":"function","function":{"name":"get_weather","arguments":"[1]"}}"#,
        r#"{"name":"get_weather","arguments":{"city":"Par"#,
        r#"{"name":"get_weather",,"arguments":{}}"#,
        r#"{"tool":"get_weather","args":{}}"#,
    ];
    let calls: String = raws.iter().map(|raw| format!("{raw}\n")).collect();
    let expected: String = raws
        .iter()
        .enumerate()
        .map(|(idx, raw)| rejected_line(idx + 1, raw))
        .collect();
    check(&calls, 1, &expected);
    // The contract's fields, checked by hand on the parsed output.
    let kinds: Vec<String> = expected
        .lines()
        .map(|line| {
            let value = json::parse(line).expect("each output line is JSON");
            let kind = value.get("kind").and_then(|k| k.as_str()).unwrap_or("");
            let path = value.get("path").and_then(|p| p.as_str());
            let tool = value.get("tool").and_then(|t| t.as_str());
            format!("{kind} {} {}", tool.unwrap_or("-"), path.unwrap_or("-"))
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "unknown_tool serch_orders -",
            "schema_violation get_weather units",
            "schema_violation search_orders tags.1",
            "schema_violation search_orders filters",
            "schema_violation get_weather ",
            "arguments_not_object get_weather -",
            "truncated_json get_weather -",
            "malformed_json get_weather -",
            "bad_envelope - -",
        ]
    );
    assert!(expected.contains("\"id\":\"toolu_2\""));
    assert!(expected.contains("\"id\":\"call_3\""));
}

#[test]
fn standard_input_a_dash_and_a_file_give_the_same_output() {
    let calls = concat!(
        r#"{"name":"get_weather","arguments":{"city":"Oslo"}}"#,
        "\n",
        r#"{"name":"get_wether","arguments":{"city":"Oslo"}}"#,
        "\n"
    );
    let tools = tools();
    let path = file("cli_check_same.jsonl", calls.as_bytes());
    let from_stdin = toolgate(&["check", "--tools", &tools], calls.as_bytes());
    let from_dash = toolgate(&["check", "--tools", &tools, "-"], calls.as_bytes());
    let from_file = toolgate(&["check", "--tools", &tools, &path], b"");
    assert_eq!(from_stdin.0, 1);
    assert_eq!(from_stdin, from_dash);
    assert_eq!(from_stdin, from_file);
}

#[test]
fn an_empty_input_prints_nothing_and_succeeds() {
    check("", 0, "");
    check("\n  \n\t\r\n", 0, "");
}

#[test]
fn crlf_line_ends_and_a_missing_last_newline_are_read() {
    check(
        concat!(
            r#"{"name":"get_weather","arguments":{"city":"Oslo"}}"#,
            "\r\n\r\n",
            r#"{"name":"get_weather","arguments":{"city":"Rome"}}"#
        ),
        0,
        concat!(
            "{\"line\":1,\"ok\":true,\"tool\":\"get_weather\"}\n",
            "{\"line\":3,\"ok\":true,\"tool\":\"get_weather\"}\n",
        ),
    );
}

#[test]
fn a_line_that_is_not_utf8_is_a_rejected_call() {
    let mut calls = b"{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Par\xffis\"}}\n".to_vec();
    calls.extend_from_slice(b"{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}\n");
    let tools = tools();
    let (code, stdout, stderr) = toolgate(&["check", "--tools", &tools], &calls);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        "{\"line\":1,\"ok\":false,\"kind\":\"malformed_json\",\"error\":\"The call is not valid \
         JSON: invalid UTF-8 at byte 46 (line 1, column 47). Send the call again as one valid \
         JSON object.\"}\n\
         {\"line\":2,\"ok\":true,\"tool\":\"get_weather\"}\n"
    );
}

#[test]
fn a_line_far_over_the_size_limit_is_measured_not_read() {
    let huge = format!(
        "{{\"name\":\"get_weather\",\"arguments\":{{\"city\":\"{}\"}}}}",
        "x".repeat(3 << 20)
    );
    let calls = format!(
        "{huge}\n{}\n",
        r#"{"name":"get_weather","arguments":{"city":"Oslo"}}"#
    );
    let tools = tools();
    let (code, stdout, stderr) = toolgate(&["check", "--tools", &tools], calls.as_bytes());
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "{{\"line\":1,\"ok\":false,\"kind\":\"malformed_json\",\"error\":\"The call cannot \
             be read: the input is {} bytes, more than the limit of 1048576. Send a smaller \
             call, with fewer or shorter items and less nesting.\"}}\n\
             {{\"line\":2,\"ok\":true,\"tool\":\"get_weather\"}}\n",
            huge.len()
        )
    );
}

#[test]
fn a_line_just_over_the_size_limit_gets_the_gates_own_answer() {
    let padding = "x".repeat((1 << 20) + 10);
    let raw = format!("{{\"name\":\"get_weather\",\"arguments\":{{\"city\":\"{padding}\"}}}}");
    check(&format!("{raw}\n"), 1, &rejected_line(1, &raw));
}

#[test]
fn summary_prints_the_table_on_stderr() {
    let calls = concat!(
        r#"{"name":"get_weather","arguments":{"city":"Oslo"}}"#,
        "\n",
        r#"{"name":"get_weather","arguments":{"city":"Rome"}}"#,
        "\n\n",
        r#"{"name":"get_wether","arguments":{"city":"Oslo"}}"#,
        "\n",
        r#"{"name":"get_weather","arguments":{"city":""}}"#,
        "\n"
    );
    let tools = tools();
    let (code, stdout, stderr) =
        toolgate(&["check", "--tools", &tools, "--summary"], calls.as_bytes());
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().count(), 4);
    assert_eq!(
        stderr,
        "                           count      rate
calls                          4
accepted                       2   50.00 %
malformed_json                 0    0.00 %
truncated_json                 0    0.00 %
bad_envelope                   0    0.00 %
unknown_tool                   1   25.00 %
arguments_not_object           0    0.00 %
schema_violation               1   25.00 %
(1 blank line skipped)
"
    );
}

#[test]
fn summary_of_an_empty_input_has_no_rates() {
    let tools = tools();
    let (code, stdout, stderr) = toolgate(&["check", "--tools", &tools, "--summary"], b"");
    assert_eq!((code, stdout.as_str()), (0, ""));
    assert!(
        stderr.contains("\naccepted                       0         -\n"),
        "{stderr}"
    );
}

#[test]
fn a_missing_tools_file_is_exit_2_naming_the_file() {
    let (code, stdout, stderr) = toolgate(&["check", "--tools", "no-such-tools.json"], b"");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "toolgate check: cannot read tools file 'no-such-tools.json': No such file or \
         directory (os error 2)\n"
    );
}

#[test]
fn a_missing_calls_file_is_exit_2_naming_the_file() {
    let tools = tools();
    let (code, stdout, stderr) = toolgate(&["check", "--tools", &tools, "no-such.jsonl"], b"");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "toolgate check: cannot read calls file 'no-such.jsonl': No such file or directory \
         (os error 2)\n"
    );
}

#[test]
fn invalid_tools_json_is_exit_2_with_its_position() {
    let path = file(
        "cli_check_broken.json",
        b"[\n  {\"name\": \"get_weather\",}\n]\n",
    );
    let (code, stdout, stderr) = toolgate(&["check", "--tools", &path], b"");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with(&format!("toolgate check: invalid tools file '{path}': ")),
        "{stderr}"
    );
    assert_eq!(
        stderr,
        format!(
            "toolgate check: invalid tools file '{path}': not valid JSON: expected a string key \
             after ',' at line 2, column 26, found '}}'\n"
        )
    );
}

#[test]
fn an_unsupported_schema_keyword_is_exit_2_naming_it_and_the_tool() {
    let path = file(
        "cli_check_pattern.json",
        br#"[{"name": "get_weather", "description": "Weather.",
             "input_schema": {"type": "object",
               "properties": {"city": {"type": "string", "pattern": "^(?=[A-Z])"}}}}]"#,
    );
    let (code, stdout, stderr) = toolgate(&["check", "--tools", &path], b"");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with(&format!("toolgate check: invalid tools file '{path}': ")),
        "{stderr}"
    );
    assert!(stderr.contains("pattern"), "{stderr}");
    assert!(stderr.contains("city"), "{stderr}");
}

#[test]
fn a_tools_file_that_is_not_utf8_is_exit_2_with_the_byte() {
    let path = file("cli_check_latin1.json", b"[{\"name\": \"caf\xe9\"}]");
    let (code, _, stderr) = toolgate(&["check", "--tools", &path], b"");
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        format!("toolgate check: invalid tools file '{path}': invalid UTF-8 at byte 14\n")
    );
}

#[test]
fn rejected_lines_in_full() {
    // The texts are the gate's; this test pins what `check` prints around them.
    check(
        concat!(
            r#"{"name":"search_orders","arguments":{"customer_id":"C-1","filters":{"snice":"x"}}}"#,
            "\n",
            r#"{"name":"get_weather","arguments":{"city":"Par"#,
            "\n",
            r#"{"name":"serch_orders","arguments":{"customer_id":"C-1"}}"#,
            "\n",
            r#"{"name":"get_weather","arguments":{}}"#,
            "\n",
            r#"{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Paris","units":"kelvin"}}"#,
            "\n",
        ),
        1,
        concat!(
            r#"{"line":1,"ok":false,"kind":"schema_violation","tool":"search_orders","path":"filters","error":"search_orders rejected: filters has unknown field 'snice'; allowed fields: since."}"#,
            "\n",
            r#"{"line":2,"ok":false,"kind":"truncated_json","tool":"get_weather","error":"The call to get_weather was cut off after 46 bytes, inside a string. Do not send the same call again: make it smaller, with fewer or shorter items."}"#,
            "\n",
            r#"{"line":3,"ok":false,"kind":"unknown_tool","tool":"serch_orders","error":"No tool named 'serch_orders'. Did you mean: search_orders? The tools are: get_weather, search_orders."}"#,
            "\n",
            r#"{"line":4,"ok":false,"kind":"schema_violation","tool":"get_weather","path":"","error":"get_weather rejected: missing required field 'city'."}"#,
            "\n",
            r#"{"line":5,"ok":false,"kind":"schema_violation","tool":"get_weather","path":"units","id":"toolu_2","error":"get_weather rejected: units must be one of \"celsius\", \"fahrenheit\"; received \"kelvin\"."}"#,
            "\n",
        ),
    );
}

/// `--no-format-checks`: every `format` is an annotation (draft 2020-12's default), so a
/// value refused for its format alone is accepted, and nothing else changes.
#[test]
fn no_format_checks_reads_every_format_as_an_annotation() {
    let tools = file(
        "cli_check_format_tools.json",
        br#"[{"name": "mail", "description": "Send.", "input_schema": {"type": "object",
             "properties": {"to": {"type": "string", "format": "email", "maxLength": 24}},
             "required": ["to"], "additionalProperties": false}}]"#,
    );
    let calls = concat!(
        r#"{"name":"mail","arguments":{"to":"bob at example dot com"}}"#,
        "\n",
        r#"{"name":"mail","arguments":{"to":"far too long to be an address"}}"#,
        "\n",
    );
    let (code, stdout, _) = toolgate(&["check", "--tools", &tools], calls.as_bytes());
    assert_eq!(code, 1);
    let first = stdout.lines().next().unwrap_or_default();
    assert!(first.contains(r#""kind":"schema_violation""#), "{stdout}");
    assert!(first.contains("must be an email address"), "{stdout}");
    let (code, stdout, stderr) = toolgate(
        &["check", "--tools", &tools, "--no-format-checks"],
        calls.as_bytes(),
    );
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.first(),
        Some(&r#"{"line":1,"ok":true,"tool":"mail"}"#),
        "{stdout}"
    );
    // `maxLength` is still a rule.
    assert!(
        lines.get(1).is_some_and(|l| l.contains("at most 24")),
        "{stdout}"
    );
}
