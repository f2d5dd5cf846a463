//! `json::Path`: the one path type, in its three forms (the location form of load and spec
//! errors, the dotted form of violations, the JSON Pointer of `$ref`s), and the places that
//! write it agree on each form.

use toolgate::json::{parse, Path, Segment};
use toolgate::spec::{load_tools, Schema};
use toolgate::{ToolSpec, Type};

#[test]
fn paths_quote_names_that_are_not_identifiers() {
    let path = Path::root()
        .key("properties")
        .key("zip")
        .index(2)
        .key("a b");
    assert_eq!(path.to_string(), "properties.zip[2][\"a b\"]");
}

#[test]
fn each_form_writes_every_segment() {
    let check = |path: &Path, location: &str, dotted: &str, pointer: &str| {
        assert_eq!(path.to_string(), location, "location");
        assert_eq!(path.dotted(), dotted, "dotted");
        assert_eq!(path.pointer(), pointer, "pointer");
    };
    check(&Path::root(), "", "", "");
    check(&Path::root().index(0), "[0]", "0", "/0");
    check(
        &Path::root().key("items").index(2).key("sku"),
        "items[2].sku",
        "items.2.sku",
        "/items/2/sku",
    );
    check(
        &Path::root().key("$defs").key("a/b~c"),
        r#"$defs["a/b~c"]"#,
        "$defs.a/b~c",
        "/$defs/a~1b~0c",
    );
    check(
        &Path::root().key("").key("say \"hi\"\n"),
        r#"[""]["say \"hi\"\n"]"#,
        ".say \"hi\"\n",
        "//say \"hi\"\n",
    );
    let pattern = Path::root()
        .key("filters")
        .with(Segment::AnyKey)
        .key("tags")
        .with(Segment::AnyIndex);
    check(
        &pattern,
        "filters.*.tags[]",
        "filters.*.tags.[]",
        "/filters/*/tags/*",
    );
    let mut path = pattern.clone();
    assert_eq!(path.pop(), Some(Segment::AnyIndex));
    assert_eq!(path.segments().len(), 3);
    assert!(!path.is_root());
    let collected: Path = pattern.segments().iter().cloned().collect();
    assert_eq!(collected, pattern);
}

#[test]
fn load_spec_and_export_errors_write_odd_names_the_same_way() {
    // A schema load error, a tools-file error, a spec contradiction and a strict-export
    // refusal all quote a field name that is not a plain identifier in one way.
    let schema = parse(r#"{"properties": {"a b": {"pattern": "(?=x)"}}}"#).unwrap();
    assert_eq!(
        Schema::from_json_schema(&schema).unwrap_err().path(),
        r#"properties["a b"]"#
    );
    let file = r#"[{"name": "t", "input_schema": {"properties": {"a b": {"minimum": "1"}}}}]"#;
    assert_eq!(
        load_tools(file).unwrap_err().path(),
        r#"tools[0].input_schema.properties["a b"]"#
    );
    let error = ToolSpec::new("t", "d")
        .required(
            "a b",
            Type::array(Type::integer().min(2).max(1)).describe("x"),
        )
        .build()
        .unwrap_err();
    assert_eq!(error.path(), r#"["a b"][]"#);
    let spec = ToolSpec::new("t", "d")
        .required("a b", Type::string().max_length(3))
        .build()
        .unwrap();
    let strict = toolgate::spec::check_strict(&spec).unwrap_err();
    assert_eq!(strict.path, r#"["a b"]"#);
}
