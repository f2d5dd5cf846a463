//! The keyword readers: each enforced keyword's value checked as the draft 2020-12
//! meta-schema says (with the Gemini dialect's allowances) and turned into a [`Type`]'s rules.

use super::import::{Dialect, Importer, Seen};
use super::{LoadError, Unenforced};
use crate::json::decimal::compare;
use crate::json::{repeated_key, Member, Number, Path, Value};
use crate::spec::format::Format;
use crate::spec::{Additional, ArrayRules, Bound, Field, Kinds, NumberRules, ObjectType};
use crate::spec::{MemberCount, StringRules, Type};
use std::cmp::Ordering;

impl<'v, 'a> Importer<'v, 'a> {
    /// The subschema given under one keyword, compiled (`None` when the keyword is absent).
    pub(super) fn subschema(
        &mut self,
        entry: Option<(&'v str, &'v Value<'a>)>,
        path: &Path,
        depth: usize,
    ) -> Result<Option<Box<Type>>, LoadError> {
        entry
            .map(|(key, value)| {
                self.compile(value, &path.key(key), depth + 1, false)
                    .map(Box::new)
            })
            .transpose()
    }

    pub(super) fn build(
        &mut self,
        seen: &Seen<'v, 'a>,
        path: &Path,
        depth: usize,
        since: (usize, usize),
    ) -> Result<Type, LoadError> {
        let mut ty = Type::default();
        if let Some((key, value)) = seen.get("type") {
            ty.kinds = self.kinds(value, path, key)?;
        }
        if let Some((key, values)) = typed(seen, "enum", path, "an array", Value::as_array)? {
            ty.enumeration = Some(self.enum_values(values, ty.kinds, path, key)?);
        }
        if let Some((_, value)) = seen.get("const") {
            ty.constant = Some(value.clone().into_owned());
        }
        if let Some((_, nullable)) = typed(seen, "nullable", path, "true or false", Value::as_bool)?
        {
            if nullable {
                if ty.kinds != Kinds::ANY {
                    ty.kinds = ty.kinds.union(Kinds::NULL);
                }
                if let Some(values) = &mut ty.enumeration {
                    if !values.iter().any(Value::is_null) {
                        values.push(Value::Null);
                    }
                }
            }
        }
        self.number_rules(seen, path, &mut ty)?;
        ty.string = StringRules {
            min_length: self.count(seen.get("minLength"), path)?,
            max_length: self.count(seen.get("maxLength"), path)?,
            pattern: self.pattern(seen, path)?,
        };
        ty.array = ArrayRules {
            prefix: match seen.get("prefixItems") {
                Some((key, value)) => self.schema_list(value, path, key, depth)?,
                None => Vec::new(),
            },
            items: match seen.get("items") {
                Some((key, value)) if value.as_array().is_some() => {
                    // An array is a tuple (draft 2019-09 and earlier, which 2020-12 spells
                    // `prefixItems`): not enforced.
                    self.refuse(path, key)?;
                    None
                }
                entry => self.subschema(entry, path, depth)?,
            },
            min_items: self.count(seen.get("minItems"), path)?,
            max_items: self.count(seen.get("maxItems"), path)?,
            unique: typed(seen, "uniqueItems", path, "true or false", Value::as_bool)?
                .is_some_and(|(_, unique)| unique),
            contains: self.subschema(seen.get("contains"), path, depth)?,
            min_contains: self.count(seen.get("minContains"), path)?,
            max_contains: self.count(seen.get("maxContains"), path)?,
        };
        ty.object = self.object_rules(seen, path, depth)?;
        ty.members = MemberCount {
            min: self.count(seen.get("minProperties"), path)?,
            max: self.count(seen.get("maxProperties"), path)?,
        };
        if let Some((key, value)) = seen.get("dependentRequired") {
            ty.dependent_required = dependent_required(value, path, key)?;
        }
        if let Some((key, value)) = seen.get("anyOf") {
            ty.any_of = self.schema_list(value, path, key, depth)?;
        }
        if let Some((key, value)) = seen.get("allOf") {
            ty.all_of = self.schema_list(value, path, key, depth)?;
        }
        if let Some((key, value)) = seen.get("oneOf") {
            ty.one_of = self.one_of(value, path, key, depth)?;
        }
        if let Some((key, value)) = seen.get("not") {
            ty.not = self.negated(value, path, key, depth)?;
        }
        ty.if_then_else = self.if_then_else(seen, path, depth)?;
        if let Some((key, value)) = seen.get("dependentSchemas") {
            ty.dependent_schemas = self.dependent_schemas(value, path, key, depth)?;
        }
        if let Some((key, value)) = seen.get("$ref") {
            ty.reference = self.reference(value, path, key)?;
        }
        if let Some((key, value)) = seen.get("$dynamicRef") {
            // Resolved here, in the schema's dynamic scope: a plain reference from now on,
            // beside a `$ref` if there is one (both apply, as `allOf` would).
            let reference = self.dynamic_reference(value, path, key)?;
            match ty.reference {
                None => ty.reference = reference,
                Some(_) => ty.all_of.push(Type {
                    reference,
                    ..Type::default()
                }),
            }
        }
        // Last: what they refuse depends on what every keyword above evaluated.
        ty.unevaluated_properties =
            self.unevaluated(seen.get("unevaluatedProperties"), since, path, depth)?;
        ty.unevaluated_items =
            self.unevaluated(seen.get("unevaluatedItems"), since, path, depth)?;
        let text = |keyword| typed(seen, keyword, path, "a string", Value::as_str);
        ty.description = text("description")?.map(|(_, text)| text.to_string());
        ty.format = self.format(seen, path)?;
        Ok(ty)
    }

    fn kinds(&self, value: &Value<'_>, path: &Path, key: &str) -> Result<Kinds, LoadError> {
        const EXPECTED: &str = "a type name (null, boolean, object, array, number, string, \
                                integer) or a non-empty array of them";
        let kind_of = |name: &str| -> Option<Kinds> {
            let lower;
            let name = if self.dialect == Dialect::Gemini {
                lower = name.to_ascii_lowercase();
                if lower == "type_unspecified" {
                    return Some(Kinds::ANY);
                }
                lower.as_str()
            } else {
                name
            };
            Kinds::named(name)
        };
        match value {
            Value::String(name) => {
                kind_of(name).ok_or_else(|| invalid(path, Some(key), EXPECTED, value))
            }
            Value::Array(names) if !names.is_empty() => {
                let mut kinds = Kinds::NONE;
                for name in names {
                    let one = name
                        .as_str()
                        .and_then(kind_of)
                        .ok_or_else(|| invalid(path, Some(key), EXPECTED, value))?;
                    kinds = kinds.union(one);
                }
                Ok(kinds)
            }
            _ => Err(invalid(path, Some(key), EXPECTED, value)),
        }
    }

    /// Enum values, owned. In the Gemini dialect, enums under a numeric type are written
    /// as strings (`{type: INTEGER, format: enum, enum: ["101", "201"]}`): read as numbers.
    fn enum_values(
        &self,
        values: &[Value<'_>],
        kinds: Kinds,
        path: &Path,
        key: &str,
    ) -> Result<Vec<Value<'static>>, LoadError> {
        let without_null = Kinds(kinds.0 & !Kinds::NULL.0);
        let numeric = self.dialect == Dialect::Gemini
            && (without_null == Kinds::INTEGER || without_null == Kinds::NUMBER);
        let mut out = Vec::with_capacity(values.len());
        for value in values {
            match (numeric, value) {
                (true, Value::String(text)) => {
                    let number = Number::from_text(text.to_string()).ok_or_else(|| {
                        invalid(
                            path,
                            Some(key),
                            "numbers (written as strings) under a numeric type",
                            value,
                        )
                    })?;
                    out.push(Value::Number(number));
                }
                _ => out.push(value.clone().into_owned()),
            }
        }
        Ok(out)
    }

    fn number_rules(
        &mut self,
        seen: &Seen<'v, 'a>,
        path: &Path,
        ty: &mut Type,
    ) -> Result<(), LoadError> {
        let number = |name: &str| -> Result<Option<Number<'static>>, LoadError> {
            match seen.get(name) {
                Some((_, Value::Number(n))) => Ok(Some(n.clone().into_owned())),
                Some((key, value)) => Err(invalid(path, Some(key), "a number", value)),
                None => Ok(None),
            }
        };
        let minimum = tighter(number("minimum")?, number("exclusiveMinimum")?, Side::Lower);
        let maximum = tighter(number("maximum")?, number("exclusiveMaximum")?, Side::Upper);
        let multiple_of = match seen.get("multipleOf") {
            Some((key, value)) => {
                let x = value.as_f64().unwrap_or(f64::NAN);
                if !(x.is_finite() && x > 0.0) {
                    return Err(invalid(path, Some(key), "a number above zero", value));
                }
                Some(x)
            }
            None => None,
        };
        ty.number = NumberRules {
            minimum,
            maximum,
            multiple_of,
        };
        Ok(())
    }

