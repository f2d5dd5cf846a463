//! The compiler: a JSON Schema document to a [`Schema`].
//!
//! The root is compiled in place. Every `$ref` names a place in the document by its JSON
//! pointer; each distinct place becomes one definition in [`Schema::defs`], compiled once
//! from a work list (never by recursion through references, so recursive schemas load in
//! bounded stack). Definitions are then ordered as the document declares them (`$defs`,
//! then `definitions`, then any other place in the order it was first referenced) and named
//! so that exporting and importing again gives the same [`Schema`].

use super::graph::{find_cycle, remap_references, weak_definitions};
use super::keywords::{self, canonical, class, coupled, Class, Draft};
use super::pointer::{fragment, parse_ref, path_of, push_index, push_key, resolve, Target};
use super::{LoadError, RefProblem, Unenforced, MAX_SCHEMA_DEPTH};
use crate::json::{Member, Number, Value};
use crate::spec::{Additional, ArrayRules, Bound, Field, Kinds, NumberRules, ObjectType};
use crate::spec::{Schema, StringRules, Type};

/// Which spelling of JSON Schema a document uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// JSON Schema, as Anthropic, OpenAI, MCP and Gemini's `parametersJsonSchema` take it.
    JsonSchema,
    /// Gemini's `parameters`: the same subset in the spellings Google's SDKs write (see
    /// [`keywords`]).
    Gemini,
}

/// Compiles `document`; `base` is put before every path in errors and in the unenforced
/// list (`tools[2].input_schema`). A lenient import lists refused keywords instead.
pub(crate) fn import_schema(
    document: &Value<'_>,
    base: &str,
    dialect: Dialect,
    lenient: bool,
) -> Result<(Schema, Vec<Unenforced>), LoadError> {
    let first = Importer::new(document, base, dialect, lenient, None)?.run()?;
    if !lenient || first.unenforced.is_empty() {
        return Ok((first.schema, first.unenforced));
    }
    // Something was skipped. A `oneOf` branch that got weaker could now match where it did
    // not, turning "exactly one" into "two": compile again knowing which definitions are
    // weakened, and skip every `oneOf` with a weakened branch.
    let weak = first.weak;
    let second = Importer::new(document, base, dialect, lenient, Some(weak))?.run()?;
    Ok((second.schema, second.unenforced))
}

/// What one compilation produced.
struct Output {
    schema: Schema,
    unenforced: Vec<Unenforced>,
    /// Per definition (in compile order), whether anything it reaches was skipped.
    weak: Vec<bool>,
}

/// A place in the document that a `$ref` names.
struct Target2 {
    /// Its JSON pointer tokens (empty: the root).
    tokens: Vec<String>,
    /// Compiled, once the work list reaches it.
    ty: Option<Type>,
    /// Every definition referenced anywhere inside it.
    refs: Vec<usize>,
    /// True if a keyword inside it was skipped (lenient loads).
    skipped: bool,
}

struct Importer<'v, 'a> {
    document: &'v Value<'a>,
    base: String,
    dialect: Dialect,
    lenient: bool,
    draft: Draft,
    root_id: Option<String>,
    targets: Vec<Target2>,
    pending: Vec<usize>,
    unenforced: Vec<Unenforced>,
    /// Every reference made, in order: a range of it is what one subtree referenced.
    ref_log: Vec<usize>,
    /// On the second pass of a lenient load: which definitions are weakened.
    weak: Option<Vec<bool>>,
}

/// Keywords of one schema object that the compiler reads, by their JSON Schema name.
struct Seen<'v, 'a> {
    entries: Vec<(&'static str, &'v str, &'v Value<'a>)>,
}

impl<'v, 'a> Seen<'v, 'a> {
    fn get(&self, keyword: &str) -> Option<(&'v str, &'v Value<'a>)> {
        self.entries
            .iter()
            .find(|(name, _, _)| *name == keyword)
            .map(|(_, written, value)| (*written, *value))
    }

    fn remove(&mut self, keyword: &str) -> Option<&'v str> {
        let index = self.entries.iter().position(|(name, _, _)| *name == keyword)?;
        Some(self.entries.remove(index).1)
    }
}

