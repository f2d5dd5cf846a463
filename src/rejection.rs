//! [`Rejection`]: why a call was refused, as data; `Display` is the sentence the model reads.
//! A rejection is about the *request* (nothing ran); a tool that ran and failed is an
//! [`Outcome::ToolFailed`](crate::Outcome::ToolFailed). Every text says which call, what was
//! expected, what arrived (cut at [`PREVIEW_CHARS`](crate::json::PREVIEW_CHARS)) and what to do.

use crate::json::{ErrorKind, Inside, Kind, ParseError};
use crate::spec::names::{with_article, write_list, Escaped, Name, Quoted};
use crate::spec::Violation;
use std::fmt;

/// Why a call was refused, in gate order; `Display` is the text the model reads.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Rejection {
    /// A text that should be JSON is not: the call itself, or the arguments text that OpenAI
    /// shapes carry inside it.
    MalformedJson {
        /// The call id, when it could be read before the error.
        id: Option<String>,
        /// The tool name, when it could be read before the error.
        tool: Option<String>,
        /// Which text: the call or its arguments text.
        part: Part,
        /// The parser's error, with its position in that text.
        error: Box<ParseError>,
    },
    /// A text that should be JSON stops in the middle: the reply was cut off (usually at the
    /// model's output limit), so the fix is a smaller call, not the same one again.
    TruncatedJson {
        /// The call id, when it could be read before the cut.
        id: Option<String>,
        /// The tool name, when it could be read before the cut.
        tool: Option<String>,
        /// Which text: the call or its arguments text.
        part: Part,
        /// The parser's error; its offset is where the text ended.
        error: Box<ParseError>,
    },
    /// JSON, but not a tool call in any shape toolgate reads.
    BadEnvelope {
        /// The call id, when it could be read.
        id: Option<String>,
        /// What is wrong with the envelope.
        problem: EnvelopeProblem,
    },
    /// The name is not registered.
    UnknownTool {
        /// The call id.
        id: Option<String>,
        /// The name the model used.
        name: String,
        /// The closest names, closest first: one with at most
        /// [`LIST_ALL_UP_TO`](crate::gate::LIST_ALL_UP_TO) tools, else
        /// [`CLOSEST_SHOWN`](crate::gate::CLOSEST_SHOWN). Empty with no tools.
        closest: Vec<String>,
        /// Every name, with at most [`LIST_ALL_UP_TO`](crate::gate::LIST_ALL_UP_TO) tools.
        tools: Vec<String>,
    },
    /// The arguments are not a JSON object.
    ArgumentsNotObject {
        /// The call id.
        id: Option<String>,
        /// The tool.
        tool: String,
        /// What they were instead.
        found: Kind,
        /// The arguments as compact JSON, cut at
        /// [`PREVIEW_CHARS`](crate::json::PREVIEW_CHARS) characters.
        received: String,
    },
    /// The arguments break the tool's spec.
    SchemaViolation {
        /// The call id.
        id: Option<String>,
        /// The tool.
        tool: String,
        /// The first violation, in the spec's documented order.
        violation: Violation,
    },
}

/// Which text a JSON error is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The raw call as a whole.
    Call,
    /// The arguments text inside the call (OpenAI's `"arguments": "<JSON text>"`).
    Arguments,
}

/// What is wrong with a call's envelope (the JSON around the name and arguments).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EnvelopeProblem {
    /// The call is JSON but not an object.
    NotAnObject {
        /// What it is instead.
        found: Kind,
    },
    /// No tool name where the shape puts it.
    MissingName {
        /// Where the name belongs (`"name"`, `"function.name"`).
        field: &'static str,
    },
    /// A field the envelope reads holds the wrong kind of value.
    WrongType {
        /// The field (`"name"`, `"function"`, `"call_id"`).
        field: &'static str,
        /// What it must be, with its article (`"a string"`).
        expected: &'static str,
        /// What arrived, as compact JSON cut at
        /// [`PREVIEW_CHARS`](crate::json::PREVIEW_CHARS) characters.
        received: String,
    },
    /// A key appears twice in the envelope: readers disagree on which one counts.
    DuplicateKey {
        /// The key, with its enclosing field when nested (`"function.name"`).
        key: String,
    },
    /// A `"type"` that names something other than a tool call (`"text"`).
    NotACall {
        /// The type given, cut at [`PREVIEW_CHARS`](crate::json::PREVIEW_CHARS) characters.
        type_name: String,
    },
    /// Two fields that mean the same thing are both filled (`"arguments"` and `"input"`).
    Conflict {
        /// The first field, the one the text asks the model to keep.
        first: &'static str,
        /// The second field.
        second: &'static str,
    },
    /// Valid JSON the envelope reader could not follow: a toolgate bug, refused rather than
    /// a panic.
    Unreadable,
}

