//! Base URIs: each `$id` makes its schema a resource whose URI resolves against the one
//! around it (RFC 3986 section 5), and a `$ref` resolves against the resource it stands in.
//! A URI naming no resource of the document is another document, which is not fetched.

use super::keywords::{schema_slot, Slot};
use super::Dialect;
use crate::json::Value;

/// A schema with an `$id` (the root always counts, with the URI of its own `$id`, or the
/// empty one).
pub(super) struct Resource {
    /// Absolute, or relative to nothing when the root has no `$id`; without fragment.
    pub(super) uri: String,
    /// Where it stands, as pointer tokens from the document root.
    pub(super) tokens: Vec<String>,
}

/// Every resource of `document`, root first: the schemas reached through the keywords'
/// subschema slots (not data: an `$id` inside an `enum` names nothing) that hold a string
/// `$id`. An explicit stack: the document is as deep as the parser allowed.
pub(super) fn resources(document: &Value<'_>, dialect: Dialect) -> Vec<Resource> {
    let mut found = Vec::new();
    let mut stack: Vec<(&Value<'_>, Vec<String>, String)> =
        vec![(document, Vec::new(), String::new())];
    while let Some((schema, tokens, base)) = stack.pop() {
        let Some(members) = schema.as_object() else {
            continue;
        };
        let id = members
            .iter()
            .find(|(key, _)| key == "$id")
            .and_then(|(_, id)| id.as_str());
        let base = match id {
            // An `$id` that resolves to its base (empty, or a fragment alone, which draft
            // 2020-12 does not allow) names no resource of its own.
            Some(id) if resolve(&base, id) != base || tokens.is_empty() => {
                let uri = resolve(&base, id);
                found.push(Resource {
                    uri: uri.clone(),
                    tokens: tokens.clone(),
                });
                uri
            }
            _ if tokens.is_empty() => {
                found.push(Resource {
                    uri: String::new(),
                    tokens: Vec::new(),
                });
                base
            }
            _ => base,
        };
        for (value, below) in subschemas(members, &tokens, dialect) {
            stack.push((value, below, base.clone()));
        }
    }
    found
}

/// The schemas directly below a schema's members, with their pointer tokens.
pub(super) fn subschemas<'v, 'a>(
    members: &'v [(std::borrow::Cow<'a, str>, Value<'a>)],
    tokens: &[String],
    dialect: Dialect,
) -> Vec<(&'v Value<'a>, Vec<String>)> {
    let mut out = Vec::new();
    for (key, value) in members {
        let at = |more: Option<String>| -> Vec<String> {
            let mut path = tokens.to_vec();
            path.push(key.to_string());
            path.extend(more);
            path
        };
        match (schema_slot(key, dialect), value) {
            (Some(Slot::One), Value::Object(_)) => out.push((value, at(None))),
            (Some(Slot::One | Slot::List), Value::Array(items)) => {
                for (index, item) in items.iter().enumerate() {
                    out.push((item, at(Some(index.to_string()))));
                }
            }
            (Some(Slot::Map), Value::Object(entries)) => {
                for (entry, item) in entries {
                    out.push((item, at(Some(entry.to_string()))));
                }
            }
            _ => {}
        }
    }
    out
}

/// The resource `uri` names, when exactly one has it.
pub(super) fn find<'r>(resources: &'r [Resource], uri: &str) -> Option<&'r Resource> {
    let mut named = resources.iter().filter(|resource| resource.uri == uri);
    let first = named.next()?;
    named.next().is_none().then_some(first)
}

/// The innermost resource that holds the place at `tokens` (its index): the base its
/// `$ref`s resolve against, and the resource a reference to it enters.
pub(super) fn around(resources: &[Resource], tokens: &[String]) -> Option<usize> {
    resources
        .iter()
        .enumerate()
        .filter(|(_, resource)| tokens.starts_with(&resource.tokens))
        .max_by_key(|(_, resource)| resource.tokens.len())
        .map(|(index, _)| index)
}