impl<'v, 'a> Importer<'v, 'a> {
    fn new(
        document: &'v Value<'a>,
        base: &str,
        dialect: Dialect,
        lenient: bool,
        weak: Option<Vec<bool>>,
    ) -> Result<Self, LoadError> {
        let mut importer = Importer {
            document,
            base: base.to_string(),
            dialect,
            lenient,
            draft: Draft::Modern,
            root_id: None,
            targets: Vec::new(),
            pending: Vec::new(),
            unenforced: Vec::new(),
            ref_log: Vec::new(),
            weak,
        };
        if let Some(members) = document.as_object() {
            let lookup = |key: &str| {
                members
                    .iter()
                    .find(|(name, value)| name == key && !value.is_null())
                    .map(|(_, value)| value)
            };
            if let Some(id) = lookup("$id") {
                let id = id.as_str().ok_or_else(|| {
                    invalid(base, Some("$id"), "a string (a URI)", id)
                })?;
                importer.root_id = Some(id.to_string());
            }
            if let Some(uri) = lookup("$schema") {
                let text = uri.as_str().ok_or_else(|| {
                    invalid(base, Some("$schema"), "a string (a URI)", uri)
                })?;
                // An unknown `$schema` is handled where the root is compiled (refused, or
                // in a lenient load the whole schema left unenforced).
                if let Some(draft) = keywords::draft(text) {
                    importer.draft = draft;
                }
            }
        }
        Ok(importer)
    }

    fn run(mut self) -> Result<Output, LoadError> {
        let base = self.base.clone();
        let log_start = self.ref_log.len();
        let before = self.unenforced.len();
        let mut root = self.compile(self.document, &base, 0, true)?;
        let root_refs = self.ref_log.get(log_start..).unwrap_or(&[]).to_vec();
        let root_skipped = self.unenforced.len() > before;
        // A `$ref` to `#` made the root a definition: the root then refers to it.
        if let Some(index) = self.targets.iter().position(|t| t.tokens.is_empty()) {
            if let Some(target) = self.targets.get_mut(index) {
                target.ty = Some(root);
                target.refs = root_refs;
                target.skipped = root_skipped;
            }
            root = Type {
                reference: Some(index),
                ..Type::default()
            };
        }
        while let Some(index) = self.pending.pop() {
            self.compile_target(index)?;
        }
        let weak = weak_definitions(
            &self
                .targets
                .iter()
                .map(|t| (t.skipped, t.refs.clone()))
                .collect::<Vec<_>>(),
        );
        let (defs, order) = self.name_definitions();
        let mut schema = Schema { root, defs };
        remap_references(&mut schema, &order);
        if let Some(index) = find_cycle(&schema.defs) {
            let tokens = order
                .iter()
                .position(|&new| new == index)
                .and_then(|old| self.targets.get(old))
                .map(|t| t.tokens.clone())
                .unwrap_or_default();
            let as_str: Vec<&str> = tokens.iter().map(String::as_str).collect();
            return Err(LoadError::Reference {
                path: path_of(&self.base, &tokens),
                reference: fragment(&as_str),
                problem: RefProblem::Cycle,
            });
        }
        let mut unenforced: Vec<Unenforced> = Vec::new();
        for entry in self.unenforced {
            if !unenforced.contains(&entry) {
                unenforced.push(entry);
            }
        }
        Ok(Output {
            schema,
            unenforced,
            weak,
        })
    }

    fn compile_target(&mut self, index: usize) -> Result<(), LoadError> {
        let tokens = match self.targets.get(index) {
            Some(target) => target.tokens.clone(),
            None => return Ok(()),
        };
        let path = path_of(&self.base, &tokens);
        let value = resolve(self.document, &tokens, self.dialect).map_err(|_| {
            // Checked when the reference was made; kept as an error, not a panic.
            LoadError::Reference {
                path: path.clone(),
                reference: fragment(&tokens.iter().map(String::as_str).collect::<Vec<_>>()),
                problem: RefProblem::NotFound,
            }
        })?;
        let log_start = self.ref_log.len();
        let before = self.unenforced.len();
        let ty = self.compile(value, &path, 0, false)?;
        let refs = self.ref_log.get(log_start..).unwrap_or(&[]).to_vec();
        let skipped = self.unenforced.len() > before;
        if let Some(target) = self.targets.get_mut(index) {
            target.ty = Some(ty);
            target.refs = refs;
            target.skipped = skipped;
        }
        Ok(())
    }

