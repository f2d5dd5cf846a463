//! The writer: [`Value`] back to JSON text, compact (`Display`) or pretty.
//! (Skeleton: the implementation lands with issue #2.)

use super::Value;
use std::fmt;

impl fmt::Display for Value<'_> {
    /// Compact JSON: no whitespace, every control character escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let _ = f;
        todo!("issue #2")
    }
}

/// Pretty JSON: two-space indent, one member or element per line.
pub fn to_pretty_string(value: &Value<'_>) -> String {
    let _ = value;
    todo!("issue #2")
}

/// Writes `s` as a JSON string literal, quotes included.
///
/// # Errors
/// Only those of the underlying writer.
pub fn write_escaped_str(out: &mut impl fmt::Write, s: &str) -> fmt::Result {
    let _ = (out, s);
    todo!("issue #2")
}
