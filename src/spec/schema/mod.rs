//! JSON Schema import: the subset toolgate enforces, and a [`LoadError`] for every keyword
//! that would assert something toolgate does not check (a skipped `pattern` lets through
//! exactly what the author meant to stop). [`Schema::from_json_schema_lenient`] loads
//! anyway, lists each [`Unenforced`] keyword, and only ever accepts more, never less.

mod combinators;
mod dynamic;
mod graph;
mod import;
mod keywords;
// The readers of `pattern` and `patternProperties`; without the regex engine, readers that
// find nothing stand in (the keyword table refuses both keywords first).
#[cfg(feature = "pattern")]
mod patterns;
#[cfg(not(feature = "pattern"))]
#[path = "patterns_off.rs"]
mod patterns;
mod pointer;
mod references;
mod rules;
#[cfg(test)]
mod table_tests;
mod uri;

use super::names::Quoted;
use super::{Kinds, Schema, SpecError, ToolSpec};
use crate::json::{ParseError, Path, Value};
use std::fmt;

pub(crate) use graph::find_cycle;
pub(crate) use import::{import_schema, Dialect};
pub(crate) use keywords::known_keyword;
pub(crate) use pointer::fragment;

/// The keyword table's names and whether each is enforced in a JSON Schema document (for
/// the table's test that every enforced keyword refuses a value and is exported).
#[cfg(test)]
pub(crate) fn keyword_table() -> impl Iterator<Item = (&'static str, bool)> {
    keywords::KEYWORDS
        .iter()
        .map(|row| (row.name, row.class == keywords::Class::Enforced))
}

/// How deeply schemas may nest (each `properties`, `items`, `anyOf` entry… is one level).
/// Deeper schemas are refused with [`LoadError::TooDeep`], so that neither loading,
/// validation nor export can exhaust the stack. Half of
/// [`Limits::DEFAULT_MAX_DEPTH`](crate::json::Limits::DEFAULT_MAX_DEPTH): `properties` and
/// `anyOf` put two JSON levels between a schema and the next, so that is as deep as a
/// schema file the parser reads under its default limits can nest.
pub const MAX_SCHEMA_DEPTH: usize = crate::json::Limits::DEFAULT_MAX_DEPTH / 2;

/// A schema or tools file that cannot be loaded.
///
/// Every variant carries where the problem stands: a [`Path`] in its location form such as
/// `tools[2].input_schema.properties.zip` (empty for the root of a schema loaded on its
/// own), or for [`LoadError::Syntax`] the line and column.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum LoadError {
    /// The text is not JSON.
    Syntax(ParseError),
    /// A keyword that asserts something toolgate does not enforce (`additionalItems`,
    /// `$recursiveRef`, …), or one toolgate does not know at all.
    Unsupported {
        /// Where the keyword stands.
        path: String,
        /// The keyword, as written.
        keyword: String,
    },
    /// A `$ref` toolgate cannot follow.
    Reference {
        /// Where the `$ref` stands.
        path: String,
        /// The reference, as written.
        reference: String,
        /// Why it cannot be followed.
        problem: RefProblem,
    },
    /// A draft-07 (or draft-06) schema puts an asserting keyword beside `$ref`: those drafts
    /// ignore it, draft 2020-12 applies it, and toolgate will not guess which was meant.
    RefSibling {
        /// Where the `$ref` stands.
        path: String,
        /// The sibling keyword.
        keyword: String,
    },
    /// A keyword (or a schema) whose value has the wrong shape (`"minLength": -1`).
    Invalid {
        /// Where the value stands.
        path: String,
        /// The keyword, or `None` when the value should have been a schema.
        keyword: Option<String>,
        /// What JSON Schema allows there.
        expected: &'static str,
        /// What arrived, as compact JSON cut at [`PREVIEW_CHARS`](crate::json::PREVIEW_CHARS)
        /// characters.
        found: String,
    },
    /// A `pattern` (or a `patternProperties` name) that does not compile, or uses a
    /// construct toolgate cannot check in linear time (lookahead, lookbehind,
    /// backreferences), which the error names.
    Pattern {
        /// Where the `pattern` stands (for `patternProperties`, the map).
        path: String,
        /// `pattern` or `patternProperties`.
        keyword: &'static str,
        /// The pattern, as written.
        pattern: String,
        /// Why it is refused.
        error: crate::pattern::PatternError,
    },
    /// A place in the document that references reach in more dynamic scopes than toolgate
    /// compiles (a place is compiled once per scope a `$dynamicRef` can tell apart).
    DynamicScopes {
        /// Where the reference that would pass the limit stands.
        path: String,
        /// The reference, as written.
        reference: String,
        /// The scopes a place may be compiled in.
        limit: usize,
    },
    /// Schemas nested deeper than [`MAX_SCHEMA_DEPTH`].
    TooDeep {
        /// Where the limit was crossed.
        path: String,
        /// The limit.
        limit: usize,
    },
    /// A tools file whose structure is not a tools array in a provider's form.
    Shape {
        /// Where (`tools[3]`, `tools[0].name`).
        path: String,
        /// What was expected there.
        expected: &'static str,
        /// What arrived, as compact JSON cut at [`PREVIEW_CHARS`](crate::json::PREVIEW_CHARS)
        /// characters.
        found: String,
    },
    /// A provider's built-in tool (Anthropic `bash_20250124`, OpenAI `web_search`, Gemini
    /// `googleSearch`…): its arguments' schema is the provider's and is not in the file, so
    /// its calls cannot be checked.
    BuiltIn {
        /// Where it stands.
        path: String,
        /// Its type (`bash_20250124`) or key (`googleSearch`).
        kind: String,
    },
    /// Two tools share a name: a call could not say which one it means.
    DuplicateTool {
        /// Where the second one stands.
        path: String,
        /// The name.
        name: String,
        /// Where the first one stands.
        first: String,
    },
    /// The tool's declaration is wrong in itself (an invalid name, a contradiction).
    Spec {
        /// Where the tool stands.
        path: String,
        /// The builder's error (boxed: it is large, and errors travel through every
        /// `Result` of the loader).
        error: Box<SpecError>,
    },
}

