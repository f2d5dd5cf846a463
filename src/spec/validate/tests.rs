//! Unit tests for what the public builder cannot express: definitions and `$ref` (recursion,
//! cycles, dangling references), `false` schemas, `propertyNames`, and the step budget.

use crate::json::{self, Value};
use crate::spec::build::{check_schema, SpecErrorKind};
use crate::spec::{Field, Kinds, ObjectType, Rule, Schema, ToolSpec, Type};

fn reference(index: usize) -> Type {
    Type {
        reference: Some(index),
        ..Type::default()
    }
}

fn object(fields: Vec<(&str, Type, bool)>) -> Type {
    let mut ty = Type::object();
    if let Some(rules) = &mut ty.object {
        rules.fields = fields
            .into_iter()
            .map(|(name, ty, required)| Field {
                name: name.to_owned(),
                ty,
                required,
                declared: true,
            })
            .collect();
    }
    ty
}

fn check(schema: &Schema, args: &str, expect: &str) {
    let value = json::parse(args).unwrap_or_else(|e| panic!("test input {args}: {e}"));
    let got = match schema.validate(&value) {
        Ok(()) => "ok".to_owned(),
        Err(violation) => violation.to_string(),
    };
    assert_eq!(got, expect, "{args}");
}

/// `Node = {value: integer, children?: [Node]}`, and the arguments `{tree: Node}`.
fn tree() -> Schema {
    let node = object(vec![
        ("value", Type::integer(), true),
        ("children", Type::array(reference(0)), false),
    ]);
    Schema {
        root: object(vec![("tree", reference(0), true)]),
        defs: vec![("Node".to_owned(), node)],
        ..Schema::default()
    }
}

#[test]
fn recursive_definitions_validate_and_report_deep_paths() {
    let schema = tree();
    assert_eq!(check_schema(&schema), Ok(()));
    check(
        &schema,
        r#"{"tree":{"value":1,"children":[{"value":2},{"value":3,"children":[]}]}}"#,
        "ok",
    );
    check(
        &schema,
        r#"{"tree":{"value":1,"children":[{"value":2},{"value":3,"children":[{"value":"x"}]}]}}"#,
        r#"tree.children.1.children.0.value must be an integer; received "x""#,
    );
    let spec = ToolSpec::from_schema("walk", "Walks a tree.", schema);
    assert!(spec.is_ok());
}

