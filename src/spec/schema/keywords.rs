//! The keyword table: enforced, annotation, structure or refused, per dialect, and where
//! subschemas stand. The Gemini dialect is JSON Schema in Google's SDK spellings
//! (snake_case, `ref`/`defs`, upper-case types, `nullable`, `propertyOrdering`).

use super::Dialect;
use Class::{Annotation, Enforced, Refused, Structure};

/// How a keyword holds subschemas.
#[derive(Clone, Copy)]
pub(super) enum Slot {
    /// One schema (`items`, `not`).
    One,
    /// An array of schemas (`anyOf`).
    List,
    /// A map from names to schemas (`properties`, `$defs`).
    Map,
}

/// What a keyword is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    /// Checked by the validator.
    Enforced,
    /// Asserts nothing; dropped, or kept for export (see [`Keep`]).
    Annotation,
    /// `$defs`, `definitions`, `$schema`, `$id`: about the document, handled apart.
    Structure,
    /// Asserts something toolgate does not check: refused (so is a keyword not listed).
    Refused,
}

/// One row of [`KEYWORDS`]: everything toolgate knows about a keyword.
pub(crate) struct Keyword {
    /// The JSON Schema spelling.
    pub(crate) name: &'static str,
    /// What it is in a JSON Schema document.
    pub(crate) class: Class,
    /// What it is in the Gemini dialect, where that differs.
    gemini: Option<Class>,
    /// Where it keeps subschemas, if it does (refused keywords too: `#/unevaluatedItems`
    /// names a schema even though it is not enforced).
    slot: Option<Slot>,
    /// A short note after "'keyword' is not enforced", where one helps.
    hint: Option<&'static str>,
    /// What the compiled type keeps of an annotation, for export.
    keep: Keep,
}

/// What the compiled type keeps of an annotation, so that exports can show it to the model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Keep {
    /// Nothing: it is dropped at load (`title`, `default`, `$comment`…).
    Nothing,
    /// A field of [`Type`](crate::spec::Type) holds it (`description`): the
    /// builder sets it too.
    Field,
    /// Kept as written in `Type::kept` (`example`, `discriminator`, `x-…` extensions):
    /// OpenAPI-generated schemas carry them, and they mean something to the model that
    /// reads the exported schema, though they assert nothing.
    AsWritten,
}

