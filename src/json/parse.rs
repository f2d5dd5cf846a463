//! The parser: bytes to [`Value`], strict RFC 8259, bounded in depth and size.
//! (Skeleton: the implementation lands with issue #2.)

use super::{ParseError, Value};

/// Bounds on what one parse may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and objects accepted (the top-level value is level 1).
    pub max_depth: usize,
    /// Longest input accepted, in bytes.
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_bytes: 1 << 20,
        }
    }
}

/// Parses a JSON text under the default [`Limits`].
///
/// # Errors
/// Any [`ParseError`].
pub fn parse(text: &str) -> Result<Value<'_>, ParseError> {
    parse_with(text, Limits::default())
}

/// Parses bytes that should be a UTF-8 JSON text under the default [`Limits`].
///
/// # Errors
/// Any [`ParseError`]; invalid UTF-8 is `InvalidUtf8` at its byte offset.
pub fn parse_bytes(bytes: &[u8]) -> Result<Value<'_>, ParseError> {
    parse_bytes_with(bytes, Limits::default())
}

/// Parses bytes under the given limits.
///
/// # Errors
/// Any [`ParseError`].
pub fn parse_bytes_with(bytes: &[u8], limits: Limits) -> Result<Value<'_>, ParseError> {
    let _ = (bytes, limits);
    todo!("issue #2")
}

/// Parses a JSON text under the given limits.
///
/// # Errors
/// Any [`ParseError`].
pub fn parse_with(text: &str, limits: Limits) -> Result<Value<'_>, ParseError> {
    let _ = (text, limits);
    todo!("issue #2")
}
