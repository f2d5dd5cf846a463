//! Turn streams under stress, on the recorded streams of every provider: fragments split
//! anywhere give the same refusals (place, id, byte, kind) and the same final turn; a
//! stream ended at any event boundary still ends in a turn that refuses every call it
//! reported refused; and
//! every prefix of every event, and events edited, dropped, repeated or swapped, never
//! panic, while every call reported refused is refused in the final turn (never too early)
//! and the final turn is `check_turn`'s on the message assembled.
#![cfg(all(feature = "turns", feature = "stream"))]

mod support;

use support::events::{gate, ALL};
use support::mutate::{mutate, Edit};
use support::rng::Rng;
use toolgate::json::Limits;
use toolgate::{EventError, Gate, Turn};

/// A refusal without its sentence (which says what arrived so far, so depends on the
/// chunks): `#INDEX ID @AT KIND`.
type Seen = Vec<String>;

/// Feeds `events`, skipping those refused; checks the promises at the end: the refusals
/// seen, and the final turn (or why there is none).
fn feed_all(gate: &Gate, events: &[String]) -> (Seen, Result<Turn<'static>, EventError>) {
    let mut stream = gate.stream_turn();
    for event in events {
        let _ = stream.feed(event);
    }
    let refusals = stream.refusals().to_vec();
    let seen = refusals
        .iter()
        .map(|refusal| {
            format!(
                "#{} {} @{} {}",
                refusal.index,
                refusal.id.as_deref().unwrap_or("-"),
                refusal.at,
                refusal.rejection.kind().label()
            )
        })
        .collect();
    let message = stream.message();
    let turn = stream.finish();
    if let Ok(turn) = &turn {
        // Never too early: a call reported refused is refused in the end.
        for refusal in &refusals {
            let verdict = turn.calls.get(refusal.index).map(|call| &call.verdict);
            assert!(
                matches!(verdict, Some(Err(_))),
                "call #{} was refused while streaming but not in the end\n{events:#?}",
                refusal.index
            );
        }
        // The last word is `check_turn`'s on the assembled message.
        let message = message.expect("a turn has a message");
        let whole = gate.check_turn(&message).expect("the message reads");
        assert_eq!(turn, &whole.into_owned(), "{message}");
    }
    if let Err(EventError::Turn(error)) = &turn {
        panic!("the assembled message could not be read: {error}\n{events:#?}");
    }
    (seen, turn)
}

/// The fragment keys split: OpenAI's `arguments`, Anthropic's `partial_json`, Responses'
/// `delta`.
const FRAGMENTS: [&str; 3] = ["\"arguments\":\"", "\"partial_json\":\"", "\"delta\":\""];

/// `event` as two events, its one non-empty fragment split at a random place outside an
/// escape; `None` when it has no such fragment, or more than one.
fn split(rng: &mut Rng, event: &str) -> Option<[String; 2]> {
    let key = FRAGMENTS
        .iter()
        .find(|key| event.matches(*key).count() == 1)?;
    let start = event.find(key)? + key.len();
    // The literal's closing quote: the first `"` not escaped.
    let mut end = start;
    let bytes = event.as_bytes();
    while let Some(&byte) = bytes.get(end) {
        match byte {
            b'\\' => end += 2,
            b'"' => break,
            _ => end += 1,
        }
    }
    let places: Vec<usize> = (start + 1..end)
        .filter(|&at| event.is_char_boundary(at))
        .filter(|&at| {
            let backslashes = bytes[start..at].iter().rev().take_while(|&&b| b == b'\\');
            backslashes.count() % 2 == 0
        })
        .collect();
    if places.is_empty() {
        return None;
    }
    let at = *rng.pick(&places);
    let first = format!("{}{}", &event[..at], &event[end..]);
    let second = format!("{}{}", &event[..start], &event[at..]);
    Some([first, second])
}

