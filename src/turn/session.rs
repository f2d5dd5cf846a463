//! [`Session`]: one conversation, turn by turn: each refused call linked to its correction in
//! the next turn (the retry, which cannot be a callback since the whole turn must be answered
//! first), the guard kept per turn, every call counted once.
//!
//! A refused call is corrected by the first free call to the same tool in the very next turn,
//! refused calls taking theirs in call order; an unknown tool, else by a call to one of the
//! names it suggested. A call whose name could not be read is never linked, and ids never link
//! (every call gets a new one). Each refusal has at most one correction, and a refused
//! correction is final. A refusal nothing corrects is counted when the next turn shows it (or
//! at [`Session::end`]). When the guard trips ([`Guard::record_turn`]), nothing of that turn
//! runs: no next request would read its results.

use super::{AnswerError, Answers, Turn, TurnError};
use crate::counters::{Counters, Counts};
use crate::gate::Gate;
use crate::guard::{Guard, Unrecoverable};
use crate::registry::{Outcome, Registry};
use crate::rejection::Rejection;
use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::sync::Arc;

/// One conversation's turns: retry links, the guard and the counters.
///
/// ```
/// use toolgate::{Registry, Session, ToolSpec, Type};
///
/// let mut registry = Registry::new();
/// let refund = ToolSpec::new("issue_refund", "Refund, in cents.")
///     .required("amount_cents", Type::integer().min(1).max(50000));
/// registry.register(refund.build()?, |_| Ok("refunded".into()))?;
/// let mut session = Session::default();
///
/// // Turn 1: the amount is a string; the result message tells the model why.
/// let first = r#"[{"type":"tool_use","id":"toolu_1","name":"issue_refund","input":{"amount_cents":"1999"}}]"#;
/// let outcomes = session.handle_turn(&registry, first)?;
/// assert!(outcomes[0].is_error());
/// // Turn 2: the model's correction, a new call with a new id, linked to the refused one.
/// let second = r#"[{"type":"tool_use","id":"toolu_2","name":"issue_refund","input":{"amount_cents":1999}}]"#;
/// let outcomes = session.handle_turn(&registry, second)?;
/// assert!(outcomes[0].retried() && !outcomes[0].is_error());
///
/// let counts = session.end();
/// assert_eq!((counts.calls(), counts.dispatched), (1, 1));
/// assert_eq!((counts.retries_asked, counts.retries_succeeded), (1, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Session {
    guard: Guard,
    counters: Arc<Counters>,
    /// The last turn's refused calls the next turn may correct, in order; not yet counted.
    pending: Vec<Rejection>,
}

/// Why a session's turn goes no further.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SessionError {
    /// The text is not a turn at all; nothing ran and the session is unchanged.
    Unreadable(TurnError),
    /// The guard ended the run: one tool was refused in too many turns in a row. Nothing of
    /// this turn ran; its refusals are counted as final.
    Stopped(Unrecoverable),
}

impl Default for Session {
    /// A session with the default [`Guard`] and counters of its own.
    fn default() -> Self {
        Session::new(Guard::default(), Arc::new(Counters::new()))
    }
}

impl Session {
    /// A session with this guard, counting into `counters` (which sessions may share).
    pub fn new(guard: Guard, counters: Arc<Counters>) -> Session {
        Session {
            guard,
            counters,
            pending: Vec::new(),
        }
    }

    /// The guard, with each tool's streak of refused turns.
    pub fn guard(&self) -> &Guard {
        &self.guard
    }

    /// The counters this session counts into.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The refused calls of the last turn that the next turn may still correct.
    pub fn pending(&self) -> &[Rejection] {
        &self.pending
    }

