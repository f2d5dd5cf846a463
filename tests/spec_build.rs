//! Building specs in Rust: the declaration reads as one expression, and every problem with
//! it (an invalid name, a field declared twice, a contradiction) is a `SpecError` at build
//! time, with the tool and path in its sentence, never a surprise at call time.
#![cfg(feature = "format")]

use toolgate::json::{self, Value};
use toolgate::spec::build::{SpecErrorKind, ToolSpecBuilder};
use toolgate::spec::format::Format;
use toolgate::spec::{Kinds, Schema};
use toolgate::{ToolSpec, Type};

/// Builds `spec` and compares the outcome with `expect`: `"ok"`, or the error's sentence.
fn check(spec: ToolSpecBuilder, expect: &str) {
    let got = match spec.build() {
        Ok(_) => "ok".to_owned(),
        Err(error) => error.to_string(),
    };
    assert_eq!(got, expect);
}

fn spec_with(ty: Type) -> ToolSpecBuilder {
    ToolSpec::new("tool", "A tool.").required("x", ty)
}

fn parse(text: &str) -> Value<'static> {
    json::parse(text)
        .unwrap_or_else(|e| panic!("test input {text}: {e}"))
        .into_owned()
}

#[test]
fn the_issue_example_builds_and_validates() {
    let spec = ToolSpec::new("get_weather", "Current weather for a city")
        .required("city", Type::string())
        .optional("units", Type::string().one_of(["metric", "imperial"]))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(spec.name(), "get_weather");
    assert_eq!(spec.description(), "Current weather for a city");
    assert!(spec
        .validate(&parse(r#"{"city":"Oslo","units":"metric"}"#))
        .is_ok());
    let refused = spec
        .validate(&parse(r#"{"city":"Oslo","units":"kelvin"}"#))
        .map_err(|v| v.to_string());
    assert_eq!(
        refused,
        Err(r#"units must be one of "metric", "imperial"; received "kelvin""#.to_owned())
    );
    // Unknown fields are refused unless the spec opens the object.
    let refused = spec.validate(&parse(r#"{"city":"Oslo","unit":"metric"}"#));
    assert_eq!(refused.map_err(|v| v.rule().label()), Err("additional"));
}

// Issue #11 changed the rule from `^[a-zA-Z0-9_-]{1,64}$` to MCP's (SEP-986): dots and up
// to 128 characters load; each export checks its provider's own rule.
#[test]
fn tool_names_follow_the_providers_pattern() {
    let long = "a".repeat(128);
    for good in [
        "get_weather",
        "a",
        "A-b_9",
        "get.weather",
        "github.create_issue",
        long.as_str(),
    ] {
        check(ToolSpec::new(good, "d"), "ok");
    }
    let too_long = "a".repeat(129);
    for bad in [
        "",
        "get weather",
        "get:weather",
        "météo",
        "a/b",
        too_long.as_str(),
    ] {
        let error = ToolSpec::new(bad, "d").build().err();
        let kind = error.as_ref().map(|e| e.kind().clone());
        assert_eq!(
            kind,
            Some(SpecErrorKind::InvalidName {
                name: bad.to_owned()
            }),
            "{bad:?}"
        );
    }
    check(
        ToolSpec::new("get weather", "d"),
        r#"invalid tool name "get weather": a name must be 1 to 128 characters, each a letter, a digit, '_', '-' or '.' (the rule of MCP (SEP-986): ^[A-Za-z0-9_.-]{1,128}$)"#,
    );
}

#[test]
fn every_contradiction_is_an_error_with_tool_and_path() {
    let no_values: [&str; 0] = [];
    let table: Vec<(ToolSpecBuilder, &str)> = vec![
        // Fields declared twice, at the root and at depth.
        (
            ToolSpec::new("t", "d")
                .required("a", Type::string())
                .optional("a", Type::integer()),
            "t: field 'a' is declared twice",
        ),
        (
            spec_with(Type::array(
                Type::object()
                    .required("sku", Type::string())
                    .required("sku", Type::string()),
            )),
            "tool: at x[]: field 'sku' is declared twice",
        ),
        (
            spec_with(Type::object().additional(
                Type::object().optional("k", Type::any()).optional("k", Type::any()),
            )),
            "tool: at x.*: field 'k' is declared twice",
        ),
        // Enum and const.
        (
            spec_with(Type::string().one_of(no_values)),
            "tool: at x: enum lists no value, so nothing is accepted",
        ),
        (
            spec_with(Type::string().one_of([1])),
            "tool: at x: enum value 1 can never be accepted: the type accepts only a string",
        ),
        (
            spec_with(Type::integer().constant(parse("1.5"))),
            "tool: at x: const value 1.5 can never be accepted: the type accepts only an integer",
        ),
        (
            spec_with(Type::boolean().nullable().constant("yes")),
            r#"tool: at x: enum value "yes" can never be accepted: the type accepts only a boolean or null"#,
        ),
        // Numeric ranges, compared exactly.
        (
            spec_with(Type::integer().min(500).max(1)),
            "tool: at x: minimum 500 and maximum 1 leave no number between them",
        ),
        (
            spec_with(Type::number().min(5).exclusive_max(5)),
            "tool: at x: minimum 5 and exclusiveMaximum 5 leave no number between them",
        ),
        (
            spec_with(Type::number().exclusive_min(0.5).max(0.5)),
            "tool: at x: exclusiveMinimum 0.5 and maximum 0.5 leave no number between them",
        ),
        (
            spec_with(Type::integer().min(i64::MAX).max(i64::MAX - 1)),
            "tool: at x: minimum 9223372036854775807 and maximum 9223372036854775806 leave no number between them",
        ),
        // Lengths and item counts.
        (
            spec_with(Type::string().min_length(5).max_length(3)),
            "tool: at x: minLength 5 is above maxLength 3, so no string is accepted",
        ),
        (
            spec_with(Type::array(Type::any()).min_items(2).max_items(1)),
            "tool: at x: minItems 2 is above maxItems 1, so no array is accepted",
        ),
        // multipleOf and non-finite bounds.
        (
            spec_with(Type::number().multiple_of(0)),
            "tool: at x: multipleOf must be a finite number above 0, not 0",
        ),
        (
            spec_with(Type::number().multiple_of(-2)),
            "tool: at x: multipleOf must be a finite number above 0, not -2",
        ),
        (
            spec_with(Type::number().multiple_of(f64::NAN)),
            "tool: at x: multipleOf must be a finite number above 0, not NaN",
        ),
        (
            spec_with(Type::number().min(f64::NAN)),
            "tool: at x: minimum must be a finite number, not NaN",
        ),
        (
            spec_with(Type::number().exclusive_max(f64::INFINITY)),
            "tool: at x: exclusiveMaximum must be a finite number, not inf",
        ),
        // Rules for a kind the type does not accept.
        (
            spec_with(Type::string().min(1)),
            "tool: at x: minimum applies only to numbers, but the type accepts only a string",
        ),
        (
            spec_with(Type::integer().max_length(3)),
            "tool: at x: maxLength applies only to strings, but the type accepts only an integer",
        ),
        (
            spec_with(Type::string().unique_items()),
            "tool: at x: uniqueItems applies only to arrays, but the type accepts only a string",
        ),
        (
            spec_with(Type::string().required("y", Type::any())),
            "tool: at x: properties applies only to objects, but the type accepts only a string",
        ),
        (
            spec_with(Type::null().open()),
            "tool: at x: additionalProperties applies only to objects, but the type accepts only null",
        ),
        // Inside alternatives, paths name the alternative.
        (
            spec_with(Type::any_of([Type::integer(), Type::integer().min(3).max(2)])),
            "tool: at x.anyOf[1]: minimum 3 and maximum 2 leave no number between them",
        ),
        (
            spec_with(Type::object().optional(
                "inner",
                Type::exactly_one_of([Type::string().one_of(no_values)]),
            )),
            "tool: at x.inner.oneOf[0]: enum lists no value, so nothing is accepted",
        ),
    ];
    for (spec, expect) in table {
        check(spec, expect);
    }
}

#[test]
fn errors_carry_their_condition_as_data() {
    let error = spec_with(Type::string().min_length(5).max_length(3))
        .build()
        .err();
    let error = error.unwrap_or_else(|| panic!("should not build"));
    assert_eq!(error.tool(), "tool");
    assert_eq!(error.path(), "x");
    assert_eq!(
        error.kind(),
        &SpecErrorKind::EmptyLengthRange { min: 5, max: 3 }
    );
    let error = spec_with(Type::string().min(1)).build().err();
    assert_eq!(
        error.map(|e| e.kind().clone()),
        Some(SpecErrorKind::RuleNeverApplies {
            keyword: "minimum",
            accepts: Kinds::STRING
        })
    );
}

#[test]
fn ranges_that_hold_one_value_are_fine() {
    check(spec_with(Type::integer().min(5).max(5)), "ok");
    check(spec_with(Type::string().min_length(3).max_length(3)), "ok");
    check(
        spec_with(Type::array(Type::any()).min_items(0).max_items(0)),
        "ok",
    );
    check(spec_with(Type::number().min(-1.5).exclusive_max(2)), "ok");
    // Rules for null-or-kind types apply to the kind.
    check(spec_with(Type::string().nullable().min_length(1)), "ok");
    check(spec_with(Type::any().min(0).min_length(2)), "ok");
}

#[test]
fn types_nested_beyond_the_limit_are_refused() {
    let mut ty = Type::integer();
    for _ in 0..200 {
        ty = Type::array(ty);
    }
    let error = spec_with(ty).build().err();
    assert_eq!(
        error.map(|e| e.kind().clone()),
        Some(SpecErrorKind::TooDeep { limit: 128 })
    );
    let mut ty = Type::integer();
    for _ in 0..100 {
        ty = Type::array(ty);
    }
    check(spec_with(ty), "ok");
}

#[test]
fn from_schema_requires_an_object_root_and_a_valid_name() {
    let error = ToolSpec::from_schema("t", "d", Schema::default()).err();
    assert_eq!(
        error.as_ref().map(|e| e.kind().clone()),
        Some(SpecErrorKind::RootNotObject {
            accepts: Kinds::ANY
        })
    );
    assert_eq!(
        error.map(|e| e.to_string()),
        Some("t: the arguments must be an object, but the schema accepts any value".to_owned())
    );
    let built = ToolSpec::new("t", "d")
        .required("a", Type::integer())
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let again = ToolSpec::from_schema("t2", "d2", built.params().clone());
    assert_eq!(again.as_ref().map(|s| s.name()), Ok("t2"));
    assert_eq!(
        again.map(|s| s.params().clone()),
        Ok(built.params().clone())
    );
    let bad_name = ToolSpec::from_schema("no spaces", "d", built.params().clone()).err();
    assert_eq!(
        bad_name.map(|e| e.kind().clone()),
        Some(SpecErrorKind::InvalidName {
            name: "no spaces".to_owned()
        })
    );
}

#[test]
fn open_and_additional_decide_unknown_fields() {
    let open = ToolSpec::new("t", "d")
        .optional("a", Type::integer())
        .open()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(open.validate(&parse(r#"{"b":[1,{}]}"#)).is_ok());
    let map = ToolSpec::new("t", "d")
        .required("scores", Type::object().additional(Type::integer().min(0)))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(map
        .validate(&parse(r#"{"scores":{"ann":3,"bo":0}}"#))
        .is_ok());
    let refused = map
        .validate(&parse(r#"{"scores":{"ann":3,"bo":-1}}"#))
        .map_err(|v| v.to_string());
    assert_eq!(
        refused,
        Err("scores.bo must be at least 0; received -1".to_owned())
    );
}

#[test]
fn describe_asserts_nothing_and_a_known_format_is_enforced() {
    let spec = ToolSpec::new("t", "d")
        .required("since", Type::string().format("date").describe("A day."))
        .optional("due", Type::string().format(Format::Date))
        .optional("code", Type::string().format("x-vendor-code"))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(spec.validate(&parse(r#"{"since":"2025-01-31"}"#)).is_ok());
    let refused = |text: &str| spec.validate(&parse(text)).map_err(|v| v.to_string());
    assert_eq!(
        refused(r#"{"since":"not a date"}"#),
        Err(r#"since must be an RFC 3339 date such as 2025-01-31; received "not a date""#.into())
    );
    assert_eq!(
        refused(r#"{"since":"2025-01-31","due":"2025-02-30"}"#),
        Err(r#"due must be an RFC 3339 date such as 2025-01-31; received "2025-02-30""#.into())
    );
    // A name toolgate does not know is an annotation: exported, never asserted.
    assert_eq!(
        refused(r#"{"since":"2025-01-31","code":"anything"}"#),
        Ok(())
    );
    // Draft 2020-12's default, asked for: every format is an annotation.
    let annotated = spec.clone().without_format_assertions();
    assert!(!annotated.params().asserts_formats() && spec.params().asserts_formats());
    assert!(annotated
        .validate(&parse(r#"{"since":"not a date"}"#))
        .is_ok());
}

#[test]
fn a_format_for_a_kind_the_type_refuses_is_refused_at_build() {
    for (ty, keyword) in [
        (Type::integer().format(Format::Email), "format"),
        (Type::string().format(Format::Int32), "format"),
    ] {
        let error = ToolSpec::new("t", "d").required("x", ty).build().err();
        assert!(
            matches!(
                error.as_ref().map(|e| e.kind()),
                Some(SpecErrorKind::RuleNeverApplies { keyword: k, .. }) if *k == keyword
            ),
            "{error:?}"
        );
    }
    // A format it does not enforce says nothing about kinds (Gemini writes `format: enum`
    // on integers), and a number format on a number type applies.
    for ty in [
        Type::integer().format("enum"),
        Type::number().format(Format::Int64),
        Type::string().format(Format::Uuid),
    ] {
        assert!(ToolSpec::new("t", "d").required("x", ty).build().is_ok());
    }
}

#[test]
fn float_bounds_read_as_written() {
    let spec = ToolSpec::new("t", "d")
        .required("r", Type::number().min(0.25).max(1e300))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let refused = spec
        .validate(&parse(r#"{"r":0.2}"#))
        .map_err(|v| v.to_string());
    assert_eq!(
        refused,
        Err("r must be a number from 0.25 to 1e300; received 0.2".to_owned())
    );
}