    /// Orders the definitions as the document declares them, names them, and returns them
    /// with `order[old index] = new index`.
    fn name_definitions(&mut self) -> (Vec<(String, Type)>, Vec<usize>) {
        let root_members = self.document.as_object().unwrap_or(&[]);
        let position = |map_key: &str, name: &str| -> Option<usize> {
            let (_, map) = root_members
                .iter()
                .find(|(key, _)| canonical(key, self.dialect) == map_key)?;
            map.as_object()?.iter().position(|(key, _)| key == name)
        };
        let mut keyed: Vec<((u8, usize), usize)> = Vec::new();
        for (index, target) in self.targets.iter().enumerate() {
            let key = match target.tokens.as_slice() {
                [map_key, name] if canonical(map_key, self.dialect) == "$defs" => {
                    (0, position("$defs", name).unwrap_or(index))
                }
                [map_key, name] if map_key == "definitions" => {
                    (1, position("definitions", name).unwrap_or(index))
                }
                _ => (2, index),
            };
            keyed.push((key, index));
        }
        keyed.sort();
        let mut order = vec![0; self.targets.len()];
        let mut defs: Vec<(String, Type)> = Vec::with_capacity(keyed.len());
        for (new_index, (_, old_index)) in keyed.iter().enumerate() {
            let Some(target) = self.targets.get_mut(*old_index) else {
                continue;
            };
            let wanted = match target.tokens.as_slice() {
                [map_key, name]
                    if canonical(map_key, self.dialect) == "$defs" || map_key == "definitions" =>
                {
                    name.clone()
                }
                [] => "root".to_string(),
                tokens => tokens.join("/"),
            };
            let mut name = wanted.clone();
            let mut suffix = 2;
            while defs.iter().any(|(taken, _)| *taken == name) {
                name = format!("{wanted}_{suffix}");
                suffix += 1;
            }
            if let Some(slot) = order.get_mut(*old_index) {
                *slot = new_index;
            }
            defs.push((name, target.ty.take().unwrap_or_default()));
        }
        (defs, order)
    }

    /// Records a keyword toolgate does not enforce: an error, or in a lenient load an entry
    /// in the list.
    fn refuse(&mut self, path: &str, keyword: &str) -> Result<(), LoadError> {
        if self.lenient {
            self.unenforced.push(Unenforced {
                path: path.to_string(),
                keyword: keyword.to_string(),
            });
            Ok(())
        } else {
            Err(LoadError::Unsupported {
                path: path.to_string(),
                keyword: keyword.to_string(),
            })
        }
    }