#[test]
fn a_definition_that_refers_to_itself_without_input_is_refused_and_still_terminates() {
    let schema = Schema {
        root: object(vec![("x", reference(0), true)]),
        defs: vec![("Loop".to_owned(), reference(0))],
        ..Schema::default()
    };
    let error = check_schema(&schema).err();
    assert_eq!(
        error.as_ref().map(|e| e.kind().clone()),
        Some(SpecErrorKind::ReferenceCycle {
            definition: "Loop".to_owned()
        })
    );
    assert_eq!(
        error.map(|e| e.path().to_owned()),
        Some("$defs.Loop".to_owned())
    );
    // Validation of the unchecked schema ends with a violation, never a stack overflow.
    let value = json::parse(r#"{"x":1}"#).unwrap_or(Value::Null);
    let found = schema.validate(&value).err().map(|v| v.rule().clone());
    assert_eq!(found, Some(Rule::TooDeep { limit: 512 }));
}

#[test]
fn cycles_through_alternatives_are_found_and_cycles_through_fields_are_fine() {
    let via_alternatives = Schema {
        root: object(vec![("x", reference(0), true)]),
        defs: vec![
            ("A".to_owned(), Type::any_of([Type::string(), reference(1)])),
            ("B".to_owned(), Type::all_of([reference(0)])),
        ],
        ..Schema::default()
    };
    let kind = check_schema(&via_alternatives)
        .err()
        .map(|e| e.kind().clone());
    assert!(
        matches!(kind, Some(SpecErrorKind::ReferenceCycle { .. })),
        "{kind:?}"
    );
    // The anyOf's first branch matches a string, so validation of a string ends at once;
    // a number would recurse, and ends at the depth limit.
    check(&via_alternatives, r#"{"x":"s"}"#, "ok");
    let found = via_alternatives
        .validate(&json::parse(r#"{"x":1}"#).unwrap_or(Value::Null))
        .err()
        .map(|v| v.rule().label());
    assert_eq!(found, Some("too_deep"));
}

#[test]
fn dangling_references_are_refused_and_accept_nothing() {
    let schema = Schema {
        root: object(vec![("x", reference(3), true)]),
        defs: Vec::new(),
        ..Schema::default()
    };
    assert_eq!(
        check_schema(&schema).err().map(|e| e.kind().clone()),
        Some(SpecErrorKind::UnknownReference {
            index: 3,
            n_defs: 0
        })
    );
    check(&schema, r#"{"x":1}"#, "x is not allowed; received 1");
}

#[test]
fn only_definitions_the_root_reaches_are_checked() {
    let schema = Schema {
        root: object(vec![("x", Type::integer(), true)]),
        defs: vec![(
            "Unused".to_owned(),
            Type::string().min_length(5).max_length(1),
        )],
        ..Schema::default()
    };
    assert_eq!(check_schema(&schema), Ok(()));
}

#[test]
fn a_false_schema_accepts_nothing() {
    let never = Type {
        kinds: Kinds::NONE,
        ..Type::default()
    };
    let schema = Schema {
        root: object(vec![("gone", never, false)]),
        defs: Vec::new(),
        ..Schema::default()
    };
    check(&schema, r#"{}"#, "ok");
    check(
        &schema,
        r#"{"gone":null}"#,
        "gone is not allowed; received null",
    );
}

#[test]
fn property_names_are_checked_as_strings_and_reported_on_the_object() {
    let mut root = Type::object();
    root.object = Some(Box::new(ObjectType {
        fields: Vec::new(),
        additional: crate::spec::Additional::Allowed,
        property_names: Some(Box::new(Type::string().max_length(3))),
        patterns: Vec::new(),
    }));
    let inner = root.clone();
    let schema = Schema {
        root: Type::object().optional("map", inner).open(),
        defs: Vec::new(),
        ..Schema::default()
    };
    check(&schema, r#"{"map":{"abc":1}}"#, "ok");
    check(
        &schema,
        r#"{"map":{"abc":1,"abcd":2}}"#,
        r#"field name 'abcd' in map must be at most 3 characters long; received "abcd""#,
    );
    let top = Schema {
        root,
        defs: Vec::new(),
        ..Schema::default()
    };
    let found = top
        .validate(&json::parse(r#"{"toolong":1}"#).unwrap_or(Value::Null))
        .err();
    assert_eq!(found.as_ref().map(|v| v.path()), Some(""));
    assert_eq!(
        found.map(|v| v.to_string()),
        Some(
            r#"field name 'toolong' must be at most 3 characters long; received "toolong""#
                .to_owned()
        )
    );
}

#[test]
fn exponential_alternatives_stop_at_the_step_budget() {
    // List = [ anyOf(List, List) ]: every level tries both alternatives, so a failing leaf
    // 40 levels down would take 2^40 steps.
    let list = Type {
        array: crate::spec::ArrayRules {
            items: Some(Box::new(Type::any_of([reference(0), reference(0)]))),
            ..Default::default()
        },
        ..Type::array(Type::any())
    };
    let schema = Schema {
        root: object(vec![("x", reference(0), true)]),
        defs: vec![("List".to_owned(), list)],
        ..Schema::default()
    };
    assert_eq!(check_schema(&schema), Ok(()));
    let text = format!(r#"{{"x":{}"leaf"{}}}"#, "[".repeat(40), "]".repeat(40));
    let value = json::parse(&text).unwrap_or(Value::Null);
    let found = schema.validate(&value).err();
    assert_eq!(
        found.as_ref().map(|v| v.rule().clone()),
        Some(Rule::TooComplex { steps: 1_000_000 })
    );
    // The budget runs out somewhere inside `x`; the path points there.
    let path = found.map(|v| v.path().to_owned()).unwrap_or_default();
    assert!(path.starts_with("x.0.0"), "{path}");
}

#[test]
fn explaining_failed_alternatives_over_shared_definitions_stays_bounded() {
    // D0 = anyOf(D1, D1), D1 = anyOf(D2, D2), …, D30 = integer: 2^30 paths to a string's
    // refusal. Checking and explaining both draw on the step budget, so this ends quickly.
    let mut defs: Vec<(String, Type)> = (0..30)
        .map(|i| {
            (
                format!("D{i}"),
                Type::any_of([reference(i + 1), reference(i + 1)]),
            )
        })
        .collect();
    defs.push(("D30".to_owned(), Type::integer()));
    let schema = Schema {
        root: object(vec![("x", reference(0), true)]),
        defs,
        ..Schema::default()
    };
    assert_eq!(check_schema(&schema), Ok(()));
    check(&schema, r#"{"x":5}"#, "ok");
    let found = schema
        .validate(&json::parse(r#"{"x":"s"}"#).unwrap_or(Value::Null))
        .err()
        .map(|v| v.rule().label());
    assert_eq!(found, Some("too_complex"));
}

/// `{a?: "x", b?: {k?: integer}}`, both objects closed.
fn two_levels() -> Schema {
    Schema {
        root: object(vec![
            ("a", Type::string().one_of(["x"]), false),
            ("b", object(vec![("k", Type::integer(), false)]), false),
        ]),
        defs: Vec::new(),
        ..Schema::default()
    }
}

#[test]
fn a_repeated_key_is_reported_before_rules_the_check_meets_first() {
    let schema = two_levels();
    // The check reaches `a`'s enum before `b`'s keys; the repeat still wins (step 1).
    check(
        &schema,
        r#"{"a":"y","b":{"k":1,"k":2}}"#,
        "b has duplicate field 'k'",
    );
    // The check meets the repeat of `a` first, yet the report is step 1's: the root's
    // repeat, found before descending.
    check(
        &schema,
        r#"{"b":{"k":1,"k":1},"a":"x","a":"x"}"#,
        "duplicate field 'a'",
    );
    // An unknown field that repeats: the repeat is what is reported.
    check(&schema, r#"{"z":1,"z":1}"#, "duplicate field 'z'");
    check(&schema, r#"{"a":"x","b":{"k":1}}"#, "ok");
}

#[test]
fn a_repeated_key_inside_an_alternative_is_not_excused_by_another_alternative() {
    let schema = Schema {
        root: object(vec![(
            "x",
            Type::any_of([object(vec![("k", Type::string(), false)]), Type::any()]),
            true,
        )]),
        defs: Vec::new(),
        ..Schema::default()
    };
    check(&schema, r#"{"x":{"k":"s"}}"#, "ok");
    check(
        &schema,
        r#"{"x":{"k":"s","k":"t"}}"#,
        "x has duplicate field 'k'",
    );
}

#[test]
fn values_deeper_than_the_limit_are_refused_even_when_every_level_is_described() {
    // Every level of the tree has a type, so the check alone would pass; step 1's depth
    // limit still applies.
    let schema = tree();
    let levels = 140;
    let text = format!(
        r#"{{"tree":{}{{"value":0}}{}}}"#,
        r#"{"value":1,"children":["#.repeat(levels),
        "]}".repeat(levels)
    );
    let limits = json::Limits {
        max_depth: 1000,
        ..json::Limits::default()
    };
    let value = json::parse_with(&text, limits).unwrap_or(Value::Null);
    let found = schema.validate(&value).err().map(|v| v.rule().clone());
    assert_eq!(found, Some(Rule::TooDeep { limit: 256 }));
    let shallow = format!(
        r#"{{"tree":{}{{"value":0}}{}}}"#,
        r#"{"value":1,"children":["#.repeat(100),
        "]}".repeat(100)
    );
    let value = json::parse_with(&shallow, limits).unwrap_or(Value::Null);
    assert!(schema.validate(&value).is_ok());
}

#[test]
fn names_compare_equal_exactly_when_every_byte_agrees() {
    // Every length through three words, with a difference at every position: the word
    // compares (and their overlaps) must see each byte.
    for len in 0..=26 {
        let base: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        assert!(crate::json::same_name(&base, &base.clone()), "{base}");
        for at in 0..len {
            let mut other = base.clone().into_bytes();
            if let Some(byte) = other.get_mut(at) {
                *byte = b'Z';
            }
            let other = String::from_utf8(other).unwrap_or_default();
            assert!(!crate::json::same_name(&base, &other), "{base} vs {other}");
        }
        assert!(
            !crate::json::same_name(&base, &format!("{base}a")),
            "{base}"
        );
    }
}

#[test]
fn bounds_beyond_the_precomputed_range_compare_exactly() {
    // 3_000_000_000 is beyond `i32`, so these take the exact decimal path; -5 does not.
    let schema = Schema {
        root: object(vec![
            ("big", Type::integer().min(-5).max(3_000_000_000_i64), false),
            ("small", Type::number().min(-5).max(7), false),
        ]),
        defs: Vec::new(),
        ..Schema::default()
    };
    let label = |args: &str| {
        let value = json::parse(args).unwrap_or(Value::Null);
        schema.validate(&value).err().map(|v| v.rule().label())
    };
    assert_eq!(label(r#"{"big":3000000000}"#), None);
    assert_eq!(label(r#"{"big":3000000001}"#), Some("maximum"));
    assert_eq!(label(r#"{"big":-5,"small":-5}"#), None);
    assert_eq!(label(r#"{"big":-6}"#), Some("minimum"));
    assert_eq!(label(r#"{"small":-5.5}"#), Some("minimum"));
    assert_eq!(label(r#"{"small":7.0001}"#), Some("maximum"));
    assert_eq!(label(r#"{"small":6.9999}"#), None);
    assert_eq!(label(r#"{"small":7e0}"#), None);
}

#[test]
fn the_deepest_walk_the_limits_allow_fits_a_test_thread_stack() {
    // Each array level is three types deep (the item's `$ref`, the definition, its
    // alternative), so the walk reaches MAX_CHECK_DEPTH before the value's own limit.
    let text = r##"{"$defs": {"N": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/N"}}, {"type": "null"}]}},
        "type": "object", "properties": {"x": {"$ref": "#/$defs/N"}}}"##;
    let schema = Schema::from_json_schema(&json::parse(text).unwrap_or(Value::Null))
        .unwrap_or_else(|e| panic!("{e}"));
    let limits = json::Limits {
        max_depth: 1000,
        ..json::Limits::default()
    };
    let deep = format!(r#"{{"x":{}null{}}}"#, "[".repeat(250), "]".repeat(250));
    let value = json::parse_with(&deep, limits).unwrap_or(Value::Null);
    let found = schema.validate(&value).err().map(|v| v.rule().clone());
    assert_eq!(found, Some(Rule::TooDeep { limit: 512 }));
    let shallow = format!(r#"{{"x":{}null{}}}"#, "[".repeat(150), "]".repeat(150));
    let value = json::parse_with(&shallow, limits).unwrap_or(Value::Null);
    assert_eq!(schema.validate(&value), Ok(()));
}
