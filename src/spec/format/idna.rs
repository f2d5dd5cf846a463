//! A-labels: a host name label with the `xn--` prefix is the ASCII form of an
//! internationalized label (IDNA2008: RFC 5890 to 5893), and is valid only if it decodes
//! to a label IDNA2008 allows.
//!
//! Plain RFC 1123 would take `xn--X` as any other label, but a resolver or browser will
//! refuse it, and the JSON-Schema-Test-Suite's `hostname` cases refuse it too; so the
//! suite's rule is followed here. A label `xn--...` passes when:
//!
//! 1. its rest is Punycode (RFC 3492 section 6.2, decoded exactly, overflow refused) that
//!    decodes to at least one non-ASCII character (RFC 5890 section 2.3.2.1). Decoded as
//!    RFC 3492 specifies (a delimiter counts only after a basic code point), Punycode has
//!    one spelling per label up to letter case, so RFC 5891 section 5.3's check that the
//!    decoded label encodes back to the same text would refuse nothing more, and is not
//!    repeated;
//! 2. the decoded label (the U-label) does not start or end with `-`, nor hold `--` in its
//!    third and fourth characters (RFC 5891 section 4.2.3.1), and does not start with a
//!    combining mark (section 4.2.3.2);
//! 3. every character is one RFC 5892 allows: `PVALID` (section 2's derivation: letters,
//!    digits and marks that are stable under NFKC case folding, with the section 2.6
//!    exceptions, so `ß` and `ς` are allowed and `U+0640 ARABIC TATWEEL` is not), or
//!    `CONTEXTJ`/`CONTEXTO` with its Appendix A rule met (`l·l` for the Catalan middle
//!    dot; a zero width joiner only after a virama; ...).
//!
//! Left out, because each needs a large Unicode table for a rare case: the U-label's
//! normalization to NFC (RFC 5891 section 5.3), and the Bidi rule for right-to-left labels
//! (RFC 5893). Neither changes a suite case.

use super::hostname::MAX_LABEL_LEN;
use super::unicode::{self, JoiningType};

/// True if `label` (letters, digits and hyphens, starting with `xn--` in any case) is a
/// valid A-label.
pub(super) fn is_a_label(label: &str) -> bool {
    let Some(encoded) = label.get(4..) else {
        return false;
    };
    // Each decoded character takes at least one byte of `encoded`, so a label's U-label
    // has at most 59 characters: a buffer on the stack holds it.
    let mut buffer = ['\0'; MAX_LABEL_LEN];
    let Some(len) = punycode_decode(encoded.as_bytes(), &mut buffer) else {
        return false;
    };
    buffer.get(..len).is_some_and(is_u_label)
}

/// RFC 5891 sections 4.2.2 and 4.2.3 (as listed in the module docs) on a decoded label.
fn is_u_label(label: &[char]) -> bool {
    if !label.iter().any(|c| !c.is_ascii()) {
        return false;
    }
    let hyphens_ok = label.first() != Some(&'-')
        && label.last() != Some(&'-')
        && !(label.get(2) == Some(&'-') && label.get(3) == Some(&'-'));
    let starts_with_mark = label.first().is_some_and(|&c| unicode::is_mark(c));
    hyphens_ok
        && !starts_with_mark
        && label
            .iter()
            .enumerate()
            .all(|(at, &c)| context_rule(label, at, c).unwrap_or_else(|| unicode::is_pvalid(c)))
}

