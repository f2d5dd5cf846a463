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
    let whole = gate.check_turn(recorded.whole).expect("the whole turn reads");
    assert_eq!(run.turn, whole.into_owned(), "{}: the final turn", recorded.name);
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
        &["18: #1 toolu_01B @26 schema_violation: get_weather rejected: units must be one of \
           \"celsius\", \"fahrenheit\"; received \"kelvin\"."],
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
        &["17: #1 call_B @0 unknown_tool: No tool named 'search_order'. Did you mean: \
           search_orders? The tools are: get_weather, search_orders."],
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
        &["4: #1 - @8 schema_violation: get_weather rejected: city must be a string; \
           received 42."],
        &["Checking both."],
        &[
            "ok get_weather -",
            "schema_violation get_weather -: get_weather rejected: city must be a string; \
             received 42.",
        ],
    );
}
