//! Every gate, with the exact text the model reads: unknown tools (few, many, none, odd
//! names), arguments that are not an object, schema violations (with the 120-character cut
//! on multi-byte characters), the gate order, and ids carried by every rejection.

use toolgate::json::Value;
use toolgate::{Gate, Rejection, RejectionKind, ToolSpec, Type};

fn spec(name: &str) -> toolgate::spec::build::ToolSpecBuilder {
    ToolSpec::new(name, format!("The {name} tool."))
}

/// Six tools, as in the corpus' customer-support agent.
fn support_gate() -> Gate {
    let statuses = [
        "pending",
        "paid",
        "shipped",
        "delivered",
        "cancelled",
        "refunded",
    ];
    let specs = vec![
        spec("search_orders")
            .required("customer_id", Type::string().min_length(3).max_length(64))
            .optional("status", Type::string().one_of(statuses))
            .optional(
                "filters",
                Type::object().optional("limit", Type::integer().min(1).max(100)),
            ),
        spec("get_shipment").required("order_id", Type::string()),
        spec("issue_refund")
            .required("order_id", Type::string())
            .required("amount_cents", Type::integer().min(1).max(500000)),
        spec("lookup_policy").required("topic", Type::string().max_length(10)),
        spec("send_email").required("to", Type::string()),
        spec("update_address").required("customer_id", Type::string()),
    ];
    Gate::new(specs.into_iter().map(|s| s.build().unwrap()).collect()).unwrap()
}

/// `label: text` for a rejection, `ok` for an accepted call.
fn verdict(gate: &Gate, raw: &str) -> String {
    match gate.check_call(raw) {
        Ok(_) => "ok".to_string(),
        Err(rejection) => format!("{}: {rejection}", rejection.kind().label()),
    }
}

