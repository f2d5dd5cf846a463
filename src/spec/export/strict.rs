//! OpenAI's strict form: every property listed in `required` (an optional one made nullable:
//! the model sends `null` for "not given", which the gate reads as absent), and
//! `"additionalProperties": false` on every object. What strict mode cannot say is an
//! [`ExportError`]; an open object that declares its fields is closed and its path returned.
//! The rewrite is idempotent, and the strict schema accepts nothing the original refuses.

use super::ExportError;

/// The `format` values OpenAI's strict mode documents; a strict schema may carry no other.
pub(super) const STRICT_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
use crate::json::{Path, Segment};
use crate::spec::schema::known_keyword;
use crate::spec::{Additional, Kinds, Schema, ToolSpec, Type};

/// What strict mode cannot say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StrictProblem {
    /// An object that accepts members it does not declare.
    OpenObject,
    /// A value of no named kind (no `type`, `anyOf` or `$ref`).
    Untyped,
    /// A value that nothing can match (JSON Schema's `false`).
    Nothing,
    /// A keyword strict mode does not support.
    Keyword(&'static str),
    /// A keyword no JSON Schema draft defines, kept from a lenient load: strict mode
    /// supports only the keywords it lists.
    UnknownKeyword,
}

/// The spec's arguments schema in strict form, and the paths of the open objects it closed
/// (in declaration order: the root's, then each definition's).
///
/// # Errors
/// An [`ExportError`] naming the tool, the place and the [`StrictProblem`].
pub(super) fn strict_schema(spec: &ToolSpec) -> Result<(Schema, Vec<String>), ExportError> {
    let mut schema = spec.params.clone();
    let mut closed = Vec::new();
    let fail = |(path, problem): (Path, StrictProblem)| ExportError {
        tool: spec.name.clone(),
        path: path.to_string(),
        problem,
    };
    strict_type(&mut schema.root, Path::root(), 0, &mut closed).map_err(fail)?;
    for (name, ty) in &mut schema.defs {
        let path = Path::root().key("$defs").key(name.as_str());
        strict_type(ty, path, 0, &mut closed).map_err(fail)?;
    }
    Ok((schema, closed))
}

fn strict_type(
    ty: &mut Type,
    path: Path,
    depth: usize,
    closed: &mut Vec<String>,
) -> Result<(), (Path, StrictProblem)> {
    let fail = |problem| Err((path.clone(), problem));
    if depth > crate::spec::MAX_SCHEMA_DEPTH {
        return fail(StrictProblem::Keyword("depth"));
    }
    for (present, keyword) in [
        (!ty.one_of.is_empty(), "oneOf"),
        (!ty.all_of.is_empty(), "allOf"),
        (ty.not.is_some(), "not"),
        (!ty.dependent_required.is_empty(), "dependentRequired"),
        (!ty.array.prefix.is_empty(), "prefixItems"),
        (ty.array.contains.is_some(), "contains"),
        (ty.if_then_else.is_some(), "if"),
        (!ty.dependent_schemas.is_empty(), "dependentSchemas"),
        (ty.unevaluated_properties.is_some(), "unevaluatedProperties"),
        (ty.unevaluated_items.is_some(), "unevaluatedItems"),
        (ty.string.min_length.is_some(), "minLength"),
        (ty.string.max_length.is_some(), "maxLength"),
        (ty.array.unique, "uniqueItems"),
        (ty.members.min.is_some(), "minProperties"),
        (ty.members.max.is_some(), "maxProperties"),
    ] {
        if present {
            return fail(StrictProblem::Keyword(keyword));
        }
    }
    if let Some(format) = &ty.format {
        if !STRICT_FORMATS.contains(&format.as_str()) {
            return fail(StrictProblem::Keyword("format"));
        }
    }
    // Of the keywords a lenient load keeps, strict mode supports only `pattern`.
    if let Some((keyword, _)) = ty
        .annotations
        .iter()
        .find(|(keyword, _)| keyword != "pattern")
    {
        return fail(match known_keyword(keyword) {
            Some(keyword) => StrictProblem::Keyword(keyword),
            None => StrictProblem::UnknownKeyword,
        });
    }
    // Kept annotations assert nothing and strict mode refuses unlisted keywords: drop them.
    ty.kept.clear();
    if ty.kinds == Kinds::NONE {
        return fail(StrictProblem::Nothing);
    }
    if ty.kinds == Kinds::ANY && ty.any_of.is_empty() && ty.reference.is_none() {
        return fail(StrictProblem::Untyped);
    }
    if ty.kinds.contains(Kinds::OBJECT) && ty.kinds != Kinds::ANY && ty.object.is_none() {
        // A free-form object: nothing declared to close it around.
        return fail(StrictProblem::OpenObject);
    }
    if let Some(rules) = &mut ty.object {
        if rules.property_names.is_some() {
            return fail(StrictProblem::Keyword("propertyNames"));
        }
        if !rules.patterns.is_empty() {
            return fail(StrictProblem::Keyword("patternProperties"));
        }
        match rules.additional {
            Additional::Forbidden => {}
            Additional::Allowed | Additional::AllowedExplicitly => {
                rules.additional = Additional::Forbidden;
                closed.push(path.to_string());
            }
            Additional::Typed(_) => return fail(StrictProblem::OpenObject),
        }
        for field in &mut rules.fields {
            strict_type(&mut field.ty, path.key(&field.name), depth + 1, closed)?;
            field.declared = true;
            if !field.required {
                field.required = true;
                field.ty = std::mem::take(&mut field.ty).nullable();
            }
        }
    }
    if let Some(items) = &mut ty.array.items {
        strict_type(items, path.with(Segment::AnyIndex), depth + 1, closed)?;
    }
    for (index, branch) in ty.any_of.iter_mut().enumerate() {
        strict_type(branch, path.key("anyOf").index(index), depth + 1, closed)?;
    }
    Ok(())
}
