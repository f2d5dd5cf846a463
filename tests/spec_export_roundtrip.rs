//! Property tests over random schemas: every provider form reads back as the same spec,
//! the strict form is a fixed point, and neither loading nor validating ever panics.
//!
//! Replay a failure with `TOOLGATE_SEED=<seed> cargo test --test spec_export_roundtrip`.
#![cfg(feature = "format")]

mod support;

use std::borrow::Cow;
use support::rng::Rng;
use toolgate::json::{Number, Value};
use toolgate::spec::{check_strict, load_tools, load_tools_from_value, Provider, Schema, ToolSpec};

/// The export of specs whose names every provider accepts (so it cannot be refused).
fn export_tools(specs: &[ToolSpec], provider: Provider) -> toolgate::json::Value<'static> {
    toolgate::spec::export_tools(specs, provider).unwrap_or_else(|e| panic!("{e}"))
}

fn obj(members: Vec<(&str, Value<'static>)>) -> Value<'static> {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (Cow::Owned(k.to_string()), v))
            .collect(),
    )
}

fn s(text: impl AsRef<str>) -> Value<'static> {
    Value::String(Cow::Owned(text.as_ref().to_string()))
}

fn num(text: impl AsRef<str>) -> Value<'static> {
    let text = text.as_ref();
    Value::Number(Number::from_text(text.to_string()).unwrap_or_else(|| panic!("{text}")))
}

const NAMES: &[&str] = &["a", "city", "b_c", "a b", "x.y", "ü", "$ref", "type", "~/"];
const STRINGS: &[&str] = &["x", "metric", "", "é", "a\"b", "line\nbreak"];
const NUMBERS: &[&str] = &["0", "1", "-3", "2.5", "1e2", "100", "0.25"];

/// Random schema generator for the subset toolgate enforces, kept free of the
/// contradictions a spec refuses (empty ranges, enum values of a refused kind).
struct Gen<'r> {
    rng: &'r mut Rng,
    defs: Vec<String>,
}

