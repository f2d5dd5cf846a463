//! The writer: [`Value`] back to JSON text, compact (`Display`), pretty, or cut short for a
//! message ([`preview`]).
//!
//! The writer walks the value with an explicit stack, like the parser, so that a value built
//! by hand as deep as memory allows still prints. Every control character is escaped, so
//! the output is one line whatever the strings hold, and `parse(&v.to_string()) == v`.

use super::{Member, Value};
use std::fmt;

impl fmt::Display for Value<'_> {
    /// Compact JSON: no whitespace, every control character escaped. The alternate form
    /// (`{:#}`) is the pretty one of [`to_pretty_string`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let indent = if f.alternate() { Some(INDENT) } else { None };
        write_value(f, self, indent)
    }
}

/// Pretty JSON: two-space indent, one member or element per line, `": "` after keys.
///
/// ```
/// let value = toolgate::json::parse(r#"{"ids":[1,2],"none":{}}"#)?;
/// assert_eq!(
///     toolgate::json::to_pretty_string(&value),
///     "{\n  \"ids\": [\n    1,\n    2\n  ],\n  \"none\": {}\n}"
/// );
/// # Ok::<(), toolgate::json::ParseError>(())
/// ```
pub fn to_pretty_string(value: &Value<'_>) -> String {
    let mut out = String::new();
    // Writing into a `String` cannot fail.
    let _ = write_value(&mut out, value, Some(INDENT));
    out
}

/// Appends `value` to `out` as compact JSON, exactly as `Display` writes it, but straight
/// into the `String` rather than through a `Formatter`'s dynamic writes: the turn reader
/// writes each call of a turn back this way, and it measured nearly twice as fast.
#[cfg(feature = "turns")]
pub(crate) fn write_compact(out: &mut String, value: &Value<'_>) {
    // Writing into a `String` cannot fail.
    let _ = write_value(out, value, None);
}

/// How many characters of a received value, name or allowed value any message quotes
/// (rejections, violations, load errors). Enough to recognise what was sent; few enough
/// that a megabyte string cannot flood the model's context with its own mistake. Every
/// message cuts at this one length, so the texts agree on what "received" shows.
pub const PREVIEW_CHARS: usize = 120;

/// Compact JSON cut after `max_chars` characters (on a character boundary), with `…`
/// appended when it was cut: the form every "received" value takes in a message (with
/// `max_chars` = [`PREVIEW_CHARS`]).
///
/// Writing stops as soon as the budget is spent, so previewing a 1 MB value costs as much
/// as previewing its first `max_chars` characters.
///
/// ```
/// let value = toolgate::json::parse(r#"{"query":"blue raincoat"}"#)?;
/// assert_eq!(toolgate::json::preview(&value, 12), "{\"query\":\"bl…");
/// assert_eq!(toolgate::json::preview(&value, 100), "{\"query\":\"blue raincoat\"}");
/// # Ok::<(), toolgate::json::ParseError>(())
/// ```
pub fn preview(value: &Value<'_>, max_chars: usize) -> String {
    let mut budget = Budget {
        // Room for the whole preview at once when its characters are ASCII, as most are,
        // instead of growing through five sizes to get there.
        out: String::with_capacity(max_chars.min(PREVIEW_CHARS) + '…'.len_utf8()),
        chars_left: max_chars,
        cut: false,
    };
    // An error here only means the budget ran out.
    let _ = write_value(&mut budget, value, None);
    let mut out = budget.out;
    if budget.cut {
        out.push('…');
    }
    out
}

