//! The pairing rule as a property: over random turns in every provider's form, mixing valid,
//! invalid, unknown, unreadable and cut-off calls with text, reasoning and thought parts, the
//! result message answers every call exactly once, in call order, with the call's own id, its
//! error flag and (Gemini) its name; only the valid calls run; each call's verdict is the one
//! `check_call` gives it alone; the text passes through; and answering through `Answers`, in
//! any order, builds the same message as the registry.
#![cfg(feature = "turns")]

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use support::rng::Rng;
use toolgate::json::{self, Value};
use toolgate::spec::Provider;
use toolgate::{result_message, Answers, Gate, Registry, ToolSpec, Type};

/// How the turn is wrapped.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    ChatMessage,
    ChatCompletion,
    AnthropicMessage,
    AnthropicContent,
    ResponsesOutput,
    ResponsesObject,
    GeminiContent,
    GeminiCandidate,
    GeminiResponse,
    Calls,
}

const FORMS: [Form; 10] = [
    Form::ChatMessage,
    Form::ChatCompletion,
    Form::AnthropicMessage,
    Form::AnthropicContent,
    Form::ResponsesOutput,
    Form::ResponsesObject,
    Form::GeminiContent,
    Form::GeminiCandidate,
    Form::GeminiResponse,
    Form::Calls,
];

/// The shape of one call element.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Chat,
    Anthropic,
    Responses,
    Gemini,
    Plain,
}

/// What is wrong with a call, if anything.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mistake {
    None,
    WrongType,
    UnknownName,
    CutOff,
    Unreadable,
}

const MISTAKES: [Mistake; 5] = [
    Mistake::None,
    Mistake::WrongType,
    Mistake::UnknownName,
    Mistake::CutOff,
    Mistake::Unreadable,
];

/// What the answer to one call must say.
#[derive(Debug)]
struct Expected {
    /// The element's text, alone.
    element: String,
    id: Option<String>,
    /// `None` for a call that passes; else the rejection's label.
    kind: Option<&'static str>,
    /// The name the call used, when it can be read.
    tool: Option<&'static str>,
}

const CITIES: [&str; 7] = [
    "Oslo",
    "Zürich",
    "São Paulo",
    "北京",
    "say \"hi\"",
    "back\\slash",
    "tab\there",
];

fn string(text: &str) -> String {
    let mut out = String::new();
    json::write_escaped_str(&mut out, text).expect("a String takes any text");
    out
}

