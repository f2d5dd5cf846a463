//! `contains`, `minContains` and `maxContains`: each item of an array is also checked
//! against the `contains` schema, and the check of the array counts the items that match.
//! An item that does not match is no failure of the array; the count is judged when the
//! array ends (a streaming check therefore never refuses an array for `contains` before
//! its `]`, when a later item could still match).

use super::program::Assertion;
use super::report::{Broken, Fail};
use super::run::{widen, State, Validation};

impl<'s> Validation<'s, '_> {
    /// An item's check against `contains` has ended: a pass is one more match for the
    /// array's check `parent`. Its steps count; a failure that ends the whole validation
    /// (a limit) is kept as the array's.
    pub(super) fn contained(&mut self, parent: u32, fail: Option<Fail<'s>>, cost: u64) {
        let Some(check) = self.checks.get_mut(widen(parent)) else {
            return;
        };
        check.cost = check.cost.saturating_add(cost);
        match fail {
            None => {
                let matched = match check.state {
                    State::Contains { matched } => matched,
                    _ => 0,
                };
                check.state = State::Contains {
                    matched: matched.saturating_add(1),
                };
            }
            Some(fail) if fail.is_fatal() => check.record(0, fail),
            Some(_) => {}
        }
    }
}

/// What the `contains` assertion says of the array whose check ended in `state`: a
/// failure when fewer items matched than `minContains` (1 when not given), or more than
/// `maxContains`.
pub(super) fn breaks<'s>(assertion: &'s Assertion, state: State<'_>) -> Option<Broken<'s>> {
    let Assertion::Contains { min, max, .. } = assertion else {
        return None;
    };
    let matched = match state {
        State::Contains { matched } => matched,
        _ => 0,
    };
    let broken = matched < *min || max.is_some_and(|max| matched > max);
    broken.then_some(Broken::Contains(assertion, matched))
}
