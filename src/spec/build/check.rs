//! The build-time check: everything knowable about a [`Schema`] without a value
//! (contradictions, repeated fields, dangling references, cycles that consume no input), so
//! none of it surfaces at call time. Only what the root reaches is checked.

use super::error::{SpecError, SpecErrorKind};
use crate::json::decimal as number;
use crate::json::{repeated_key, Kind, Path, Segment};
use crate::spec::format::Format;
use crate::spec::schema::find_cycle;
use crate::spec::validate::admits;
use crate::spec::{Additional, Kinds, Schema, Type};
use std::cmp::Ordering;

/// Types nest at most this deep: [`Limits::DEFAULT_MAX_DEPTH`](crate::json::Limits), as
/// deep as the values a parse accepts under the default limits.
pub(crate) const MAX_TYPE_DEPTH: usize = crate::json::Limits::DEFAULT_MAX_DEPTH;

/// Checks a compiled schema for the contradictions a spec must not hold: an empty `enum`,
/// `enum`/`const` values of a refused kind, empty numeric, length or item ranges, a bad
/// `multipleOf`, a field declared twice, a `$ref` past the definitions, a definition that
/// reaches itself without consuming input, nesting beyond [`MAX_TYPE_DEPTH`].
///
/// The returned error's `tool` is empty; its `path` is in the form
/// [`SpecError::path`] documents. Rules that can never apply (`{"type": "string",
/// "minimum": 1}`) are allowed here, as JSON Schema allows them.
///
/// # Errors
/// The first [`SpecError`] found, root first, then the definitions the root reaches.
pub(crate) fn check_schema(schema: &Schema) -> Result<(), SpecError> {
    Checker {
        defs: &schema.defs,
        strict: false,
    }
    .check(schema)
}

/// Like [`check_schema`], and also refuses rules that can never apply: used for specs
/// written in Rust, where such a rule is a slip (`min` meant as `min_length`).
pub(crate) fn check_built(schema: &Schema) -> Result<(), SpecError> {
    Checker {
        defs: &schema.defs,
        strict: true,
    }
    .check(schema)
}

struct Checker<'a> {
    defs: &'a [(String, Type)],
    strict: bool,
}

type Found = Result<(), (String, SpecErrorKind)>;

