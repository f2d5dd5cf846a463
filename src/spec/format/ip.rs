//! IP addresses: the `ipv4` and `ipv6` formats, a URI's IP literals, and an email domain's
//! address literals (RFC 5321), which differ in how many groups `::` may stand
//! for and how the embedded IPv4 address is written.

/// The longest IPv6 address in text (`ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255`).
pub(super) const MAX_IPV6_LEN: usize = 45;

/// `ipv4`: RFC 3986 `IPv4address`: four `dec-octet`s without leading zeros (`010.0.0.1`
/// is octal to `inet_aton`).
pub(super) fn is_ipv4(text: &str) -> bool {
    dotted_quad(text, is_dec_octet)
}

/// `ipv6`: RFC 4291 section 2.2's text forms; no zone id or prefix length.
pub(super) fn is_ipv6(text: &str) -> bool {
    ipv6(text, 7, is_ipv4)
}

/// RFC 5321 `IPv4-address-literal`: like [`is_ipv4`], but leading zeros are allowed.
pub(super) fn is_smtp_ipv4(text: &str) -> bool {
    dotted_quad(text, is_snum)
}

/// RFC 5321 `IPv6-addr`: `::` stands for at least 2 groups, the IPv4 part as [`is_smtp_ipv4`].
pub(super) fn is_smtp_ipv6(text: &str) -> bool {
    ipv6(text, 6, is_smtp_ipv4)
}

/// An IPv6 address: eight groups, or at most `max_beside_gap` beside one `::` (RFC 4291's
/// `::` stands for one or more groups, RFC 5321's for two or more); `ipv4` reads the
/// embedded IPv4 address.
fn ipv6(text: &str, max_beside_gap: usize, ipv4: fn(&str) -> bool) -> bool {
    match text.split_once("::") {
        None => groups(text, Some(ipv4)) == Some(8),
        Some((head, tail)) => match (groups(head, None), groups(tail, Some(ipv4))) {
            (Some(n_head), Some(n_tail)) => n_head.saturating_add(n_tail) <= max_beside_gap,
            _ => false,
        },
    }
}

/// The number of 16-bit groups in `text` (the last may be IPv4, worth two, read by
/// `ipv4_last`), or `None` if one is malformed or there are more than eight.
fn groups(text: &str, ipv4_last: Option<fn(&str) -> bool>) -> Option<usize> {
    if text.is_empty() {
        return Some(0);
    }
    let mut n_groups: usize = 0;
    let mut pieces = text.split(':').peekable();
    while let Some(piece) = pieces.next() {
        let is_last = pieces.peek().is_none();
        let width = match ipv4_last.filter(|_| is_last && piece.contains('.')) {
            Some(ipv4) => ipv4(piece).then_some(2)?,
            None => ((1..=4).contains(&piece.len())
                && piece.bytes().all(|b| b.is_ascii_hexdigit()))
            .then_some(1)?,
        };
        n_groups = n_groups.checked_add(width).filter(|&n| n <= 8)?;
    }
    Some(n_groups)
}

/// Four dot-separated parts, each accepted by `octet`.
fn dotted_quad(text: &str, octet: fn(&str) -> bool) -> bool {
    let mut parts = text.split('.');
    (0..4).all(|_| parts.next().is_some_and(octet)) && parts.next().is_none()
}

/// RFC 3986 `dec-octet`: `0` to `255` in decimal, with no leading zero.
fn is_dec_octet(text: &str) -> bool {
    !(text.len() > 1 && text.starts_with('0')) && is_snum(text)
}

/// RFC 5321 `Snum`: 1 to 3 decimal digits with a value of at most 255.
fn is_snum(text: &str) -> bool {
    (1..=3).contains(&text.len())
        && text.bytes().all(|b| b.is_ascii_digit())
        && text.parse::<u16>().is_ok_and(|value| value <= 255)
}
