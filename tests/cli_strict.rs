//! The command line on issue #11: `toolgate schema` closes open objects for the strict forms
//! and names each on standard error (`--no-close` refuses instead), refuses a tool name the
//! provider would reject (`--map-names` maps it), and `--lenient` on `check` and `schema`
//! loads a keyword toolgate cannot enforce, lists it on standard error and keeps it in the
//! export; `toolgate check` takes a call under a mapped name, and a strict-mode `null`.
#![cfg(all(
    feature = "pattern",
    feature = "format",
    feature = "turns",
    feature = "stream",
    feature = "mcp"
))]

mod support;

use support::cli::{file, toolgate};

/// A tool with open objects: the arguments and `opts` leave `additionalProperties` out.
const OPEN: &str = r#"[{"name": "get_time", "description": "The time now.",
  "input_schema": {"type": "object", "properties": {"tz": {"type": "string"},
     "opts": {"type": "object", "properties": {"h24": {"type": "boolean"}}}},
   "required": ["tz"]}}]"#;

const OPEN_STRICT: &str = r#"[
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
          },
          "opts": {
            "type": [
              "object",
              "null"
            ],
            "properties": {
              "h24": {
                "type": [
                  "boolean",
                  "null"
                ]
              }
            },
            "required": [
              "h24"
            ],
            "additionalProperties": false
          }
        },
        "required": [
          "tz",
          "opts"
        ],
        "additionalProperties": false
      },
      "strict": true
    }
  }
]
"#;

#[test]
fn strict_forms_close_open_objects_and_say_which() {
    let tools = file("cli_strict_open.json", OPEN);
    let (code, stdout, stderr) =
        toolgate(&["schema", "--tools", &tools, "--to", "openai-strict"], "");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, OPEN_STRICT);
    assert_eq!(
        stderr,
        "toolgate schema: note: get_time: strict mode requires \"additionalProperties\": false \
         on every object; closed: the arguments object, opts\n"
    );
    let (code, stdout, stderr) = toolgate(
        &["schema", "--tools", &tools, "--to", "responses-strict"],
        "",
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"strict\": true"), "{stdout}");
    assert!(
        stderr.ends_with("closed: the arguments object, opts\n"),
        "{stderr}"
    );
}

#[test]
fn no_close_refuses_naming_every_open_object() {
    let tools = file("cli_strict_no_close.json", OPEN);
    for provider in ["openai-strict", "responses-strict"] {
        let (code, stdout, stderr) = toolgate(
            &["schema", "--tools", &tools, "--to", provider, "--no-close"],
            "",
        );
        assert_eq!((code, stdout.as_str()), (2, ""), "{provider}");
        assert_eq!(
            stderr,
            "toolgate schema: get_time: strict mode requires \"additionalProperties\": false on \
             every object, and these accept undeclared fields: the arguments object, opts; \
             without --no-close they are closed\n",
            "{provider}"
        );
    }
    // The plain forms have nothing to close.
    let (code, _, stderr) = toolgate(
        &["schema", "--tools", &tools, "--to", "openai", "--no-close"],
        "",
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
}

const DOTTED: &str = r#"[{"name": "github.create_issue", "description": "Open an issue.",
  "inputSchema": {"type": "object", "properties": {"title": {"type": "string"},
     "body": {"type": "string"}},
   "required": ["title"], "additionalProperties": false}}]"#;