    /// A non-negative integer (`2` and `2.0` alike; in the Gemini dialect also `"2"`, as
    /// Google's SDKs write 64-bit integers). Counts beyond `u64` saturate, which changes
    /// nothing: no string or array is that long.
    fn count(
        &self,
        entry: Option<(&str, &Value<'_>)>,
        path: &Path,
    ) -> Result<Option<u64>, LoadError> {
        let Some((key, value)) = entry else {
            return Ok(None);
        };
        const EXPECTED: &str = "a non-negative integer";
        match value {
            Value::Number(n) => match n.as_i64() {
                Some(i) => u64::try_from(i)
                    .map(Some)
                    .map_err(|_| invalid(path, Some(key), EXPECTED, value)),
                None => {
                    let x = n.as_f64();
                    if x >= 0.0 && x.fract() == 0.0 {
                        Ok(Some(u64::MAX))
                    } else {
                        Err(invalid(path, Some(key), EXPECTED, value))
                    }
                }
            },
            Value::String(text) if self.dialect == Dialect::Gemini => text
                .parse::<u64>()
                .map(Some)
                .map_err(|_| invalid(path, Some(key), EXPECTED, value)),
            _ => Err(invalid(path, Some(key), EXPECTED, value)),
        }
    }

    fn object_rules(
        &mut self,
        seen: &Seen<'v, 'a>,
        path: &Path,
        depth: usize,
    ) -> Result<Option<Box<ObjectType>>, LoadError> {
        let properties = seen.get("properties");
        let required = seen.get("required");
        let names = seen.get("propertyNames");
        let (patterns, runs) = self.pattern_fields(seen, path, depth)?;
        // A lenient load that skips `patternProperties` skips `additionalProperties` too:
        // alone, it would refuse the members the patterns were there to admit.
        let additional = match seen.get("additionalProperties") {
            Some((key, _)) if !runs => {
                self.refuse(path, key)?;
                None
            }
            additional => additional,
        };
        if properties.is_none()
            && required.is_none()
            && additional.is_none()
            && names.is_none()
            && patterns.is_empty()
        {
            return Ok(None);
        }
        let mut fields: Vec<Field> = Vec::new();
        let expected = "an object of schemas";
        if let Some((key, map)) = typed(seen, "properties", path, expected, Value::as_object)? {
            let map_path = path.key(key);
            check_unique(map, &map_path)?;
            for (name, schema) in map {
                let ty = self.compile(schema, &map_path.key(name.as_ref()), depth + 1, false)?;
                fields.push(Field {
                    name: name.to_string(),
                    ty,
                    required: false,
                    declared: true,
                });
            }
        }
        let additional = match additional {
            Some((_, Value::Bool(true))) if self.tracks_evaluation => Additional::AllowedExplicitly,
            None | Some((_, Value::Bool(true))) => Additional::Allowed,
            Some((_, Value::Bool(false))) => Additional::Forbidden,
            Some((key, value)) => Additional::Typed(Box::new(self.compile(
                value,
                &path.key(key),
                depth + 1,
                false,
            )?)),
        };
        if let Some((key, value)) = required {
            const EXPECTED: &str = "an array of member names (strings)";
            let names = value
                .as_array()
                .ok_or_else(|| invalid(path, Some(key), EXPECTED, value))?;
            for name in names {
                let name = name
                    .as_str()
                    .ok_or_else(|| invalid(path, Some(key), EXPECTED, value))?;
                match fields.iter_mut().find(|field| field.name == name) {
                    Some(field) => field.required = true,
                    None => {
                        // Required but not declared: what `additionalProperties` says about
                        // an undeclared member is what applies to it, unless a pattern
                        // matches it (then the patterns' types do, checked as for any
                        // member).
                        let matched = patterns
                            .iter()
                            .any(|field| field.pattern.compiled().is_ok_and(|p| p.is_match(name)));
                        let ty = match &additional {
                            _ if matched => Type::default(),
                            Additional::Forbidden => Type {
                                kinds: Kinds::NONE,
                                ..Type::default()
                            },
                            Additional::Allowed | Additional::AllowedExplicitly => Type::default(),
                            Additional::Typed(ty) => (**ty).clone(),
                        };
                        fields.push(Field {
                            name: name.to_string(),
                            ty,
                            required: true,
                            declared: !self.tracks_evaluation,
                        });
                    }
                }
            }
        }
        let property_names = self.subschema(names, path, depth)?;
        Ok(Some(Box::new(ObjectType {
            fields,
            additional,
            property_names,
            patterns,
        })))
    }
}

/// `dependentRequired`: an object whose values are arrays of member names, none repeated
/// in one array (as the meta-schema says).
fn dependent_required(
    value: &Value<'_>,
    path: &Path,
    key: &str,
) -> Result<Vec<(String, Vec<String>)>, LoadError> {
    const EXPECTED: &str = "an object of arrays of member names (strings, each once)";
    let entries = value
        .as_object()
        .ok_or_else(|| invalid(path, Some(key), EXPECTED, value))?;
    check_unique(entries, &path.key(key))?;
    let mut out = Vec::with_capacity(entries.len());
    for (trigger, names) in entries {
        let names = names
            .as_array()
            .ok_or_else(|| invalid(path, Some(key), EXPECTED, value))?;
        let mut required: Vec<String> = Vec::with_capacity(names.len());
        for name in names {
            match name.as_str() {
                Some(name) if !required.iter().any(|seen| seen == name) => {
                    required.push(name.to_string());
                }
                _ => return Err(invalid(path, Some(key), EXPECTED, value)),
            }
        }
        out.push((trigger.to_string(), required));
    }
    Ok(out)
}

/// Which end of a range two bounds are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Lower,
    Upper,
}

