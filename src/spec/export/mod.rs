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
//! to one that can, and says so in its [notes](ExportNote):
//!
//! - Gemini: a schema its `parameters` dialect cannot hold (`oneOf`, `const`, exclusive
//!   bounds, `$ref`…, see the `gemini` module) is sent whole as `parametersJsonSchema`, the JSON
//!   Schema field of Gemini's function declaration.
//! - Strict forms: a spec strict mode cannot say (`oneOf`, `maxLength`, a `{string: T}`
//!   map…, see [`strict`]) is exported in the plain form with `"strict": false`. The schema
//!   is exact; only the provider's promise to follow it while generating is gone, and the
//!   gate still checks every call. [`check_strict`] says why, for callers that would rather
//!   refuse.
//!
//! Two things the export changes rather than fall back on, because the user asked for the
//! form, and each is a note ([`ExportNote`]) or, when [`ExportOptions`] says so, a refusal
//! ([`ExportRefusal`]):
//!
//! - Strict forms close every open object that declares its fields (`additionalProperties`
//!   left out, the common case in plain JSON Schema): strict mode requires
//!   `"additionalProperties": false`, and an object that lists its properties almost always
//!   means them. The gate still checks the declaration as written, which accepts everything
//!   the closed form lets the model send ([`OpenObjects`] names every object, nested ones
//!   included).
//! - A tool name the provider's rule refuses ([`Provider::name_rule`]) is refused, or mapped
//!   to one it accepts when [`ExportOptions::map_names`] is set; the gate accepts the mapped
//!   name as the tool's ([`tool_name`](super::tool_name)).
//!
//! And every form reads back to the same spec: `load_tools(export_tools(specs, p)) ==
//! specs` for every non-strict `p`. For the strict forms the spec read back is the strict
//! reading of the original (every field required, the optional ones nullable, open objects
//! closed), and exporting that again gives the same JSON (see [`strict`]).

mod gemini;
mod json_schema;
mod notes;
pub mod strict;

use super::tool_name::{aliases, NameMap};
use super::ToolSpec;
use crate::json::Value;
use std::borrow::Cow;

pub use notes::{ExportError, ExportNote, ExportRefusal, OpenObjects};
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

/// What an export may change to fit the provider's form, rather than refuse. The default
/// closes open objects in the strict forms and maps no name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// Strict forms: close every open object that declares its fields, so that the tool
    /// keeps `"strict": true` ([`ExportNote::Closed`]); `false` refuses such a spec instead
    /// ([`ExportRefusal::OpenObjects`]). Default `true`: the user asked for strict mode.
    pub close_open_objects: bool,
    /// Send a tool whose name the provider's rule refuses under a name it accepts
    /// ([`ExportNote::Renamed`], [`Export::names`]); `false` refuses it instead
    /// ([`ExportRefusal::Name`]). Default `false`: the model would then call the tool by a
    /// name the declaration does not have, which the user should choose to allow.
    pub map_names: bool,
}

/// A request's tools array, with what the export changed to fit the form.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    /// The tools array ([`export_tools`] returns only this).
    pub tools: Value<'static>,
    /// What the export changed or could not say, per tool, in the specs' order.
    pub notes: Vec<ExportNote>,
    /// The names sent in place of the tools' own (empty unless
    /// [`ExportOptions::map_names`] mapped one). A [`Gate`](crate::Gate) over the same
    /// specs accepts each as its tool's name.
    pub names: NameMap,
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

    /// True for the strict forms (`openai-strict`, `responses-strict`).
    pub fn is_strict(self) -> bool {
        matches!(self, Provider::OpenAiStrict | Provider::ResponsesStrict)
    }
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            close_open_objects: true,
            map_names: false,
        }
    }
}

