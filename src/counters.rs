//! Counters: what became of every call, kept apart by cause, safe to update from many
//! threads.
//!
//! The causes are kept apart because they point at different owners. A rising rejection
//! rate (and which kind rises) points at our own tool declarations or prompts: the model
//! cannot make calls that fit them. A rising tool-failure rate points at a dependency: the
//! calls were right and the tool broke. Retries asked and retries that succeeded say whether
//! the gate's one-sentence answers are good enough for the model to act on.
//!
//! Each call counts once, by its final outcome: a call refused at first whose corrected call
//! then passed is dispatched (or tool failed), plus one retry asked and one retry that
//! succeeded; the per-kind rejection counts are of calls that ended refused. (An
//! [`Outcome`] keeps only the final verdict, so the kind of a first refusal that the retry
//! fixed is not known here; `retries asked` counts those refusals.)
//!
//! Every counter is an `AtomicU64` updated with a relaxed, saturating add: the counts are
//! independent tallies (no count is derived from another at update time), so relaxed
//! ordering loses nothing, and a counter that reaches `u64::MAX` stays there rather than
//! wrapping to zero. A [`Counts`] snapshot reads each counter once; taken while other
//! threads record, it may mix counts from just before and just after one call, and is exact
//! once they are done.

use crate::gate::RejectionKind;
use crate::registry::Outcome;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// Number of rejection kinds, the length of the per-kind arrays.
const N_KINDS: usize = RejectionKind::ALL.len();

/// Live tallies of outcomes; share one by reference (or in an `Arc`) between threads.
///
/// ```
/// use toolgate::{Counters, Outcome};
///
/// let counters = Counters::new();
/// counters.record(&Outcome::Dispatched {
///     id: Some("toolu_1".into()),
///     tool: "get_order".into(),
///     output: "shipped".into(),
///     retried: true,
/// });
/// let counts = counters.snapshot();
/// assert_eq!(counts.dispatched, 1);
/// assert_eq!((counts.retries_asked, counts.retries_succeeded), (1, 1));
/// println!("{counts}"); // a table of counts and rates
/// ```
#[derive(Debug, Default)]
pub struct Counters {
    dispatched: AtomicU64,
    tool_failed: AtomicU64,
    /// One counter per kind, in [`RejectionKind::ALL`] order.
    rejected: [AtomicU64; N_KINDS],
    retries_asked: AtomicU64,
    retries_succeeded: AtomicU64,
}

/// The counts at one moment: plain numbers, with a `Display` table of counts and rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Counts {
    /// Calls that passed the gate and whose tool returned output.
    pub dispatched: u64,
    /// Calls that passed the gate and whose tool failed (returned an error or panicked).
    pub tool_failed: u64,
    /// Calls refused (after the model's retry, if one was asked), per kind, in
    /// [`RejectionKind::ALL`] order; see [`Counts::rejected_by`].
    pub rejected: [u64; N_KINDS],
    /// Calls for which the model was asked once for a corrected call.
    pub retries_asked: u64,
    /// Of those, the corrected calls that passed the gate (dispatched or tool failed).
    pub retries_succeeded: u64,
}

impl Counters {
    /// All counts at zero.
    pub fn new() -> Counters {
        Counters::default()
    }

    /// Records what became of one call.
    ///
    /// A retried call counts once, by its final outcome, plus once in `retries_asked`; when
    /// the corrected call passed the gate it counts in `retries_succeeded` too.
    pub fn record(&self, outcome: &Outcome) {
        let (counter, retried, passed) = match outcome {
            Outcome::Dispatched { retried, .. } => (&self.dispatched, *retried, true),
            Outcome::ToolFailed { retried, .. } => (&self.tool_failed, *retried, true),
            Outcome::Rejected { error, retried, .. } => {
                self.record_rejection(error.kind());
                if *retried {
                    bump(&self.retries_asked);
                }
                return;
            }
        };
        bump(counter);
        if retried {
            bump(&self.retries_asked);
            if passed {
                bump(&self.retries_succeeded);
            }
        }
    }

    /// Records one refused call of this kind, for loops that call
    /// [`Gate::check_call`](crate::gate::Gate::check_call) themselves.
    pub fn record_rejection(&self, kind: RejectionKind) {
        if let Some(counter) = self.rejected.get(kind_index(kind)) {
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
            rejected,
            retries_asked: self.retries_asked.load(Ordering::Relaxed),
            retries_succeeded: self.retries_succeeded.load(Ordering::Relaxed),
        }
    }
}

impl Counts {
    /// Every call recorded: dispatched, tool failed and rejected (saturating).
    pub fn calls(&self) -> u64 {
        self.dispatched
            .saturating_add(self.tool_failed)
            .saturating_add(self.rejected_total())
    }

    /// Calls refused, all kinds together (saturating).
    pub fn rejected_total(&self) -> u64 {
        self.rejected
            .iter()
            .fold(0u64, |total, count| total.saturating_add(*count))
    }

    /// Calls refused with this kind.
    pub fn rejected_by(&self, kind: RejectionKind) -> u64 {
        self.rejected.get(kind_index(kind)).copied().unwrap_or(0)
    }
}

impl fmt::Display for Counts {
    /// A table: each outcome and rejection kind with its count and its share of all calls,
    /// then retries with the share that succeeded. Rates are `-` when nothing was counted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let calls = self.calls();
        writeln!(f, "{:<24}{:>10}{:>9}", "outcome", "count", "rate")?;
        writeln!(f, "{:<24}{calls:>10}", "calls")?;
        row(f, "dispatched", self.dispatched, calls)?;
        row(f, "tool failed", self.tool_failed, calls)?;
        row(f, "rejected", self.rejected_total(), calls)?;
        for kind in RejectionKind::ALL {
            row(
                f,
                &format!("  {}", kind.label()),
                self.rejected_by(kind),
                calls,
            )?;
        }
        row(f, "retries asked", self.retries_asked, calls)?;
        row(
            f,
            "retries succeeded",
            self.retries_succeeded,
            self.retries_asked,
        )?;
        write!(
            f,
            "(rates: share of calls; retries succeeded: share of retries asked)"
        )
    }
}

/// Adds one, saturating at `u64::MAX` instead of wrapping.
fn bump(counter: &AtomicU64) {
    // `fetch_update` retries on contention; `checked_add` returning `None` leaves the
    // counter at its maximum.
    let _ = counter.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_add(1));
}

/// The position of `kind` in [`RejectionKind::ALL`] (the order of the per-kind arrays).
fn kind_index(kind: RejectionKind) -> usize {
    RejectionKind::ALL
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(N_KINDS)
}

/// One table row: label, count and `count / total` as a percentage.
fn row(f: &mut fmt::Formatter<'_>, label: &str, count: u64, total: u64) -> fmt::Result {
    writeln!(f, "{label:<24}{count:>10}{:>9}", Rate(count, total))
}

/// `part / whole` as a percentage with one decimal, or `-` when `whole` is zero.
struct Rate(u64, u64);

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Rate(part, whole) = *self;
        if whole == 0 {
            return f.pad("-");
        }
        // Precision loss above 2^53 calls does not matter for a one-decimal percentage.
        let percent = part as f64 * 100.0 / whole as f64;
        f.pad(&format!("{percent:.1} %"))
    }
}