#[test]
fn fragments_split_anywhere_give_the_same_refusals_and_turn() {
    let mut rng = Rng::from_env();
    let gate = gate();
    for recorded in &ALL {
        let events: Vec<String> = recorded.events.iter().map(|e| e.to_string()).collect();
        let (seen, turn) = feed_all(&gate, &events);
        let turn = turn.expect("the recorded stream ends in a turn");
        let mut n_split = 0;
        for _ in 0..Rng::iters(200) {
            let mut split_events = Vec::new();
            for event in &events {
                match split(&mut rng, event).filter(|_| rng.chance(2, 3)) {
                    Some([first, second]) => {
                        n_split += 1;
                        split_events.extend([first, second]);
                    }
                    None => split_events.push(event.clone()),
                }
            }
            let (split_seen, split_turn) = feed_all(&gate, &split_events);
            assert_eq!(split_seen, seen, "{}: {split_events:#?}", recorded.name);
            assert_eq!(split_turn.as_ref(), Ok(&turn), "{}", recorded.name);
        }
        // Gemini's calls come whole: nothing to split.
        assert_eq!(n_split > 0, recorded.name != "gemini", "{}", recorded.name);
    }
}

#[test]
fn a_stream_ended_at_any_event_boundary_keeps_the_promises() {
    // Ended early, a call still open is cut: refused in the end, as it was while streaming.
    let gate = gate();
    for recorded in &ALL {
        let events: Vec<String> = recorded.events.iter().map(|e| e.to_string()).collect();
        for end in 1..=events.len() {
            let (_, turn) = feed_all(&gate, &events[..end]);
            assert!(turn.is_ok(), "{} ended after {end} events", recorded.name);
        }
    }
}

#[test]
fn every_prefix_of_every_event_never_panics() {
    let gate = gate();
    for recorded in &ALL {
        for (n, event) in recorded.events.iter().enumerate() {
            let before: Vec<String> = recorded.events[..n].iter().map(|e| e.to_string()).collect();
            for end in (0..event.len()).filter(|&end| event.is_char_boundary(end)) {
                let mut events = before.clone();
                events.push(event[..end].to_owned());
                events.extend(recorded.events[n + 1..].iter().map(|e| e.to_string()));
                let _ = feed_all(&gate, &events);
            }
        }
    }
}

/// Tokens an edit inserts: what the readers look at.
const TOKENS: &[&str] = &[
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "null",
    "0",
    "1",
    "-1",
    "\\\"",
    "\"index\":1,",
    "\"type\":\"tool_use\",",
    "\"type\":\"function\",",
    "\"name\":\"get_weather\",",
    "\"functionCall\":{\"name\":\"x\"},",
    "\"finish_reason\":\"length\",",
    "\"stop_reason\":\"max_tokens\"",
    "\"output_index\":9,",
    "\"choices\":[],",
];

#[test]
fn events_edited_dropped_repeated_or_swapped_never_panic_nor_refuse_too_early() {
    let mut rng = Rng::from_env();
    // Small limits too: events and turns past them, nesting at the depth limit.
    let small = gate().with_limits(Limits {
        max_bytes: 700,
        max_depth: 4,
    });
    let gates = [gate(), small];
    let edits = [
        Edit::Delete(4),
        Edit::Insert,
        Edit::Cut,
        Edit::Copy(12),
        Edit::Swap,
    ];
    for _ in 0..Rng::iters(400) {
        let gate = rng.pick(&gates);
        let recorded = rng.pick(&ALL);
        let mut events: Vec<String> = recorded.events.iter().map(|e| e.to_string()).collect();
        for _ in 0..rng.range(1, 4) {
            let at = rng.below(events.len());
            match rng.below(4) {
                0 => events[at] = mutate(&mut rng, &events[at], (1, 3), &edits, TOKENS),
                1 => {
                    events.remove(at);
                }
                2 => {
                    let copy = events[at].clone();
                    events.insert(rng.below(events.len() + 1), copy);
                }
                _ => {
                    let other = rng.below(events.len());
                    events.swap(at, other);
                }
            }
            if events.is_empty() {
                break;
            }
        }
        let _ = feed_all(gate, &events);
    }
}

#[test]
fn random_bytes_as_events_never_panic() {
    let mut rng = Rng::from_env();
    let gate = gate();
    for _ in 0..Rng::iters(300) {
        let mut stream = gate.stream_turn();
        for _ in 0..rng.range(1, 6) {
            let bytes: Vec<u8> = (0..rng.below(40)).map(|_| rng.u8()).collect();
            let _ = stream.feed(&String::from_utf8_lossy(&bytes));
        }
        let _ = stream.finish();
    }
}
