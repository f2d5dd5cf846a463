//! Property: arguments given as text (OpenAI's `"arguments": "{\"city\":\"Oslo\"}"`) read
//! exactly as the parser reads the unescaped text on its own, whichever way the text is
//! spelled and however the call escapes it.
//!
//! The envelope reads most arguments texts in one pass straight from the call's string
//! literal, and hands anything unusual to the parser; this holds both paths to the same
//! answer: for a valid text, the same value; for any other, the parser's own error about
//! the arguments. The texts are random values spelled with random escapes (`\u` forms,
//! surrogate pairs) and whitespace, then random mutations of them; the literal that holds
//! a text escapes it at random too (`\u0022` for a quote, `\/`, raw or escaped non-ASCII).
//! Replay with `TOOLGATE_SEED=N`; raise the count with `TOOLGATE_FUZZ_ITERS=N`.

mod support;

use std::borrow::Cow;
use support::rng::Rng;
use support::values::{random_value, spell, spell_string, MOSTLY_PLAIN};
use toolgate::envelope::read_call;
use toolgate::json::{self, Limits, Value};
use toolgate::{Part, Rejection};

/// A few random character edits: delete, duplicate, or insert a character that matters
/// to JSON or to escaping.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => {
                let c = chars[at];
                chars.insert(at, c);
            }
            _ => chars.insert(
                at,
                *rng.pick(&[
                    '"', '\\', 'u', 'D', '8', '{', '}', '[', ']', ',', ':', ' ', '\n', '\u{1}', 'é',
                ]),
            ),
        }
    }
    chars.into_iter().collect()
}

/// The call's answer for this arguments text agrees with the parser's reading of it.
fn agree(rng: &mut Rng, text: &str, seed: u64) {
    let mut literal = String::new();
    spell_string(rng, &mut literal, text, MOSTLY_PLAIN);
    let raw = format!(
        r#"{{"id":"call_1","type":"function","function":{{"name":"f","arguments":{literal}}}}}"#
    );
    let context = || format!("seed {seed}, text {text:?}, call {raw:?}");
    let got = read_call(&raw, Limits::default());
    match (json::parse(text), got) {
        (Ok(expected), Ok(call)) => {
            assert_eq!(call.args, expected, "{}", context());
            assert_eq!(call.name, "f", "{}", context());
        }
        (
            Err(expected),
            Err(
                Rejection::MalformedJson {
                    part: Part::Arguments,
                    error,
                    ..
                }
                | Rejection::TruncatedJson {
                    part: Part::Arguments,
                    error,
                    ..
                },
            ),
        ) => assert_eq!(*error, expected, "{}", context()),
        (expected, got) => panic!(
            "{}: parser {:?}, envelope {:?}",
            context(),
            expected.map(|value| value.to_string()),
            got.map(|call| call.args.to_string())
                .map_err(|r| r.to_string())
        ),
    }
}

#[test]
fn arguments_text_reads_as_the_parser_reads_it() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(20_000) {
        let value = random_value(&mut rng, 3);
        let mut text = String::new();
        if rng.chance(1, 3) {
            text = value.to_string();
        } else {
            spell(&mut rng, &mut text, &value, MOSTLY_PLAIN);
        }
        agree(&mut rng, &text, seed);
        let mutated = mutate(&mut rng, &text);
        agree(&mut rng, &mutated, seed);
    }
}

#[test]
fn plain_strings_of_the_text_are_borrowed_from_the_call() {
    let raw = r#"{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\": [\"x\", 1.5e3, true, null],\n\t\"b\":{\"c\":\"d\\u00e9\"}}"}}"#;
    let call = match read_call(raw, Limits::default()) {
        Ok(call) => call,
        Err(rejection) => panic!("{rejection}"),
    };
    assert_eq!(
        call.args.to_string(),
        r#"{"a":["x",1.5e3,true,null],"b":{"c":"dé"}}"#
    );
    let members = call.args.as_object().unwrap_or_default();
    assert!(members
        .iter()
        .all(|(key, _)| matches!(key, Cow::Borrowed(_))));
    let items = call
        .args
        .get("a")
        .and_then(Value::as_array)
        .unwrap_or_default();
    assert!(matches!(
        items.first(),
        Some(Value::String(Cow::Borrowed("x")))
    ));
    // A string with an escape of its own is decoded into its own text.
    let nested = call.args.get("b").and_then(|b| b.get("c"));
    assert!(matches!(nested, Some(Value::String(Cow::Owned(c))) if c == "dé"));
}
