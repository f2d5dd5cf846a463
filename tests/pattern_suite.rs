//! The regex cases of the official JSON-Schema-Test-Suite, draft 2020-12 (found through
//! `TOOLGATE_JSON_SCHEMA_TEST_SUITE`), run through `Pattern` alone, before any keyword is
//! wired to it: `pattern.json`'s string cases, `patternProperties.json`'s objects (each
//! member checked against the subschemas whose patterns match its name, with a small
//! evaluator for the few keywords those subschemas use), and `optional/ecmascript-regex.json`
//! when the suite has it. A group whose pattern is refused must be refused by name
//! ([`PatternErrorKind::Unsupported`]); every other case must agree. Every pattern anywhere
//! in the suite must compile or be refused by name too.
#![cfg(feature = "pattern")]

mod support;

use std::path::Path;
use support::corpus::{json_schema_test_suite, read};
use toolgate::json::{parse_with, Limits, Value};
use toolgate::pattern::{Pattern, PatternErrorKind};

fn document(dir: &Path, name: &str) -> Value<'static> {
    let limits = Limits {
        max_depth: 256,
        max_bytes: 16 << 20,
    };
    let text = read(dir, name);
    parse_with(&text, limits)
        .unwrap_or_else(|error| panic!("{name}: {error}"))
        .into_owned()
}

fn text_of<'v>(value: &'v Value<'_>, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or("?")
}

/// The counts a file's run ends with.
#[derive(Default)]
struct Tally {
    groups_run: usize,
    cases_agreed: usize,
    groups_refused: Vec<String>,
    not_for_a_regex: usize,
    failures: Vec<String>,
}

impl Tally {
    /// `source` compiled, or `None` after counting the group refused (by name) or failed.
    fn compile(&mut self, file: &str, group: &str, source: &str) -> Option<Pattern> {
        match Pattern::new(source) {
            Ok(pattern) => Some(pattern),
            Err(error) if matches!(error.kind(), PatternErrorKind::Unsupported(_)) => {
                self.groups_refused.push(format!("{source:?}: {error}"));
                None
            }
            Err(error) => {
                self.failures
                    .push(format!("{file} / {group}: {source:?} refused: {error}"));
                None
            }
        }
    }

    fn agree(&mut self, file: &str, group: &str, test: &Value<'_>, got: bool) {
        let expected = test.get("valid").and_then(Value::as_bool);
        if expected == Some(got) {
            self.cases_agreed += 1;
        } else {
            self.failures.push(format!(
                "{file} / {group} / {}: expected valid={expected:?}, got {got}",
                text_of(test, "description")
            ));
        }
    }

