//! Export: specs in each provider's tools form, derived from the same specs that validate,
//! so the contract the model is shown and the one the gate checks cannot drift apart.
//!
//! Each form carries exactly the keys its provider's SDK declares for a tool, no others:
//!
//! | [`Provider`] | One tool |
//! |---|---|
//! | `Anthropic` | `{name, description, input_schema}` |
//! | `OpenAi` | `{type: "function", function: {name, description, parameters}}` |
//! | `OpenAiStrict` | the same, with `strict: true` and the [strict form](strict) of `parameters` |
//! | `Responses` | `{type: "function", name, description, parameters, strict: false}` |
//! | `ResponsesStrict` | the same with `strict: true` and the strict form |
//! | `Gemini` | `{name, description, parameters}` (Gemini's dialect) or `{name, description, parametersJsonSchema}` |
//! | `Mcp` | `{name, description, inputSchema}` |
//!
//! [`export_tools`] makes a request's whole `tools` array; for Gemini that is one tool object
//! `[{"functionDeclarations": [...]}]`.
//!
//! **Nothing is approximated.** When a form cannot say a spec exactly, the export falls back
//! to one that can, and says so in the output:
//!
//! - Gemini: a schema its `parameters` dialect cannot hold (`oneOf`, `const`, exclusive
//!   bounds, `$ref`…, see the `gemini` module) is sent whole as `parametersJsonSchema`, the JSON
//!   Schema field of Gemini's function declaration.
//! - Strict forms: a spec strict mode cannot say (an open object, `oneOf`, `maxLength`…,
//!   see [`strict`]) is exported in the plain form with `"strict": false`. The schema is
//!   exact; only the provider's promise to follow it while generating is gone, and the gate
//!   still checks every call. [`check_strict`] says why, for callers that would rather
//!   refuse.
//!
//! And every form reads back to the same spec: `load_tools(export_tools(specs, p)) ==
//! specs` for every non-strict `p`. For the strict forms the spec read back is the strict
//! reading of the original (every field required, the optional ones nullable), and
//! exporting that again gives the same JSON (see [`strict`]).

mod gemini;
mod json_schema;
pub mod strict;

use super::ToolSpec;
use crate::json::Value;
use std::borrow::Cow;
use std::fmt;

pub use strict::StrictProblem;

/// A provider's tool-declaration form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Provider {
    /// Anthropic Messages: `{name, description, input_schema}`.
    Anthropic,
    /// OpenAI chat completions: `{type: "function", function: {name, description,
    /// parameters}}`.
    OpenAi,
    /// OpenAI chat completions in strict mode (`strict: true`, the strict schema form).
    OpenAiStrict,
    /// OpenAI Responses: `{type: "function", name, description, parameters, strict: false}`.
    Responses,
    /// OpenAI Responses in strict mode.
    ResponsesStrict,
    /// Gemini: `{name, description, parameters}` declarations inside
    /// `{functionDeclarations: [...]}`.
    Gemini,
    /// MCP `tools/list`: `{name, description, inputSchema}`.
    Mcp,
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

impl Provider {
    /// Every form, in the order the command line lists them.
    pub const ALL: [Provider; 7] = [
        Provider::Anthropic,
        Provider::OpenAi,
        Provider::OpenAiStrict,
        Provider::Responses,
        Provider::ResponsesStrict,
        Provider::Gemini,
        Provider::Mcp,
    ];

    /// The form's name on the command line: `anthropic`, `openai`, `openai-strict`,
    /// `responses`, `responses-strict`, `gemini`, `mcp`.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAi => "openai",
            Provider::OpenAiStrict => "openai-strict",
            Provider::Responses => "responses",
            Provider::ResponsesStrict => "responses-strict",
            Provider::Gemini => "gemini",
            Provider::Mcp => "mcp",
        }
    }

    /// The form with this [`label`](Provider::label), if there is one.
    pub fn from_label(label: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.label() == label)
    }
}

