//! The stop-reason rule: a turn that ended because the model hit its output limit has its
//! last call cut, even when that call's text parses (Anthropic sends `{}` for a cut
//! `tool_use` input; OpenAI may cut `{"n": 1234}` at `{"n": 12}`, which parses). The model
//! must hear "make it smaller", not "run" or "fix field n": sending the same call again would
//! be cut again. Both halves of the rule are here: which stop reasons are a cut (`form.rs`
//! reads them where each form carries them) and what a cut does to the last call. One rule,
//! read by [`Gate::check_turn`](crate::Gate::check_turn) and so by every stream of events,
//! whose last word is `check_turn` on the message it assembled.

use crate::envelope::Call;
use crate::json::{ErrorKind, Inside, Kind, ParseError, Position};
use crate::rejection::{Part, Rejection};

/// Whether a stop reason says the model hit its output limit, so the turn's last call was
/// cut even if its text parses (Anthropic sends `{}` for a cut `tool_use` input; OpenAI may
/// cut `1234` at `12`): OpenAI chat's `finish_reason: "length"`, Anthropic's
/// `stop_reason: "max_tokens"` (or `"model_context_window_exceeded"`), a Responses
/// response's `incomplete_details.reason: "max_output_tokens"`, Gemini's `finishReason:
/// "MAX_TOKENS"` (`"FinishReason.MAX_TOKENS"` when a google-genai enum was dumped with
/// `str`).
pub(super) fn stopped_at_limit(reason: &str) -> bool {
    matches!(
        reason,
        "length"
            | "max_tokens"
            | "model_context_window_exceeded"
            | "max_output_tokens"
            | "MAX_TOKENS"
            | "FinishReason.MAX_TOKENS"
    )
}

/// The verdict of a turn's last call when the turn stopped at the output limit: a call
/// accepted or refused by its spec (a cut call misses its later fields) becomes
/// [`Rejection::TruncatedJson`], cut off after its arguments as compact JSON (`args`, of kind
/// `kind`), keeping its id and name. A verdict on what came before the cut (the name, the
/// JSON, the envelope, the arguments' kind) stands: the cut does not mend it.
pub(super) fn cut_off(verdict: &mut Result<Call<'_>, Rejection>, kind: Kind, args: &str) {
    let (id, tool) = match verdict {
        Ok(call) => (call.id.as_deref().map(String::from), call.name.to_string()),
        Err(Rejection::SchemaViolation { id, tool, .. }) => (id.clone(), tool.clone()),
        Err(_) => return,
    };
    let inside = match kind {
        Kind::Object => Inside::Object,
        Kind::Array => Inside::Array,
        Kind::String => Inside::String,
        Kind::Number => Inside::Number,
        Kind::Null | Kind::Bool => Inside::Literal,
    };
    let error = ParseError {
        kind: ErrorKind::Truncated {
            inside,
            start: Position::offset_only(0),
        },
        at: Position::offset_only(args.len()),
        detail: "",
        found: None,
    };
    *verdict = Err(Rejection::TruncatedJson {
        id,
        tool: Some(tool),
        part: Part::Arguments,
        error: Box::new(error.locate(args.as_bytes())),
    });
}
