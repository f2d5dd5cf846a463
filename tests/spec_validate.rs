//! Validation: the exact sentence a model reads for every rule, the documented order of
//! checks, duplicate keys at any depth, the validator's limits, and property tests (random
//! specs and values: never a panic, and agreement with a small reference checker).
#![cfg(feature = "format")]

mod support;

use std::fmt::Write as _;
use support::corpus::{corpus, read};
use support::rng::Rng;
use toolgate::json::{self, Value};
use toolgate::spec::{Kinds, Rule, Violation};
use toolgate::{ToolSpec, Type};

/// Validates `args` (JSON text) against `spec` and compares the outcome with `expect`:
/// `"ok"`, or the violation's full sentence.
fn check(spec: &ToolSpec, args: &str, expect: &str) {
    let value = json::parse(args).unwrap_or_else(|e| panic!("test input {args}: {e}"));
    let got = match spec.validate(&value) {
        Ok(()) => "ok".to_owned(),
        Err(violation) => violation.to_string(),
    };
    assert_eq!(got, expect, "spec {} with {args}", spec.name());
}

fn violation(spec: &ToolSpec, args: &str) -> Violation {
    let value = json::parse(args).unwrap_or_else(|e| panic!("test input {args}: {e}"));
    match spec.validate(&value) {
        Ok(()) => panic!("{args} should be refused by {}", spec.name()),
        Err(violation) => violation,
    }
}

fn build(spec: toolgate::spec::build::ToolSpecBuilder) -> ToolSpec {
    spec.build()
        .unwrap_or_else(|e| panic!("spec should build: {e}"))
}

/// The corpus's `search_orders` tool (`../shared/corpus/tools.json`), declared in Rust.
fn search_orders() -> ToolSpec {
    build(
        ToolSpec::new("search_orders", "Search a customer's orders.")
            .required("customer_id", Type::string().min_length(3).max_length(64))
            .optional(
                "status",
                Type::string().one_of([
                    "pending",
                    "paid",
                    "shipped",
                    "delivered",
                    "cancelled",
                    "refunded",
                ]),
            )
            .optional("query", Type::string().max_length(200))
            .optional(
                "filters",
                Type::object()
                    .optional("since", Type::string().format("date"))
                    .optional("limit", Type::integer().min(1).max(100))
                    .optional("min_total", Type::number().min(0)),
            ),
    )
}

/// One spec with a field for every rule.
fn every_rule() -> ToolSpec {
    build(
        ToolSpec::new("every_rule", "A field for every rule.")
            .optional("amount_cents", Type::integer().min(1).max(500000))
            .optional("ratio", Type::number().exclusive_min(0).max(1))
            .optional("above", Type::number().exclusive_min(0))
            .optional("below", Type::number().exclusive_max(10))
            .optional(
                "both_open",
                Type::number().exclusive_min(0).exclusive_max(1),
            )
            .optional("at_most", Type::integer().max(100))
            .optional("price", Type::number().multiple_of(0.01))
            .optional("code", Type::string().min_length(2).max_length(4))
            .optional("pin", Type::string().min_length(4).max_length(4))
            .optional("nick", Type::string().max_length(1))
            .optional(
                "tags",
                Type::array(Type::string()).min_items(1).max_items(3),
            )
            .optional("ids", Type::array(Type::integer()).unique_items())
            .optional("pair", Type::array(Type::any()).min_items(2).max_items(2))
            .optional("mode", Type::string().constant("fast"))
            .optional("flag", Type::boolean())
            .optional("note", Type::string().nullable())
            .optional("colour", Type::string().one_of(["red", "green"]).nullable())
            .optional(
                "items",
                Type::array(
                    Type::object()
                        .required("sku", Type::string())
                        .optional("qty", Type::integer().min(1)),
                ),
            )
            .optional("labels", Type::object().additional(Type::string()))
            .optional("extra", Type::object().open())
            .optional("nothing", Type::object())
            .optional(
                "id_or_name",
                Type::any_of([Type::integer(), Type::string().min_length(1)]),
            )
            .optional(
                "shape",
                Type::any_of([
                    Type::object().required("radius", Type::number()),
                    Type::object().required("side", Type::number()),
                ]),
            )
            .optional(
                "exactly",
                Type::exactly_one_of([Type::integer(), Type::number().min(0)]),
            )
            .optional(
                "both",
                Type::all_of([Type::integer().min(0), Type::integer().multiple_of(5)]),
            ),
    )
}

