//! The quick path against the full validation: it may give up on anything, but what it
//! accepts the full validation accepts, with nothing read as absent; and on the calls a
//! gate really sees it does not give up.

use super::quick::Quick;
use super::Validation;
use crate::json::{self, Limits, Reader, Value};
use crate::spec::format::Format;
use crate::spec::{Schema, ToolSpec, Type};

/// A small xorshift generator, seeded per run from the clock unless `TOOLGATE_SEED` is
/// set (the seed is printed, so a failure can be replayed).
struct Rng(u64);

impl Rng {
    fn from_env() -> Rng {
        let seed = std::env::var("TOOLGATE_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(7, |d| d.as_nanos() as u64)
            });
        eprintln!("quick_tests: TOOLGATE_SEED={seed}");
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const NAMES: [&str; 5] = ["id", "city", "ünits", "tags", "a\"b"];
const WORDS: [&str; 8] = [
    "",
    "paid",
    "Zürich",
    "a\\nb",
    "日本語テキスト",
    "\\u00e9t\\u00e9",
    "2025-01-3\\u0031",
    "jos\\u00e9@example.com",
];

/// A random type of the kinds tools declare, quick or not (alternatives and `uniqueItems`
/// appear too, so that giving up is exercised).
fn random_type(rng: &mut Rng, depth: u32) -> Type {
    let pick = if depth >= 3 {
        rng.below(5)
    } else {
        rng.below(8)
    };
    let mut ty = match pick {
        0 => {
            let mut ty = Type::string();
            if rng.chance(40) {
                ty = ty.max_length(rng.below(8));
            }
            if rng.chance(30) {
                ty = ty.min_length(rng.below(4));
            }
            if rng.chance(20) {
                ty = ty.one_of(["paid", "Zürich", ""]);
            }
            if rng.chance(10) {
                ty = ty.pattern("^[a-z]+$");
            }
            if rng.chance(10) {
                ty = ty.format(if rng.chance(50) {
                    Format::Date
                } else {
                    Format::Email
                });
            }
            ty
        }
        1 => {
            let mut ty = Type::integer();
            if rng.chance(50) {
                ty = ty.min(-2).max(rng.below(100) as i64);
            }
            if rng.chance(20) {
                // At a bound the random values hit, so that exclusiveness counts.
                ty = ty.exclusive_max([0, 2, 99, 100][rng.below(4) as usize]);
            }
            if rng.chance(10) {
                ty = ty.format(Format::Int32);
            }
            ty
        }
        2 if rng.chance(50) => Type::number().multiple_of(0.5),
        2 => {
            let ty = Type::number().exclusive_min(-2);
            if rng.chance(50) {
                ty.max(99)
            } else {
                ty.max(2.5)
            }
        }
        3 => Type::boolean(),
        4 => Type::null(),
        5 => {
            let mut ty = Type::array(random_type(rng, depth + 1));
            if rng.chance(40) {
                ty = ty.max_items(rng.below(4));
            }
            if rng.chance(30) {
                ty = ty.min_items(rng.below(3));
            }
            if rng.chance(10) {
                ty = ty.unique_items();
            }
            ty
        }
        6 => Type::any_of([random_type(rng, depth + 1), Type::null()]),
        _ => random_object(rng, depth + 1),
    };
    if rng.chance(10) {
        ty = ty.nullable();
    }
    ty
}

fn random_object(rng: &mut Rng, depth: u32) -> Type {
    let mut ty = Type::object();
    for name in NAMES {
        if rng.chance(50) {
            let field = random_type(rng, depth);
            ty = if rng.chance(50) {
                ty.required(name, field)
            } else {
                ty.optional(name, field)
            };
        }
    }
    if rng.chance(30) {
        ty = ty.open();
    }
    if rng.chance(10) {
        ty = ty.max_properties(rng.below(4));
    }
    ty
}

/// Random JSON text, often of the shape the tools above declare (their names and words).
fn random_value(rng: &mut Rng, depth: u32, out: &mut String) {
    match rng.below(if depth >= 4 { 6 } else { 8 }) {
        0 => out.push_str("null"),
        1 => out.push_str(if rng.chance(50) { "true" } else { "false" }),
        2 => out
            .push_str(["0", "-2", "99", "100", "1.5", "2.25", "1e2", "-0"][rng.below(8) as usize]),
        3..=5 => {
            out.push('"');
            out.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
            out.push('"');
        }
        6 => {
            out.push('[');
            for n in 0..rng.below(4) {
                if n > 0 {
                    out.push(',');
                }
                random_value(rng, depth + 1, out);
            }
            out.push(']');
        }
        _ => {
            out.push('{');
            for n in 0..rng.below(5) {
                if n > 0 {
                    out.push(',');
                }
                out.push('"');
                out.push_str(
                    NAMES[rng.below(NAMES.len() as u64 + 1).min(4) as usize]
                        .replace('"', "\\\"")
                        .as_str(),
                );
                out.push_str("\":");
                random_value(rng, depth + 1, out);
            }
            out.push('}');
        }
    }
}

/// The full validation's verdict on `value`, and whether it read a `null` as absent.
fn full(schema: &Schema, value: &Value<'_>) -> (bool, bool) {
    let mut validation = Validation::new(schema.program());
    let _ = json::replay(value, &mut validation);
    let absent = validation.read_absent();
    (validation.finish().is_ok(), absent)
}

/// The quick path fed `text` by the reader in chunks of `chunk` bytes (so strings arrive
/// in parts across chunk boundaries and escapes).
fn quick_from_text(schema: &Schema, text: &str, chunk: usize) -> bool {
    let mut quick = Quick::new(schema.program());
    let mut reader = Reader::new(Limits::default());
    for part in text.as_bytes().chunks(chunk.max(1)) {
        if reader.feed(part, &mut quick).is_err() {
            return quick.accepted();
        }
    }
    let _ = reader.finish(&mut quick);
    quick.accepted()
}

#[test]
fn quick_acceptance_is_full_acceptance() {
    let mut rng = Rng::from_env();
    let (mut quick_yes, mut full_yes) = (0, 0);
    for _ in 0..3_000 {
        let spec = match ToolSpec::new("t", "A tool.")
            .required("x", random_type(&mut rng, 1))
            .optional("y", random_object(&mut rng, 1))
            .build()
        {
            Ok(spec) => spec,
            Err(_) => continue,
        };
        let schema = spec.params();
        for _ in 0..20 {
            let mut text = String::from("{\"x\":");
            random_value(&mut rng, 1, &mut text);
            if rng.chance(60) {
                text.push_str(",\"y\":");
                random_value(&mut rng, 1, &mut text);
            }
            if rng.chance(10) {
                // A repeated key, which only the full validation explains.
                text.push_str(",\"x\":");
                random_value(&mut rng, 1, &mut text);
            }
            text.push('}');
            let Ok(value) = json::parse(&text) else {
                continue;
            };
            let (accepted, absent) = full(schema, &value);
            let mut quick = Quick::new(schema.program());
            let _ = json::replay(&value, &mut quick);
            let from_tree = Quick::read_value(schema.program(), &value);
            assert_eq!(
                from_tree,
                quick.accepted(),
                "the tree and its events disagree: {text}\nschema: {schema:?}"
            );
            // Read from its text, a string with an escape arrives in parts; the quick path
            // decides it as it decides the whole string of the tree (so a check-only
            // verdict does not read the call again for it).
            assert_eq!(
                quick_from_text(schema, &text, text.len()),
                from_tree,
                "the text and the tree disagree: {text}\nschema: {schema:?}"
            );
            let chunk = 1 + rng.below(7) as usize;
            let from_text = quick_from_text(schema, &text, chunk);
            for (how, said_yes) in [("replayed", quick.accepted()), ("read", from_text)] {
                if said_yes {
                    assert!(
                        accepted && !absent,
                        "quick path ({how}, chunks of {chunk}) accepted what the full \
                         validation does not (accepted {accepted}, absent {absent}): {text}\n\
                         schema: {schema:?}"
                    );
                }
            }
            quick_yes += usize::from(quick.accepted());
            full_yes += usize::from(accepted);
        }
    }
    // The property says nothing if the quick path never accepts.
    eprintln!("quick accepted {quick_yes}, full accepted {full_yes}");
    assert!(
        quick_yes > 0 && full_yes > 0,
        "quick {quick_yes}, full {full_yes}"
    );
}

#[test]
fn the_quick_path_accepts_every_valid_corpus_call() {
    let Ok(dir) = std::env::var("TOOLGATE_CORPUS") else {
        eprintln!("TOOLGATE_CORPUS not set: skipped");
        return;
    };
    let read = |name: &str| {
        std::fs::read_to_string(format!("{dir}/{name}"))
            .unwrap_or_else(|e| panic!("{dir}/{name}: {e}"))
    };
    let gate = crate::Gate::from_tools_json(&read("tools.json")).expect("corpus tools load");
    let (mut accepted, mut quick) = (0, 0);
    for line in read("calls.jsonl").lines() {
        let Ok(call) = gate.check_call(line) else {
            continue;
        };
        accepted += 1;
        let Some(spec) = gate.spec(&call.name) else {
            continue;
        };
        let mut sink = Quick::new(spec.params().program());
        let _ = json::replay(&call.args, &mut sink);
        let from_tree = Quick::read_value(spec.params().program(), &call.args);
        if sink.accepted() && from_tree {
            quick += 1;
        } else {
            eprintln!("the quick path gave up on: {line}");
        }
    }
    assert!(accepted > 19_000, "{accepted} accepted corpus calls");
    assert_eq!(
        quick, accepted,
        "the quick path must take every valid corpus call"
    );
}

/// A node whose rules are plain (kinds, an `enum` or `const`, length bounds, a string
/// format, integer bounds) is checked in one step: that step says of every scalar what the
/// loop over the node's assertions says, at the bounds and on both sides of them, in ASCII
/// and in characters of several bytes, for numbers written plainly and otherwise.
#[test]
fn plain_scalars_are_judged_as_by_their_assertions() {
    use super::program::Program;
    use super::scalar::Scalar;
    let schemas = [
        r#"{"type": "string", "minLength": 2, "maxLength": 4}"#,
        r#"{"type": "string", "maxLength": 0}"#,
        r#"{"type": ["string", "null"], "minLength": 3}"#,
        r#"{"minLength": 1}"#,
        r#"{"type": "integer"}"#,
        r#"{"type": "number"}"#,
        r#"{"type": "boolean"}"#,
        r#"{}"#,
        r#"{"type": "string", "enum": ["ab", "üü", "2025-01-31"]}"#,
        r#"{"enum": ["ab", 2, null, true]}"#,
        r#"{"const": "abcd"}"#,
        r#"{"type": "string", "minLength": 3, "format": "email"}"#,
        r#"{"format": "date"}"#,
        r#"{"type": "integer", "minimum": 0, "maximum": 100}"#,
        r#"{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 100}"#,
        r#"{"minimum": -7}"#,
        r#"{"type": "integer", "enum": [2, 100], "maximum": 99}"#,
    ];
    let numbers = [
        "0",
        "-0",
        "-7",
        "-7.5",
        "-6.5",
        "2",
        "2.5",
        "0.5",
        "1e2",
        "1E2",
        "-1e1",
        "99",
        "99.5",
        "100",
        "100.0",
        "100.5",
        "101",
        "1.0",
        "1e-2",
        "123456789012345678901234567890",
        "-123456789012345678901234567890",
    ];
    let strings = [
        "",
        "a",
        "ab",
        "abcd",
        "abcde",
        "ü",
        "üü",
        "üüüü",
        "üüüüü",
        "✓✓✓",
        "𝄞𝄞",
        "𝄞𝄞a",
        "a𝄞𝄞",
        "2025-01-31",
        "2025-02-30",
        "ana@example.com",
        "a@b",
        "ana@@example.com",
        "jürgen@exämple.de",
    ];
    let mut plain_nodes = 0;
    for text in schemas {
        let document = json::parse(text).unwrap_or_else(|e| panic!("{e}"));
        let schema = Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{e}"));
        let node = schema.program().node(Program::ROOT);
        let Some(plain) = node.outline.plain else {
            continue;
        };
        plain_nodes += 1;
        let mut scalars = vec![Scalar::Null, Scalar::Bool(true)];
        scalars.extend(numbers.iter().map(|n| Scalar::number(n)));
        scalars.extend(strings.iter().map(|s| Scalar::string(s)));
        for scalar in &scalars {
            assert_eq!(
                plain.accepts(node, scalar),
                scalar.first_failure(node).is_none(),
                "{text} on {:?}",
                match scalar {
                    Scalar::String(s) => format!("string {s:?}"),
                    Scalar::Number { text, .. } => format!("number {text}"),
                    Scalar::Bool(b) => format!("{b}"),
                    Scalar::Null => "null".to_string(),
                }
            );
        }
    }
    assert_eq!(plain_nodes, schemas.len(), "every schema above is plain");
    // One rule more, or a bound that is not a plain integer, and the node is not plain: it
    // keeps the loop.
    for text in [
        r#"{"type": "string", "pattern": "^a"}"#,
        r#"{"type": "number", "minimum": 0.5}"#,
        r#"{"type": "integer", "multipleOf": 2}"#,
    ] {
        let document = json::parse(text).unwrap_or_else(|e| panic!("{e}"));
        let schema = Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            schema.program().node(Program::ROOT).outline.plain.is_none(),
            "{text}"
        );
    }
}