/// `reference` (without its fragment) resolved against `base` (RFC 3986 section 5.2.2),
/// without fragment. A base of no scheme and no authority (the root had no `$id`) still
/// resolves paths, so that two references to one relative `$id` agree.
pub(super) fn resolve(base: &str, reference: &str) -> String {
    let reference = reference.split('#').next().unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default();
    if let Some(scheme) = scheme(reference) {
        let rest = reference.get(scheme.len()..).unwrap_or_default();
        let (authority, path, query) = split(rest);
        return join(scheme, authority, &remove_dots(path), query);
    }
    let scheme = scheme(base).unwrap_or_default();
    let (base_authority, base_path, base_query) = split(base.get(scheme.len()..).unwrap_or(""));
    let (authority, path, query) = split(reference);
    if authority.is_some() {
        return join(scheme, authority, &remove_dots(path), query);
    }
    if path.is_empty() {
        return join(scheme, base_authority, base_path, query.or(base_query));
    }
    if path.starts_with('/') {
        return join(scheme, base_authority, &remove_dots(path), query);
    }
    let merged = match base_path.rfind('/') {
        Some(slash) => format!("{}{path}", base_path.get(..=slash).unwrap_or_default()),
        None if base_authority.is_some() => format!("/{path}"),
        None => path.to_string(),
    };
    join(scheme, base_authority, &remove_dots(&merged), query)
}

/// A URI's scheme with its `:` (`https:`, `urn:`), if it starts with one.
fn scheme(uri: &str) -> Option<&str> {
    let colon = uri.find(':')?;
    let name = uri.get(..colon)?;
    let mut chars = name.chars();
    let starts = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    (starts && rest).then(|| uri.get(..=colon)).flatten()
}

/// What follows the scheme: the authority (after `//`), the path and the query (after `?`).
fn split(rest: &str) -> (Option<&str>, &str, Option<&str>) {
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (
                after.get(..end),
                after.get(end..).unwrap_or_default(),
                query,
            )
        }
        None => (None, rest, query),
    }
}

fn join(scheme: &str, authority: Option<&str>, path: &str, query: Option<&str>) -> String {
    let mut uri = scheme.to_string();
    if let Some(authority) = authority {
        uri.push_str("//");
        uri.push_str(authority);
    }
    uri.push_str(path);
    if let Some(query) = query {
        uri.push('?');
        uri.push_str(query);
    }
    uri
}

/// RFC 3986 section 5.2.4: `.` and `..` segments taken out of a path.
fn remove_dots(path: &str) -> String {
    let mut segments: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let parts: Vec<&str> = path.split('/').collect();
    let last = parts.len().saturating_sub(1);
    for (index, part) in parts.iter().enumerate() {
        match *part {
            "." => {
                if index == last {
                    segments.push("");
                }
            }
            ".." => {
                if segments.len() > usize::from(absolute) {
                    segments.pop();
                }
                if index == last {
                    segments.push("");
                }
            }
            part => segments.push(part),
        }
    }
    segments.join("/")
}

#[cfg(test)]
mod tests {
    use super::resolve;

    /// RFC 3986 section 5.4.1's normal examples (those without a fragment or a query
    /// alone), and the bases JSON Schema documents use.
    #[test]
    fn references_resolve_as_rfc_3986_says() {
        let base = "http://a/b/c/d;p?q";
        for (reference, expected) in [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            ("g..", "http://a/b/c/g.."),
            ("./../g", "http://a/b/g"),
            ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
        ] {
            assert_eq!(resolve(base, reference), expected, "{reference}");
        }
        assert_eq!(
            resolve("http://localhost:1234/draft2020-12/tree", "node"),
            "http://localhost:1234/draft2020-12/node"
        );
        assert_eq!(
            resolve("http://example.com", "x.json"),
            "http://example.com/x.json"
        );
        assert_eq!(
            resolve(
                "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed",
                "#/$defs/bar"
            ),
            "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed"
        );
        assert_eq!(resolve("", "node.json#"), "node.json");
        assert_eq!(
            resolve("file:///folder/file.json", "#foo"),
            "file:///folder/file.json"
        );
    }
}
