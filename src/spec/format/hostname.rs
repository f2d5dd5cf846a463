//! Host names: the `hostname` format, and the domain of an email address.
//!
//! RFC 1123 section 2.1 names the grammar: RFC 952's host names, relaxed so that a label
//! may start with a digit, which is RFC 1034 section 3.5's "preferred name syntax":
//!
//! ```text
//! <domain>      ::= <label> | <domain> "." <label>
//! <label>       ::= <let-dig> [ [ <ldh-str> ] <let-dig> ]
//! <ldh-str>     ::= <let-dig-hyp> | <let-dig-hyp> <ldh-str>
//! <let-dig-hyp> ::= <let-dig> | "-"
//! <let-dig>     ::= <letter> | <digit>
//! ```
//!
//! with RFC 1035 section 2.3.4's limits: a label is at most 63 octets, and a name at most
//! 255 octets on the wire, which is 253 characters of text.
//!
//! A label that starts with the IDNA prefix `xn--` (an A-label, RFC 5890) is held to the
//! same LDH rule and no further: deciding whether its Punycode spells a permitted Unicode
//! label needs IDNA2008's character tables (RFC 5892), about 900 lines of generated data
//! here, for names a model hardly ever writes. So `xn--mnchen-3ya.de` passes, and so does
//! an `xn--` label whose Punycode is not valid; the JSON-Schema-Test-Suite's optional
//! A-label cases are the ones toolgate answers differently.

/// The longest host name in text: 255 octets on the wire (RFC 1035 section 2.3.4) are
/// 253 characters (the wire form adds a length byte per label and the root's zero byte).
pub(super) const MAX_NAME_LEN: usize = 253;

/// The longest label (RFC 1035 section 2.3.4).
pub(super) const MAX_LABEL_LEN: usize = 63;

/// `hostname`: dot-separated labels of letters, digits and hyphens.
///
/// The suite over the RFC: a trailing dot (`example.com.`, the fully qualified form RFC
/// 1034 section 3.1 writes for the root) is refused, as the JSON-Schema-Test-Suite
/// expects; in a tool argument a host name is written without it.
pub(super) fn is_hostname(text: &str) -> bool {
    // Split on the byte: a plain loop, where `str::split` sets up a searcher per call.
    text.len() <= MAX_NAME_LEN && text.as_bytes().split(|&b| b == b'.').all(is_label)
}

/// One label: 1 to 63 letters, digits and hyphens, not starting or ending with a hyphen.
pub(super) fn is_label(bytes: &[u8]) -> bool {
    (1..=MAX_LABEL_LEN).contains(&bytes.len())
        && bytes
            .iter()
            .all(|&b| LET_DIG_HYP.get(usize::from(b)) == Some(&true))
        && bytes.first() != Some(&b'-')
        && bytes.last() != Some(&b'-')
}

/// `<let-dig-hyp>` for every byte, looked up: one load a byte where the rule takes three
/// comparisons.
const LET_DIG_HYP: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u8).is_ascii_alphanumeric() || byte == b'-' as usize;
        byte += 1;
    }
    table
};
