//! The rejection guard: stops an agent loop whose model keeps sending calls the gate refuses,
//! at a point someone can diagnose, instead of burning its budget.
//!
//! It counts rejections in a row *per tool*: failing at A, succeeding at B and failing at A
//! again is exploring, so only A's success ends A's streak. A tool failure is a success (the
//! call was right). Calls with no readable name share one key. Any success ends the unreadable
//! and unknown-name streaks (the model can reach a tool). Once tripped, a key stays tripped
//! until a success. One [`Outcome`] of `handle_tool_call` (call and retry) is one step, and so
//! is one turn per tool ([`Guard::record_turn`]).

use crate::registry::Outcome;
use crate::rejection::{Rejection, RejectionKind};
use crate::spec::names::Quoted;
use std::collections::BTreeMap;
use std::fmt;

/// Consecutive rejections per tool name, for one agent run.
///
/// ```
/// use toolgate::{Gate, Guard};
///
/// let gate = Gate::from_tools_json(
///     r#"[{"name": "get_order", "input_schema": {"type": "object",
///          "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}]"#,
/// )
/// .unwrap();
/// let mut guard = Guard::new(2);
///
/// let missing = gate.check_call(r#"{"name": "get_order", "arguments": {}}"#).unwrap_err();
/// assert!(guard.record_rejection(&missing).is_ok()); // 1 in a row: keep going
/// let stuck = guard.record_rejection(&missing).unwrap_err(); // 2 in a row: stop
/// assert_eq!(stuck.tool.as_deref(), Some("get_order"));
///
/// guard.record_success("get_order"); // a dispatched call ends the streak
/// assert_eq!(guard.streak(Some("get_order")), 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    /// Rejections in a row that stop the run; at least 1.
    limit: u32,
    /// Streaks by tool name (ordered, so [`Guard::streaks`] is deterministic).
    named: BTreeMap<String, Streak>,
    /// Rejections in a row of calls whose tool name could not be read.
    unreadable: u32,
}

/// The run must stop: one tool's calls were refused `rejections` times in a row.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Unrecoverable {
    /// The tool name the refused calls used; `None` when no name could be read.
    pub tool: Option<String>,
    /// Rejections in a row for that key, this one included (at least the guard's limit).
    pub rejections: u32,
    /// The last rejection: what the model was told last.
    pub last: Box<Rejection>,
}

/// One key's streak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Streak {
    /// Rejections in a row.
    count: u32,
    /// The last rejection was `unknown_tool`: any success ends this streak.
    unknown: bool,
}

impl Default for Guard {
    /// A guard with [`Guard::DEFAULT_LIMIT`].
    fn default() -> Self {
        Guard::new(Guard::DEFAULT_LIMIT)
    }
}

impl Guard {
    /// The default limit: the third rejection in a row for one tool stops the run.
    pub const DEFAULT_LIMIT: u32 = 3;

    /// A guard that stops the run at the `limit`th rejection in a row for one tool (0 is
    /// taken as 1: a guard that never trips is no guard).
    pub fn new(limit: u32) -> Guard {
        Guard {
            limit: limit.max(1),
            named: BTreeMap::new(),
            unreadable: 0,
        }
    }

    /// Rejections in a row that stop the run.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Records what became of one call from
    /// [`handle_tool_call`](crate::registry::handle_tool_call): a dispatched or failed call
    /// is a success of its tool, a rejected one one step (its first rejection is not
    /// counted again).
    ///
    /// # Errors
    /// [`Unrecoverable`] when a rejection makes its key's streak reach the limit.
    pub fn record(&mut self, outcome: &Outcome) -> Result<(), Unrecoverable> {
        match outcome {
            Outcome::Dispatched { tool, .. } | Outcome::ToolFailed { tool, .. } => {
                self.record_success(tool);
                Ok(())
            }
            Outcome::Rejected { error, .. } => self.record_rejection(error),
        }
    }

    /// Records a refused call, under [`Rejection::tool`] or the shared unreadable key.
    ///
    /// # Errors
    /// [`Unrecoverable`] when this rejection makes its key's streak reach the limit.
    pub fn record_rejection(&mut self, rejection: &Rejection) -> Result<(), Unrecoverable> {
        let count = match rejection.tool() {
            Some(name) => {
                let unknown = rejection.kind() == RejectionKind::UnknownTool;
                if let Some(streak) = self.named.get_mut(name) {
                    streak.count = streak.count.saturating_add(1);
                    streak.unknown = unknown;
                    streak.count
                } else {
                    self.named
                        .insert(name.to_owned(), Streak { count: 1, unknown });
                    1
                }
            }
            None => {
                self.unreadable = self.unreadable.saturating_add(1);
                self.unreadable
            }
        };
        if count >= self.limit {
            return Err(Unrecoverable {
                tool: rejection.tool().map(str::to_owned),
                rejections: count,
                last: Box::new(rejection.clone()),
            });
        }
        Ok(())
    }