/// A request's `tools` array in the provider's form, with the notes of what was changed to
/// fit it: one entry per spec, or for Gemini one tool object holding every declaration
/// (`[{"functionDeclarations": [...]}]`; `[]` for no specs).
///
/// ```
/// use toolgate::spec::{export_tools_with, ExportNote, ExportOptions, OpenObjects, Provider};
/// use toolgate::{Gate, ToolSpec, Type};
///
/// let specs = vec![ToolSpec::new("github.create_issue", "Open an issue.")
///     .required("title", Type::string())
///     .open() // the arguments accept undeclared fields: strict mode cannot say that
///     .build()?];
/// let options = ExportOptions { map_names: true, ..ExportOptions::default() };
/// let export = export_tools_with(&specs, Provider::OpenAiStrict, options)?;
/// assert_eq!(export.names.sent_name("github.create_issue"), Some("github_create_issue"));
/// assert_eq!(export.notes, [
///     ExportNote::Renamed { tool: "github.create_issue".into(), name: "github_create_issue".into() },
///     ExportNote::Closed(OpenObjects { tool: "github.create_issue".into(), paths: vec!["".into()] }),
/// ]);
/// // The gate over the same specs takes the call under the name the model was shown.
/// let gate = Gate::new(specs)?;
/// let call = gate.check_call(r#"{"name":"github_create_issue","arguments":{"title":"Crash"}}"#)?;
/// assert_eq!(gate.spec(&call.name).map(|spec| spec.name()), Some("github.create_issue"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The first [`ExportRefusal`], in the specs' order: [`ExportRefusal::Name`] for a name the
/// provider's rule refuses (unless [`ExportOptions::map_names`]), and, in a strict form,
/// [`ExportRefusal::OpenObjects`] for a spec with open objects to close (unless
/// [`ExportOptions::close_open_objects`]).
pub fn export_tools_with(
    specs: &[ToolSpec],
    provider: Provider,
    options: ExportOptions,
) -> Result<Export, ExportRefusal> {
    let rule = provider.name_rule();
    let mut names = NameMap::default();
    if options.map_names {
        let own: Vec<&str> = specs.iter().map(ToolSpec::name).collect();
        for alias in aliases(&own) {
            if alias.rule == rule {
                if let Some(spec) = specs.get(alias.tool) {
                    names.push(spec.name().to_owned(), alias.name);
                }
            }
        }
    } else if let Some(spec) = specs.iter().find(|spec| !rule.accepts(spec.name())) {
        return Err(ExportRefusal::Name {
            tool: spec.name().to_owned(),
            provider,
        });
    }
    let mut notes = Vec::new();
    let mut tools = Vec::with_capacity(specs.len());
    for spec in specs {
        let sent = names.sent_name(spec.name());
        if let Some(name) = sent {
            notes.push(ExportNote::Renamed {
                tool: spec.name().to_owned(),
                name: name.to_owned(),
            });
        }
        let name = sent.unwrap_or(spec.name());
        tools.push(tool(spec, name, provider, options, &mut notes)?);
    }
    let tools = if provider == Provider::Gemini && !tools.is_empty() {
        Value::Array(vec![object(vec![(
            "functionDeclarations",
            Value::Array(tools),
        )])])
    } else {
        Value::Array(tools)
    };
    Ok(Export {
        tools,
        notes,
        names,
    })
}

/// A request's `tools` array in the provider's form, under the default [`ExportOptions`]:
/// [`export_tools_with`] without its notes.
///
/// # Errors
/// As [`export_tools_with`] with the default options: [`ExportRefusal::Name`] for a tool name the
/// provider's rule refuses.
pub fn export_tools(
    specs: &[ToolSpec],
    provider: Provider,
) -> Result<Value<'static>, ExportRefusal> {
    export_tools_with(specs, provider, ExportOptions::default()).map(|export| export.tools)
}

