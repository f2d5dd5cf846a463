//! Turn streams fed the providers' recorded stream events: the refusals after each event
//! (the call's place, id, byte and sentence), the whole message assembled (equal, as a
//! value, to the one written by hand), and the final turn (equal to `check_turn` on that
//! message); stop-reason truncation through events per provider; the exact texts of the
//! errors an event that does not fit gets.
#![cfg(all(feature = "turns", feature = "stream"))]

mod support;

use support::events::{gate, Recorded, ANTHROPIC, GEMINI, OPENAI, RESPONSES};
use toolgate::json::parse;
use toolgate::{Gate, Turn};

/// What a recorded stream gave: a line per refusal, `EVENT: #INDEX ID @AT KIND: TEXT`, the
/// message assembled, and the final turn.
struct Run {
    refusals: Vec<String>,
    message: String,
    turn: Turn<'static>,
}

fn run(gate: &Gate, events: &[&str]) -> Run {
    let mut stream = gate.stream_turn();
    let mut refusals = Vec::new();
    for (number, event) in events.iter().enumerate() {
        let seen = stream.refusals().len();
        let all = stream
            .feed(event)
            .unwrap_or_else(|error| panic!("event {} refused: {error}", number + 1));
        for refusal in all.iter().skip(seen) {
            refusals.push(format!(
                "{}: #{} {} @{} {}: {}",
                number + 1,
                refusal.index,
                refusal.id.as_deref().unwrap_or("-"),
                refusal.at,
                refusal.rejection.kind().label(),
                refusal.rejection
            ));
        }
    }
    let message = stream.message().expect("events were read");
    let turn = stream.finish().expect("the stream ends in a turn");
    Run {
        refusals,
        message,
        turn,
    }
}

/// One line per call: `ok TOOL ID` or `KIND TOOL ID: TEXT`.
fn verdicts(turn: &Turn<'_>) -> Vec<String> {
    turn.calls
        .iter()
        .map(|call| {
            let (tool, id) = (call.tool().unwrap_or("-"), call.id().unwrap_or("-"));
            match &call.verdict {
                Ok(_) => format!("ok {tool} {id}"),
                Err(rejection) => format!("{} {tool} {id}: {rejection}", rejection.kind().label()),
            }
        })
        .collect()
}

/// Runs `recorded` and checks its refusals, its message against the hand-written whole
/// one, and its final turn against `check_turn` on that whole message and `calls`.
fn check(recorded: &Recorded, refusals: &[&str], text: &[&str], calls: &[&str]) {
    let gate = gate();
    let run = run(&gate, recorded.events);
    assert_eq!(run.refusals, refusals, "{}: refusals", recorded.name);
    assert_eq!(
        parse(&run.message).expect("the message is JSON"),
        parse(recorded.whole).expect("the whole message is JSON"),
        "{}: the assembled message\n{}",
        recorded.name,
        run.message
    );
    let whole = gate
        .check_turn(recorded.whole)
        .expect("the whole turn reads");
    assert_eq!(
        run.turn,
        whole.into_owned(),
        "{}: the final turn",
        recorded.name
    );
    assert_eq!(run.turn.text, text, "{}: text", recorded.name);
    assert_eq!(verdicts(&run.turn), calls, "{}: verdicts", recorded.name);
}

#[test]
fn openai_chunks_with_interleaved_parallel_calls() {
    // call_B's name is no tool's: refused as its first arguments fragment completes it.
    // call_C's `4` can begin no string: refused at it, while its digits still come.
    check(
        &OPENAI,
        &[
            "6: #1 call_B @0 unknown_tool: No tool named 'get_wether'. Did you mean: \
             get_weather? The tools are: get_weather, search_orders.",
            "9: #2 call_C @9 schema_violation: get_weather rejected: city must be a string; \
             received 4.",
        ],
        &["Checking three."],
        &[
            "ok get_weather call_A",
            "unknown_tool get_wether call_B: No tool named 'get_wether'. Did you mean: \
             get_weather? The tools are: get_weather, search_orders.",
            "schema_violation get_weather call_C: get_weather rejected: city must be a \
             string; received 42.",
        ],
    );
}

