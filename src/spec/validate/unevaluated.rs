//! `unevaluatedProperties` and `unevaluatedItems`: the members (or items) that nothing else
//! in a schema looked at must match one more schema.
//!
//! What counts as looked at (draft 2020-12's *evaluated*) is not a property of the schema
//! alone: `properties`, `patternProperties` and `additionalProperties` (for arrays
//! `prefixItems`, `items` and the items `contains` matches) evaluate members, and so do
//! those keywords in every subschema applied to the same value, but only in the subschemas
//! that match: an `anyOf` branch that fails evaluates nothing, an `if` that fails hands over
//! to `else`. So the rule is judged when the container has ended, on the container whole
//! (the validation captures it, as it does for an `enum` of objects), after every other rule
//! of the node, which is also where its violation ranks.
//!
//! Which subschemas match is asked of a validation of their own on the captured value
//! ([`accepts`]): the same rules, the same order. `$ref` and `allOf` branches count
//! without asking, because if one of them fails, the node fails by that earlier rule and
//! what they evaluated is never read. The steps those validations take count against the
//! one budget, and an `unevaluated*` inside a subschema asked this way nests one level,
//! at most [`MAX_NESTING`] deep.
//!
//! A member left unevaluated is checked against the keyword's schema, and its own first
//! violation is the one reported, at its path: with `unevaluatedProperties: false`,
//! `address.country is not allowed; received "FR"`.

use super::kinds::Shape;
use super::program::{Assertion, ConditionKind, Node, NodeId, Program};
use super::report::{count_inside, Broken, Fail};
use super::run::{rank, Validation};
use crate::json::Value;

/// How many `unevaluated*` judgments may stand inside one another (each one asks
/// validations of subschemas, which may hold one of their own); deeper, the value is
/// refused as too complex to check.
const MAX_NESTING: u32 = 16;

impl<'s> Validation<'s, '_> {
    /// True if check `index` has an `unevaluated*` rule (the node's last assertions, as
    /// the compiler places them): a test cheap enough for every container's end.
    #[inline]
    pub(super) fn judges_unevaluated(&self, index: usize) -> bool {
        self.checks.get(index).is_some_and(|check| {
            matches!(
                check.node.assertions.last(),
                Some(Assertion::UnevaluatedProperties(_) | Assertion::UnevaluatedItems(_))
            )
        })
    }

    /// Judges the `unevaluatedProperties` or `unevaluatedItems` of check `index`, once its
    /// container (whose ordinal is `ordinal`) has ended and every other rule of the check
    /// passed. The container is the capture's last value.
    pub(super) fn judge_unevaluated(&mut self, index: usize, shape: Shape, ordinal: usize) {
        let Some(check) = self.checks.get(index) else {
            return;
        };
        if check.fail.is_some() || check.settled {
            return;
        }
        let node = check.node;
        let wanted = |assertion: &Assertion| match assertion {
            Assertion::UnevaluatedProperties(_) => shape == Shape::Object,
            Assertion::UnevaluatedItems(_) => shape == Shape::Array,
            _ => false,
        };
        let Some((position, assertion)) =
            node.assertions.iter().enumerate().find(|(_, a)| wanted(a))
        else {
            return;
        };
        // A container the capture gave up on (too deep: step 1 refuses it anyway) is not
        // judged.
        let Some(value) = self.capture.as_ref().and_then(|capture| capture.last()) else {
            return;
        };
        let mut judge = Judge {
            program: self.program,
            fuel: self.budget.saturating_sub(self.steps_run),
            nesting: self.nesting,
        };
        let found = judge.first_failure(node, assertion, value, ordinal);
        let used = self
            .budget
            .saturating_sub(self.steps_run)
            .saturating_sub(judge.fuel);
        self.steps_run = self.steps_run.saturating_add(used);
        if let Some(fail) = found {
            if matches!(fail.what, Broken::TooComplex) {
                self.exhausted.get_or_insert(fail.at);
            }
            if let Some(check) = self.checks.get_mut(index) {
                check.record(rank(position, 0), fail);
            }
        }
    }
}

/// One judgment's means: the program, the steps left, and how deep it stands.
struct Judge<'s> {
    program: &'s Program,
    fuel: u32,
    nesting: u32,
}