#[test]
fn every_rule_has_an_exact_sentence() {
    let spec = every_rule();
    let table = [
        // type
        (
            r#"{"flag":"yes"}"#,
            r#"flag must be a boolean; received "yes""#,
        ),
        (
            r#"{"amount_cents":1.5}"#,
            "amount_cents must be an integer; received 1.5",
        ),
        (
            r#"{"amount_cents":true}"#,
            "amount_cents must be an integer; received true",
        ),
        (r#"{"note":5}"#, "note must be a string or null; received 5"),
        (r#"{"items":{}}"#, "items must be an array; received {}"),
        // minimum / maximum, inclusive and exclusive, with the whole range in words
        (
            r#"{"amount_cents":0}"#,
            "amount_cents must be an integer from 1 to 500000; received 0",
        ),
        (
            r#"{"amount_cents":500001}"#,
            "amount_cents must be an integer from 1 to 500000; received 500001",
        ),
        (
            r#"{"ratio":0}"#,
            "ratio must be greater than 0 and at most 1; received 0",
        ),
        (
            r#"{"ratio":1.01}"#,
            "ratio must be greater than 0 and at most 1; received 1.01",
        ),
        (
            r#"{"above":-3}"#,
            "above must be greater than 0; received -3",
        ),
        (r#"{"below":10}"#, "below must be less than 10; received 10"),
        (
            r#"{"both_open":1}"#,
            "both_open must be greater than 0 and less than 1; received 1",
        ),
        (
            r#"{"at_most":101}"#,
            "at_most must be at most 100; received 101",
        ),
        // multipleOf
        (
            r#"{"price":19.999}"#,
            "price must be a multiple of 0.01; received 19.999",
        ),
        // lengths, in code points
        (
            r#"{"code":"a"}"#,
            r#"code must be from 2 to 4 characters long; received "a""#,
        ),
        (
            r#"{"code":"abcde"}"#,
            r#"code must be from 2 to 4 characters long; received "abcde""#,
        ),
        (
            r#"{"pin":"123"}"#,
            r#"pin must be exactly 4 characters long; received "123""#,
        ),
        (
            r#"{"nick":"ab"}"#,
            r#"nick must be at most 1 character long; received "ab""#,
        ),
        // items
        (
            r#"{"tags":[]}"#,
            "tags must have from 1 to 3 items; received []",
        ),
        (
            r#"{"tags":["a","b","c","d"]}"#,
            r#"tags must have from 1 to 3 items; received ["a","b","c","d"]"#,
        ),
        (
            r#"{"pair":[1]}"#,
            "pair must have exactly 2 items; received [1]",
        ),
        (
            r#"{"ids":[1,2,3,2.0]}"#,
            "ids must not repeat an item, but items 1 and 3 are equal; received [1,2,3,2.0]",
        ),
        // enum and const
        (
            r#"{"colour":"blue"}"#,
            r#"colour must be one of "red", "green", null; received "blue""#,
        ),
        (
            r#"{"mode":"slow"}"#,
            r#"mode must be "fast"; received "slow""#,
        ),
        // required, at the root and nested with an index in the path
        (
            r#"{"items":[{"sku":"A"},{"sku":"B"},{"qty":2}]}"#,
            "items.2 is missing required field 'sku'",
        ),
        (
            r#"{"items":[{"sku":"A","qty":0}]}"#,
            "items.0.qty must be at least 1; received 0",
        ),
        // unknown fields, with the allowed ones
        (
            r#"{"items":[{"sku":"A","colour":"red"}]}"#,
            "items.0 has unknown field 'colour'; allowed fields: sku, qty",
        ),
        (
            r#"{"nothing":{"a":1}}"#,
            "nothing has unknown field 'a'; no fields are allowed",
        ),
        // maps and open objects
        (
            r#"{"labels":{"a":"x","b":2}}"#,
            "labels.b must be a string; received 2",
        ),
        (r#"{"extra":{"anything":[1,{"x":null}]}}"#, "ok"),
        // duplicate keys
        (r#"{"flag":true,"flag":false}"#, "duplicate field 'flag'"),
        (
            r#"{"extra":{"a":1,"a":1}}"#,
            "extra has duplicate field 'a'",
        ),
        // anyOf: no alternative takes the kind, one does, several do
        (
            r#"{"id_or_name":true}"#,
            "id_or_name must be a string or an integer; received true",
        ),
        (
            r#"{"id_or_name":""}"#,
            r#"id_or_name must be at least 1 character long; received """#,
        ),
        (
            r#"{"shape":{"edge":1}}"#,
            r#"shape must match at least one of its 2 alternatives; received {"edge":1}"#,
        ),
        // oneOf: none, and more than one
        (
            r#"{"exactly":"x"}"#,
            r#"exactly must be a number; received "x""#,
        ),
        (
            r#"{"exactly":3}"#,
            "exactly must match exactly one of its 2 alternatives, but matches 2; received 3",
        ),
        (r#"{"exactly":2.5}"#, "ok"),
        (
            r#"{"exactly":-1.5}"#,
            "exactly must be at least 0; received -1.5",
        ),
        // allOf
        (r#"{"both":7}"#, "both must be a multiple of 5; received 7"),
        (r#"{"both":-5}"#, "both must be at least 0; received -5"),
    ];
    for (args, expect) in table {
        check(&spec, args, expect);
    }
}

#[test]
fn unknown_root_fields_and_missing_ones_read_as_whole_sentences() {
    let spec = search_orders();
    check(&spec, r#"{}"#, "missing required field 'customer_id'");
    check(
        &spec,
        r#"{"customer_id":"CUS-1","colour":"red"}"#,
        "unknown field 'colour'; allowed fields: customer_id, status, query, filters",
    );
    check(
        &spec,
        r#"{"customer_id":"CUS-1","status":"shiped"}"#,
        r#"status must be one of "pending", "paid", "shipped", "delivered", "cancelled", "refunded"; received "shiped""#,
    );
    check(
        &spec,
        r#"{"customer_id":"CUS-1","filters":{"limit":500}}"#,
        "filters.limit must be an integer from 1 to 100; received 500",
    );
    check(
        &spec,
        r#"{"customer_id":"CUS-967852","status":"delivered","filters":{"since":"2024-09-17"}}"#,
        "ok",
    );
}

#[test]
fn rules_carry_their_data_and_labels() {
    let spec = every_rule();
    let cases: [(&str, &str, &str, Rule); 6] = [
        (
            r#"{"ids":[5,6,5]}"#,
            "unique_items",
            "ids",
            Rule::UniqueItems {
                first: 0,
                second: 2,
            },
        ),
        (
            r#"{"items":[{"qty":1}]}"#,
            "required",
            "items.0",
            Rule::Required {
                field: "sku".into(),
            },
        ),
        (
            r#"{"exactly":3}"#,
            "one_of",
            "exactly",
            Rule::OneOf {
                alternatives: 2,
                matched: 2,
            },
        ),
        (
            r#"{"flag":1}"#,
            "type",
            "flag",
            Rule::Type {
                expected: Kinds::BOOLEAN,
            },
        ),
        (
            r#"{"a":1,"a":2}"#,
            "duplicate_key",
            "",
            Rule::DuplicateKey { key: "a".into() },
        ),
        (
            r#"{"shape":[]}"#,
            "type",
            "shape",
            Rule::Type {
                expected: Kinds::OBJECT,
            },
        ),
    ];
    for (args, label, path, rule) in cases {
        let found = violation(&spec, args);
        assert_eq!(found.rule().label(), label, "{args}");
        assert_eq!(found.path(), path, "{args}");
        assert_eq!(found.rule(), &rule, "{args}");
    }
    let unknown = violation(&spec, r#"{"nothing":{"x":1}}"#);
    assert_eq!(unknown.rule().label(), "additional");
    assert_eq!(unknown.received(), r#"{"x":1}"#);
    let range = violation(&spec, r#"{"amount_cents":0}"#);
    match range.rule() {
        Rule::Minimum {
            minimum,
            maximum,
            integer,
        } => {
            assert_eq!(minimum.value().as_str(), "1");
            assert!(!minimum.is_exclusive());
            assert_eq!(maximum.as_ref().map(|b| b.value().as_str()), Some("500000"));
            assert!(*integer);
        }
        other => panic!("expected a minimum violation, got {other:?}"),
    }
}

#[test]
fn every_label_is_distinct_and_snake_case() {
    let labels = [
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "multiple_of",
        "min_length",
        "max_length",
        "min_items",
        "max_items",
        "unique_items",
        "required",
        "additional",
        "duplicate_key",
        "property_names",
        "any_of",
        "one_of",
        "too_deep",
        "too_complex",
    ];
    let spec = every_rule();
    // Each rule this spec can break reports one of the documented labels.
    for args in [
        r#"{"flag":1}"#,
        r#"{"colour":"x"}"#,
        r#"{"mode":"x"}"#,
        r#"{"at_most":1000}"#,
        r#"{"price":0.001}"#,
        r#"{"code":"x"}"#,
        r#"{"tags":[]}"#,
    ] {
        let label = violation(&spec, args).rule().label();
        assert!(labels.contains(&label), "{label}");
        assert!(label.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
    }
}

#[test]
fn received_values_are_cut_at_120_characters_on_a_character_boundary() {
    let spec = build(ToolSpec::new("t", "d").required("n", Type::integer()));
    let long = "é".repeat(300);
    let args = format!(r#"{{"n":"{long}"}}"#);
    let found = violation(&spec, &args);
    let expected = format!("\"{}…", "é".repeat(119));
    assert_eq!(found.received(), expected);
    assert_eq!(found.received().chars().count(), 121);
}

#[test]
fn integers_are_numbers_without_a_fraction_within_i64() {
    let spec = build(ToolSpec::new("t", "d").required("n", Type::integer()));
    for good in [
        "1",
        "1.0",
        "1e2",
        "-0",
        "9223372036854775807",
        "-9223372036854775808",
    ] {
        check(&spec, &format!(r#"{{"n":{good}}}"#), "ok");
    }
    for bad in [
        "1.5",
        "true",
        "\"1\"",
        "9223372036854775808",
        "1e19",
        "null",
    ] {
        let found = violation(&spec, &format!(r#"{{"n":{bad}}}"#));
        assert_eq!(found.rule().label(), "type", "{bad}");
    }
}

#[test]
fn bounds_compare_exactly_beyond_f64_precision() {
    let spec = build(
        ToolSpec::new("t", "d")
            .optional("n", Type::number().max(9007199254740992i64))
            .optional("i", Type::integer().min(i64::MAX - 1)),
    );
    check(&spec, r#"{"n":9007199254740992}"#, "ok");
    check(
        &spec,
        r#"{"n":9007199254740993}"#,
        "n must be at most 9007199254740992; received 9007199254740993",
    );
    check(&spec, r#"{"i":9223372036854775807}"#, "ok");
    check(
        &spec,
        r#"{"i":9223372036854775805}"#,
        "i must be at least 9223372036854775806; received 9223372036854775805",
    );
}

#[test]
fn lengths_count_code_points() {
    let spec =
        build(ToolSpec::new("t", "d").required("s", Type::string().min_length(2).max_length(3)));
    check(&spec, r#"{"s":"日本"}"#, "ok");
    check(&spec, r#"{"s":"💩💩💩"}"#, "ok");
    check(
        &spec,
        r#"{"s":"💩"}"#,
        r#"s must be from 2 to 3 characters long; received "💩""#,
    );
    check(
        &spec,
        r#"{"s":"éééé"}"#,
        r#"s must be from 2 to 3 characters long; received "éééé""#,
    );
}

#[test]
fn enum_and_const_use_json_schema_equality() {
    let spec = build(
        ToolSpec::new("t", "d")
            .optional("n", Type::any().one_of([1, 2]))
            .optional(
                "o",
                Type::any().constant(
                    json::parse(r#"{"a":[1,{"b":2}],"c":true}"#)
                        .unwrap()
                        .into_owned(),
                ),
            ),
    );
    check(&spec, r#"{"n":1.0}"#, "ok");
    check(&spec, r#"{"n":2e0}"#, "ok");
    check(
        &spec,
        r#"{"n":true}"#,
        "n must be one of 1, 2; received true",
    );
    check(&spec, r#"{"o":{"c":true,"a":[1.0,{"b":2}]}}"#, "ok");
    check(
        &spec,
        r#"{"o":{"c":true,"a":[{"b":2},1]}}"#,
        r#"o must be {"a":[1,{"b":2}],"c":true}; received {"c":true,"a":[{"b":2},1]}"#,
    );
}

#[test]
fn the_corpus_declaration_and_the_rust_one_give_the_same_sentences() {
    let Some(dir) = corpus() else { return };
    let text = read(&dir, "tools.json");
    let loaded = toolgate::spec::load_tools(&text).unwrap_or_else(|e| panic!("{e}"));
    let imported = loaded
        .iter()
        .find(|spec| spec.name() == "search_orders")
        .unwrap_or_else(|| panic!("search_orders is in the corpus"));
    let built = search_orders();
    for args in [
        r#"{"customer_id":"CUS-967852","status":"delivered","filters":{"since":"2024-09-17"}}"#,
        r#"{}"#,
        r#"{"customer_id":"CU"}"#,
        r#"{"customer_id":"CUS-1","status":"shiped"}"#,
        r#"{"customer_id":"CUS-1","filters":{"limit":0}}"#,
        r#"{"customer_id":"CUS-1","filters":{"limit":2.5}}"#,
        r#"{"customer_id":"CUS-1","filters":{"min_total":-1}}"#,
        r#"{"customer_id":"CUS-1","filters":{"sort":"asc"}}"#,
        r#"{"customer_id":"CUS-1","colour":"red"}"#,
        r#"{"customer_id":"CUS-1","customer_id":"CUS-2"}"#,
    ] {
        let value = json::parse(args).unwrap_or_else(|e| panic!("{args}: {e}"));
        let sentence = |spec: &ToolSpec| match spec.validate(&value) {
            Ok(()) => "ok".to_owned(),
            Err(violation) => violation.to_string(),
        };
        assert_eq!(sentence(imported), sentence(&built), "{args}");
    }
}

#[test]
fn the_order_of_checks_is_the_documented_one() {
    let spec = search_orders();
    // 1. Duplicate keys anywhere come before every schema rule.
    check(
        &spec,
        r#"{"colour":1,"filters":{"limit":1,"limit":2}}"#,
        "filters has duplicate field 'limit'",
    );
    // Unknown fields (input order) come before missing required fields.
    check(
        &spec,
        r#"{"customerid":"CUS-1","colour":"red"}"#,
        "unknown field 'customerid'; allowed fields: customer_id, status, query, filters",
    );
    // Missing required fields come before field values.
    check(
        &spec,
        r#"{"status":"lost"}"#,
        "missing required field 'customer_id'",
    );
    // Field values are checked in declaration order, not input order.
    check(
        &spec,
        r#"{"filters":{"limit":0},"status":"lost","customer_id":"CUS-1"}"#,
        r#"status must be one of "pending", "paid", "shipped", "delivered", "cancelled", "refunded"; received "lost""#,
    );
    // enum before kind: the allowed values say more than the kind.
    check(
        &spec,
        r#"{"customer_id":"CUS-1","status":5}"#,
        r#"status must be one of "pending", "paid", "shipped", "delivered", "cancelled", "refunded"; received 5"#,
    );
    // Kind before kind-specific rules; minimum before maximum; min before max length.
    let every = every_rule();
    check(&every, r#"{"code":5}"#, "code must be a string; received 5");
    // Array size before uniqueness before items.
    check(
        &every,
        r#"{"tags":[1,1,1,1]}"#,
        "tags must have from 1 to 3 items; received [1,1,1,1]",
    );
    check(
        &every,
        r#"{"ids":["x","x"]}"#,
        r#"ids must not repeat an item, but items 0 and 1 are equal; received ["x","x"]"#,
    );
    // Items in index order.
    check(
        &every,
        r#"{"items":[{"sku":1},{"qty":1}]}"#,
        "items.0.sku must be a string; received 1",
    );
}

#[test]
fn duplicate_keys_are_found_at_any_depth_even_where_the_spec_says_nothing() {
    let spec = build(ToolSpec::new("t", "d").optional("any", Type::any()).open());
    check(
        &spec,
        r#"{"any":[{"x":{"y":1,"y":1}}]}"#,
        "any.0.x has duplicate field 'y'",
    );
    check(
        &spec,
        r#"{"other":{"k":1,"k":2}}"#,
        "other has duplicate field 'k'",
    );
    // More than 32 members: the sorted path reports the same first repeat.
    let mut members: Vec<String> = (0..40).map(|i| format!(r#""k{i}":{i}"#)).collect();
    members.push(r#""k7":0"#.into());
    members.push(r#""k3":0"#.into());
    let args = format!(r#"{{"any":{{{}}}}}"#, members.join(","));
    check(&spec, &args, "any has duplicate field 'k7'");
}

#[test]
fn values_nested_beyond_the_limit_are_refused_not_overflowed() {
    let spec = build(ToolSpec::new("t", "d").optional("v", Type::any()));
    // Built by hand, deeper than any parser limit.
    let mut deep = Value::Null;
    for _ in 0..2000 {
        deep = Value::Array(vec![deep]);
    }
    let args = Value::Object(vec![("v".into(), deep)]);
    let found = spec
        .validate(&args)
        .map(|()| "ok".to_owned())
        .unwrap_or_else(|v| {
            assert_eq!(v.rule(), &Rule::TooDeep { limit: 256 });
            v.rule().label().to_owned()
        });
    assert_eq!(found, "too_deep");
    // As deep as the parser allows by default passes.
    let text = format!(r#"{{"v":{}{}}}"#, "[".repeat(126), "]".repeat(126));
    check(&spec, &text, "ok");
}

#[test]
fn nullable_keeps_null_allowed_wherever_it_is_declared() {
    let spec = build(
        ToolSpec::new("t", "d")
            .optional("a", Type::string().one_of(["x"]).nullable())
            .optional("b", Type::string().nullable().one_of(["x"]))
            .optional("c", Type::integer().constant(3).nullable())
            .optional(
                "d",
                Type::any_of([Type::integer(), Type::boolean()]).nullable(),
            )
            .optional(
                "e",
                Type::exactly_one_of([Type::integer(), Type::number()]).nullable(),
            )
            .optional("f", Type::string().min_length(2).nullable())
            .optional("g", Type::any().one_of([1, 2]).nullable()),
    );
    for field in ["a", "b", "c", "d", "e", "f", "g"] {
        check(&spec, &format!(r#"{{"{field}":null}}"#), "ok");
    }
    check(
        &spec,
        r#"{"b":"y"}"#,
        r#"b must be one of "x", null; received "y""#,
    );
    check(&spec, r#"{"c":4}"#, "c must be one of 3, null; received 4");
    check(
        &spec,
        r#"{"d":"s"}"#,
        r#"d must be an integer, a boolean or null; received "s""#,
    );
    check(&spec, r#"{"e":1.5}"#, "ok");
    check(
        &spec,
        r#"{"f":"x"}"#,
        r#"f must be at least 2 characters long; received "x""#,
    );
}

// ---------------------------------------------------------------------------------------
// Property tests: random flat specs and random values.

/// One field of a random spec, described plainly so the reference checker can read it.
#[derive(Clone, Debug)]
enum FieldSpec {
    Str { min: Option<u64>, max: Option<u64> },
    Int { min: Option<i64>, max: Option<i64> },
    Choice(Vec<&'static str>),
    Bool,
}

#[derive(Clone, Debug)]
struct Declared {
    name: String,
    spec: FieldSpec,
    required: bool,
    nullable: bool,
}

const NAMES: [&str; 8] = ["a", "b", "city", "units", "limit", "id", "x_y", "z-9"];
const WORDS: [&str; 6] = ["red", "green", "blue", "é", "日本語", ""];

fn random_spec(rng: &mut Rng) -> (Vec<Declared>, bool, ToolSpec) {
    let mut builder = ToolSpec::new("random", "A random spec.");
    let mut declared = Vec::new();
    let n_fields = rng.range(0, 5);
    for name in NAMES.iter().take(n_fields) {
        let spec = match rng.below(4) {
            0 => {
                let min = rng.chance(1, 2).then(|| rng.range(0, 3) as u64);
                let max = rng
                    .chance(1, 2)
                    .then(|| min.unwrap_or(0) + rng.range(0, 3) as u64);
                FieldSpec::Str { min, max }
            }
            1 => {
                let min = rng.chance(1, 2).then(|| rng.range(0, 20) as i64 - 10);
                let max = rng
                    .chance(1, 2)
                    .then(|| min.unwrap_or(-10) + rng.range(0, 20) as i64);
                FieldSpec::Int { min, max }
            }
            2 => {
                let n = rng.range(1, 3);
                FieldSpec::Choice(WORDS.iter().take(n).copied().collect())
            }
            _ => FieldSpec::Bool,
        };
        let mut ty = match &spec {
            FieldSpec::Str { min, max } => {
                let mut ty = Type::string();
                if let Some(min) = min {
                    ty = ty.min_length(*min);
                }
                if let Some(max) = max {
                    ty = ty.max_length(*max);
                }
                ty
            }
            FieldSpec::Int { min, max } => {
                let mut ty = Type::integer();
                if let Some(min) = min {
                    ty = ty.min(*min);
                }
                if let Some(max) = max {
                    ty = ty.max(*max);
                }
                ty
            }
            FieldSpec::Choice(words) => Type::string().one_of(words.clone()),
            FieldSpec::Bool => Type::boolean(),
        };
        let nullable = rng.chance(1, 4);
        if nullable {
            ty = ty.nullable();
        }
        let required = rng.bool();
        builder = if required {
            builder.required(*name, ty)
        } else {
            builder.optional(*name, ty)
        };
        declared.push(Declared {
            name: (*name).to_owned(),
            spec,
            required,
            nullable,
        });
    }
    let open = rng.chance(1, 5);
    if open {
        builder = builder.open();
    }
    let spec = builder
        .build()
        .unwrap_or_else(|e| panic!("random spec must build: {e}"));
    (declared, open, spec)
}

fn random_scalar(rng: &mut Rng) -> String {
    match rng.below(7) {
        0 => "null".into(),
        1 => "true".into(),
        2 => format!("{}", rng.range(0, 30) as i64 - 15),
        3 => format!("{}.5", rng.range(0, 10)),
        4 => format!("{}.0", rng.range(0, 10)),
        5 => format!("{:?}", rng.pick(&WORDS)),
        _ => format!("\"{}\"", "x".repeat(rng.range(0, 5))),
    }
}

fn random_args(rng: &mut Rng) -> String {
    let mut out = String::from("{");
    let n = rng.range(0, 5);
    for index in 0..n {
        if index > 0 {
            out.push(',');
        }
        let name = rng.pick(&NAMES);
        let value = if rng.chance(1, 10) {
            format!("[{}]", random_scalar(rng))
        } else {
            random_scalar(rng)
        };
        let _ = write!(out, "{name:?}:{value}");
    }
    out.push('}');
    out
}

/// Arguments shaped by the spec (so that many are valid), one value perhaps replaced by a
/// random one.
fn guided_args(rng: &mut Rng, declared: &[Declared]) -> String {
    let mut members = Vec::new();
    for d in declared {
        if !d.required && rng.chance(1, 3) {
            continue;
        }
        let value = if d.nullable && rng.chance(1, 4) {
            "null".to_owned()
        } else {
            match &d.spec {
                FieldSpec::Str { min, max } => {
                    let low = min.unwrap_or(0) as usize;
                    let high = max.map_or(low + 3, |m| m as usize);
                    format!("\"{}\"", "é".repeat(rng.range(low, high)))
                }
                FieldSpec::Int { min, max } => {
                    let low = min.unwrap_or(-20);
                    let high = max.unwrap_or(low + 20);
                    format!("{}", low + rng.range(0, (high - low) as usize) as i64)
                }
                FieldSpec::Choice(words) => format!("{:?}", rng.pick(words)),
                FieldSpec::Bool => "false".to_owned(),
            }
        };
        members.push((d.name.as_str(), value));
    }
    if !members.is_empty() && rng.chance(1, 3) {
        let index = rng.below(members.len());
        if let Some((_, value)) = members.get_mut(index) {
            *value = random_scalar(rng);
        }
    }
    let members: Vec<String> = members
        .iter()
        .map(|(name, value)| format!("{name:?}:{value}"))
        .collect();
    format!("{{{}}}", members.join(","))
}

/// A reference checker written from the documented order, independently of the
/// validator: returns `None` for valid, else the expected label and path.
fn reference(
    declared: &[Declared],
    open: bool,
    args: &Value<'_>,
) -> Option<(&'static str, String)> {
    let members = args.as_object()?;
    for (index, (key, _)) in members.iter().enumerate() {
        if members.iter().take(index).any(|(other, _)| other == key) {
            return Some(("duplicate_key", String::new()));
        }
    }
    if !open {
        for (key, _) in members {
            if !declared.iter().any(|d| d.name == *key) {
                return Some(("additional", String::new()));
            }
        }
    }
    for d in declared {
        if d.required && args.get(&d.name).is_none() {
            return Some(("required", String::new()));
        }
    }
    for d in declared {
        let Some(value) = args.get(&d.name) else {
            continue;
        };
        let path = d.name.clone();
        if value.is_null() && d.nullable {
            continue;
        }
        // Issue #11: strict mode's `null` for an optional field (whose schema refuses it)
        // reads as absent.
        if value.is_null() && !d.required {
            continue;
        }
        match &d.spec {
            FieldSpec::Choice(words) => {
                if !value.as_str().is_some_and(|s| words.contains(&s)) {
                    return Some(("enum", path));
                }
            }
            FieldSpec::Bool => {
                if value.as_bool().is_none() {
                    return Some(("type", path));
                }
            }
            FieldSpec::Str { min, max } => {
                let Some(s) = value.as_str() else {
                    return Some(("type", path));
                };
                let n = s.chars().count() as u64;
                if min.is_some_and(|m| n < m) {
                    return Some(("min_length", path));
                }
                if max.is_some_and(|m| n > m) {
                    return Some(("max_length", path));
                }
            }
            FieldSpec::Int { min, max } => {
                let Some(f) = value.as_f64().filter(|f| f.fract() == 0.0) else {
                    return Some(("type", path));
                };
                let n = f as i64;
                if min.is_some_and(|m| n < m) {
                    return Some(("minimum", path));
                }
                if max.is_some_and(|m| n > m) {
                    return Some(("maximum", path));
                }
            }
        }
    }
    None
}

#[test]
fn random_specs_and_values_agree_with_the_reference_checker() {
    let mut rng = Rng::from_env();
    let (mut n_valid, mut n_invalid) = (0, 0);
    for _ in 0..Rng::iters(3000) {
        let (declared, open, spec) = random_spec(&mut rng);
        for _ in 0..5 {
            let text = if rng.bool() {
                random_args(&mut rng)
            } else {
                guided_args(&mut rng, &declared)
            };
            let args = json::parse(&text).unwrap_or_else(|e| panic!("generated {text}: {e}"));
            let expected = reference(&declared, open, &args);
            let got = spec
                .validate(&args)
                .err()
                .map(|v| (v.rule().label(), v.path().to_owned()));
            assert_eq!(
                got,
                expected,
                "seed {}: spec {declared:?} open {open}, args {text}",
                rng.seed()
            );
            if got.is_some() {
                n_invalid += 1;
            } else {
                n_valid += 1;
            }
        }
    }
    // Both outcomes must be well represented, or the property says little.
    println!("{n_valid} valid, {n_invalid} invalid");
    assert!(
        n_valid > 1000 && n_invalid > 1000,
        "{n_valid} valid, {n_invalid} invalid"
    );
}

fn random_value(rng: &mut Rng, depth: usize) -> String {
    if depth > 4 || rng.chance(1, 2) {
        return random_scalar(rng);
    }
    let n = rng.range(0, 4);
    let parts: Vec<String> = (0..n).map(|_| random_value(rng, depth + 1)).collect();
    if rng.bool() {
        format!("[{}]", parts.join(","))
    } else {
        let members: Vec<String> = parts
            .iter()
            .map(|part| format!("{:?}:{part}", rng.pick(&NAMES)))
            .collect();
        format!("{{{}}}", members.join(","))
    }
}

fn random_type(rng: &mut Rng, depth: usize) -> Type {
    let leaf = depth > 3 || rng.chance(1, 3);
    let ty = match rng.below(if leaf { 6 } else { 10 }) {
        0 => Type::string().max_length(rng.range(0, 4) as u64),
        1 => Type::integer().min(rng.range(0, 5) as i64 - 2),
        2 => Type::number().multiple_of(0.5),
        3 => Type::boolean(),
        4 => Type::any().one_of([1, 2]),
        5 => Type::null(),
        6 => Type::array(random_type(rng, depth + 1)).unique_items(),
        7 => {
            let mut ty = Type::object();
            for name in NAMES.iter().take(rng.range(0, 3)) {
                ty = if rng.bool() {
                    ty.required(*name, random_type(rng, depth + 1))
                } else {
                    ty.optional(*name, random_type(rng, depth + 1))
                };
            }
            if rng.bool() {
                ty.additional(random_type(rng, depth + 1))
            } else {
                ty
            }
        }
        8 => Type::any_of((0..rng.range(1, 3)).map(|_| random_type(rng, depth + 1))),
        _ => Type::exactly_one_of((0..rng.range(1, 3)).map(|_| random_type(rng, depth + 1))),
    };
    if rng.chance(1, 5) {
        ty.nullable()
    } else {
        ty
    }
}

#[test]
fn random_nested_specs_never_panic_and_messages_are_never_empty() {
    let mut rng = Rng::from_env();
    for _ in 0..Rng::iters(3000) {
        let mut builder = ToolSpec::new("nested", "Random nested types.");
        for name in NAMES.iter().take(rng.range(0, 4)) {
            builder = builder.optional(*name, random_type(&mut rng, 0));
        }
        let spec = builder
            .build()
            .unwrap_or_else(|e| panic!("seed {}: {e}", rng.seed()));
        for _ in 0..5 {
            let text = format!(
                "{{{}}}",
                NAMES
                    .iter()
                    .take(rng.range(0, 4))
                    .map(|name| format!("{name:?}:{}", random_value(&mut rng, 0)))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let args = json::parse(&text).unwrap_or_else(|e| panic!("generated {text}: {e}"));
            if let Err(found) = spec.validate(&args) {
                let sentence = found.to_string();
                assert!(!sentence.is_empty(), "seed {}: {text}", rng.seed());
                assert!(!found.rule().label().is_empty());
                // The path names a place that exists in the arguments.
                let mut node = &args;
                for segment in found.path().split('.').filter(|s| !s.is_empty()) {
                    node = match node {
                        Value::Object(_) => node.get(segment),
                        Value::Array(items) => {
                            segment.parse().ok().and_then(|i: usize| items.get(i))
                        }
                        _ => None,
                    }
                    .unwrap_or_else(|| {
                        panic!("seed {}: path {} in {text}", rng.seed(), found.path())
                    });
                }
            }
        }
    }
}

#[test]
fn debug_of_a_violation_names_the_kinds_and_bounds() {
    let spec = ToolSpec::new("t", "d")
        .required("a", Type::string().nullable())
        .required("n", Type::integer().min(1))
        .build()
        .unwrap();
    let violation = |args: &str| spec.validate(&json::parse(args).unwrap()).unwrap_err();
    assert_eq!(
        format!("{:?}", violation(r#"{"a":1,"n":1}"#)),
        r#"Violation { path: "a", rule: Type { expected: Kinds(string | null) }, received: "1" }"#
    );
    assert_eq!(
        format!("{:?}", violation(r#"{"a":"x","n":0}"#)),
        r#"Violation { path: "n", rule: Minimum { minimum: Bound { value: 1, exclusive: false }, maximum: None, integer: true }, received: "0" }"#
    );
    assert_eq!(format!("{:?}", Kinds::ANY), "Kinds(any)");
    assert_eq!(format!("{:?}", Kinds::NONE), "Kinds(none)");
    assert_eq!(format!("{:?}", Kinds::NUMBER), "Kinds(number)");
    assert_eq!(
        format!(
            "{:?}",
            Kinds::INTEGER.union(Kinds::ARRAY).union(Kinds::BOOLEAN)
        ),
        "Kinds(integer | boolean | array)"
    );
}
