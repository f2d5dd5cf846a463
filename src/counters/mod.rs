//! Counters: what became of every call, by cause, from many threads. Rejections point at
//! our declarations, tool failures at a dependency, retries at the quality of the answers.
//! Calls count once by final outcome; every rejection the gate made counts by kind, including
//! one the retry fixed. Relaxed, saturating `AtomicU64` adds: the tallies are independent.
//! The same counts per tool sit behind one lock, taken once per call recorded.
//!
//! [`Counts::prometheus`] writes them in the text format monitoring systems scrape
//! (`prometheus.rs`), so a fleet of agent workers is added up by the system already in place.

mod prometheus;

use crate::registry::Outcome;
use crate::rejection::{Rejection, RejectionKind};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// Number of rejection kinds, the length of the per-kind arrays.
const N_KINDS: usize = RejectionKind::ALL.len();

/// Live tallies of outcomes; share one by reference (or in an `Arc`) between threads.
///
/// ```
/// use toolgate::{Counters, Gate, Outcome};
///
/// let gate = Gate::from_tools_json(r#"[{"name": "get_order", "input_schema": {"type": "object"}}]"#)?;
/// let typo = r#"{"name": "get_ordr", "arguments": {}}"#;
/// let counters = Counters::new();
/// // The model's typo was refused, and its corrected call ran.
/// counters.record(&Outcome::Dispatched {
///     id: Some("toolu_1".into()),
///     tool: "get_order".into(),
///     output: "shipped".into(),
///     first_rejection: Some(Box::new(gate.check_call(typo).unwrap_err())),
/// });
/// let counts = counters.snapshot();
/// assert_eq!(counts.dispatched, 1);
/// assert_eq!((counts.retries_asked, counts.retries_succeeded), (1, 1));
/// assert_eq!(counts.rejected_by(gate.check_call(typo).unwrap_err().kind()), 1);
/// println!("{counts}"); // a table of counts and rates
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Counters {
    dispatched: AtomicU64,
    tool_failed: AtomicU64,
    /// Calls that ended refused.
    rejected_calls: AtomicU64,
    /// Rejections the gate made, one counter per kind, in [`RejectionKind::ALL`] order.
    rejected: [AtomicU64; N_KINDS],
    retries_asked: AtomicU64,
    retries_succeeded: AtomicU64,
    /// The same per tool, for the calls whose name the gate found registered.
    tools: Mutex<BTreeMap<String, ToolCounts>>,
}

/// The counts at one moment: plain numbers, with a `Display` table of counts and rates.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Counts {
    /// Calls that passed the gate and whose tool returned output.
    pub dispatched: u64,
    /// Calls that passed the gate and whose tool failed (returned an error or panicked).
    pub tool_failed: u64,
    /// Calls that ended refused (with their retry, when one was asked). Nothing ran.
    pub rejected_calls: u64,
    /// Rejections the gate made, per kind in [`RejectionKind::ALL`] order, including those
    /// a retry fixed: a share of [`Counts::decisions`], not of calls.
    pub rejected: [u64; N_KINDS],
    /// Calls for which the model was asked once for a corrected call.
    pub retries_asked: u64,
    /// Of those, the corrected calls that passed the gate (dispatched or tool failed).
    pub retries_succeeded: u64,
    /// Per tool, by name, for the calls and rejections whose name the gate found registered
    /// (it passed gate 1): an unknown or unreadable name is a made-up one, so it counts only
    /// in the totals above, and the tool labels stay the registry's.
    pub tools: BTreeMap<String, ToolCounts>,
}

/// One tool's counts: its calls by final outcome and the rejections of its calls by kind
/// (only the kinds a registered name can get: `arguments_not_object`, `schema_violation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolCounts {
    /// Calls that passed the gate and whose tool returned output.
    pub dispatched: u64,
    /// Calls that passed the gate and whose tool failed.
    pub tool_failed: u64,
    /// Calls that ended refused after their name passed gate 1.
    pub rejected_calls: u64,
    /// Rejections of this tool's calls, per kind in [`RejectionKind::ALL`] order.
    pub rejected: [u64; N_KINDS],
}

impl Counters {
    /// All counts at zero.
    pub fn new() -> Counters {
        Counters::default()
    }

    /// Records what became of one call: once by its final outcome, and each of its
    /// [`Outcome::rejections`] by kind; a retried call in `retries_asked`, and in
    /// `retries_succeeded` when the corrected call passed.
    pub fn record(&self, outcome: &Outcome) {
        for rejection in outcome.rejections() {
            self.count_kind(rejection.kind());
        }
        let (counter, passed) = match outcome {
            Outcome::Dispatched { .. } => (&self.dispatched, true),
            Outcome::ToolFailed { .. } => (&self.tool_failed, true),
            Outcome::Rejected { .. } => (&self.rejected_calls, false),
        };
        bump(counter);
        if outcome.retried() {
            bump(&self.retries_asked);
            if passed {
                bump(&self.retries_succeeded);
            }
        }
        self.count_tools(outcome);
    }

    /// Records one call refused with this kind, no retry asked (for loops that call
    /// [`Gate::check_call`](crate::gate::Gate::check_call) themselves). Without the rejection
    /// its tool is not known: record an [`Outcome::Rejected`] to count it per tool too.
    pub fn record_rejection(&self, kind: RejectionKind) {
        self.count_kind(kind);
        bump(&self.rejected_calls);
    }

