//! The three gates, in order: the name is registered, the arguments are an object, the
//! arguments match the tool's spec. (Skeleton: the API contract; lands with issue #4.)

use crate::envelope::Call;
use crate::json::{Kind, ParseError};
use crate::spec::{LoadError, ToolSpec, Violation};
use std::fmt;

/// The compiled, check-only set of tool specs.
#[derive(Clone, Debug)]
pub struct Gate {
    specs: Vec<ToolSpec>,
}

/// Why a call was refused: a statement about the request, never about the tool.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Rejection {
    /// The call text is not JSON.
    MalformedJson {
        /// The call id, when it could be read.
        id: Option<String>,
        /// The parser's error.
        error: ParseError,
    },
    /// The call text stops in the middle.
    TruncatedJson {
        /// The call id, when it could be read.
        id: Option<String>,
        /// The parser's error.
        error: ParseError,
    },
    /// JSON, but no envelope toolgate knows.
    BadEnvelope {
        /// The call id, when it could be read.
        id: Option<String>,
        /// What is wrong with it.
        problem: String,
    },
    /// The name is not registered.
    UnknownTool {
        /// The call id.
        id: Option<String>,
        /// The name the model used.
        name: String,
        /// Up to three registered names closest by edit distance, or all when few.
        closest: Vec<String>,
    },
    /// The arguments are not a JSON object.
    ArgumentsNotObject {
        /// The call id.
        id: Option<String>,
        /// The tool.
        tool: String,
        /// What they were instead.
        found: Kind,
    },
    /// The arguments break the tool's spec.
    SchemaViolation {
        /// The call id.
        id: Option<String>,
        /// The tool.
        tool: String,
        /// The first violation.
        violation: Violation,
    },
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

    /// The stable label (`"unknown_tool"`).
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

impl Rejection {
    /// The kind.
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

    /// The call id, when the call had one and it could be read.
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
            Rejection::UnknownTool { name, .. } => Some(name),
            Rejection::ArgumentsNotObject { tool, .. }
            | Rejection::SchemaViolation { tool, .. } => Some(tool),
            _ => None,
        }
    }

    /// The dotted path of a schema violation (`""` for the arguments root).
    pub fn path(&self) -> Option<&str> {
        match self {
            Rejection::SchemaViolation { violation, .. } => Some(violation.path()),
            _ => None,
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind().label())
    }
}

impl Gate {
    /// A gate over these specs.
    pub fn new(specs: Vec<ToolSpec>) -> Gate {
        Gate { specs }
    }

    /// A gate over a tools file in any provider form.
    ///
    /// # Errors
    /// The file's [`LoadError`].
    pub fn from_tools_json(text: &str) -> Result<Gate, LoadError> {
        crate::spec::load_tools(text).map(Gate::new)
    }

    /// The specs, in registration order.
    pub fn specs(&self) -> &[ToolSpec] {
        &self.specs
    }

    /// Runs a raw call through every gate.
    ///
    /// # Errors
    /// The first [`Rejection`].
    pub fn check_call<'a>(&self, raw: &'a str) -> Result<Call<'a>, Rejection> {
        let _ = raw;
        Err(Rejection::BadEnvelope {
            id: None,
            problem: String::from("not built yet"),
        })
    }
}
