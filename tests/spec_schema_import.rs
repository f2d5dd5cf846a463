//! JSON Schema import: what each keyword means once loaded, what is refused and how the
//! refusal reads, references, limits, and the lenient list.
#![cfg(all(feature = "pattern", feature = "format"))]

use toolgate::json::{parse, Value};
use toolgate::spec::{LoadError, RefProblem, Schema, Unenforced, MAX_SCHEMA_DEPTH};

fn schema(text: &str) -> Schema {
    let value = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Schema::from_json_schema(&value).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn error(text: &str) -> LoadError {
    let value = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    match Schema::from_json_schema(&value) {
        Ok(_) => panic!("loaded: {text}"),
        Err(error) => error,
    }
}

fn accepts(schema: &Schema, value: &str) -> bool {
    schema
        .validate(&parse(value).unwrap_or_else(|e| panic!("{value}: {e}")))
        .is_ok()
}

/// `(schema, values it accepts, values it refuses)`.
const MEANINGS: &[(&str, &[&str], &[&str])] = &[
    // JSON Schema objects are open unless `additionalProperties` closes them.
    (
        r#"{"type": "object", "properties": {"a": {"type": "integer"}}}"#,
        &[r#"{"a": 1, "b": "x"}"#, "{}"],
        &[r#"{"a": "1"}"#],
    ),
    (
        r#"{"type": "object", "properties": {"a": {}}, "additionalProperties": false}"#,
        &[r#"{"a": 1}"#],
        &[r#"{"b": 1}"#],
    ),
    (
        r#"{"additionalProperties": {"type": "string"}}"#,
        &[r#"{"k": "v"}"#, "5"],
        &[r#"{"k": 1}"#],
    ),
    // Object keywords say nothing about other kinds.
    (
        r#"{"properties": {"a": {"type": "integer"}}, "required": ["a"]}"#,
        &["5", r#""text""#, "[]", r#"{"a": 2}"#],
        &["{}", r#"{"a": true}"#],
    ),
    (
        r#"{"minLength": 2, "minimum": 3, "minItems": 1}"#,
        &[r#""ab""#, "3", "[0]", "true", "null"],
        &[r#""a""#, "2", "[]"],
    ),
    // A required member not in `properties` takes what `additionalProperties` says.
    (
        r#"{"type": "object", "required": ["a"], "additionalProperties": false}"#,
        &[],
        &[r#"{"a": 1}"#, "{}"],
    ),
    (
        r#"{"type": "object", "required": ["a"], "additionalProperties": {"type": "integer"}}"#,
        &[r#"{"a": 1}"#],
        &[r#"{"a": "x"}"#, "{}"],
    ),
    // Both bounds on one side: the tighter one holds (compared as decimals).
    (
        r#"{"minimum": 5, "exclusiveMinimum": 5}"#,
        &["5.0001"],
        &["5", "5.0"],
    ),
    (r#"{"minimum": 6, "exclusiveMinimum": 5}"#, &["6"], &["5.5"]),
    (
        r#"{"maximum": 1.0, "exclusiveMaximum": 1}"#,
        &["0.999"],
        &["1"],
    ),
    (
        r#"{"maximum": 0.3, "exclusiveMaximum": 0.30000000000000001}"#,
        &["0.3"],
        &["0.30000000000000001"],
    ),
    // A keyword whose value is null is absent; `const: null` is a value.
    (
        r#"{"type": "string", "maxLength": null, "description": null, "enum": null}"#,
        &[r#""long enough""#],
        &["1"],
    ),
    (r#"{"const": null}"#, &["null"], &["0", r#""null""#]),
    // Annotations assert nothing; nor does a format name toolgate does not know.
    (
        r#"{"title": "t", "default": 1, "examples": [2], "$comment": "c", "deprecated": true, "readOnly": true, "writeOnly": false, "format": "x-vendor", "contentMediaType": "application/json", "contentEncoding": "base64", "contentSchema": {"type": "object"}, "$anchor": "here"}"#,
        &[r#""not an email""#, "1"],
        &[],
    ),
    // A format toolgate knows is enforced, on the kind it applies to only.
    (
        r#"{"format": "email"}"#,
        &[
            r#""ana@example.com""#,
            r#""jürgen@exämple.de""#,
            "1",
            "null",
        ],
        &[r#""not an email""#],
    ),
    (
        r#"{"format": "int32"}"#,
        &["2147483647", "-2147483648", "1e2", r#""2147483648""#],
        &["2147483648", "1.5"],
    ),
    // Boolean schemas.
    (
        r#"{"properties": {"yes": true, "no": false}}"#,
        &[r#"{"yes": [1]}"#],
        &[r#"{"no": null}"#],
    ),
    // Unused definitions block nothing, whatever they hold.
    (
        r#"{"type": "integer", "$defs": {"unused": {"pattern": "^x", "not": {}}}}"#,
        &["1"],
        &["1.5"],
    ),
    // draft-07 documents read the same on this subset, `definitions` included.
    (
        r##"{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"a": {"$ref": "#/definitions/s", "description": "an annotation beside $ref is fine"}}, "definitions": {"s": {"type": "string"}}}"##,
        &[r#"{"a": "x"}"#],
        &[r#"{"a": 1}"#],
    ),
    // A `$ref` through the root's `$id` is local.
    (
        r##"{"$id": "https://example.com/root.json", "properties": {"a": {"$ref": "https://example.com/root.json#/$defs/n"}}, "$defs": {"n": {"type": "number"}}}"##,
        &[r#"{"a": 1}"#],
        &[r#"{"a": "1"}"#],
    ),
    // An `$id` below the root is a base of its own: `node` and `tree` resolve against the
    // schema they stand in (RFC 3986), pointers and anchors count from the resource named.
    (
        r##"{"$id": "https://example.com/a/tree", "properties": {"nodes": {"items": {"$ref": "node"}}, "leaf": {"$ref": "node#/$defs/leaf"}, "tag": {"$ref": "node#tag"}},
            "$defs": {"node": {"$id": "https://example.com/a/node", "properties": {"subtree": {"$ref": "tree"}, "value": {"type": "number"}},
              "$defs": {"leaf": {"type": "boolean"}, "t": {"$anchor": "tag", "type": "string"}}}}}"##,
        &[
            r#"{"nodes": [{"value": 1, "subtree": {"nodes": [{"value": 2}]}}], "leaf": true, "tag": "x"}"#,
        ],
        &[
            r#"{"nodes": [{"value": 1, "subtree": {"nodes": [{"value": "2"}]}}]}"#,
            r#"{"leaf": 1}"#,
            r#"{"tag": 1}"#,
        ],
    ),
    // A reference to the root from a definition reached only through another reference.
    (
        r##"{"properties": {"y": {"$ref": "#/$defs/a"}, "z": {"type": "string"}}, "$defs": {"a": {"properties": {"x": {"$ref": "#"}}}}}"##,
        &[r#"{"y": {"x": {"z": "ok"}}}"#],
        &[r#"{"y": {"x": {"z": 5}}}"#],
    ),
];

#[test]
fn keywords_mean_what_draft_2020_12_says() {
    for (text, good, bad) in MEANINGS {
        let loaded = schema(text);
        for value in *good {
            assert!(accepts(&loaded, value), "{text} should accept {value}");
        }
        for value in *bad {
            assert!(!accepts(&loaded, value), "{text} should refuse {value}");
        }
    }
}

#[test]
fn recursion_through_the_root_and_definitions_is_followed() {
    let tree = schema(
        r##"{"type": "object", "properties": {"value": {"type": "integer"},
             "children": {"type": "array", "items": {"$ref": "#"}}},
             "required": ["value"], "additionalProperties": false}"##,
    );
    assert!(accepts(
        &tree,
        r#"{"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}"#
    ));
    assert!(!accepts(
        &tree,
        r#"{"value": 1, "children": [{"value": 2, "children": [{"value": "3"}]}]}"#
    ));
    let linked = schema(
        r##"{"$ref": "#/$defs/node", "$defs": {"node": {"type": ["object", "null"],
             "properties": {"next": {"$ref": "#/$defs/node"}}, "additionalProperties": false}}}"##,
    );
    assert!(accepts(&linked, r#"{"next": {"next": {"next": null}}}"#));
    assert!(!accepts(&linked, r#"{"next": {"next": {"other": 1}}}"#));
}

#[test]
fn definitions_keep_their_names_and_order() {
    let loaded = schema(
        r##"{"properties": {"b": {"$ref": "#/$defs/b"}, "a": {"$ref": "#/$defs/a"},
             "r": {"$ref": "#"}, "d": {"$ref": "#/definitions/a"}, "p": {"$ref": "#/properties/b"}},
             "$defs": {"a": {"type": "string"}, "unused": {}, "b": {"type": "integer"}},
             "definitions": {"a": {"type": "null"}}}"##,
    );
    let names: Vec<&str> = loaded
        .defs()
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(names, ["a", "b", "definitions/a", "root", "properties/b"]);
}

/// `(schema, the error's text)`.
const ERRORS: &[(&str, &str)] = &[
    (r#"{"pattern": "^(?=a)"}"#, "the schema root: pattern \"^(?=a)\" is refused: lookahead (?=...) at character 1 is not supported: it cannot be checked in linear time"),
    (r#"{"properties": {"a": {"additionalItems": {}}}}"#, "properties.a: 'additionalItems' is not enforced"),
    (r##"{"anyOf": [{}, {"$recursiveRef": "#"}]}"##, "anyOf[1]: '$recursiveRef' is not enforced"),
    (r#"{"items": {"additionalItems": {}}}"#, "items: 'additionalItems' is not enforced"),
    (r#"{"additionalProperties": {"dependencies": {}}}"#, "additionalProperties: 'dependencies' is not enforced"),
    (r#"{"propertyNames": {"pattern": "^(?=a)"}}"#, "propertyNames: pattern \"^(?=a)\" is refused: lookahead (?=...) at character 1 is not supported: it cannot be checked in linear time"),
    (r##"{"$ref": "#/$defs/a", "$defs": {"a": {"$recursiveRef": "#"}}}"##, "$defs.a: '$recursiveRef' is not enforced"),
    (r#"{"vendor": 1}"#, "the schema root: 'vendor' is not enforced"),
    (r#"{"any_of": [{}]}"#, "the schema root: 'any_of' is not enforced"),
    (r#"{"items": [{}]}"#, "the schema root: 'items' is not enforced (an array of schemas is a tuple, which toolgate does not check)"),
    (r#"{"$schema": "https://example.com/my-meta"}"#, "the schema root: '$schema' is not enforced (toolgate reads draft 2020-12, and draft 2019-09, draft-07 and draft-06, which agree with it on the subset toolgate enforces)"),
    (r##"{"$ref": "#foo"}"##, "the schema root: '$ref' to '#foo' is not enforced: no schema of this document declares that '$anchor' exactly once (toolgate does not look inside a schema with an '$id' of its own)"),
    (r##"{"$ref": "#"}"##, "the schema root: '$ref' to '#' leads back to itself without going into the value, so validation would never end"),
    (r##"{"$ref": "#/enum/0", "enum": [{}]}"##, "the schema root: '$ref' to '#/enum/0' points at something that is not a schema"),
    (r##"{"$ref": "#/$defs/a~2"}"##, "the schema root: '$ref' must be a reference whose fragment is a JSON pointer (RFC 6901); found \"#/$defs/a~2\""),
    (r#"{"enum": 1}"#, "the schema root: 'enum' must be an array; found 1"),
    (r#"{"multipleOf": 0}"#, "the schema root: 'multipleOf' must be a number above zero; found 0"),
    (r#"{"maxItems": 1.5}"#, "the schema root: 'maxItems' must be a non-negative integer; found 1.5"),
    (r#"{"required": ["a", 1]}"#, "the schema root: 'required' must be an array of member names (strings); found [\"a\",1]"),
    (r#"{"type": []}"#, "the schema root: 'type' must be a type name (null, boolean, object, array, number, string, integer) or a non-empty array of them; found []"),
    (r#"{"type": "STRING"}"#, "the schema root: 'type' must be a type name (null, boolean, object, array, number, string, integer) or a non-empty array of them; found \"STRING\""),
    (r#"{"uniqueItems": 1}"#, "the schema root: 'uniqueItems' must be true or false; found 1"),
    (r#"{"description": 1}"#, "the schema root: 'description' must be a string; found 1"),
    (r#"{"properties": {"a": 1}}"#, "properties.a: expected a schema (an object, true or false); found 1"),
    (r#"{"properties": {"a": {}, "a": {}}}"#, "properties: 'a' must be declared once (two JSON readers may keep different copies); found it twice"),
];

#[test]
fn refusals_name_the_keyword_and_where_it_stands() {
    for (text, expected) in ERRORS {
        assert_eq!(error(text).to_string(), *expected, "{text}");
    }
    let remote = error(r#"{"properties": {"a": {"$ref": "other.json#/x"}}}"#);
    assert_eq!(
        remote,
        LoadError::Reference {
            path: "properties.a".into(),
            reference: "other.json#/x".into(),
            problem: RefProblem::Remote
        }
    );
    assert_eq!(remote.unsupported_keyword(), Some("$ref"));
}

#[test]
fn every_asserting_keyword_outside_the_subset_is_refused() {
    for keyword in [
        "$recursiveRef",
        "$vocabulary",
        "dependencies",
        "additionalItems",
        "propertyOrdering",
        "xnullable",
    ] {
        let text = format!(r#"{{"properties": {{"a": {{"{keyword}": {{}}}}}}}}"#);
        let refused = error(&text);
        assert_eq!(refused.unsupported_keyword(), Some(keyword), "{keyword}");
        assert_eq!(refused.path(), "properties.a", "{keyword}");
        // Leniently, it is listed and skipped.
        let value = parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let (_, skipped) =
            Schema::from_json_schema_lenient(&value).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            skipped,
            [Unenforced {
                path: "properties.a".into(),
                keyword: keyword.into()
            }],
            "{keyword}"
        );
    }
}

#[test]
fn nesting_is_bounded() {
    let nested = |levels: usize| {
        let mut text = String::from("{}");
        for _ in 0..levels {
            text = format!(r#"{{"items": {text}}}"#);
        }
        text
    };
    schema(&nested(MAX_SCHEMA_DEPTH));
    let too_deep = error(&nested(MAX_SCHEMA_DEPTH + 1));
    let path = vec!["items"; MAX_SCHEMA_DEPTH + 1].join(".");
    assert_eq!(
        too_deep,
        LoadError::TooDeep {
            path,
            limit: MAX_SCHEMA_DEPTH
        }
    );
    assert!(too_deep
        .to_string()
        .ends_with(": schemas nest deeper than 64 levels"));
    // A deep value built in memory (no parser limit in the way) is refused the same way.
    let mut value = Value::Bool(true);
    for _ in 0..10_000 {
        value = Value::Array(vec![value]);
        value = Value::Object(vec![("anyOf".into(), value)]);
    }
    assert!(matches!(
        Schema::from_json_schema(&value),
        Err(LoadError::TooDeep { .. })
    ));
    // Dropping a 10,000-deep value recurses too: leak it, it is test data.
    std::mem::forget(value);
}

#[test]
fn lenient_loads_skip_coupled_keywords_and_weakened_one_of() {
    let value = parse(
        r##"{"type": "object",
             "properties": {"v": {"oneOf": [{"$ref": "#/$defs/a"}, {"type": "string", "maxLength": 3}]},
                            "w": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
             "patternProperties": {"^(?=x-)": {"type": "string"}}, "additionalProperties": false,
             "$defs": {"a": {"type": "string", "pattern": "^(?=a)"}}}"##,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (loaded, skipped) =
        Schema::from_json_schema_lenient(&value).unwrap_or_else(|e| panic!("{e}"));
    let listed: Vec<(&str, &str)> = skipped
        .iter()
        .map(|u| (u.path.as_str(), u.keyword.as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            ("", "patternProperties"),
            ("", "additionalProperties"),
            ("properties.v", "oneOf"),
            ("$defs.a", "pattern"),
        ]
    );
    // A lookahead toolgate cannot run skips `patternProperties`, and the skipped
    // `additionalProperties` no longer refuses `x-` members (it must not:
    // `patternProperties` would have let them through), nor any other (a lenient load
    // only ever accepts more).
    assert!(accepts(&loaded, r#"{"x-tag": "a", "v": "zz", "w": 1}"#));
    // The `oneOf` without a weakened branch still holds.
    assert!(!accepts(&loaded, r#"{"w": true}"#));
}

#[test]
fn a_tool_spec_from_a_json_schema_reads_its_root_as_an_object() {
    use toolgate::spec::ToolSpec;
    let value = parse(r#"{"properties": {"n": {"type": "integer"}}, "required": ["n"]}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    let spec =
        ToolSpec::from_json_schema("count", "Counts.", &value).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        spec.params().to_json_schema().to_string(),
        r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#
    );
    let string = parse(r#"{"type": "string"}"#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        ToolSpec::from_json_schema("count", "Counts.", &string)
            .unwrap_err()
            .to_string(),
        "count: the arguments must be an object, but the schema accepts a string"
    );
    let pattern = parse(r#"{"type": "object", "properties": {"s": {"pattern": "(?=x)"}}}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        ToolSpec::from_json_schema("count", "Counts.", &pattern)
            .unwrap_err()
            .to_string(),
        "properties.s: pattern \"(?=x)\" is refused: lookahead (?=...) at character 0 is not supported: it cannot be checked in linear time"
    );
}

#[test]
fn the_first_repeated_key_in_input_order_is_reported_in_short_and_long_objects() {
    // `z` repeats before `a` does: `z` is reported, whether the object is small enough to
    // be compared pairwise or large enough to be sorted.
    for n_fillers in [0, 40] {
        let fillers: String = (0..n_fillers)
            .map(|index| format!(r#""f{index}": {{}}, "#))
            .collect();
        let text =
            format!(r#"{{"properties": {{{fillers}"z": {{}}, "a": {{}}, "z": {{}}, "a": {{}}}}}}"#);
        assert_eq!(
            error(&text).to_string(),
            "properties: 'z' must be declared once (two JSON readers may keep different \
             copies); found it twice",
            "{n_fillers} fillers"
        );
        let file = format!(r#"[{{{fillers}"name": "t", "z": 1, "a": 2, "z": 3, "a": 4}}]"#);
        assert_eq!(
            toolgate::spec::load_tools(&file).unwrap_err().to_string(),
            "tools[0]: expected each key once (two JSON readers may keep different copies); \
             found \"z\" twice",
            "{n_fillers} fillers"
        );
        let mut ty = toolgate::Type::object();
        for index in 0..n_fillers {
            ty = ty.optional(format!("f{index}"), toolgate::Type::any());
        }
        for name in ["z", "a", "z", "a"] {
            ty = ty.optional(name, toolgate::Type::any());
        }
        let spec = toolgate::ToolSpec::new("t", "d").required("x", ty).build();
        assert_eq!(
            spec.unwrap_err().to_string(),
            "t: at x: field 'z' is declared twice",
            "{n_fillers} fillers"
        );
    }
}

#[test]
fn a_keyword_is_quoted_like_any_name_a_message_shows() {
    // An unknown keyword is whatever the file holds: it is escaped to stay on one line.
    assert_eq!(
        error(r#"{"type": "string", "max\nLength": 3}"#).to_string(),
        r"the schema root: 'max\nLength' is not enforced"
    );
}

/// A generic tree whose nodes a `$dynamicRef` leaves open, and a strict tree that refers to
/// it and declares the same dynamic anchor: reached through the strict tree, every node is
/// strict, at any depth (the outermost resource in scope that declares `node` wins).
const STRICT_TREE: &str = r##"{"$id": "https://example.com/strict-tree",
    "$dynamicAnchor": "node", "$ref": "tree", "unevaluatedProperties": false,
    "$defs": {"tree": {"$id": "https://example.com/tree", "$dynamicAnchor": "node",
        "type": "object", "properties": {"data": true,
            "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}}}"##;

#[test]
fn a_dynamic_reference_follows_the_scope_it_is_reached_in() {
    let strict = schema(STRICT_TREE);
    assert!(accepts(
        &strict,
        r#"{"children": [{"data": 1, "children": [{}]}]}"#
    ));
    let misspelled =
        parse(r#"{"children": [{"children": [{"daat": 1}]}]}"#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        strict.validate(&misspelled).map_err(|v| v.to_string()),
        Err("children.0.children.0.daat is not allowed; received 1".to_string())
    );
    // The generic tree alone keeps its nodes open.
    let tree = r##"{"$id": "https://example.com/tree", "$dynamicAnchor": "node",
        "type": "object", "properties": {"data": true,
            "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}"##;
    assert!(accepts(&schema(tree), r#"{"children": [{"daat": 1}]}"#));
    // Resolved at load: the export says it with plain `$ref`s, and means the same.
    let written = strict.to_json_schema();
    assert!(!written.to_string().contains("$dynamicRef"), "{written}");
    let again = Schema::from_json_schema(&written).unwrap_or_else(|e| panic!("{e}"));
    assert!(!accepts(&again, r#"{"children": [{"daat": 1}]}"#));
    assert_eq!(again, strict, "{written}");
}

#[test]
fn a_dynamic_reference_to_a_plain_anchor_is_a_reference() {
    // The schema it first finds declares no `$dynamicAnchor` of that name: no dynamic
    // lookup, whatever the scope holds.
    // (The root in scope declares `n` dynamically, and would make `y` an object.)
    let text = r##"{"$id": "https://example.com/root", "$dynamicAnchor": "n", "type": "object",
        "properties": {"x": {"$ref": "inner"}},
        "$defs": {"inner": {"$id": "inner", "properties": {"y": {"$dynamicRef": "#n"}},
            "$defs": {"a": {"$anchor": "n", "type": "integer"}}}}}"##;
    let loaded = schema(text);
    assert!(accepts(&loaded, r#"{"x": {"y": 1}}"#));
    assert!(!accepts(&loaded, r#"{"x": {"y": {}}}"#));
}

#[test]
fn a_place_reached_in_too_many_dynamic_scopes_is_refused_with_the_limit() {
    // Nine resources declare the same dynamic anchor and each refers to one place, whose
    // `$dynamicRef` leads to that anchor: the place would be compiled once per resource
    // (each is outermost in its own scope). Past eight, the load stops with an error that
    // names the reference and the limit, instead of growing.
    let mut defs = vec![
        r#""P": {"$dynamicRef": "x#a"}"#.to_string(),
        r#""x": {"$id": "x", "$dynamicAnchor": "a"}"#.to_string(),
    ];
    let mut properties = Vec::new();
    for i in 0..9 {
        defs.push(format!(
            r##""r{i}": {{"$id": "r{i}", "properties": {{"v": {{"$ref": "root#/$defs/P"}}}},
                "$defs": {{"n": {{"$dynamicAnchor": "a", "type": "integer"}}}}}}"##
        ));
        properties.push(format!(r#""p{i}": {{"$ref": "r{i}"}}"#));
    }
    let text = format!(
        r#"{{"$id": "https://example.com/root",
            "properties": {{{}}}, "$defs": {{{}}}}}"#,
        properties.join(", "),
        defs.join(", ")
    );
    // The work list takes the last place queued first, so `r0`'s reference is the ninth.
    let refused = error(&text);
    assert_eq!(
        refused,
        LoadError::DynamicScopes {
            path: "$defs.r0.properties.v".into(),
            reference: "root#/$defs/P".into(),
            limit: 8
        }
    );
    assert_eq!(
        refused.to_string(),
        "$defs.r0.properties.v: the reference to 'root#/$defs/P' reaches a schema in more than \
         8 dynamic scopes (the resources that declare a '$dynamicAnchor' it leads to); \
         toolgate compiles a schema once per scope, at most 8 times"
    );
    // Eight load.
    let eight = text.replace(r#""p8": {"$ref": "r8"}"#, r#""p8": {}"#);
    let value = parse(&eight).unwrap_or_else(|e| panic!("{e}"));
    let loaded = Schema::from_json_schema(&value).unwrap_or_else(|e| panic!("{e}"));
    // Each resource's own anchor is where its `v` leads.
    assert!(accepts(&loaded, r#"{"p0": {"v": 1}, "p7": {"v": 2}}"#));
    assert!(!accepts(&loaded, r#"{"p7": {"v": "x"}}"#));
}
