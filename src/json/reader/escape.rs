//! Escapes: `\n`, `\uXXXX` and surrogate pairs decoded from bytes that may end anywhere, and
//! the word scan for the bytes that end a plain run of a string.

use crate::json::error::ErrorKind;

/// What the bytes of an escape, from its backslash, come to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Escape {
    /// The character, and the escape's length in bytes.
    Char(char, usize),
    /// The bytes end before the escape is decided.
    NeedMore,
    /// The escape is not valid.
    Broken(Broken),
}

/// Why an escape is not valid, at offsets counted from its backslash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Broken {
    pub(crate) kind: BrokenKind,
    /// Where the error is reported.
    pub(crate) report: usize,
    /// The byte that decided it (the last one looked at); `None` when the end of the input
    /// decided it.
    pub(crate) decided: Option<usize>,
    pub(crate) detail: &'static str,
}

/// The kinds an escape can break with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BrokenKind {
    InvalidEscape,
    LoneSurrogate,
    /// The input ended inside the escape: the string is truncated.
    Truncated,
}

impl BrokenKind {
    /// The error kind, for all but truncation (whose kind needs the string's start).
    pub(crate) fn error_kind(self) -> Option<ErrorKind> {
        match self {
            BrokenKind::InvalidEscape => Some(ErrorKind::InvalidEscape),
            BrokenKind::LoneSurrogate => Some(ErrorKind::LoneSurrogate),
            BrokenKind::Truncated => None,
        }
    }
}

const HIGH: &str = "a high surrogate \\uD800-\\uDBFF must be followed by a low one \\uDC00-\\uDFFF";
const LOW: &str = "a low surrogate \\uDC00-\\uDFFF must follow a high one \\uD800-\\uDBFF";
const SHORT: &str = "expected one of \" \\ / b f n r t u after a backslash";
const HEX: &str = "expected four hex digits after \\u";
const LOW_SURROGATES: (u32, u32) = (0xDC00, 0xDFFF);

/// Decodes the escape at the start of `bytes` (its backslash). `at_end` says that no byte
/// follows `bytes`: the input has ended, so an undecided escape is decided now, exactly as
/// RFC 8259 allows its completions (`\uDC` can only become a lone low surrogate, so it is one;
/// `\u12` could still become a character, so the string is truncated).
pub(crate) fn decode(bytes: &[u8], at_end: bool) -> Escape {
    let code = match bytes.get(1) {
        Some(&code) => code,
        None => return need_more(at_end, None),
    };
    if code != b'u' {
        return match short(code) {
            Some(c) => Escape::Char(c, 2),
            None => broken(BrokenKind::InvalidEscape, 1, Some(1), SHORT),
        };
    }
    unicode(bytes, at_end)
}

/// `\uXXXX`, or a high-low pair `\uD83D\uDE4F`, at the start of `bytes`.
fn unicode(bytes: &[u8], at_end: bool) -> Escape {
    let lone = |detail, decided| broken(BrokenKind::LoneSurrogate, 0, decided, detail);
    let unit = match hex4(bytes, 2) {
        Ok(unit) => unit,
        Err(Hex::NotHex(at)) => return broken(BrokenKind::InvalidEscape, at, Some(at), HEX),
        // Every completion of `\uDC` is a lone low surrogate: not a prefix of valid text.
        Err(Hex::End(range)) if at_end && is_within(range, LOW_SURROGATES) => {
            return lone(LOW, None)
        }
        Err(Hex::End(_)) => return need_more(at_end, None),
    };
    if is_within((unit, unit), LOW_SURROGATES) {
        return lone(LOW, Some(5));
    }
    if !(0xD800..=0xDBFF).contains(&unit) {
        return match char::from_u32(unit) {
            Some(c) => Escape::Char(c, 6),
            None => lone(LOW, Some(5)),
        };
    }
    match (bytes.get(6), bytes.get(7)) {
        (Some(b'\\'), Some(b'u')) => {}
        (None, _) | (Some(b'\\'), None) => return need_more(at_end, None),
        (Some(b'\\'), Some(_)) => return lone(HIGH, Some(7)),
        (Some(_), _) => return lone(HIGH, Some(6)),
    }
    let low = match hex4(bytes, 8) {
        Ok(low) => low,
        Err(Hex::NotHex(at)) => return broken(BrokenKind::InvalidEscape, at, Some(at), HEX),
        // `\uD83D\uD8` can never become a pair: not a prefix of valid text.
        Err(Hex::End(range)) if at_end && !overlaps(range, LOW_SURROGATES) => {
            return lone(HIGH, None)
        }
        Err(Hex::End(_)) => return need_more(at_end, None),
    };
    if !is_within((low, low), LOW_SURROGATES) {
        return lone(HIGH, Some(11));
    }
    match char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) {
        Some(c) => Escape::Char(c, 12),
        None => lone(HIGH, Some(11)),
    }
}

