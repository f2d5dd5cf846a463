//! The gates, in order: envelope, name registered, arguments an object, arguments match the
//! spec. Each refuses with one [`Rejection`]; the first refusal is the most basic fix, so the
//! model is never told to repair a field of a call it must send to another tool anyway.
//! A [`Gate`] is a [`Registry`](crate::Registry) without handlers.

use crate::envelope::{self, Call};
use crate::json::{same_name, Limits, Path, Value};
use crate::spec::tool_name::{aliases, fits_every_mapped_rule};
use crate::spec::{LoadError, ToolSpec};
use crate::suggest;
use std::borrow::Cow;
use std::fmt;

use crate::rejection::Rejection;

/// With at most this many tools, an unknown-tool rejection lists them all.
pub const LIST_ALL_UP_TO: usize = 8;

/// With more tools than [`LIST_ALL_UP_TO`], an unknown-tool rejection names this many of
/// the closest.
pub const CLOSEST_SHOWN: usize = 3;

/// Up to this many tools, the name gate looks a name up by a linear scan.
const LINEAR_SEARCH_UP_TO: usize = 16;

/// The compiled, check-only set of tool specs.
///
/// ```
/// use toolgate::{Gate, ToolSpec, Type};
///
/// let weather = ToolSpec::new("get_weather", "Current weather for a city")
///     .required("city", Type::string());
/// let gate = Gate::new(vec![weather.build().unwrap()]).unwrap();
///
/// let call = gate.check_call(r#"{"name":"get_weather","arguments":{"city":"Oslo"}}"#).unwrap();
/// assert_eq!(call.name, "get_weather");
///
/// let rejection = gate.check_call(r#"{"name":"get_wether","arguments":{}}"#).unwrap_err();
/// assert_eq!(rejection.kind().label(), "unknown_tool");
/// assert_eq!(
///     rejection.to_string(),
///     "No tool named 'get_wether'. Did you mean: get_weather? The tools are: get_weather."
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Gate {
    specs: Vec<ToolSpec>,
    /// `(name, index into specs)`, sorted by name: the name gate is a binary search.
    by_name: Vec<(String, usize)>,
    /// `(mapped name, index into specs)`: the names a mapping export sends for tools whose
    /// own name breaks a provider's rule ([`tool_name`](crate::spec::tool_name)).
    aliases: Vec<(String, usize)>,
    limits: Limits,
}

/// An accepted call without its arguments, as [`Gate::verdict`] hands it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted<'a> {
    /// The call id, where the shape has one.
    pub id: Option<Cow<'a, str>>,
    /// The tool name the model used.
    pub name: Cow<'a, str>,
}

impl<'a> From<Call<'a>> for Accepted<'a> {
    fn from(call: Call<'a>) -> Accepted<'a> {
        Accepted {
            id: call.id,
            name: call.name,
        }
    }
}

/// Two specs with the same name: a call could not say which one it means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateTool {
    /// The name given twice.
    pub name: String,
    /// The position of the first spec with this name.
    pub first: usize,
    /// The position of the second.
    pub second: usize,
}

impl fmt::Display for DuplicateTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tools {} and {} are both named '{}'; every tool needs its own name",
            self.first, self.second, self.name
        )
    }
}

impl std::error::Error for DuplicateTool {}

impl Gate {
    /// A gate over these specs, in this order (the order unknown-tool texts list them in).
    ///
    /// # Errors
    /// [`DuplicateTool`] if two specs share a name.
    pub fn new(specs: Vec<ToolSpec>) -> Result<Gate, DuplicateTool> {
        let mut gate = Gate::empty();
        for spec in specs {
            gate.add(spec)?;
        }
        Ok(gate)
    }

    /// A gate over no tools: every call is an unknown tool.
    pub(crate) fn empty() -> Gate {
        Gate {
            specs: Vec::new(),
            by_name: Vec::new(),
            aliases: Vec::new(),
            limits: Limits::default(),
        }
    }

    /// Adds one spec at the end, keeping the name index sorted.
    pub(crate) fn add(&mut self, spec: ToolSpec) -> Result<(), DuplicateTool> {
        let position = match self
            .by_name
            .binary_search_by(|(candidate, _)| candidate.as_str().cmp(spec.name()))
        {
            Ok(existing) => {
                return Err(DuplicateTool {
                    name: spec.name().to_owned(),
                    first: self.by_name.get(existing).map_or(0, |(_, index)| *index),
                    second: self.specs.len(),
                })
            }
            Err(position) => position,
        };
        self.by_name
            .insert(position, (spec.name().to_owned(), self.specs.len()));
        // A new name may need an alias, or take the name an earlier tool's alias had.
        let remap = !fits_every_mapped_rule(spec.name()) || !self.aliases.is_empty();
        self.specs.push(spec);
        if remap {
            let names: Vec<&str> = self.specs.iter().map(ToolSpec::name).collect();
            self.aliases = aliases(&names)
                .into_iter()
                .map(|alias| (alias.name, alias.tool))
                .collect();
        }
        Ok(())
    }