/// One tool in the provider's form (for Gemini, one function declaration; see
/// [`export_tools`] for the tool object around them), under the default [`ExportOptions`].
/// Where a form cannot say the spec exactly, the documented fallback is used (see the
/// [module](self) docs).
///
/// ```
/// use toolgate::spec::{export_tool, Provider};
/// use toolgate::{ToolSpec, Type};
/// let spec = ToolSpec::new("get_weather", "Current weather for a city.")
///     .required("city", Type::string())
///     .build()?;
/// assert_eq!(
///     export_tool(&spec, Provider::Anthropic)?.to_string(),
///     r#"{"name":"get_weather","description":"Current weather for a city.","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ExportRefusal::Name`] for a tool name the provider's rule refuses.
pub fn export_tool(spec: &ToolSpec, provider: Provider) -> Result<Value<'static>, ExportRefusal> {
    let rule = provider.name_rule();
    if !rule.accepts(spec.name()) {
        return Err(ExportRefusal::Name {
            tool: spec.name().to_owned(),
            provider,
        });
    }
    tool(
        spec,
        spec.name(),
        provider,
        ExportOptions::default(),
        &mut Vec::new(),
    )
}

/// Whether the spec has an OpenAI strict form, and what that form changes: the paths of
/// every open object it closes (nested ones included, in declaration order; empty when the
/// spec is closed already). [`export_tools_with`] falls back to the plain form with `"strict": false`
/// for a spec that has none.
///
/// # Errors
/// An [`ExportError`] naming the tool, the first place strict mode cannot say and the
/// [`StrictProblem`].
pub fn check_strict(spec: &ToolSpec) -> Result<Vec<String>, ExportError> {
    strict::strict_schema(spec).map(|(_, closed)| closed)
}

/// One tool in the provider's form, sent as `name`; notes what it changed.
fn tool(
    spec: &ToolSpec,
    name: &str,
    provider: Provider,
    options: ExportOptions,
    notes: &mut Vec<ExportNote>,
) -> Result<Value<'static>, ExportRefusal> {
    let name = text(name);
    let description = text(&spec.description);
    let tool = match provider {
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
        Provider::OpenAi => object(vec![
            ("type", text("function")),
            (
                "function",
                object(vec![
                    ("name", name),
                    ("description", description),
                    ("parameters", spec.params.to_json_schema()),
                ]),
            ),
        ]),
        Provider::OpenAiStrict => {
            let (parameters, strict) = strict_parameters(spec, options, notes)?;
            object(vec![
                ("type", text("function")),
                (
                    "function",
                    object(vec![
                        ("name", name),
                        ("description", description),
                        ("parameters", parameters),
                        ("strict", Value::Bool(strict)),
                    ]),
                ),
            ])
        }
        Provider::Responses | Provider::ResponsesStrict => {
            let (parameters, strict) = if provider == Provider::ResponsesStrict {
                strict_parameters(spec, options, notes)?
            } else {
                (spec.params.to_json_schema(), false)
            };
            object(vec![
                ("type", text("function")),
                ("name", name),
                ("description", description),
                ("parameters", parameters),
                ("strict", Value::Bool(strict)),
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
    };
    Ok(tool)
}

/// The `parameters` of a strict form and its `strict` flag: the strict schema (with the
/// objects it closed noted), or the plain one with `false` when there is none.
fn strict_parameters(
    spec: &ToolSpec,
    options: ExportOptions,
    notes: &mut Vec<ExportNote>,
) -> Result<(Value<'static>, bool), ExportRefusal> {
    match strict::strict_schema(spec) {
        Ok((_, closed)) if !closed.is_empty() && !options.close_open_objects => {
            Err(ExportRefusal::OpenObjects(OpenObjects {
                tool: spec.name.clone(),
                paths: closed,
            }))
        }
        Ok((schema, closed)) => {
            if !closed.is_empty() {
                notes.push(ExportNote::Closed(OpenObjects {
                    tool: spec.name.clone(),
                    paths: closed,
                }));
            }
            Ok((schema.to_json_schema(), true))
        }
        Err(error) => {
            notes.push(ExportNote::NotStrict(error));
            Ok((spec.params.to_json_schema(), false))
        }
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