impl Checker<'_> {
    fn check(&self, schema: &Schema) -> Result<(), SpecError> {
        self.check_all(schema).map_err(|(path, kind)| SpecError {
            tool: String::new(),
            path,
            kind,
        })
    }

    fn check_all(&self, schema: &Schema) -> Found {
        // The root, then every definition it reaches, each once, in the order found.
        let mut refs = Vec::new();
        self.check_type(&schema.root, &Path::root(), 0, &mut refs)?;
        let mut checked = vec![false; self.defs.len()];
        let mut index_in_refs = 0;
        while let Some(&index) = refs.get(index_in_refs) {
            index_in_refs += 1;
            match checked.get_mut(index) {
                Some(done) if !*done => *done = true,
                _ => continue,
            }
            if let Some((name, def)) = self.defs.get(index) {
                let path = Path::root().key("$defs").key(name);
                self.check_type(def, &path, 0, &mut refs)?;
            }
        }
        self.check_cycles(&checked)
    }

    /// Checks one type and everything below it; pushes every reference it holds.
    fn check_type(&self, ty: &Type, path: &Path, depth: usize, refs: &mut Vec<usize>) -> Found {
        let found = |kind| Err((path.to_string(), kind));
        if depth >= MAX_TYPE_DEPTH {
            return found(SpecErrorKind::TooDeep {
                limit: MAX_TYPE_DEPTH,
            });
        }
        if let Some(kind) = &ty.unbuildable {
            return found((**kind).clone());
        }
        self.check_values(ty).or_else(&found)?;
        self.check_ranges(ty).or_else(&found)?;
        if self.strict {
            check_rules_apply(ty).or_else(&found)?;
        }
        for (index, item) in ty.array.prefix.iter().enumerate() {
            self.check_type(item, &path.index(index), depth + 1, refs)?;
        }
        if let Some(items) = &ty.array.items {
            self.check_type(items, &path.with(Segment::AnyIndex), depth + 1, refs)?;
        }
        if let Some(contains) = &ty.array.contains {
            self.check_type(contains, &path.key("contains"), depth + 1, refs)?;
        }
        if let Some(object) = &ty.object {
            let fields = &object.fields;
            if let Some(field) = repeated_key(fields, |f| &f.name).and_then(|i| fields.get(i)) {
                return found(SpecErrorKind::DuplicateField {
                    field: field.name.clone(),
                });
            }
            for field in &object.fields {
                self.check_type(&field.ty, &path.key(&field.name), depth + 1, refs)?;
            }
            if let Additional::Typed(values) = &object.additional {
                self.check_type(values, &path.with(Segment::AnyKey), depth + 1, refs)?;
            }
            if let Some(names) = &object.property_names {
                self.check_type(names, &path.key("propertyNames"), depth + 1, refs)?;
            }
            for field in &object.patterns {
                if let Err(error) = field.pattern.compiled() {
                    return found(SpecErrorKind::BadPattern {
                        pattern: field.pattern.source().to_string(),
                        error: error.clone(),
                    });
                }
                let at = path.key("patternProperties").key(field.pattern.source());
                self.check_type(&field.ty, &at, depth + 1, refs)?;
            }
        }
        if let Some(index) = ty.reference {
            if index >= self.defs.len() {
                return found(SpecErrorKind::UnknownReference {
                    index,
                    n_defs: self.defs.len(),
                });
            }
            refs.push(index);
        }
        for (keyword, branches) in [
            ("allOf", &ty.all_of),
            ("anyOf", &ty.any_of),
            ("oneOf", &ty.one_of),
        ] {
            for (index, branch) in branches.iter().enumerate() {
                let branch_path = path.key(keyword).index(index);
                self.check_type(branch, &branch_path, depth + 1, refs)?;
            }
        }
        if let Some(negated) = &ty.not {
            self.check_type(negated, &path.key("not"), depth + 1, refs)?;
        }
        if let Some(branches) = &ty.if_then_else {
            self.check_type(&branches.condition, &path.key("if"), depth + 1, refs)?;
            if let Some(then) = &branches.then {
                self.check_type(then, &path.key("then"), depth + 1, refs)?;
            }
            if let Some(otherwise) = &branches.otherwise {
                self.check_type(otherwise, &path.key("else"), depth + 1, refs)?;
            }
        }
        for (name, schema) in &ty.dependent_schemas {
            let schema_path = path.key("dependentSchemas").key(name);
            self.check_type(schema, &schema_path, depth + 1, refs)?;
        }
        for (keyword, schema) in [
            ("unevaluatedProperties", &ty.unevaluated_properties),
            ("unevaluatedItems", &ty.unevaluated_items),
        ] {
            if let Some(schema) = schema {
                self.check_type(schema, &path.key(keyword), depth + 1, refs)?;
            }
        }
        Ok(())
    }

    /// `enum` and `const`: not empty, and every value of a kind the type accepts.
    fn check_values(&self, ty: &Type) -> Result<(), SpecErrorKind> {
        let wrong_kind = |keyword, value| SpecErrorKind::ValueOfWrongKind {
            keyword,
            value: crate::json::preview(value, crate::json::PREVIEW_CHARS),
            accepts: ty.kinds,
        };
        if let Some(values) = &ty.enumeration {
            if values.is_empty() {
                return Err(SpecErrorKind::EmptyEnum);
            }
            if let Some(value) = values.iter().find(|value| !admits(ty.kinds, value)) {
                return Err(wrong_kind("enum", value));
            }
        }
        match &ty.constant {
            Some(value) if !admits(ty.kinds, value) => Err(wrong_kind("const", value)),
            _ => Ok(()),
        }
    }

    /// Numeric, length and item ranges that hold at least one value; a usable divisor.
    fn check_ranges(&self, ty: &Type) -> Result<(), SpecErrorKind> {
        let rules = &ty.number;
        if let (Some(minimum), Some(maximum)) = (&rules.minimum, &rules.maximum) {
            let order = number::compare(minimum.value.as_str(), maximum.value.as_str());
            let empty = match order {
                Ordering::Greater => true,
                Ordering::Equal => minimum.exclusive || maximum.exclusive,
                Ordering::Less => false,
            };
            if empty {
                return Err(SpecErrorKind::EmptyRange {
                    minimum: minimum.clone(),
                    maximum: maximum.clone(),
                });
            }
        }
        if let Some(divisor) = rules.multiple_of {
            if !(divisor.is_finite() && divisor > 0.0) {
                return Err(SpecErrorKind::BadMultipleOf { divisor });
            }
        }
        if let Some(pattern) = &ty.string.pattern {
            if let Err(error) = pattern.compiled() {
                return Err(SpecErrorKind::BadPattern {
                    pattern: pattern.source().to_string(),
                    error: error.clone(),
                });
            }
        }
        if let (Some(min), Some(max)) = (ty.string.min_length, ty.string.max_length) {
            if min > max {
                return Err(SpecErrorKind::EmptyLengthRange { min, max });
            }
        }
        if let (Some(min), Some(max)) = (ty.array.min_items, ty.array.max_items) {
            if min > max {
                return Err(SpecErrorKind::EmptyItemsRange { min, max });
            }
        }
        Ok(())
    }

    /// A definition must not reach itself through `$ref`, `allOf`, `anyOf` and `oneOf`
    /// alone (they check the same value again, so validation would recurse without end).
    fn check_cycles(&self, reached: &[bool]) -> Found {
        let starts = (0..reached.len()).filter(|&index| reached.get(index) == Some(&true));
        let Some(index) = find_cycle(self.defs, starts) else {
            return Ok(());
        };
        let name = self
            .defs
            .get(index)
            .map(|(name, _)| name.clone())
            .unwrap_or_default();
        Err((
            Path::root().key("$defs").key(&name).to_string(),
            SpecErrorKind::ReferenceCycle { definition: name },
        ))
    }
}

