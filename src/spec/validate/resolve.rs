//! The combinators (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, and the conditions of `if`,
//! `dependentRequired` and `dependentSchemas`), decided from the checks they
//! apply to the same value once it has ended; and, at any point, whether what has been read
//! is already refused whatever follows.

use super::kinds::Shape;
use super::program::{Assertion, ConditionKind, Conditional, Node, NodeId};
use super::report::{Broken, Fail};
use super::run::{rank, widen, Check, Link, SlotKind, Validation};
use crate::spec::Kinds;

/// The nodes an assertion applies to the same value, in order (none for most).
pub(super) fn parts(assertion: &Assertion) -> &[NodeId] {
    match assertion {
        Assertion::Ref(node) => std::slice::from_ref(node),
        Assertion::AllOf(nodes) | Assertion::AnyOf(nodes) | Assertion::OneOf(nodes) => nodes,
        Assertion::Not { node, .. } => std::slice::from_ref(node),
        Assertion::Conditional(conditional) => &conditional.parts,
        _ => &[],
    }
}

impl<'s, 'a> Validation<'s, 'a> {
    /// Decides check `index`'s combinators from its parts (already settled: they come
    /// later in the run), in order, stopping at the first that fails: `$ref`, `allOf`,
    /// `anyOf`, `oneOf`, `not`, `if`, `dependentRequired`, `dependentSchemas`. A check
    /// that failed a rule of its own never gets here, as a depth-first validator would
    /// return before its combinators.
    pub(super) fn combine(&mut self, index: usize, shape: Shape, ordinal: usize) {
        let Some(check) = self.checks.get(index) else {
            return;
        };
        if !check.node.applies_others || check.fail.is_some() {
            return;
        }
        let (node, mut next, mut cost) = (check.node, widen(check.edges.0), check.cost);
        let mut result = None;
        for (position, assertion) in node.assertions.iter().enumerate() {
            let ids = parts(assertion);
            let first = next;
            next += ids.len();
            let fail = match assertion {
                // Refused when a spec is built; accepts nothing.
                Assertion::DanglingRef => Some(Fail {
                    at: ordinal,
                    what: Broken::Kind(Kinds::NONE),
                }),
                Assertion::Ref(_) | Assertion::AllOf(_) => (0..ids.len()).find_map(|k| {
                    let (fail, steps) = self.part(first + k);
                    cost = cost.saturating_add(steps);
                    fail
                }),
                Assertion::AnyOf(_) | Assertion::OneOf(_) => {
                    let exactly_one = matches!(assertion, Assertion::OneOf(_));
                    let alternatives = Alternatives {
                        first,
                        ids,
                        exactly_one,
                    };
                    self.alternatives(&alternatives, shape, ordinal, &mut cost)
                }
                // Matching is the failure; failing to match passes, unless the failure
                // ends the whole validation.
                Assertion::Conditional(conditional) => {
                    self.conditional(conditional, first, ordinal, &mut cost)
                }
                Assertion::Not { .. } => {
                    let (fail, steps) = self.part(first);
                    cost = cost.saturating_add(steps);
                    match fail {
                        None => Some(Fail {
                            at: ordinal,
                            what: Broken::Keyword(assertion),
                        }),
                        Some(fail) if fail.is_fatal() => Some(fail),
                        Some(_) => None,
                    }
                }
                _ => None,
            };
            if let Some(fail) = fail {
                result = Some((position, fail));
                break;
            }
        }
        if let Some(check) = self.checks.get_mut(index) {
            check.cost = cost;
            if let Some((position, fail)) = result {
                check.record(rank(position, 0), fail);
            }
        }
    }

    /// The result and steps of the part at `edge` (a part the budget left unmade fails as
    /// too complex: the verdict is that anyway).
    fn part(&self, edge: usize) -> (Option<Fail<'s>>, u64) {
        match self
            .edges
            .get(edge)
            .and_then(|&index| self.checks.get(index))
        {
            Some(check) => (check.result(), check.cost),
            None => (
                Some(Fail {
                    at: 0,
                    what: Broken::TooComplex,
                }),
                0,
            ),
        }
    }

