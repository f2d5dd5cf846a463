//! Strict mode's `null`: the `null` of an optional field whose schema refuses `null` is read
//! as absent, accepted, and removed from the value the tool receives.
//!
//! Why: OpenAI's strict mode makes every optional `T` a required `T or null` (see
//! [`strict`](super::export::strict)), and SDKs write `null` for "not given" in every mode;
//! a `null` the field refuses has no other reading. Never for a required field, a field
//! that accepts `null`, or one declared `false`. Under `anyOf`/`oneOf` the removal follows
//! the first alternative that accepts the value; under `allOf`, every branch.

use super::validate::{MAX_CHECK_DEPTH, STEP_BUDGET};
use super::{Additional, Schema, Type};
use crate::json::Value;

/// True if a member of a declared field is read as absent: the field is optional
/// (`required` false), the value is `null`, the field is declared as something (`never`
/// false: not `false`), and `refuses_null` says its schema refuses `null` (asked last: it
/// may validate). The one statement of the rule; the validator and
/// [`Schema::remove_absent_nulls`] both ask it.
pub(crate) fn reads_as_absent(
    required: bool,
    never: bool,
    null: bool,
    refuses_null: impl FnOnce() -> bool,
) -> bool {
    !required && null && !never && refuses_null()
}

impl Schema {
    /// Removes from `value` every member that validation read as absent: the `null` of an
    /// optional field whose schema refuses `null` (see [`absent`](super::absent)), at any
    /// depth. The [`Gate`](crate::Gate) does this to every accepted call, so a tool never
    /// receives a `null` its declaration does not allow; call it after
    /// [`Schema::validate`] when checking values yourself.
    ///
    /// ```
    /// use toolgate::{json, ToolSpec, Type};
    /// let spec = ToolSpec::new("search_flights", "Find flights.")
    ///     .required("from", Type::string())
    ///     .optional("date", Type::string())
    ///     .optional("note", Type::string().nullable())
    ///     .build()?;
    /// // What a model in strict mode sends for "no date, no note".
    /// let mut args = json::parse(r#"{"from":"OSL","date":null,"note":null}"#)?;
    /// assert!(spec.validate(&args).is_ok());
    /// spec.params().remove_absent_nulls(&mut args);
    /// // `note` accepts null, so its null is a value and stays.
    /// assert_eq!(args.to_string(), r#"{"from":"OSL","note":null}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove_absent_nulls(&self, value: &mut Value<'_>) {
        let mut walk = Walk {
            schema: self,
            fuel: STEP_BUDGET,
        };
        walk.strip(&self.root, value, 0);
    }
}

/// One removal, over the schema's types: the validation steps left for choosing
/// alternatives and asking whether a field refuses `null` (shared by the whole walk, so
/// that it costs at most one more validation's budget; a value that exhausts it keeps the
/// rest of its nulls, which validation accepted anyway).
struct Walk<'s> {
    schema: &'s Schema,
    fuel: u32,
}

impl<'s> Walk<'s> {
    /// Recursive, one level per type: `depth` stops it where validation stops.
    fn strip(&mut self, ty: &'s Type, value: &mut Value<'_>, depth: usize) {
        // Types nest at least as deep as the values they describe; validation refused
        // anything deeper than this, so the walk never needs to go further.
        if depth >= MAX_CHECK_DEPTH {
            return;
        }
        // The alternatives are chosen on the value as validation saw it, before any of
        // this type's own removals; so is the consequence of a condition (`if`,
        // `dependentSchemas`).
        let mut chosen: Vec<&'s Type> = Vec::new();
        for alternatives in [&ty.any_of, &ty.one_of] {
            let first = alternatives
                .iter()
                .find(|&alternative| self.accepts(alternative, value) == Some(true));
            chosen.extend(first);
        }
        if let Some(conditional) = &ty.if_then_else {
            if let Some(matched) = self.accepts(&conditional.condition, value) {
                let consequence = match matched {
                    true => conditional.then.as_ref(),
                    false => conditional.otherwise.as_ref(),
                };
                chosen.extend(consequence);
            }
        }
        if let Value::Object(members) = &*value {
            for (field, schema) in &ty.dependent_schemas {
                if members.iter().any(|(key, _)| key == field) {
                    chosen.push(schema);
                }
            }
        }
        let defs = &self.schema.defs;
        if let Some((_, target)) = ty.reference.and_then(|index| defs.get(index)) {
            self.strip(target, value, depth + 1);
        }
        for branch in &ty.all_of {
            self.strip(branch, value, depth + 1);
        }
        for alternative in chosen {
            self.strip(alternative, value, depth + 1);
        }
        match (ty.object.as_deref(), &mut *value) {
            (Some(object), Value::Object(members)) => {
                let field = |key: &str| object.fields.iter().find(|f| f.name == key);
                members.retain(|(key, item)| {
                    let Some(declared) = field(key) else {
                        return true;
                    };
                    // Out of budget, nothing more is removed (`Some(false)` only).
                    !reads_as_absent(
                        declared.required,
                        declared.ty.kinds == super::Kinds::NONE,
                        item.is_null(),
                        || self.accepts(&declared.ty, &Value::Null) == Some(false),
                    )
                });
                for (key, item) in members.iter_mut() {
                    match field(key) {
                        Some(declared) => self.strip(&declared.ty, item, depth + 1),
                        None => {
                            if let Additional::Typed(others) = &object.additional {
                                self.strip(others, item, depth + 1);
                            }
                        }
                    }
                }
            }
            (_, Value::Array(items)) => {
                let array = &ty.array;
                for (index, item) in items.iter_mut().enumerate() {
                    if let Some(item_type) = array.prefix.get(index).or(array.items.as_deref()) {
                        self.strip(item_type, item, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether `ty` accepts `value`; `None` once the budget is spent.
    fn accepts(&mut self, ty: &Type, value: &Value<'_>) -> Option<bool> {
        self.schema.accepts(ty, value, &mut self.fuel)
    }
}
