//! Arguments given as text (OpenAI's `"arguments": "{\"city\":\"Oslo\"}"`), parsed without
//! copying every string.
//!
//! The arguments text is a JSON string inside the call, so it must be unescaped into a
//! buffer before it can be parsed, and the parsed value borrows from that buffer, which dies
//! when the call is returned. Copying every key and string out of it would cost one heap
//! allocation each. Instead, each borrowed string is matched back to the raw call: between
//! its `\"` quotes, a string with no escapes of its own is written in the raw text exactly as
//! in the buffer, so the value can borrow it from the raw text, which lives as long as the
//! call. Only strings whose raw form differs (they held an escape at either level) are
//! copied.
//!
//! The walk follows the raw text and the buffer in step, in document order (keys and values
//! appear in the buffer in the order the value tree lists them). Every borrow is checked
//! byte for byte before it is made, so a mistake in the stepping can only cost a copy,
//! never a wrong string.

use crate::json::{Number, Value};
use std::borrow::Cow;

/// Re-borrows `value`, parsed from `buffer` (the unescaped content of the string literal
/// `literal` in the raw call), from `literal` wherever the bytes agree.
pub(crate) fn rebase<'a>(value: Value<'_>, buffer: &str, literal: &'a str) -> Value<'a> {
    let content = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or_default();
    let mut walk = Walk {
        raw: content,
        raw_pos: 0,
        buffer_start: buffer.as_ptr() as usize,
        buffer_len: buffer.len(),
        buffer_pos: 0,
        lost: false,
    };
    walk.value(value)
}

/// The walk's two positions: in the raw literal's content and in the unescaped buffer.
/// Invariant (while `!lost`): `raw[..raw_pos]` unescapes to `buffer[..buffer_pos]`.
struct Walk<'a> {
    raw: &'a str,
    raw_pos: usize,
    buffer_start: usize,
    buffer_len: usize,
    buffer_pos: usize,
    /// The raw text could not be followed; every later string is copied.
    lost: bool,
}

impl<'a> Walk<'a> {
    // The recursion is as deep as the value, which the parser has already bounded by
    // `Limits::max_depth`.
    fn value(&mut self, value: Value<'_>) -> Value<'a> {
        match value {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) => Value::Number(self.number(n)),
            Value::String(s) => Value::String(self.text(s)),
            Value::Array(items) => {
                Value::Array(items.into_iter().map(|item| self.value(item)).collect())
            }
            Value::Object(members) => Value::Object(
                members
                    .into_iter()
                    .map(|(key, value)| (self.text(key), self.value(value)))
                    .collect(),
            ),
        }
    }

    fn number(&mut self, number: Number<'_>) -> Number<'a> {
        let rebased = self
            .find(number.as_str())
            .and_then(|raw| Number::from_text(Cow::Borrowed(raw)));
        match rebased {
            Some(raw) => raw,
            None => number.into_owned(),
        }
    }

    fn text(&mut self, text: Cow<'_, str>) -> Cow<'a, str> {
        match text {
            Cow::Owned(owned) => Cow::Owned(owned),
            Cow::Borrowed(borrowed) => match self.find(borrowed) {
                Some(raw) => Cow::Borrowed(raw),
                None => Cow::Owned(borrowed.to_owned()),
            },
        }
    }

    /// The raw text that reads exactly as `text` does, if `text` lies in the buffer and the
    /// raw text at the matching place holds the same bytes.
    fn find(&mut self, text: &str) -> Option<&'a str> {
        if self.lost {
            return None;
        }
        let offset = (text.as_ptr() as usize).checked_sub(self.buffer_start)?;
        if offset < self.buffer_pos || offset > self.buffer_len {
            return None;
        }
        self.advance_to(offset);
        if self.lost || self.buffer_pos != offset {
            return None;
        }
        let end = self.raw_pos.checked_add(text.len())?;
        let raw = self.raw.get(self.raw_pos..end)?;
        if raw != text {
            return None;
        }
        self.raw_pos = end;
        self.buffer_pos = self.buffer_pos.saturating_add(text.len());
        Some(raw)
    }

    /// Steps both positions forward until the buffer position reaches `target` (or passes
    /// it, inside an escape's output, in which case the caller copies). Between escapes the
    /// raw text and the buffer hold the same bytes, so the walk jumps from one backslash to
    /// the next.
    fn advance_to(&mut self, target: usize) {
        let bytes = self.raw.as_bytes();
        while self.buffer_pos < target {
            let Some(rest) = bytes.get(self.raw_pos..) else {
                self.lost = true;
                return;
            };
            let plain = rest
                .iter()
                .position(|&byte| byte == b'\\')
                .unwrap_or(rest.len());
            let needed = target - self.buffer_pos;
            if needed <= plain {
                self.raw_pos = self.raw_pos.saturating_add(needed);
                self.buffer_pos = target;
                return;
            }
            let Some((raw_len, buffer_len)) = rest.get(plain..).and_then(escape_lengths) else {
                self.lost = true;
                return;
            };
            self.raw_pos = self.raw_pos.saturating_add(plain).saturating_add(raw_len);
            self.buffer_pos = self
                .buffer_pos
                .saturating_add(plain)
                .saturating_add(buffer_len);
        }
    }
}

/// For the escape at the start of `bytes`: how many raw bytes it spans and how many bytes
/// its character takes in UTF-8. `None` for anything the parser would have refused.
fn escape_lengths(bytes: &[u8]) -> Option<(usize, usize)> {
    match bytes.get(1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some((2, 1)),
        b'u' => {
            let unit = hex4(bytes.get(2..6)?)?;
            if (0xD800..0xDC00).contains(&unit) {
                // A high surrogate: the parser accepted it, so a low one follows, and the
                // pair is one character outside the Basic Multilingual Plane.
                if bytes.get(6..8)? != b"\\u" {
                    return None;
                }
                let low = hex4(bytes.get(8..12)?)?;
                (0xDC00..0xE000).contains(&low).then_some((12, 4))
            } else {
                let width = match unit {
                    0..=0x7F => 1,
                    0x80..=0x7FF => 2,
                    _ => 3,
                };
                Some((6, width))
            }
        }
        _ => None,
    }
}

fn hex4(digits: &[u8]) -> Option<u32> {
    let text = std::str::from_utf8(digits).ok()?;
    u32::from_str_radix(text, 16).ok()
}