impl<'s> Judge<'s> {
    /// The first member (or item) of `value`, the container at ordinal `at`, that `node`
    /// leaves unevaluated and that breaks `assertion`'s schema, as that member's own first
    /// failure; or the validation being too complex.
    fn first_failure(
        &mut self,
        node: &'s Node,
        assertion: &'s Assertion,
        value: &Value<'_>,
        at: usize,
    ) -> Option<Fail<'s>> {
        let too_complex = Fail {
            at,
            what: Broken::TooComplex,
        };
        if self.nesting >= MAX_NESTING {
            return Some(too_complex);
        }
        let target = match assertion {
            Assertion::UnevaluatedProperties(target) | Assertion::UnevaluatedItems(target) => {
                *target
            }
            _ => return None,
        };
        let members: Vec<&Value<'_>> = match value {
            Value::Object(members) => members.iter().map(|(_, member)| member).collect(),
            Value::Array(items) => items.iter().collect(),
            _ => return None,
        };
        let Ok(evaluated) = self.evaluated(node, assertion, value, members.len()) else {
            return Some(too_complex);
        };
        // A member's ordinal: after the container's, and after every value of the members
        // before it.
        let mut ordinal = at.saturating_add(1);
        for (member, done) in members.into_iter().zip(evaluated) {
            if !done {
                match self.validate(target, member) {
                    Ok(()) => {}
                    Err(fail) => {
                        return Some(Fail {
                            at: ordinal.saturating_add(fail.at),
                            what: fail.what,
                        })
                    }
                }
            }
            ordinal = ordinal
                .saturating_add(1)
                .saturating_add(count_inside(member));
        }
        None
    }

    /// Which of the `n` members (or items) of `value` the node evaluates, by every
    /// assertion but `judged` (the rule being judged), through the subschemas that match;
    /// `Err` when the steps run out.
    fn evaluated(
        &mut self,
        node: &'s Node,
        judged: &Assertion,
        value: &Value<'_>,
        n: usize,
    ) -> Result<Vec<bool>, ()> {
        let mut marks = vec![false; n];
        let mut work: Vec<&'s Node> = vec![node];
        while let Some(node) = work.pop() {
            if marks.iter().all(|&done| done) {
                break;
            }
            self.fuel = self.fuel.checked_sub(1).ok_or(())?;
            for assertion in &node.assertions {
                if !std::ptr::eq(assertion, judged) {
                    self.mark(assertion, value, &mut marks, &mut work)?;
                }
            }
        }
        Ok(marks)
    }

    /// What one assertion evaluates: marks members directly, or pushes on `work` the
    /// subschemas applied to the same value that match (and so evaluate too).
    fn mark(
        &mut self,
        assertion: &'s Assertion,
        value: &Value<'_>,
        marks: &mut [bool],
        work: &mut Vec<&'s Node>,
    ) -> Result<(), ()> {
        let program = self.program;
        match (assertion, value) {
            (Assertion::Object(rules), Value::Object(members)) => {
                for (done, (key, _)) in marks.iter_mut().zip(members) {
                    *done |= rules.evaluates_others
                        || rules
                            .fields
                            .iter()
                            .any(|field| field.evaluated && field.name == **key)
                        || rules
                            .patterns
                            .iter()
                            .any(|(pattern, _)| pattern.is_match(key));
                }
            }
            (Assertion::Items(_), Value::Array(_))
            | (Assertion::PrefixItems { rest: Some(_), .. }, Value::Array(_))
            | (Assertion::UnevaluatedItems(_), Value::Array(_))
            | (Assertion::UnevaluatedProperties(_), Value::Object(_)) => marks.fill(true),
            (Assertion::PrefixItems { prefix, rest: None }, Value::Array(_)) => {
                for done in marks.iter_mut().take(prefix.len()) {
                    *done = true;
                }
            }
            (Assertion::Contains { node, .. }, Value::Array(items)) => {
                for (done, item) in marks.iter_mut().zip(items) {
                    if !*done && self.matches(*node, item)? {
                        *done = true;
                    }
                }
            }
            (Assertion::Ref(part), _) => work.push(program.node(*part)),
            (Assertion::AllOf(parts), _) => work.extend(parts.iter().map(|&p| program.node(p))),
            (Assertion::AnyOf(parts) | Assertion::OneOf(parts), _) => {
                for &part in parts {
                    if self.matches(part, value)? {
                        work.push(program.node(part));
                    }
                }
            }
            // `dependentRequired` evaluates nothing; the presence test of
            // `dependentSchemas` evaluates nothing either, its schema does when it applies.
            (Assertion::Conditional(conditional), _)
                if !matches!(conditional.kind, ConditionKind::DependentRequired(_)) =>
            {
                let condition = conditional.parts.first().copied();
                let matched = match condition {
                    Some(condition) => self.matches(condition, value)?,
                    None => false,
                };
                // A matching `if` evaluates too.
                if let (true, ConditionKind::IfThenElse, Some(condition)) =
                    (matched, &conditional.kind, condition)
                {
                    work.push(program.node(condition));
                }
                let consequence = conditional.consequence(matched);
                if let Some(&part) = consequence.and_then(|i| conditional.parts.get(i)) {
                    work.push(program.node(part));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// True if node `id` accepts `value`; `Err` when the steps run out.
    fn matches(&mut self, id: NodeId, value: &Value<'_>) -> Result<bool, ()> {
        match self.validate(id, value) {
            Ok(()) => Ok(true),
            Err(fail) if matches!(fail.what, Broken::TooComplex) => Err(()),
            Err(_) => Ok(false),
        }
    }

    /// A validation of `value` against node `id`, one level deeper, within the steps left.
    fn validate(&mut self, id: NodeId, value: &Value<'_>) -> Result<(), Fail<'s>> {
        let mut validation = Validation::starting_at(self.program, id, self.fuel);
        validation.nesting = self.nesting.saturating_add(1);
        let _ = crate::json::replay(value, &mut validation);
        self.fuel = self.fuel.saturating_sub(validation.steps_used());
        validation.finish().map_err(|failure| failure.fail)
    }
}
