//! Tool names (issue #11): a spec is held to MCP's rule (SEP-986), so `github.create_issue`
//! loads; each export checks its provider's rule and refuses a name it would reject, with
//! the tool and the rule, or maps it when asked; the gate accepts the mapped name, and the
//! answer uses the name the model used and pairs with the call's id.

use toolgate::spec::{
    export_tool, export_tools, export_tools_with, load_tools, ExportNote, ExportOptions,
    ExportRefusal, NameRule, Provider,
};
use toolgate::{Gate, Outcome, Registry, ToolSpec, Type};

fn spec(name: &str) -> ToolSpec {
    ToolSpec::new(name, "A tool.")
        .required("title", Type::string())
        .build()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

const MAP: ExportOptions = ExportOptions {
    close_open_objects: true,
    map_names: true,
};

#[test]
fn the_table_holds_each_parties_rule() {
    let long = |n: usize| "a".repeat(n);
    let table: [(&NameRule, &[&str], &[&str]); 3] = [
        (
            &NameRule::MCP,
            &["github.create_issue", "a", "1-a_b.c", &long(128)],
            &["", "a b", "a:b", "a/b", "météo", &long(129)],
        ),
        (
            &NameRule::OPENAI,
            &["search_orders", "1-a_b", &long(64)],
            &["github.create_issue", "a:b", "", &long(65)],
        ),
        (
            &NameRule::GEMINI,
            &["search_orders", "_x", "a.b:c-d", &long(64)],
            &["1password", "-a", ".a", "a b", "", &long(65)],
        ),
    ];
    for (rule, good, bad) in table {
        for name in good {
            assert!(rule.accepts(name), "{}: {name}", rule.owner);
        }
        for name in bad {
            assert!(!rule.accepts(name), "{}: {name}", rule.owner);
        }
    }
    // The result block's Gemini check is the same rule.
    for name in ["_x", "1password", "a.b:c-d", "a b"] {
        assert_eq!(
            toolgate::result_block::is_gemini_name(name),
            NameRule::GEMINI.accepts(name),
            "{name}"
        );
    }
}

#[test]
fn a_dotted_mcp_name_loads() {
    let specs = load_tools(
        r#"[{"name": "github.create_issue", "description": "Open an issue.",
            "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}}]"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(specs[0].name(), "github.create_issue");
}

#[test]
fn each_export_refuses_a_name_its_provider_would_reject() {
    let openai = "the rule of OpenAI and Anthropic: ^[a-zA-Z0-9_-]{1,64}$";
    let table = [
        (
            "github.create_issue",
            Provider::OpenAi,
            format!(
                "github.create_issue: the openai form refuses this tool name: a name there must \
                 be 1 to 64 characters, each a letter, a digit, '_' or '-' ({openai})"
            ),
        ),
        (
            "github.create_issue",
            Provider::Anthropic,
            format!(
                "github.create_issue: the anthropic form refuses this tool name: a name there \
                 must be 1 to 64 characters, each a letter, a digit, '_' or '-' ({openai})"
            ),
        ),
        (
            "github.create_issue",
            Provider::ResponsesStrict,
            format!(
                "github.create_issue: the responses-strict form refuses this tool name: a name \
                 there must be 1 to 64 characters, each a letter, a digit, '_' or '-' ({openai})"
            ),
        ),
        (
            "1password.lookup",
            Provider::Gemini,
            "1password.lookup: the gemini form refuses this tool name: a name there must be 1 \
             to 64 characters, a letter or '_' first, then letters, digits, '_', '.', ':' or '-' \
             (the rule of Gemini: ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$)"
                .to_string(),
        ),
    ];
    for (name, provider, text) in table {
        let specs = [spec("ok_first"), spec(name)];
        let refusal = export_tools(&specs, provider).unwrap_err();
        assert_eq!(
            refusal,
            ExportRefusal::Name {
                tool: name.into(),
                provider
            }
        );
        assert_eq!(refusal.to_string(), text);
        assert_eq!(export_tool(&specs[1], provider), Err(refusal));
    }
    // Gemini and MCP take dots; MCP's rule is the load rule, so it never refuses.
    for provider in [Provider::Gemini, Provider::Mcp] {
        assert!(export_tools(&[spec("github.create_issue")], provider).is_ok());
    }
    assert!(export_tools(&[spec("1password.lookup")], Provider::Mcp).is_ok());
}

#[test]
fn a_mapped_name_fits_the_rule_and_never_collides() {
    let long = format!("{}.x", "a".repeat(70));
    let specs = [
        spec("a.b"),
        spec("a_b"),
        spec("a-b"),
        spec("github.create_issue"),
        spec(&long),
        spec("1password.lookup"),
    ];
    let exported =
        export_tools_with(&specs, Provider::OpenAi, MAP).unwrap_or_else(|e| panic!("{e}"));
    let mapped: Vec<(&str, &str)> = exported.names.iter().collect();
    let cut = "a".repeat(64);
    assert_eq!(
        mapped,
        [
            ("a.b", "a_b_2"),
            ("github.create_issue", "github_create_issue"),
            (long.as_str(), cut.as_str()),
            ("1password.lookup", "1password_lookup"),
        ]
    );
    let sent: Vec<&str> = exported
        .tools
        .as_array()
        .unwrap_or(&[])
        .iter()
        .filter_map(|tool| tool.get("function")?.get("name")?.as_str())
        .collect();
    assert_eq!(
        sent,
        [
            "a_b_2",
            "a_b",
            "a-b",
            "github_create_issue",
            cut.as_str(),
            "1password_lookup"
        ]
    );
    assert!(sent.iter().all(|name| NameRule::OPENAI.accepts(name)));
    let notes: Vec<String> = exported.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes[0],
        "a.b: sent as a_b_2, a name the provider accepts (the gate takes calls under either)"
    );
    assert_eq!(
        exported.notes[1],
        ExportNote::Renamed {
            tool: "github.create_issue".into(),
            name: "github_create_issue".into()
        }
    );
    // Gemini maps only what its own rule refuses.
    let gemini = export_tools_with(&specs, Provider::Gemini, MAP).unwrap_or_else(|e| panic!("{e}"));
    let mapped: Vec<(&str, &str)> = gemini.names.iter().collect();
    let gemini_cut = "a".repeat(64);
    assert_eq!(
        mapped,
        [
            (long.as_str(), gemini_cut.as_str()),
            ("1password.lookup", "_1password.lookup")
        ]
    );
    // Nothing to map: the map is empty, the export the same as without mapping.
    let plain = [spec("search_orders")];
    let exported =
        export_tools_with(&plain, Provider::OpenAi, MAP).unwrap_or_else(|e| panic!("{e}"));
    assert!(exported.names.is_empty() && exported.notes.is_empty());
    assert_eq!(Ok(exported.tools), export_tools(&plain, Provider::OpenAi),);
}

#[test]
fn a_call_under_the_mapped_name_reaches_the_tool_and_its_answer_pairs_with_the_id() {
    let mut registry = Registry::new();
    for name in ["a.b", "a_b", "github.create_issue", "1password.lookup"] {
        let tool = name.to_string();
        registry
            .register(spec(name), move |args| {
                Ok(format!(
                    "{tool}: {}",
                    args.get("title")
                        .map(ToString::to_string)
                        .unwrap_or_default()
                ))
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let exported = export_tools_with(registry.gate().specs(), Provider::OpenAi, MAP)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(exported.names.sent_name("a.b"), Some("a_b_2"));
    let raw = r#"{"id":"call_9","type":"function","function":{"name":"github_create_issue","arguments":"{\"title\":\"Crash\"}"}}"#;
    let outcome = registry.handle_tool_call_or_decline(raw, |_| None);
    assert_eq!(
        outcome,
        Outcome::Dispatched {
            id: Some("call_9".into()),
            tool: "github_create_issue".into(),
            output: "github.create_issue: \"Crash\"".into(),
            first_rejection: None,
        }
    );
    assert_eq!(
        outcome.result_block(Provider::OpenAi).to_string(),
        r#"{"role":"tool","tool_call_id":"call_9","content":"github.create_issue: \"Crash\""}"#
    );
    // Every mapped name, and every own name, reaches its own tool.
    for (sent, tool) in [
        ("a_b_2", "a.b"),
        ("a_b", "a_b"),
        ("a.b", "a.b"),
        ("github.create_issue", "github.create_issue"),
        ("1password_lookup", "1password.lookup"),
        ("_1password.lookup", "1password.lookup"),
    ] {
        let raw = format!(r#"{{"name":"{sent}","arguments":{{"title":"t"}}}}"#);
        // The check-only verdict finds the same tool under each name, with the arguments
        // before the name or after it.
        assert!(registry.gate().verdict(&raw).is_ok(), "{sent}");
        let reordered = format!(r#"{{"arguments":{{"title":"t"}},"name":"{sent}"}}"#);
        assert!(registry.gate().verdict(&reordered).is_ok(), "{sent}");
        let untitled = format!(r#"{{"name":"{sent}","arguments":{{}}}}"#);
        assert!(registry.gate().verdict(&untitled).is_err(), "{sent}");
        let outcome = registry.handle_tool_call_or_decline(&raw, |_| None);
        assert_eq!(
            outcome,
            Outcome::Dispatched {
                id: None,
                tool: sent.into(),
                output: format!("{tool}: \"t\""),
                first_rejection: None,
            },
            "{sent}"
        );
    }
    // A refusal names the tool the way the model did, and Gemini's answer carries that name.
    let raw = r#"{"functionCall":{"id":"fc_1","name":"_1password.lookup","args":{}}}"#;
    let refused = registry.gate().check_call(raw).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "_1password.lookup rejected: missing required field 'title'."
    );
    assert_eq!(
        refused.result_block(Provider::Gemini).to_string(),
        r#"{"functionResponse":{"name":"_1password.lookup","id":"fc_1","response":{"error":"_1password.lookup rejected: missing required field 'title'."}}}"#
    );
}

#[test]
fn a_later_tool_takes_its_own_name_back_from_an_earlier_alias() {
    // Registered one by one, the gate's map is always the export's map of the same list.
    let mut gate_specs = Vec::new();
    let mut registry = Registry::new();
    for name in ["a.b", "a_b", "a_b_2"] {
        registry
            .register(spec(name), |_| Ok(String::new()))
            .unwrap_or_else(|e| panic!("{e}"));
        gate_specs.push(spec(name));
        let exported =
            export_tools_with(&gate_specs, Provider::OpenAi, MAP).unwrap_or_else(|e| panic!("{e}"));
        let alias = exported
            .names
            .sent_name("a.b")
            .unwrap_or_default()
            .to_string();
        let call = format!(r#"{{"name":"{alias}","arguments":{{"title":"t"}}}}"#);
        let checked = registry
            .gate()
            .check_call(&call)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            registry.gate().spec(&checked.name).map(ToolSpec::name),
            Some("a.b"),
            "{alias}"
        );
    }
    let gate = Gate::new(gate_specs).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(gate.spec("a_b_3").map(ToolSpec::name), Some("a.b"));
    assert_eq!(gate.spec("a_b_2").map(ToolSpec::name), Some("a_b_2"));
}

#[test]
fn an_unknown_name_is_answered_with_the_names_in_the_form_the_model_was_shown() {
    let mut registry = Registry::new();
    for name in ["github.create_issue", "github.list_issues"] {
        registry
            .register(spec(name), |_| Ok(String::new()))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    // A model shown the mapped names misspells one of them: it hears the mapped names.
    let raw = r#"{"name":"github_create_isue","arguments":{"title":"t"}}"#;
    assert_eq!(
        registry.gate().check_call(raw).unwrap_err().to_string(),
        "No tool named 'github_create_isue'. Did you mean: github_create_issue? \
         The tools are: github_create_issue, github_list_issues."
    );
    // A model shown the tools' own names (MCP) misspells one: it hears those.
    let raw = r#"{"name":"github.create_isue","arguments":{"title":"t"}}"#;
    assert_eq!(
        registry.gate().check_call(raw).unwrap_err().to_string(),
        "No tool named 'github.create_isue'. Did you mean: github.create_issue? \
         The tools are: github.create_issue, github.list_issues."
    );
}