    fn compile(
        &mut self,
        value: &'v Value<'a>,
        path: &str,
        depth: usize,
        is_root: bool,
    ) -> Result<Type, LoadError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(LoadError::TooDeep {
                path: path.to_string(),
                limit: MAX_SCHEMA_DEPTH,
            });
        }
        match value {
            Value::Bool(true) => Ok(Type::default()),
            Value::Bool(false) => Ok(Type {
                kinds: Kinds::NONE,
                ..Type::default()
            }),
            Value::Object(members) => self.compile_object(members, path, depth, is_root),
            other => Err(invalid(
                path,
                None,
                "a schema (an object, true or false)",
                other,
            )),
        }
    }

    fn compile_object(
        &mut self,
        members: &'v [Member<'a>],
        path: &str,
        depth: usize,
        is_root: bool,
    ) -> Result<Type, LoadError> {
        check_unique(members, path)?;
        let mut seen = Seen {
            entries: Vec::new(),
        };
        let mut refused: Vec<&'v str> = Vec::new();
        for (key, value) in members {
            let key: &'v str = key.as_ref();
            let keyword = canonical(key, self.dialect);
            // SDK dumps write absent fields as null; for `const`, null is the value.
            if value.is_null() && keyword != "const" {
                continue;
            }
            match class(keyword, self.dialect) {
                Class::Enforced => seen.entries.push((static_name(keyword), key, value)),
                Class::Annotation => {
                    if keyword == "description" || keyword == "format" {
                        seen.entries.push((static_name(keyword), key, value));
                    }
                }
                Class::Structure => match keyword {
                    "$id" if !is_root => {
                        // A new base URI: references below would resolve elsewhere.
                        self.refuse(path, key)?;
                        return Ok(Type::default());
                    }
                    "$schema" => {
                        let draft = value.as_str().and_then(keywords::draft);
                        let known = if is_root {
                            draft.is_some()
                        } else {
                            draft == Some(self.draft)
                        };
                        if !known {
                            // Another dialect may give every keyword another meaning.
                            self.refuse(path, key)?;
                            return Ok(Type::default());
                        }
                    }
                    _ => {}
                },
                Class::Refused => refused.push(key),
            }
        }
        for key in &refused {
            self.refuse(path, key)?;
            if let Some(partner) = coupled(canonical(key, self.dialect)) {
                if let Some(written) = seen.remove(partner) {
                    self.refuse(path, written)?;
                }
            }
        }
        if self.draft == Draft::Seven && seen.get("$ref").is_some() {
            let siblings: Vec<(&'static str, &'v str)> = seen
                .entries
                .iter()
                .filter(|(name, _, _)| !matches!(*name, "$ref" | "description" | "format"))
                .map(|(name, written, _)| (*name, *written))
                .collect();
            for (name, written) in siblings {
                if !self.lenient {
                    return Err(LoadError::RefSibling {
                        path: path.to_string(),
                        keyword: written.to_string(),
                    });
                }
                // Draft-07 reads them as absent, and so does a lenient load: listed.
                self.refuse(path, written)?;
                seen.remove(name);
            }
        }
        self.build(&seen, path, depth)
    }

    fn build(&mut self, seen: &Seen<'v, 'a>, path: &str, depth: usize) -> Result<Type, LoadError> {
        let mut ty = Type::default();
        if let Some((key, value)) = seen.get("type") {
            ty.kinds = self.kinds(value, path, key)?;
        }
        if let Some((key, value)) = seen.get("enum") {
            let values = value
                .as_array()
                .ok_or_else(|| invalid(path, Some(key), "an array", value))?;
            ty.enumeration = Some(self.enum_values(values, ty.kinds, path, key)?);
        }
        if let Some((_, value)) = seen.get("const") {
            ty.constant = Some(value.clone().into_owned());
        }
        if let Some((key, value)) = seen.get("nullable") {
            let nullable = value
                .as_bool()
                .ok_or_else(|| invalid(path, Some(key), "true or false", value))?;
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
        };
        ty.array = ArrayRules {
            items: match seen.get("items") {
                Some((key, value)) if value.as_array().is_some() => {
                    // An array is a tuple (draft 2019-09 and earlier): not enforced.
                    self.refuse(path, key)?;
                    None
                }
                Some((key, value)) => {
                    Some(Box::new(self.compile(value, &child(path, key), depth + 1, false)?))
                }
                None => None,
            },
            min_items: self.count(seen.get("minItems"), path)?,
            max_items: self.count(seen.get("maxItems"), path)?,
            unique: match seen.get("uniqueItems") {
                Some((key, value)) => value
                    .as_bool()
                    .ok_or_else(|| invalid(path, Some(key), "true or false", value))?,
                None => false,
            },
        };
        ty.object = self.object_rules(seen, path, depth)?;
        if let Some((key, value)) = seen.get("anyOf") {
            ty.any_of = self.schema_list(value, path, key, depth)?;
        }
        if let Some((key, value)) = seen.get("allOf") {
            ty.all_of = self.schema_list(value, path, key, depth)?;
        }
        if let Some((key, value)) = seen.get("oneOf") {
            ty.one_of = self.one_of(value, path, key, depth)?;
        }
        if let Some((key, value)) = seen.get("$ref") {
            ty.reference = self.reference(value, path, key)?;
        }
        if let Some((key, value)) = seen.get("description") {
            let text = value
                .as_str()
                .ok_or_else(|| invalid(path, Some(key), "a string", value))?;
            ty.description = Some(text.to_string());
        }
        if let Some((key, value)) = seen.get("format") {
            let text = value
                .as_str()
                .ok_or_else(|| invalid(path, Some(key), "a string", value))?;
            ty.format = Some(text.to_string());
        }
        Ok(ty)
    }

    fn kinds(&self, value: &Value<'_>, path: &str, key: &str) -> Result<Kinds, LoadError> {
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
            Some(match name {
                "null" => Kinds::NULL,
                "boolean" => Kinds::BOOLEAN,
                "object" => Kinds::OBJECT,
                "array" => Kinds::ARRAY,
                "number" => Kinds::NUMBER,
                "string" => Kinds::STRING,
                "integer" => Kinds::INTEGER,
                _ => return None,
            })
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
        path: &str,
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
        path: &str,
        ty: &mut Type,
    ) -> Result<(), LoadError> {
        let number = |name: &str| -> Result<Option<Number<'static>>, LoadError> {
            match seen.get(name) {
                Some((_, Value::Number(n))) => Ok(Some(n.clone().into_owned())),
                Some((key, value)) => Err(invalid(path, Some(key), "a number", value)),
                None => Ok(None),
            }
        };
        let (minimum, extra_min) =
            tighter(number("minimum")?, number("exclusiveMinimum")?, Side::Lower);
        let (maximum, extra_max) =
            tighter(number("maximum")?, number("exclusiveMaximum")?, Side::Upper);
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
        // Both bounds of one side that toolgate cannot order exactly (they round to the
        // same f64 but are written differently) are both kept: one in an `allOf`.
        for extra in [extra_min, extra_max].into_iter().flatten() {
            ty.all_of.push(extra);
        }
        Ok(())
    }

    /// A non-negative integer (`2` and `2.0` alike; in the Gemini dialect also `"2"`, as
    /// Google's SDKs write 64-bit integers). Counts beyond `u64` saturate, which changes
    /// nothing: no string or array is that long.
    fn count(&self, entry: Option<(&str, &Value<'_>)>, path: &str) -> Result<Option<u64>, LoadError> {
        let Some((key, value)) = entry else {
            return Ok(None);
        };
        const EXPECTED: &str = "a non-negative integer";
        match value {
            Value::Number(n) => match n.as_i64() {
                Some(i) => u64::try_from(i).map(Some).map_err(|_| invalid(path, Some(key), EXPECTED, value)),
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
        path: &str,
        depth: usize,
    ) -> Result<Option<Box<ObjectType>>, LoadError> {
        let properties = seen.get("properties");
        let required = seen.get("required");
        let additional = seen.get("additionalProperties");
        let names = seen.get("propertyNames");
        if properties.is_none() && required.is_none() && additional.is_none() && names.is_none()
        {
            return Ok(None);
        }
        let mut fields: Vec<Field> = Vec::new();
        if let Some((key, value)) = properties {
            let map = value
                .as_object()
                .ok_or_else(|| invalid(path, Some(key), "an object of schemas", value))?;
            let map_path = child(path, key);
            check_unique(map, &map_path)?;
            for (name, schema) in map {
                let mut field_path = map_path.clone();
                push_key(&mut field_path, name);
                let ty = self.compile(schema, &field_path, depth + 1, false)?;
                fields.push(Field {
                    name: name.to_string(),
                    ty,
                    required: false,
                });
            }
        }
        let additional = match additional {
            None | Some((_, Value::Bool(true))) => Additional::Allowed,
            Some((_, Value::Bool(false))) => Additional::Forbidden,
            Some((key, value)) => Additional::Typed(Box::new(self.compile(
                value,
                &child(path, key),
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
                        // an undeclared member is what applies to it.
                        let ty = match &additional {
                            Additional::Forbidden => Type {
                                kinds: Kinds::NONE,
                                ..Type::default()
                            },
                            Additional::Allowed => Type::default(),
                            Additional::Typed(ty) => (**ty).clone(),
                        };
                        fields.push(Field {
                            name: name.to_string(),
                            ty,
                            required: true,
                        });
                    }
                }
            }
        }
        let property_names = match names {
            Some((key, value)) => Some(Box::new(self.compile(
                value,
                &child(path, key),
                depth + 1,
                false,
            )?)),
            None => None,
        };
        Ok(Some(Box::new(ObjectType {
            fields,
            additional,
            property_names,
        })))
    }

    fn schema_list(
        &mut self,
        value: &'v Value<'a>,
        path: &str,
        key: &str,
        depth: usize,
    ) -> Result<Vec<Type>, LoadError> {
        let items = match value.as_array() {
            Some(items) if !items.is_empty() => items,
            _ => return Err(invalid(path, Some(key), "a non-empty array of schemas", value)),
        };
        let list_path = child(path, key);
        let mut out = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let mut item_path = list_path.clone();
            push_index(&mut item_path, index);
            out.push(self.compile(item, &item_path, depth + 1, false)?);
        }
        Ok(out)
    }

    /// `oneOf`, skipped whole in a lenient load when a branch got weaker.
    fn one_of(
        &mut self,
        value: &'v Value<'a>,
        path: &str,
        key: &str,
        depth: usize,
    ) -> Result<Vec<Type>, LoadError> {
        let before = self.unenforced.len();
        let log_start = self.ref_log.len();
        let branches = self.schema_list(value, path, key, depth)?;
        let weakened = match &self.weak {
            Some(weak) => {
                self.unenforced.len() > before
                    || self
                        .ref_log
                        .get(log_start..)
                        .unwrap_or(&[])
                        .iter()
                        .any(|&index| weak.get(index).copied().unwrap_or(true))
            }
            None => false,
        };
        if weakened {
            self.refuse(path, key)?;
            return Ok(Vec::new());
        }
        Ok(branches)
    }

    fn reference(
        &mut self,
        value: &Value<'_>,
        path: &str,
        key: &str,
    ) -> Result<Option<usize>, LoadError> {
        let text = value
            .as_str()
            .ok_or_else(|| invalid(path, Some(key), "a string (a URI reference)", value))?;
        let problem = match parse_ref(text, self.root_id.as_deref()) {
            Target::Local(tokens) => return self.target_for(tokens, path, text).map(Some),
            Target::Remote => RefProblem::Remote,
            Target::Anchor => RefProblem::Anchor,
            Target::Malformed => {
                return Err(invalid(
                    path,
                    Some(key),
                    "a reference whose fragment is a JSON pointer (RFC 6901)",
                    value,
                ))
            }
        };
        if self.lenient {
            self.refuse(path, key)?;
            return Ok(None);
        }
        Err(LoadError::Reference {
            path: path.to_string(),
            reference: text.to_string(),
            problem,
        })
    }

    /// The definition for a place in the document, made (and queued) on first reference.
    fn target_for(&mut self, tokens: Vec<String>, path: &str, text: &str) -> Result<usize, LoadError> {
        if let Some(index) = self.targets.iter().position(|t| t.tokens == tokens) {
            self.ref_log.push(index);
            return Ok(index);
        }
        if let Err(missing) = resolve(self.document, &tokens, self.dialect) {
            return Err(LoadError::Reference {
                path: path.to_string(),
                reference: text.to_string(),
                problem: if missing {
                    RefProblem::NotFound
                } else {
                    RefProblem::NotASchema
                },
            });
        }
        let index = self.targets.len();
        let is_root = tokens.is_empty();
        self.targets.push(Target2 {
            tokens,
            ty: None,
            refs: Vec::new(),
            skipped: false,
        });
        if !is_root {
            self.pending.push(index);
        }
        self.ref_log.push(index);
        Ok(index)
    }
}

/// Which end of a range two bounds are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Lower,
    Upper,
}