fn check(gate: &Gate, cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (raw, expect) in cases {
        let got = verdict(gate, raw);
        if got != *expect {
            failures.push(format!("input:  {raw}\nexpect: {expect}\ngot:    {got}\n"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn unknown_tool_with_few_tools_lists_them_all() {
    check(
        &support_gate(),
        &[
            (
                r#"{"name":"serch_orders","arguments":{}}"#,
                "unknown_tool: No tool named 'serch_orders'. Did you mean: search_orders? The \
                 tools are: search_orders, get_shipment, issue_refund, lookup_policy, send_email, \
                 update_address.",
            ),
            // A swap of two letters is one edit.
            (
                r#"{"name":"get_shipmnet","arguments":{}}"#,
                "unknown_tool: No tool named 'get_shipmnet'. Did you mean: get_shipment? The \
                 tools are: search_orders, get_shipment, issue_refund, lookup_policy, send_email, \
                 update_address.",
            ),
            // Names are compared exactly: case is part of the name.
            (
                r#"{"name":"Send_Email","arguments":{}}"#,
                "unknown_tool: No tool named 'Send_Email'. Did you mean: send_email? The tools \
                 are: search_orders, get_shipment, issue_refund, lookup_policy, send_email, \
                 update_address.",
            ),
        ],
    );
}

#[test]
fn unknown_tool_with_many_tools_names_the_three_closest() {
    let names = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        // Each is one edit from serch_orders; ties keep registration order.
        "search_orders",
        "serch_order",
        "perch_orders",
        "serch_orderz",
    ];
    let gate = Gate::new(
        names
            .iter()
            .map(|name| spec(name).build().unwrap())
            .collect(),
    )
    .unwrap();
    check(
        &gate,
        &[
            (
                r#"{"name":"serch_orders"}"#,
                "unknown_tool: No tool named 'serch_orders'. Did you mean: search_orders, \
                 serch_order, perch_orders?",
            ),
            (
                r#"{"name":"thetta"}"#,
                // theta is one edit away; beta, delta, zeta and eta are three: registration
                // order picks beta and delta.
                "unknown_tool: No tool named 'thetta'. Did you mean: theta, beta, delta?",
            ),
        ],
    );
    let rejection = gate.check_call(r#"{"name":"serch_orders"}"#).unwrap_err();
    let Rejection::UnknownTool { closest, tools, .. } = rejection else {
        panic!("expected UnknownTool, got {rejection:?}");
    };
    assert_eq!(closest, ["search_orders", "serch_order", "perch_orders"]);
    assert!(tools.is_empty());
}

#[test]
fn unknown_tool_with_one_tool_or_none() {
    let one = Gate::new(vec![spec("get_weather").build().unwrap()]).unwrap();
    let none = Gate::new(Vec::new()).unwrap();
    check(
        &one,
        &[(
            r#"{"name":"weather"}"#,
            "unknown_tool: No tool named 'weather'. Did you mean: get_weather? The tools are: \
             get_weather.",
        )],
    );
    check(
        &none,
        &[(
            r#"{"name":"weather"}"#,
            "unknown_tool: No tool named 'weather': no tools are registered, so answer without \
             calling one.",
        )],
    );
}

#[test]
fn unknown_names_are_quoted_safely_and_cut() {
    let gate = Gate::new(vec![spec("f").build().unwrap()]).unwrap();
    check(
        &gate,
        &[
            (
                r#"{"name":"it's\nbad"}"#,
                r"unknown_tool: No tool named 'it\'s\nbad'. Did you mean: f? The tools are: f.",
            ),
            (
                r#"{"name":""}"#,
                "unknown_tool: No tool named ''. Did you mean: f? The tools are: f.",
            ),
        ],
    );
    // A half-megabyte name is quoted up to 120 characters, and the edit distance stays
    // cheap.
    let long = "é".repeat(1 << 18);
    let raw = format!(r#"{{"name":"{long}"}}"#);
    let text = gate.check_call(&raw).unwrap_err().to_string();
    assert_eq!(
        text,
        format!(
            "No tool named '{}…'. Did you mean: f? The tools are: f.",
            "é".repeat(120)
        )
    );
}

#[test]
fn field_names_are_quoted_and_cut_like_tool_names() {
    // A field name is quoted the way a tool name is: escaped to stay on one line, and cut
    // at 120 characters, so an unknown field of a megabyte cannot flood the model.
    let gate = Gate::new(vec![spec("f")
        .required("a", Type::string())
        .build()
        .unwrap()])
    .unwrap();
    let long = "é".repeat(1 << 12);
    let raw = format!(r#"{{"name":"f","arguments":{{"a":"x","{long}":1}}}}"#);
    assert_eq!(
        verdict(&gate, &raw),
        format!(
            "schema_violation: f rejected: unknown field '{}…'; allowed fields: a.",
            "é".repeat(120)
        )
    );
    check(
        &gate,
        &[(
            r#"{"name":"f","arguments":{"a":"x","it's\nbad":1}}"#,
            r"schema_violation: f rejected: unknown field 'it\'s\nbad'; allowed fields: a.",
        )],
    );
    // A name that could never be registered (longer than 128 characters, MCP's limit,
    // which issue #11 made the load rule) is quoted, not shown bare as a valid tool name
    // would be.
    let name = "a".repeat(129);
    let raw = format!(r#"{{"name":"{name}","arguments":"#);
    assert_eq!(
        verdict(&gate, &raw),
        format!(
            "truncated_json: The call to '{}…' was cut off after 152 bytes, inside an \
             object. Do not send the same call again: make it smaller, with fewer or shorter \
             items.",
            "a".repeat(120)
        )
    );
}

#[test]
fn arguments_that_are_not_an_object() {
    check(
        &support_gate(),
        &[
            (
                r#"{"name":"get_shipment","arguments":["CUS-1234"]}"#,
                "arguments_not_object: get_shipment rejected: the arguments must be a JSON object \
                 of named fields; received an array: [\"CUS-1234\"].",
            ),
            (
                r#"{"type":"tool_use","id":"toolu_1","name":"get_shipment","input":42}"#,
                "arguments_not_object: get_shipment rejected: the arguments must be a JSON object \
                 of named fields; received a number: 42.",
            ),
            (
                r#"{"type":"tool_use","id":"toolu_1","name":"get_shipment","input":"ORD-1"}"#,
                "arguments_not_object: get_shipment rejected: the arguments must be a JSON object \
                 of named fields; received a string: \"ORD-1\".",
            ),
            (
                r#"{"name":"get_shipment","arguments":true}"#,
                "arguments_not_object: get_shipment rejected: the arguments must be a JSON object \
                 of named fields; received a boolean: true.",
            ),
            // Arguments text that is JSON but not an object.
            (
                r#"{"id":"c","type":"function","function":{"name":"get_shipment","arguments":"null"}}"#,
                "arguments_not_object: get_shipment rejected: the arguments must be a JSON object \
                 of named fields; received null.",
            ),
            (
                r#"{"id":"c","type":"function","function":{"name":"get_shipment","arguments":"[1]"}}"#,
                "arguments_not_object: get_shipment rejected: the arguments must be a JSON object \
                 of named fields; received an array: [1].",
            ),
        ],
    );
}

#[test]
fn schema_violations_name_the_tool_path_rule_and_value() {
    check(
        &support_gate(),
        &[
            (
                r#"{"name":"issue_refund","arguments":{"order_id":"A-1","amount_cents":0}}"#,
                "schema_violation: issue_refund rejected: amount_cents must be an integer from 1 \
                 to 500000; received 0.",
            ),
            (
                r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1","filters":{"limit":500}}}"#,
                "schema_violation: search_orders rejected: filters.limit must be an integer from \
                 1 to 100; received 500.",
            ),
            (
                r#"{"name":"search_orders","arguments":{"status":"paid"}}"#,
                "schema_violation: search_orders rejected: missing required field \
                 'customer_id'.",
            ),
            (
                r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1","status":"open"}}"#,
                "schema_violation: search_orders rejected: status must be one of \"pending\", \
                 \"paid\", \"shipped\", \"delivered\", \"cancelled\", \"refunded\"; received \
                 \"open\".",
            ),
            (
                r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1","colour":"red"}}"#,
                "schema_violation: search_orders rejected: unknown field 'colour'; allowed \
                 fields: customer_id, status, filters.",
            ),
            (
                r#"{"name":"get_shipment","arguments":{"order_id":7}}"#,
                "schema_violation: get_shipment rejected: order_id must be a string; received 7.",
            ),
            // Absent arguments are {}, so a required field is missing.
            (
                r#"{"name":"get_shipment"}"#,
                "schema_violation: get_shipment rejected: missing required field 'order_id'.",
            ),
            // Duplicate keys inside the arguments are the spec's to refuse.
            (
                r#"{"name":"get_shipment","arguments":{"order_id":"A","order_id":"B"}}"#,
                "schema_violation: get_shipment rejected: duplicate field 'order_id'.",
            ),
        ],
    );
    let rejection = support_gate()
        .check_call(
            r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1","filters":{"limit":0}}}"#,
        )
        .unwrap_err();
    assert_eq!(rejection.path(), Some("filters.limit"));
    assert_eq!(rejection.tool(), Some("search_orders"));
}

#[test]
fn received_values_are_cut_at_120_characters_on_a_character_boundary() {
    let gate = support_gate();
    let prefix = "schema_violation: lookup_policy rejected: topic must be at most 10 characters \
                  long; received ";
    for (topic, received) in [
        // Two-byte characters: the opening quote and 119 of them, then the mark.
        ("é".repeat(200), format!("\"{}…", "é".repeat(119))),
        // Four-byte characters.
        ("😀".repeat(200), format!("\"{}…", "😀".repeat(119))),
        // A four-byte character is the 120th: it is kept whole, and the next is cut.
        (
            format!("{}😀😀", "a".repeat(118)),
            format!("\"{}😀…", "a".repeat(118)),
        ),
        // 120 characters in all (quotes included): nothing to cut.
        (
            format!("{}😀", "a".repeat(117)),
            format!("\"{}😀\"", "a".repeat(117)),
        ),
    ] {
        let raw = format!(r#"{{"name":"lookup_policy","arguments":{{"topic":"{topic}"}}}}"#);
        assert_eq!(verdict(&gate, &raw), format!("{prefix}{received}."));
    }
    // The same cut for arguments that are not an object.
    let raw = format!(
        r#"{{"type":"tool_use","id":"t","name":"get_shipment","input":"{}"}}"#,
        "ü".repeat(300)
    );
    assert_eq!(
        verdict(&gate, &raw),
        format!(
            "arguments_not_object: get_shipment rejected: the arguments must be a JSON object of \
             named fields; received a string: \"{}….",
            "ü".repeat(119)
        )
    );
}

#[test]
fn the_gates_run_in_order() {
    check(
        &support_gate(),
        &[
            // Unknown name and bad arguments: the name comes first.
            (
                r#"{"name":"nope","arguments":[1]}"#,
                "unknown_tool: No tool named 'nope'. Did you mean: send_email? The tools are: \
                 search_orders, get_shipment, issue_refund, lookup_policy, send_email, \
                 update_address.",
            ),
            // Arguments text that is not JSON comes before the name.
            (
                r#"{"id":"c","type":"function","function":{"name":"nope","arguments":"{"}}"#,
                "truncated_json: The arguments of nope were cut off after 1 bytes, inside an \
                 object. Do not send the same call again: make it smaller, with fewer or shorter \
                 items.",
            ),
            // Envelope problems come before the name.
            (
                r#"{"name":"nope","name":"get_shipment"}"#,
                "bad_envelope: The call gives \"name\" twice, and readers disagree on which one \
                 counts. Send each key once.",
            ),
        ],
    );
}

#[test]
fn every_rejection_keeps_the_call_id() {
    let gate = support_gate();
    let cases = [
        (
            r#"{"type":"tool_use","id":"toolu_1","name":"get_shipment","input":{"order_id":"#,
            RejectionKind::TruncatedJson,
        ),
        (
            r#"{"type":"tool_use","id":"toolu_1","name":"get_shipment","input":{"order_id":x}}"#,
            RejectionKind::MalformedJson,
        ),
        (
            r#"{"type":"tool_use","id":"toolu_1","name":7,"input":{}}"#,
            RejectionKind::BadEnvelope,
        ),
        (
            r#"{"type":"tool_use","id":"toolu_1","name":"nope","input":{}}"#,
            RejectionKind::UnknownTool,
        ),
        (
            r#"{"type":"tool_use","id":"toolu_1","name":"get_shipment","input":[]}"#,
            RejectionKind::ArgumentsNotObject,
        ),
        (
            r#"{"type":"tool_use","id":"toolu_1","name":"get_shipment","input":{}}"#,
            RejectionKind::SchemaViolation,
        ),
    ];
    for (raw, kind) in cases {
        let rejection = gate.check_call(raw).unwrap_err();
        assert_eq!(rejection.kind(), kind, "{raw}");
        assert_eq!(rejection.id(), Some("toolu_1"), "{raw}");
    }
    let labels: Vec<&str> = RejectionKind::ALL.iter().map(|kind| kind.label()).collect();
    assert_eq!(
        labels,
        [
            "malformed_json",
            "truncated_json",
            "bad_envelope",
            "unknown_tool",
            "arguments_not_object",
            "schema_violation"
        ]
    );
}

#[test]
fn an_accepted_call_is_returned_whole() {
    let gate = support_gate();
    let call = gate
        .check_call(r#"{"type":"tool_use","id":"toolu_1","name":"issue_refund","input":{"order_id":"A-1","amount_cents":2500}}"#)
        .unwrap();
    assert_eq!(call.id.as_deref(), Some("toolu_1"));
    assert_eq!(call.name, "issue_refund");
    assert_eq!(
        call.args.get("amount_cents").and_then(Value::as_i64),
        Some(2500)
    );
}

#[test]
fn duplicate_tool_names_are_refused_when_the_gate_is_built() {
    let error = Gate::new(vec![
        spec("f").build().unwrap(),
        spec("g").build().unwrap(),
        spec("f").build().unwrap(),
    ])
    .unwrap_err();
    assert_eq!(
        (error.name.as_str(), error.first, error.second),
        ("f", 0, 2)
    );
    assert_eq!(
        error.to_string(),
        "tools 0 and 2 are both named 'f'; every tool needs its own name"
    );
}

#[test]
fn bytes_that_are_not_utf8_are_a_malformed_call() {
    let gate = support_gate();
    let rejection = gate.check_call_bytes(b"{\"name\":\"f\xff\"}").unwrap_err();
    assert_eq!(
        format!("{}: {rejection}", rejection.kind().label()),
        "malformed_json: The call is not valid JSON: invalid UTF-8 at byte 10 (line 1, column \
         11). Send the call again as one valid JSON object."
    );
    assert!(gate
        .check_call_bytes(br#"{"name":"get_shipment","arguments":{"order_id":"A"}}"#)
        .is_ok());
}

#[test]
fn bytes_cut_inside_a_character_are_a_truncated_call_with_its_tool_and_id() {
    // The same cut in bytes and in a `str` (which cannot hold half a character, so it ends
    // just before it) is the same rejection: truncated, naming the tool and the id.
    let gate = support_gate();
    let whole = "{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"lookup_policy\",\
                 \"input\":{\"topic\":\"Zürich\"}}";
    let cut = whole.find('ü').unwrap() + 1;
    let rejection = gate.check_call_bytes(&whole.as_bytes()[..cut]).unwrap_err();
    assert_eq!(rejection.kind().label(), "truncated_json");
    assert_eq!(rejection.tool(), Some("lookup_policy"));
    assert_eq!(rejection.id(), Some("toolu_9"));
    assert_eq!(
        rejection.to_string(),
        "The call to lookup_policy was cut off after 77 bytes, inside a string. Do not send \
         the same call again: make it smaller, with fewer or shorter items."
    );
    let as_str = gate.check_call(&whole[..cut - 1]).unwrap_err();
    assert_eq!(as_str.kind(), rejection.kind());
    assert_eq!(
        (as_str.tool(), as_str.id()),
        (rejection.tool(), rejection.id())
    );
}
