//! The streaming check's exact answers (where it refuses, and why) and its indifference to
//! where the chunks fall: random chunkings, down to one character, and cuts inside escapes,
//! give the same refusal byte and the same last word as one character at a time.
#![cfg(feature = "stream")]

mod support;

use support::rng::Rng;
use toolgate::json::Value;
use toolgate::stream::Progress;
use toolgate::{Gate, RejectionKind, ToolSpec, Type};

fn gate() -> Gate {
    let weather = ToolSpec::new("get_weather", "Current weather for a city")
        .required("city", Type::string())
        .optional("unit", Type::string().one_of(["celsius", "fahrenheit"]))
        .optional("note", Type::string().max_length(5));
    Gate::new(vec![weather.build().unwrap()]).unwrap()
}

fn refused(at: usize, kind: RejectionKind) -> Progress {
    Progress::Refused { at, kind }
}

/// Feeds the provider form, the name then `fragments` of the arguments text, and checks the
/// answer after each fragment.
fn check(fragments: &[(&str, Progress)]) {
    let gate = gate();
    let mut stream = gate.stream_call();
    assert_eq!(stream.feed_name("get_weather"), Progress::Pending);
    let mut text = String::new();
    for (fragment, expect) in fragments {
        text.push_str(fragment);
        assert_eq!(stream.feed_arguments(fragment), *expect, "after {text:?}");
    }
}

/// Feeds raw fragments and checks the answer after each.
fn check_raw(fragments: &[(&str, Progress)]) {
    let gate = gate();
    let mut stream = gate.stream_call();
    let mut text = String::new();
    for (fragment, expect) in fragments {
        text.push_str(fragment);
        assert_eq!(stream.feed(fragment), *expect, "after {text:?}");
    }
}

use Progress::Pending;
const SCHEMA: RejectionKind = RejectionKind::SchemaViolation;

