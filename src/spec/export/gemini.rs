//! A [`Schema`] in Gemini's `parameters` dialect (an OpenAPI 3.0 subset: one upper-case type,
//! `nullable`, string enums, inclusive bounds, int64 counts as strings, no `$ref`), or `None`
//! when that dialect cannot say it exactly; the exporter then sends `parametersJsonSchema`.

use super::json_schema::{kinds_value, required_names};
use super::{object, text};
use crate::json::Value;
use crate::spec::{Additional, Kinds, Schema, Type};
use std::borrow::Cow;

/// The schema as Gemini `parameters`, or `None` if that dialect cannot say it exactly.
pub(super) fn gemini_parameters(schema: &Schema) -> Option<Value<'static>> {
    if !schema.defs.is_empty() {
        return None;
    }
    gemini_type(&schema.root, 0)
}

fn gemini_type(ty: &Type, depth: usize) -> Option<Value<'static>> {
    if depth > crate::spec::MAX_SCHEMA_DEPTH
        || ty.kinds == Kinds::NONE
        || ty.constant.is_some()
        || ty.reference.is_some()
        || !ty.one_of.is_empty()
        || !ty.all_of.is_empty()
        || ty.not.is_some()
        || !ty.dependent_required.is_empty()
        || !ty.array.prefix.is_empty()
        || ty.array.contains.is_some()
        || ty.if_then_else.is_some()
        || !ty.dependent_schemas.is_empty()
        || ty.unevaluated_properties.is_some()
        || ty.unevaluated_items.is_some()
        || ty.number.multiple_of.is_some()
        || ty.array.unique
    {
        return None;
    }
    let mut out: Vec<(&'static str, Value<'static>)> = Vec::new();
    let any = ty.kinds == Kinds::ANY;
    let nullable = !any && ty.kinds != Kinds::NULL && ty.kinds.contains(Kinds::NULL);
    let base = if nullable {
        Kinds(ty.kinds.0 & !Kinds::NULL.0)
    } else {
        ty.kinds
    };
    if !any {
        // One kind only: `["string", "number"]` has no Gemini spelling.
        match kinds_value(base, true)? {
            Value::String(name) => out.push(("type", Value::String(name))),
            _ => return None,
        }
    }
    let mut says_nullable = nullable;
    if let Some(values) = &ty.enumeration {
        let (last_is_null, rest) = match values.split_last() {
            Some((Value::Null, rest)) => (true, rest),
            _ => (false, values.as_slice()),
        };
        // The import puts a nullable type's `null` last; anywhere else it has no spelling.
        let misplaced = rest.iter().any(Value::is_null)
            || (nullable && !last_is_null)
            || (!nullable && !any && last_is_null)
            || base == Kinds::NULL;
        if misplaced {
            return None;
        }
        says_nullable = nullable || last_is_null;
        let numeric = base == Kinds::INTEGER || base == Kinds::NUMBER;
        let mut written = Vec::with_capacity(rest.len());
        for value in rest {
            match value {
                Value::String(s) if !numeric => {
                    written.push(Value::String(Cow::Owned(s.to_string())))
                }
                Value::Number(n) if numeric => written.push(text(n.as_str())),
                _ => return None,
            }
        }
        out.push(("enum", Value::Array(written)));
    }
    if says_nullable {
        out.push(("nullable", Value::Bool(true)));
    }
    if let Some(description) = &ty.description {
        out.push(("description", text(description)));
    }
    if let Some(format) = &ty.format {
        out.push(("format", text(format)));
    }
    // Of kept annotations Gemini has only `example`, of lenient keywords only `pattern`.
    for (keyword, value) in &ty.kept {
        match keyword.as_str() {
            "example" => out.push(("example", value.clone())),
            _ => return None,
        }
    }
    for (keyword, value) in &ty.annotations {
        match (keyword.as_str(), value) {
            ("pattern", Value::String(pattern)) => out.push(("pattern", text(pattern))),
            _ => return None,
        }
    }
    for (bound, keyword) in [
        (&ty.number.minimum, "minimum"),
        (&ty.number.maximum, "maximum"),
    ] {
        if let Some(bound) = bound {
            if bound.exclusive {
                return None;
            }
            out.push((keyword, Value::Number(bound.value.clone())));
        }
    }
    for (count, keyword) in [
        (ty.string.min_length, "minLength"),
        (ty.string.max_length, "maxLength"),
        (ty.array.min_items, "minItems"),
        (ty.array.max_items, "maxItems"),
        (ty.members.min, "minProperties"),
        (ty.members.max, "maxProperties"),
    ] {
        if let Some(count) = count {
            out.push((keyword, as_int64_string(count)));
        }
    }
    if let Some(pattern) = &ty.string.pattern {
        out.push(("pattern", text(pattern.source())));
    }
    if let Some(items) = &ty.array.items {
        out.push(("items", gemini_type(items, depth + 1)?));
    }
    if let Some(rules) = &ty.object {
        if rules.property_names.is_some() || !rules.patterns.is_empty() {
            return None;
        }
        let mut properties = Vec::with_capacity(rules.fields.len());
        for field in &rules.fields {
            properties.push((
                Cow::Owned(field.name.clone()),
                gemini_type(&field.ty, depth + 1)?,
            ));
        }
        out.push(("properties", Value::Object(properties)));
        if let Some(required) = required_names(rules) {
            out.push(("required", required));
        }
        match &rules.additional {
            Additional::Forbidden => out.push(("additionalProperties", Value::Bool(false))),
            Additional::Allowed | Additional::AllowedExplicitly => {}
            Additional::Typed(values) => {
                out.push(("additionalProperties", gemini_type(values, depth + 1)?));
            }
        }
    }
    if !ty.any_of.is_empty() {
        let mut branches = Vec::with_capacity(ty.any_of.len());
        for branch in &ty.any_of {
            branches.push(gemini_type(branch, depth + 1)?);
        }
        out.push(("anyOf", Value::Array(branches)));
    }
    Some(object(out))
}

/// A 64-bit count as Google's JSON writes it (proto3 JSON maps int64 to a string).
fn as_int64_string(count: u64) -> Value<'static> {
    text(&count.to_string())
}