/// The one table of keywords. The importer classifies each keyword by it, follows `$ref`
/// pointers through its slots and names kept ones by it, and load
/// errors take their hints from it; the validator's test walks it and proves that every
/// row marked [`Class::Enforced`] compiles into an assertion that refuses a value. Every
/// keyword of draft 2020-12 (and of the drafts before it that toolgate reads) is a row,
/// and the OpenAPI and Gemini ones toolgate knows; a keyword not listed is refused as
/// unknown. To enforce a keyword: mark its row, add its assertion and its sample.
pub(crate) const KEYWORDS: &[Keyword] = &[
    // The validation vocabulary toolgate checks.
    kw("type", Enforced),
    kw("enum", Enforced),
    kw("const", Enforced),
    kw("minimum", Enforced),
    kw("maximum", Enforced),
    kw("exclusiveMinimum", Enforced),
    kw("exclusiveMaximum", Enforced),
    kw("multipleOf", Enforced),
    kw("minLength", Enforced),
    kw("maxLength", Enforced),
    // A keyword whose feature is off is refused by name, with the feature to turn on, in
    // the same slot: a rule is never dropped because a build left its checker out.
    #[cfg(feature = "pattern")]
    kw("pattern", Enforced),
    #[cfg(not(feature = "pattern"))]
    kw("pattern", Refused).hint(PATTERN_OFF),
    kw("prefixItems", Enforced).slot(Slot::List),
    // Enforced for the names `Format::from_name` knows (`date-time`, `email`, `int64`…);
    // another name is kept as an annotation and a lenient load lists it. Draft 2020-12
    // makes every format an annotation by default; `Schema::without_format_assertions`
    // reads it so.
    #[cfg(feature = "format")]
    kw("format", Enforced),
    #[cfg(not(feature = "format"))]
    kw("format", Refused).hint(FORMAT_OFF),
    kw("items", Enforced)
        .slot(Slot::One)
        .hint("an array of schemas is a tuple, which toolgate does not check"),
    kw("minItems", Enforced),
    kw("maxItems", Enforced),
    kw("uniqueItems", Enforced),
    kw("contains", Enforced).slot(Slot::One),
    kw("minContains", Enforced),
    kw("maxContains", Enforced),
    kw("properties", Enforced).slot(Slot::Map),
    kw("required", Enforced),
    kw("minProperties", Enforced),
    kw("maxProperties", Enforced),
    kw("dependentRequired", Enforced),
    kw("additionalProperties", Enforced).slot(Slot::One),
    kw("propertyNames", Enforced).slot(Slot::One),
    #[cfg(feature = "pattern")]
    kw("patternProperties", Enforced).slot(Slot::Map),
    #[cfg(not(feature = "pattern"))]
    kw("patternProperties", Refused)
        .slot(Slot::Map)
        .hint(PATTERN_OFF),
    kw("anyOf", Enforced).slot(Slot::List),
    kw("oneOf", Enforced).slot(Slot::List),
    kw("allOf", Enforced).slot(Slot::List),
    kw("not", Enforced).slot(Slot::One),
    kw("if", Enforced).slot(Slot::One),
    kw("then", Enforced).slot(Slot::One),
    kw("else", Enforced).slot(Slot::One),
    kw("dependentSchemas", Enforced).slot(Slot::Map),
    kw("$ref", Enforced),
    // Resolved at load in the dynamic scope it is reached in (see `dynamic.rs`): a `$ref`
    // from then on.
    kw("$dynamicRef", Enforced),
    // Judged last, on what every other keyword (and every matching subschema applied to the
    // same value) left unevaluated: see `spec/validate/unevaluated.rs`.
    kw("unevaluatedItems", Enforced).slot(Slot::One),
    kw("unevaluatedProperties", Enforced).slot(Slot::One),
    // Draft 2020-12 section 8 (content) and 9 (meta-data) of the validation vocabulary:
    // annotations, which assert nothing. `$anchor` and `$dynamicAnchor` only name a place:
    // a `#name` reference is resolved to the one schema that declares it (see
    // `find_anchor`), and a `$dynamicRef` by the dynamic scope (see `dynamic.rs`).
    kw("description", Annotation).keep(Keep::Field),
    kw("title", Annotation),
    kw("default", Annotation),
    kw("examples", Annotation),
    kw("$comment", Annotation),
    kw("deprecated", Annotation),
    kw("readOnly", Annotation),
    kw("writeOnly", Annotation),
    kw("contentEncoding", Annotation),
    kw("contentMediaType", Annotation),
    kw("contentSchema", Annotation).slot(Slot::One),
    kw("$anchor", Annotation),
    kw("$dynamicAnchor", Annotation),
    // OpenAPI's annotations, which OpenAPI-generated schemas carry: `example` (3.0's
    // `examples`), `externalDocs`, `xml`, `discriminator` (a hint beside `oneOf` or
    // `anyOf`, which are enforced themselves), and the `x-…` extensions (this row stands
    // for every keyword that starts with `x-`; see [`row`]).
    kw("example", Annotation).keep(Keep::AsWritten),
    kw("externalDocs", Annotation),
    kw("xml", Annotation),
    kw("discriminator", Annotation).keep(Keep::AsWritten),
    kw(EXTENSION, Annotation).keep(Keep::AsWritten),
    // About the document.
    kw("$defs", Structure).slot(Slot::Map),
    kw("definitions", Structure).slot(Slot::Map),
    kw("$schema", Structure).hint(
        "toolgate reads draft 2020-12, and draft 2019-09, draft-07 and draft-06, which \
         agree with it on the subset toolgate enforces",
    ),
    // A base URI for the references below it: see `uri.rs`.
    kw("$id", Structure),
    // OpenAPI 3.0's `nullable: true` (also the Gemini dialect's): adds `null` to the kinds
    // `type` names (with `enum`, `null` to the allowed values); without `type`, nothing.
    // Not a draft 2020-12 keyword, but OpenAPI-generated tool schemas carry it in plain
    // JSON Schema too, where refusing it would refuse the tool and ignoring it would refuse
    // the `null` it allows.
    kw("nullable", Enforced),
    // The Gemini dialect's own.
    kw("propertyOrdering", Refused).gemini(Annotation),
    // Known, and not enforced yet: refused by name.
    kw("additionalItems", Refused).slot(Slot::One),
    kw("dependencies", Refused),
    kw("$recursiveRef", Refused),
    kw("$recursiveAnchor", Refused),
    kw("$vocabulary", Refused),
];

/// The hint of `pattern` and `patternProperties` in a build without the regex engine.
#[cfg(not(feature = "pattern"))]
const PATTERN_OFF: &str =
    "this build of toolgate leaves out its 'pattern' feature, which enforces it";