#[test]
fn a_wrong_type_is_refused_at_its_first_byte() {
    // `{"city": 42`: the 4 is byte 9, and no number can be a city: refused there while
    // its token is still open (its value is known only when it ends).
    check(&[
        (r#"{"city": 4"#, refused(9, SCHEMA)),
        ("2", refused(9, SCHEMA)),
        (",", refused(9, SCHEMA)),
    ]);
    // An `enum` of strings takes no number either.
    check(&[(r#"{"unit": 4"#, refused(9, SCHEMA))]);
    check(&[(r#"{"city": 42}"#, refused(9, SCHEMA))]);
    check(&[(r#"{"city": t"#, Pending), ("rue ", refused(9, SCHEMA))]);
    // A string for a string is fine at every byte.
    check(&[(r#"{"city": "Os"#, Pending), (r#"lo"}"#, Pending)]);
}

#[test]
fn the_last_word_is_check_calls() {
    let gate = gate();
    let mut stream = gate.stream_call();
    stream.feed_name("get_weather");
    stream.feed_arguments(r#"{"city": 4"#);
    stream.feed_arguments("2");
    assert_eq!(
        stream.finish().unwrap_err().to_string(),
        gate.check_call(r#"{"name":"get_weather","arguments":"{\"city\": 42"}"#)
            .unwrap_err()
            .to_string()
    );
    let mut stream = gate.stream_call();
    stream.feed_name("get_weather");
    stream.feed_arguments(r#"{"city": "Oslo"}"#);
    assert_eq!(
        stream.finish().unwrap().args.to_string(),
        r#"{"city":"Oslo"}"#
    );
}

#[test]
fn an_unknown_name_is_refused_once_no_tool_starts_so() {
    // Provider form: the name is complete when the arguments begin.
    let gate = gate();
    let mut stream = gate.stream_call();
    assert_eq!(stream.feed_name("get_wea"), Pending);
    assert_eq!(stream.feed_name("ther_now"), Pending);
    assert_eq!(
        stream.feed_arguments("{"),
        refused(0, RejectionKind::UnknownTool)
    );
    assert_eq!(
        stream.feed_arguments("}"),
        refused(0, RejectionKind::UnknownTool)
    );
    assert_eq!(
        stream.finish().unwrap_err().to_string(),
        "No tool named 'get_weather_now'. Did you mean: get_weather? The tools are: get_weather."
    );
    // Raw form, with the shape fixed by its first member: as soon as no tool's name starts
    // with the name so far, refused at its opening quote.
    check_raw(&[
        (r#"{"type":"tool_use","name":"get_wea"#, Pending),
        ("ther", Pending),
        ("_", refused(26, RejectionKind::UnknownTool)),
    ]);
    // A name that is a tool's name cut short is refused when it closes.
    check_raw(&[
        (r#"{"type":"tool_use","name":"get_wea"#, Pending),
        (r#"""#, refused(26, RejectionKind::UnknownTool)),
    ]);
    // Escapes count as the characters they stand for.
    check_raw(&[
        (r#"{"type":"tool_use","name":"get\u005fweather"#, Pending),
        (r#"\u005f"#, refused(26, RejectionKind::UnknownTool)),
    ]);
    // OpenAI chat, `"type"` after the id: `function.name` counts.
    check_raw(&[
        (
            r#"{"id":"c1","type":"function","function":{"name":"get_weather"#,
            Pending,
        ),
        ("_now", refused(48, RejectionKind::UnknownTool)),
    ]);
    // No shape is fixed yet, but a top-level name counts in every shape that accepts one
    // (beside `function`, `functionCall` or `function_call` it is refused): an unknown one
    // is refused when it closes.
    check_raw(&[
        (r#"{"name":"get_wea"#, Pending),
        (r#"""#, refused(8, RejectionKind::UnknownTool)),
    ]);
    check_raw(&[
        (r#"{"id":"c1","name":"get_weax"#, Pending),
        (r#"","#, refused(18, RejectionKind::UnknownTool)),
    ]);
    // A known one waits for the shape, which says where the arguments are.
    check_raw(&[(r#"{"name":"get_weather","arguments":{"city":4"#, Pending)]);
}

#[test]
fn an_unknown_field_is_refused_when_its_key_closes() {
    check(&[(r#"{"cty"#, Pending), (r#"""#, refused(1, SCHEMA))]);
    check(&[
        (r#"{"city":"Oslo", "cit"#, Pending),
        (r#"ies""#, refused(16, SCHEMA)),
    ]);
    check_raw(&[
        (
            r#"{"type":"tool_use","id":"t1","name":"get_weather","input":{"cty"#,
            Pending,
        ),
        (r#"""#, refused(59, SCHEMA)),
    ]);
}

#[test]
fn an_enum_prefix_is_refused_when_no_value_can_follow() {
    check(&[
        (r#"{"city":"Oslo","unit":"cel"#, Pending),
        ("si", Pending),
        ("x", refused(22, SCHEMA)),
    ]);
    check(&[(r#"{"city":"Oslo","unit":"fahrenheit"}"#, Pending)]);
}

#[test]
fn a_string_past_max_length_is_refused() {
    check(&[
        (r#"{"city":"Oslo","note":"abcde"#, Pending),
        ("f", refused(22, SCHEMA)),
    ]);
    check(&[(r#"{"city":"Oslo","note":"abcde"}"#, Pending)]);
}

#[test]
fn malformed_json_is_refused_at_the_first_bad_byte() {
    check(&[
        (r#"{"city" "#, Pending),
        ("1", refused(8, RejectionKind::MalformedJson)),
    ]);
    check_raw(&[(
        r#"{"name":"get_weather",,"#,
        refused(22, RejectionKind::MalformedJson),
    )]);
    check(&[("[", refused(0, RejectionKind::ArgumentsNotObject))]);
}

/// Cuts `text` into random chunks on character boundaries (1 to 24 bytes, often 1).
fn chunks<'t>(text: &'t str, rng: &mut Rng) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = if rng.chance(1, 3) {
            start + 1
        } else {
            start + rng.range(1, 25)
        };
        end = end.min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}

fn raw_answer(gate: &Gate, chunks: &[&str]) -> (Progress, String) {
    let mut stream = gate.stream_call();
    let mut last = Pending;
    for chunk in chunks {
        last = stream.feed(chunk);
    }
    (last, format!("{:?}", stream.finish()))
}

fn provider_answer(gate: &Gate, name: &str, chunks: &[&str]) -> (Progress, String) {
    let mut stream = gate.stream_call();
    stream.feed_name(name);
    let mut last = Pending;
    for chunk in chunks {
        last = stream.feed_arguments(chunk);
    }
    (last, format!("{:?}", stream.finish()))
}

fn one_char_each(text: &str) -> Vec<&str> {
    text.char_indices()
        .map(|(at, c)| &text[at..at + c.len_utf8()])
        .collect()
}

#[test]
fn where_the_chunks_fall_changes_nothing() {
    let gate = gate();
    let mut rng = Rng::from_env();
    let texts = [
        r#"{"city":"Os\u006co \ud83d\ude4f","unit":"cel\u0073ius"}"#,
        r#"{"city":"Zürich — ünïcödé 日本","note":"ab\"c"}"#,
        r#"{"city":"Oslo","note":"a\u00e9\u00e9\u00e9\u00e9\u00e9"}"#,
        r#"{"city":"Oslo","unit":"kelvin"}"#,
        r#"{"city": 12.5e3 , "unit":"celsius"}"#,
        r#"{"c\u0069ty":"Oslo","c\u0069ty":"Bergen"}"#,
        r#"{"city":"Oslo","extra":[1,{"a":"\n"}]}"#,
        r#"{"city":"Oslo"} x"#,
        r#"{"city":"Os"#,
    ];
    for text in texts {
        let expect = provider_answer(&gate, "get_weather", &one_char_each(text));
        for _ in 0..200 {
            let cut = chunks(text, &mut rng);
            let got = provider_answer(&gate, "get_weather", &cut);
            assert_eq!(got, expect, "seed {}: {cut:?}", rng.seed());
        }
        // The raw forms: OpenAI-style arguments text (escapes of escapes) and Anthropic's.
        let mut quoted = String::new();
        toolgate::json::write_escaped_str(&mut quoted, text).unwrap();
        let raws = [
            format!(
                r#"{{"type":"function","id":"c1","function":{{"name":"get_weather","arguments":{quoted}}}}}"#
            ),
            format!(r#"{{"type":"tool_use","id":"t1","name":"get_weather","input":{text}}}"#),
        ];
        for raw in &raws {
            let expect = raw_answer(&gate, &one_char_each(raw));
            assert_eq!(
                expect.1,
                format!("{:?}", gate.check_call(raw).map(|c| c.into_owned()))
            );
            for _ in 0..200 {
                let cut = chunks(raw, &mut rng);
                let got = raw_answer(&gate, &cut);
                assert_eq!(got, expect, "seed {}: {cut:?}", rng.seed());
            }
        }
    }
}

#[test]
fn raw_arguments_text_is_checked_as_it_streams() {
    // OpenAI chat and Responses give the arguments as a JSON string: its text is read
    // through the escapes, and a refusal is placed where the token stands in the call.
    let openai = |arguments: &str| {
        format!(
            r#"{{"id":"c1","type":"function","function":{{"name":"get_weather","arguments":{arguments}}}}}"#
        )
    };
    let responses = |arguments: &str| {
        format!(
            r#"{{"type":"function_call","call_id":"c1","name":"get_weather","arguments":{arguments}}}"#
        )
    };
    for form in [&openai as &dyn Fn(&str) -> String, &responses] {
        let wrong_type = form(r#""{\"city\": 42}""#);
        let at = wrong_type.find("42").unwrap();
        check_raw_answer(&wrong_type, refused(at, SCHEMA));
        let unknown_key = form(r#""{\"cty\": \"Oslo\"}""#);
        let at = unknown_key.find(r#"\"cty"#).unwrap();
        check_raw_answer(&unknown_key, refused(at, SCHEMA));
        let enum_miss = form(r#""{\"city\":\"Oslo\",\"unit\":\"kel\u0076in\"}""#);
        let at = enum_miss.find(r#"\"kel"#).unwrap();
        check_raw_answer(&enum_miss, refused(at, SCHEMA));
        let malformed = form(r#""{\"city\" 1}""#);
        let at = malformed.find(" 1").unwrap() + 1;
        check_raw_answer(&malformed, refused(at, RejectionKind::MalformedJson));
        let not_object = form(r#""[1]""#);
        let at = not_object.find("[1]").unwrap();
        check_raw_answer(&not_object, refused(at, RejectionKind::ArgumentsNotObject));
        // A text cut short is refused only once the literal closes: more text could follow.
        let cut = form(r#""{\"city\":\"Oslo\"""#);
        let close = cut.rfind(r#"""#).unwrap();
        check_raw_answer(&cut[..close], Pending);
        check_raw_answer(&cut, refused(close, RejectionKind::TruncatedJson));
        // Valid text is never refused, and the last word is check_call's.
        check_raw_answer(
            &form(r#""{\"city\":\"Os\u006co\",\"unit\":\"celsius\"} ""#),
            Pending,
        );
    }
}

/// Feeds `raw` one character at a time and in one piece: the answer after the last chunk
/// is `expect` both ways, and the last word is check_call's.
fn check_raw_answer(raw: &str, expect: Progress) {
    let gate = gate();
    let (last, word) = raw_answer(&gate, &one_char_each(raw));
    assert_eq!(last, expect, "{raw}");
    assert_eq!(raw_answer(&gate, &[raw]).0, expect, "{raw} whole");
    assert_eq!(
        word,
        format!("{:?}", gate.check_call(raw).map(|c| c.into_owned())),
        "{raw}"
    );
}

fn bytes_answer(gate: &Gate, chunks: &[&[u8]]) -> (Progress, String) {
    let mut stream = gate.stream_call();
    let mut last = Pending;
    for chunk in chunks {
        last = stream.feed_bytes(chunk);
    }
    (last, format!("{:?}", stream.finish()))
}

#[test]
fn bytes_may_be_cut_anywhere_even_inside_a_character() {
    let gate = gate();
    let mut rng = Rng::from_env();
    let raws = [
        r#"{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Zürich — 日本 🙏","note":"é"}}"#,
        r#"{"type":"function","id":"c1","function":{"name":"get_weather","arguments":"{\"city\":\"Zürich 🙏\",\"unit\":\"kélvin\"}"}}"#,
        r#"{"name":"get_weather","arguments":{"city":"ünï","unit":"fahrenheit"}}"#,
        r#"{"type":"tool_use","name":"gét_weather","input":{}}"#,
    ];
    for raw in raws {
        let expect = raw_answer(&gate, &one_char_each(raw));
        assert_eq!(
            expect.1,
            format!("{:?}", gate.check_call(raw).map(|c| c.into_owned()))
        );
        let bytes = raw.as_bytes();
        // Two chunks, cut at every byte.
        for cut in 0..=bytes.len() {
            let got = bytes_answer(&gate, &[&bytes[..cut], &bytes[cut..]]);
            assert_eq!(got, expect, "{raw} cut at byte {cut}");
        }
        // Random cuts, 1 to 7 bytes long.
        for _ in 0..200 {
            let mut chunks = Vec::new();
            let mut start = 0;
            while start < bytes.len() {
                let end = (start + rng.range(1, 8)).min(bytes.len());
                chunks.push(&bytes[start..end]);
                start = end;
            }
            let got = bytes_answer(&gate, &chunks);
            assert_eq!(got, expect, "seed {}: {raw}", rng.seed());
        }
    }
}

#[test]
fn bytes_that_are_not_utf8_are_refused_at_the_first_bad_byte() {
    let gate = gate();
    let raw: &[u8] =
        b"{\"type\":\"tool_use\",\"name\":\"get_weather\",\"input\":{\"city\":\"Z\xff\"}}";
    let bad = raw.iter().position(|&b| b == 0xff).unwrap();
    for cut in 0..=raw.len() {
        let mut stream = gate.stream_call();
        stream.feed_bytes(&raw[..cut]);
        let last = stream.feed_bytes(&raw[cut..]);
        assert_eq!(
            last,
            refused(bad, RejectionKind::MalformedJson),
            "cut at {cut}"
        );
        assert_eq!(
            format!("{:?}", stream.finish()),
            format!("{:?}", gate.check_call_bytes(raw).map(|c| c.into_owned()))
        );
    }
}

#[test]
fn a_call_past_the_size_limit_gets_check_calls_answer() {
    let limits = toolgate::json::Limits {
        max_bytes: 64,
        ..toolgate::json::Limits::default()
    };
    let gate = gate().with_limits(limits);
    let raw = r#"{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Zürich — a long way from here"}}"#;
    for chunk in [1, 3, 16, 200] {
        let mut stream = gate.stream_call();
        let mut last = Pending;
        for piece in raw.as_bytes().chunks(chunk) {
            last = stream.feed_bytes(piece);
        }
        assert_eq!(
            last,
            refused(64, RejectionKind::MalformedJson),
            "chunks of {chunk}"
        );
        assert_eq!(
            stream.finish().unwrap_err().to_string(),
            gate.check_call(raw).unwrap_err().to_string(),
            "chunks of {chunk}"
        );
    }
    // The provider form: the whole is the plain call, arguments text escaped.
    let arguments = r#"{"city":"Zürich "the long way" — and then some more text, far more than the limit lets in"}"#;
    let mut plain = String::from(r#"{"name":"get_weather","arguments":"#);
    toolgate::json::write_escaped_str(&mut plain, arguments).unwrap();
    plain.push('}');
    for chunk in [1, 5, 16, 200] {
        let mut stream = gate.stream_call();
        stream.feed_name("get_weather");
        for piece in one_char_each(arguments).chunks(chunk) {
            stream.feed_arguments(&piece.concat());
        }
        assert_eq!(
            stream.finish().unwrap_err().to_string(),
            gate.check_call(&plain).unwrap_err().to_string(),
            "chunks of {chunk}"
        );
    }
}

/// `bytes` fed in random chunks of 1 to 9 bytes: the answer after the last chunk and the
/// last word.
fn random_chunks_answer(gate: &Gate, bytes: &[u8], rng: &mut Rng) -> (Progress, String) {
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let end = (start + rng.range(1, 10)).min(bytes.len());
        chunks.push(&bytes[start..end]);
        start = end;
    }
    bytes_answer(gate, &chunks)
}

#[test]
fn mangled_calls_get_check_calls_answer_whatever_the_chunks() {
    // Calls with bytes flipped, cut, or repeated: the stream never panics, where the chunks
    // fall changes nothing, the last word is check_call_bytes', and a call that is accepted
    // in the end was never refused on the way.
    let gate = gate();
    let mut rng = Rng::from_env();
    let seeds = [
        r#"{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Zürich","unit":"celsius","note":"ab"}}"#,
        r#"{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Os\\u006co\",\"unit\":\"fahrenheit\"}"}}"#,
        r#"{"type":"function_call","call_id":"c2","name":"get_weather","arguments":"{\"city\":\"日本\"}"}"#,
        r#"{"name":"get_weather","arguments":{"city":"Oslo"}}"#,
    ];
    let alphabet = b"{}[]\",:\\ 0123456789.-eEtrufalsn\x00\xc3\xbc\xff";
    for _ in 0..3000 {
        let mut bytes = seeds[rng.below(seeds.len())].as_bytes().to_vec();
        for _ in 0..rng.range(1, 4) {
            let at = rng.below(bytes.len() + 1);
            match rng.below(4) {
                0 if at < bytes.len() => bytes[at] = alphabet[rng.below(alphabet.len())],
                1 => bytes.insert(at, alphabet[rng.below(alphabet.len())]),
                2 => bytes.truncate(at),
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => {}
            }
        }
        let one_each: Vec<&[u8]> = bytes.chunks(1).collect();
        let expect = bytes_answer(&gate, &one_each);
        let whole = gate.check_call_bytes(&bytes).map(|call| call.into_owned());
        assert_eq!(
            expect.1,
            format!("{whole:?}"),
            "seed {}: {:?}",
            rng.seed(),
            String::from_utf8_lossy(&bytes)
        );
        if whole.is_ok() {
            assert_eq!(
                expect.0,
                Pending,
                "seed {}: {:?}",
                rng.seed(),
                String::from_utf8_lossy(&bytes)
            );
        }
        let got = random_chunks_answer(&gate, &bytes, &mut rng);
        assert_eq!(
            got,
            expect,
            "seed {}: {:?}",
            rng.seed(),
            String::from_utf8_lossy(&bytes)
        );
    }
}

/// An open number is refused early only where no number can stand, whatever its digits:
/// where some number could be accepted (a numeric type, an `enum` with a number, an
/// alternative), it waits for the token's end.
#[test]
fn an_open_number_waits_where_some_number_can_stand() {
    let spec = ToolSpec::new("pick", "Pick.")
        .optional("count", Type::integer().max(3))
        .optional("code", Type::any_of([Type::string(), Type::integer()]))
        .optional("choice", Type::any().one_of(["a", "b"]).nullable())
        .optional(
            "level",
            Type::any().one_of([Value::from("low"), Value::from(2)]),
        )
        .build()
        .unwrap();
    let gate = Gate::new(vec![spec]).unwrap();
    for (text, early) in [
        (r#"{"count": 4"#, Pending),
        (r#"{"code": 4"#, Pending),
        (r#"{"level": 4"#, Pending),
        (r#"{"choice": 4"#, refused(11, SCHEMA)),
    ] {
        let mut stream = gate.stream_call();
        assert_eq!(stream.feed_name("pick"), Pending);
        assert_eq!(stream.feed_arguments(text), early, "{text}");
    }
    // The number's end decides the others: `4` is over `count`'s maximum.
    let mut stream = gate.stream_call();
    assert_eq!(stream.feed_name("pick"), Pending);
    assert_eq!(stream.feed_arguments(r#"{"count": 4"#), Pending);
    assert_eq!(stream.feed_arguments("}"), refused(10, SCHEMA));
}

/// The raw form does the same once its shape is fixed and the number is inside the
/// arguments' value; before the shape is fixed, an open number waits like everything else.
#[test]
fn the_raw_form_refuses_an_open_number_inside_the_arguments() {
    check_raw(&[(
        r#"{"type":"tool_use","id":"t","name":"get_weather","input":{"city": 4"#,
        refused(66, SCHEMA),
    )]);
    // A plain call's shape is never fixed before its end: the number waits for it.
    check_raw(&[(r#"{"name":"get_weather","arguments":{"city": 4"#, Pending)]);
}

#[test]
fn a_broken_number_where_none_can_stand_is_refused_at_its_first_byte_whatever_the_chunks() {
    // `-"` is a number broken by the quote. Where no number can be a city, a chunk that
    // ends after the `-` refuses it there; a chunk holding the `-` and the quote must give
    // the same answer, not the malformed byte after it (seed 1796169933480506494 of
    // mangled_calls_get_check_calls_answer_whatever_the_chunks found the difference).
    let raw = r#"{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":-"Zürich"}}"#;
    let minus = raw.find('-').unwrap();
    for broken in [raw, &raw.replace('-', "1.")] {
        check_raw_answer(broken, refused(minus, SCHEMA));
    }
    // The provider form too, and the same number where one can stand stays malformed.
    check(&[(r#"{"city": -""#, refused(9, SCHEMA))]);
    check(&[(r#"{"city": "Oslo", "unit": 1.}"#, refused(25, SCHEMA))]);
    let gate = Gate::new(vec![ToolSpec::new("add", "Adds")
        .required("n", Type::number())
        .build()
        .unwrap()])
    .unwrap();
    let mut stream = gate.stream_call();
    stream.feed_name("add");
    assert_eq!(
        stream.feed_arguments(r#"{"n": -"x"#),
        refused(7, RejectionKind::MalformedJson)
    );
}

#[test]
fn a_refused_stream_gives_the_rejection_of_its_text_so_far() {
    // (name, arguments fragments, the rejection's text once refused).
    let table: [(&str, &[&str], &str); 5] = [
        (
            "get_wether",
            &[""],
            "No tool named 'get_wether'. Did you mean: get_weather? The tools are: get_weather.",
        ),
        (
            "get_weather",
            &["[\"Os"],
            "get_weather rejected: the arguments must be a JSON object of named fields; \
             received an array: [\"Os\"].",
        ),
        (
            "get_weather",
            &["{\"city\": 4", "2"],
            "get_weather rejected: city must be a string; received 4.",
        ),
        (
            "get_weather",
            &["{\"city\": \"Oslo\", \"unit\": \"k"],
            "get_weather rejected: unit must be one of \"celsius\", \"fahrenheit\"; received \"k\".",
        ),
        (
            "get_weather",
            &["{\"city\" \"Oslo\"}"],
            "The arguments of get_weather are not valid JSON: expected ':' after an object key \
             at line 1, column 9, found '\"'. Send the arguments again as one JSON object.",
        ),
    ];
    let gate = gate();
    for (name, fragments, expected) in table {
        let mut stream = gate.stream_call();
        stream.feed_name(name);
        assert_eq!(
            stream.rejection(Some("call_1")),
            None,
            "pending: nothing to say"
        );
        for fragment in fragments {
            stream.feed_arguments(fragment);
            if stream.rejection(None).is_some() {
                break;
            }
        }
        let rejection = stream.rejection(Some("call_1")).expect("refused");
        assert_eq!(
            (rejection.to_string().as_str(), rejection.id()),
            (expected, Some("call_1"))
        );
    }
    // The raw form's envelope is read whole by `finish` alone.
    let mut raw = gate.stream_call();
    raw.feed(r#"{"name":"get_wether","arguments":{}}"#);
    assert!(matches!(raw.progress(), Progress::Refused { .. }));
    assert_eq!(raw.rejection(None), None);
}
