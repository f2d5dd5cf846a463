//! The JSON layer every gate stands on: one strict RFC 8259 [`Reader`] (bytes to [`Event`]s,
//! fed whole or in chunks), the `Value` that [`parse`] builds, and the writer. It is bounded
//! ([`Limits`]), and tells input that *stops* ([`ErrorKind::Truncated`], a reply cut off at
//! the token limit: make a smaller call) from input that is *wrong* (fix the syntax).
//!
//! ```
//! use toolgate::json::{parse, ErrorKind, Inside};
//!
//! let call = parse(r#"{"name": "search_orders", "arguments": {"query": "raincoat"}}"#)?;
//! assert_eq!(call.get("name").and_then(|v| v.as_str()), Some("search_orders"));
//! assert_eq!(call.to_string(), r#"{"name":"search_orders","arguments":{"query":"raincoat"}}"#);
//!
//! let cut = parse(r#"{"name": "search_orders", "arguments": {"query": "rain"#).unwrap_err();
//! assert!(cut.is_truncated());
//! assert_eq!(
//!     cut.to_string(),
//!     "the input ended inside a string that starts at line 1, column 50"
//! );
//! let wrong = parse(r#"{"name": "search_orders" "arguments": {}}"#).unwrap_err();
//! assert!(matches!(wrong.kind(), ErrorKind::Unexpected { .. }));
//! assert_eq!(
//!     wrong.to_string(),
//!     "expected ',' or '}' after an object member at line 1, column 26, found '\"'"
//! );
//! # Ok::<(), toolgate::json::ParseError>(())
//! ```
//!
//! It refuses what RFC 8259 does not allow (comments, trailing commas, `NaN`, leading
//! zeros, a byte order mark, raw control characters), lone surrogate escapes (a `str` cannot
//! hold them), bytes that are not UTF-8, and by default nesting over 128 levels or input over
//! 1 MiB. It keeps duplicate keys (for the gate to refuse) and numbers as written.

pub(crate) mod decimal;
mod error;
mod event;
mod keys;
mod name;
#[cfg(feature = "stream")]
mod offset;
mod open;
mod parse;
#[cfg(feature = "stream")]
mod partial;
mod path;
mod reader;
mod stack;
mod value;
mod write;

pub use error::{ErrorKind, Inside, ParseError, Position};
pub use event::{Event, Sink};
pub(crate) use keys::repeated_key;
pub(crate) use name::same_name;
#[cfg(feature = "stream")]
pub(crate) use offset::offset_of;
pub(crate) use open::{Open, Tail};
pub(crate) use parse::Builder;
pub use parse::{parse, parse_bytes, parse_bytes_with, parse_with};
#[cfg(feature = "stream")]
pub(crate) use partial::PartialBuilder;
pub use path::{Path, Segment};
pub use reader::{Limits, Reader, Stop};
pub use value::{Kind, Member, Number, Value};
#[cfg(feature = "turns")]
pub(crate) use write::write_compact;
pub use write::{preview, to_pretty_string, write_escaped_str, PREVIEW_CHARS};
