//! The validator against recorded answers: the first violation (rule, path, received
//! text, sentence) of every value, on the corpus' arguments and mutations of them, on
//! every case of the JSON-Schema-Test-Suite, and on random schemas and values (fixed
//! seed), recorded as one digest each. The answers were recorded from 0.1's tree walk,
//! kept by 0.2's event validator, and are kept by 0.3's walk: a change of any first
//! violation anywhere shows here.
#![cfg(all(feature = "pattern", feature = "format"))]

mod support;

use std::borrow::Cow;
use support::corpus::{corpus, json_schema_test_suite, read};
use support::mutate::{mutate, Edit};
use support::rng::Rng;
use toolgate::json::{self, Limits, Number, Value};
use toolgate::spec::{Schema, Violation};
use toolgate::Gate;

/// The answer a validator gives, as one line: `ok`, or the rule's label, the path, the
/// received text and the sentence. A step budget run out is its label only: where the old
/// validator ran out was the exact step, where this one does is the deepest check past it.
fn answer(result: &Result<(), Violation>) -> String {
    match result {
        Ok(()) => "ok".to_owned(),
        Err(v) if v.rule().label() == "too_complex" => "too_complex".to_owned(),
        Err(v) => format!("{}|{}|{}|{}", v.rule().label(), v.path(), v.received(), v),
    }
}

/// Answers folded into one 64-bit FNV-1a digest, in order.
struct Digest {
    hash: u64,
    n_answers: usize,
    n_valid: usize,
}

impl Digest {
    fn new() -> Digest {
        Digest {
            hash: 0xcbf2_9ce4_8422_2325,
            n_answers: 0,
            n_valid: 0,
        }
    }