/// The tree walk and the events open containers to the same depth: arrays nested
/// [`QUICK_DEPTH`] deep are accepted by both, one deeper both give up (and the full
/// validation, which allows far more, accepts it).
#[test]
fn the_tree_and_the_events_give_up_at_the_same_depth() {
    use super::quick::QUICK_DEPTH;
    for depth in [QUICK_DEPTH - 1, QUICK_DEPTH, QUICK_DEPTH + 1] {
        // The root object is one container; the field's arrays are the rest.
        let mut ty = Type::integer();
        for _ in 1..depth {
            ty = Type::array(ty);
        }
        let spec = ToolSpec::new("t", "A tool.")
            .required("x", ty)
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        let text = format!(
            "{{\"x\":{}1{}}}",
            "[".repeat(depth - 1),
            "]".repeat(depth - 1)
        );
        let value = json::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let schema = spec.params();
        let mut events = Quick::new(schema.program());
        let _ = json::replay(&value, &mut events);
        let from_tree = Quick::read_value(schema.program(), &value);
        assert_eq!(from_tree, events.accepted(), "depth {depth}");
        assert_eq!(from_tree, depth <= QUICK_DEPTH, "depth {depth}");
        assert_eq!(full(schema, &value), (true, false), "depth {depth}");
    }
}
