//! Running a checked turn through the registry: each accepted call's handler once, in call
//! order, panics caught. Nothing asks the model: corrections come in its next turn.

use super::{Answers, Turn, TurnError};
use crate::registry::{Outcome, Registry};

impl Registry {
    /// Checks a whole assistant turn ([`Gate::check_turn`](crate::Gate::check_turn)), runs
    /// each accepted call's handler once, one after another, and returns one [`Outcome`] per
    /// call, in call order, for [`result_message`](super::result_message). For concurrent
    /// handlers, use `check_turn` and [`Answers`]; for a conversation,
    /// [`Session::handle_turn`](super::Session::handle_turn).
    ///
    /// # Errors
    /// The [`TurnError`] of a text that cannot be read as a turn at all (nothing ran).
    pub fn handle_turn(&self, raw: &str) -> Result<Vec<Outcome>, TurnError> {
        let turn = self.gate().check_turn(raw)?;
        Ok(self.run_turn(&turn))
    }

    /// Runs the accepted calls of a turn this registry's gate checked (crate-private, so a
    /// turn checked against other specs never reaches these handlers).
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