/// One call element of `shape` with `mistake`, numbered `n`.
fn call(rng: &mut Rng, shape: Shape, mistake: Mistake, n: usize) -> Expected {
    let city = *rng.pick(&CITIES);
    let args = match mistake {
        Mistake::WrongType => "{\"city\":7}".to_owned(),
        _ => format!("{{\"city\":{}}}", string(city)),
    };
    let name = if mistake == Mistake::UnknownName {
        "get_wether"
    } else {
        "get_weather"
    };
    // A cut at any character boundary short of the end: always a proper prefix.
    let cut = {
        let boundaries: Vec<usize> = (0..args.len())
            .filter(|at| args.is_char_boundary(*at))
            .collect();
        args[..*rng.pick(&boundaries)].to_owned()
    };
    // Gemini calls may carry an id or not; the others always do (providers give one), and
    // an unreadable element sometimes has none.
    let has_id = match (shape, mistake) {
        (Shape::Gemini | Shape::Plain, _) | (_, Mistake::Unreadable) => rng.bool(),
        _ => true,
    };
    let id = has_id.then(|| format!("id_{n}"));
    let id_member = |key: &str| match &id {
        Some(id) => format!("\"{key}\":{},", string(id)),
        None => String::new(),
    };
    let cut_text = string(&cut);
    let args_text = string(&args);
    let (element, kind) = match (shape, mistake) {
        (Shape::Chat, Mistake::Unreadable) if id.is_none() => ("42".to_owned(), "bad_envelope"),
        (Shape::Chat, Mistake::Unreadable) => (
            format!("{{{}\"type\":\"function\"}}", id_member("id")),
            "bad_envelope",
        ),
        (Shape::Chat, _) => {
            let arguments = if mistake == Mistake::CutOff {
                &cut_text
            } else {
                &args_text
            };
            (
                format!(
                    "{{{}\"type\":\"function\",\"function\":{{\"name\":\"{name}\",\"arguments\":{arguments}}}}}",
                    id_member("id")
                ),
                "truncated_json",
            )
        }
        (Shape::Anthropic, Mistake::Unreadable) => (
            format!(
                "{{\"type\":\"tool_use\",{}\"input\":{{}}}}",
                id_member("id")
            ),
            "bad_envelope",
        ),
        (Shape::Anthropic, _) => {
            // Anthropic's input is an object: a cut-off input can only be a string here.
            let input = if mistake == Mistake::CutOff {
                &cut_text
            } else {
                &args
            };
            (
                format!(
                    "{{\"type\":\"tool_use\",{}\"name\":\"{name}\",\"input\":{input},\"caller\":null}}",
                    id_member("id")
                ),
                "arguments_not_object",
            )
        }
        (Shape::Responses, Mistake::Unreadable) => (
            format!(
                "{{\"type\":\"function_call\",\"id\":\"fc_{n}\",{}\"arguments\":\"{{}}\"}}",
                id_member("call_id")
            ),
            "bad_envelope",
        ),
        (Shape::Responses, _) => {
            let arguments = if mistake == Mistake::CutOff {
                &cut_text
            } else {
                &args_text
            };
            (
                format!(
                    "{{\"arguments\":{arguments},{}\"name\":\"{name}\",\"type\":\"function_call\",\"id\":\"fc_{n}\",\"status\":\"completed\"}}",
                    id_member("call_id")
                ),
                "truncated_json",
            )
        }
        (Shape::Gemini, Mistake::Unreadable) => (
            format!("{{\"functionCall\":{{{}\"args\":{{}}}}}}", id_member("id")),
            "bad_envelope",
        ),
        (Shape::Gemini, _) => {
            let args = if mistake == Mistake::CutOff {
                &cut_text
            } else {
                &args
            };
            (
                format!(
                    "{{\"functionCall\":{{{}\"name\":\"{name}\",\"args\":{args}}},\"thoughtSignature\":\"CiQB\"}}",
                    id_member("id")
                ),
                "arguments_not_object",
            )
        }
        (Shape::Plain, Mistake::Unreadable) => (
            format!(
                "{{{}\"tool\":\"get_weather\",\"args\":{{}}}}",
                id_member("id")
            ),
            "bad_envelope",
        ),
        (Shape::Plain, _) => {
            let arguments = if mistake == Mistake::CutOff {
                &cut_text
            } else {
                &args
            };
            (
                format!(
                    "{{{}\"name\":\"{name}\",\"arguments\":{arguments}}}",
                    id_member("id")
                ),
                "truncated_json",
            )
        }
    };
    let kind = match mistake {
        Mistake::None => None,
        Mistake::WrongType => Some("schema_violation"),
        Mistake::UnknownName => Some("unknown_tool"),
        Mistake::CutOff | Mistake::Unreadable => Some(kind),
    };
    let tool = (mistake != Mistake::Unreadable).then_some(name);
    Expected {
        element,
        id,
        kind,
        tool,
    }
}