    fn add(&mut self, answer: &str) {
        for byte in answer.bytes().chain([b'\n']) {
            self.hash = (self.hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        self.n_answers += 1;
        self.n_valid += usize::from(answer == "ok");
    }
}

/// The answers the tree validator gave (see the module docs), by digest. On the random
/// values, one kind of answer differs, on purpose: a path whose first keys are empty
/// (`{"": [true]}`) now starts with a dot (`.0`, as `json::Path::dotted` writes it; the
/// tree validator wrote `0`, the path of an array's item). With the tree validator's way of
/// writing those paths, the digest is the tree validator's, `0x904e_27a9_4455_54a1`.
///
/// Those answers read `format` as an annotation, as toolgate did then: the corpus' tools
/// declare `"format": "email"` and `"format": "date"`, which are enforced now, so the
/// recorded digest is checked with format assertions off
/// (`Schema::without_format_assertions`), which must change nothing else, and the answers
/// with formats enforced are recorded apart ([`CORPUS_FORMATS_DIGEST`]).
const CORPUS_DIGEST: u64 = 0xad9c_f45f_a6c7_2b5b;
/// The corpus' answers with its formats enforced (recorded when `format` became enforced;
/// the test checks that every answer that differs from the annotation-only one is a
/// `format` violation: a mutated `to` or `since` that is no longer an email address or a
/// date).
const CORPUS_FORMATS_DIGEST: u64 = 0x1d40_bd73_fbf2_b79a;
/// The suite's digest moves each time a keyword becomes enforced (more groups load, and
/// lenient loads no longer skip it): the tree validator's was `0xd2e2_26f8_00f6_d874`;
/// with `pattern`, `minProperties` and `maxProperties`, `0x1fc5_8f6d_7fca_fc48`; with
/// `patternProperties`, `0x9ccc_52ee_c8d8_a577`; with `nullable`, `not`,
/// `dependentRequired`, `prefixItems`, `contains`, `minContains`, `maxContains`, `if`,
/// `then`, `else` and `dependentSchemas` too, `0x9fad_eea6_4615_2e11`; with `$anchor`
/// references resolved, `0x207b_ebeb_e50a_4559`; with `$id` below the root read as a base
/// URI, `0x1f04_50f8_bb26_3661` (every strict load's answer unchanged; 15 answers of
/// lenient loads, which had skipped those schemas, now refuse what the suite calls
/// invalid); with `unevaluatedProperties` and `unevaluatedItems`, `0x0a52_fb5f_bcba_3c63`
/// (357 answers changed, all in groups that use them: each new answer agrees with the
/// suite's `valid`); with `$dynamicRef`, `0x7774_8e09_0f74_fc41` (69 answers changed, in
/// the groups of `dynamicRef.json` and those `unevaluated*` groups that use it: each agrees
/// with the suite); with `\p{Letter}`, this one (the two groups that use it load strictly
/// now, 5 answers more, and their lenient load refuses `"123"`, which it had let through
/// with the pattern skipped: each agrees with the suite). The new answers are the ones tests/spec_schema_suite.rs checks against the
/// suite's own. As there, `format.json` is run with format assertions off, the default it
/// expects.
const SUITE_DIGEST: u64 = 0xfb4f_d720_ca27_c6cb;
const RANDOM_DIGEST: u64 = 0x36ff_13f4_6fca_635b;

/// The seed of the mutations and random values whose answers are recorded.
const SEED: u64 = 0x5eed_0fc0_ffee;

#[test]
fn the_corpus_and_its_mutations_get_the_recorded_answers() {
    let Some(dir) = corpus() else { return };
    let gate = Gate::from_tools_json(&read(&dir, "tools.json")).unwrap_or_else(|e| panic!("{e}"));
    let calls = read(&dir, "calls.jsonl");
    let mut rng = Rng::new(SEED);
    let mut digest = Digest::new();
    let mut formats_digest = Digest::new();
    // Each tool's schema with `format` an annotation, compiled once.
    let mut annotated: Vec<(String, Schema)> = Vec::new();
    for line in calls.lines() {
        let Ok(call) = toolgate::envelope::read_call(line, Limits::default()) else {
            continue;
        };
        let Some(spec) = gate.spec(&call.name) else {
            continue;
        };
        let text = call.args.to_string();
        let mut values = vec![call.args.clone().into_owned()];
        for _ in 0..3 {
            let edits = [Edit::Delete(4), Edit::Insert, Edit::Copy(12), Edit::Swap];
            let tokens = ["\"", ",", "1", "null", "\"x\"", "{", "}", "[", "]", ":"];
            let mutated = mutate(&mut rng, &text, (1, 3), &edits, &tokens);
            if let Ok(value) = json::parse(&mutated) {
                values.push(value.into_owned());
            }
        }
        let index = match annotated.iter().position(|(name, _)| *name == call.name) {
            Some(index) => index,
            None => {
                let schema = spec.params().clone().without_format_assertions();
                annotated.push((call.name.to_string(), schema));
                annotated.len() - 1
            }
        };
        let (_, without_formats) = &annotated[index];
        for value in &values {
            let (without, with) = (
                answer(&without_formats.validate(value)),
                answer(&spec.params().validate(value)),
            );
            // Enforcing a format adds one rule: an answer it changes is that rule's.
            assert!(
                with == without || with.starts_with("format|"),
                "{value}: {without} became {with}"
            );
            digest.add(&without);
            formats_digest.add(&with);
        }
    }
    println!(
        "corpus, formats enforced: {} values, {} valid, digest {:#018x}",
        formats_digest.n_answers, formats_digest.n_valid, formats_digest.hash
    );
    println!(
        "corpus: {} values, {} valid, digest {:#018x}",
        digest.n_answers, digest.n_valid, digest.hash
    );
    assert!(digest.n_answers > 20000 && digest.n_valid > 10000);
    assert_eq!(
        digest.hash, CORPUS_DIGEST,
        "the answers on the corpus are not the recorded ones (or the corpus changed)"
    );
    assert_eq!(
        formats_digest.hash, CORPUS_FORMATS_DIGEST,
        "the answers on the corpus with formats enforced are not the recorded ones"
    );
}

#[test]
fn every_case_of_the_schema_test_suite_gets_the_recorded_answer() {
    let Some(dir) = json_schema_test_suite() else {
        return;
    };
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {dir:?}: {e}"))
        .map(|entry| entry.map(|e| e.path()).unwrap_or_default())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    names.sort();
    let limits = Limits {
        max_depth: 256,
        max_bytes: 16 << 20,
    };
    let mut digest = Digest::new();
    for path in &names {
        let annotation_only = path.file_name().is_some_and(|name| name == "format.json");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let document = json::parse_with(&text, limits).unwrap_or_else(|e| panic!("{e}"));
        for group in document.as_array().unwrap_or(&[]) {
            let schema = group.get("schema").unwrap_or(&Value::Null);
            let loaded = [
                Schema::from_json_schema(schema).ok(),
                Schema::from_json_schema_lenient(schema)
                    .ok()
                    .map(|(s, _)| s),
            ];
            for compiled in loaded.into_iter().flatten() {
                let compiled = if annotation_only {
                    compiled.without_format_assertions()
                } else {
                    compiled
                };
                for test in group.get("tests").and_then(Value::as_array).unwrap_or(&[]) {
                    let data = test.get("data").unwrap_or(&Value::Null);
                    digest.add(&answer(&compiled.validate(data)));
                }
            }
        }
    }
    println!(
        "schema suite: {} cases, {} valid, digest {:#018x}",
        digest.n_answers, digest.n_valid, digest.hash
    );
    assert_eq!(
        digest.hash, SUITE_DIGEST,
        "the answers on the suite are not the recorded ones (or the suite changed)"
    );
}

const NAMES: [&str; 6] = ["a", "b", "city", "id", "x_y", "z-9"];
const WORDS: [&str; 7] = ["red", "green", "blue", "é", "日本語", "", "a"];
const NUMBERS: [&str; 12] = [
    "0", "1", "-1", "2", "2.5", "3", "1e2", "100", "7", "0.5", "-0", "1.0",
];

/// A random JSON Schema (as a value) over the names, words and numbers above, with
/// references to `n_defs` definitions.
fn random_schema(rng: &mut Rng, depth: usize, n_defs: usize) -> Value<'static> {
    if depth > 3 || rng.chance(1, 4) {
        return leaf_schema(rng, n_defs);
    }
    let mut members: Vec<(&str, Value<'static>)> = Vec::new();
    match rng.below(8) {
        0 | 1 => {
            members.push(("type", Value::from("object")));
            let mut props = Vec::new();
            for name in NAMES {
                if rng.chance(1, 2) {
                    let schema = random_schema(rng, depth + 1, n_defs);
                    props.push((Cow::Owned(name.to_owned()), schema));
                }
            }
            let required: Vec<Value<'static>> = NAMES
                .iter()
                .filter(|_| rng.chance(1, 4))
                .map(|name| Value::from(*name))
                .collect();
            members.push(("properties", Value::Object(props)));
            if !required.is_empty() {
                members.push(("required", Value::Array(required)));
            }
            match rng.below(4) {
                0 => members.push(("additionalProperties", Value::Bool(false))),
                1 => members.push((
                    "additionalProperties",
                    random_schema(rng, depth + 1, n_defs),
                )),
                _ => {}
            }
            if rng.chance(1, 6) {
                members.push(("propertyNames", random_schema(rng, depth + 1, n_defs)));
            }
        }
        2 => {
            members.push(("type", Value::from("array")));
            members.push(("items", random_schema(rng, depth + 1, n_defs)));
            if rng.chance(1, 3) {
                members.push(("uniqueItems", Value::Bool(true)));
            }
            if rng.chance(1, 4) {
                members.push(("minItems", Value::from(rng.below(3) as i64)));
            }
            if rng.chance(1, 4) {
                members.push(("maxItems", Value::from(rng.range(1, 4) as i64)));
            }
        }
        3..=5 => {
            let key = *rng.pick(&["anyOf", "oneOf", "allOf"]);
            let parts = (0..rng.range(1, 4))
                .map(|_| random_schema(rng, depth + 1, n_defs))
                .collect();
            members.push((key, Value::Array(parts)));
        }
        6 => {
            members.push((
                "enum",
                Value::Array((0..rng.range(1, 4)).map(|_| random_value(rng, 2)).collect()),
            ));
        }
        _ => members.push(("const", random_value(rng, 2))),
    }
    object(members)
}

fn leaf_schema(rng: &mut Rng, n_defs: usize) -> Value<'static> {
    let mut members: Vec<(&str, Value<'static>)> = Vec::new();
    match rng.below(10) {
        0 => {
            members.push(("type", Value::from("string")));
            if rng.bool() {
                members.push(("maxLength", Value::from(rng.below(4) as i64)));
            }
            if rng.bool() {
                members.push(("minLength", Value::from(rng.below(3) as i64)));
            }
        }
        1 => {
            members.push(("type", Value::from(*rng.pick(&["integer", "number"]))));
            let bound = |rng: &mut Rng| Value::Number(pick_number(rng, &NUMBERS));
            for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
                if rng.chance(1, 4) {
                    members.push((key, bound(rng)));
                }
            }
            if rng.chance(1, 4) {
                members.push((
                    "multipleOf",
                    Value::Number(pick_number(rng, &["0.5", "2", "3"])),
                ));
            }
        }
        2 => members.push(("type", Value::from(*rng.pick(&["boolean", "null"])))),
        3 => members.push((
            "type",
            Value::Array(vec![Value::from("string"), Value::from("null")]),
        )),
        4 if n_defs > 0 => {
            let target = format!("#/$defs/D{}", rng.below(n_defs));
            members.push(("$ref", Value::String(Cow::Owned(target))));
        }
        5 => {
            let words = (0..rng.range(1, 4))
                .map(|_| Value::from(*rng.pick(&WORDS)))
                .collect();
            members.push(("enum", Value::Array(words)));
        }
        6 => return Value::Bool(rng.chance(3, 4)),
        _ => members.push(("type", Value::from("string"))),
    }
    object(members)
}

fn object(members: Vec<(&str, Value<'static>)>) -> Value<'static> {
    Value::Object(
        members
            .into_iter()
            .map(|(key, value)| (Cow::Owned(key.to_owned()), value))
            .collect(),
    )
}

fn pick_number(rng: &mut Rng, texts: &[&str]) -> Number<'static> {
    let text: &&str = rng.pick(texts);
    num(text)
}

fn num(text: &str) -> Number<'static> {
    Number::from_text(text.to_owned()).unwrap_or_else(|| panic!("{text}"))
}

/// A random value over the same names, words and numbers, objects sometimes repeating a
/// key.
fn random_value(rng: &mut Rng, depth: usize) -> Value<'static> {
    let top = if depth == 0 { 4 } else { 7 };
    match rng.below(top) {
        0 => Value::Null,
        1 => Value::Bool(rng.bool()),
        2 => Value::Number(pick_number(rng, &NUMBERS)),
        3 => Value::from(*rng.pick(&WORDS)),
        4 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(4))
                .map(|_| {
                    let key = if rng.chance(1, 8) {
                        *rng.pick(&WORDS)
                    } else {
                        *rng.pick(&NAMES)
                    };
                    (Cow::Owned(key.to_owned()), random_value(rng, depth - 1))
                })
                .collect(),
        ),
    }
}

