//! `toolgate schema --tools TOOLS.json --to PROVIDER`: converts declarations from any form
//! into one provider's form as pretty JSON; every plain form reads back to the same tools;
//! a strict form a tool cannot take is said on standard error; a keyword toolgate cannot
//! enforce, or a missing file, is exit 2 with a message naming the file.
#![cfg(all(
    feature = "pattern",
    feature = "format",
    feature = "turns",
    feature = "stream",
    feature = "mcp"
))]

mod support;

use support::cli;
use support::cli::file;

/// Runs `toolgate ARGS` with nothing on standard input.
fn toolgate(args: &[&str]) -> (i32, String, String) {
    cli::toolgate(args, "")
}

/// One tool in OpenAI chat form: the command converts from it.
const WEATHER_OPENAI: &str = r#"[{"type": "function", "function": {
  "name": "get_weather", "description": "Current weather for a city.",
  "parameters": {"type": "object",
    "properties": {"city": {"type": "string", "minLength": 1},
                   "units": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
    "required": ["city"], "additionalProperties": false}}}]"#;

/// A tool strict mode can take: every field required, no length rules.
const TIME_ANTHROPIC: &str = r#"[{"name": "get_time", "description": "The time now.",
  "input_schema": {"type": "object", "properties": {"tz": {"type": "string"}},
                   "required": ["tz"], "additionalProperties": false}}]"#;

/// Converts `tools` to `provider` and compares exit 0, empty stderr and the whole stdout.
fn check(tools: &str, provider: &str, expected: &str) {
    let (code, stdout, stderr) = toolgate(&["schema", "--tools", tools, "--to", provider]);
    assert_eq!((code, stderr.as_str()), (0, ""), "{provider}");
    assert_eq!(stdout, expected, "{provider}");
}

#[test]
fn openai_declarations_convert_to_anthropic() {
    let tools = file("cli_schema_weather_openai.json", WEATHER_OPENAI);
    check(
        &tools,
        "anthropic",
        r#"[
  {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "input_schema": {
      "type": "object",
      "properties": {
        "city": {
          "type": "string",
          "minLength": 1
        },
        "units": {
          "type": "string",
          "enum": [
            "celsius",
            "fahrenheit"
          ]
        }
      },
      "required": [
        "city"
      ],
      "additionalProperties": false
    }
  }
]
"#,
    );
}

#[test]
fn a_strict_tool_converts_to_openai_strict() {
    let tools = file("cli_schema_time.json", TIME_ANTHROPIC);
    check(
        &tools,
        "openai-strict",
        r#"[
  {
    "type": "function",
    "function": {
      "name": "get_time",
      "description": "The time now.",
      "parameters": {
        "type": "object",
        "properties": {
          "tz": {
            "type": "string"
          }
        },
        "required": [
          "tz"
        ],
        "additionalProperties": false
      },
      "strict": true
    }
  }
]
"#,
    );
}

#[test]
fn every_plain_form_reads_back_to_the_same_tools() {
    let original = file("cli_schema_roundtrip.json", WEATHER_OPENAI);
    let (_, anthropic, _) = toolgate(&["schema", "--tools", &original, "--to", "anthropic"]);
    for provider in ["anthropic", "openai", "responses", "gemini", "mcp"] {
        let (code, converted, stderr) =
            toolgate(&["schema", "--tools", &original, "--to", provider]);
        assert_eq!((code, stderr.as_str()), (0, ""), "{provider}");
        let again = file(&format!("cli_schema_roundtrip_{provider}.json"), &converted);
        let (code, back, stderr) = toolgate(&["schema", "--tools", &again, "--to", "anthropic"]);
        assert_eq!((code, stderr.as_str()), (0, ""), "{provider}");
        assert_eq!(
            back, anthropic,
            "{provider} does not read back to the same tools"
        );
    }
}

#[test]
fn a_strict_form_the_tool_cannot_take_is_said_on_stderr() {
    let tools = file("cli_schema_weather_strict.json", WEATHER_OPENAI);
    for provider in ["openai-strict", "responses-strict"] {
        let (code, stdout, stderr) = toolgate(&["schema", "--tools", &tools, "--to", provider]);
        assert_eq!(code, 0, "{provider}");
        assert!(stdout.contains("\"strict\": false"), "{provider}: {stdout}");
        assert_eq!(
            stderr,
            "toolgate schema: note: exported with \"strict\": false: get_weather: city has no \
             OpenAI strict form: 'minLength', which strict mode does not support\n",
            "{provider}"
        );
    }
}

#[test]
fn an_unsupported_keyword_is_exit_2_naming_it_and_where() {
    let tools = file(
        "cli_schema_pattern.json",
        r#"[{"name": "ship", "description": "Ship to a postcode.",
             "input_schema": {"type": "object",
               "properties": {"zip": {"type": "string", "pattern": "^(?=[0-9]{5}$)"}}}}]"#,
    );
    let (code, stdout, stderr) = toolgate(&["schema", "--tools", &tools, "--to", "mcp"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        format!(
            "toolgate schema: invalid tools file '{tools}': \
             tools[0].input_schema.properties.zip: pattern \"^(?=[0-9]{{5}}$)\" is refused: lookahead (?=...) at character 1 is not supported: it cannot be checked in linear time\n"
        )
    );
}

#[test]
fn a_missing_tools_file_is_exit_2_naming_it() {
    let (code, stdout, stderr) = toolgate(&["schema", "--tools", "nowhere.json", "--to", "mcp"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "toolgate schema: cannot read tools file 'nowhere.json': No such file or directory \
         (os error 2)\n"
    );
}