/// The tighter of an inclusive and an exclusive bound on one side; when they cannot be
/// ordered exactly, the inclusive one and a type holding the exclusive one for `allOf`.
fn tighter(
    inclusive: Option<Number<'static>>,
    exclusive: Option<Number<'static>>,
    side: Side,
) -> (Option<Bound>, Option<Type>) {
    let bound = |value: Number<'static>, exclusive: bool| Bound { value, exclusive };
    match (inclusive, exclusive) {
        (None, None) => (None, None),
        (Some(value), None) => (Some(bound(value, false)), None),
        (None, Some(value)) => (Some(bound(value, true)), None),
        (Some(inclusive), Some(exclusive)) => {
            let (a, b) = (inclusive.as_f64(), exclusive.as_f64());
            // Rounding to f64 keeps order, so a strict inequality between the f64s is
            // exact; equal f64s are exact only when the decimals are equal.
            let inclusive_wins = match side {
                Side::Lower => a > b,
                Side::Upper => a < b,
            };
            if inclusive_wins {
                (Some(bound(inclusive, false)), None)
            } else if a != b || same_decimal(inclusive.as_str(), exclusive.as_str()) {
                (Some(bound(exclusive, true)), None)
            } else {
                let mut rules = NumberRules::default();
                match side {
                    Side::Lower => rules.minimum = Some(bound(exclusive, true)),
                    Side::Upper => rules.maximum = Some(bound(exclusive, true)),
                }
                let extra = Type {
                    number: rules,
                    ..Type::default()
                };
                (Some(bound(inclusive, false)), Some(extra))
            }
        }
    }
}

