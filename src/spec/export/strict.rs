//! OpenAI's strict form: the schema rewritten so that the provider can hold the model to it
//! while it writes (Structured Outputs).
//!
//! Strict mode asks for three things: every object lists every property in `required`, an
//! optional property is made nullable instead (the model sends `null` for "not given"), and
//! every object says `"additionalProperties": false`. It also supports only part of JSON
//! Schema. `strict_schema` does the rewrite on the data model, so the ordinary JSON Schema
//! writer prints it, and refuses, with a [`ExportError`], what strict mode cannot say:
//!
//! - an object that accepts undeclared members (open, or a `{string: T}` map): strict mode
//!   forbids them, and closing the object would refuse calls the spec accepts;
//! - a value of no named kind (no `type`, `anyOf` or `$ref`), or one that accepts nothing;
//! - `oneOf`, `allOf`, `propertyNames`, `minLength`, `maxLength` and `uniqueItems`, which
//!   OpenAI's strict mode does not support.
//!
//! What holds after the rewrite (the strict form's round trip): `strict_schema` of a schema
//! already in strict form changes nothing, so `import(export(spec))` exported again is the
//! same JSON; and for a value that carries every field, the strict schema accepts it exactly
//! when the original accepts it with the `null` members of originally optional fields left
//! out.

use super::ExportError;
use crate::json::{Path, Segment};
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
}

/// The spec's arguments schema in strict form.
///
/// # Errors
/// An [`ExportError`] naming the tool, the place and the [`StrictProblem`].
pub(super) fn strict_schema(spec: &ToolSpec) -> Result<Schema, ExportError> {
    let mut schema = spec.params.clone();
    let fail = |(path, problem): (Path, StrictProblem)| ExportError {
        tool: spec.name.clone(),
        path: path.to_string(),
        problem,
    };
    strict_type(&mut schema.root, Path::root(), 0).map_err(fail)?;
    for (name, ty) in &mut schema.defs {
        strict_type(ty, Path::root().key("$defs").key(name.as_str()), 0).map_err(fail)?;
    }
    Ok(schema)
}

fn strict_type(ty: &mut Type, path: Path, depth: usize) -> Result<(), (Path, StrictProblem)> {
    let fail = |problem| Err((path.clone(), problem));
    if depth > crate::spec::MAX_SCHEMA_DEPTH {
        return fail(StrictProblem::Keyword("depth"));
    }
    for (present, keyword) in [
        (!ty.one_of.is_empty(), "oneOf"),
        (!ty.all_of.is_empty(), "allOf"),
        (ty.string.min_length.is_some(), "minLength"),
        (ty.string.max_length.is_some(), "maxLength"),
        (ty.array.unique, "uniqueItems"),
    ] {
        if present {
            return fail(StrictProblem::Keyword(keyword));
        }
    }
    if ty.kinds == Kinds::NONE {
        return fail(StrictProblem::Nothing);
    }
    if ty.kinds == Kinds::ANY && ty.any_of.is_empty() && ty.reference.is_none() {
        return fail(StrictProblem::Untyped);
    }
    if ty.kinds.contains(Kinds::OBJECT) && ty.kinds != Kinds::ANY {
        match &ty.object {
            Some(rules) if rules.additional == Additional::Forbidden => {}
            _ => return fail(StrictProblem::OpenObject),
        }
    }
    if let Some(rules) = &mut ty.object {
        if rules.property_names.is_some() {
            return fail(StrictProblem::Keyword("propertyNames"));
        }
        if rules.additional != Additional::Forbidden {
            return fail(StrictProblem::OpenObject);
        }
        for field in &mut rules.fields {
            strict_type(&mut field.ty, path.key(&field.name), depth + 1)?;
            if !field.required {
                field.required = true;
                field.ty = std::mem::take(&mut field.ty).nullable();
            }
        }
    }
    if let Some(items) = &mut ty.array.items {
        strict_type(items, path.with(Segment::AnyIndex), depth + 1)?;
    }
    for (index, branch) in ty.any_of.iter_mut().enumerate() {
        strict_type(branch, path.key("anyOf").index(index), depth + 1)?;
    }
    Ok(())
}
