//! A [`Schema`] written back as JSON Schema (draft 2020-12), the inverse of the import
//! (unreached definitions aside), keys in one fixed order so a spec always exports to the
//! same bytes.

use super::{object, text};
use crate::json::{Number, Path, Value};
use crate::spec::schema::fragment;
use crate::spec::{Additional, Kinds, ObjectType, Schema, Type};
use std::borrow::Cow;

impl Schema {
    /// This schema as a JSON Schema document (draft 2020-12): the root's keywords, then
    /// `$defs` holding every definition, referenced as `#/$defs/NAME`.
    ///
    /// ```
    /// use toolgate::{json, spec::Schema};
    /// let source = json::parse(r#"{"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "additionalProperties": false}"#)?;
    /// let schema = Schema::from_json_schema(&source)?;
    /// assert_eq!(schema.to_json_schema().to_string(),
    ///     r#"{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"additionalProperties":false}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_json_schema(&self) -> Value<'static> {
        let mut root = write_type(&self.root, &self.defs);
        if !self.defs.is_empty() {
            let defs: Vec<(Cow<'static, str>, Value<'static>)> = self
                .defs
                .iter()
                .map(|(name, ty)| (Cow::Owned(name.clone()), write_type(ty, &self.defs)))
                .collect();
            // A root of `false` references nothing, so it needs no definitions.
            if let Value::Object(members) = &mut root {
                members.push((Cow::Borrowed("$defs"), Value::Object(defs)));
            }
        }
        root
    }
}

/// One type as a JSON Schema; references name `defs` entries.
pub(super) fn write_type(ty: &Type, defs: &[(String, Type)]) -> Value<'static> {
    if ty.kinds == Kinds::NONE {
        return Value::Bool(false);
    }
    let list = |types: &[Type]| Value::Array(types.iter().map(|t| write_type(t, defs)).collect());
    let mut out: Vec<(&'static str, Value<'static>)> = Vec::new();
    if let Some(kinds) = kinds_value(ty.kinds, false) {
        out.push(("type", kinds));
    }
    if let Some(description) = &ty.description {
        out.push(("description", text(description)));
    }
    if let Some(format) = &ty.format {
        out.push(("format", text(format)));
    }
    if let Some(values) = &ty.enumeration {
        out.push(("enum", Value::Array(values.clone())));
    }
    if let Some(value) = &ty.constant {
        out.push(("const", value.clone()));
    }
    for (bound, inclusive, exclusive) in [
        (&ty.number.minimum, "minimum", "exclusiveMinimum"),
        (&ty.number.maximum, "maximum", "exclusiveMaximum"),
    ] {
        if let Some(bound) = bound {
            let keyword = if bound.exclusive {
                exclusive
            } else {
                inclusive
            };
            out.push((keyword, Value::Number(bound.value.clone())));
        }
    }
    if let Some(step) = ty.number.multiple_of.and_then(Number::from_f64) {
        out.push(("multipleOf", Value::Number(step)));
    }
    push_count(&mut out, "minLength", ty.string.min_length);
    push_count(&mut out, "maxLength", ty.string.max_length);
    if let Some(pattern) = &ty.string.pattern {
        out.push(("pattern", text(pattern.source())));
    }
    if !ty.array.prefix.is_empty() {
        out.push(("prefixItems", list(&ty.array.prefix)));
    }
    if let Some(items) = &ty.array.items {
        out.push(("items", write_type(items, defs)));
    }
    if let Some(contains) = &ty.array.contains {
        out.push(("contains", write_type(contains, defs)));
        push_count(&mut out, "minContains", ty.array.min_contains);
        push_count(&mut out, "maxContains", ty.array.max_contains);
    }
    push_count(&mut out, "minItems", ty.array.min_items);
    push_count(&mut out, "maxItems", ty.array.max_items);
    push_count(&mut out, "minProperties", ty.members.min);
    push_count(&mut out, "maxProperties", ty.members.max);
    if ty.array.unique {
        out.push(("uniqueItems", Value::Bool(true)));
    }
    if !ty.dependent_required.is_empty() {
        let entries = ty
            .dependent_required
            .iter()
            .map(|(field, required)| {
                let names = required.iter().map(|name| text(name)).collect();
                (Cow::Owned(field.clone()), Value::Array(names))
            })
            .collect();
        out.push(("dependentRequired", Value::Object(entries)));
    }
    if let Some(rules) = &ty.object {
        let properties = rules
            .fields
            .iter()
            .filter(|field| field.declared)
            .map(|field| (Cow::Owned(field.name.clone()), write_type(&field.ty, defs)))
            .collect();
        out.push(("properties", Value::Object(properties)));
        if let Some(required) = required_names(rules) {
            out.push(("required", required));
        }
        match &rules.additional {
            Additional::Forbidden => out.push(("additionalProperties", Value::Bool(false))),
            // Absent means allowed, in JSON Schema and in OpenAPI alike.
            Additional::Allowed => {}
            // Said as it was: the `unevaluatedProperties` beside it tells `true` from absent.
            Additional::AllowedExplicitly => {
                out.push(("additionalProperties", Value::Bool(true)));
            }
            Additional::Typed(values) => {
                out.push(("additionalProperties", write_type(values, defs)));
            }
        }
        if let Some(names) = &rules.property_names {
            out.push(("propertyNames", write_type(names, defs)));
        }
        if !rules.patterns.is_empty() {
            let patterns = rules
                .patterns
                .iter()
                .map(|field| {
                    let source = Cow::Owned(field.pattern.source().to_string());
                    (source, write_type(&field.ty, defs))
                })
                .collect();
            out.push(("patternProperties", Value::Object(patterns)));
        }
    }
    if let Some((name, _)) = ty.reference.and_then(|index| defs.get(index)) {
        out.push((
            "$ref",
            Value::String(Cow::Owned(fragment(&Path::root().key("$defs").key(name)))),
        ));
    }
    for (keyword, branches) in [
        ("anyOf", &ty.any_of),
        ("oneOf", &ty.one_of),
        ("allOf", &ty.all_of),
    ] {
        if !branches.is_empty() {
            out.push((keyword, list(branches)));
        }
    }
    if let Some(negated) = &ty.not {
        out.push(("not", write_type(negated, defs)));
    }
    if let Some(branches) = &ty.if_then_else {
        out.push(("if", write_type(&branches.condition, defs)));
        if let Some(then) = &branches.then {
            out.push(("then", write_type(then, defs)));
        }
        if let Some(otherwise) = &branches.otherwise {
            out.push(("else", write_type(otherwise, defs)));
        }
    }
    if !ty.dependent_schemas.is_empty() {
        let entries = ty
            .dependent_schemas
            .iter()
            .map(|(name, schema)| (Cow::Owned(name.clone()), write_type(schema, defs)))
            .collect();
        out.push(("dependentSchemas", Value::Object(entries)));
    }
    if let Some(members) = &ty.unevaluated_properties {
        out.push(("unevaluatedProperties", write_type(members, defs)));
    }
    if let Some(items) = &ty.unevaluated_items {
        out.push(("unevaluatedItems", write_type(items, defs)));
    }
    let mut written = object(out);
    // Annotations kept as written (`example`, `x-…`), then keywords kept from a lenient
    // load, last, as written: JSON Schema carries any keyword.
    if let Value::Object(members) = &mut written {
        for (keyword, value) in ty.kept.iter().chain(&ty.annotations) {
            members.push((Cow::Owned(keyword.clone()), value.clone()));
        }
    }
    written
}

