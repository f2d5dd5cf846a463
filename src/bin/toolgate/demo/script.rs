//! The scripted model: the raw calls it makes, turn by turn, and the corrected call it sends
//! back when the gate refuses one. Every mistake here is one real models make, in the
//! envelope shapes real logs hold (plain, Anthropic `tool_use`, OpenAI chat).

/// One turn of the agent loop.
pub struct Turn {
    /// What this turn shows.
    pub title: &'static str,
    /// Why it matters, completing the title's line.
    pub lesson: &'static str,
    /// The model's raw call.
    pub call: &'static str,
    /// The model's answer when the gate refuses `call` (it is asked at most once).
    pub retry: Option<&'static str>,
}

/// The turns, in order. The last three cannot be satisfied: the customer asks for 800.00
/// and `issue_refund` allows at most 500.00, so the model keeps asking for too much and the
/// guard ends the run.
pub const SCRIPT: [Turn; 10] = [
    Turn {
        title: "a valid call",
        lesson: "it passes all three gates and the tool runs.",
        call: r#"{"name":"search_orders","arguments":{"customer_id":"CUS-845952"}}"#,
        retry: None,
    },
    Turn {
        title: "a misspelled name",
        lesson: "the name gate lists the closest names; the model picks one.",
        call: r#"{"name":"serch_orders","arguments":{"customer_id":"CUS-845952","status":"delivered"}}"#,
        retry: Some(
            r#"{"name":"search_orders","arguments":{"customer_id":"CUS-845952","status":"delivered"}}"#,
        ),
    },
    Turn {
        title: "a missing field",
        lesson: "the schema gate names the field; the answer keeps the call id.",
        call: r#"{"type":"tool_use","id":"toolu_03","name":"send_email","input":{"to":"priya@example.com","body":"Your keyboard has shipped."}}"#,
        retry: Some(
            r#"{"type":"tool_use","id":"toolu_03","name":"send_email","input":{"to":"priya@example.com","subject":"Your order","body":"Your keyboard has shipped."}}"#,
        ),
    },
    Turn {
        title: "a wrong type",
        lesson: "a number sent as a string; the tool never sees \"1999\".",
        call: r#"{"id":"call_04","type":"function","function":{"name":"issue_refund","arguments":"{\"order_id\":\"ORD-2024-000042\",\"amount_cents\":\"1999\",\"reason\":\"late\"}"}}"#,
        retry: Some(
            r#"{"id":"call_04","type":"function","function":{"name":"issue_refund","arguments":"{\"order_id\":\"ORD-2024-000042\",\"amount_cents\":1999,\"reason\":\"late\"}"}}"#,
        ),
    },
    Turn {
        title: "an enum near-miss",
        lesson: "American spelling, British enum; the answer lists the values.",
        call: r#"{"name":"search_orders","arguments":{"customer_id":"CUS-845952","status":"canceled"}}"#,
        retry: Some(
            r#"{"name":"search_orders","arguments":{"customer_id":"CUS-845952","status":"cancelled"}}"#,
        ),
    },
    Turn {
        title: "a truncated call",
        lesson: "cut off at the token limit; the fix is a smaller call.",
        call: r#"{"type":"tool_use","id":"toolu_06","name":"send_email","input":{"to":"priya@example.com","subject":"Refund","body":"Hi Priya, here is every step of your ord"#,
        retry: Some(
            r#"{"type":"tool_use","id":"toolu_06","name":"send_email","input":{"to":"priya@example.com","subject":"Refund","body":"Refunded 19.99 EUR."}}"#,
        ),
    },
    Turn {
        title: "a tool failure",
        lesson: "a valid call, a failing tool: a dependency problem, not a rejection.",
        call: r#"{"name":"get_order","arguments":{"order_id":"ORD-2024-999999"}}"#,
        retry: None,
    },
    Turn {
        title: "a spec the model cannot satisfy (1)",
        lesson: "the customer wants 800.00; the limit is 500.00.",
        call: r#"{"name":"issue_refund","arguments":{"order_id":"ORD-2024-000042","amount_cents":80000,"reason":"damaged"}}"#,
        retry: Some(
            r#"{"name":"issue_refund","arguments":{"order_id":"ORD-2024-000042","amount_cents":80000,"reason":"other"}}"#,
        ),
    },
    Turn {
        title: "a spec the model cannot satisfy (2)",
        lesson: "the model tries again; each turn gets one retry.",
        call: r#"{"name":"issue_refund","arguments":{"order_id":"ORD-2024-000042","amount_cents":79999,"reason":"damaged"}}"#,
        retry: Some(
            r#"{"name":"issue_refund","arguments":{"order_id":"ORD-2024-000042","amount_cents":"800.00","reason":"damaged"}}"#,
        ),
    },
    Turn {
        title: "a spec the model cannot satisfy (3)",
        lesson: "the third rejected turn in a row ends the run.",
        call: r#"{"name":"issue_refund","arguments":{"order_id":"ORD-2024-000042","amount_cents":80000,"reason":"damaged"}}"#,
        retry: Some(
            r#"{"name":"issue_refund","arguments":{"order_id":"ORD-2024-000042","amount_cents":80000,"reason":"damaged"}}"#,
        ),
    },
];