    /// A gate over a tools file in any provider form (see [`crate::spec::load_tools`]).
    ///
    /// # Errors
    /// The file's [`LoadError`]: not JSON, not a tools array, a tool or schema that cannot
    /// be loaded, or two tools with the same name.
    pub fn from_tools_json(text: &str) -> Result<Gate, LoadError> {
        let specs = crate::spec::load_tools(text)?;
        // `load_tools` refuses duplicates already; this keeps the gate's own check.
        let tools = Path::root().key("tools");
        Gate::new(specs).map_err(|duplicate| LoadError::DuplicateTool {
            path: tools.index(duplicate.second).to_string(),
            name: duplicate.name,
            first: tools.index(duplicate.first).to_string(),
        })
    }

    /// The same gate, parsing calls (and arguments text) under `limits`.
    pub fn with_limits(self, limits: Limits) -> Gate {
        Gate { limits, ..self }
    }

    /// The limits calls are parsed under.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The specs, in registration order.
    pub fn specs(&self) -> &[ToolSpec] {
        &self.specs
    }

    /// The spec named `name`, or sent as `name` by a mapping export.
    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.index_of(name).and_then(|index| self.specs.get(index))
    }

    /// Runs a raw call through every gate and returns it, checked.
    ///
    /// # Errors
    /// The first [`Rejection`], in gate order (the order of its variants).
    pub fn check_call<'a>(&self, raw: &'a str) -> Result<Call<'a>, Rejection> {
        self.check(raw).map(|(_, call)| call)
    }

    /// [`Gate::check_call`] for bytes that should be UTF-8 (a log line): a call cut inside a
    /// multi-byte character is truncated like any other cut.
    ///
    /// # Errors
    /// As [`Gate::check_call`]; invalid UTF-8 is [`Rejection::MalformedJson`].
    pub fn check_call_bytes<'a>(&self, raw: &'a [u8]) -> Result<Call<'a>, Rejection> {
        let call = envelope::read_call_bytes(raw, self.limits)?;
        self.checked(call).map(|(_, call)| call)
    }

    /// [`Gate::check_call`], handing back only the call's id and tool name.
    ///
    /// # Errors
    /// As [`Gate::check_call`].
    pub fn verdict<'a>(&self, raw: &'a str) -> Result<Accepted<'a>, Rejection> {
        self.check_call(raw).map(Accepted::from)
    }

    /// [`Gate::verdict`] for bytes ([`Gate::check_call_bytes`]).
    ///
    /// # Errors
    /// As [`Gate::check_call_bytes`].
    pub fn verdict_bytes<'a>(&self, raw: &'a [u8]) -> Result<Accepted<'a>, Rejection> {
        self.check_call_bytes(raw).map(Accepted::from)
    }

    /// Every gate, with the index of the tool's spec (the registry's handler). The call
    /// returned is the one the tool receives: without the `null`s gate 3 read as absent.
    pub(crate) fn check<'a>(&self, raw: &'a str) -> Result<(usize, Call<'a>), Rejection> {
        let call = envelope::read_call(raw, self.limits)?;
        self.checked(call)
    }

    /// [`Gate::check`] on a call the envelope has read.
    pub(crate) fn checked<'a>(&self, call: Call<'a>) -> Result<(usize, Call<'a>), Rejection> {
        let (index, spec) = self.check_name(&call)?;
        check_object(spec, &call)?;
        let read_absent = check_spec(spec, &call)?;
        Ok((index, admitted(spec, call, read_absent)))
    }

    /// Gate 1, *is the name registered?* The answer lists every name when there are few,
    /// the closest when there are many. A mapped name (`github_create_issue` for
    /// `github.create_issue`) is its tool, and names are listed in the form the called name
    /// suggests the model was shown.
    ///
    /// # Errors
    /// [`Rejection::UnknownTool`].
    pub fn check_name<'g>(&'g self, call: &Call<'_>) -> Result<(usize, &'g ToolSpec), Rejection> {
        let found = self
            .index_of(&call.name)
            .and_then(|index| self.specs.get(index).map(|spec| (index, spec)));
        found.ok_or_else(|| {
            let shown_mapped = !self.aliases.is_empty() && fits_every_mapped_rule(&call.name);
            let names = self.specs.iter().enumerate().map(|(index, spec)| {
                let mut aliases = self.aliases.iter().filter(|(_, tool)| *tool == index);
                match aliases.find(|(alias, _)| fits_every_mapped_rule(alias)) {
                    Some((alias, _)) if shown_mapped => alias.as_str(),
                    _ => spec.name(),
                }
            });
            let few = self.specs.len() <= LIST_ALL_UP_TO;
            let n_closest = if few { 1 } else { CLOSEST_SHOWN };
            Rejection::UnknownTool {
                id: call.id.as_deref().map(String::from),
                name: call.name.clone().into_owned(),
                closest: suggest::closest(&call.name, names.clone(), n_closest)
                    .into_iter()
                    .map(String::from)
                    .collect(),
                tools: if few {
                    names.map(String::from).collect()
                } else {
                    Vec::new()
                },
            }
        })
    }

    /// Whether some tool's own or mapped name starts with `prefix` (a streamed name that
    /// fails this is refused before it ends).
    #[cfg(feature = "stream")]
    pub(crate) fn names_start_with(&self, prefix: &str) -> bool {
        let first = self
            .by_name
            .partition_point(|(candidate, _)| candidate.as_str() < prefix);
        let own = self
            .by_name
            .get(first)
            .is_some_and(|(candidate, _)| candidate.starts_with(prefix));
        own || self
            .aliases
            .iter()
            .any(|(alias, _)| alias.starts_with(prefix))
    }

    /// The index of the tool named `name`, or sent as `name` by a mapping export.
    fn index_of(&self, name: &str) -> Option<usize> {
        // For a handful of tools, `same_name` (lengths first) beats a binary search.
        let own = if self.specs.len() <= LINEAR_SEARCH_UP_TO {
            self.specs
                .iter()
                .position(|spec| same_name(spec.name(), name))
        } else {
            self.by_name
                .binary_search_by(|(candidate, _)| candidate.as_str().cmp(name))
                .ok()
                .and_then(|position| self.by_name.get(position))
                .map(|(_, index)| *index)
        };
        own.or_else(|| {
            self.aliases
                .iter()
                .find(|(alias, _)| alias == name)
                .map(|(_, index)| *index)
        })
    }
}