/// True if two JSON number texts denote the same value (`1`, `1.0` and `10e-1` do).
fn same_decimal(a: &str, b: &str) -> bool {
    normalize(a) == normalize(b)
}

/// A number's text as (negative, significant digits, power of ten), zero as `(false, "", 0)`.
fn normalize(text: &str) -> (bool, String, i64) {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (rest.get(..at).unwrap_or(""), rest.get(at + 1..).unwrap_or("0")),
        None => (rest, "0"),
    };
    let mut exponent: i64 = {
        let (sign, digits) = match exponent.strip_prefix('-') {
            Some(digits) => (-1, digits),
            None => (1, exponent.trim_start_matches('+')),
        };
        let mut value: i64 = 0;
        for digit in digits.bytes() {
            value = value
                .saturating_mul(10)
                .saturating_add(i64::from(digit.wrapping_sub(b'0')))
                .min(1 << 40);
        }
        sign * value
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: String = format!("{whole}{fraction}");
    exponent = exponent.saturating_sub(i64::try_from(fraction.len()).unwrap_or(i64::MAX));
    let trimmed = digits.trim_start_matches('0').to_string();
    digits = trimmed;
    while digits.ends_with('0') {
        digits.pop();
        exponent = exponent.saturating_add(1);
    }
    if digits.is_empty() {
        return (false, String::new(), 0);
    }
    (negative, digits, exponent)
}

