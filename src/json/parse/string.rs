//! Strings: the fast scan of plain runs, escapes, and surrogate pairs.
//!
//! A run without escapes is found eight bytes at a time and borrowed from the input; a
//! string with escapes is unescaped into the parser's reused buffer and copied out once, at
//! its exact size.

use super::{Fail, Parser};
use crate::json::error::{ErrorKind, Inside};
use std::borrow::Cow;

impl<'a> Parser<'a> {
    /// A string at its opening quote: borrowed when it holds no escape.
    #[inline(always)]
    pub(super) fn parse_string(&mut self) -> Result<Cow<'a, str>, Fail> {
        let quote = self.pos;
        let body = quote + 1;
        let stop = scan_plain(self.bytes, body);
        match self.bytes.get(stop) {
            Some(b'"') => {
                self.pos = stop + 1;
                Ok(Cow::Borrowed(self.slice(body, stop)?))
            }
            Some(b'\\') => self.parse_escaped_string(quote, stop).map(Cow::Owned),
            Some(&byte) => Err(self.error(stop, ErrorKind::ControlCharacter { byte })),
            None => Err(self.truncated_at(Inside::String, quote)),
        }
    }

    /// The rest of a string from its first `\`: unescaped into the reused `unescaped`
    /// buffer in one pass, then copied out at its exact size (one allocation).
    #[inline(never)]
    fn parse_escaped_string(&mut self, quote: usize, first_escape: usize) -> Result<String, Fail> {
        let mut out = std::mem::take(&mut self.unescaped);
        out.clear();
        let result = self.unescape_into(quote, first_escape, &mut out);
        let string = result.map(|()| String::from(out.as_str()));
        self.unescaped = out;
        string
    }

    fn unescape_into(
        &mut self,
        quote: usize,
        first_escape: usize,
        out: &mut String,
    ) -> Result<(), Fail> {
        out.push_str(self.slice(quote + 1, first_escape)?);
        let mut pos = first_escape;
        loop {
            match self.bytes.get(pos) {
                Some(b'"') => {
                    self.pos = pos + 1;
                    return Ok(());
                }
                Some(b'\\') => pos = self.parse_escape(quote, pos, out)?,
                Some(&byte) => return Err(self.error(pos, ErrorKind::ControlCharacter { byte })),
                None => return Err(self.truncated_at(Inside::String, quote)),
            }
            let run_end = scan_plain(self.bytes, pos);
            // Escapes often come back to back (`\n\n`, surrogate pairs): skip empty runs.
            if run_end > pos {
                out.push_str(self.slice(pos, run_end)?);
            }
            pos = run_end;
        }
    }

    /// One escape at its `\`: appends what it stands for, returns the offset after it.
    fn parse_escape(
        &self,
        quote: usize,
        backslash: usize,
        out: &mut String,
    ) -> Result<usize, Fail> {
        let short = match self.bytes.get(backslash + 1) {
            Some(b'u') => return self.parse_unicode_escape(quote, backslash, out),
            Some(&code) => short_escape(code),
            None => return Err(self.truncated_at(Inside::String, quote)),
        };
        let Some(short) = short else {
            return Err(self.error_with(
                backslash + 1,
                ErrorKind::InvalidEscape,
                "expected one of \" \\ / b f n r t u after a backslash",
            ));
        };
        out.push(short);
        Ok(backslash + 2)
    }

    /// `\uXXXX`, or a high-low pair `\uD83D\uDE4F`, at its `\`.
    fn parse_unicode_escape(
        &self,
        quote: usize,
        backslash: usize,
        out: &mut String,
    ) -> Result<usize, Fail> {
        // The escape's own text says what arrived; the backslash under it would not.
        let lone = |detail| {
            let mut error = self.error_with(backslash, ErrorKind::LoneSurrogate, detail);
            error.found = None;
            error
        };
        const HIGH: &str =
            "a high surrogate \\uD800-\\uDBFF must be followed by a low one \\uDC00-\\uDFFF";
        const LOW: &str = "a low surrogate \\uDC00-\\uDFFF must follow a high one \\uD800-\\uDBFF";
        let unit = match self.hex4(backslash + 2) {
            Ok(unit) => unit,
            // Every completion of `\uDC` is a lone low surrogate: not a prefix of valid text.
            Err(HexStop::End(range)) if is_within(range, LOW_SURROGATES) => return Err(lone(LOW)),
            Err(stop) => return Err(self.hex_error(stop, quote)),
        };
        let after = backslash + 6;
        if (LOW_SURROGATES.0..=LOW_SURROGATES.1).contains(&unit) {
            return Err(lone(LOW));
        }
        if !(0xD800..=0xDBFF).contains(&unit) {
            return match char::from_u32(unit) {
                Some(c) => {
                    out.push(c);
                    Ok(after)
                }
                None => Err(lone(LOW)),
            };
        }
        match (self.bytes.get(after), self.bytes.get(after + 1)) {
            (Some(b'\\'), Some(b'u')) => {}
            (None, _) | (Some(b'\\'), None) => return Err(self.truncated_at(Inside::String, quote)),
            _ => return Err(lone(HIGH)),
        }
        let low = match self.hex4(after + 2) {
            Ok(low) => low,
            // `\uD83D\uD8` can never become a pair: not a prefix of valid text.
            Err(HexStop::End(range)) if !overlaps(range, LOW_SURROGATES) => return Err(lone(HIGH)),
            Err(stop) => return Err(self.hex_error(stop, quote)),
        };
        if !(LOW_SURROGATES.0..=LOW_SURROGATES.1).contains(&low) {
            return Err(lone(HIGH));
        }
        match surrogate_pair(unit, low) {
            Some(c) => {
                out.push(c);
                Ok(after + 6)
            }
            None => Err(lone(HIGH)),
        }
    }

    /// Four hex digits from `pos`.
    fn hex4(&self, pos: usize) -> Result<u32, HexStop> {
        let mut unit = 0;
        for (n_digits, at) in (pos..pos + 4).enumerate() {
            let digit = match self.bytes.get(at) {
                Some(&b @ b'0'..=b'9') => b - b'0',
                Some(&b @ b'a'..=b'f') => b - b'a' + 10,
                Some(&b @ b'A'..=b'F') => b - b'A' + 10,
                Some(_) => return Err(HexStop::NotHex(at)),
                None => {
                    // The units that the digits read so far can still become.
                    let shift = 4 * (4 - n_digits);
                    let low = unit << shift;
                    return Err(HexStop::End((low, low | ((1 << shift) - 1))));
                }
            };
            unit = unit << 4 | u32::from(digit);
        }
        Ok(unit)
    }

    #[cold]
    fn hex_error(&self, stop: HexStop, quote: usize) -> Fail {
        match stop {
            HexStop::NotHex(at) => self.error_with(
                at,
                ErrorKind::InvalidEscape,
                "expected four hex digits after \\u",
            ),
            HexStop::End(_) => self.truncated_at(Inside::String, quote),
        }
    }
}

