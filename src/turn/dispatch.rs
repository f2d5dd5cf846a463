//! Running a checked turn through the registry: every accepted call's handler once, in call
//! order, each panic caught, and one [`Outcome`] per call.
//!
//! This is the synchronous path. The registry's promises hold per call as for
//! [`handle_tool_call`](crate::handle_tool_call): an unchecked call never reaches a handler
//! (a turn is only run by the registry whose gate checked it), and a handler runs at most
//! once per call. Nothing asks the model here: the refused calls are answered with their
//! rejections, and the model's corrections come in its next turn (see [`Session`](super::Session)).

use super::{Answers, Turn, TurnError};
use crate::registry::{Outcome, Registry};
use crate::rejection::Rejection;

impl Registry {
    /// Checks a whole assistant turn (see [`Gate::check_turn`](crate::Gate::check_turn)),
    /// runs each accepted call's handler once, and returns one [`Outcome`] per call, in call
    /// order: [`result_message`](super::result_message) turns them into the next request's
    /// message. Handlers run one after another; a caller that wants them concurrent (or
    /// async) uses `check_turn` and [`Answers`] instead.
    ///
    /// For a conversation, [`Session::handle_turn`](super::Session::handle_turn) does the same and also links each refused
    /// call to its correction in the next turn, counts, and keeps the guard.
    ///
    /// # Errors
    /// The [`TurnError`] of a text that cannot be read as a turn at all (nothing ran).
    pub fn handle_turn(&self, raw: &str) -> Result<Vec<Outcome>, TurnError> {
        let turn = self.gate().check_turn(raw)?;
        Ok(self.run_turn(&turn))
    }

    /// Runs the accepted calls of a turn this registry's gate checked: one outcome per call,
    /// in call order, each carrying the rejection it corrects when a [`Session`](super::Session) linked one.
    ///
    /// Crate-private so that a turn checked by another gate (other specs) can never reach
    /// these handlers.
    pub(crate) fn run_turn(&self, turn: &Turn<'_>) -> Vec<Outcome> {
        let mut answers = Answers::new(turn);
        for (index, call) in turn.accepted() {
            let outcome = match self.gate().check_name(call) {
                // The rejection this call corrects is set after the run, not passed in: in a
                // turn the call answers with its own id, never the refused call's, which was
                // answered in the previous turn's message.
                Ok((spec_index, _)) => self.dispatch(spec_index, call, None),
                Err(rejection) => rejected(rejection),
            };
            let first = turn.calls.get(index).and_then(|call| call.corrects.clone());
            answers.set(index, with_first_rejection(outcome, first));
        }
        // Every accepted call has its outcome now, so nothing is unanswered.
        answers.into_outcomes().unwrap_or_default()
    }
}

/// The outcome of a call the gate checked but the registry cannot find (not reachable: the
/// turn was checked by this registry's own gate).
fn rejected(rejection: Rejection) -> Outcome {
    Outcome::Rejected {
        id: rejection.id().map(String::from),
        error: rejection,
        first_rejection: None,
    }
}

/// `outcome`, marked as the correction of `first` (when there is one).
fn with_first_rejection(mut outcome: Outcome, first: Option<Box<Rejection>>) -> Outcome {
    *outcome.first_rejection_mut() = first;
    outcome
}