/// Why a `$ref` cannot be followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefProblem {
    /// It points outside this document (`https://…`, `other.json#/…`, a URI that no `$id`
    /// of the document gives): toolgate loads nothing from the network or the disk.
    Remote,
    /// It names an anchor (`#foo`) that no schema of the document declares (`$anchor`)
    /// exactly once, outside schemas with an `$id` of their own.
    Anchor,
    /// Nothing stands at that pointer.
    NotFound,
    /// What stands there is not a schema (`#/properties`, a map of schemas).
    NotASchema,
    /// Following it leads back to itself without going into the value, so validation
    /// would never end (`{"$ref": "#"}`).
    Cycle,
}

/// A keyword a lenient load accepted without enforcing it: one it skipped, or a `format`
/// whose name toolgate does not check (an annotation, as in a strict load).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unenforced {
    /// Where it stands (`tools[2].input_schema.properties.zip`; empty for the root).
    pub path: String,
    /// The keyword (`pattern`).
    pub keyword: String,
}

impl Schema {
    /// Compiles a JSON Schema (draft 2020-12; draft-07, draft-06 and 2019-09 read the same
    /// on this subset) into a [`Schema`].
    ///
    /// Every validation and applicator keyword of draft 2020-12 is enforced except those
    /// [`LoadError::Unsupported`] names (`additionalItems`, `$recursiveRef`, an unknown
    /// keyword…); `format` for the names
    /// [`Format::from_name`](crate::spec::format::Format::from_name) knows (another name is
    /// an annotation; see `Schema::without_format_assertions`); OpenAPI's `nullable`;
    /// `$ref` and `$dynamicRef` inside the document, resolved against the nearest `$id`.
    /// Annotations (`title`, `default`, `examples`…) assert nothing; `description`,
    /// `example`, `discriminator` and `x-…` are kept for export. A keyword whose value is
    /// `null` counts as absent (SDK dumps write absent fields so), except `const`. As JSON
    /// Schema says, keywords about one kind of value ignore the others.
    ///
    /// # Errors
    /// - [`LoadError::Unsupported`]: a keyword toolgate does not enforce
    ///   (`additionalItems`, `$recursiveRef`, an unknown
    ///   `$schema`, an unknown keyword…),
    ///   with where it stands.
    /// - [`LoadError::Pattern`]: a `pattern` or `patternProperties` name that does not
    ///   compile, or uses a construct toolgate cannot run in linear time.
    /// - [`LoadError::Reference`]: a `$ref` that is remote, an anchor, dangling, not a
    ///   schema, or a cycle that never reaches into the value.
    /// - [`LoadError::RefSibling`]: an asserting keyword beside `$ref` in a draft-07 schema.
    /// - [`LoadError::Invalid`]: a keyword whose value JSON Schema does not allow.
    /// - [`LoadError::TooDeep`]: nesting beyond [`MAX_SCHEMA_DEPTH`].
    /// - [`LoadError::DynamicScopes`]: a place references reach in more dynamic scopes than
    ///   toolgate compiles.
    pub fn from_json_schema(schema: &Value<'_>) -> Result<Schema, LoadError> {
        import_schema(schema, &Path::root(), Dialect::JsonSchema, false).map(|(schema, _)| schema)
    }