/// Writes `s` as a JSON string literal, quotes included. `"` and `\` are escaped, control
/// characters take their short form (`\n`) or `\u00XX`; everything else is written as is.
///
/// # Errors
/// Only those of `out`.
pub fn write_escaped_str(out: &mut impl fmt::Write, s: &str) -> fmt::Result {
    out.write_char('"')?;
    // Names and ids seldom need an escape: one pass to see so, then one write.
    if !s
        .bytes()
        .any(|byte| byte < 0x20 || byte == b'"' || byte == b'\\')
    {
        out.write_str(s)?;
        return out.write_char('"');
    }
    let mut run_start = 0;
    for (at, &byte) in s.as_bytes().iter().enumerate() {
        let short = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0x00..=0x1F => "",
            _ => continue,
        };
        // `at` is an ASCII byte, so both ends of the run are character boundaries.
        out.write_str(s.get(run_start..at).ok_or(fmt::Error)?)?;
        if short.is_empty() {
            write!(out, "\\u{byte:04x}")?;
        } else {
            out.write_str(short)?;
        }
        run_start = at + 1;
    }
    out.write_str(s.get(run_start..).ok_or(fmt::Error)?)?;
    out.write_char('"')
}

const INDENT: &str = "  ";

/// An array or object being written: what is left of it, and whether anything was written.
enum Open<'v, 'a> {
    Array(std::slice::Iter<'v, Value<'a>>, bool),
    Object(std::slice::Iter<'v, Member<'a>>, bool),
}

/// Writes `value` compact (`indent` is `None`) or pretty, without recursion.
fn write_value(out: &mut impl fmt::Write, value: &Value<'_>, indent: Option<&str>) -> fmt::Result {
    let mut open: Vec<Open<'_, '_>> = Vec::new();
    let mut next = Some(value);
    loop {
        if let Some(value) = next.take() {
            match value {
                Value::Null => out.write_str("null")?,
                Value::Bool(true) => out.write_str("true")?,
                Value::Bool(false) => out.write_str("false")?,
                Value::Number(number) => out.write_str(number.as_str())?,
                Value::String(s) => write_escaped_str(out, s)?,
                Value::Array(items) if items.is_empty() => out.write_str("[]")?,
                Value::Object(members) if members.is_empty() => out.write_str("{}")?,
                Value::Array(items) => {
                    out.write_char('[')?;
                    open.push(Open::Array(items.iter(), false));
                }
                Value::Object(members) => {
                    out.write_char('{')?;
                    open.push(Open::Object(members.iter(), false));
                }
            }
        }
        let depth = open.len();
        let Some(top) = open.last_mut() else {
            return Ok(());
        };
        let (has_next, started) = match top {
            Open::Array(items, started) => {
                next = items.next();
                (next.is_some(), started)
            }
            Open::Object(members, started) => match members.next() {
                Some((key, value)) => {
                    next = Some(value);
                    let was_started = *started;
                    *started = true;
                    if was_started {
                        out.write_char(',')?;
                    }
                    new_line(out, indent, depth)?;
                    write_escaped_str(out, key)?;
                    out.write_str(if indent.is_some() { ": " } else { ":" })?;
                    continue;
                }
                None => (false, started),
            },
        };
        if has_next {
            if *started {
                out.write_char(',')?;
            }
            *started = true;
            new_line(out, indent, depth)?;
        } else {
            let close = if matches!(top, Open::Array(..)) {
                ']'
            } else {
                '}'
            };
            open.pop();
            new_line(out, indent, depth - 1)?;
            out.write_char(close)?;
        }
    }
}

fn new_line(out: &mut impl fmt::Write, indent: Option<&str>, depth: usize) -> fmt::Result {
    if let Some(indent) = indent {
        out.write_char('\n')?;
        for _ in 0..depth {
            out.write_str(indent)?;
        }
    }
    Ok(())
}

/// A `String` that takes at most `chars_left` more characters, then refuses (`fmt::Error`)
/// so that the writer stops.
struct Budget {
    out: String,
    chars_left: usize,
    cut: bool,
}

impl fmt::Write for Budget {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // A piece with no more bytes than the budget has characters fits whole (a character
        // takes at least a byte): counted, not walked.
        if s.len() <= self.chars_left {
            self.chars_left -= s.chars().count();
            self.out.push_str(s);
            return Ok(());
        }
        for (at, _) in s.char_indices() {
            if self.chars_left == 0 {
                self.out.push_str(s.get(..at).ok_or(fmt::Error)?);
                self.cut = true;
                return Err(fmt::Error);
            }
            self.chars_left -= 1;
        }
        self.out.push_str(s);
        Ok(())
    }
}