/// Refuses an object with a duplicate key: two readers may keep different ones.
fn check_unique(members: &[Member<'_>], path: &str) -> Result<(), LoadError> {
    let mut names: Vec<&str> = members.iter().map(|(key, _)| key.as_ref()).collect();
    names.sort_unstable();
    for pair in names.windows(2) {
        if let [first, second] = pair {
            if first == second {
                return Err(LoadError::Invalid {
                    path: path.to_string(),
                    keyword: Some((*first).to_string()),
                    expected: "declared once (two JSON readers may keep different copies)",
                    found: "it twice".to_string(),
                });
            }
        }
    }
    Ok(())
}

/// `path.key`.
fn child(path: &str, key: &str) -> String {
    let mut out = path.to_string();
    push_key(&mut out, key);
    out
}

/// An [`LoadError::Invalid`] showing what arrived.
pub(crate) fn invalid(
    path: &str,
    keyword: Option<&str>,
    expected: &'static str,
    found: &Value<'_>,
) -> LoadError {
    LoadError::Invalid {
        path: path.to_string(),
        keyword: keyword.map(str::to_string),
        expected,
        found: shown(found),
    }
}

/// A value as compact JSON, cut at 120 characters on a character boundary.
pub(crate) fn shown(value: &Value<'_>) -> String {
    let text = value.to_string();
    match text.char_indices().nth(120) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or("")),
        None => text,
    }
}

/// The keyword's name with a `'static` lifetime (the classification tables are static).
fn static_name(keyword: &str) -> &'static str {
    const NAMES: &[&str] = &[
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "properties",
        "required",
        "additionalProperties",
        "propertyNames",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "description",
        "format",
        "nullable",
    ];
    NAMES
        .iter()
        .find(|name| **name == keyword)
        .copied()
        .unwrap_or("")
}
