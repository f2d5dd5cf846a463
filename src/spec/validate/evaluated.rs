//! `unevaluatedProperties` and `unevaluatedItems`: the members (items) that no other
//! keyword of the type evaluated, here or in a subschema that matched, must match the
//! keyword's schema. Checked last, in input (index) order, each reported with the
//! member's own first violation.
//!
//! Which members were evaluated is worked out only for a value whose type has one of
//! these keywords: the type's own `properties`, `patternProperties` and
//! `additionalProperties` (`prefixItems`, `items`, `contains`), then, looking through the
//! subschemas applied to the same value, those of every one that matches (`$ref` and
//! `allOf` always do once the type's own checks passed; `anyOf`, `oneOf`, `if` and
//! `dependentSchemas` are judged again). A subschema with its own `unevaluated*` that
//! matches evaluated everything.

use super::containers::{is_other, matches};
use super::walk::{Trail, Verdict, Walk};
use super::MAX_CHECK_DEPTH;
use crate::json::Value;
use crate::spec::{Additional, Type};

impl<'s> Walk<'s> {
    /// The type's `unevaluatedProperties`, then its `unevaluatedItems`.
    pub(super) fn unevaluated(
        &mut self,
        ty: &'s Type,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
    ) -> Verdict {
        match value {
            Value::Object(members) => {
                let Some(rest) = ty.unevaluated_properties.as_deref() else {
                    return Ok(());
                };
                let mut marks = vec![false; members.len()];
                self.mark(ty, value, at, depth, true, &mut marks)?;
                for ((key, item), marked) in members.iter().zip(marks) {
                    if !marked {
                        self.check(rest, item, &at.key(key), depth + 1)?;
                    }
                }
            }
            Value::Array(items) => {
                let Some(rest) = ty.unevaluated_items.as_deref() else {
                    return Ok(());
                };
                let mut marks = vec![false; items.len()];
                self.mark(ty, value, at, depth, true, &mut marks)?;
                for (index, (item, marked)) in items.iter().zip(marks).enumerate() {
                    if !marked {
                        self.check(rest, item, &at.index(index), depth + 1)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Marks the members (items) of `value` that `ty`, which matched it, evaluated.
    /// `outer` is true for the type whose own `unevaluated*` is being decided. Recursive,
    /// one level per subschema, bounded by [`MAX_CHECK_DEPTH`].
    fn mark(
        &mut self,
        ty: &'s Type,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
        outer: bool,
        marks: &mut [bool],
    ) -> Verdict {
        if depth >= MAX_CHECK_DEPTH {
            return Ok(());
        }
        let own_rest = match value {
            Value::Object(_) => ty.unevaluated_properties.is_some(),
            _ => ty.unevaluated_items.is_some(),
        };
        if own_rest && !outer {
            marks.fill(true);
            return Ok(());
        }
        match value {
            Value::Object(members) => {
                if let Some(object) = ty.object.as_deref() {
                    let others = object.additional != Additional::Allowed;
                    for ((key, _), marked) in members.iter().zip(marks.iter_mut()) {
                        let declared = object.fields.iter().any(|f| f.declared && f.name == *key);
                        *marked |= declared
                            || object.patterns.iter().any(|p| matches(&p.pattern, key))
                            || (others && is_other(object, key));
                    }
                }
            }
            Value::Array(items) => {
                let rules = &ty.array;
                for (index, marked) in marks.iter_mut().enumerate() {
                    *marked |= index < rules.prefix.len() || rules.items.is_some();
                }
                if let Some(contains) = rules.contains.as_deref() {
                    for (index, item) in items.iter().enumerate() {
                        let matched = self.matches(contains, item, &at.index(index), depth + 1)?;
                        if let (true, Some(marked)) = (matched, marks.get_mut(index)) {
                            *marked = true;
                        }
                    }
                }
            }
            _ => return Ok(()),
        }
        let below = depth + 1;
        if let Some((_, target)) = ty.reference.and_then(|index| self.schema.defs.get(index)) {
            self.mark(target, value, at, below, false, marks)?;
        }
        for branch in &ty.all_of {
            self.mark(branch, value, at, below, false, marks)?;
        }
        for alternative in ty.any_of.iter().chain(&ty.one_of) {
            if self.matches(alternative, value, at, below)? {
                self.mark(alternative, value, at, below, false, marks)?;
            }
        }
        if let Some(conditional) = &ty.if_then_else {
            let branch = if self.matches(&conditional.condition, value, at, below)? {
                self.mark(&conditional.condition, value, at, below, false, marks)?;
                conditional.then.as_ref()
            } else {
                conditional.otherwise.as_ref()
            };
            if let Some(branch) = branch {
                self.mark(branch, value, at, below, false, marks)?;
            }
        }
        if let Value::Object(members) = value {
            for (field, schema) in &ty.dependent_schemas {
                if members.iter().any(|(key, _)| key == field) {
                    self.mark(schema, value, at, below, false, marks)?;
                }
            }
        }
        Ok(())
    }

    /// Whether `ty` accepts `value`; a fatal failure (a limit) ends the validation.
    fn matches(
        &mut self,
        ty: &'s Type,
        value: &Value<'_>,
        at: &Trail<'_>,
        depth: usize,
    ) -> Result<bool, super::walk::Fail> {
        match self.judge(ty, value, at, depth) {
            Ok(()) => Ok(true),
            Err(fail) if fail.fatal => Err(fail),
            Err(_) => Ok(false),
        }
    }
}
