//! JSON text held inside a JSON string literal (OpenAI's `"arguments": "{\"city\":\"Oslo\"}"`),
//! parsed in one pass over the literal, without unescaping it into a buffer first.
//!
//! The text is read through two levels of escaping at once: the literal's own (`\"` is a
//! quote of the text, `\n` a line feed of the text) and the text's strings' (`\\n` is the
//! escape `\n` inside a string of the text). A string of the text that holds no backslash at
//! either level is written in the literal exactly as its value reads, so it is borrowed from
//! the literal; any other is decoded into its own `String`.
//!
//! This reader only ever *accepts*: anything it does not take (any error, an escape it does
//! not decode here such as the literal's own `\u0022`, nesting past [`MAX_DEPTH`]) returns
//! `None`, and the caller unescapes the literal and runs the full parser, whose value or
//! error is then the answer. So it can never report an error of its own, and for the texts
//! it does accept, it builds the value the parser builds from the unescaped text (the
//! envelope property tests hold it to that).

use super::reader::{scan_plain, short_escape, surrogate_pair, Limits};
use crate::json::value::{Member, Number, Value};
use std::borrow::Cow;

/// The deepest nesting read here; deeper texts go to the parser (whose explicit stack has
/// no such bound), so the recursion below stays shallow whatever [`Limits`] say.
const MAX_DEPTH: usize = 64;

/// Parses the JSON text held by the string literal at the start of `rest` (from its opening
/// quote), under `limits`. Returns the value and the literal's length in bytes, quotes
/// included; `None` when the literal is not one this reader takes (see the module doc).
pub(crate) fn parse_embedded(rest: &str, limits: Limits) -> Option<(Value<'_>, usize)> {
    if rest.as_bytes().first() != Some(&b'"') {
        return None;
    }
    let mut reader = Reader {
        text: rest,
        bytes: rest.as_bytes(),
        pos: 1,
        max_depth: limits.max_depth.min(MAX_DEPTH),
        members: Vec::new(),
        unescaped: String::new(),
    };
    let result = reader.document();
    let length = reader.pos;
    let value = result?;
    // The text is at most as long as the literal's content.
    if length.saturating_sub(2) > limits.max_bytes {
        return None;
    }
    Some((value, length))
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// Offset in the literal. Invariant: `pos <= bytes.len()`; offsets are at most
    /// `isize::MAX`, so the small constants added below never overflow.
    pos: usize,
    max_depth: usize,
    /// Members of the open containers (an array element has the empty key), moved into
    /// their container at its closing bracket, at its exact size.
    members: Vec<Member<'a>>,
    /// Where a string with escapes is decoded before it is copied out at its exact size.
    unescaped: String,
}

