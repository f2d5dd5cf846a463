//! Email addresses: the `email` format, RFC 5321 section 4.1.2's `Mailbox` (the address a
//! mail server accepts in `RCPT TO:<...>`), which is what JSON Schema's `email` names
//! (draft 2020-12 section 7.3.2), extended as RFC 6531 section 3.3 extends it for
//! SMTPUTF8, which is what JSON Schema's `idn-email` names:
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
//!
//! RFC 6531 adds UTF-8:
//!
//! ```text
//! atext     =/ UTF8-non-ascii
//! qtextSMTP =/ UTF8-non-ascii
//! sub-domain =/ U-label
//! ```
//!
//! so `jürgen@exämple.de` and `用户@例子.广告` are addresses too. JSON Schema keeps these
//! for `idn-email`; toolgate's `email` takes them as well, because mail systems deliver
//! them and models write them (a customer's real address must not be refused), and reads
//! `idn-email` as the same check. A U-label (RFC 5890 section 2.3.2.1) is checked as the
//! letters and digits of any script (Unicode `Alphabetic` and `Numeric`) and hyphens, not
//! starting or ending with a hyphen, and at most 59 characters (its A-label, `xn--` and at
//! least one character for each, must fit in 63 octets); like an `xn--` label, it is not
//! converted to Punycode nor held to IDNA2008's tables (see [`hostname`]). A label of ASCII
//! only is held to the LDH rule. Lengths are counted in octets of UTF-8, as RFC 6531
//! section 3.3 says.

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
        None => is_domain(domain),
    }
}

/// `Domain`: `sub-domain *("." sub-domain)`. An ASCII `sub-domain` is `Let-dig [Ldh-str]`,
/// the host name grammar, whose length limits (RFC 1035) hold for a mail domain too; one
/// with non-ASCII text is a U-label.
fn is_domain(domain: &str) -> bool {
    if domain.len() > hostname::MAX_NAME_LEN {
        return false;
    }
    // Split on the byte `.`, which is never part of a multi-byte character, so each label
    // is also a `str` (taken back by its offset for a U-label).
    let mut start = 0;
    domain.as_bytes().split(|&b| b == b'.').all(|label| {
        let end = start + label.len();
        // A label that is not LDH is a U-label if it holds non-ASCII text, else refused.
        let fits = hostname::is_label(label)
            || (!label.is_ascii() && domain.get(start..end).is_some_and(is_u_label));
        start = end + 1;
        fits
    })
}

/// The most characters a U-label can have: its A-label is `xn--` and at least one
/// character for each of its characters, within [`hostname::MAX_LABEL_LEN`] octets.
const MAX_U_LABEL_CHARS: usize = hostname::MAX_LABEL_LEN - 4;

/// A U-label, as the module describes it: letters and digits of any script and hyphens,
/// not at either end, at most [`MAX_U_LABEL_CHARS`] characters.
fn is_u_label(label: &str) -> bool {
    let mut n_chars: usize = 0;
    for c in label.chars() {
        if !(c.is_alphanumeric() || c == '-') {
            return false;
        }
        n_chars = n_chars.saturating_add(1);
        if n_chars > MAX_U_LABEL_CHARS {
            return false;
        }
    }
    n_chars > 0 && !label.starts_with('-') && !label.ends_with('-')
}

/// `Dot-string`: atoms joined by single dots. Returns its length.
fn dot_string(scan: &mut Scan<'_>) -> Option<usize> {
    let mut len: usize = 0;
    loop {
        let atom = scan.eat_while(|byte| ATEXT.get(usize::from(byte)) == Some(&true));
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
            // qtextSMTP: printable ASCII and space, except `"` and `\`, and (RFC 6531) any
            // byte of a non-ASCII character (the text is UTF-8, so each such byte is one).
            b if (32..=126).contains(&b) || !b.is_ascii() => len = len.checked_add(1)?,
            _ => return None,
        }
    }
}

/// [`is_atext`] for every byte, looked up: one load a byte where the ranges take several
/// comparisons.
const ATEXT: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = is_atext(byte as u8);
        byte += 1;
    }
    table
};

/// RFC 5322 `atext`, and RFC 6531's `UTF8-non-ascii`: the text is UTF-8, so a byte
/// outside ASCII is part of a non-ASCII character, all of whose bytes are accepted.
const fn is_atext(byte: u8) -> bool {
    // ``!#$%&'*+-/=?^_`{|}~`` as ranges.
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'!' | b'#'..=b'\'' | b'*' | b'+' | b'-' | b'/' | b'=' | b'?'
        )
        || matches!(byte, b'^'..=b'`' | b'{'..=b'~')
        || !byte.is_ascii()
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