/// RFC 5892 Appendix A: whether the contextual character `c` (`CONTEXTJ` or `CONTEXTO`)
/// at `at` in `label` meets its rule; `None` for every other character. These are all of
/// section 2's contextual code points (the table generator checks that the list holds).
fn context_rule(label: &[char], at: usize, c: char) -> Option<bool> {
    let before = at.checked_sub(1).and_then(|i| label.get(i)).copied();
    let after = at.checked_add(1).and_then(|i| label.get(i)).copied();
    let meets = match c {
        // A.1 ZERO WIDTH NON-JOINER: after a virama, or between a left-joining and a
        // right-joining character (transparent ones skipped), where it breaks a ligature.
        '\u{200C}' => {
            before.is_some_and(unicode::is_virama) || {
                let head = label.get(..at).unwrap_or_default();
                let tail = label.get(at + 1..).unwrap_or_default();
                let joins_left = head
                    .iter()
                    .rev()
                    .map(|&c| unicode::joining_type(c))
                    .find(|&jt| jt != JoiningType::T)
                    .is_some_and(|jt| jt == JoiningType::L || jt == JoiningType::D);
                let joins_right = tail
                    .iter()
                    .map(|&c| unicode::joining_type(c))
                    .find(|&jt| jt != JoiningType::T)
                    .is_some_and(|jt| jt == JoiningType::R || jt == JoiningType::D);
                joins_left && joins_right
            }
        }
        // A.2 ZERO WIDTH JOINER: after a virama.
        '\u{200D}' => before.is_some_and(unicode::is_virama),
        // A.3 MIDDLE DOT: between two `l`s (Catalan `l·l`).
        '\u{00B7}' => before == Some('l') && after == Some('l'),
        // A.4 GREEK LOWER NUMERAL SIGN (KERAIA): before a Greek character.
        '\u{0375}' => after.is_some_and(unicode::is_greek),
        // A.5 HEBREW PUNCTUATION GERESH and A.6 GERSHAYIM: after a Hebrew character.
        '\u{05F3}' | '\u{05F4}' => before.is_some_and(unicode::is_hebrew),
        // A.7 KATAKANA MIDDLE DOT: in a label with Hiragana, Katakana or Han.
        '\u{30FB}' => label.iter().any(|&c| unicode::is_kana_or_han(c)),
        // A.8 ARABIC-INDIC DIGITS: not mixed with extended ones.
        '\u{0660}'..='\u{0669}' => !label.iter().any(|c| ('\u{06F0}'..='\u{06F9}').contains(c)),
        // A.9 EXTENDED ARABIC-INDIC DIGITS: not mixed with the others.
        '\u{06F0}'..='\u{06F9}' => !label.iter().any(|c| ('\u{0660}'..='\u{0669}').contains(c)),
        _ => return None,
    };
    Some(meets)
}

/// RFC 3492 section 5's parameters for IDNA.
const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 0x80;

/// RFC 3492 section 6.2: decodes `input` into `output`, returning the number of
/// characters, or `None` if `input` is not Punycode (a character that is no digit, an
/// integer cut short, an overflow, a result that is not a Unicode scalar value) or decodes
/// to more than `output` holds.
fn punycode_decode(input: &[u8], output: &mut [char]) -> Option<usize> {
    // The basic code points are those before the last delimiter, if there is one and
    // something precedes it. They are copied in lower case: DNS names are case-insensitive,
    // and RFC 5891 section 5.3 has an A-label lowercased before it is decoded and tested
    // (so `XN--MNCHEN-3YA` is `xn--mnchen-3ya`, münchen).
    let (basic, extended) = match input.iter().rposition(|&b| b == b'-') {
        Some(at) if at > 0 => (input.get(..at)?, input.get(at + 1..)?),
        _ => (&[][..], input),
    };
    let mut len = 0;
    for &b in basic {
        *output.get_mut(len)? = char::from(b.to_ascii_lowercase());
        len = len.checked_add(1)?;
    }
    let mut n = INITIAL_N;
    let mut i: u32 = 0;
    let mut bias = INITIAL_BIAS;
    let mut digits = extended.iter();
    while !digits.as_slice().is_empty() {
        let old_i = i;
        let mut w: u32 = 1;
        let mut k = BASE;
        loop {
            let digit = digit_value(*digits.next()?)?;
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = if k <= bias {
                T_MIN
            } else if k >= bias + T_MAX {
                T_MAX
            } else {
                k - bias
            };
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k = k.checked_add(BASE)?;
        }
        let n_out = u32::try_from(len).ok()?.checked_add(1)?;
        bias = adapt(i - old_i, n_out, old_i == 0);
        n = n.checked_add(i / n_out)?;
        i %= n_out;
        // `n` starts at 0x80 and only grows, so it is never a basic code point.
        let c = char::from_u32(n)?;
        insert(output, len, usize::try_from(i).ok()?, c)?;
        len = len.checked_add(1)?;
        i = i.checked_add(1)?;
    }
    Some(len)
}

/// RFC 3492 section 6.1: the bias adaptation after each decoded delta.
fn adapt(delta: u32, n_points: u32, first_time: bool) -> u32 {
    let mut delta = if first_time { delta / DAMP } else { delta / 2 };
    // At most `u32::MAX / 2` plus as much again: no overflow.
    delta += delta / n_points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

/// A Punycode digit: `a`-`z` (or `A`-`Z`) are 0 to 25, `0`-`9` are 26 to 35.
fn digit_value(byte: u8) -> Option<u32> {
    match byte {
        b'a'..=b'z' => Some(u32::from(byte - b'a')),
        b'A'..=b'Z' => Some(u32::from(byte - b'A')),
        b'0'..=b'9' => Some(u32::from(byte - b'0') + 26),
        _ => None,
    }
}

/// Inserts `c` at `at` into the first `len` characters of `output`, shifting the rest
/// right; `None` if `output` is full or `at` is past `len`.
fn insert(output: &mut [char], len: usize, at: usize, c: char) -> Option<()> {
    let shifted = output.get_mut(at..=len)?;
    shifted.rotate_right(1);
    *shifted.first_mut()? = c;
    Some(())
}
