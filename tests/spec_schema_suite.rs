//! The official JSON-Schema-Test-Suite, draft 2020-12 (../shared/json-schema-test-suite,
//! found through `TOOLGATE_JSON_SCHEMA_TEST_SUITE`).
//!
//! Every group either loads, and then every test's `valid` is what `Schema::validate` says,
//! or fails to load with an error naming a keyword toolgate does not enforce, and that
//! keyword stands in the group's schema. There is no skip list: a group that loads is run.
//!
//! `format.json` expects draft 2020-12's default, where `format` is an annotation only
//! (`"2962"` is a valid `email`): its groups run with `Schema::without_format_assertions`,
//! the switch for that default. Toolgate's own enforced formats are tested in
//! tests/spec_format.rs and tests/spec_format_enforced.rs.
#![cfg(all(feature = "pattern", feature = "format"))]

mod support;

use std::path::PathBuf;
use support::corpus::json_schema_test_suite;
use toolgate::json::{parse_with, Limits, Value};
use toolgate::spec::Schema;

/// The schema as the suite's file means it: `format.json` reads `format` as an annotation.
fn as_the_file_means(file: &str, schema: Schema) -> Schema {
    if file == "format.json" {
        schema.without_format_assertions()
    } else {
        schema
    }
}

/// True if `key` is a member name anywhere in `value`.
fn mentions(value: &Value<'_>, key: &str) -> bool {
    match value {
        Value::Object(members) => members
            .iter()
            .any(|(name, inner)| name == key || mentions(inner, key)),
        Value::Array(items) => items.iter().any(|item| mentions(item, key)),
        _ => false,
    }
}

fn text_of<'v>(value: &'v Value<'_>, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or("?")
}

#[test]
fn draft_2020_12_agrees_or_refuses_by_keyword() {
    let Some(dir) = json_schema_test_suite() else {
        return;
    };
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {dir:?}: {e}"))
        .map(|entry| entry.map(|e| e.path()).unwrap_or_default())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no .json files in {dir:?}");

    let limits = Limits {
        max_depth: 256,
        max_bytes: 16 << 20,
    };
    let (mut groups_run, mut cases_agreed, mut groups_refused) = (0, 0, 0);
    let mut refused_by: Vec<(String, usize)> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    for path in &names {
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let document = parse_with(&text, limits).unwrap_or_else(|e| panic!("{file}: {e}"));
        let groups = document
            .as_array()
            .unwrap_or_else(|| panic!("{file}: not an array"));
        for group in groups {
            let description = text_of(group, "description");
            let schema = group.get("schema").unwrap_or(&Value::Null);
            let tests = group.get("tests").and_then(Value::as_array).unwrap_or(&[]);
            match Schema::from_json_schema(schema) {
                Ok(compiled) => {
                    let compiled = as_the_file_means(file, compiled);
                    groups_run += 1;
                    for test in tests {
                        let data = test.get("data").unwrap_or(&Value::Null);
                        let valid = test.get("valid").and_then(Value::as_bool);
                        let got = compiled.validate(data);
                        if Some(got.is_ok()) == valid {
                            cases_agreed += 1;
                        } else {
                            failures.push(format!(
                                "{file} / {description} / {}: expected valid={valid:?}, \
                                 validate gave {got:?}",
                                text_of(test, "description")
                            ));
                        }
                    }
                }
                Err(error) => match error.unsupported_keyword() {
                    Some(keyword) if mentions(schema, keyword) => {
                        groups_refused += 1;
                        match refused_by.iter_mut().find(|(k, _)| k == keyword) {
                            Some((_, count)) => *count += 1,
                            None => refused_by.push((keyword.to_string(), 1)),
                        }
                    }
                    _ => failures.push(format!(
                        "{file} / {description}: refused without naming an unsupported \
                         keyword of its schema: {error}"
                    )),
                },
            }
        }
    }
    refused_by.sort();
    println!(
        "JSON-Schema-Test-Suite draft 2020-12: {groups_run} groups run, {cases_agreed} cases \
         agreed, {groups_refused} groups refused"
    );
    println!("refused, by the keyword named: {refused_by:?}");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(groups_run > 0 && groups_refused > 0);
}

/// A lenient load of every group may skip keywords, but what it loads must accept every
/// test the suite marks valid: skipping only ever weakens, never strengthens.
#[test]
fn lenient_loads_accept_every_valid_case() {
    let Some(dir) = json_schema_test_suite() else {
        return;
    };
    let limits = Limits {
        max_depth: 256,
        max_bytes: 16 << 20,
    };
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {dir:?}: {e}"))
        .map(|entry| entry.map(|e| e.path()).unwrap_or_default())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    names.sort();
    let (mut loaded, mut valid_accepted, mut invalid_refused, mut refused) = (0, 0, 0, 0);
    let mut failures: Vec<String> = Vec::new();
    for path in &names {
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let document = parse_with(&text, limits).unwrap_or_else(|e| panic!("{file}: {e}"));
        for group in document.as_array().unwrap_or(&[]) {
            let description = text_of(group, "description");
            let schema = group.get("schema").unwrap_or(&Value::Null);
            let (compiled, unenforced) = match Schema::from_json_schema_lenient(schema) {
                Ok(loaded) => loaded,
                Err(error) => {
                    refused += 1;
                    println!("{file} / {description}: refused even leniently: {error}");
                    continue;
                }
            };
            loaded += 1;
            // A lenient load that skipped nothing is the strict load (a `format` it lists
            // is an annotation in both).
            if unenforced.iter().all(|entry| entry.keyword == "format") {
                assert_eq!(Schema::from_json_schema(schema).as_ref(), Ok(&compiled));
            }
            let compiled = as_the_file_means(file, compiled);
            for test in group.get("tests").and_then(Value::as_array).unwrap_or(&[]) {
                let data = test.get("data").unwrap_or(&Value::Null);
                let accepted = compiled.validate(data).is_ok();
                match test.get("valid").and_then(Value::as_bool) {
                    Some(true) if accepted => valid_accepted += 1,
                    Some(true) => failures.push(format!(
                        "{file} / {description} / {}: valid, but the lenient load refused it \
                         (skipped: {unenforced:?})",
                        text_of(test, "description")
                    )),
                    _ if !accepted => invalid_refused += 1,
                    _ => {}
                }
            }
        }
    }
    println!(
        "lenient: {loaded} groups loaded ({refused} refused), {valid_accepted} valid cases \
         accepted, {invalid_refused} invalid cases still refused"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