#[test]
fn anthropic_events_with_thinking_text_and_two_tool_uses() {
    // `"k` is the start of no allowed unit: refused at its opening quote.
    check(
        &ANTHROPIC,
        &[
            "18: #1 toolu_01B @26 schema_violation: get_weather rejected: units must be one of \
           \"celsius\", \"fahrenheit\"; received \"kelvin\".",
        ],
        &["I'll check both."],
        &[
            "ok get_weather toolu_01A",
            "schema_violation get_weather toolu_01B: get_weather rejected: units must be one \
             of \"celsius\", \"fahrenheit\"; received \"kelvin\".",
        ],
    );
}

#[test]
fn responses_events_with_reasoning_a_message_and_two_calls() {
    check(
        &RESPONSES,
        &[
            "17: #1 call_B @0 unknown_tool: No tool named 'search_order'. Did you mean: \
           search_orders? The tools are: get_weather, search_orders.",
        ],
        &["Looking it up."],
        &[
            "ok get_weather call_A",
            "unknown_tool search_order call_B: No tool named 'search_order'. Did you mean: \
             search_orders? The tools are: get_weather, search_orders.",
        ],
    );
}

#[test]
fn gemini_chunks_with_text_in_pieces_and_two_calls() {
    // A Gemini call comes whole: its rejection is the whole call's.
    check(
        &GEMINI,
        &[
            "4: #1 - @8 schema_violation: get_weather rejected: city must be a string; \
           received 42.",
        ],
        &["Checking both."],
        &[
            "ok get_weather -",
            "schema_violation get_weather -: get_weather rejected: city must be a string; \
             received 42.",
        ],
    );
}

/// The sentence of a `get_weather` call cut after `n` bytes of an object.
fn cut(id: &str, n: usize) -> String {
    format!(
        "truncated_json get_weather {id}: The arguments of get_weather were cut off after {n} \
         bytes, inside an object. Do not send the same call again: make it smaller, with fewer \
         or shorter items."
    )
}

/// Borrows each event.
fn refs(events: &[String]) -> Vec<&str> {
    events.iter().map(String::as_str).collect()
}

/// The final verdicts of a stream of `events`.
fn final_verdicts(events: &[&str]) -> Vec<String> {
    verdicts(&run(&gate(), events).turn)
}

#[test]
fn openai_length_cuts_the_last_call_through_events() {
    let chunk = |choice: &str| {
        format!(
            r#"{{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{choice}],"usage":null}}"#
        )
    };
    let start = chunk(
        r#"{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_A","function":{"arguments":"","name":"get_weather"},"type":"function"}]},"logprobs":null,"finish_reason":null}"#,
    );
    let arguments = chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Oslo\"}"}}]},"logprobs":null,"finish_reason":null}"#,
    );
    let stop = |reason: &str| {
        chunk(&format!(
            r#"{{"index":0,"delta":{{}},"logprobs":null,"finish_reason":"{reason}"}}"#
        ))
    };
    let length = stop("length");
    assert_eq!(
        final_verdicts(&[&start, &arguments, &length]),
        [cut("call_A", 15)]
    );
    let done = stop("tool_calls");
    assert_eq!(
        final_verdicts(&[&start, &arguments, &done]),
        ["ok get_weather call_A"]
    );
}

#[test]
fn anthropic_max_tokens_cuts_a_tool_use_through_events() {
    // The input never began: the SDK's `{}`, which would read as "missing city".
    let events = |reason: &str| {
        [
            r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}"#.to_owned(),
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#.to_owned(),
            r#"{"type":"content_block_stop","index":0}"#.to_owned(),
            format!(r#"{{"type":"message_delta","delta":{{"stop_reason":"{reason}","stop_sequence":null}},"usage":{{"output_tokens":20}}}}"#),
            r#"{"type":"message_stop"}"#.to_owned(),
        ]
    };
    assert_eq!(
        final_verdicts(&refs(&events("max_tokens"))),
        [cut("toolu_1", 2)]
    );
    assert_eq!(
        final_verdicts(&refs(&events("tool_use"))),
        ["schema_violation get_weather toolu_1: get_weather rejected: missing required field 'city'."]
    );
}

