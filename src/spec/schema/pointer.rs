//! `$ref` targets (a URI fragment holding an RFC 6901 JSON pointer, percent-decoded first)
//! and the [`Path`]s messages show for them (`properties.zip`, `anyOf[1]`).

use super::keywords::{schema_slot, Slot};
use super::uri::{subschemas, Resource};
use super::Dialect;
use crate::json::{Path, Segment, Value};

/// What a `$ref` string names.
pub(super) enum Target {
    /// A place in this document, as pointer tokens from its root (empty: the root).
    Local(Vec<String>),
    /// Somewhere else: another document, or a URI no resource of this one has.
    Remote,
    /// A plain-name fragment (`#foo`), percent-decoded: the schema whose `$anchor` it is,
    /// inside the resource at the tokens.
    Anchor(Vec<String>, String),
    /// A fragment that is not valid percent-encoding or pointer escaping.
    Malformed,
}

/// Reads a `$ref` standing in a schema whose base URI is `base` (see [`uri`](super::uri)):
/// its URI part names one of the document's `resources` (nothing: the base's own), its
/// fragment a place in that resource.
pub(super) fn parse_ref(reference: &str, base: &str, resources: &[Resource]) -> Target {
    let (document, fragment) = match reference.split_once('#') {
        Some((document, fragment)) => (document, fragment),
        None => (reference, ""),
    };
    let uri = super::uri::resolve(base, document);
    let Some(resource) = super::uri::find(resources, &uri) else {
        return Target::Remote;
    };
    let Some(decoded) = percent_decode(fragment) else {
        return Target::Malformed;
    };
    let mut tokens = resource.tokens.clone();
    if decoded.is_empty() {
        return Target::Local(tokens);
    }
    let Some(rest) = decoded.strip_prefix('/') else {
        return Target::Anchor(tokens, decoded);
    };
    for raw in rest.split('/') {
        match unescape_token(raw) {
            Some(token) => tokens.push(token),
            None => return Target::Malformed,
        }
    }
    Target::Local(tokens)
}

/// The place of the one schema whose `$anchor` (or `$dynamicAnchor`) is `name` inside the
/// resource at `start` (what a `#name` reference names). `None` when no schema, or more
/// than one, has it.
pub(super) fn find_anchor(
    document: &Value<'_>,
    start: &[String],
    name: &str,
    dialect: Dialect,
) -> Option<Vec<String>> {
    let mut found: Vec<Vec<String>> =
        anchors(document, start, dialect, &["$anchor", "$dynamicAnchor"])
            .into_iter()
            .filter(|(anchor, _)| anchor == name)
            .map(|(_, tokens)| tokens)
            .collect();
    // One schema may declare the name both ways.
    found.dedup();
    match <[Vec<String>; 1]>::try_from(found) {
        Ok([tokens]) => Some(tokens),
        Err(_) => None,
    }
}

/// Every anchor that one of `keywords` (`$anchor`, `$dynamicAnchor`) declares inside the
/// resource at `start`, with the place of its schema: every subschema is walked through the
/// keywords' slots, except those with an `$id` of their own (other resources, whose anchors
/// are their own). An explicit stack: the document is as deep as the parser allowed.
pub(super) fn anchors(
    document: &Value<'_>,
    start: &[String],
    dialect: Dialect,
    keywords: &[&str],
) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    let Ok(resource) = resolve(document, start, dialect) else {
        return found;
    };
    let mut stack: Vec<(&Value<'_>, Vec<String>)> = vec![(resource, start.to_vec())];
    while let Some((schema, tokens)) = stack.pop() {
        let Some(members) = schema.as_object() else {
            continue;
        };
        if tokens.len() > start.len() && members.iter().any(|(key, _)| key == "$id") {
            continue;
        }
        for (key, value) in members {
            if let (true, Some(name)) = (keywords.contains(&key.as_ref()), value.as_str()) {
                found.push((name.to_string(), tokens.clone()));
            }
        }
        stack.extend(subschemas(members, &tokens, dialect));
    }
    found
}

/// Follows pointer tokens from the document root, stepping only through places that hold
/// schemas, so that `#/properties` (a map of schemas) or `#/enum/0` (data) are refused.
///
/// # Errors
/// `Err(true)` if nothing stands there, `Err(false)` if what stands there is not a schema.
pub(super) fn resolve<'v, 'a>(
    document: &'v Value<'a>,
    tokens: &[String],
    dialect: Dialect,
) -> Result<&'v Value<'a>, bool> {
    let mut here = document;
    let mut rest = tokens;
    while let Some((keyword, after)) = rest.split_first() {
        let value = here.as_object().ok_or(false)?;
        let next = value
            .iter()
            .find(|(key, _)| key == keyword)
            .map(|(_, value)| value)
            .ok_or(true)?;
        rest = after;
        here = match schema_slot(keyword, dialect) {
            Some(Slot::One) if next.as_array().is_none() => next,
            Some(Slot::One | Slot::List) => {
                let (index, after) = rest.split_first().ok_or(false)?;
                rest = after;
                let index: usize = index.parse().map_err(|_| true)?;
                next.as_array().ok_or(false)?.get(index).ok_or(true)?
            }
            Some(Slot::Map) => {
                let (name, after) = rest.split_first().ok_or(false)?;
                rest = after;
                let map = next.as_object().ok_or(false)?;
                map.iter()
                    .find(|(key, _)| key == name)
                    .map(|(_, value)| value)
                    .ok_or(true)?
            }
            None => return Err(false),
        };
    }
    match here {
        Value::Object(_) | Value::Bool(_) => Ok(here),
        _ => Err(false),
    }
}