/// A call that passed every gate, as the tool receives it: without the `null`s gate 3 read
/// as absent (also the streaming check's last step).
pub(crate) fn admitted<'a>(spec: &ToolSpec, mut call: Call<'a>, read_absent: bool) -> Call<'a> {
    if read_absent {
        spec.params().remove_absent_nulls(&mut call.args);
    }
    call
}

/// Gate 2, *are the arguments an object?* Anything else means the model missed the call's
/// form, and a field-level complaint would mislead it.
///
/// # Errors
/// [`Rejection::ArgumentsNotObject`].
pub fn check_object(spec: &ToolSpec, call: &Call<'_>) -> Result<(), Rejection> {
    match &call.args {
        Value::Object(_) => Ok(()),
        other => Err(Rejection::ArgumentsNotObject {
            id: call.id.as_deref().map(String::from),
            tool: called_name(spec, call),
            found: other.kind(),
            received: crate::json::preview(other, crate::json::PREVIEW_CHARS),
        }),
    }
}

/// Gate 3, *do the arguments match the spec?* The answer names the first broken rule, its
/// path and the value received. A `null` for an optional field whose schema refuses it is
/// "not given" ([`Schema::remove_absent_nulls`](crate::spec::Schema::remove_absent_nulls)).
///
/// # Errors
/// [`Rejection::SchemaViolation`] with the spec's first violation.
pub fn check_args(spec: &ToolSpec, call: &Call<'_>) -> Result<(), Rejection> {
    check_spec(spec, call).map(|_| ())
}

/// [`check_args`], and whether a `null` was read as absent (then the tool must receive the
/// arguments without it).
fn check_spec(spec: &ToolSpec, call: &Call<'_>) -> Result<bool, Rejection> {
    spec.params()
        .validate_noting_absent(&call.args)
        .map_err(|violation| Rejection::SchemaViolation {
            id: call.id.as_deref().map(String::from),
            tool: called_name(spec, call),
            violation,
        })
}

/// The name a rejection gives the tool: the one the model used (own or mapped).
fn called_name(spec: &ToolSpec, call: &Call<'_>) -> String {
    if call.name.is_empty() {
        spec.name().to_owned()
    } else {
        call.name.clone().into_owned()
    }
}
