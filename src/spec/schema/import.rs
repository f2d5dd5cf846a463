//! The compiler: a JSON Schema document to a [`Schema`]. The root is compiled in place;
//! each place a `$ref` names becomes one definition, compiled once from a work list (bounded
//! stack for recursive schemas), then ordered and named as the document declares them so
//! that export and import round-trip.

use super::dynamic::Scope;
use super::graph::{find_cycle, remap_references, weak_definitions};
use super::keywords::{self, canonical, class, static_name, Class, Draft, Keep};
use super::pointer::{anchors, fragment, path_of, place_of, resolve};
use super::rules::{check_unique, invalid};
use super::uri::{self, Resource};
use super::{LoadError, RefProblem, Unenforced, MAX_SCHEMA_DEPTH};
use crate::json::{Member, Path, Value};
use crate::spec::format::Format;
use crate::spec::{Kinds, Schema, Type};

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
    base: &Path,
    dialect: Dialect,
    lenient: bool,
) -> Result<(Schema, Vec<Unenforced>), LoadError> {
    let first = Importer::new(document, base, dialect, lenient, None)?.run()?;
    if !lenient || first.unenforced.is_empty() {
        return Ok(first.loaded());
    }
    // Something was skipped. A `oneOf` branch that got weaker could now match where it did
    // not, turning "exactly one" into "two": compile again knowing which definitions are
    // weakened, and skip every `oneOf` with a weakened branch.
    let weak = first.weak;
    let second = Importer::new(document, base, dialect, lenient, Some(weak))?.run()?;
    Ok(second.loaded())
}

/// What one compilation produced.
struct Output {
    schema: Schema,
    /// What was skipped: the schema accepts more than the document says.
    unenforced: Vec<Unenforced>,
    /// The `format`s whose name toolgate does not enforce, listed by a lenient load. They
    /// are annotations in a strict load too, so they weaken nothing, and are apart from
    /// `unenforced`, which decides what is weakened.
    annotated_formats: Vec<Unenforced>,
    /// Per definition (in compile order), whether anything it reaches was skipped.
    weak: Vec<bool>,
}

impl Output {
    /// The schema, and every entry a lenient load lists: what was skipped, then the
    /// formats not enforced.
    fn loaded(self) -> (Schema, Vec<Unenforced>) {
        let mut listed = self.unenforced;
        for entry in self.annotated_formats {
            if !listed.contains(&entry) {
                listed.push(entry);
            }
        }
        (self.schema, listed)
    }
}

/// A place in the document that a `$ref` names, in one dynamic scope.
pub(super) struct Place {
    /// Its JSON pointer tokens (empty: the root).
    pub(super) tokens: Vec<String>,
    /// The dynamic scope it is reached in, its own resource entered (see
    /// [`dynamic`](super::dynamic)); the same place in another scope is another definition.
    pub(super) scope: Scope,
    /// Compiled, once the work list reaches it.
    pub(super) ty: Option<Type>,
    /// Every definition referenced anywhere inside it.
    pub(super) refs: Vec<usize>,
    /// True if a keyword inside it was skipped (lenient loads).
    pub(super) skipped: bool,
}

/// One compilation of one document: the places `$ref`s name, the work list of those not
/// compiled yet, and (leniently) what was skipped.
pub(super) struct Importer<'v, 'a> {
    pub(super) document: &'v Value<'a>,
    /// Put before every path (`tools[2].input_schema`).
    pub(super) base: Path,
    pub(super) dialect: Dialect,
    pub(super) lenient: bool,
    /// From the root's `$schema`; decides what stands beside `$ref`.
    pub(super) draft: Draft,
    /// The document's resources (the root, and every schema with an `$id`), and the base
    /// URI of the schema being compiled: what its `$ref`s resolve against.
    pub(super) resources: Vec<Resource>,
    pub(super) base_uri: String,
    /// For each resource, the names its `$dynamicAnchor`s declare; and the dynamic scope of
    /// the schema being compiled (see [`dynamic`](super::dynamic)).
    pub(super) dynamic_anchors: Vec<Vec<String>>,
    pub(super) scope: Scope,
    /// Every place a `$ref` names, in the order first referenced (the compile order).
    pub(super) targets: Vec<Place>,
    /// Places referenced but not compiled yet.
    pub(super) pending: Vec<usize>,
    pub(super) unenforced: Vec<Unenforced>,
    /// A lenient load's `format`s of a name toolgate does not enforce ([`Output`]).
    pub(super) annotated_formats: Vec<Unenforced>,
    /// Every reference made, in order: a range of it is what one subtree referenced.
    pub(super) ref_log: Vec<usize>,
    /// On the second pass of a lenient load: which definitions are weakened.
    pub(super) weak: Option<Vec<bool>>,
    /// True if the document uses `unevaluatedProperties`, which alone tells a member that
    /// `properties` (or `additionalProperties: true`) evaluates from one it does not: the
    /// types then keep the difference ([`Additional::AllowedExplicitly`],
    /// [`Field::declared`](crate::spec::Field)), and elsewhere they compare as before.
    ///
    /// [`Additional::AllowedExplicitly`]: crate::spec::Additional::AllowedExplicitly
    pub(super) tracks_evaluation: bool,
}