#[test]
fn responses_incomplete_cuts_a_function_call_through_events() {
    let events = |end: &str| {
        [
            r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_A","name":"get_weather"}}"#.to_owned(),
            r#"{"type":"response.function_call_arguments.delta","sequence_number":2,"item_id":"fc_1","output_index":0,"delta":"{\"city\":\"Oslo\"}"}"#.to_owned(),
            end.to_owned(),
        ]
    };
    let incomplete = r#"{"type":"response.incomplete","sequence_number":3,"response":{"id":"resp_1","object":"response","status":"incomplete","error":null,"incomplete_details":{"reason":"max_output_tokens"},"output":[]}}"#;
    let completed = r#"{"type":"response.completed","sequence_number":3,"response":{"id":"resp_1","object":"response","status":"completed","error":null,"incomplete_details":null,"output":[]}}"#;
    assert_eq!(
        final_verdicts(&refs(&events(incomplete))),
        [cut("call_A", 15)]
    );
    assert_eq!(
        final_verdicts(&refs(&events(completed))),
        ["ok get_weather call_A"]
    );
}

#[test]
fn gemini_max_tokens_cuts_a_function_call_through_events() {
    let chunk = |finish: &str| {
        format!(
            r#"{{"candidates":[{{"content":{{"parts":[{{"functionCall":{{"name":"get_weather","args":{{"city":"Oslo"}}}}}}],"role":"model"}},"finishReason":"{finish}","index":0}}],"modelVersion":"gemini-2.5-flash"}}"#
        )
    };
    assert_eq!(final_verdicts(&[&chunk("MAX_TOKENS")]), [cut("-", 15)]);
    assert_eq!(final_verdicts(&[&chunk("STOP")]), ["ok get_weather -"]);
    // google-genai's `model_dump()` of a chunk: snake case, every field, `null` when unset.
    let dumped = |finish: &str| {
        format!(
            r#"{{"candidates":[{{"content":{{"parts":[{{"video_metadata":null,"thought":null,"inline_data":null,"file_data":null,"thought_signature":null,"code_execution_result":null,"executable_code":null,"function_call":{{"id":"fc-1","args":{{"city":"Oslo"}},"name":"get_weather"}},"function_response":null,"text":null}}],"role":"model"}},"citation_metadata":null,"finish_message":null,"token_count":null,"finish_reason":"{finish}","avg_logprobs":null,"grounding_metadata":null,"index":0,"logprobs_result":null,"safety_ratings":null}}],"create_time":null,"response_id":"r-1","model_version":"gemini-2.5-flash","prompt_feedback":null,"usage_metadata":{{"prompt_token_count":50,"total_token_count":70}},"automatic_function_calling_history":null,"parsed":null}}"#
        )
    };
    assert_eq!(final_verdicts(&[&dumped("MAX_TOKENS")]), [cut("fc-1", 15)]);
    assert_eq!(
        final_verdicts(&[&dumped("FinishReason.MAX_TOKENS")]),
        [cut("fc-1", 15)]
    );
    assert_eq!(final_verdicts(&[&dumped("STOP")]), ["ok get_weather fc-1"]);
}

#[test]
fn an_anthropic_input_that_is_not_json_is_refused_as_the_gate_refuses_its_text() {
    let events = [
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\" \"Oslo\"}"}}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":20}}"#,
    ];
    let gate = gate();
    let run = run(&gate, &events);
    assert_eq!(
        run.refusals,
        [
            "2: #0 toolu_1 @8 malformed_json: The arguments of get_weather are not valid JSON: \
          expected ':' after an object key at line 1, column 9, found '\"'. Send the arguments \
          again as one JSON object."
        ]
    );
    // The text cannot be an `input`: the block is written as the plain call with its text.
    assert_eq!(
        run.message,
        r#"{"type":"message","role":"assistant","content":[{"id":"toolu_1","name":"get_weather","arguments":"{\"city\" \"Oslo\"}"}],"stop_reason":"tool_use"}"#
    );
    let alone = gate
        .check_call(r#"{"id":"toolu_1","name":"get_weather","arguments":"{\"city\" \"Oslo\"}"}"#)
        .expect_err("refused alone");
    assert_eq!(run.turn.calls[0].verdict, Err(alone));
}

