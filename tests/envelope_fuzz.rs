//! Property: the envelope reader (which scans the envelope without building its tree) agrees
//! with a plain reference that parses the whole call into a tree and reads the documented
//! rules off it, on valid calls in every shape and on random mutations of them.
//!
//! Agreement means: the same verdict label; for a call that is not JSON, exactly the
//! parser's own error; for an accepted call, the same id, name and arguments.

mod support;

use support::mutate::Edit;
use support::rng::Rng;
use toolgate::envelope::read_call;
use toolgate::json::{self, Limits, Value};
use toolgate::{Part, Rejection};

/// Valid calls in every shape, with escapes, non-ASCII text and nesting.
const SEEDS: &[&str] = &[
    r#"{"name":"search_orders","arguments":{"customer_id":"CUS-1","filters":{"limit":5,"since":"2024-01-01"}}}"#,
    r#"{"id":"c1","name":"f","arguments":"{\"a\":[1,2,{\"b\":null}]}"}"#,
    r#"{"id":"call_1","type":"function","function":{"name":"send_email","arguments":"{\"to\":\"a@b.c\",\"body\":\"Hi \\u00e9\\n\u2014 ok\",\"cc\":[\"x@y.z\"]}"}}"#,
    r#"{"id":"call_1","function":{"arguments":"{}","name":"f","parsed_arguments":null},"type":"function","index":0}"#,
    r#"{"type":"tool_use","id":"toolu_01","name":"lookup_policy","input":{"topic":"¿Puedo cambiar la dirección?","n":3.5e2}}"#,
    r#"{"type":"function_call","id":"fc_1","call_id":"call_9","name":"f","arguments":"{\"q\":\"\\\"quoted\\\" 😀\"}","status":"completed"}"#,
    r#"{"functionCall":{"id":"g1","name":"f","args":{"a":{"b":[true,false]}}},"thoughtSignature":"x"}"#,
    r#"{"function_call":{"id":null,"args":{"k":"v"},"name":"f","will_continue":null},"text":null}"#,
    r#"{"function_call":{"name":"f","arguments":"{\"a\":1}"}}"#,
    r#"{"name":"f","input":{"a":"\ud83d\ude00"},"meta":{"x":[1,{"y":"z"}]}}"#,
    r#" { "name" : "f" , "parameters" : { } } "#,
];

/// Fragments that break or reshape JSON in interesting ways.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ",",
    ":",
    " ",
    "null",
    "1",
    "-",
    "e",
    "\\u00",
    "\\\"",
    "\"name\":",
    "\"arguments\":",
    "\"id\":",
    "\"type\":",
    "\"function\":",
    "\"x\"",
    "{}",
    "\n",
    "é",
    "😀",
    "\u{1}",
    // Escapes the arguments-text reader must get exactly right.
    "\\ud83d",
    "\\ude00",
    "\\ud83d\\ude00",
    "\\x",
    "\\u12G4",
    "\\\\",
    "\\n",
    "\\/",
    "\t",
];

/// Deletes, inserts, duplicates, cuts or swaps a few characters.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let edits = [
        Edit::Delete(6),
        Edit::Insert,
        Edit::Cut,
        Edit::Copy(12),
        Edit::Swap,
    ];
    support::mutate::mutate(rng, text, (1, 3), &edits, TOKENS)
}

/// The reference verdict: a label, or the call as `(id, name, args as JSON)`.
type Verdict = Result<(Option<String>, String, String), String>;