impl Gen<'_> {
    fn schema(&mut self, depth: usize) -> Value<'static> {
        if self.rng.chance(1, 20) {
            return Value::Bool(self.rng.chance(4, 5));
        }
        let mut out: Vec<(&str, Value<'static>)> = Vec::new();
        let leaf = depth >= 3;
        let choice = self.rng.below(if leaf { 6 } else { 10 });
        match choice {
            0 => self.string(&mut out, false),
            1 => self.number(&mut out, "integer"),
            2 => self.number(&mut out, "number"),
            3 => {
                out.push(("type", s("boolean")));
                if self.rng.chance(1, 4) {
                    out.push(("const", Value::Bool(self.rng.bool())));
                }
            }
            4 => out.push(("type", s("null"))),
            5 => self.string(&mut out, true),
            6 => {
                out.push(("type", s("array")));
                out.push(("items", self.schema(depth + 1)));
                let min = self.rng.below(3);
                if self.rng.bool() {
                    out.push(("minItems", num(min.to_string())));
                }
                if self.rng.bool() {
                    out.push(("maxItems", num((min + self.rng.below(3)).to_string())));
                }
                if self.rng.chance(1, 4) {
                    out.push(("uniqueItems", Value::Bool(true)));
                }
            }
            7 => {
                out.push(("type", s("object")));
                self.object(&mut out, depth);
            }
            8 => {
                let keyword = *self.rng.pick(&["anyOf", "oneOf", "allOf"]);
                let n = self.rng.range(1, 3);
                let branches = (0..n).map(|_| self.schema(depth + 1)).collect();
                out.push((keyword, Value::Array(branches)));
            }
            _ => {
                if self.defs.is_empty() {
                    out.push(("type", s("string")));
                } else {
                    let name = self.rng.pick(&self.defs).clone();
                    out.push(("$ref", s(format!("#/$defs/{name}"))));
                }
            }
        }
        if self.rng.chance(1, 4) {
            out.push(("description", s(self.rng.pick(STRINGS))));
        }
        if self.rng.chance(1, 8) {
            out.push(("title", s("annotation, dropped")));
        }
        obj(out)
    }

    fn string(&mut self, out: &mut Vec<(&str, Value<'static>)>, nullable: bool) {
        out.push((
            "type",
            if nullable {
                Value::Array(vec![s("string"), s("null")])
            } else {
                s("string")
            },
        ));
        match self.rng.below(4) {
            0 => {
                let n = self.rng.range(1, 3);
                let mut values: Vec<Value<'static>> =
                    (0..n).map(|i| s(STRINGS[i % STRINGS.len()])).collect();
                if nullable && self.rng.bool() {
                    values.push(Value::Null);
                }
                out.push(("enum", Value::Array(values)));
            }
            1 => out.push(("const", s(self.rng.pick(STRINGS)))),
            _ => {}
        }
        let min = self.rng.below(4);
        if self.rng.bool() {
            out.push(("minLength", num(min.to_string())));
        }
        if self.rng.bool() {
            out.push(("maxLength", num((min + self.rng.below(9)).to_string())));
        }
        if self.rng.chance(1, 4) {
            out.push(("format", s(self.rng.pick(&["date", "email", "uuid"]))));
        }
    }

    fn number(&mut self, out: &mut Vec<(&str, Value<'static>)>, kind: &'static str) {
        out.push(("type", s(kind)));
        if self.rng.chance(1, 4) {
            let values = vec![num("1"), num("2"), num("100")];
            out.push(("enum", Value::Array(values)));
            return;
        }
        let low = self.rng.below(5);
        if self.rng.bool() {
            let key = if self.rng.bool() {
                "minimum"
            } else {
                "exclusiveMinimum"
            };
            out.push((key, num(low.to_string())));
        }
        if self.rng.bool() {
            let key = if self.rng.bool() {
                "maximum"
            } else {
                "exclusiveMaximum"
            };
            out.push((key, num((low + 1 + self.rng.below(50)).to_string())));
        }
        if self.rng.chance(1, 4) {
            let step = if kind == "integer" {
                "1"
            } else {
                *self.rng.pick(&["0.25", "2", "0.5"])
            };
            out.push(("multipleOf", num(step)));
        }
        if self.rng.chance(1, 6) {
            out.push(("format", s("int32")));
        }
    }

    fn object(&mut self, out: &mut Vec<(&str, Value<'static>)>, depth: usize) {
        let n = self.rng.below(4);
        let mut names: Vec<&str> = Vec::new();
        let mut properties = Vec::new();
        for _ in 0..n {
            let name = *self.rng.pick(NAMES);
            if !names.contains(&name) {
                names.push(name);
                properties.push((Cow::Owned(name.to_string()), self.schema(depth + 1)));
            }
        }
        out.push(("properties", Value::Object(properties)));
        let mut required: Vec<Value<'static>> = names
            .iter()
            .filter(|_| self.rng.bool())
            .map(|n| s(n))
            .collect();
        if self.rng.chance(1, 6) {
            required.push(s("only_required"));
        }
        if !required.is_empty() {
            out.push(("required", Value::Array(required)));
        }
        match self.rng.below(4) {
            0 => out.push(("additionalProperties", Value::Bool(false))),
            1 => out.push(("additionalProperties", Value::Bool(true))),
            2 => out.push(("additionalProperties", self.schema(depth + 1))),
            _ => {}
        }
        if self.rng.chance(1, 6) {
            out.push(("propertyNames", obj(vec![("maxLength", num("8"))])));
        }
    }

    /// A tool's input schema: an object, with definitions the schemas may reference.
    fn input_schema(&mut self) -> Value<'static> {
        let n_defs = self.rng.below(3);
        self.defs = (0..n_defs)
            .map(|i| ["Node", "Address", "a/b"][i].to_string())
            .collect();
        let mut out = vec![("type", s("object"))];
        self.object(&mut out, 0);
        if n_defs > 0 {
            let defs = self
                .defs
                .clone()
                .iter()
                .map(|name| (Cow::Owned(name.clone()), self.schema(1)))
                .collect();
            out.push(("$defs", Value::Object(defs)));
        }
        // `#/$defs/a/b` must be written `#/$defs/a~1b`.
        obj(out)
    }
}

fn fix_refs(value: Value<'static>) -> Value<'static> {
    match value {
        Value::String(text) if text == "#/$defs/a/b" => s("#/$defs/a~1b"),
        Value::Array(items) => Value::Array(items.into_iter().map(fix_refs).collect()),
        Value::Object(members) => {
            Value::Object(members.into_iter().map(|(k, v)| (k, fix_refs(v))).collect())
        }
        other => other,
    }
}

fn random_file(rng: &mut Rng) -> Value<'static> {
    let n = rng.range(1, 3);
    let mut tools = Vec::new();
    for index in 0..n {
        let mut generator = Gen {
            rng: &mut *rng,
            defs: Vec::new(),
        };
        let schema = fix_refs(generator.input_schema());
        tools.push(obj(vec![
            ("name", s(format!("tool_{index}"))),
            ("description", s("A random tool.")),
            ("input_schema", schema),
        ]));
    }
    Value::Array(tools)
}

/// A random JSON value, small, of any kind.
fn random_value(rng: &mut Rng, depth: usize) -> Value<'static> {
    match rng.below(if depth > 2 { 4 } else { 6 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.bool()),
        2 => num(rng.pick(NUMBERS)),
        3 => s(rng.pick(STRINGS)),
        4 => Value::Array(
            (0..rng.below(3))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(3))
                .map(|_| {
                    (
                        Cow::Owned(rng.pick(NAMES).to_string()),
                        random_value(rng, depth + 1),
                    )
                })
                .collect(),
        ),
    }
}

