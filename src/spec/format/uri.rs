//! The `uri` format: RFC 3986 section 3's `URI`, a scheme then the generic syntax, ASCII
//! only. A relative reference (`uri-reference`) and non-ASCII text (an IRI) are refused: a
//! tool that asks for a URI wants one it can fetch without a base.

use super::ip;

/// `uri`: an RFC 3986 `URI`.
pub(super) fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    if !is_scheme(scheme) {
        return false;
    }
    let (rest, fragment) = rest.split_once('#').unwrap_or((rest, ""));
    let (hier_part, query) = rest.split_once('?').unwrap_or((rest, ""));
    let query_ok = all_chars(query, |b| is_pchar(b) || b == b'/' || b == b'?');
    let fragment_ok = all_chars(fragment, |b| is_pchar(b) || b == b'/' || b == b'?');
    query_ok && fragment_ok && is_hier_part(hier_part)
}

/// `scheme`: a letter, then letters, digits, `+`, `-` and `.`.
fn is_scheme(scheme: &str) -> bool {
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.')
}

/// `hier-part`: `//` authority and a path, or a path alone (any `pchar`s and slashes).
fn is_hier_part(hier_part: &str) -> bool {
    let path = match hier_part.strip_prefix("//") {
        Some(after) => {
            let (authority, path) = match after.find('/') {
                Some(at) => after.split_at(at),
                None => (after, ""),
            };
            if !is_authority(authority) {
                return false;
            }
            path
        }
        None => hier_part,
    };
    all_chars(path, |b| is_pchar(b) || b == b'/')
}

/// `authority`: `[ userinfo "@" ] host [ ":" port ]`.
fn is_authority(authority: &str) -> bool {
    let (userinfo, host_port) = authority.split_once('@').unwrap_or(("", authority));
    if !all_chars(userinfo, |b| {
        is_unreserved(b) || is_sub_delim(b) || b == b':'
    }) {
        return false;
    }
    let (host_ok, port) = match host_port.strip_prefix('[') {
        Some(literal) => match literal.split_once(']') {
            Some((inside, after)) => (is_ip_literal(inside), after),
            None => return false,
        },
        None => match host_port.find(':') {
            Some(at) => {
                let (host, port) = host_port.split_at(at);
                (is_reg_name(host), port)
            }
            None => (is_reg_name(host_port), ""),
        },
    };
    let port_ok = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()));
    host_ok && port_ok
}

/// `reg-name`, which includes every `IPv4address` (and `999.999.999.999`, as the suite agrees).
fn is_reg_name(host: &str) -> bool {
    all_chars(host, |b| is_unreserved(b) || is_sub_delim(b))
}

/// The inside of an `IP-literal`'s brackets: an `IPv6address` (no zone id) or `IPvFuture`.
fn is_ip_literal(inside: &str) -> bool {
    let future = inside
        .strip_prefix('v')
        .or_else(|| inside.strip_prefix('V'));
    match future {
        Some(future) => future.split_once('.').is_some_and(|(version, address)| {
            !version.is_empty()
                && version.bytes().all(|b| b.is_ascii_hexdigit())
                && !address.is_empty()
                && address
                    .bytes()
                    .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
        }),
        None => ip::is_ipv6(inside),
    }
}

/// True if every character of `part` is a `pct-encoded` triplet or `allowed`.
fn all_chars(part: &str, allowed: impl Fn(u8) -> bool) -> bool {
    let mut bytes = part.bytes();
    while let Some(b) = bytes.next() {
        if b == b'%' {
            let hex = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_hexdigit());
            if !(hex(bytes.next()) && hex(bytes.next())) {
                return false;
            }
        } else if !allowed(b) {
            return false;
        }
    }
    true
}

/// `pchar`, less `pct-encoded` (read by [`all_chars`]).
fn is_pchar(b: u8) -> bool {
    is_unreserved(b) || is_sub_delim(b) || b == b':' || b == b'@'
}

/// `unreserved`.
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

/// `sub-delims`.
fn is_sub_delim(b: u8) -> bool {
    b"!$&'()*+,;=".contains(&b)
}