/// The tighter of an inclusive and an exclusive bound on one side (compared exactly, as
/// decimals): `minimum: 5, exclusiveMinimum: 5` is `> 5`.
fn tighter(
    inclusive: Option<Number<'static>>,
    exclusive: Option<Number<'static>>,
    side: Side,
) -> Option<Bound> {
    match (inclusive, exclusive) {
        (None, None) => None,
        (Some(value), None) => Some(Bound::new(value, false)),
        (None, Some(value)) => Some(Bound::new(value, true)),
        (Some(inclusive), Some(exclusive)) => {
            let order = compare(inclusive.as_str(), exclusive.as_str());
            let inclusive_wins = match side {
                Side::Lower => order == Ordering::Greater,
                Side::Upper => order == Ordering::Less,
            };
            Some(if inclusive_wins {
                Bound::new(inclusive, false)
            } else {
                Bound::new(exclusive, true)
            })
        }
    }
}

/// Refuses an object with a duplicate key: two readers may keep different ones.
pub(super) fn check_unique(members: &[Member<'_>], path: &Path) -> Result<(), LoadError> {
    let Some((key, _)) = repeated_key(members, |(key, _)| key).and_then(|i| members.get(i)) else {
        return Ok(());
    };
    Err(LoadError::Invalid {
        path: path.to_string(),
        keyword: Some(key.to_string()),
        expected: "declared once (two JSON readers may keep different copies)",
        found: "it twice".to_string(),
    })
}

/// A keyword's value, as written and read by `read` (`Value::as_str`…); an
/// [`LoadError::Invalid`] saying it must be `expected` when `read` finds nothing.
pub(super) fn typed<'v, 'a, T>(
    seen: &Seen<'v, 'a>,
    keyword: &str,
    path: &Path,
    expected: &'static str,
    read: impl Fn(&'v Value<'a>) -> Option<T>,
) -> Result<Option<(&'v str, T)>, LoadError> {
    let Some((key, value)) = seen.get(keyword) else {
        return Ok(None);
    };
    match read(value) {
        Some(read) => Ok(Some((key, read))),
        None => Err(invalid(path, Some(key), expected, value)),
    }
}

impl Importer<'_, '_> {
    /// `format`, as written. A name [`Format::from_name`] knows is enforced; another
    /// (`float`, `uri-reference`, a vendor's own) is an annotation, as JSON Schema makes
    /// every format: a strict load accepts it, and a lenient load lists it as not enforced.
    fn format(&mut self, seen: &Seen<'_, '_>, path: &Path) -> Result<Option<String>, LoadError> {
        let Some((key, name)) = typed(
            seen,
            "format",
            path,
            "a string (a format name)",
            Value::as_str,
        )?
        else {
            return Ok(None);
        };
        if self.lenient && Format::from_name(name).is_none() {
            self.annotated_formats.push(Unenforced {
                path: path.to_string(),
                keyword: key.to_string(),
            });
        }
        Ok(Some(name.to_string()))
    }
}

/// An [`LoadError::Invalid`] showing what arrived.
pub(crate) fn invalid(
    path: &Path,
    keyword: Option<&str>,
    expected: &'static str,
    found: &Value<'_>,
) -> LoadError {
    LoadError::Invalid {
        path: path.to_string(),
        keyword: keyword.map(str::to_string),
        expected,
        found: crate::json::preview(found, crate::json::PREVIEW_CHARS),
    }
}