/// Why four hex digits were not read.
enum HexStop {
    /// A byte that is not a hex digit, at this offset.
    NotHex(usize),
    /// The end of the input, with the range of units the digits so far could still become.
    End((u32, u32)),
}

const LOW_SURROGATES: (u32, u32) = (0xDC00, 0xDFFF);

fn is_within(range: (u32, u32), outer: (u32, u32)) -> bool {
    outer.0 <= range.0 && range.1 <= outer.1
}

fn overlaps(range: (u32, u32), other: (u32, u32)) -> bool {
    range.0 <= other.1 && other.0 <= range.1
}

/// The character a one-letter escape stands for (`n` in `\n`), for the eight RFC 8259
/// defines; `None` for any other byte, `u` included (its four hex digits follow).
#[inline(always)]
pub(crate) fn short_escape(code: u8) -> Option<char> {
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

/// The character a UTF-16 surrogate pair (`\uD83D\uDE4F`) stands for; `None` unless `high`
/// is a high surrogate and `low` a low one.
#[inline(always)]
pub(crate) fn surrogate_pair(high: u32, low: u32) -> Option<char> {
    if !(0xD800..=0xDBFF).contains(&high) || !(0xDC00..=0xDFFF).contains(&low) {
        return None;
    }
    char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The offset of the first `"`, `\` or control byte at or after `pos`, or the input's length.
///
/// Eight bytes at a time: `(x - 0x01..) & !x & 0x80..` flags the bytes of `x` that are zero
/// (for `x` = word XOR a repeated byte: the bytes equal to it), and `(w - 0x20..) & !w &
/// 0x80..` the bytes below 0x20. A borrow can only flag bytes *above* a truly flagged one,
/// so the lowest flag is exact.
#[inline(always)]
pub(crate) fn scan_plain(bytes: &[u8], pos: usize) -> usize {
    let Some(rest) = bytes.get(pos..) else {
        return pos;
    };
    // One bounds check for the whole run: `chunks_exact` hands out whole words.
    let mut offset = pos;
    let mut chunks = rest.chunks_exact(8);
    for chunk in &mut chunks {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(chunk);
        let quotes = word ^ (ONES * u64::from(b'"'));
        let backslashes = word ^ (ONES * u64::from(b'\\'));
        let flags = (quotes.wrapping_sub(ONES) & !quotes
            | backslashes.wrapping_sub(ONES) & !backslashes
            | word.wrapping_sub(ONES * 0x20) & !word)
            & HIGH_BITS;
        if flags != 0 {
            return offset + (flags.trailing_zeros() / 8) as usize;
        }
        offset += 8;
    }
    for &byte in chunks.remainder() {
        if byte == b'"' || byte == b'\\' || byte < 0x20 {
            return offset;
        }
        offset += 1;
    }
    offset
}