#[test]
fn a_responses_done_event_completes_or_contradicts_the_deltas() {
    let added = r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_A","name":"get_weather"}}"#;
    let delta = r#"{"type":"response.function_call_arguments.delta","sequence_number":2,"item_id":"fc_1","output_index":0,"delta":"{\"city\":"}"#;
    let done = r#"{"type":"response.function_call_arguments.done","sequence_number":3,"item_id":"fc_1","output_index":0,"arguments":"{\"city\":\"Oslo\"}"}"#;
    let gate = gate();
    let mut stream = gate.stream_turn();
    for event in [added, delta, done] {
        stream.feed(event).expect("the events fit");
    }
    let turn = stream.finish().expect("a turn");
    assert_eq!(verdicts(&turn), ["ok get_weather call_A"]);

    let mut stream = gate.stream_turn();
    stream.feed(added).expect("the item begins");
    let other = done.replace(r#"{\"city\":\"Oslo\"}"#, r#"{\"town\":\"Oslo\"}"#);
    stream
        .feed(&other)
        .expect("a whole text with no deltas before it");
    let wrong = done.replace(r#"\"Oslo\"}"#, r#"\"Rome\"}"#);
    assert_eq!(
        stream.feed(&wrong).expect_err("it contradicts").to_string(),
        format!(
            "Event 3: expected whole `arguments` that continue the deltas; received {}.",
            {
                let value = parse(&wrong).expect("JSON");
                toolgate::json::preview(&value, 120)
            }
        )
    );
}

/// Feeds `events` to a fresh stream: the error of the last one.
fn error_of(events: &[&str]) -> String {
    let gate = gate();
    let mut stream = gate.stream_turn();
    let (last, before) = events.split_last().expect("at least one event");
    for event in before {
        stream.feed(event).expect("the events before fit");
    }
    stream
        .feed(last)
        .expect_err("the last event does not fit")
        .to_string()
}

#[test]
fn an_event_that_does_not_fit_says_what_was_expected_and_what_arrived() {
    let start = r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#;
    let table: [(&[&str], &str); 8] = [
        (
            &[r#"{"type":"content_block_delta","index":0"#],
            "Event 1 is not a JSON event: the input ended inside an object that starts at line 1, column 1.",
        ),
        (
            &[r#"{"object":"list","data":[]}"#],
            r#"Event 1: expected an event of an OpenAI chat, Anthropic, Responses or Gemini stream; received {"object":"list","data":[]}."#,
        ),
        (
            &[r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{"}}"#],
            r#"Event 1: expected a delta for a block already started; received {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{"}}."#,
        ),
        (
            &[start, start],
            r#"Event 2: expected a new block's `index`; received {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{…."#,
        ),
        (
            &[start, r#"{"type":"response.created","sequence_number":0}"#],
            r#"Event 2: expected an Anthropic Messages event; received an OpenAI Responses event: {"type":"response.created","sequence_number":0}."#,
        ),
        (
            &[r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]}}]}"#],
            r#"Event 1: expected a new tool call's first delta, with its `function.name`; received {"index":1,"function":{"arguments":"{}"}}."#,
        ),
        (
            &[start, r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#],
            "Event 2 is the provider's error: Overloaded",
        ),
        (
            &[r#"{"candidates":[{"content":{"parts":{"text":"x"}},"index":0}]}"#],
            r#"Event 1: expected `content.parts` as a list; received {"text":"x"}."#,
        ),
    ];
    for (events, expected) in table {
        assert_eq!(error_of(events), expected, "{events:?}");
    }
}

#[test]
fn an_event_that_does_not_fit_changes_nothing() {
    let gate = gate();
    let mut stream = gate.stream_turn();
    let events = OPENAI.events;
    for (n, event) in events.iter().enumerate() {
        stream.feed(event).expect("recorded events fit");
        // After each event, one that contradicts it (a call never started) is refused.
        let stray = r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":7,"function":{"arguments":"}"}}]}}]}"#;
        assert!(stream.feed(stray).is_err(), "event {n}");
    }
    let turn = stream.finish().expect("a turn");
    let whole = gate.check_turn(OPENAI.whole).expect("the whole turn reads");
    assert_eq!(turn, whole.into_owned());
}

#[test]
fn a_stream_ends_in_a_turn_only_after_an_event_and_within_the_limits() {
    let gate = gate();
    assert_eq!(
        gate.stream_turn()
            .finish()
            .expect_err("no events")
            .to_string(),
        "Expected a turn's stream events; none arrived."
    );
    let small = support::events::gate().with_limits(toolgate::json::Limits {
        max_bytes: 600,
        ..toolgate::json::Limits::default()
    });
    let mut stream = small.stream_turn();
    // 100 pieces of text of 10 bytes: each event fits, the turn does not.
    for _ in 0..100 {
        let event = r#"{"choices":[{"index":0,"delta":{"content":"0123456789"}}]}"#;
        stream.feed(event).expect("each event fits");
    }
    // Past the limit nothing more is kept or checked: a thousand calls to no tool add no
    // refusal (each would keep a call stream).
    for index in 0..1000 {
        let event = format!(
            r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":{index},"id":"c","function":{{"name":"nope","arguments":""}}}}]}}}}]}}"#
        );
        assert_eq!(stream.feed(&event).expect("each event fits"), []);
    }
    assert_eq!(
        stream.finish().expect_err("the turn does not").to_string(),
        "The turn the events make is larger than the limit of 600 bytes."
    );
}

#[test]
fn an_unknown_name_is_refused_at_the_event_that_starts_its_call() {
    let gate = gate();
    let starts: [&str; 3] = [
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_wether","input":{}}}"#,
        r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"toolu_1","name":"get_wether"}}"#,
        r#"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"toolu_1","function":{"arguments":"","name":"get_wether"},"type":"function"}]},"logprobs":null,"finish_reason":null}],"usage":null}"#,
    ];
    for start in starts {
        let mut stream = gate.stream_turn();
        let refusals = stream.feed(start).expect("the event fits");
        let seen: Vec<_> = refusals
            .iter()
            .map(|refusal| {
                (
                    refusal.index,
                    refusal.id.as_deref(),
                    refusal.at,
                    refusal.rejection.to_string(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [(
                0,
                Some("toolu_1"),
                0,
                "No tool named 'get_wether'. Did you mean: get_weather? The tools are: \
                 get_weather, search_orders."
                    .to_owned()
            )],
            "{start}"
        );
    }
}

#[test]
fn an_event_nests_its_call_as_deep_as_a_whole_turn_may() {
    // A Gemini chunk nests a call's `args` 8 levels deep, as a whole response does: a gate
    // whose calls may nest 3 levels (`{"functionCall":{"args":{}}}`) reads both.
    let shallow = gate().with_limits(toolgate::json::Limits {
        max_depth: 3,
        ..toolgate::json::Limits::default()
    });
    for recorded in &support::events::ALL {
        let run = run(&shallow, recorded.events);
        let whole = shallow
            .check_turn(recorded.whole)
            .expect("the whole turn reads");
        assert_eq!(run.turn, whole.into_owned(), "{}", recorded.name);
    }
    // An item kept as given is held to a call's depth.
    let mut stream = shallow.stream_turn();
    let deep = r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":[[[["x"]]]]}}"#;
    assert_eq!(
        stream.feed(deep).expect_err("too deep").to_string(),
        r#"Event 1: expected an item nested no deeper than a call may be; received {"type":"thinking","thinking":[[[["x"]]]]}."#
    );
}

#[test]
fn a_legacy_function_call_delta_is_refused_not_dropped() {
    let chunk = r#"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":null,"function_call":{"name":"get_weather","arguments":""}},"logprobs":null,"finish_reason":null}],"usage":null}"#;
    assert_eq!(
        error_of(&[chunk]),
        r#"Event 1: expected calls as `tool_calls` deltas (legacy `function_call` deltas are not read); received {"role":"assistant","content":null,"function_call":{"name":"get_weather","arguments":""}}."#
    );
}
