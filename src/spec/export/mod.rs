//! Specs in each provider's tools form, derived from the specs that validate, so the contract
//! the model is shown and the one the gate checks cannot drift apart. Each form carries only
//! the keys its provider declares. Nothing is approximated: where a form cannot say a spec
//! (Gemini's `parameters` dialect, a strict form), the export falls back to one that can
//! (`parametersJsonSchema`, `"strict": false`) and says so in an [`ExportNote`]. Strict
//! forms close open objects and a mapping export renames refused names, each noted or,
//! per [`ExportOptions`], refused. Every non-strict form reads back to the same spec.

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
    /// OpenAI chat completions: `{type: "function", function: {name, description, parameters}}`.
    OpenAi,
    /// OpenAI chat completions in strict mode (`strict: true`, the strict schema form).
    OpenAiStrict,
    /// OpenAI Responses: `{type: "function", name, description, parameters, strict: false}`.
    Responses,
    /// OpenAI Responses in strict mode.
    ResponsesStrict,
    /// Gemini: `{name, description, parameters}` inside `{functionDeclarations: [...]}`.
    Gemini,
    /// MCP `tools/list`: `{name, description, inputSchema}`.
    Mcp,
}

/// What an export may change to fit the provider's form, rather than refuse. The default
/// closes open objects in the strict forms and maps no name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// Strict forms: close every open object that declares its fields ([`ExportNote::Closed`]);
    /// `false` refuses instead ([`ExportRefusal::OpenObjects`]). Default `true`.
    pub close_open_objects: bool,
    /// Send a name the provider refuses under one it accepts ([`ExportNote::Renamed`]);
    /// `false` refuses instead ([`ExportRefusal::Name`]). Default `false`: the model would
    /// call the tool by a name it does not have, which the user should choose.
    pub map_names: bool,
}

/// A request's tools array, with what the export changed to fit the form.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    /// The tools array ([`export_tools`] returns only this).
    pub tools: Value<'static>,
    /// What the export changed or could not say, per tool, in the specs' order.
    pub notes: Vec<ExportNote>,
    /// The names sent in place of the tools' own; a [`Gate`](crate::Gate) accepts them too.
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

/// A request's `tools` array in the provider's form (for Gemini one tool object holding every
/// declaration), with notes of what was changed to fit it.
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
    } else {
        refuse_name(specs, provider)?;
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

/// [`export_tools_with`] under the default [`ExportOptions`], without its notes.
///
/// # Errors
/// [`ExportRefusal::Name`] for a tool name the provider's rule refuses.
pub fn export_tools(
    specs: &[ToolSpec],
    provider: Provider,
) -> Result<Value<'static>, ExportRefusal> {
    export_tools_with(specs, provider, ExportOptions::default()).map(|export| export.tools)
}

/// One tool in the provider's form (for Gemini, one function declaration), under the default
/// [`ExportOptions`].
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
    refuse_name(std::slice::from_ref(spec), provider)?;
    tool(
        spec,
        spec.name(),
        provider,
        ExportOptions::default(),
        &mut Vec::new(),
    )
}

/// Whether the spec has an OpenAI strict form, and the paths of the open objects that form
/// closes (in declaration order).
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
    let plain = || spec.params.to_json_schema();
    let (key, parameters, strict) = match provider {
        Provider::Anthropic => ("input_schema", plain(), None),
        Provider::Mcp => ("inputSchema", plain(), None),
        Provider::OpenAi => ("parameters", plain(), None),
        Provider::Responses => ("parameters", plain(), Some(false)),
        Provider::OpenAiStrict | Provider::ResponsesStrict => {
            let (parameters, strict) = strict_parameters(spec, options, notes)?;
            ("parameters", parameters, Some(strict))
        }
        Provider::Gemini => match gemini::gemini_parameters(&spec.params) {
            Some(parameters) => ("parameters", parameters, None),
            None => ("parametersJsonSchema", plain(), None),
        },
    };
    let mut members = vec![
        ("name", text(name)),
        ("description", text(&spec.description)),
    ];
    members.push((key, parameters));
    if let Some(strict) = strict {
        members.push(("strict", Value::Bool(strict)));
    }
    Ok(match provider {
        Provider::OpenAi | Provider::OpenAiStrict => object(vec![
            ("type", text("function")),
            ("function", object(members)),
        ]),
        Provider::Responses | Provider::ResponsesStrict => {
            members.insert(0, ("type", text("function")));
            object(members)
        }
        _ => object(members),
    })
}

/// The first spec whose name the provider's rule refuses, as a refusal.
fn refuse_name(specs: &[ToolSpec], provider: Provider) -> Result<(), ExportRefusal> {
    match specs
        .iter()
        .find(|spec| !provider.name_rule().accepts(spec.name()))
    {
        Some(spec) => Err(ExportRefusal::Name {
            tool: spec.name().to_owned(),
            provider,
        }),
        None => Ok(()),
    }
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

/// An object with these members in this order (tools arrays, [`crate::result_block`]).
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