#[test]
fn every_form_round_trips_random_specs() {
    let mut rng = Rng::from_env();
    let iterations = Rng::iters(400);
    let (mut loaded, mut refused, mut strict_forms) = (0, 0, 0);
    for _ in 0..iterations {
        let file = random_file(&mut rng);
        let specs: Vec<ToolSpec> = match load_tools_from_value(&file) {
            Ok(specs) => specs,
            Err(error) => {
                // Only what a random schema can legitimately hit: a reference cycle.
                assert!(
                    error.to_string().contains("leads back to itself")
                        || error.to_string().contains("reaches itself"),
                    "seed {}: {error}\n{file}",
                    rng.seed()
                );
                refused += 1;
                continue;
            }
        };
        loaded += 1;
        for provider in Provider::ALL {
            let exported = export_tools(&specs, provider);
            let text = exported.to_string();
            let back = load_tools(&text).unwrap_or_else(|e| {
                panic!("seed {}: {}: {e}\n{text}", rng.seed(), provider.label())
            });
            if matches!(provider, Provider::OpenAiStrict | Provider::ResponsesStrict) {
                // The strict reading is a fixed point: exporting it again changes nothing.
                assert_eq!(
                    export_tools(&back, provider),
                    exported,
                    "seed {}",
                    rng.seed()
                );
                for (spec, read) in specs.iter().zip(&back) {
                    if check_strict(spec).is_err() {
                        assert_eq!(read, spec, "seed {}: the fallback is exact", rng.seed());
                    } else {
                        strict_forms += 1;
                    }
                }
            } else {
                assert_eq!(
                    back,
                    specs,
                    "seed {}: {}\n{text}",
                    rng.seed(),
                    provider.label()
                );
            }
        }
        for spec in &specs {
            let params = spec.params();
            let written = params.to_json_schema();
            assert_eq!(
                Schema::from_json_schema(&written).as_ref(),
                Ok(params),
                "seed {}",
                rng.seed()
            );
            // Validation of random values never panics, and agrees after the round trip.
            let back = Schema::from_json_schema(&written).unwrap_or_default();
            for _ in 0..8 {
                let value = random_value(&mut rng, 0);
                assert_eq!(
                    params.validate(&value).is_ok(),
                    back.validate(&value).is_ok(),
                    "seed {}",
                    rng.seed()
                );
            }
        }
    }
    println!("{loaded} random files loaded and round-tripped ({refused} refused for a reference cycle); {strict_forms} specs had a strict form");
    assert!(
        loaded * 10 >= iterations * 8,
        "too few random files load: {loaded} of {iterations}"
    );
    assert!(strict_forms > 0);
}

/// Replaces one node of a value, chosen at random, with a random value.
fn mutate(value: &mut Value<'static>, rng: &mut Rng) {
    let mut here = value;
    loop {
        let next_index = match &*here {
            Value::Array(items) if !items.is_empty() && rng.chance(3, 4) => rng.below(items.len()),
            Value::Object(members) if !members.is_empty() && rng.chance(3, 4) => {
                rng.below(members.len())
            }
            _ => {
                *here = match rng.below(4) {
                    0 => random_value(rng, 0),
                    1 => s(rng.pick(&["pattern", "#/$defs/Node", "#", "integer", "x"])),
                    2 => obj(vec![(
                        *rng.pick(&[
                            "not", "$ref", "items", "required", "enum", "minimum", "type",
                        ]),
                        random_value(rng, 1),
                    )]),
                    _ => Value::Array(vec![]),
                };
                return;
            }
        };
        here = match here {
            Value::Array(items) => match items.get_mut(next_index) {
                Some(item) => item,
                None => return,
            },
            Value::Object(members) => match members.get_mut(next_index) {
                Some((_, item)) => item,
                None => return,
            },
            _ => return,
        };
    }
}

#[test]
fn mutated_schemas_never_panic_and_lenient_agrees_when_nothing_is_skipped() {
    let mut rng = Rng::from_env();
    let iterations = Rng::iters(1500);
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..iterations {
        let mut generator = Gen {
            rng: &mut rng,
            defs: Vec::new(),
        };
        let mut schema = fix_refs(generator.input_schema());
        for _ in 0..rng.range(1, 3) {
            mutate(&mut schema, &mut rng);
        }
        let strict = Schema::from_json_schema(&schema);
        let lenient = Schema::from_json_schema_lenient(&schema);
        match (&strict, &lenient) {
            (Ok(compiled), Ok((loose, skipped))) => {
                ok += 1;
                assert_eq!(compiled, loose, "seed {}", rng.seed());
                // Only a format name toolgate does not enforce is listed: it is an
                // annotation in the strict load too.
                assert!(
                    skipped.iter().all(|entry| entry.keyword == "format"),
                    "seed {}: {skipped:?}",
                    rng.seed()
                );
                let value = random_value(&mut rng, 0);
                let _ = compiled.validate(&value);
            }
            (Err(error), Ok((loose, _))) => {
                refused += 1;
                assert!(
                    error.unsupported_keyword().is_some(),
                    "seed {}: {error}",
                    rng.seed()
                );
                let _ = loose.validate(&random_value(&mut rng, 0));
            }
            (Err(_), Err(_)) => refused += 1,
            (Ok(_), Err(error)) => panic!(
                "seed {}: strict loads, lenient refuses: {error}",
                rng.seed()
            ),
        }
    }
    println!("{ok} mutated schemas loaded, {refused} refused");
}
