//! Running a checked turn through the registry: each accepted call's handler once, in call
//! order, panics caught. Nothing asks the model: corrections come in its next turn.

use super::{Answers, Turn, TurnError};
use crate::registry::{Outcome, Registry};

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
            // The rejection this call corrects is set after the run, not passed in: in a turn
            // the call answers with its own id (the refused call's was answered already).
            let mut outcome = match self.gate().check_name(call) {
                Ok((spec_index, _)) => self.dispatch(spec_index, call, None),
                Err(rejection) => Outcome::refused(rejection, None),
            };
            *outcome.first_rejection_mut() = turn.calls.get(index).and_then(|c| c.corrects.clone());
            answers.set(index, outcome);
        }
        // Every accepted call has its outcome now, so nothing is unanswered.
        answers.into_outcomes().unwrap_or_default()
    }
}
