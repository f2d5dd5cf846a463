//! The demo's tools: four tools of a customer-support agent, declared once in the JSON form
//! a provider is sent (Anthropic's), loaded into [`ToolSpec`]s, and bound to handlers in a
//! [`Registry`]. The handlers are stand-ins that answer from fixed data: the demo is about
//! what reaches them, not what they do.

use toolgate::json::Value;
use toolgate::spec::{self, ToolSpec};
use toolgate::Registry;

/// The declarations, as they would be sent to the model.
pub const TOOLS_JSON: &str = r#"[
  {
    "name": "search_orders",
    "description": "Search a customer's orders, newest first. Use when the customer has not given an order id.",
    "input_schema": {
      "type": "object",
      "properties": {
        "customer_id": {"type": "string", "minLength": 4, "maxLength": 32},
        "status": {"type": "string",
                   "enum": ["pending", "paid", "shipped", "delivered", "cancelled", "refunded"]}
      },
      "required": ["customer_id"],
      "additionalProperties": false
    }
  },
  {
    "name": "get_order",
    "description": "Fetch one order by its id (ORD-YYYY-NNNNNN).",
    "input_schema": {
      "type": "object",
      "properties": {"order_id": {"type": "string", "minLength": 15, "maxLength": 15}},
      "required": ["order_id"],
      "additionalProperties": false
    }
  },
  {
    "name": "issue_refund",
    "description": "Refund part or all of an order. Refunds above 500.00 need a human: escalate instead.",
    "input_schema": {
      "type": "object",
      "properties": {
        "order_id": {"type": "string", "minLength": 15, "maxLength": 15},
        "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
        "reason": {"type": "string", "enum": ["damaged", "late", "wrong_item", "other"]}
      },
      "required": ["order_id", "amount_cents", "reason"],
      "additionalProperties": false
    }
  },
  {
    "name": "send_email",
    "description": "Email the customer. Keep the body short and plain.",
    "input_schema": {
      "type": "object",
      "properties": {
        "to": {"type": "string", "minLength": 3, "maxLength": 254},
        "subject": {"type": "string", "minLength": 1, "maxLength": 120},
        "body": {"type": "string", "minLength": 1, "maxLength": 2000}
      },
      "required": ["to", "subject", "body"],
      "additionalProperties": false
    }
  }
]"#;

/// The order the stand-in `get_order` knows; any other id is a tool failure.
const KNOWN_ORDER: &str = "ORD-2024-000042";

/// The registry of the four tools with their handlers.
///
/// # Errors
/// A message if the declarations do not load or a name is registered twice: a bug in this
/// file, reported rather than panicked on.
pub fn registry() -> Result<Registry, String> {
    let specs: Vec<ToolSpec> = spec::load_tools(TOOLS_JSON)
        .map_err(|error| format!("the demo's tools do not load: {error}"))?;
    let mut registry = Registry::new();
    for spec in specs {
        let name = spec.name().to_owned();
        let registered = match name.as_str() {
            "search_orders" => registry.register(spec, search_orders),
            "get_order" => registry.register(spec, get_order),
            "issue_refund" => registry.register(spec, issue_refund),
            _ => registry.register(spec, send_email),
        };
        registered
            .map_err(|error| format!("the demo's tool '{name}' does not register: {error}"))?;
    }
    Ok(registry)
}

/// A string argument (the gate has already checked it is there and is a string).
fn text<'v>(args: &'v Value<'_>, key: &str) -> &'v str {
    args.get(key).and_then(Value::as_str).unwrap_or("")
}

fn search_orders(args: &Value<'_>) -> Result<String, String> {
    let status = args.get("status").and_then(Value::as_str);
    Ok(match status {
        Some(status) => format!("1 {status} order: {KNOWN_ORDER}"),
        None => format!("2 orders: {KNOWN_ORDER} (delivered), ORD-2024-000017 (refunded)"),
    })
}

fn get_order(args: &Value<'_>) -> Result<String, String> {
    let order_id = text(args, "order_id");
    if order_id == KNOWN_ORDER {
        Ok(format!("{KNOWN_ORDER}: keyboard, delivered, 129.99 EUR"))
    } else {
        Err(format!("orders service: 404 no order {order_id}"))
    }
}

fn issue_refund(args: &Value<'_>) -> Result<String, String> {
    let cents = args
        .get("amount_cents")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    Ok(format!(
        "refunded {}.{:02} on {}",
        cents / 100,
        cents % 100,
        text(args, "order_id")
    ))
}

fn send_email(args: &Value<'_>) -> Result<String, String> {
    Ok(format!("sent to {}", text(args, "to")))
}