impl<'a> Reader<'a> {
    /// One value, whitespace around it, and the literal's closing quote.
    fn document(&mut self) -> Option<Value<'a>> {
        self.skip_whitespace();
        self.member(Cow::Borrowed(""), 0)?;
        let (_, value) = self.members.pop()?;
        self.skip_whitespace();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return None;
        }
        self.pos += 1;
        Some(value)
    }

    /// The value at `pos`, whitespace skipped, inside `depth` open containers, pushed onto
    /// `members` with `key` (the empty key for an array element). Pushed here, where it is
    /// built, rather than returned: a returned value would be copied once more.
    fn member(&mut self, key: Cow<'a, str>, depth: usize) -> Option<()> {
        let value = match *self.bytes.get(self.pos)? {
            b'\\' if self.bytes.get(self.pos + 1) == Some(&b'"') => {
                self.pos += 2;
                Value::String(self.string()?)
            }
            b'{' => self.object(depth + 1)?,
            b'[' => self.array(depth + 1)?,
            b't' => self.literal(b"true", Value::Bool(true))?,
            b'f' => self.literal(b"false", Value::Bool(false))?,
            b'n' => self.literal(b"null", Value::Null)?,
            b'-' | b'0'..=b'9' => Value::Number(self.number()?),
            _ => return None,
        };
        self.members.push((key, value));
        Some(())
    }

    fn object(&mut self, depth: usize) -> Option<Value<'a>> {
        if depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        self.skip_whitespace();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Some(Value::Object(Vec::new()));
        }
        let base = self.members.len();
        loop {
            if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\\"") {
                return None;
            }
            self.pos += 2;
            let key = self.string()?;
            self.skip_whitespace();
            if self.bytes.get(self.pos) != Some(&b':') {
                return None;
            }
            self.pos += 1;
            self.skip_whitespace();
            self.member(key, depth)?;
            self.skip_whitespace();
            match self.bytes.get(self.pos)? {
                b',' => {
                    self.pos += 1;
                    self.skip_whitespace();
                }
                b'}' => {
                    self.pos += 1;
                    let members = self.members.drain(base..).collect();
                    return Some(Value::Object(members));
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Value<'a>> {
        if depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        self.skip_whitespace();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Some(Value::Array(Vec::new()));
        }
        let base = self.members.len();
        loop {
            self.member(Cow::Borrowed(""), depth)?;
            self.skip_whitespace();
            match self.bytes.get(self.pos)? {
                b',' => {
                    self.pos += 1;
                    self.skip_whitespace();
                }
                b']' => {
                    self.pos += 1;
                    let items = self.members.drain(base..).map(|(_, item)| item);
                    return Some(Value::Array(items.collect()));
                }
                _ => return None,
            }
        }
    }

    fn literal(&mut self, word: &'static [u8], value: Value<'a>) -> Option<Value<'a>> {
        let end = self.pos + word.len();
        if self.bytes.get(self.pos..end) != Some(word) {
            return None;
        }
        self.pos = end;
        Some(value)
    }

    /// A number: the run of bytes a number may hold, checked against the grammar. No
    /// escape can stand inside one, so it is its own text in the literal.
    fn number(&mut self) -> Option<Number<'a>> {
        let start = self.pos;
        let run = self
            .bytes
            .get(start..)?
            .iter()
            .position(|byte| !matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))?;
        self.pos = start + run;
        Number::from_text(self.text.get(start..self.pos)?)
    }

    /// A string of the text, after its opening `\"`: borrowed when it holds no backslash.
    #[inline(always)]
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let start = self.pos;
        let stop = scan_plain(self.bytes, start);
        // Only `\"` ends a string of the text; a bare `"` would end the literal.
        if self.bytes.get(stop..stop + 2) == Some(b"\\\"") {
            self.pos = stop + 2;
            return Some(Cow::Borrowed(self.text.get(start..stop)?));
        }
        let mut out = std::mem::take(&mut self.unescaped);
        out.clear();
        let decoded = self
            .decode_string(start, &mut out)
            .map(|()| String::from(out.as_str()));
        self.unescaped = out;
        decoded.map(Cow::Owned)
    }

    /// A string of the text that holds some backslash, decoded from `start` (after its
    /// opening `\"`) through both levels of escaping.
    #[inline(never)]
    fn decode_string(&mut self, start: usize, out: &mut String) -> Option<()> {
        let mut pos = start;
        loop {
            let stop = scan_plain(self.bytes, pos);
            if stop > pos {
                out.push_str(self.text.get(pos..stop)?);
            }
            // A bare quote ends the literal inside the string; a control byte is refused.
            if self.bytes.get(stop) != Some(&b'\\') {
                return None;
            }
            pos = stop + 2;
            match self.bytes.get(stop + 1)? {
                b'"' => break,
                b'/' => out.push('/'),
                // The text's own escape: the escaped character is the next byte of the text.
                b'\\' => {
                    let (code, after) = self.text_byte(pos)?;
                    pos = after;
                    let c = if code == b'u' {
                        let (c, after) = self.unicode_escape(pos)?;
                        pos = after;
                        c
                    } else {
                        short_escape(code)?
                    };
                    out.push(c);
                }
                // `\n`, `\t`, … of the literal are raw control characters in the text's
                // string, which RFC 8259 refuses; `\u` of the literal is left to the parser.
                _ => return None,
            }
        }
        self.pos = pos;
        Some(())
    }

    /// The four hex digits after a text's `\u` (and the low half after a high surrogate).
    fn unicode_escape(&self, pos: usize) -> Option<(char, usize)> {
        let (unit, pos) = self.hex4(pos)?;
        match unit {
            0xD800..=0xDBFF => {
                let (backslash, pos) = self.text_byte(pos)?;
                let (u, pos) = self.text_byte(pos)?;
                if backslash != b'\\' || u != b'u' {
                    return None;
                }
                let (low, pos) = self.hex4(pos)?;
                Some((surrogate_pair(unit, low)?, pos))
            }
            0xDC00..=0xDFFF => None,
            _ => Some((char::from_u32(unit)?, pos)),
        }
    }

    fn hex4(&self, mut pos: usize) -> Option<(u32, usize)> {
        let mut unit = 0;
        for _ in 0..4 {
            let (digit, after) = self.text_byte(pos)?;
            unit = unit << 4 | char::from(digit).to_digit(16)?;
            pos = after;
        }
        Some((unit, pos))
    }

    /// One ASCII byte of the text at `pos` (the literal's escapes `\"`, `\\`, `\/` undone)
    /// and the offset after it. `None` for anything else: no caller wants it.
    fn text_byte(&self, pos: usize) -> Option<(u8, usize)> {
        match *self.bytes.get(pos)? {
            b'\\' => match *self.bytes.get(pos + 1)? {
                byte @ (b'"' | b'\\' | b'/') => Some((byte, pos + 2)),
                _ => None,
            },
            b'"' => None,
            byte if byte.is_ascii() && byte >= 0x20 => Some((byte, pos + 1)),
            _ => None,
        }
    }

    /// Whitespace of the text: spaces, and the literal's `\n`, `\r` and `\t` (RFC 8259
    /// section 2; a raw tab or line feed cannot stand in the literal).
    fn skip_whitespace(&mut self) {
        loop {
            match self.bytes.get(self.pos) {
                Some(b' ') => self.pos += 1,
                Some(b'\\') => match self.bytes.get(self.pos + 1) {
                    Some(b'n' | b'r' | b't') => self.pos += 2,
                    _ => return,
                },
                _ => return,
            }
        }
    }
}