    /// Like [`Schema::from_json_schema`], but a keyword toolgate does not enforce is skipped
    /// and listed instead of refused. What loads accepts every value the full schema
    /// accepts: a skipped `patternProperties` (one of its names uses a construct toolgate
    /// does not run) also skips the `additionalProperties` beside it, and a `oneOf` or
    /// `not` with a weakened schema is skipped whole (a weaker branch could make two
    /// branches match; a weaker negated schema refuses more), as is an `if` (a weaker
    /// condition would send values to `then` that belong to `else`).
    ///
    /// # Errors
    /// [`LoadError::Reference`] for a dangling, non-schema or cyclic `$ref`,
    /// [`LoadError::Invalid`] and [`LoadError::TooDeep`]: a malformed schema is still refused.
    pub fn from_json_schema_lenient(
        schema: &Value<'_>,
    ) -> Result<(Schema, Vec<Unenforced>), LoadError> {
        import_schema(schema, &Path::root(), Dialect::JsonSchema, true)
    }
}

impl ToolSpec {
    /// A spec from a JSON Schema for its arguments: [`Schema::from_json_schema`], then
    /// [`ToolSpec::from_schema`]. The gate has made sure the arguments are an object before
    /// a spec sees them, so a root that also accepts other kinds, or names none (`{}`,
    /// `{"properties": …}`), is read as `"type": "object"`.
    ///
    /// ```
    /// use toolgate::{json, ToolSpec};
    /// let schema = json::parse(r#"{"type": "object", "properties": {"city": {"type": "string"}},
    ///                              "required": ["city"], "additionalProperties": false}"#)?;
    /// let spec = ToolSpec::from_json_schema("get_weather", "Current weather.", &schema)?;
    /// assert!(spec.validate(&json::parse(r#"{"city": "Lyon"}"#)?).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Every error of [`Schema::from_json_schema`], and [`LoadError::Spec`] for an invalid
    /// name, a root that accepts no object, or a contradiction.
    pub fn from_json_schema(
        name: impl Into<String>,
        description: impl Into<String>,
        schema: &Value<'_>,
    ) -> Result<ToolSpec, LoadError> {
        let (schema, _) = import_schema(schema, &Path::root(), Dialect::JsonSchema, false)?;
        tool_spec(name.into(), description.into(), schema, &Path::root())
    }
}

/// A key's value, unless it is absent or `null`: SDK dumps write absent fields as `null`,
/// so in a schema or a tools file `null` means "not given" (the importer also skips a
/// `null` keyword, except `const`, where `null` is the value).
pub(crate) fn present<'v, 'a>(
    members: &'v [crate::json::Member<'a>],
    key: &str,
) -> Option<&'v Value<'a>> {
    members
        .iter()
        .find(|(name, value)| name == key && !value.is_null())
        .map(|(_, value)| value)
}

/// A spec from a compiled arguments schema, the root read as an object; errors at `path`.
pub(crate) fn tool_spec(
    name: String,
    description: String,
    mut schema: Schema,
    path: &Path,
) -> Result<ToolSpec, LoadError> {
    if schema.root.kinds.contains(Kinds::OBJECT) {
        schema.root.kinds = Kinds::OBJECT;
    }
    ToolSpec::from_schema(name, description, schema).map_err(|error| LoadError::Spec {
        path: path.to_string(),
        error: Box::new(error),
    })
}

impl LoadError {
    /// Where the problem stands: a dotted path, empty for a schema's root or for a
    /// [`LoadError::Syntax`] error (see its line and column).
    pub fn path(&self) -> &str {
        match self {
            LoadError::Syntax(_) => "",
            LoadError::Unsupported { path, .. }
            | LoadError::Reference { path, .. }
            | LoadError::RefSibling { path, .. }
            | LoadError::Invalid { path, .. }
            | LoadError::Pattern { path, .. }
            | LoadError::TooDeep { path, .. }
            | LoadError::DynamicScopes { path, .. }
            | LoadError::Shape { path, .. }
            | LoadError::BuiltIn { path, .. }
            | LoadError::DuplicateTool { path, .. }
            | LoadError::Spec { path, .. } => path,
        }
    }