    /// A [`Conditional`]: the consequence its condition (at `edge`) selects, if any, must
    /// match. Only the parts a depth-first validator would check count their steps.
    fn conditional(
        &self,
        conditional: &'s Conditional,
        edge: usize,
        ordinal: usize,
        cost: &mut u64,
    ) -> Option<Fail<'s>> {
        let (condition, steps) = self.part(edge);
        *cost = cost.saturating_add(steps);
        let matched = match condition {
            Some(fail) if fail.is_fatal() => return Some(fail),
            Some(_) => false,
            None => true,
        };
        let (fail, steps) = self.part(edge + conditional.consequence(matched)?);
        *cost = cost.saturating_add(steps);
        let fail = fail?;
        let what = match (&conditional.kind, fail.what) {
            (ConditionKind::DependentRequired(trigger), Broken::Required(missing)) => {
                Broken::DependentRequired(trigger, missing)
            }
            _ => return Some(fail),
        };
        Some(Fail { at: ordinal, what })
    }

    /// `anyOf` (at least one alternative matches) or `oneOf` (exactly one does), and what
    /// to report when that fails (see the module docs of [`super`]).
    fn alternatives(
        &self,
        alternatives: &Alternatives<'_>,
        shape: Shape,
        ordinal: usize,
        cost: &mut u64,
    ) -> Option<Fail<'s>> {
        let node = |k: usize| -> &'s Node {
            self.program
                .node(alternatives.ids.get(k).copied().unwrap_or(NodeId::MAX))
        };
        let n = alternatives.ids.len();
        let mut n_matched: usize = 0;
        // Alternatives that accept the value's kind but failed, and the first one's failure.
        let mut n_kind_fits: usize = 0;
        let mut kind_fit_failure = None;
        for k in 0..n {
            let (fail, steps) = self.part(alternatives.first + k);
            *cost = cost.saturating_add(steps);
            match fail {
                None if !alternatives.exactly_one => return None,
                None => n_matched = n_matched.saturating_add(1),
                Some(fail) if fail.is_fatal() => return Some(fail),
                Some(fail) => {
                    let alternative = node(k);
                    *cost = cost.saturating_add(u64::from(alternative.explain_visits));
                    if shape.admitted_by(alternative.explain) {
                        n_kind_fits = n_kind_fits.saturating_add(1);
                        kind_fit_failure.get_or_insert(fail);
                    }
                }
            }
        }
        let what = match (n_matched, n_kind_fits, kind_fit_failure) {
            (1, _, _) => return None,
            (0, 0, _) => {
                let accepted = (0..n).fold(Kinds::NONE, |all, k| {
                    let alternative = node(k);
                    *cost = cost.saturating_add(u64::from(alternative.explain_visits));
                    all.union(alternative.explain)
                });
                Broken::Kind(accepted)
            }
            (0, 1, Some(failure)) => return Some(failure),
            (0, _, _) if alternatives.exactly_one => Broken::OneOf(n, 0),
            (0, _, _) => Broken::AnyOf(n),
            (matched, _, _) => Broken::OneOf(n, matched),
        };
        Some(Fail { at: ordinal, what })
    }

    /// True if the text so far is already refused: some violation has been found that no
    /// later input can undo (a repeated key, a wrong kind at a value's first byte, an
    /// unknown field once its key is complete, a string past `maxLength` or that can no
    /// longer be any allowed value, a bound broken…), so that no ending of the text could
    /// be accepted. Never true of a prefix that some ending makes valid; once the value
    /// has ended, true exactly when [`Validation::finish`] refuses.
    pub fn refused(&self) -> bool {
        self.refused_seeded(|_| {})
    }

    /// True if a number beginning now leaves the value refused, whatever its digits: the
    /// checks the last key asked for its value all refuse every number (by `type`, `enum` or
    /// `const`), and that decides the value as [`Validation::refused`] decides it. Only the
    /// requests of an object's key are read (an array's item asks when it begins), so this,
    /// like `refused`, is never true of a prefix some ending makes valid. The streaming
    /// check asks it while a number's token is still open, to refuse at its first byte.
    #[cfg(feature = "stream")]
    pub(crate) fn refused_if_number_next(&self) -> bool {
        self.refused_seeded(|failed| {
            for index in 0..self.requests.len() {
                let Some(request) = self.requests.get(index) else {
                    continue;
                };
                let Link::Member { parent, slot } = request.link else {
                    continue;
                };
                if slot.kind == SlotKind::Contained || !refuses_every_number(request.node) {
                    continue;
                }
                if let Some(fails) = failed.get_mut(widen(parent)) {
                    *fails = true;
                }
            }
        })
    }

    /// [`Validation::refused`], with some open checks already known to fail (`seed` marks
    /// them).
    fn refused_seeded(&self, seed: impl FnOnce(&mut [bool])) -> bool {
        if self.step1.is_some() || self.exhausted.is_some() {
            return true;
        }
        if let Some(outcome) = &self.outcome {
            return outcome.is_err();
        }
        // Which open checks have surely failed, decided from the innermost value out: a
        // check fails for sure if it has a failure, if an open member's check it asked for
        // has, or if its combinators must (a failed `$ref` or `allOf` part, every
        // alternative of an `anyOf` or `oneOf`). A member or part comes after its check.
        let n = self.checks.len();
        let mut on_stack = [false; 64];
        let mut on_heap = Vec::new();
        let failed: &mut [bool] = match on_stack.get_mut(..n) {
            Some(failed) => failed,
            None => {
                on_heap.resize(n, false);
                &mut on_heap
            }
        };
        seed(failed);
        for index in (0..n).rev() {
            let Some(check) = self.checks.get(index) else {
                continue;
            };
            let fails = failed.get(index).copied().unwrap_or(false)
                || check.fail.is_some()
                || self.parts_fail(check, failed);
            if !fails {
                continue;
            }
            match check.link {
                Link::Root => return true,
                // An item that does not match `contains` fails nothing.
                Link::Member { slot, .. } if slot.kind == SlotKind::Contained => {}
                Link::Member { parent, .. } => {
                    if let Some(slot) = failed.get_mut(widen(parent)) {
                        *slot = true;
                    }
                }
                Link::Applied => {}
            }
            if let Some(slot) = failed.get_mut(index) {
                *slot = true;
            }
        }
        false
    }

    /// True if `check`'s combinators fail for sure, given which checks surely fail.
    fn parts_fail(&self, check: &Check<'s>, failed: &[bool]) -> bool {
        if !check.node.applies_others {
            return false;
        }
        let mut next = widen(check.edges.0);
        check.node.assertions.iter().any(|assertion| {
            let n = parts(assertion).len();
            let first = next;
            next += n;
            let part_fails = |k: usize| {
                self.edges
                    .get(first + k)
                    .and_then(|&index| failed.get(index))
                    .copied()
                    .unwrap_or(true)
            };
            match assertion {
                Assertion::DanglingRef => true,
                Assertion::Ref(_) | Assertion::AllOf(_) => (0..n).any(part_fails),
                Assertion::AnyOf(_) | Assertion::OneOf(_) => (0..n).all(part_fails),
                // What `not` negates may still match or fail, and a condition may still come
                // true: decided at the value's end.
                _ => false,
            }
        })
    }
}

/// The alternatives of one `anyOf` or `oneOf`: their nodes, and where their checks' edges
/// start.
struct Alternatives<'p> {
    first: usize,
    ids: &'p [NodeId],
    exactly_one: bool,
}

/// True if `node` refuses every number, whatever its digits.
#[cfg(feature = "stream")]
pub(super) fn refuses_every_number(node: &Node) -> bool {
    node.assertions.iter().any(|assertion| match assertion {
        Assertion::Type(kinds) => {
            !Shape::Integer.admitted_by(*kinds) && !Shape::Fraction.admitted_by(*kinds)
        }
        Assertion::Enum(choices) | Assertion::Const(choices) => !choices.allows_some_number(),
        _ => false,
    })
}