    /// Counts an outcome under its tool: the final outcome once, each rejection by kind,
    /// when the gate found the name registered.
    fn count_tools(&self, outcome: &Outcome) {
        for rejection in outcome.rejections() {
            if let Some(tool) = registered_tool(rejection) {
                self.with_tool(tool, |counts| add_kind(counts, rejection.kind()));
            }
        }
        let (tool, field): (Option<&str>, fn(&mut ToolCounts) -> &mut u64) = match outcome {
            Outcome::Dispatched { tool, .. } => (Some(tool), |counts| &mut counts.dispatched),
            Outcome::ToolFailed { tool, .. } => (Some(tool), |counts| &mut counts.tool_failed),
            Outcome::Rejected { error, .. } => {
                (registered_tool(error), |counts| &mut counts.rejected_calls)
            }
        };
        if let Some(tool) = tool {
            self.with_tool(tool, |counts| add(field(counts)));
        }
    }

    /// Runs `change` on `tool`'s counts under the lock (a panic elsewhere while it was held
    /// left whole numbers behind, so a poisoned lock is used as is).
    fn with_tool(&self, tool: &str, change: impl FnOnce(&mut ToolCounts)) {
        let mut tools = self.tools.lock().unwrap_or_else(PoisonError::into_inner);
        match tools.get_mut(tool) {
            Some(counts) => change(counts),
            None => change(tools.entry(tool.to_owned()).or_default()),
        }
    }

    /// Counts one rejection of `kind` (a gate decision, not a call).
    fn count_kind(&self, kind: RejectionKind) {
        if let Some(counter) = self.rejected.get(kind as usize) {
            bump(counter);
        }
    }

    /// Reads every counter once.
    pub fn snapshot(&self) -> Counts {
        let mut rejected = [0; N_KINDS];
        for (count, counter) in rejected.iter_mut().zip(&self.rejected) {
            *count = counter.load(Ordering::Relaxed);
        }
        Counts {
            dispatched: self.dispatched.load(Ordering::Relaxed),
            tool_failed: self.tool_failed.load(Ordering::Relaxed),
            rejected_calls: self.rejected_calls.load(Ordering::Relaxed),
            rejected,
            retries_asked: self.retries_asked.load(Ordering::Relaxed),
            retries_succeeded: self.retries_succeeded.load(Ordering::Relaxed),
            tools: self
                .tools
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
        }
    }
}

/// The tool a rejection counts under: its name when the gate found it registered, which the
/// kinds past gate 1 say.
fn registered_tool(rejection: &Rejection) -> Option<&str> {
    match rejection.kind() {
        RejectionKind::ArgumentsNotObject | RejectionKind::SchemaViolation => rejection.tool(),
        _ => None,
    }
}

/// Adds one to a plain count, saturating.
fn add(count: &mut u64) {
    *count = count.saturating_add(1);
}

/// Adds one to a tool's count of `kind`.
fn add_kind(counts: &mut ToolCounts, kind: RejectionKind) {
    if let Some(count) = counts.rejected.get_mut(kind as usize) {
        add(count);
    }
}

impl Counts {
    /// Every call recorded, each once: dispatched, tool failed and rejected (saturating).
    pub fn calls(&self) -> u64 {
        self.dispatched
            .saturating_add(self.tool_failed)
            .saturating_add(self.rejected_calls)
    }

    /// Gate decisions: one per call and one more per retry asked (saturating).
    pub fn decisions(&self) -> u64 {
        self.calls().saturating_add(self.retries_asked)
    }

    /// Rejections the gate made, all kinds together (saturating).
    pub fn rejected_total(&self) -> u64 {
        self.rejected
            .iter()
            .fold(0u64, |total, count| total.saturating_add(*count))
    }

    /// Rejections the gate made with this kind.
    pub fn rejected_by(&self, kind: RejectionKind) -> u64 {
        self.rejected.get(kind as usize).copied().unwrap_or(0)
    }
}

impl fmt::Display for Counts {
    /// A table of calls and gate decisions with their rates (`-` when nothing was counted);
    /// the footer says which rate is a share of what.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let calls = self.calls();
        let decisions = self.decisions();
        writeln!(f, "{:<24}{:>10}{:>9}", "outcome", "count", "rate")?;
        writeln!(f, "{:<24}{calls:>10}", "calls")?;
        row(f, "dispatched", self.dispatched, calls)?;
        row(f, "tool failed", self.tool_failed, calls)?;
        row(f, "rejected", self.rejected_calls, calls)?;
        row(f, "retries asked", self.retries_asked, calls)?;
        row(
            f,
            "retries succeeded",
            self.retries_succeeded,
            self.retries_asked,
        )?;
        writeln!(f, "{:<24}{decisions:>10}", "gate decisions")?;
        row(f, "rejections", self.rejected_total(), decisions)?;
        for kind in RejectionKind::ALL {
            row(
                f,
                &format!("  {}", kind.label()),
                self.rejected_by(kind),
                decisions,
            )?;
        }
        write!(
            f,
            "(rates: dispatched, tool failed, rejected and retries asked are shares of calls;\n \
             retries succeeded, of retries asked; rejections, of gate decisions: one per call,\n \
             one per retry, so a refusal the retry fixed still counts by its kind)"
        )
    }
}

/// Adds one, saturating at `u64::MAX` instead of wrapping.
fn bump(counter: &AtomicU64) {
    let _ = counter.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_add(1));
}

/// One table row: label, count and `count / total` as a percentage with one decimal, or
/// `-` when `total` is zero.
fn row(f: &mut fmt::Formatter<'_>, label: &str, count: u64, total: u64) -> fmt::Result {
    // Precision loss above 2^53 calls does not matter for a one-decimal percentage.
    let rate = match total {
        0 => "-".to_owned(),
        _ => format!("{:.1} %", count as f64 * 100.0 / total as f64),
    };
    writeln!(f, "{label:<24}{count:>10}{rate:>9}")
}