    /// The keyword toolgate refused to load without enforcing, if that is the problem:
    /// the keyword of [`LoadError::Unsupported`] and [`LoadError::RefSibling`], and `$ref`
    /// for a remote or anchor [`LoadError::Reference`], and `pattern` (or
    /// `patternProperties`) for a [`LoadError::Pattern`] that uses a construct toolgate
    /// does not run (lookaround, backreferences, a Unicode property other than `L`, `N`
    /// and `Nd`).
    pub fn unsupported_keyword(&self) -> Option<&str> {
        match self {
            LoadError::Unsupported { keyword, .. } | LoadError::RefSibling { keyword, .. } => {
                Some(keyword)
            }
            LoadError::Reference {
                problem: RefProblem::Remote | RefProblem::Anchor,
                ..
            } => Some("$ref"),
            LoadError::Pattern { keyword, error, .. }
                if matches!(
                    error.kind(),
                    crate::pattern::PatternErrorKind::Unsupported(_)
                ) =>
            {
                Some(keyword)
            }
            _ => None,
        }
    }

    /// The JSON syntax error, if the text was not JSON.
    pub fn syntax(&self) -> Option<&ParseError> {
        match self {
            LoadError::Syntax(error) => Some(error),
            _ => None,
        }
    }
}

impl RefProblem {
    /// What the problem means, for messages.
    fn explain(self) -> &'static str {
        match self {
            RefProblem::Remote => {
                "is not enforced: toolgate follows only references inside this schema \
                 ('#', '#/$defs/NAME', '#/definitions/NAME' or another JSON pointer)"
            }
            RefProblem::Anchor => {
                "is not enforced: no schema of this document declares that '$anchor' exactly \
                 once (toolgate does not look inside a schema with an '$id' of its own)"
            }
            RefProblem::NotFound => "points at nothing: no schema stands there",
            RefProblem::NotASchema => "points at something that is not a schema",
            RefProblem::Cycle => {
                "leads back to itself without going into the value, so validation would \
                 never end"
            }
        }
    }
}

/// The path as messages show it: the root of a schema loaded on its own has no path.
fn place(path: &str) -> &str {
    if path.is_empty() {
        "the schema root"
    } else {
        path
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Syntax(error) => write!(f, "not valid JSON: {error}"),
            LoadError::Unsupported { path, keyword } => {
                write!(f, "{}: {} is not enforced", place(path), Quoted(keyword))?;
                match keywords::hint(keyword) {
                    Some(hint) => write!(f, " ({hint})"),
                    None => Ok(()),
                }
            }
            LoadError::Reference {
                path,
                reference,
                problem,
            } => write!(
                f,
                "{}: '$ref' to {} {}",
                place(path),
                Quoted(reference),
                problem.explain()
            ),
            LoadError::RefSibling { path, keyword } => write!(
                f,
                "{}: {} beside '$ref' is ignored by draft-07 but applied by draft 2020-12; \
                 say which with \"$schema\", or move it into 'allOf'",
                place(path),
                Quoted(keyword)
            ),
            LoadError::Invalid {
                path,
                keyword: Some(keyword),
                expected,
                found,
            } => write!(
                f,
                "{}: {} must be {expected}; found {found}",
                place(path),
                Quoted(keyword)
            ),
            LoadError::Invalid {
                path,
                keyword: None,
                expected,
                found,
            } => write!(f, "{}: expected {expected}; found {found}", place(path)),
            LoadError::Pattern {
                path,
                keyword,
                pattern,
                error,
            } => {
                let what = if *keyword == "pattern" {
                    "pattern"
                } else {
                    "patternProperties name"
                };
                write!(f, "{}: {what} {pattern:?} is refused: {error}", place(path))
            }
            LoadError::TooDeep { path, limit } => write!(
                f,
                "{}: schemas nest deeper than {limit} levels",
                place(path)
            ),
            LoadError::DynamicScopes {
                path,
                reference,
                limit,
            } => write!(
                f,
                "{}: the reference to {} reaches a schema in more than {limit} dynamic \
                 scopes (the resources that declare a '$dynamicAnchor' it leads to); toolgate \
                 compiles a schema once per scope, at most {limit} times",
                place(path),
                Quoted(reference)
            ),
            LoadError::Shape {
                path,
                expected,
                found,
            } => {
                let place = if path.is_empty() {
                    "the tools file"
                } else {
                    path
                };
                write!(f, "{place}: expected {expected}; found {found}")
            }
            LoadError::BuiltIn { path, kind } => write!(
                f,
                "{}: {} is a provider's built-in tool; its arguments' schema is not in \
                 the file, so its calls cannot be checked (declare it as a function tool, \
                 or load leniently to skip it)",
                place(path),
                Quoted(kind)
            ),
            LoadError::DuplicateTool { path, name, first } => write!(
                f,
                "{}: the tool name '{name}' is already declared at {first}",
                place(path)
            ),
            LoadError::Spec { path, error } if path.is_empty() => write!(f, "{error}"),
            LoadError::Spec { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

impl std::error::Error for LoadError {}

impl fmt::Display for Unenforced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} is not enforced",
            place(&self.path),
            Quoted(&self.keyword)
        )
    }
}