/// Reads the documented envelope rules off the parsed tree.
fn reference(raw: &str) -> Verdict {
    let tree = json::parse(raw).map_err(|error| json_label(&error))?;
    let outer = tree.as_object().ok_or("bad_envelope")?;
    if has_duplicate(outer) {
        return Err("bad_envelope".into());
    }
    let get = |members: &[(std::borrow::Cow<str>, Value)], key: &str| -> Option<Value<'static>> {
        members
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.clone().into_owned())
            .filter(|value| !value.is_null())
    };
    let nested = |value: Option<Value<'static>>| -> Result<Vec<(String, Value<'static>)>, String> {
        let value = value.ok_or("bad_envelope")?;
        let Value::Object(members) = value else {
            return Err("bad_envelope".into());
        };
        if has_duplicate(&members) {
            return Err("bad_envelope".into());
        }
        Ok(members
            .into_iter()
            .map(|(key, value)| (key.into_owned(), value))
            .collect())
    };
    let get_owned = |members: &[(String, Value<'static>)], key: &str| {
        members
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.clone())
            .filter(|value| !value.is_null())
    };
    // (id, name, arguments, whether a string argument is text)
    let (id, name, args, text): (
        Option<Value<'static>>,
        Option<Value<'static>>,
        Option<Value<'static>>,
        bool,
    ) = match get(outer, "type") {
        Some(Value::String(kind)) => match kind.as_ref() {
            "tool_use" => (
                get(outer, "id"),
                get(outer, "name"),
                get(outer, "input"),
                false,
            ),
            "function_call" => (
                get(outer, "call_id"),
                get(outer, "name"),
                get(outer, "arguments"),
                true,
            ),
            "function" => {
                let function = nested(get(outer, "function"))?;
                if get(outer, "name").is_some() {
                    return Err("bad_envelope".into());
                }
                (
                    get(outer, "id"),
                    get_owned(&function, "name"),
                    get_owned(&function, "arguments"),
                    true,
                )
            }
            _ => return Err("bad_envelope".into()),
        },
        Some(_) => return Err("bad_envelope".into()),
        None => {
            if get(outer, "function").is_some() {
                let function = nested(get(outer, "function"))?;
                if get(outer, "name").is_some() {
                    return Err("bad_envelope".into());
                }
                (
                    get(outer, "id"),
                    get_owned(&function, "name"),
                    get_owned(&function, "arguments"),
                    true,
                )
            } else {
                let camel = get(outer, "functionCall");
                let snake = get(outer, "function_call");
                if camel.is_some() && snake.is_some() {
                    return Err("bad_envelope".into());
                }
                if camel.is_some() || snake.is_some() {
                    let inner = nested(camel.or(snake))?;
                    let args = get_owned(&inner, "args");
                    let arguments = get_owned(&inner, "arguments");
                    if args.is_some() && arguments.is_some() || get(outer, "name").is_some() {
                        return Err("bad_envelope".into());
                    }
                    let text = args.is_none();
                    (
                        get_owned(&inner, "id"),
                        get_owned(&inner, "name"),
                        args.or(arguments),
                        text,
                    )
                } else {
                    let places: Vec<(&str, Value<'static>)> =
                        ["arguments", "input", "args", "parameters"]
                            .iter()
                            .filter_map(|key| get(outer, key).map(|value| (*key, value)))
                            .collect();
                    if places.len() > 1 {
                        return Err("bad_envelope".into());
                    }
                    let text = places.first().map(|(key, _)| *key == "arguments");
                    (
                        get(outer, "id"),
                        get(outer, "name"),
                        places.into_iter().next().map(|(_, value)| value),
                        text.unwrap_or(false),
                    )
                }
            }
        }
    };
    let id = match id {
        None => None,
        Some(Value::String(id)) => Some(id.into_owned()),
        Some(_) => return Err("bad_envelope".into()),
    };
    let name = match name {
        Some(Value::String(name)) => name.into_owned(),
        _ => return Err("bad_envelope".into()),
    };
    let args = match args {
        None => "{}".to_string(),
        Some(Value::String(arguments)) if text => json::parse(&arguments)
            .map_err(|error| json_label(&error))?
            .to_string(),
        Some(value) => value.to_string(),
    };
    Ok((id, name, args))
}

fn json_label(error: &json::ParseError) -> String {
    if error.is_truncated() {
        "truncated_json".into()
    } else {
        "malformed_json".into()
    }
}

fn has_duplicate<K: AsRef<str>>(members: &[(K, Value<'_>)]) -> bool {
    let mut keys: Vec<&str> = members.iter().map(|(key, _)| key.as_ref()).collect();
    keys.sort_unstable();
    keys.windows(2).any(|pair| pair[0] == pair[1])
}

fn agree(raw: &str, seed: u64) {
    let got = read_call(raw, Limits::default());
    let expect = reference(raw);
    let context = || format!("seed {seed}, input {raw:?}");
    match (&got, &expect) {
        (Ok(call), Ok((id, name, args))) => {
            assert_eq!(call.id.as_deref(), id.as_deref(), "{}", context());
            assert_eq!(call.name, name.as_str(), "{}", context());
            assert_eq!(&call.args.to_string(), args, "{}", context());
        }
        (Err(rejection), Err(label)) => {
            assert_eq!(rejection.kind().label(), label, "{}", context());
            assert!(!rejection.to_string().is_empty(), "{}", context());
            if let Rejection::MalformedJson {
                part: Part::Call,
                error,
                ..
            }
            | Rejection::TruncatedJson {
                part: Part::Call,
                error,
                ..
            } = rejection
            {
                assert_eq!(
                    Err(error.as_ref().clone()),
                    json::parse(raw).map(|_| ()),
                    "{}",
                    context()
                );
            }
        }
        _ => panic!(
            "{}: reader {:?}, reference {:?}",
            context(),
            got.map(|call| call.name.into_owned())
                .map_err(|r| r.to_string()),
            expect
        ),
    }
}

#[test]
fn the_seeds_are_valid_calls() {
    for raw in SEEDS {
        assert!(read_call(raw, Limits::default()).is_ok(), "{raw}");
        agree(raw, 0);
    }
}

#[test]
fn the_reader_agrees_with_the_tree_reference_on_mutated_calls() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    let mut tally = std::collections::BTreeMap::new();
    for _ in 0..Rng::iters(40_000) {
        let original = SEEDS[rng.below(SEEDS.len())];
        let raw = mutate(&mut rng, original);
        agree(&raw, seed);
        let label = match read_call(&raw, Limits::default()) {
            Ok(_) => "accepted",
            Err(rejection) => rejection.kind().label(),
        };
        *tally.entry(label).or_insert(0usize) += 1;
    }
    println!("verdicts: {tally:?}");
    // The mutations reach every verdict the reader can give, or the property says little.
    for label in [
        "accepted",
        "malformed_json",
        "truncated_json",
        "bad_envelope",
    ] {
        assert!(tally.contains_key(label), "no {label} case in {tally:?}");
    }
}

#[test]
fn every_proper_prefix_of_a_valid_call_is_truncated() {
    for raw in SEEDS {
        let raw = raw.trim();
        for (cut, _) in raw.char_indices() {
            let prefix = &raw[..cut];
            agree(prefix, 0);
            let rejection = read_call(prefix, Limits::default()).unwrap_err();
            assert_eq!(rejection.kind().label(), "truncated_json", "{prefix}");
        }
    }
}