/// The kind of a [`Rejection`], with a stable label for counters and the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RejectionKind {
    /// `malformed_json`.
    MalformedJson,
    /// `truncated_json`.
    TruncatedJson,
    /// `bad_envelope`.
    BadEnvelope,
    /// `unknown_tool`.
    UnknownTool,
    /// `arguments_not_object`.
    ArgumentsNotObject,
    /// `schema_violation`.
    SchemaViolation,
}

impl RejectionKind {
    /// Every kind, in gate order.
    pub const ALL: [RejectionKind; 6] = [
        RejectionKind::MalformedJson,
        RejectionKind::TruncatedJson,
        RejectionKind::BadEnvelope,
        RejectionKind::UnknownTool,
        RejectionKind::ArgumentsNotObject,
        RejectionKind::SchemaViolation,
    ];

    /// The stable label (`"unknown_tool"`) counters and the command line print.
    pub fn label(self) -> &'static str {
        match self {
            RejectionKind::MalformedJson => "malformed_json",
            RejectionKind::TruncatedJson => "truncated_json",
            RejectionKind::BadEnvelope => "bad_envelope",
            RejectionKind::UnknownTool => "unknown_tool",
            RejectionKind::ArgumentsNotObject => "arguments_not_object",
            RejectionKind::SchemaViolation => "schema_violation",
        }
    }
}

impl fmt::Display for RejectionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

impl Rejection {
    /// The kind, whose [`label`](RejectionKind::label) is stable.
    pub fn kind(&self) -> RejectionKind {
        match self {
            Rejection::MalformedJson { .. } => RejectionKind::MalformedJson,
            Rejection::TruncatedJson { .. } => RejectionKind::TruncatedJson,
            Rejection::BadEnvelope { .. } => RejectionKind::BadEnvelope,
            Rejection::UnknownTool { .. } => RejectionKind::UnknownTool,
            Rejection::ArgumentsNotObject { .. } => RejectionKind::ArgumentsNotObject,
            Rejection::SchemaViolation { .. } => RejectionKind::SchemaViolation,
        }
    }

    /// The call id, when it could be read (even from a call cut off after it).
    pub fn id(&self) -> Option<&str> {
        match self {
            Rejection::MalformedJson { id, .. }
            | Rejection::TruncatedJson { id, .. }
            | Rejection::BadEnvelope { id, .. }
            | Rejection::UnknownTool { id, .. }
            | Rejection::ArgumentsNotObject { id, .. }
            | Rejection::SchemaViolation { id, .. } => id.as_deref(),
        }
    }

    /// The tool name the call used, when it could be read.
    pub fn tool(&self) -> Option<&str> {
        match self {
            Rejection::MalformedJson { tool, .. } | Rejection::TruncatedJson { tool, .. } => {
                tool.as_deref()
            }
            Rejection::UnknownTool { name, .. } => Some(name),
            Rejection::ArgumentsNotObject { tool, .. }
            | Rejection::SchemaViolation { tool, .. } => Some(tool),
            Rejection::BadEnvelope { .. } => None,
        }
    }