/// The character a one-letter escape stands for (`n` in `\n`), for the eight RFC 8259
/// defines; `None` for any other byte, `u` included (its four hex digits follow).
pub(crate) fn short(code: u8) -> Option<char> {
    Some(match code {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

fn need_more(at_end: bool, decided: Option<usize>) -> Escape {
    if at_end {
        broken(BrokenKind::Truncated, 0, decided, "")
    } else {
        Escape::NeedMore
    }
}

fn broken(kind: BrokenKind, report: usize, decided: Option<usize>, detail: &'static str) -> Escape {
    Escape::Broken(Broken {
        kind,
        report,
        decided,
        detail,
    })
}

/// Why four hex digits were not read.
enum Hex {
    /// A byte that is not a hex digit, at this offset.
    NotHex(usize),
    /// The bytes ended, with the range of units the digits so far can still become.
    End((u32, u32)),
}

/// Four hex digits from `pos`.
fn hex4(bytes: &[u8], pos: usize) -> Result<u32, Hex> {
    let mut unit = 0;
    for n_digits in 0..4 {
        let at = pos + n_digits;
        let digit = match bytes.get(at) {
            Some(&b @ b'0'..=b'9') => b - b'0',
            Some(&b @ b'a'..=b'f') => b - b'a' + 10,
            Some(&b @ b'A'..=b'F') => b - b'A' + 10,
            Some(_) => return Err(Hex::NotHex(at)),
            None => {
                let shift = 4 * (4 - n_digits);
                let low = unit << shift;
                return Err(Hex::End((low, low | ((1 << shift) - 1))));
            }
        };
        unit = unit << 4 | u32::from(digit);
    }
    Ok(unit)
}

fn is_within(range: (u32, u32), outer: (u32, u32)) -> bool {
    outer.0 <= range.0 && range.1 <= outer.1
}

fn overlaps(range: (u32, u32), other: (u32, u32)) -> bool {
    range.0 <= other.1 && other.0 <= range.1
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The offset of the first `"`, `\` or control byte at or after `pos`, or the input's length.
///
/// Eight bytes at a time: `(x - n..) & !x & 0x80..` flags the bytes of `x` below `n`. For
/// `x` = word XOR `0x5C..` and `n` = 1, the backslashes; for `x` = word XOR `0x02..` and `n`
/// = `0x21`, the quotes and the control bytes at once (XOR 2 swaps `"` with the space and
/// keeps every byte below `0x20` below it, while no other byte lands below `0x21`). A
/// borrow can only flag bytes *above* a truly flagged one, so the lowest flag is exact.
///
/// Written to need few registers (words read at the position itself, not a slice of whole
/// words): where the compiler keeps it out of line, a call saves two, and most runs are a
/// word or two long.
pub(crate) fn scan_plain(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(chunk) = bytes.get(pos..pos + 8) {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(chunk);
        let quotes_and_controls = word ^ (ONES * 0x02);
        let backslashes = word ^ (ONES * u64::from(b'\\'));
        let flags = (quotes_and_controls.wrapping_sub(ONES * 0x21) & !quotes_and_controls
            | backslashes.wrapping_sub(ONES) & !backslashes)
            & HIGH_BITS;
        if flags != 0 {
            return pos + (flags.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while let Some(&byte) = bytes.get(pos) {
        if byte == b'"' || byte == b'\\' || byte < 0x20 {
            return pos;
        }
        pos += 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::scan_plain;

    /// The first `"`, `\` or control byte, one byte at a time: what the word scan must find.
    fn naive(bytes: &[u8], pos: usize) -> usize {
        let rest = bytes.get(pos..).unwrap_or_default();
        pos + rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .unwrap_or(rest.len())
    }

    #[test]
    fn the_word_scan_finds_the_first_special_byte_whatever_surrounds_it() {
        // Every pair of byte values at every pair of places of a 19-byte text (two words
        // and a remainder), read from several starts: a borrow from one flagged byte
        // must never hide or fake another.
        let mut bytes = [b'a'; 19];
        for first in 0..=255u8 {
            for second in [
                0u8, 0x1f, b' ', b'!', b'"', b'#', b'\\', b']', 0x7f, 0x80, 0xff, first,
            ] {
                for i in 0..bytes.len() {
                    for j in i..bytes.len() {
                        bytes = [b'a'; 19];
                        bytes[i] = first;
                        bytes[j] = second;
                        for pos in [0, 1, 7, 8, 11, 19, 20] {
                            assert_eq!(
                                scan_plain(&bytes, pos),
                                naive(&bytes, pos),
                                "{bytes:?} from {pos}"
                            );
                        }
                    }
                }
            }
        }
    }
}