/// A random schema with `n_defs` definitions (also random), as a JSON Schema document.
fn random_document(rng: &mut Rng) -> Value<'static> {
    let n_defs = rng.below(3);
    let mut root = random_schema(rng, 0, n_defs);
    if n_defs > 0 {
        let defs = (0..n_defs)
            .map(|i| (Cow::Owned(format!("D{i}")), random_schema(rng, 1, n_defs)))
            .collect();
        root = object(vec![
            ("allOf", Value::Array(vec![root])),
            ("$defs", Value::Object(defs)),
        ]);
    }
    root
}

#[test]
fn a_path_whose_first_key_is_empty_starts_with_a_dot() {
    let schema = Schema::from_json_schema(
        &json::parse(r#"{"additionalProperties": {"items": {"type": "string"}}}"#)
            .unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let value = json::parse(r#"{"": [true]}"#).unwrap_or_else(|e| panic!("{e}"));
    let found = schema.validate(&value).err().map(|v| v.to_string());
    assert_eq!(found.as_deref(), Some(".0 must be a string; received true"));
}

#[test]
fn random_schemas_and_values_get_the_recorded_answers() {
    let mut rng = Rng::new(SEED);
    let mut n_loaded = 0;
    let mut digest = Digest::new();
    for _ in 0..4000 {
        let root = random_document(&mut rng);
        let Ok(schema) = Schema::from_json_schema(&root) else {
            continue;
        };
        n_loaded += 1;
        for _ in 0..8 {
            let value = random_value(&mut rng, 4);
            digest.add(&answer(&schema.validate(&value)));
        }
    }
    println!(
        "{n_loaded} schemas, {} values, {} valid, digest {:#018x}",
        digest.n_answers, digest.n_valid, digest.hash
    );
    let (n, valid) = (digest.n_answers, digest.n_valid);
    assert!(n_loaded > 1000 && valid > 1000 && n - valid > 1000);
    assert_eq!(digest.hash, RANDOM_DIGEST);
}
