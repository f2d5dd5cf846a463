//! The demo's second part: whole turns. The scripted model sends one Anthropic message with
//! three calls made in parallel (one valid, one misspelled, one with a wrong type); toolgate
//! answers all three in one result message, in order; the model's next turn corrects the two
//! refused calls, and the session links each correction to the call it fixes, so the retries
//! are counted though no callback asked for them.

use super::{prose, row, Paint};
use std::fmt::Write as _;
use toolgate::spec::Provider;
use toolgate::{result_message, Outcome, Registry, Session};

/// The model's first turn, as Anthropic's SDK dumps it.
const FIRST: &str = r#"{"id":"msg_11","type":"message","role":"assistant","content":[{"type":"text","text":"I'll check the order, find the other orders and refund the late fee."},{"type":"tool_use","id":"toolu_11","name":"get_order","input":{"order_id":"ORD-2024-000042"}},{"type":"tool_use","id":"toolu_12","name":"serch_orders","input":{"customer_id":"CUS-845952"}},{"type":"tool_use","id":"toolu_13","name":"issue_refund","input":{"order_id":"ORD-2024-000042","amount_cents":"499","reason":"late"}}],"stop_reason":"tool_use"}"#;

/// Its next turn, after reading the result message: the two refused calls, corrected.
const SECOND: &str = r#"{"id":"msg_12","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_14","name":"search_orders","input":{"customer_id":"CUS-845952"}},{"type":"tool_use","id":"toolu_15","name":"issue_refund","input":{"order_id":"ORD-2024-000042","amount_cents":499,"reason":"late"}}],"stop_reason":"tool_use"}"#;

/// Plays the two turns into `out`.
///
/// # Errors
/// A message if a scripted turn cannot be read or the session stops (a bug in the script).
pub fn play(out: &mut String, paint: Paint, registry: &Registry) -> Result<(), String> {
    let _ = writeln!(
        out,
        "\n{}\n\
         A real turn holds several calls made in parallel. The next request must answer every\n\
         call id of the turn, once and in order, so a refused call is answered with its\n\
         rejection beside the others' outputs, and its correction comes in the model's next turn.",
        paint.bold("Whole turns: parallel calls, one result message, the retry as the next turn."),
    );
    let mut session = Session::default();
    for (title, lesson, raw) in [
        (
            "A. one turn, three calls:",
            "one valid, one misspelled, one with a wrong type.",
            FIRST,
        ),
        (
            "B. the next turn:",
            "the model corrects the two refused calls; each is linked to its first try.",
            SECOND,
        ),
    ] {
        let _ = writeln!(out, "\n{} {lesson}", paint.bold(title));
        row(out, "model", raw);
        let outcomes = session
            .handle_turn(registry, raw)
            .map_err(|error| format!("the scripted turn was refused: {error}"))?;
        for (index, outcome) in outcomes.iter().enumerate() {
            let label = format!("call {}", index.saturating_add(1));
            prose(out, &label, &describe(paint, outcome));
        }
        let reply = result_message(&outcomes, Provider::Anthropic);
        row(out, "reply", &reply.to_string());
    }
    let counts = session.end();
    prose(
        out,
        "session",
        &format!(
            "{} calls, {} dispatched; {} retries asked in the next turn, {} succeeded; a call is \
             retried at most once, and a tool refused three turns running stops the run.",
            counts.calls(),
            counts.dispatched,
            counts.retries_asked,
            counts.retries_succeeded
        ),
    );
    Ok(())
}

/// One call's outcome in a line: its id, what ran or why nothing did, and the refused call
/// it corrects.
fn describe(paint: Paint, outcome: &Outcome) -> String {
    let id = outcome.id().unwrap_or("(no id)");
    let correcting = match outcome.first_rejection().and_then(|first| first.id()) {
        Some(first) => format!(", correcting {first}"),
        None => String::new(),
    };
    match outcome {
        Outcome::Dispatched { tool, output, .. } => {
            format!(
                "{id} {} {tool}{correcting}: {output}",
                paint.green("dispatched")
            )
        }
        Outcome::ToolFailed { tool, error, .. } => {
            format!(
                "{id} {} {tool}{correcting}: {error}",
                paint.yellow("tool failed")
            )
        }
        Outcome::Rejected { error, .. } => {
            format!("{id} {}: {error}", paint.red(error.kind().label()))
        }
    }
}