/// A place as a `$ref` fragment: its JSON pointer (RFC 6901), with every byte a URI
/// fragment may not hold percent-encoded (RFC 3986).
pub(crate) fn fragment(place: &Path) -> String {
    let pointer = place.pointer();
    let mut out = String::with_capacity(pointer.len() + 1);
    out.push('#');
    for byte in pointer.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
            | b':'
            | b'@' => out.push(char::from(byte)),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                for nibble in [byte >> 4, byte & 0xf] {
                    if let Some(&digit) = HEX.get(usize::from(nibble)) {
                        out.push(char::from(digit));
                    }
                }
            }
        }
    }
    out
}

/// The place pointer tokens name, as a path from `base`: a token that is a decimal
/// number is read as an item's index (`anyOf[1]`), any other as a member's key.
pub(super) fn path_of(base: &Path, tokens: &[String]) -> Path {
    let mut path = base.clone();
    for token in tokens {
        match token.parse::<usize>() {
            Ok(index) if !token.starts_with('+') => path.push(Segment::Index(index)),
            _ => path.push(Segment::Key(token.clone())),
        }
    }
    path
}

/// The place pointer tokens name, every token a key: the same pointer written back.
pub(super) fn place_of(tokens: &[String]) -> Path {
    tokens.iter().cloned().map(Segment::Key).collect()
}

/// RFC 6901 token unescaping: `~1` is `/`, `~0` is `~`, any other `~` is an error.
fn unescape_token(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// RFC 3986 percent-decoding; `None` for a bad escape or bytes that are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            let high = hex_value(*bytes.get(index + 1)?)?;
            let low = hex_value(*bytes.get(index + 2)?)?;
            out.push(high << 4 | low);
            index += 3;
        } else {
            out.push(byte);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The resources of `{"$id": "https://example.com/root.json", "$defs": {"n": {"$id":
    /// "n.json"}}}`.
    fn resources() -> Vec<Resource> {
        vec![
            Resource {
                uri: "https://example.com/root.json".into(),
                tokens: vec![],
            },
            Resource {
                uri: "https://example.com/n.json".into(),
                tokens: vec!["$defs".into(), "n".into()],
            },
        ]
    }

    fn parse(reference: &str) -> Target {
        parse_ref(reference, "https://example.com/root.json", &resources())
    }

    fn local(reference: &str) -> Option<Vec<String>> {
        match parse(reference) {
            Target::Local(tokens) => Some(tokens),
            _ => None,
        }
    }

    #[test]
    fn pointers_are_percent_decoded_then_unescaped() {
        assert_eq!(local("#"), Some(vec![]));
        assert_eq!(local(""), Some(vec![]));
        assert_eq!(local("#/$defs/a"), Some(vec!["$defs".into(), "a".into()]));
        assert_eq!(
            local("#/$defs/tilde~0field"),
            Some(vec!["$defs".into(), "tilde~field".into()])
        );
        assert_eq!(
            local("#/$defs/slash~1field"),
            Some(vec!["$defs".into(), "slash/field".into()])
        );
        assert_eq!(
            local("#/$defs/percent%25field"),
            Some(vec!["$defs".into(), "percent%field".into()])
        );
        assert_eq!(
            local("#/$defs/foo%22bar"),
            Some(vec!["$defs".into(), "foo\"bar".into()])
        );
        assert_eq!(
            local("#/$defs//$defs/"),
            Some(vec!["$defs".into(), "".into(), "$defs".into(), "".into()])
        );
        assert_eq!(
            local("https://example.com/root.json#/$defs/a"),
            Some(vec!["$defs".into(), "a".into()])
        );
        assert!(
            matches!(parse("#foo"), Target::Anchor(at, name) if at.is_empty() && name == "foo")
        );
        assert!(matches!(parse("other.json"), Target::Remote));
        assert!(matches!(parse("#/a~2"), Target::Malformed));
        assert!(matches!(parse("#/a%2"), Target::Malformed));
        // Another resource of the document: its pointers and anchors count from it.
        assert_eq!(
            local("n.json#/items"),
            Some(vec!["$defs".into(), "n".into(), "items".into()])
        );
        assert!(matches!(
            parse("/n.json#leaf"),
            Target::Anchor(at, name) if at == ["$defs", "n"] && name == "leaf"
        ));
    }

    #[test]
    fn fragments_round_trip_through_parse_ref() {
        for name in [
            "plain", "tilde~x", "slash/x", "per%cent", "quo\"te", "sp ace", "ü", "",
        ] {
            let written = fragment(&Path::root().key("$defs").key(name));
            assert_eq!(
                local(&written),
                Some(vec!["$defs".to_string(), name.to_string()]),
                "{written}"
            );
        }
    }
}
