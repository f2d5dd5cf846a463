//! [`Answers`]: the outputs of a turn's accepted calls, handed back by whoever ran them (by
//! position or id, in any order), so a caller with async handlers builds the result message
//! without being called back.

use super::{result_message, Turn};
use crate::json::Value;
use crate::registry::Outcome;
use crate::spec::Provider;
use std::fmt;

/// One answer per call of a turn, filled in as the accepted calls finish.
///
/// ```
/// use toolgate::{Answers, Gate, ToolSpec, Type};
/// use toolgate::spec::Provider;
///
/// let gate = Gate::new(vec![ToolSpec::new("get_weather", "Current weather.")
///     .required("city", Type::string())
///     .build()?])?;
/// let turn = gate.check_turn(r#"[
///     {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}},
///     {"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":7}}]"#)?;
/// let mut answers = Answers::new(&turn);
/// // Run the accepted calls anywhere (an async runtime, a worker pool), then hand back.
/// for (index, call) in turn.accepted() {
///     assert_eq!(call.id.as_deref(), Some("toolu_1"));
///     answers.answer(index, Ok("Oslo: sunny".into()))?;
/// }
/// assert_eq!(
///     answers.result_message(Provider::Anthropic)?.to_string(),
///     r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"Oslo: sunny"},{"type":"tool_result","tool_use_id":"toolu_2","content":"get_weather rejected: city must be a string; received 7.","is_error":true}]}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Answers {
    /// One per call, in call order.
    slots: Vec<Slot>,
}

/// A call's answer, or what is needed to make one.
#[derive(Clone, Debug, PartialEq)]
enum Slot {
    /// Refused, or accepted and answered.
    Done(Outcome),
    /// Accepted, waiting for its output.
    Waiting {
        id: Option<String>,
        tool: String,
        first_rejection: Option<Box<crate::Rejection>>,
    },
}

/// An answer that cannot be taken, or a result message that cannot be built yet.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerError {
    /// There is no call at this position.
    NoSuchCall {
        /// The position given.
        index: usize,
        /// How many calls the turn has.
        calls: usize,
    },
    /// No accepted call has this id.
    UnknownId {
        /// The id given.
        id: String,
    },
    /// The call was refused: its answer is its rejection, and nothing may run for it.
    Refused {
        /// Its position.
        index: usize,
    },
    /// The call has its answer already; each is answered exactly once.
    AlreadyAnswered {
        /// Its position.
        index: usize,
    },
    /// An accepted call has no answer yet: the result message must answer every call.
    Unanswered {
        /// Its position.
        index: usize,
        /// Its id, when it has one.
        id: Option<String>,
        /// Its tool.
        tool: String,
    },
}

impl Answers {
    /// The answers of `turn`: refused calls answered with their rejections, accepted calls
    /// waiting.
    pub fn new(turn: &Turn<'_>) -> Answers {
        let slots = turn
            .calls
            .iter()
            .map(|call| match &call.verdict {
                Ok(checked) => Slot::Waiting {
                    id: checked.id.as_deref().map(String::from),
                    tool: checked.name.clone().into_owned(),
                    first_rejection: call.corrects.clone(),
                },
                Err(rejection) => {
                    Slot::Done(Outcome::refused(rejection.clone(), call.corrects.clone()))
                }
            })
            .collect();
        Answers { slots }
    }

    /// Hands back the output of the accepted call at `index` in [`Turn::calls`]: `Ok` is
    /// the tool's output, `Err` its failure.
    ///
    /// # Errors
    /// [`AnswerError::NoSuchCall`], [`AnswerError::Refused`] or
    /// [`AnswerError::AlreadyAnswered`]; the answers are unchanged.
    pub fn answer(
        &mut self,
        index: usize,
        result: Result<String, String>,
    ) -> Result<(), AnswerError> {
        let calls = self.slots.len();
        let slot = self
            .slots
            .get_mut(index)
            .ok_or(AnswerError::NoSuchCall { index, calls })?;
        let Slot::Waiting {
            id,
            tool,
            first_rejection,
        } = slot
        else {
            return Err(match slot {
                Slot::Done(Outcome::Rejected { .. }) => AnswerError::Refused { index },
                _ => AnswerError::AlreadyAnswered { index },
            });
        };
        let (id, tool, first) = (id.take(), std::mem::take(tool), first_rejection.take());
        *slot = Slot::Done(Outcome::ran(id, tool, result, false, first));
        Ok(())
    }

