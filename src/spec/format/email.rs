//! The `email` format: RFC 5321 section 4.1.2's `Mailbox` (JSON Schema's `email`), with
//! RFC 6531's UTF-8 in the local part and U-labels in the domain (JSON Schema's
//! `idn-email`): mail systems deliver such addresses, so refusing them would refuse real
//! people. A U-label is letters and digits of any script and hyphens, not at either end, at
//! most 59 characters, not checked against IDNA2008's tables; an ASCII label is LDH.

use super::hostname;
use super::ip;
use super::scan::Scan;

/// The longest local part: 64 octets (RFC 5321 section 4.5.3.1.1).
const MAX_LOCAL_LEN: usize = 64;

/// The longest address: a path (`<` address `>`) is at most 256 octets (RFC 5321 4.5.3.1.3).
pub(super) const MAX_MAILBOX_LEN: usize = 254;

/// `email`: an RFC 5321 `Mailbox` within the RFC's length limits.
pub(super) fn is_mailbox(text: &str) -> bool {
    if text.len() > MAX_MAILBOX_LEN {
        return false;
    }
    // The local part ends at the first `@` outside quotes; the domain is the rest.
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
        None => is_domain(domain),
    }
}

/// `Domain`: dot-separated host name labels, or U-labels for non-ASCII ones.
fn is_domain(domain: &str) -> bool {
    if domain.len() > hostname::MAX_NAME_LEN {
        return false;
    }
    // `.` is never inside a multi-byte character, so each label is also a `str`.
    let mut start = 0;
    domain.as_bytes().split(|&b| b == b'.').all(|label| {
        let end = start + label.len();
        let fits = hostname::is_label(label)
            || (!label.is_ascii() && domain.get(start..end).is_some_and(is_u_label));
        start = end + 1;
        fits
    })
}

/// The most characters a U-label can have: its A-label (`xn--` and one or more characters
/// for each) must fit a label.
const MAX_U_LABEL_CHARS: usize = hostname::MAX_LABEL_LEN - 4;

/// A U-label, as the module describes it.
fn is_u_label(label: &str) -> bool {
    label.chars().all(|c| c.is_alphanumeric() || c == '-')
        && (1..=MAX_U_LABEL_CHARS).contains(&label.chars().count())
        && !label.starts_with('-')
        && !label.ends_with('-')
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
            // qtextSMTP, and (RFC 6531) every byte of a non-ASCII character.
            b if (32..=126).contains(&b) || !b.is_ascii() => len = len.checked_add(1)?,
            _ => return None,
        }
    }
}

/// RFC 5322 `atext` (letters, digits, ``!#$%&'*+-/=?^_`{|}~``), and every byte of a
/// non-ASCII character (RFC 6531).
fn is_atext(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'!' | b'#'..=b'\'' | b'*' | b'+' | b'-' | b'/' | b'=' | b'?'
        )
        || matches!(byte, b'^'..=b'`' | b'{'..=b'~')
        || !byte.is_ascii()
}

/// The inside of an `address-literal`'s brackets: IPv4, or `IPv6:` (any case) and IPv6. A
/// `General-address-literal` is refused: IANA's registry of its tags holds only `IPv6`.
fn is_address_literal(literal: &str) -> bool {
    match literal.get(..5) {
        Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => {
            literal.get(5..).is_some_and(ip::is_smtp_ipv6)
        }
        _ => ip::is_smtp_ipv4(literal),
    }
}