    /// Checks the model's next turn ([`Gate::check_turn`]), links each correction to the
    /// refusal it corrects, and records the turn in the guard. Run its accepted calls, then
    /// hand their outputs to [`Session::finish_turn`].
    ///
    /// # Errors
    /// [`SessionError::Unreadable`] (nothing changed) or [`SessionError::Stopped`] (the
    /// turn's refusals are counted, nothing is pending).
    pub fn check_turn<'a>(&mut self, gate: &Gate, raw: &'a str) -> Result<Turn<'a>, SessionError> {
        let mut turn = gate.check_turn(raw).map_err(SessionError::Unreadable)?;
        let pending = std::mem::take(&mut self.pending);
        let links = link(&pending, &turn);
        for (rejection, link) in pending.into_iter().zip(links) {
            match link.and_then(|index| turn.calls.get_mut(index)) {
                Some(correction) => correction.corrects = Some(Box::new(rejection)),
                None => self.counters.record(&Outcome::refused(rejection, None)),
            }
        }
        // A refused correction is final (a call is retried at most once); the other refusals
        // wait for the next turn.
        self.pending = turn
            .calls
            .iter()
            .filter(|call| call.corrects.is_none())
            .filter_map(|call| call.verdict.as_ref().err().cloned())
            .collect();
        let verdicts = turn.calls.iter().map(|call| match &call.verdict {
            Ok(checked) => Ok(&*checked.name),
            Err(rejection) => Err(rejection),
        });
        if let Err(stop) = self.guard.record_turn(verdicts) {
            // Every refusal of the turn is final now. A correction that passed never runs,
            // so the call it corrects ends refused, without a retry that ran.
            self.pending.clear();
            for call in &turn.calls {
                let outcome = match (&call.verdict, &call.corrects) {
                    (Err(rejection), corrects) => {
                        Outcome::refused(rejection.clone(), corrects.clone())
                    }
                    (Ok(_), Some(first)) => Outcome::refused((**first).clone(), None),
                    (Ok(_), None) => continue,
                };
                self.counters.record(&outcome);
            }
            return Err(SessionError::Stopped(stop));
        }
        Ok(turn)
    }

    /// Counts the answers to the last turn checked and returns one outcome per call, in
    /// order, for [`result_message`](super::result_message).
    ///
    /// # Errors
    /// [`AnswerError::Unanswered`]; nothing is counted.
    pub fn finish_turn(&mut self, answers: Answers) -> Result<Vec<Outcome>, AnswerError> {
        let outcomes = answers.into_outcomes()?;
        self.count(&outcomes);
        Ok(outcomes)
    }

    /// [`Session::check_turn`], the accepted calls run through `registry`, then
    /// [`Session::finish_turn`].
    ///
    /// # Errors
    /// As [`Session::check_turn`].
    pub fn handle_turn(
        &mut self,
        registry: &Registry,
        raw: &str,
    ) -> Result<Vec<Outcome>, SessionError> {
        let turn = self.check_turn(registry.gate(), raw)?;
        let outcomes = registry.run_turn(&turn);
        self.count(&outcomes);
        Ok(outcomes)
    }

    /// Ends the conversation: the pending refusals count as rejected without a retry.
    pub fn end(self) -> Counts {
        for rejection in self.pending {
            self.counters.record(&Outcome::refused(rejection, None));
        }
        self.counters.snapshot()
    }

    /// Counts a turn's outcomes, except the refusals still pending.
    fn count(&self, outcomes: &[Outcome]) {
        for outcome in outcomes {
            let pending = matches!(
                outcome,
                Outcome::Rejected {
                    first_rejection: None,
                    ..
                }
            );
            if !pending {
                self.counters.record(outcome);
            }
        }
    }
}

/// For each refused call of the previous turn, the position in `turn` of its correction
/// (the rule is in the module docs): same names first, then suggested names.
fn link(pending: &[Rejection], turn: &Turn<'_>) -> Vec<Option<usize>> {
    // The free calls of this turn by tool name, in call order; a link takes the front one.
    let mut free: BTreeMap<&str, VecDeque<usize>> = BTreeMap::new();
    for (index, call) in turn.calls.iter().enumerate() {
        if let Some(tool) = call.tool() {
            free.entry(tool).or_default().push_back(index);
        }
    }
    let mut links: Vec<Option<usize>> = pending
        .iter()
        .map(|rejection| {
            let tool = rejection.tool()?;
            free.get_mut(tool).and_then(VecDeque::pop_front)
        })
        .collect();
    for (rejection, link) in pending.iter().zip(links.iter_mut()) {
        let Rejection::UnknownTool { closest, .. } = rejection else {
            continue;
        };
        if link.is_some() {
            continue;
        }
        let earliest = closest
            .iter()
            .filter_map(|name| {
                let front = free.get(name.as_str()).and_then(|queue| queue.front());
                front.map(|index| (*index, name.as_str()))
            })
            .min();
        if let Some((_, name)) = earliest {
            *link = free.get_mut(name).and_then(VecDeque::pop_front);
        }
    }
    links
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Unreadable(error) => error.fmt(f),
            SessionError::Stopped(stop) => stop.fmt(f),
        }
    }
}

impl std::error::Error for SessionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SessionError::Unreadable(error) => Some(error),
            SessionError::Stopped(stop) => Some(stop),
        }
    }
}