/// Rules for a kind the type refuses (builder only).
fn check_rules_apply(ty: &Type) -> Result<(), SpecErrorKind> {
    let never = |keyword| {
        Err(SpecErrorKind::RuleNeverApplies {
            keyword,
            accepts: ty.kinds,
        })
    };
    if !ty.kinds.intersects(Kinds::NUMBER) {
        let rules = &ty.number;
        let keyword = match (&rules.minimum, &rules.maximum) {
            (Some(bound), _) if bound.exclusive => Some("exclusiveMinimum"),
            (Some(_), _) => Some("minimum"),
            (_, Some(bound)) if bound.exclusive => Some("exclusiveMaximum"),
            (_, Some(_)) => Some("maximum"),
            _ => rules.multiple_of.map(|_| "multipleOf"),
        };
        if let Some(keyword) = keyword {
            return never(keyword);
        }
    }
    if !ty.kinds.contains(Kinds::STRING) {
        if ty.string.min_length.is_some() {
            return never("minLength");
        }
        if ty.string.max_length.is_some() {
            return never("maxLength");
        }
        if ty.string.pattern.is_some() {
            return never("pattern");
        }
    }
    // A format toolgate enforces applies to strings (`email`) or numbers (`int32`).
    if let Some(format) = ty.format.as_deref().and_then(Format::from_name) {
        let applies = match format.applies_to() {
            Kind::Number => ty.kinds.intersects(Kinds::NUMBER),
            _ => ty.kinds.contains(Kinds::STRING),
        };
        if !applies {
            return never("format");
        }
    }
    if !ty.kinds.contains(Kinds::OBJECT) {
        if ty.members.min.is_some() {
            return never("minProperties");
        }
        if ty.members.max.is_some() {
            return never("maxProperties");
        }
    }
    if !ty.kinds.contains(Kinds::ARRAY) {
        let rules = &ty.array;
        if !rules.prefix.is_empty() {
            return never("prefixItems");
        }
        if rules.items.is_some() {
            return never("items");
        }
        if rules.contains.is_some() {
            return never("contains");
        }
        if rules.min_items.is_some() {
            return never("minItems");
        }
        if rules.max_items.is_some() {
            return never("maxItems");
        }
        if rules.unique {
            return never("uniqueItems");
        }
    }
    if !ty.kinds.contains(Kinds::OBJECT) {
        if let Some(object) = &ty.object {
            let keyword = if !object.fields.is_empty() {
                "properties"
            } else if object.property_names.is_some() {
                "propertyNames"
            } else if !object.patterns.is_empty() {
                "patternProperties"
            } else {
                "additionalProperties"
            };
            return never(keyword);
        }
    }
    Ok(())
}
