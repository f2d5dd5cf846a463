//! Validation allocates nothing on success: checked with a counting global allocator.
//!
//! This file is its own test binary because a global allocator applies to a whole binary;
//! the allocator is the one in `support/alloc.rs`.
#![cfg(all(feature = "pattern", feature = "format"))]

use toolgate::json;
use toolgate::{ToolSpec, Type};

#[path = "support/alloc.rs"]
mod alloc;
use alloc::{allocations_during, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Compares the allocations of validating `args` against `spec` with `expect`:
/// `"none"` (and valid), or `"some"` (and refused).
fn check(spec: &ToolSpec, args: &str, expect: &str) {
    let value = json::parse(args).unwrap_or_else(|e| panic!("test input {args}: {e}"));
    let mut valid = false;
    let n = allocations_during(|| valid = spec.validate(&value).is_ok());
    let got = match (valid, n) {
        (true, 0) => "none",
        (false, n) if n > 0 => "some",
        (valid, n) => panic!("{args}: valid {valid} with {n} allocations"),
    };
    assert_eq!(got, expect, "{args}");
}

fn spec() -> ToolSpec {
    ToolSpec::new("search_orders", "Search a customer's orders.")
        .required("customer_id", Type::string().min_length(3).max_length(64))
        .optional(
            "status",
            Type::string().one_of(["pending", "paid", "shipped", "delivered"]),
        )
        .optional(
            "filters",
            Type::object()
                .optional("since", Type::string().format("date"))
                .optional("limit", Type::integer().min(1).max(100))
                .optional("min_total", Type::number().min(0).multiple_of(0.01)),
        )
        .optional(
            "tags",
            Type::array(Type::string()).unique_items().max_items(10),
        )
        .optional(
            "ref",
            Type::any_of([Type::integer(), Type::string().min_length(1)]).nullable(),
        )
        .optional(
            "either",
            Type::exactly_one_of([Type::integer(), Type::string()]),
        )
        .optional(
            "meta",
            Type::object()
                .additional(Type::any().one_of([json::Value::from(1), json::Value::from("x")])),
        )
        // A pattern runs on state sets of fixed size, built at load; the long host
        // pattern has more states than the precomputed tables hold, so it runs the
        // table-free simulation.
        .optional(
            "sku",
            Type::string().pattern("^[A-Z]{3}-[0-9]{4,8}$|(a|a)*c"),
        )
        .optional(
            "host",
            Type::string().pattern(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}[a-z]{2,63}$"),
        )
        .optional(
            "labels",
            Type::object().pattern_field("^x-", Type::string().pattern(r"\bv\d+\b")),
        )
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn valid_arguments_allocate_nothing() {
    let spec = spec();
    for args in [
        r#"{"customer_id":"CUS-967852","status":"delivered","filters":{"since":"2024-09-17"}}"#,
        r#"{"customer_id":"CUS-1","filters":{"limit":100,"min_total":19.99}}"#,
        r#"{"customer_id":"Ünïcødé 日本","tags":["a","b","c"],"ref":"r-1"}"#,
        r#"{"customer_id":"CUS-1","ref":null,"either":"s","meta":{"k":1.0,"j":"x"}}"#,
        r#"{"customer_id":"CUS-1","ref":7,"either":3,"filters":{"limit":1e1}}"#,
        r#"{"customer_id":"CUS-1","sku":"ABC-12345","host":"api.example.com"}"#,
        r#"{"customer_id":"CUS-1","sku":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac"}"#,
        r#"{"customer_id":"CUS-1","labels":{"x-build":"release v12 final","x-tag":"v3"}}"#,
    ] {
        check(&spec, args, "none");
    }
}

#[test]
fn refused_arguments_build_their_violation() {
    // The counter is live: a refusal allocates its path, rule and received text.
    let spec = spec();
    check(
        &spec,
        r#"{"customer_id":"CUS-1","filters":{"limit":500}}"#,
        "some",
    );
    check(&spec, r#"{"customer_id":"CUS-1","tags":["a","a"]}"#, "some");
    check(&spec, r#"{"customer_id":"CUS-1","sku":"ABC-12"}"#, "some");
    check(
        &spec,
        r#"{"customer_id":"CUS-1","labels":{"x-build":"v12x"}}"#,
        "some",
    );
}