    fn report(&self, file: &str) {
        println!(
            "JSON-Schema-Test-Suite draft 2020-12 {file}: {} groups run, {} cases agreed, {} \
             groups refused by name, {} cases not about a regex (non-string or non-object data)",
            self.groups_run,
            self.cases_agreed,
            self.groups_refused.len(),
            self.not_for_a_regex
        );
        for refusal in &self.groups_refused {
            println!("  refused: {refusal}");
        }
        assert!(
            self.failures.is_empty(),
            "{file}: {} disagreements:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

/// Groups whose schema has a string `pattern`: each string case is `is_match`.
fn run_pattern_groups(dir: &Path, file: &str) -> Tally {
    let mut tally = Tally::default();
    for group in document(dir, file).as_array().unwrap_or(&[]) {
        let description = text_of(group, "description");
        let schema = group.get("schema").unwrap_or(&Value::Null);
        let Some(source) = schema.get("pattern").and_then(Value::as_str) else {
            continue;
        };
        let Some(pattern) = tally.compile(file, description, source) else {
            continue;
        };
        tally.groups_run += 1;
        for test in group.get("tests").and_then(Value::as_array).unwrap_or(&[]) {
            match test.get("data").and_then(Value::as_str) {
                Some(data) => tally.agree(file, description, test, pattern.is_match(data)),
                None => tally.not_for_a_regex += 1,
            }
        }
    }
    tally
}

/// Whether `value` satisfies `schema`, for the keywords `patternProperties.json`'s subschemas
/// use (booleans, `type`, `maximum`); any other keyword fails the test, so that a suite update
/// cannot pass by being ignored.
fn satisfies(schema: &Value<'_>, value: &Value<'_>) -> bool {
    if let Some(allowed) = schema.as_bool() {
        return allowed;
    }
    schema
        .as_object()
        .unwrap_or(&[])
        .iter()
        .all(|(keyword, argument)| match &**keyword {
            "type" => match argument.as_str() {
                Some("integer") => value.as_number().is_some_and(|n| n.as_f64().fract() == 0.0),
                Some("number") => value.as_number().is_some(),
                Some("string") => value.as_str().is_some(),
                Some("boolean") => value.as_bool().is_some(),
                Some("null") => value.is_null(),
                Some("object") => value.as_object().is_some(),
                other => panic!("type {other:?} in a subschema: extend this evaluator"),
            },
            "maximum" => match (value.as_number(), argument.as_number()) {
                (Some(value), Some(maximum)) => value.as_f64() <= maximum.as_f64(),
                _ => true,
            },
            other => panic!("keyword {other:?} in a subschema: extend this evaluator"),
        })
}

/// Groups with `patternProperties`: an object is valid when every member satisfies the
/// subschema of every pattern that matches its name.
fn run_pattern_properties_groups(dir: &Path, file: &str) -> Tally {
    let mut tally = Tally::default();
    for group in document(dir, file).as_array().unwrap_or(&[]) {
        let description = text_of(group, "description");
        let schema = group.get("schema").unwrap_or(&Value::Null);
        let Some(properties) = schema.get("patternProperties").and_then(Value::as_object) else {
            continue;
        };
        let compiled: Option<Vec<(Pattern, &Value<'_>)>> = properties
            .iter()
            .map(|(source, subschema)| Some((tally.compile(file, description, source)?, subschema)))
            .collect();
        let Some(compiled) = compiled else { continue };
        tally.groups_run += 1;
        for test in group.get("tests").and_then(Value::as_array).unwrap_or(&[]) {
            let Some(members) = test.get("data").and_then(Value::as_object) else {
                tally.not_for_a_regex += 1;
                continue;
            };
            let valid = members.iter().all(|(name, value)| {
                compiled
                    .iter()
                    .filter(|(pattern, _)| pattern.is_match(name))
                    .all(|(_, subschema)| satisfies(subschema, value))
            });
            tally.agree(file, description, test, valid);
        }
    }
    tally
}

/// Every string under a `pattern` key and every `patternProperties` key in `value`.
fn patterns_in<'v>(value: &'v Value<'_>, found: &mut Vec<&'v str>) {
    match value {
        Value::Object(members) => {
            for (key, inner) in members {
                match (&**key, inner) {
                    ("pattern", Value::String(source)) => found.push(source),
                    ("patternProperties", Value::Object(properties)) => {
                        found.extend(properties.iter().map(|(source, _)| &**source));
                    }
                    _ => {}
                }
                patterns_in(inner, found);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| patterns_in(item, found)),
        _ => {}
    }
}

#[test]
fn suite_regex_cases_agree_or_are_refused_by_name() {
    let Some(dir) = json_schema_test_suite() else {
        return;
    };
    run_pattern_groups(&dir, "pattern.json").report("pattern.json");
    run_pattern_properties_groups(&dir, "patternProperties.json").report("patternProperties.json");
    let optional = "optional/ecmascript-regex.json";
    if dir.join(optional).exists() {
        run_pattern_groups(&dir, optional).report(optional);
    } else {
        println!("JSON-Schema-Test-Suite draft 2020-12 {optional}: not in this copy of the suite");
    }
}

#[test]
fn every_pattern_in_the_suite_compiles_or_is_refused_by_name() {
    let Some(dir) = json_schema_test_suite() else {
        return;
    };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("cannot list {dir:?}: {error}"))
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".json"))
        .collect();
    names.sort();
    let (mut n_compiled, mut refused, mut failures) = (0, Vec::new(), Vec::new());
    for name in &names {
        let document = document(&dir, name);
        let mut found = Vec::new();
        patterns_in(&document, &mut found);
        for source in found {
            match Pattern::new(source) {
                Ok(_) => n_compiled += 1,
                Err(error) if matches!(error.kind(), PatternErrorKind::Unsupported(_)) => {
                    refused.push(format!("{name}: {source:?}"));
                }
                Err(error) => failures.push(format!("{name}: {source:?}: {error}")),
            }
        }
    }
    println!(
        "JSON-Schema-Test-Suite draft 2020-12, every pattern in {} files: {n_compiled} \
         compiled, {} refused by name {refused:?}",
        names.len(),
        refused.len()
    );
    assert!(
        failures.is_empty(),
        "refused, not by name:\n{}",
        failures.join("\n")
    );
    assert!(n_compiled > 0);
}
