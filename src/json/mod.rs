//! The JSON layer every gate stands on: a strict RFC 8259 parser, the `Value` it builds and
//! the writer that prints it back. Nothing else in the crate parses or prints JSON.
//!
//! The parser is bounded ([`Limits`]: depth and size) so that no input can exhaust the stack
//! or memory, and it tells input that *stops* ([`ErrorKind::Truncated`], a reply cut off at
//! the model's token limit) apart from input that is *wrong*: the model's fix differs (make a
//! smaller call, versus correct the syntax).

mod error;
mod parse;
mod value;
mod write;

pub use error::{ErrorKind, Inside, ParseError, Position};
pub use parse::{parse, parse_bytes, parse_bytes_with, parse_with, Limits};
pub use value::{Kind, Member, Number, Value};
pub use write::{preview, to_pretty_string, write_escaped_str};
