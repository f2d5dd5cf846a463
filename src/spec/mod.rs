//! Tool specs: one declaration per tool that both validates the model's arguments and is
//! sent to the provider, so the schema the model sees and the check the gate runs cannot
//! drift apart.
//!
//! - [`types`]: the data model ([`ToolSpec`], [`Type`], [`Schema`]).
//! - [`build`]: constructing specs in Rust, and the errors a contradictory spec raises.
//! - [`validate`]: checking arguments, returning the first [`Violation`].
//! - [`format`](mod@format): the `format` values enforced, each an exact RFC grammar
//!   ([`Format`](format::Format)); the `format` feature.
//! - [`schema`]: importing JSON Schema (the subset toolgate enforces; nothing is ignored).
//! - [`tools_file`]: reading provider tools arrays (Anthropic, OpenAI, Responses, MCP, Gemini).
//! - [`export`]: writing specs back in each provider's form.
//! - [`tool_name`]: which tool names each party accepts, and the names an export maps to.
//! - [`absent`]: strict mode's `null` for an optional field, read as "not given".

pub mod absent;
pub mod build;
pub mod export;
#[cfg(feature = "format")]
pub mod format;
// Without the checkers, a `Format` with no values stands in, so that `Rule::Format` and the
// validator keep one shape in every build; the keyword table refuses `format` by name.
#[cfg(not(feature = "format"))]
#[path = "format_off.rs"]
pub mod format;
pub(crate) mod names;
pub mod schema;
#[cfg(feature = "pattern")]
mod string_pattern;
// Without the regex engine, a `StringPattern` with no values stands in (see the file).
#[cfg(not(feature = "pattern"))]
#[path = "string_pattern_off.rs"]
mod string_pattern;
pub mod tool_name;
pub mod tools_file;
pub mod types;
pub mod validate;
pub mod violation;

pub use build::SpecError;
pub use export::{
    check_strict, export_tool, export_tools, export_tools_with, Export, ExportError, ExportNote,
    ExportOptions, ExportRefusal, OpenObjects, Provider, StrictProblem,
};
pub use schema::{LoadError, RefProblem, Unenforced, MAX_SCHEMA_DEPTH};
pub use tool_name::{NameMap, NameRule};
pub use tools_file::{
    load_tool_entry, load_tools, load_tools_from_value, load_tools_from_value_lenient,
    load_tools_lenient, MAX_TOOLS_FILE_BYTES,
};
pub use types::{
    Additional, ArrayRules, Bound, Field, IfThenElse, Kinds, MemberCount, NumberRules, ObjectType,
    PatternField, Schema, StringRules, ToolSpec, Type,
};
pub use violation::{Forbidden, Rule, Violation};