/// A random turn: its text, the provider answering it, what each call must get, and the
/// text parts it holds.
fn turn(rng: &mut Rng) -> (String, Provider, Vec<Expected>, Vec<String>) {
    let form = *rng.pick(&FORMS);
    let n_calls = rng.range(0, 7);
    let shape_of = |rng: &mut Rng| match form {
        Form::ChatMessage | Form::ChatCompletion => Shape::Chat,
        Form::AnthropicMessage | Form::AnthropicContent => Shape::Anthropic,
        Form::ResponsesOutput | Form::ResponsesObject => Shape::Responses,
        Form::GeminiContent | Form::GeminiCandidate | Form::GeminiResponse => Shape::Gemini,
        Form::Calls => *rng.pick(&[
            Shape::Chat,
            Shape::Anthropic,
            Shape::Responses,
            Shape::Gemini,
            Shape::Plain,
        ]),
    };
    let mut expected = Vec::new();
    let mut items = Vec::new();
    let mut texts = Vec::new();
    for n in 0..n_calls {
        // Text and parts that are not calls, between the calls.
        if form != Form::Calls && rng.chance(1, 3) {
            let text = format!("note {n}");
            match form {
                Form::AnthropicMessage | Form::AnthropicContent => {
                    items.push(format!(
                        "{{\"type\":\"text\",\"text\":\"{text}\",\"citations\":null}}"
                    ));
                    items.push(
                        "{\"type\":\"thinking\",\"thinking\":\"hm\",\"signature\":\"s\"}".into(),
                    );
                    texts.push(text);
                }
                Form::ResponsesOutput | Form::ResponsesObject => {
                    items.push("{\"id\":\"rs_1\",\"type\":\"reasoning\",\"summary\":[]}".into());
                    items.push(format!(
                        "{{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{{\"type\":\"output_text\",\"text\":\"{text}\",\"annotations\":[]}}]}}"
                    ));
                    texts.push(text);
                }
                Form::GeminiContent | Form::GeminiCandidate | Form::GeminiResponse => {
                    items.push("{\"text\":\"thinking\",\"thought\":true}".into());
                    items.push(format!("{{\"text\":\"{text}\"}}"));
                    texts.push(text);
                }
                _ => {}
            }
        }
        let shape = shape_of(rng);
        // Valid calls two times in five, each mistake in turn otherwise.
        let mistake = if rng.chance(2, 5) {
            Mistake::None
        } else {
            *rng.pick(&MISTAKES[1..])
        };
        let element = call(rng, shape, mistake, n);
        items.push(element.element.clone());
        expected.push(element);
    }
    let list = format!("[{}]", items.join(","));
    let chat_text = rng.bool().then(|| "Checking.".to_owned());
    let chat_message = || {
        let content = chat_text.as_deref().map_or("null".to_owned(), string);
        format!("{{\"content\":{content},\"refusal\":null,\"role\":\"assistant\",\"function_call\":null,\"tool_calls\":{list}}}")
    };
    let raw = match form {
        Form::ChatMessage => chat_message(),
        Form::ChatCompletion => format!(
            "{{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{{\"index\":0,\"finish_reason\":\"tool_calls\",\"message\":{}}}],\"usage\":null}}",
            chat_message()
        ),
        Form::AnthropicMessage => format!(
            "{{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":{list},\"stop_reason\":\"tool_use\",\"stop_sequence\":null}}"
        ),
        Form::AnthropicContent | Form::ResponsesOutput | Form::Calls => list,
        Form::ResponsesObject => format!(
            "{{\"id\":\"resp_1\",\"object\":\"response\",\"output\":{list},\"status\":\"completed\",\"text\":{{\"format\":{{\"type\":\"text\"}}}}}}"
        ),
        Form::GeminiContent => format!("{{\"role\":\"model\",\"parts\":{list}}}"),
        Form::GeminiCandidate => format!(
            "{{\"content\":{{\"role\":\"model\",\"parts\":{list}}},\"finishReason\":\"STOP\",\"index\":0}}"
        ),
        Form::GeminiResponse => format!(
            "{{\"candidates\":[{{\"content\":{{\"parts\":{list},\"role\":\"model\"}},\"finishReason\":\"STOP\"}}],\"modelVersion\":\"gemini-2.5-flash\"}}"
        ),
    };
    if matches!(form, Form::ChatMessage | Form::ChatCompletion) {
        texts.extend(chat_text);
    }
    let provider = match form {
        Form::ChatMessage | Form::ChatCompletion => Provider::OpenAi,
        Form::AnthropicMessage | Form::AnthropicContent => Provider::Anthropic,
        Form::ResponsesOutput | Form::ResponsesObject => Provider::Responses,
        Form::GeminiContent | Form::GeminiCandidate | Form::GeminiResponse => Provider::Gemini,
        Form::Calls => *rng.pick(&[
            Provider::OpenAi,
            Provider::Anthropic,
            Provider::Responses,
            Provider::Gemini,
        ]),
    };
    (raw, provider, expected, texts)
}