    /// Hands back the output of the accepted call with this id: the first one not yet
    /// answered, when a turn (wrongly) gives one id to several calls.
    ///
    /// # Errors
    /// [`AnswerError::UnknownId`] when no accepted call has this id, and
    /// [`AnswerError::AlreadyAnswered`] when every one that has it is answered.
    pub fn answer_id(
        &mut self,
        id: &str,
        result: Result<String, String>,
    ) -> Result<(), AnswerError> {
        let accepted_with_id = |slot: &Slot| match slot {
            Slot::Waiting { id: own, .. } => own.as_deref() == Some(id),
            Slot::Done(outcome) => {
                !matches!(outcome, Outcome::Rejected { .. }) && outcome.id() == Some(id)
            }
        };
        let waiting = self
            .slots
            .iter()
            .position(|slot| matches!(slot, Slot::Waiting { .. }) && accepted_with_id(slot));
        match (waiting, self.slots.iter().rposition(accepted_with_id)) {
            (Some(index), _) => self.answer(index, result),
            (None, Some(index)) => Err(AnswerError::AlreadyAnswered { index }),
            (None, None) => Err(AnswerError::UnknownId { id: id.to_owned() }),
        }
    }

    /// The positions of the accepted calls still waiting for their output, in order.
    pub fn unanswered(&self) -> impl Iterator<Item = usize> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| matches!(slot, Slot::Waiting { .. }))
            .map(|(index, _)| index)
    }

    /// One outcome per call, in call order.
    ///
    /// # Errors
    /// [`AnswerError::Unanswered`] for the first accepted call without its output.
    pub fn into_outcomes(self) -> Result<Vec<Outcome>, AnswerError> {
        self.slots.into_iter().enumerate().map(Slot::done).collect()
    }

    /// The provider's result message answering every call of the turn, in order (see
    /// [`result_message`]).
    ///
    /// # Errors
    /// [`AnswerError::Unanswered`] for the first accepted call without its output: the
    /// provider would refuse a message missing an answer.
    pub fn result_message(&self, provider: Provider) -> Result<Value<'static>, AnswerError> {
        let outcomes = self.clone().into_outcomes()?;
        Ok(result_message(&outcomes, provider))
    }

    /// Sets the outcome of the call at `index` (the registry's dispatch).
    pub(crate) fn set(&mut self, index: usize, outcome: Outcome) {
        if let Some(slot) = self.slots.get_mut(index) {
            *slot = Slot::Done(outcome);
        }
    }
}

impl Slot {
    /// The outcome of the call at `index`, or why it has none yet.
    fn done((index, slot): (usize, Slot)) -> Result<Outcome, AnswerError> {
        match slot {
            Slot::Done(outcome) => Ok(outcome),
            Slot::Waiting { id, tool, .. } => Err(AnswerError::Unanswered { index, id, tool }),
        }
    }
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::NoSuchCall { index, calls } => write!(
                f,
                "there is no call {index}: the turn has {calls} (counted from 0)"
            ),
            AnswerError::UnknownId { id } => {
                write!(
                    f,
                    "no accepted call of the turn has the id '{}'",
                    id.escape_debug()
                )
            }
            AnswerError::Refused { index } => write!(
                f,
                "call {index} was refused: its answer is its rejection, and nothing may run for it"
            ),
            AnswerError::AlreadyAnswered { index } => write!(
                f,
                "call {index} is answered already; each call is answered exactly once"
            ),
            AnswerError::Unanswered { index, id, tool } => {
                write!(f, "call {index} ({tool}")?;
                if let Some(id) = id {
                    write!(f, ", id '{}'", id.escape_debug())?;
                }
                write!(
                    f,
                    ") has no answer yet; the result message must answer every call of the turn"
                )
            }
        }
    }
}

impl std::error::Error for AnswerError {}