    /// The dotted path of a schema violation (`"filters.limit"`, `"items.2.sku"`, `""` for
    /// the arguments root); `None` for every other kind.
    pub fn path(&self) -> Option<&str> {
        match self {
            Rejection::SchemaViolation { violation, .. } => Some(violation.path()),
            _ => None,
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::MalformedJson {
                tool, part, error, ..
            }
            | Rejection::TruncatedJson {
                tool, part, error, ..
            } => {
                let subject = Subject(*part, tool.as_deref());
                let (is, was, they, them, next) = match part {
                    Part::Call => ("is", "was", "it", "it", "the call again as one valid"),
                    Part::Arguments => {
                        ("are", "were", "they", "them", "the arguments again as one")
                    }
                };
                let truncated = matches!(self, Rejection::TruncatedJson { .. });
                match error.kind() {
                    ErrorKind::TooDeep { .. } | ErrorKind::TooLarge { .. } if !truncated => write!(
                        f,
                        "{subject} cannot be read: {error}. Send a smaller call, with fewer or \
                         shorter items and less nesting."
                    ),
                    _ if !truncated => {
                        write!(
                            f,
                            "{subject} {is} not valid JSON: {error}. Send {next} JSON object."
                        )
                    }
                    ErrorKind::Truncated { inside, .. } if *inside != Inside::Document => write!(
                        f,
                        "{subject} {was} cut off after {} bytes, inside {}. Do not send the same \
                         call again: make it smaller, with fewer or shorter items.",
                        error.offset(),
                        inside.noun()
                    ),
                    _ => write!(
                        f,
                        "{subject} {is} empty, as if cut off before {they} began. Send {them} as \
                         one JSON object; if the call is long, make it smaller, with fewer or \
                         shorter items."
                    ),
                }
            }
            Rejection::BadEnvelope { problem, .. } => write!(f, "{problem}"),
            Rejection::UnknownTool {
                name,
                closest,
                tools,
                ..
            } => {
                write!(f, "No tool named {}", Quoted(name))?;
                if closest.is_empty() {
                    return f
                        .write_str(": no tools are registered, so answer without calling one.");
                }
                f.write_str(". Did you mean: ")?;
                write_list(f, closest, |f, name| f.write_str(name))?;
                f.write_str("?")?;
                if !tools.is_empty() {
                    f.write_str(" The tools are: ")?;
                    write_list(f, tools, |f, name| f.write_str(name))?;
                    f.write_str(".")?;
                }
                Ok(())
            }
            Rejection::ArgumentsNotObject {
                tool,
                found,
                received,
                ..
            } => {
                write!(
                    f,
                    "{} rejected: the arguments must be a JSON object of named fields; \
                     received {}",
                    Name(tool),
                    with_article(found.label())
                )?;
                if *found != Kind::Null {
                    write!(f, ": {received}")?;
                }
                f.write_str(".")
            }
            Rejection::SchemaViolation {
                tool, violation, ..
            } => {
                let clause = violation.to_string();
                write!(f, "{} rejected: {clause}", Name(tool))?;
                if clause.ends_with('.') {
                    Ok(())
                } else {
                    f.write_str(".")
                }
            }
        }
    }
}

impl std::error::Error for Rejection {}

impl fmt::Display for EnvelopeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvelopeProblem::NotAnObject { found } => write!(
                f,
                "The call is {}, not a JSON object. Send one object: \
                 {{\"name\": \"<tool>\", \"arguments\": {{...}}}}.",
                with_article(found.label())
            ),
            EnvelopeProblem::MissingName { field: "name" } => f.write_str(
                "The call has no \"name\", so no tool can be chosen. Send one object: \
                 {\"name\": \"<tool>\", \"arguments\": {...}}.",
            ),
            EnvelopeProblem::MissingName { field } => write!(
                f,
                "The call has no \"{field}\", so no tool can be chosen. Send the tool's name \
                 there, as a string."
            ),
            EnvelopeProblem::WrongType {
                field,
                expected,
                received,
            } => write!(
                f,
                "The call's \"{field}\" must be {expected}; received {received}. Send the call \
                 again with \"{field}\" as {expected}."
            ),
            EnvelopeProblem::DuplicateKey { key } => write!(
                f,
                "The call gives \"{}\" twice, and readers disagree on which one counts. Send \
                 each key once.",
                Escaped(key)
            ),
            EnvelopeProblem::NotACall { type_name } => write!(
                f,
                "The call's \"type\" is {type_name}, which is not a tool call: expected \
                 \"tool_use\", \"function_call\" or \"function\". Send a tool call."
            ),
            EnvelopeProblem::Conflict { first, second } => write!(
                f,
                "The call gives both \"{first}\" and \"{second}\", which mean the same thing. \
                 Send only \"{first}\"."
            ),
            EnvelopeProblem::Unreadable => f.write_str(
                "The call is valid JSON, but toolgate could not read its envelope (a toolgate \
                 bug; please report it). Send it as {\"name\": \"<tool>\", \"arguments\": \
                 {...}}.",
            ),
        }
    }
}

/// The text a JSON error is about: "The call", "The call to search_orders", "The arguments
/// of search_orders".
struct Subject<'t>(Part, Option<&'t str>);

impl fmt::Display for Subject<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0, self.1) {
            (Part::Call, None) => f.write_str("The call"),
            (Part::Call, Some(tool)) => write!(f, "The call to {}", Name(tool)),
            (Part::Arguments, None) => f.write_str("The arguments of the call"),
            (Part::Arguments, Some(tool)) => write!(f, "The arguments of {}", Name(tool)),
        }
    }
}