/// One tool in the provider's form (for Gemini, one function declaration; see
/// [`export_tools`] for the tool object around them). Never fails: where a form cannot say
/// the spec exactly, the documented fallback is used (see the [module](self) docs).
///
/// ```
/// use toolgate::spec::{export_tool, Provider};
/// use toolgate::{ToolSpec, Type};
/// let spec = ToolSpec::new("get_weather", "Current weather for a city.")
///     .required("city", Type::string())
///     .build()?;
/// assert_eq!(
///     export_tool(&spec, Provider::Anthropic).to_string(),
///     r#"{"name":"get_weather","description":"Current weather for a city.","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}"#
/// );
/// # Ok::<(), toolgate::spec::SpecError>(())
/// ```
pub fn export_tool(spec: &ToolSpec, provider: Provider) -> Value<'static> {
    let name = text(&spec.name);
    let description = text(&spec.description);
    match provider {
        Provider::Anthropic => object(vec![
            ("name", name),
            ("description", description),
            ("input_schema", spec.params.to_json_schema()),
        ]),
        Provider::Mcp => object(vec![
            ("name", name),
            ("description", description),
            ("inputSchema", spec.params.to_json_schema()),
        ]),
        Provider::OpenAi | Provider::OpenAiStrict => {
            let (parameters, strict) = parameters(spec, provider == Provider::OpenAiStrict);
            let mut function = vec![
                ("name", name),
                ("description", description),
                ("parameters", parameters),
            ];
            if let Some(strict) = strict {
                function.push(("strict", Value::Bool(strict)));
            }
            object(vec![
                ("type", text("function")),
                ("function", object(function)),
            ])
        }
        Provider::Responses | Provider::ResponsesStrict => {
            let (parameters, strict) = parameters(spec, provider == Provider::ResponsesStrict);
            object(vec![
                ("type", text("function")),
                ("name", name),
                ("description", description),
                ("parameters", parameters),
                ("strict", Value::Bool(strict.unwrap_or(false))),
            ])
        }
        Provider::Gemini => match gemini::gemini_parameters(&spec.params) {
            Some(parameters) => object(vec![
                ("name", name),
                ("description", description),
                ("parameters", parameters),
            ]),
            None => object(vec![
                ("name", name),
                ("description", description),
                ("parametersJsonSchema", spec.params.to_json_schema()),
            ]),
        },
    }
}

/// A request's `tools` array in the provider's form: one entry per spec, or for Gemini one
/// tool object holding every declaration (`[{"functionDeclarations": [...]}]`; `[]` for no
/// specs).
pub fn export_tools(specs: &[ToolSpec], provider: Provider) -> Value<'static> {
    let tools: Vec<Value<'static>> = specs.iter().map(|s| export_tool(s, provider)).collect();
    if provider == Provider::Gemini && !tools.is_empty() {
        return Value::Array(vec![object(vec![(
            "functionDeclarations",
            Value::Array(tools),
        )])]);
    }
    Value::Array(tools)
}

/// Whether the spec has an OpenAI strict form, and if not, why: the first place strict
/// mode cannot say exactly. ([`export_tool`] falls back to the plain form with
/// `"strict": false` for such a spec.)
///
/// # Errors
/// An [`ExportError`] naming the tool, the place and the [`StrictProblem`].
pub fn check_strict(spec: &ToolSpec) -> Result<(), ExportError> {
    strict::strict_schema(spec).map(|_| ())
}

/// The `parameters` of an OpenAI form, and the `strict` flag to write beside it (`None`:
/// the plain chat form, which writes none).
fn parameters(spec: &ToolSpec, strict: bool) -> (Value<'static>, Option<bool>) {
    if !strict {
        return (spec.params.to_json_schema(), None);
    }
    match strict::strict_schema(spec) {
        Ok(schema) => (schema.to_json_schema(), Some(true)),
        Err(_) => (spec.params.to_json_schema(), Some(false)),
    }
}

/// An object with these members, in this order, keyed by fixed names: the JSON toolgate
/// writes itself (tools arrays here, result blocks in [`crate::result_block`]).
pub(crate) fn object(members: Vec<(&'static str, Value<'static>)>) -> Value<'static> {
    Value::Object(
        members
            .into_iter()
            .map(|(key, value)| (Cow::Borrowed(key), value))
            .collect(),
    )
}

/// A string value.
fn text(s: &str) -> Value<'static> {
    Value::String(Cow::Owned(s.to_string()))
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = if self.path.is_empty() {
            "the arguments object".to_string()
        } else {
            self.path.clone()
        };
        let why = match self.problem {
            StrictProblem::OpenObject => {
                "an object that accepts undeclared fields; strict mode requires \
                 \"additionalProperties\": false on every object"
                    .to_string()
            }
            StrictProblem::Untyped => {
                "a value of any kind; strict mode requires a \"type\" (or \"anyOf\", \"$ref\")"
                    .to_string()
            }
            StrictProblem::Nothing => "a value nothing can match".to_string(),
            StrictProblem::Keyword(keyword) => {
                format!("'{keyword}', which strict mode does not support")
            }
        };
        write!(f, "{}: {place} has no OpenAI strict form: {why}", self.tool)
    }
}

impl std::error::Error for ExportError {}
