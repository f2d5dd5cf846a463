//! Names in messages: one way to quote what the model sent ([`Quoted`]: one line, cut at
//! [`PREVIEW_CHARS`]), one way to name a tool ([`Name`]) and one capped list writer
//! ([`write_list`]), since a name from a broken call can hold anything.

use crate::json::PREVIEW_CHARS;
use std::fmt;

/// Lists are written up to this many items; the rest are counted (`… (12 more)`).
pub(crate) const LIST_LIMIT: usize = 20;

/// A name escaped as Rust's `escape_debug` does (quotes, backslashes, control and
/// invisible characters), so that the text stays one readable line, and cut at
/// [`PREVIEW_CHARS`] characters with `…`.
pub(crate) struct Escaped<'n>(pub(crate) &'n str);

/// An [`Escaped`] name in single quotes: `'customer_id'`.
pub(crate) struct Quoted<'n>(pub(crate) &'n str);

/// A tool name in a sentence: bare when it is a name a tool may have (`search_orders`,
/// `github.create_issue`: [`NameRule::MCP`](super::NameRule::MCP)), else [`Quoted`], since a
/// name read from a broken call can hold anything.
pub(crate) struct Name<'n>(pub(crate) &'n str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cut = self.0.char_indices().nth(PREVIEW_CHARS).map(|(at, _)| at);
        let shown = cut.and_then(|at| self.0.get(..at)).unwrap_or(self.0);
        write!(f, "{}", shown.escape_debug())?;
        if cut.is_some() {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", Escaped(self.0))
    }
}

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if super::NameRule::MCP.accepts(self.0) {
            f.write_str(self.0)
        } else {
            Quoted(self.0).fmt(f)
        }
    }
}

/// A JSON Schema type name as a sentence says it: `a string`, `an integer`, `null`; the
/// one table of articles, for rejections (`received an array`) and violations (`must be
/// a string or null`). A name outside the seven is returned as it is.
pub(crate) fn with_article(name: &str) -> &str {
    match name {
        "string" => "a string",
        "number" => "a number",
        "integer" => "an integer",
        "boolean" => "a boolean",
        "array" => "an array",
        "object" => "an object",
        other => other,
    }
}

/// Writes `a, b, c`, or the first [`LIST_LIMIT`] items and `, … (N more)`.
pub(crate) fn write_list<T>(
    f: &mut fmt::Formatter<'_>,
    items: &[T],
    mut write_item: impl FnMut(&mut fmt::Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    for (index, item) in items.iter().take(LIST_LIMIT).enumerate() {
        if index > 0 {
            f.write_str(", ")?;
        }
        write_item(f, item)?;
    }
    if let Some(more) = items.len().checked_sub(LIST_LIMIT).filter(|&more| more > 0) {
        write!(f, ", … ({more} more)")?;
    }
    Ok(())
}
