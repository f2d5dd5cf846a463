//! The registry's tools array for a request comes from the same specs its gate checks: it
//! is the spec export, and a gate loaded back from it gives every call the same verdict.

use toolgate::spec::{export_tools, Provider};
use toolgate::{Gate, Registry, ToolSpec, Type};

fn registry() -> Registry {
    let mut registry = Registry::new();
    let search = ToolSpec::new("search_orders", "Search a customer's orders.")
        .required("customer_id", Type::string().min_length(3))
        .optional("status", Type::string().one_of(["paid", "shipped"]))
        .optional("limit", Type::integer().min(1).max(100))
        .build()
        .unwrap();
    let refund = ToolSpec::new("issue_refund", "Refund an order, in cents.")
        .required("order_id", Type::string())
        .required("amount_cents", Type::integer().min(1).max(500000))
        .build()
        .unwrap();
    registry.register(search, |_| Ok("[]".into())).unwrap();
    registry.register(refund, |_| Ok("done".into())).unwrap();
    registry
}

const CALLS: &[&str] = &[
    r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1"}}"#,
    r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1","status":"paid","limit":5}}"#,
    r#"{"name":"search_orders","arguments":{"customer_id":"C"}}"#,
    r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1","status":"lost"}}"#,
    r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1","limit":101}}"#,
    r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1","colour":"red"}}"#,
    r#"{"name":"issue_refund","arguments":{"order_id":"A-1","amount_cents":0}}"#,
    r#"{"name":"issue_refund","arguments":{"order_id":"A-1","amount_cents":2500}}"#,
    r#"{"name":"issue_refnd","arguments":{}}"#,
];

fn verdict(gate: &Gate, raw: &str) -> String {
    match gate.check_call(raw) {
        Ok(call) => format!("ok {}", call.name),
        Err(rejection) => format!("{}: {rejection}", rejection.kind().label()),
    }
}

#[test]
fn the_tools_array_is_the_export_of_the_registered_specs() {
    let registry = registry();
    for provider in Provider::ALL {
        assert_eq!(
            registry.tools(provider),
            export_tools(registry.gate().specs(), provider),
            "{provider:?}"
        );
    }
}

#[test]
fn a_gate_loaded_from_the_tools_array_gives_the_same_verdicts() {
    let registry = registry();
    // The strict forms make every optional field required-but-nullable, which is a
    // different contract by design; every other form states the same one.
    for provider in [
        Provider::Anthropic,
        Provider::OpenAi,
        Provider::Responses,
        Provider::Gemini,
        Provider::Mcp,
    ] {
        let tools = registry
            .tools(provider)
            .unwrap_or_else(|e| panic!("{e}"))
            .to_string();
        let loaded = Gate::from_tools_json(&tools)
            .unwrap_or_else(|error| panic!("{provider:?} does not load back: {error}"));
        for raw in CALLS {
            assert_eq!(
                verdict(&loaded, raw),
                verdict(registry.gate(), raw),
                "{provider:?}: {raw}"
            );
        }
    }
}
