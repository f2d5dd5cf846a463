//! The JSON layer every gate stands on: one strict RFC 8259 reader ([`Reader`]: bytes to
//! [`Event`]s, fed whole or in chunks), the `Value` that [`parse`] builds from its events,
//! and the writer that prints it back. Nothing else in the crate reads or prints JSON: every
//! consumer (the `Value` builder, the envelope, a check that reads a call as it streams) is
//! a [`Sink`] of the one reader.
//!
//! The reader is bounded ([`Limits`]: depth and size) so that no input can exhaust the stack
//! or memory, and it tells input that *stops* ([`ErrorKind::Truncated`], a reply cut off at
//! the model's token limit) apart from input that is *wrong*: the model's fix differs (make a
//! smaller call, versus correct the syntax).
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
//! What it refuses, and why (the reasons a lenient parser would hide):
//! - anything RFC 8259 does not allow: comments, trailing commas, single quotes, `NaN`,
//!   leading zeros, a byte order mark, unescaped control characters, whitespace inside a
//!   token (`"\u 0041"`);
//! - lone surrogate escapes (`"\uD800"`): a Rust `str` cannot hold them, and replacing
//!   them would change what the model sent;
//! - bytes that are not UTF-8 ([`parse_bytes`]), at their offset;
//! - nesting deeper than 128 levels and inputs over 1 MiB, unless [`Limits`] say otherwise.
//!
//! It keeps what others drop: duplicate keys (in order, for the gate to refuse) and every
//! number exactly as written ([`Number::as_i64`] decides integers from the text).

pub(crate) mod decimal;
mod error;
mod event;
mod keys;
mod name;
// What a stream reads its text with: the partial tree, and the refusal's place.
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
