//! Which keyword is which: enforced, an annotation, structure, or refused; and where
//! subschemas stand (for following `$ref` pointers).
//!
//! The Gemini dialect (the `parameters` of a Gemini function declaration) is JSON Schema
//! read with the spellings Google's SDKs write: snake_case (`any_of`, `max_length`),
//! `ref`/`defs` without the `$`, upper-case type names, `nullable`, `propertyOrdering` and
//! `example`. Everything else is the same subset with the same meaning.

use super::Dialect;

/// How a keyword holds subschemas.
pub(super) enum Slot {
    /// One schema (`items`, `not`).
    One,
    /// An array of schemas (`anyOf`).
    List,
    /// A map from names to schemas (`properties`, `$defs`).
    Map,
}

/// What a keyword is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// Checked by the validator.
    Enforced,
    /// Asserts nothing; ignored (or kept, for `description` and `format`).
    Annotation,
    /// `$defs`, `definitions`, `$schema`, `$id`: about the document, handled apart.
    Structure,
    /// Asserts something toolgate does not check, or is unknown: refused.
    Refused,
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
    match keyword {
        "type"
        | "enum"
        | "const"
        | "minimum"
        | "maximum"
        | "exclusiveMinimum"
        | "exclusiveMaximum"
        | "multipleOf"
        | "minLength"
        | "maxLength"
        | "items"
        | "minItems"
        | "maxItems"
        | "uniqueItems"
        | "properties"
        | "required"
        | "additionalProperties"
        | "propertyNames"
        | "anyOf"
        | "oneOf"
        | "allOf"
        | "$ref" => Class::Enforced,
        // Draft 2020-12 section 7 (format), 8 (content) and 9 (meta-data) of the
        // validation vocabulary: annotations, which assert nothing by default. `$anchor`
        // only names a place for `#name` references, which toolgate refuses anyway.
        "description" | "format" | "title" | "default" | "examples" | "$comment" | "deprecated"
        | "readOnly" | "writeOnly" | "contentEncoding" | "contentMediaType" | "contentSchema"
        | "$anchor" => Class::Annotation,
        // OpenAPI's annotations, which OpenAPI-generated schemas carry: `example` (3.0's
        // `examples`), `externalDocs`, `xml`, and `discriminator`, a hint beside `oneOf` or
        // `anyOf`, which are enforced themselves.
        "example" | "externalDocs" | "xml" | "discriminator" => Class::Annotation,
        "$defs" | "definitions" | "$schema" | "$id" => Class::Structure,
        "nullable" if dialect == Dialect::Gemini => Class::Enforced,
        "propertyOrdering" if dialect == Dialect::Gemini => Class::Annotation,
        _ => Class::Refused,
    }
}

/// Where a keyword keeps subschemas, if it does (for walking a `$ref` pointer). Refused
/// keywords count too: `#/not` names a schema even though `not` is not enforced.
pub(super) fn schema_slot(keyword: &str, dialect: Dialect) -> Option<Slot> {
    match canonical(keyword, dialect) {
        "items"
        | "additionalProperties"
        | "propertyNames"
        | "not"
        | "if"
        | "then"
        | "else"
        | "contains"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "additionalItems"
        | "contentSchema" => Some(Slot::One),
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Some(Slot::List),
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
            Some(Slot::Map)
        }
        _ => None,
    }
}

/// Draft 2020-12 keywords that assert something only together with a refused keyword
/// beside them: a lenient load must skip them too, or it would refuse values the schema
/// accepts (`additionalProperties` does not apply to names `patternProperties` matches;
/// `items` does not apply to the elements `prefixItems` covers).
pub(super) fn coupled(refused: &str) -> Option<&'static str> {
    match refused {
        "patternProperties" => Some("additionalProperties"),
        "prefixItems" => Some("items"),
        _ => None,
    }
}

/// A short note after "'keyword' is not enforced", where one helps.
pub(super) fn hint(keyword: &str) -> Option<&'static str> {
    match keyword {
        "$id" => Some(
            "below the root, '$id' changes where references point; toolgate resolves them \
             from the root only",
        ),
        "$schema" => Some(
            "toolgate reads draft 2020-12, and draft 2019-09, draft-07 and draft-06, which \
             agree with it on the subset toolgate enforces",
        ),
        "items" => Some("an array of schemas is a tuple, which toolgate does not check"),
        "nullable" => {
            Some("an OpenAPI keyword, not JSON Schema; write \"type\": [\"string\", \"null\"]")
        }
        _ => None,
    }
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

/// The keyword's name with a `'static` lifetime (the classification tables are static).
pub(super) fn static_name(keyword: &str) -> &'static str {
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

/// The JSON Schema (or OpenAPI) keyword named `keyword`, with a `'static` lifetime, if it is
/// one toolgate knows of, enforced or not: for messages about a keyword kept from a lenient
/// load, which carry its name as data. `None` for a keyword no draft defines.
pub(crate) fn known_keyword(keyword: &str) -> Option<&'static str> {
    const REFUSED: &[&str] = &[
        "not",
        "if",
        "then",
        "else",
        "pattern",
        "patternProperties",
        "prefixItems",
        "contains",
        "minContains",
        "maxContains",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "unevaluatedItems",
        "unevaluatedProperties",
        "additionalItems",
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
        "$vocabulary",
        "$id",
        "$schema",
    ];
    match static_name(keyword) {
        "" => REFUSED.iter().find(|name| **name == keyword).copied(),
        name => Some(name),
    }
}