/// The blocks of a result message, in order.
fn blocks(message: &Value<'_>, provider: Provider) -> Vec<Value<'static>> {
    let list = match provider {
        Provider::Anthropic => message.get("content"),
        Provider::Gemini => message.get("parts"),
        _ => Some(message),
    };
    assert!(
        matches!(provider, Provider::OpenAi | Provider::Responses)
            || message.get("role").and_then(Value::as_str) == Some("user"),
        "{message}"
    );
    list.and_then(Value::as_array)
        .expect("the blocks are a list")
        .iter()
        .map(|block| block.clone().into_owned())
        .collect()
}

/// A block's call id, error flag and (Gemini) name.
fn block_facts(block: &Value<'_>, provider: Provider) -> (Option<String>, bool, Option<String>) {
    let text = |key: &str| block.get(key).and_then(Value::as_str).map(String::from);
    match provider {
        Provider::Anthropic => (
            text("tool_use_id"),
            block.get("is_error") == Some(&Value::Bool(true)),
            None,
        ),
        Provider::OpenAi => (
            text("tool_call_id"),
            text("content").is_some_and(|content| content.starts_with("Error: ")),
            None,
        ),
        Provider::Responses => (
            text("call_id"),
            text("output").is_some_and(|output| output.starts_with("Error: ")),
            None,
        ),
        _ => {
            let inner = block.get("functionResponse").expect("a functionResponse");
            let field = |key: &str| inner.get(key).and_then(Value::as_str).map(String::from);
            let response = inner.get("response").expect("a response");
            (field("id"), response.get("error").is_some(), field("name"))
        }
    }
}

fn registry(runs: &Arc<AtomicUsize>) -> Registry {
    let mut registry = Registry::new();
    let spec = ToolSpec::new("get_weather", "Current weather for a city.")
        .required("city", Type::string())
        .build()
        .expect("the spec builds");
    let runs = Arc::clone(runs);
    registry
        .register(spec, move |args| {
            runs.fetch_add(1, Ordering::SeqCst);
            Ok(format!(
                "weather in {}",
                args.get("city").and_then(Value::as_str).unwrap_or("?")
            ))
        })
        .expect("one tool");
    registry
}

#[test]
fn every_call_id_is_answered_exactly_once_in_order() {
    let mut rng = Rng::from_env();
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let gate: &Gate = registry.gate();
    let (mut n_calls, mut n_errors) = (0, 0);
    for case in 0..Rng::iters(2000) {
        let (raw, provider, expected, texts) = turn(&mut rng);
        let context = format!("seed {} case {case}\n{raw}", rng.seed());
        runs.store(0, Ordering::SeqCst);
        let outcomes = registry
            .handle_turn(&raw)
            .unwrap_or_else(|error| panic!("{error}\n{context}"));
        assert_eq!(outcomes.len(), expected.len(), "{context}");

        // Only the valid calls ran, each once.
        let n_valid = expected.iter().filter(|call| call.kind.is_none()).count();
        assert_eq!(runs.load(Ordering::SeqCst), n_valid, "{context}");

        // One block per call, in call order, with the call's id, flag and name.
        let message = result_message(&outcomes, provider);
        let blocks = blocks(&message, provider);
        assert_eq!(blocks.len(), expected.len(), "{context}\n{message}");
        for (index, (block, call)) in blocks.iter().zip(&expected).enumerate() {
            let (id, is_error, name) = block_facts(block, provider);
            assert_eq!(id, call.id, "call {index}: {context}\n{message}");
            assert_eq!(
                is_error,
                call.kind.is_some(),
                "call {index}: {context}\n{message}"
            );
            if provider == Provider::Gemini {
                assert_eq!(
                    name.as_deref(),
                    Some(call.tool.unwrap_or("unknown")),
                    "{context}"
                );
            }
            n_calls += 1;
            n_errors += usize::from(is_error);
        }

        // Each verdict is the call's own, as if it had come alone.
        let turn = gate.check_turn(&raw).expect("it read above");
        assert_eq!(turn.text, texts, "{context}");
        for (index, (entry, call)) in turn.calls.iter().zip(&expected).enumerate() {
            let kind = entry
                .verdict
                .as_ref()
                .err()
                .map(|rejection| rejection.kind().label());
            assert_eq!(kind, call.kind, "call {index}: {context}");
            assert_eq!(entry.id(), call.id.as_deref(), "call {index}: {context}");
            assert_eq!(entry.tool(), call.tool, "call {index}: {context}");
            let alone = gate.check_call(&call.element).map(|call| call.into_owned());
            assert_eq!(entry.verdict, alone, "call {index}: {context}");
        }

        // Answered by hand, last call first, by id where there is one: the same message.
        let mut answers = Answers::new(&turn);
        let accepted: Vec<(usize, Option<String>, String)> = turn
            .accepted()
            .map(|(index, call)| {
                let city = call.args.get("city").and_then(Value::as_str).unwrap_or("?");
                (
                    index,
                    call.id.as_deref().map(String::from),
                    format!("weather in {city}"),
                )
            })
            .collect();
        for (index, id, output) in accepted.into_iter().rev() {
            match id {
                Some(id) => answers.answer_id(&id, Ok(output)),
                None => answers.answer(index, Ok(output)),
            }
            .unwrap_or_else(|error| panic!("{error}\n{context}"));
        }
        assert_eq!(answers.unanswered().count(), 0, "{context}");
        let by_hand = answers
            .result_message(provider)
            .expect("every call is answered");
        assert_eq!(by_hand, message, "{context}");
    }
    println!("{n_calls} calls answered, {n_errors} of them refused");
    assert!(n_errors > 0 && n_errors < n_calls);
}

/// Broken and reshaped turns: character edits of random turns (cuts, deletions, copies,
/// swaps, inserted structure) never panic, and a text that still reads as a turn answers
/// every one of its calls, once, in order.
#[test]
fn broken_turns_never_panic_and_a_turn_that_reads_is_answered_whole() {
    use support::mutate::{mutate, Edit};
    let mut rng = Rng::from_env();
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = registry(&runs);
    let edits = [
        Edit::Delete(4),
        Edit::Insert,
        Edit::Cut,
        Edit::Copy(40),
        Edit::Swap,
    ];
    let tokens = [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "null",
        "\"tool_calls\":",
        "\"content\":",
        "\"parts\":",
        "\"type\":\"tool_use\",",
        "\"choices\":[",
        "\"output\":",
        "\\\"",
    ];
    let (mut n_read, mut n_unreadable) = (0, 0);
    for case in 0..Rng::iters(3000) {
        let (raw, provider, _, _) = turn(&mut rng);
        let broken = mutate(&mut rng, &raw, (1, 4), &edits, &tokens);
        let context = format!("seed {} case {case}\n{broken}", rng.seed());
        match registry.gate().check_turn(&broken) {
            Err(error) => {
                assert!(!error.to_string().is_empty(), "{context}");
                n_unreadable += 1;
            }
            Ok(turn) => {
                let outcomes = registry.handle_turn(&broken).expect("it read above");
                assert_eq!(outcomes.len(), turn.calls.len(), "{context}");
                let message = result_message(&outcomes, provider);
                let ids: Vec<Option<String>> = blocks(&message, provider)
                    .iter()
                    .map(|block| block_facts(block, provider).0)
                    .collect();
                let expected: Vec<Option<String>> = turn
                    .calls
                    .iter()
                    .map(|call| call.id().map(String::from))
                    .collect();
                assert_eq!(ids, expected, "{context}");
                n_read += 1;
            }
        }
    }
    println!("{n_read} broken turns still read, {n_unreadable} refused whole");
    assert!(n_read > 0 && n_unreadable > 0);
}