/// Keywords of one schema object that the compiler reads, by their JSON Schema name.
pub(super) struct Seen<'v, 'a> {
    pub(super) entries: Vec<(&'static str, &'v str, &'v Value<'a>)>,
}

impl<'v, 'a> Seen<'v, 'a> {
    pub(super) fn get(&self, keyword: &str) -> Option<(&'v str, &'v Value<'a>)> {
        self.entries
            .iter()
            .find(|(name, _, _)| *name == keyword)
            .map(|(_, written, value)| (*written, *value))
    }

    fn remove(&mut self, keyword: &str) -> Option<&'v str> {
        let index = self
            .entries
            .iter()
            .position(|(name, _, _)| *name == keyword)?;
        Some(self.entries.remove(index).1)
    }
}

impl<'v, 'a> Importer<'v, 'a> {
    fn new(
        document: &'v Value<'a>,
        base: &Path,
        dialect: Dialect,
        lenient: bool,
        weak: Option<Vec<bool>>,
    ) -> Result<Self, LoadError> {
        let mut importer = Importer {
            document,
            base: base.clone(),
            dialect,
            lenient,
            draft: Draft::Modern,
            base_uri: String::new(),
            resources: uri::resources(document, dialect),
            dynamic_anchors: Vec::new(),
            scope: Scope::default(),
            targets: Vec::new(),
            pending: Vec::new(),
            unenforced: Vec::new(),
            annotated_formats: Vec::new(),
            ref_log: Vec::new(),
            weak,
            tracks_evaluation: holds_member(document, &["unevaluatedProperties"]),
        };
        // Scopes matter only to a `$dynamicRef`: without one, every place has one scope.
        if holds_member(document, &["$dynamicRef"]) && holds_member(document, &["$dynamicAnchor"]) {
            importer.dynamic_anchors = importer
                .resources
                .iter()
                .map(|resource| {
                    anchors(document, &resource.tokens, dialect, &["$dynamicAnchor"])
                        .into_iter()
                        .map(|(name, _)| name)
                        .collect()
                })
                .collect();
        }
        if let Some(members) = document.as_object() {
            let lookup = |key: &str| super::present(members, key);
            if let Some(id) = lookup("$id") {
                id.as_str()
                    .ok_or_else(|| invalid(base, Some("$id"), "a string (a URI)", id))?;
            }
            if let Some(uri) = lookup("$schema") {
                let text = uri
                    .as_str()
                    .ok_or_else(|| invalid(base, Some("$schema"), "a string (a URI)", uri))?;
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
        self.scope = self.entering(&Scope::default(), Some(0));
        let root_scope = self.scope.clone();
        let mut root = self.compile(self.document, &base, 0, true)?;
        let root_refs = self.ref_log.get(log_start..).unwrap_or(&[]).to_vec();
        let root_skipped = self.unenforced.len() > before;
        while let Some(index) = self.pending.pop() {
            self.compile_target(index)?;
        }
        // A `$ref` to the root (`#`, or its `$id`), from the root or from a definition compiled
        // since, made the root a definition: the root then refers to it.
        let in_place = |t: &Place| t.tokens.is_empty() && t.scope == root_scope;
        if let Some(index) = self.targets.iter().position(in_place) {
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
        let weak = weak_definitions(
            &self
                .targets
                .iter()
                .map(|t| (t.skipped, t.refs.clone()))
                .collect::<Vec<_>>(),
        );
        let (defs, order) = self.name_definitions();
        let mut schema = Schema::new(root, defs);
        remap_references(&mut schema, &order);
        if let Some(index) = find_cycle(&schema.defs, 0..schema.defs.len()) {
            let tokens = order
                .iter()
                .position(|&new| new == index)
                .and_then(|old| self.targets.get(old))
                .map(|t| t.tokens.clone())
                .unwrap_or_default();
            return Err(LoadError::Reference {
                path: path_of(&self.base, &tokens).to_string(),
                reference: fragment(&place_of(&tokens)),
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
            annotated_formats: self.annotated_formats,
            weak,
        })
    }

    fn compile_target(&mut self, index: usize) -> Result<(), LoadError> {
        let (tokens, scope) = match self.targets.get(index) {
            Some(target) => (target.tokens.clone(), target.scope.clone()),
            None => return Ok(()),
        };
        let path = path_of(&self.base, &tokens);
        let value = resolve(self.document, &tokens, self.dialect).map_err(|_| {
            // Checked when the reference was made; kept as an error, not a panic.
            LoadError::Reference {
                path: path.to_string(),
                reference: fragment(&place_of(&tokens)),
                problem: RefProblem::NotFound,
            }
        })?;
        let log_start = self.ref_log.len();
        let before = self.unenforced.len();
        // A target's references resolve against the resource it stands in.
        let base = uri::around(&self.resources, &tokens)
            .and_then(|index| self.resources.get(index))
            .map_or_else(String::new, |r| r.uri.clone());
        let outer = std::mem::replace(&mut self.base_uri, base);
        let outer_scope = std::mem::replace(&mut self.scope, scope);
        let compiled = self.compile(value, &path, 0, false);
        self.base_uri = outer;
        self.scope = outer_scope;
        let ty = compiled?;
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
            let taken = |name: &str| defs.iter().any(|(other, _)| other == name);
            let wanted = match target.tokens.as_slice() {
                [map_key, name] if canonical(map_key, self.dialect) == "$defs" => name.clone(),
                // draft-07's name, unless a `$defs` entry has it already.
                [map_key, name] if map_key == "definitions" && !taken(name) => name.clone(),
                [] => "root".to_string(),
                tokens => tokens.join("/"),
            };
            let mut name = wanted.clone();
            let mut suffix = 2;
            while taken(&name) {
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
    pub(super) fn refuse(&mut self, path: &Path, keyword: &str) -> Result<(), LoadError> {
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

    pub(super) fn compile(
        &mut self,
        value: &'v Value<'a>,
        path: &Path,
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

    /// A schema object, its references resolved against its own `$id` when it has one
    /// (relative to the base around it), else against that base.
    fn compile_object(
        &mut self,
        members: &'v [Member<'a>],
        path: &Path,
        depth: usize,
        is_root: bool,
    ) -> Result<Type, LoadError> {
        let id = super::present(members, "$id").and_then(Value::as_str);
        let Some(id) = id else {
            return self.compile_members(members, path, depth, is_root);
        };
        let base = uri::resolve(&self.base_uri, id);
        let resource = self.resources.iter().position(|r| r.uri == base);
        let scope = self.entering(&self.scope, resource);
        let outer = std::mem::replace(&mut self.base_uri, base);
        let outer_scope = std::mem::replace(&mut self.scope, scope);
        let compiled = self.compile_members(members, path, depth, is_root);
        self.base_uri = outer;
        self.scope = outer_scope;
        compiled
    }

    fn compile_members(
        &mut self,
        members: &'v [Member<'a>],
        path: &Path,
        depth: usize,
        is_root: bool,
    ) -> Result<Type, LoadError> {
        check_unique(members, path)?;
        let mut seen = Seen {
            entries: Vec::new(),
        };
        let mut refused: Vec<&'v str> = Vec::new();
        let mut kept: Vec<String> = Vec::new();
        for (key, value) in members {
            let key: &'v str = key.as_ref();
            let keyword = canonical(key, self.dialect);
            // SDK dumps write absent fields as null; for `const`, null is the value.
            if value.is_null() && keyword != "const" {
                continue;
            }
            match class(keyword, self.dialect) {
                Class::Enforced => seen.entries.push((static_name(keyword), key, value)),
                Class::Annotation => match keywords::keep(keyword) {
                    Keep::Field => seen.entries.push((static_name(keyword), key, value)),
                    Keep::AsWritten => kept.push(key.to_string()),
                    Keep::Nothing => {}
                },
                Class::Structure => match keyword {
                    // A new base URI for the references below (see `compile_object`).
                    "$id" if value.as_str().is_none() => {
                        return Err(invalid(path, Some(key), "a string (a URI)", value));
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
                            return Ok(skipped_whole(members, self.dialect));
                        }
                    }
                    _ => {}
                },
                Class::Refused => refused.push(key),
            }
        }
        // What a lenient load skips at this schema (not below it) is kept as annotations:
        // the refused keywords now, and what `build` skips (a tuple
        // `items`, a weakened `oneOf`, a remote `$ref`). Not what draft-07 ignores beside
        // `$ref`: that was never part of the schema's meaning.
        let here = path.to_string();
        // What this schema object weakens from here on (its refused keywords, what `build`
        // skips in it or below): `unevaluated*` asks it.
        let since = self.mark();
        let skipped_from = self.unenforced.len();
        for key in &refused {
            self.refuse(path, key)?;
        }
        let mut skipped: Vec<String> = self.skipped_since(skipped_from, &here);
        if self.draft == Draft::Seven && seen.get("$ref").is_some() {
            let siblings: Vec<(&'static str, &'v str)> = seen
                .entries
                .iter()
                .filter(|(name, _, value)| *name != "$ref" && asserts(name, value))
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
        let build_from = self.unenforced.len();
        let mut ty = self.build(&seen, path, depth, since)?;
        skipped.extend(self.skipped_since(build_from, &here));
        ty.annotations = annotations(members, &skipped, self.dialect);
        ty.kept = annotations(members, &kept, self.dialect);
        Ok(ty)
    }

    /// The keywords listed as unenforced at `here` since entry `from` of the list.
    fn skipped_since(&self, from: usize, here: &str) -> Vec<String> {
        self.unenforced
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .filter(|entry| entry.path == here)
            .map(|entry| entry.keyword.clone())
            .collect()
    }
}

/// True if `keyword` (an enforced or kept one) with this value asserts something: not a
/// kept annotation, nor a `format` toolgate does not enforce (both stay beside a draft-07
/// `$ref`, which would otherwise ignore them).
fn asserts(keyword: &str, value: &Value<'_>) -> bool {
    match keyword {
        "format" => value.as_str().and_then(Format::from_name).is_some(),
        _ => keywords::keep(keyword) != Keep::Field,
    }
}

/// A schema a lenient load skipped whole (one of an unknown `$schema`):
/// it asserts nothing, and keeps every keyword it can for the export.
fn skipped_whole(members: &[Member<'_>], dialect: Dialect) -> Type {
    let keys: Vec<String> = members.iter().map(|(key, _)| key.to_string()).collect();
    Type {
        annotations: annotations(members, &keys, dialect),
        ..Type::default()
    }
}

/// The members of a schema object named in `keys`, as annotations (skipped keywords, or
/// kept ones such as `example`): each once, in document
/// order, under its JSON Schema spelling; a value holding a reference is left out (it names
/// a place in this document, which the export does not keep).
fn annotations(
    members: &[Member<'_>],
    keys: &[String],
    dialect: Dialect,
) -> Vec<(String, Value<'static>)> {
    let mut kept: Vec<(String, Value<'static>)> = Vec::new();
    for (key, value) in members {
        let name = canonical(key, dialect);
        let wanted = keys.iter().any(|skipped| skipped == key.as_ref());
        if wanted && !kept.iter().any(|(other, _)| other == name) && !holds_reference(value) {
            kept.push((name.to_string(), value.clone().into_owned()));
        }
    }
    kept
}

/// True if a `$ref` (or `$dynamicRef`, `$recursiveRef`, Gemini's `ref`) stands anywhere
/// inside `value` as a member name. Walked with an explicit stack: the value is as deep as
/// the document allows.
fn holds_reference(value: &Value<'_>) -> bool {
    holds_member(value, &["$ref", "$dynamicRef", "$recursiveRef", "ref"])
}

/// True if one of `names` stands anywhere inside `value` as a member name.
fn holds_member(value: &Value<'_>, names: &[&str]) -> bool {
    let mut stack: Vec<&Value<'_>> = vec![value];
    while let Some(next) = stack.pop() {
        match next {
            Value::Object(members) => {
                for (key, inner) in members {
                    if names.contains(&key.as_ref()) {
                        return true;
                    }
                    stack.push(inner);
                }
            }
            Value::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
    false
}
