//! The `hostname` format and an email domain's labels: RFC 1123 section 2.1 (RFC 1034's
//! preferred syntax, a digit first allowed), labels of at most 63 octets, names of at most
//! 253 characters (RFC 1035). An `xn--` A-label is held to LDH only: checking its Punycode
//! needs IDNA2008's tables, about 900 lines of data, for names a model hardly writes.

/// The longest host name in text (255 octets on the wire).
pub(super) const MAX_NAME_LEN: usize = 253;

/// The longest label (RFC 1035 section 2.3.4).
pub(super) const MAX_LABEL_LEN: usize = 63;

/// `hostname`: dot-separated labels. A trailing dot is refused, as the test suite expects.
pub(super) fn is_hostname(text: &str) -> bool {
    text.len() <= MAX_NAME_LEN && text.as_bytes().split(|&b| b == b'.').all(is_label)
}

/// One label: 1 to 63 letters, digits and hyphens, not starting or ending with a hyphen.
pub(super) fn is_label(bytes: &[u8]) -> bool {
    (1..=MAX_LABEL_LEN).contains(&bytes.len())
        && bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'-')
        && bytes.first() != Some(&b'-')
        && bytes.last() != Some(&b'-')
}
