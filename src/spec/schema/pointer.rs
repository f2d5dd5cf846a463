//! `$ref` targets and error paths.
//!
//! A `$ref` inside a document is a URI fragment holding a JSON pointer (RFC 6901):
//! percent-decoded first (RFC 3986), then split on `/` with `~1` read as `/` and `~0` as `~`.
//! Paths in messages are the dotted form a person reads (`properties.zip`, `anyOf[1]`), with
//! names that are not plain identifiers quoted (`properties["a b"]`).

use super::keywords::{schema_slot, Slot};
use super::Dialect;
use crate::json::Value;

/// What a `$ref` string names.
pub(super) enum Target {
    /// A place in this document, as pointer tokens (empty: the root).
    Local(Vec<String>),
    /// Somewhere else: another document, or this one through a URI toolgate does not know.
    Remote,
    /// A plain-name fragment (`#foo`).
    Anchor,
    /// A fragment that is not valid percent-encoding or pointer escaping.
    Malformed,
}

/// Reads a `$ref`. `root_id` is the root's `$id`, if any: `ID#/…` is then local too.
pub(super) fn parse_ref(reference: &str, root_id: Option<&str>) -> Target {
    let (document, fragment) = match reference.split_once('#') {
        Some((document, fragment)) => (document, fragment),
        None => (reference, ""),
    };
    let is_this_document =
        document.is_empty() || root_id.is_some_and(|id| id.trim_end_matches('#') == document);
    if !is_this_document {
        return Target::Remote;
    }
    let Some(decoded) = percent_decode(fragment) else {
        return Target::Malformed;
    };
    if decoded.is_empty() {
        return Target::Local(Vec::new());
    }
    let Some(rest) = decoded.strip_prefix('/') else {
        return Target::Anchor;
    };
    let mut tokens = Vec::new();
    for raw in rest.split('/') {
        match unescape_token(raw) {
            Some(token) => tokens.push(token),
            None => return Target::Malformed,
        }
    }
    Target::Local(tokens)
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

/// Writes pointer tokens as a `$ref` fragment: `~` and `/` escaped (RFC 6901), then every
/// byte a URI fragment may not hold percent-encoded (RFC 3986).
pub(crate) fn fragment(tokens: &[&str]) -> String {
    let mut out = String::from("#");
    for token in tokens {
        out.push('/');
        for byte in token.bytes() {
            match byte {
                b'~' => out.push_str("~0"),
                b'/' => out.push_str("~1"),
                b'A'..=b'Z'
                | b'a'..=b'z'
                | b'0'..=b'9'
                | b'-'
                | b'.'
                | b'_'
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
    }
    out
}

/// Appends a member name to a dotted path: `.name`, or `["a b"]` for a name that is not
/// a plain identifier.
pub(crate) fn push_key(path: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '$');
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        path.push('[');
        push_quoted(path, key);
        path.push(']');
    }
}

/// Appends an array index to a dotted path: `[2]`.
pub(crate) fn push_index(path: &mut String, index: usize) {
    path.push('[');
    path.push_str(&index.to_string());
    path.push(']');
}

/// The dotted path of the place pointer tokens name, from `base`.
pub(super) fn path_of(base: &str, tokens: &[String]) -> String {
    let mut path = base.to_string();
    for token in tokens {
        match token.parse::<usize>() {
            Ok(index) if !token.starts_with('+') => push_index(&mut path, index),
            _ => push_key(&mut path, token),
        }
    }
    path
}

/// A JSON string literal, for names that need quoting in paths.
fn push_quoted(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
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

    fn local(reference: &str) -> Option<Vec<String>> {
        match parse_ref(reference, Some("urn:example:root")) {
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
            local("urn:example:root#/$defs/a"),
            Some(vec!["$defs".into(), "a".into()])
        );
        assert!(matches!(parse_ref("#foo", None), Target::Anchor));
        assert!(matches!(parse_ref("other.json", None), Target::Remote));
        assert!(matches!(parse_ref("#/a~2", None), Target::Malformed));
        assert!(matches!(parse_ref("#/a%2", None), Target::Malformed));
    }

    #[test]
    fn fragments_round_trip_through_parse_ref() {
        for name in [
            "plain", "tilde~x", "slash/x", "per%cent", "quo\"te", "sp ace", "ü", "",
        ] {
            let written = fragment(&["$defs", name]);
            assert_eq!(
                local(&written),
                Some(vec!["$defs".to_string(), name.to_string()]),
                "{written}"
            );
        }
    }

    #[test]
    fn paths_quote_names_that_are_not_identifiers() {
        let mut path = String::new();
        push_key(&mut path, "properties");
        push_key(&mut path, "zip");
        push_index(&mut path, 2);
        push_key(&mut path, "a b");
        assert_eq!(path, "properties.zip[2][\"a b\"]");
    }
}