    /// Records one turn: for each call in order, `Ok(tool)` if it passed, `Err(rejection)`
    /// if refused. A turn is one step per tool: three bad calls to one tool in one message
    /// are one mistake made in parallel. A tool with a passing call succeeded, and
    /// successes are recorded first.
    ///
    /// ```
    /// use toolgate::{Gate, Guard};
    ///
    /// let gate = Gate::from_tools_json(r#"[{"name": "get_order", "input_schema": {"type": "object",
    ///     "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}]"#)?;
    /// let bad = gate.check_call(r#"{"name": "get_order", "arguments": {}}"#).unwrap_err();
    /// let mut guard = Guard::default();
    /// // Three bad calls to one tool in one turn: one refused turn, not three.
    /// guard.record_turn([Err(&bad), Err(&bad), Err(&bad)])?;
    /// assert_eq!(guard.streak(Some("get_order")), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`Unrecoverable`] for the first tool, in call order, whose streak reaches the limit
    /// (every streak is recorded).
    pub fn record_turn<'r>(
        &mut self,
        calls: impl IntoIterator<Item = Result<&'r str, &'r Rejection>>,
    ) -> Result<(), Unrecoverable> {
        let mut passed: Vec<&str> = Vec::new();
        // Each key with its last refusal, in the order of its first.
        let mut refused: Vec<(Option<&str>, &Rejection)> = Vec::new();
        for call in calls {
            match call {
                Ok(tool) => passed.push(tool),
                Err(rejection) => {
                    match refused.iter_mut().find(|(key, _)| *key == rejection.tool()) {
                        Some(entry) => entry.1 = rejection,
                        None => refused.push((rejection.tool(), rejection)),
                    }
                }
            }
        }
        for tool in &passed {
            self.record_success(tool);
        }
        let mut first_stop = None;
        for (key, rejection) in refused {
            if key.is_some_and(|tool| passed.contains(&tool)) {
                continue;
            }
            if let Err(stop) = self.record_rejection(rejection) {
                first_stop.get_or_insert(stop);
            }
        }
        first_stop.map_or(Ok(()), Err)
    }

    /// Records a call to `tool` that passed the gate: ends its streak, the unreadable one
    /// and those of unknown names.
    pub fn record_success(&mut self, tool: &str) {
        self.named.remove(tool);
        self.named.retain(|_, streak| !streak.unknown);
        self.unreadable = 0;
    }

    /// Rejections in a row for `tool` (`None`: the unreadable key), 0 when none.
    pub fn streak(&self, tool: Option<&str>) -> u32 {
        match tool {
            Some(name) => self.named.get(name).map_or(0, |streak| streak.count),
            None => self.unreadable,
        }
    }

    /// Every open streak as `(tool, rejections in a row)`: the unreadable key (`None`)
    /// first, then names in byte order.
    pub fn streaks(&self) -> Vec<(Option<&str>, u32)> {
        let unreadable = (self.unreadable > 0).then_some((None, self.unreadable));
        unreadable
            .into_iter()
            .chain(
                self.named
                    .iter()
                    .map(|(name, streak)| (Some(name.as_str()), streak.count)),
            )
            .collect()
    }
}

impl fmt::Display for Unrecoverable {
    /// For the operator: the tool, how often, what the model was told last.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.tool {
            Some(tool) => write!(
                f,
                "Stopped the run: {} was rejected {} times in a row. A model that fails one \
                 spec this often rarely succeeds on the next try; check the tool's \
                 declaration. Last rejection ({}): {}",
                Quoted(tool),
                self.rejections,
                self.last.kind().label(),
                self.last
            ),
            None => write!(
                f,
                "Stopped the run: {} calls in a row could not be read as a tool call (no \
                 tool name could be read). Last rejection ({}): {}",
                self.rejections,
                self.last.kind().label(),
                self.last
            ),
        }
    }
}

impl std::error::Error for Unrecoverable {}