/// The hint of `format` in a build without the format checkers. Every `format` is refused,
/// whatever its name: a name the checkers would enforce cannot be told from one they would
/// keep as an annotation without them.
#[cfg(not(feature = "format"))]
const FORMAT_OFF: &str =
    "this build of toolgate leaves out its 'format' feature, which enforces it";

/// A row with nothing but its name and class.
const fn kw(name: &'static str, class: Class) -> Keyword {
    Keyword {
        name,
        class,
        gemini: None,
        slot: None,
        hint: None,
        keep: Keep::Nothing,
    }
}

impl Keyword {
    const fn slot(self, slot: Slot) -> Keyword {
        Keyword {
            slot: Some(slot),
            ..self
        }
    }
    const fn gemini(self, class: Class) -> Keyword {
        Keyword {
            gemini: Some(class),
            ..self
        }
    }
    const fn hint(self, hint: &'static str) -> Keyword {
        Keyword {
            hint: Some(hint),
            ..self
        }
    }
    const fn keep(self, keep: Keep) -> Keyword {
        Keyword { keep, ..self }
    }
}

/// The name of the row that stands for every OpenAPI extension (`x-…`).
const EXTENSION: &str = "x-";

/// The row of `keyword` (already [`canonical`]), if the table has one: every `x-…`
/// extension has the one row named `x-`.
pub(crate) fn row(keyword: &str) -> Option<&'static Keyword> {
    let name = if keyword.starts_with(EXTENSION) {
        EXTENSION
    } else {
        keyword
    };
    KEYWORDS.iter().find(|row| row.name == name)
}

/// The keyword as JSON Schema spells it: in the Gemini dialect, the SDKs' snake_case and
/// `$`-less spellings map to their JSON Schema names.
pub(super) fn canonical(key: &str, dialect: Dialect) -> &str {
    if dialect == Dialect::JsonSchema {
        return key;
    }
    match key {
        "any_of" => "anyOf",
        "max_length" => "maxLength",
        "min_length" => "minLength",
        "max_items" => "maxItems",
        "min_items" => "minItems",
        "max_properties" => "maxProperties",
        "min_properties" => "minProperties",
        "property_ordering" => "propertyOrdering",
        "additional_properties" => "additionalProperties",
        "ref" => "$ref",
        "defs" => "$defs",
        other => other,
    }
}

/// Classifies a keyword (already [`canonical`]).
pub(super) fn class(keyword: &str, dialect: Dialect) -> Class {
    match row(keyword) {
        Some(row) if dialect == Dialect::Gemini => row.gemini.unwrap_or(row.class),
        Some(row) => row.class,
        None => Class::Refused,
    }
}

/// Where a keyword keeps subschemas, if it does (for walking a `$ref` pointer).
pub(super) fn schema_slot(keyword: &str, dialect: Dialect) -> Option<Slot> {
    row(canonical(keyword, dialect)).and_then(|row| row.slot)
}

/// A short note after "'keyword' is not enforced", where one helps.
pub(super) fn hint(keyword: &str) -> Option<&'static str> {
    row(keyword).and_then(|row| row.hint)
}

/// What the compiled type keeps of `keyword` (see [`Keep`]).
pub(super) fn keep(keyword: &str) -> Keep {
    row(keyword).map_or(Keep::Nothing, |row| row.keep)
}

/// The drafts toolgate reads, from `$schema`. `None` for one it does not know.
pub(super) fn draft(schema_uri: &str) -> Option<Draft> {
    let uri = schema_uri.trim_end_matches('#');
    let uri = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))?;
    match uri {
        "json-schema.org/draft/2020-12/schema" | "json-schema.org/draft/2019-09/schema" => {
            Some(Draft::Modern)
        }
        "json-schema.org/draft-07/schema" | "json-schema.org/draft-06/schema" => Some(Draft::Seven),
        _ => None,
    }
}

/// The drafts differ, on this subset, only in what stands beside `$ref`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Draft {
    /// 2019-09 and 2020-12: keywords beside `$ref` apply too.
    Modern,
    /// draft-06 and draft-07: keywords beside `$ref` are ignored.
    Seven,
}

/// The keyword's name with a `'static` lifetime (the table is static); `""` for one it
/// does not list.
pub(super) fn static_name(keyword: &str) -> &'static str {
    row(keyword).map_or("", |row| row.name)
}

/// The JSON Schema (or OpenAPI) keyword named `keyword`, with a `'static` lifetime, if it is
/// one toolgate knows of, enforced or not: for messages about a keyword kept from a lenient
/// load, which carry its name as data. `None` for a keyword no draft defines.
pub(crate) fn known_keyword(keyword: &str) -> Option<&'static str> {
    row(keyword).map(|row| row.name)
}
