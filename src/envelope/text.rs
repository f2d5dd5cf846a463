//! Arguments given as text (OpenAI's `"arguments": "{\"city\":\"Oslo\"}"`). Most texts are
//! read in one pass straight from the string literal ([`json::parse_embedded`], which reads
//! through both levels of escaping). The rest, and every text with an error, take the path
//! below: the literal is unescaped into a buffer kept per thread, the buffer is parsed, and
//! the value is re-borrowed from the raw call (see `rebase`). Either way a call with
//! arguments text costs no allocation for the text itself.
//!
//! Unescaping follows RFC 8259 section 7 strictly: the two-character escapes
//! `\" \\ \/ \b \f \n \r \t`, `\uXXXX` with four hex digits, a high surrogate only when a
//! low one follows, and no raw control character. Anything else, or anything unusual, is
//! left to the parser: [`read_text`] then parses the literal with [`json::parse`] and uses
//! its answer, so this file never decides that a text is invalid on its own.

use super::rebase::rebase;
use super::scan::Stop;
use crate::json::{self, Limits, ParseError, Value};
use std::cell::RefCell;

/// The arguments text of a string literal, parsed: the arguments, or the parser's error for
/// the text (which is a rejection about the arguments, not about the call).
pub(crate) type TextArgs<'a> = Result<Value<'a>, Box<ParseError>>;

/// Buffers longer than this are freed after use rather than kept for the next call.
const MAX_KEPT: usize = 1 << 16;

thread_local! {
    /// The unescaping buffer, reused call after call on each thread.
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Reads the arguments text of the string literal at the start of `rest` (a slice of the
/// raw call from the opening quote) and parses it under `limits`. Returns the parsed text
/// and the literal's length in bytes: the literal is unescaped in the same pass that finds
/// its end.
///
/// # Errors
/// [`Stop`] when the literal itself is not a valid JSON string: the call is not JSON, and
/// the whole text goes to the parser for the error.
pub(crate) fn read_text(rest: &str, limits: Limits) -> Result<(TextArgs<'_>, usize), Stop> {
    // Most arguments texts are read in one pass straight from the literal; the rest (and
    // every text with an error) take the path below, which the parser has the last word on.
    if let Some((value, length)) = json::parse_embedded(rest, limits) {
        return Ok((Ok(value), length));
    }
    let mut buffer = BUFFER
        .try_with(|buffer| buffer.try_borrow_mut().map(|mut b| std::mem::take(&mut *b)))
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
    let result = match unescape(rest, &mut buffer) {
        Some(Unescaped::Plain(length)) => {
            // No escape: the text is its own slice of the raw call.
            let text = rest.get(1..length.saturating_sub(1)).ok_or(Stop)?;
            Ok((json::parse_with(text, limits).map_err(Box::new), length))
        }
        Some(Unescaped::Buffered(length)) => {
            let literal = rest.get(..length).ok_or(Stop)?;
            match std::str::from_utf8(&buffer) {
                Ok(text) => Ok((parse_buffer(text, literal, limits), length)),
                // Cannot happen (only UTF-8 goes in), but the parser can always decide.
                Err(_) => by_the_parser(rest, limits),
            }
        }
        // Something this file does not handle: the parser decides.
        None => by_the_parser(rest, limits),
    };
    if buffer.capacity() <= MAX_KEPT {
        buffer.clear();
        let _ = BUFFER.try_with(|kept| {
            if let Ok(mut kept) = kept.try_borrow_mut() {
                *kept = buffer;
            }
        });
    }
    result
}

/// The slow path: finds the literal's end by its quotes and lets the parser read it.
fn by_the_parser(rest: &str, limits: Limits) -> Result<(TextArgs<'_>, usize), Stop> {
    let bytes = rest.as_bytes();
    let mut at = 1;
    let length = loop {
        match bytes.get(at) {
            Some(b'"') => break at + 1,
            Some(b'\\') => at += 2,
            Some(_) => at += 1,
            None => return Err(Stop),
        }
    };
    let literal = rest.get(..length).ok_or(Stop)?;
    match json::parse(literal) {
        Ok(Value::String(text)) => Ok((parse_buffer(&text, literal, limits), length)),
        _ => Err(Stop),
    }
}

/// Parses unescaped text and re-borrows its strings from the raw literal.
fn parse_buffer<'a>(buffer: &str, literal: &'a str, limits: Limits) -> TextArgs<'a> {
    match json::parse_with(buffer, limits) {
        Ok(value) => Ok(rebase(value, buffer, literal)),
        Err(error) => Err(Box::new(error)),
    }
}

/// How a literal was read.
enum Unescaped {
    /// It holds no escape; its length, quotes included.
    Plain(usize),
    /// Its text is in the buffer; its length, quotes included.
    Buffered(usize),
}

/// Unescapes the string literal at the start of `rest` into `out` (UTF-8 bytes: runs of the
/// `str` cut at ASCII bytes, and whole characters), up to its closing quote. `None` for
/// anything outside the strict rules above (the caller then asks the parser).
fn unescape(rest: &str, out: &mut Vec<u8>) -> Option<Unescaped> {
    out.clear();
    let bytes = rest.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut at = 1;
    let mut escaped = false;
    loop {
        // A run of plain characters, copied whole (or not at all, until an escape shows up).
        let run = bytes
            .get(at..)?
            .iter()
            .position(|&byte| byte == b'\\' || byte == b'"' || byte < 0x20)?;
        let end = at + run;
        if escaped {
            out.extend_from_slice(bytes.get(at..end)?);
        }
        match bytes.get(end)? {
            b'"' if escaped => return Some(Unescaped::Buffered(end + 1)),
            b'"' => return Some(Unescaped::Plain(end + 1)),
            b'\\' => {}
            _ => return None,
        }
        if !escaped {
            escaped = true;
            out.extend_from_slice(bytes.get(1..end)?);
        }
        // `\"` is by far the commonest escape in arguments text: every key has two.
        if bytes.get(end + 1) == Some(&b'"') {
            out.push(b'"');
            at = end + 2;
            continue;
        }
        let (c, length) = escape(bytes.get(end..)?)?;
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        at = end + length;
    }
}

/// The character an escape at the start of `bytes` stands for, and how many bytes it
/// spans.
#[inline]
pub(crate) fn escape(bytes: &[u8]) -> Option<(char, usize)> {
    let code = *bytes.get(1)?;
    if code != b'u' {
        return json::short_escape(code).map(|c| (c, 2));
    }
    let unit = hex4(bytes.get(2..6)?)?;
    match unit {
        0xD800..=0xDBFF => {
            if bytes.get(6..8)? != b"\\u" {
                return None;
            }
            let low = hex4(bytes.get(8..12)?)?;
            json::surrogate_pair(unit, low).map(|c| (c, 12))
        }
        0xDC00..=0xDFFF => None,
        _ => char::from_u32(unit).map(|c| (c, 6)),
    }
}

/// Four hex digits, exactly.
fn hex4(digits: &[u8]) -> Option<u32> {
    if digits.len() != 4 {
        return None;
    }
    digits.iter().try_fold(0u32, |value, &digit| {
        let nibble = char::from(digit).to_digit(16)?;
        Some(value << 4 | nibble)
    })
}