/// `required`: the required fields' names in declaration order, or `None` when there are
/// none (an empty `required` is noise every form can do without).
pub(super) fn required_names(rules: &ObjectType) -> Option<Value<'static>> {
    let required: Vec<Value<'static>> = rules
        .fields
        .iter()
        .filter(|field| field.required)
        .map(|field| text(&field.name))
        .collect();
    (!required.is_empty()).then_some(Value::Array(required))
}

/// `type` for a set of kinds: a name, or an array of names; `None` for any kind.
/// `upper` writes Gemini's upper-case names.
pub(super) fn kinds_value(kinds: Kinds, upper: bool) -> Option<Value<'static>> {
    if kinds == Kinds::ANY {
        return None;
    }
    let name = |name: &'static str| {
        Value::String(if upper {
            Cow::Owned(name.to_ascii_uppercase())
        } else {
            Cow::Borrowed(name)
        })
    };
    let mut names: Vec<Value<'static>> = kinds.names().map(name).collect();
    if names.len() == 1 {
        return names.pop();
    }
    Some(Value::Array(names))
}

fn push_count(
    out: &mut Vec<(&'static str, Value<'static>)>,
    keyword: &'static str,
    count: Option<u64>,
) {
    if let Some(count) = count {
        out.push((keyword, count_value(count)));
    }
}

/// A count as a JSON number.
pub(super) fn count_value(count: u64) -> Value<'static> {
    match Number::from_text(count.to_string()) {
        Some(number) => Value::Number(number),
        None => Value::Null,
    }
}