#[test]
fn a_name_the_provider_refuses_is_exit_2_unless_mapped() {
    let tools = file("cli_strict_dotted.json", DOTTED);
    let (code, stdout, stderr) = toolgate(&["schema", "--tools", &tools, "--to", "openai"], "");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "toolgate schema: github.create_issue: the openai form refuses this tool name: a name \
         there must be 1 to 64 characters, each a letter, a digit, '_' or '-' (the rule of \
         OpenAI and Anthropic: ^[a-zA-Z0-9_-]{1,64}$); --map-names sends it under a name the \
         form accepts\n"
    );
    let (code, stdout, stderr) = toolgate(
        &[
            "schema",
            "--tools",
            &tools,
            "--to",
            "anthropic",
            "--map-names",
        ],
        "",
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        r#"[
  {
    "name": "github_create_issue",
    "description": "Open an issue.",
    "input_schema": {
      "type": "object",
      "properties": {
        "title": {
          "type": "string"
        },
        "body": {
          "type": "string"
        }
      },
      "required": [
        "title"
      ],
      "additionalProperties": false
    }
  }
]
"#
    );
    assert_eq!(
        stderr,
        "toolgate schema: note: github.create_issue: sent as github_create_issue, a name the \
         provider accepts (the gate takes calls under either)\n"
    );
    // MCP and Gemini take the dot: nothing to map, nothing said.
    for provider in ["mcp", "gemini"] {
        let (code, stdout, stderr) = toolgate(&["schema", "--tools", &tools, "--to", provider], "");
        assert_eq!((code, stderr.as_str()), (0, ""), "{provider}");
        assert!(
            stdout.contains("\"github.create_issue\""),
            "{provider}: {stdout}"
        );
    }
}

#[test]
fn check_takes_mapped_names_and_strict_nulls() {
    let tools = file("cli_strict_check.json", DOTTED);
    let calls = [
        r#"{"id":"call_1","type":"function","function":{"name":"github_create_issue","arguments":"{\"title\":\"Crash\",\"body\":null}"}}"#,
        r#"{"name":"github.create_issue","arguments":{"title":"Crash"}}"#,
        r#"{"name":"github_create_issue","arguments":{"title":null}}"#,
    ]
    .join("\n");
    let (code, stdout, stderr) = toolgate(&["check", "--tools", &tools], &calls);
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(
        stdout,
        "{\"line\":1,\"ok\":true,\"tool\":\"github_create_issue\",\"id\":\"call_1\"}\n\
         {\"line\":2,\"ok\":true,\"tool\":\"github.create_issue\"}\n\
         {\"line\":3,\"ok\":false,\"kind\":\"schema_violation\",\"tool\":\"github_create_issue\",\
         \"path\":\"title\",\"error\":\"github_create_issue rejected: title must be a string; \
         received null.\"}\n"
    );
}

/// `dependencies` (draft-07's, gone from draft 2020-12) is a keyword toolgate does not
/// enforce.
const UNENFORCED: &str = r#"[{"name": "ship", "description": "Ship a parcel.",
  "input_schema": {"type": "object", "properties": {"zip": {"type": "string"},
     "country": {"type": "string"}},
   "dependencies": {"zip": ["country"]}, "additionalProperties": false}}]"#;

#[test]
fn lenient_loads_list_what_is_not_enforced_and_keep_it_in_the_export() {
    let tools = file("cli_strict_lenient.json", UNENFORCED);
    let refused = format!(
        "invalid tools file '{tools}': tools[0].input_schema: 'dependencies' is not enforced\n"
    );
    let note = "note: tools[0].input_schema: 'dependencies' is not enforced\n";
    let call = r#"{"name":"ship","arguments":{"zip":"75001"}}"#;

    let (code, stdout, stderr) = toolgate(&["check", "--tools", &tools], call);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, format!("toolgate check: {refused}"));
    let (code, stdout, stderr) = toolgate(&["check", "--lenient", "--tools", &tools], call);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "{\"line\":1,\"ok\":true,\"tool\":\"ship\"}\n");
    assert_eq!(stderr, format!("toolgate check: {note}"));

    let (code, stdout, stderr) = toolgate(&["schema", "--tools", &tools, "--to", "mcp"], "");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, format!("toolgate schema: {refused}"));
    let (code, stdout, stderr) = toolgate(
        &["schema", "--tools", &tools, "--to", "mcp", "--lenient"],
        "",
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, format!("toolgate schema: {note}"));
    assert!(
        stdout.contains("\"dependencies\": {\n        \"zip\": [\n          \"country\"\n"),
        "{stdout}"
    );
}
