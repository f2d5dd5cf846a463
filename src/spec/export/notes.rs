//! What an export says besides the tools array: notes, refusals and strict-form errors, as
//! data with the sentence the command line prints.

use super::{Provider, StrictProblem};
use std::fmt;

/// Something an export changed, or could not say, for one tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportNote {
    /// A strict form closed these open objects so that the tool keeps `"strict": true`.
    Closed(OpenObjects),
    /// The tool has no strict form, and was exported in the plain form with
    /// `"strict": false`; the error says the first place strict mode cannot say.
    NotStrict(ExportError),
    /// The tool is sent under a name the provider accepts.
    Renamed {
        /// The tool's own name.
        tool: String,
        /// The name sent (and the one the model calls).
        name: String,
    },
}

/// Why an export refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportRefusal {
    /// A tool name the provider's rule refuses, and names were not to be mapped.
    Name {
        /// The tool's name.
        tool: String,
        /// The form asked for; [`Provider::name_rule`] is the rule broken.
        provider: Provider,
    },
    /// Open objects in a strict form, and objects were not to be closed.
    OpenObjects(OpenObjects),
}

/// The open objects of one tool that a strict form closes (or, when closing is refused,
/// would have to close).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenObjects {
    /// The tool.
    pub tool: String,
    /// Every such object, in the order the schema declares them (nested ones included), as
    /// a [`Path`](crate::json::Path) in its location form (`""` for the arguments object,
    /// `filters`, `legs[]`, `$defs.Address`).
    pub paths: Vec<String>,
}

/// Why a spec has no strict form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportError {
    /// The tool.
    pub tool: String,
    /// Where in its arguments, as a [`Path`](crate::json::Path) in its location form
    /// (`filters.limit`, `items[]`, `$defs.Address`; empty for the arguments object itself).
    pub path: String,
    /// What strict mode cannot say there.
    pub problem: StrictProblem,
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.tool)?;
        write_places(f, std::slice::from_ref(&self.path))?;
        f.write_str(" has no OpenAI strict form: ")?;
        match self.problem {
            StrictProblem::OpenObject => {
                write!(f, "an object that accepts undeclared fields; {CLOSED_RULE}")
            }
            StrictProblem::Untyped => f.write_str(
                "a value of any kind; strict mode requires a \"type\" (or \"anyOf\", \"$ref\")",
            ),
            StrictProblem::Nothing => f.write_str("a value nothing can match"),
            StrictProblem::Keyword("format") => write!(
                f,
                "a 'format' strict mode does not list (it takes {})",
                super::strict::STRICT_FORMATS.join(", ")
            ),
            StrictProblem::Keyword(keyword) => {
                write!(f, "'{keyword}', which strict mode does not support")
            }
            StrictProblem::UnknownKeyword => f.write_str(
                "a keyword no JSON Schema draft defines, which strict mode does not support",
            ),
        }
    }
}

impl std::error::Error for ExportError {}

/// Writes every place of `paths`, `""` as "the arguments object".
fn write_places(f: &mut fmt::Formatter<'_>, paths: &[String]) -> fmt::Result {
    for (index, path) in paths.iter().enumerate() {
        if index > 0 {
            f.write_str(", ")?;
        }
        if path.is_empty() {
            f.write_str("the arguments object")?;
        } else {
            f.write_str(path)?;
        }
    }
    Ok(())
}

/// What strict mode asks of every object, as the notes and refusals say it.
const CLOSED_RULE: &str = "strict mode requires \"additionalProperties\": false on every object";

impl fmt::Display for ExportNote {
    /// `search_flights: strict mode requires "additionalProperties": false on every
    /// object; closed: the arguments object, filters, filters.legs[]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportNote::Closed(open) => {
                write!(f, "{}: {CLOSED_RULE}; closed: ", open.tool)?;
                write_places(f, &open.paths)
            }
            ExportNote::NotStrict(error) => write!(f, "exported with \"strict\": false: {error}"),
            ExportNote::Renamed { tool, name } => write!(
                f,
                "{tool}: sent as {name}, a name the provider accepts (the gate takes calls \
                 under either)"
            ),
        }
    }
}

impl fmt::Display for ExportRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportRefusal::Name { tool, provider } => {
                let rule = provider.name_rule();
                write!(
                    f,
                    "{}: the {} form refuses this tool name: a name there must be {} (the \
                     rule of {}: {})",
                    tool,
                    provider.label(),
                    rule.words,
                    rule.owner,
                    rule.pattern
                )
            }
            ExportRefusal::OpenObjects(open) => {
                write!(
                    f,
                    "{}: {CLOSED_RULE}, and these accept undeclared fields: ",
                    open.tool
                )?;
                write_places(f, &open.paths)
            }
        }
    }
}

impl std::error::Error for ExportRefusal {}
