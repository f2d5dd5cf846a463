//! Email addresses: the `email` format, RFC 5321 section 4.1.2's `Mailbox` (the address a
//! mail server accepts in `RCPT TO:<...>`), which is what JSON Schema's `email` names
//! (RFC 5321 section 4.1.2, through draft 2020-12 section 7.3.2):
//!
//! ```text
//! Mailbox         = Local-part "@" ( Domain / address-literal )
//! Local-part      = Dot-string / Quoted-string
//! Dot-string      = Atom *("."  Atom)
//! Atom            = 1*atext
//! Quoted-string   = DQUOTE *QcontentSMTP DQUOTE
//! QcontentSMTP    = qtextSMTP / quoted-pairSMTP
//! quoted-pairSMTP = %d92 %d32-126
//! qtextSMTP       = %d32-33 / %d35-91 / %d93-126
//! address-literal = "[" ( IPv4-address-literal / IPv6-address-literal /
//!                   General-address-literal ) "]"
//! IPv6-address-literal = "IPv6:" IPv6-addr
//! ```
//!
//! `atext` is RFC 5322 section 3.2.3's: letters, digits and ``!#$%&'*+-/=?^_`{|}~``. So
//! `"joe bloggs"@example.com` and `joe.bloggs@[IPv6:::1]` are addresses; a display name
//! (`Winston <w@example.com>`), two addresses, or `joe..bloggs@example.com` are not.
//! ASCII only: an address with non-ASCII text is the `idn-email` format (RFC 6531).

use super::hostname;
use super::ip;
use super::scan::Scan;

/// The longest local part: 64 octets (RFC 5321 section 4.5.3.1.1).
const MAX_LOCAL_LEN: usize = 64;

/// The longest address: a path (`<` address `>`) is at most 256 octets (RFC 5321
/// section 4.5.3.1.3), so the address at most 254.
pub(super) const MAX_MAILBOX_LEN: usize = 254;

/// `email`: an RFC 5321 `Mailbox` within the RFC's length limits.
pub(super) fn is_mailbox(text: &str) -> bool {
    if text.len() > MAX_MAILBOX_LEN {
        return false;
    }
    // The local part ends at the first `@` outside quotes (a quoted one may hold `@`), and
    // the domain, which can hold no `@`, is everything after it.
    let mut scan = Scan::new(text);
    let local_len = if scan.peek() == Some(b'"') {
        quoted_string(&mut scan)
    } else {
        dot_string(&mut scan)
    };
    let Some(local_len) = local_len else {
        return false;
    };
    if local_len > MAX_LOCAL_LEN || !scan.eat(b'@') {
        return false;
    }
    let Some(domain) = text.get(local_len + 1..) else {
        return false;
    };
    match domain.strip_prefix('[') {
        Some(literal) => literal.strip_suffix(']').is_some_and(is_address_literal),
        // `Domain` is `sub-domain *("." sub-domain)`, `sub-domain = Let-dig [Ldh-str]`:
        // the host name grammar, whose length limits (RFC 1035) hold for a mail domain
        // too, as does the rule that an `xn--` label is a real A-label.
        None => hostname::is_hostname(domain),
    }
}

/// `Dot-string`: atoms joined by single dots. Returns its length.
fn dot_string(scan: &mut Scan<'_>) -> Option<usize> {
    let mut len: usize = 0;
    loop {
        let atom = scan.eat_while(is_atext);
        if atom == 0 {
            return None;
        }
        len = len.checked_add(atom)?;
        if !scan.eat(b'.') {
            return Some(len);
        }
        len = len.checked_add(1)?;
    }
}

/// `Quoted-string`, quotes included. Returns its length.
fn quoted_string(scan: &mut Scan<'_>) -> Option<usize> {
    scan.eat(b'"').then_some(())?;
    let mut len: usize = 2;
    loop {
        match scan.bump()? {
            b'"' => return Some(len),
            b'\\' => {
                scan.bump().filter(|&b| (32..=126).contains(&b))?;
                len = len.checked_add(2)?;
            }
            // qtextSMTP: printable ASCII and space, except `"` and `\`.
            b if (32..=126).contains(&b) => len = len.checked_add(1)?,
            _ => return None,
        }
    }
}

/// RFC 5322 `atext`.
fn is_atext(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&byte)
}

/// The inside of an `address-literal`'s brackets.
///
/// `General-address-literal` (`Standardized-tag ":" 1*dcontent`) is refused: its tag
/// "MUST be registered with IANA", and the registry holds only `IPv6`, which has its own
/// rule. The `IPv6:` tag is case-insensitive (RFC 5234 section 2.3).
fn is_address_literal(literal: &str) -> bool {
    match literal.get(..5) {
        Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => {
            literal.get(5..).is_some_and(ip::is_smtp_ipv6)
        }
        _ => ip::is_smtp_ipv4(literal),
    }
}
