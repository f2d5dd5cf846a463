//! The gates, in order: the call is JSON in an envelope toolgate reads, the name is
//! registered, the arguments are an object, the arguments match the tool's spec.
//!
//! Each gate answers one question and refuses with one [`Rejection`], whose text tells the
//! model what to send instead. The order matters: each gate can only ask its question once
//! the previous ones have passed (there is no spec to check arguments against until the name
//! is known), and the first refusal is the most basic fix, so the model is never told to
//! repair a field of a call it must resend to another tool anyway.
//!
//! A [`Gate`] is the check-only half of a [`Registry`](crate::Registry): the compiled specs
//! without handlers, for command-line checks and external harnesses.

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
    /// `(mapped name, index into specs)`: the names a mapping export sends in place of the
    /// tools' own ([`tool_name`](crate::spec::tool_name)), found only when a name is not a
    /// tool's own. Empty unless some tool's name breaks a provider's rule. Invariant: the
    /// [`aliases`] of `specs`' names, in order, recomputed whenever a spec is added.
    aliases: Vec<(String, usize)>,
    limits: Limits,
}

/// An accepted call without its arguments, as [`Gate::verdict`] hands it back: what a check
/// that only counts, or prints one line per call, needs of it.
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
    /// A gate over these specs, in this order (the order unknown-tool texts list them in),
    /// parsing calls under the default [`Limits`].
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
        // `load_tools` already refuses two tools with one name, with their places in the
        // file; this only keeps the gate's own check from being skipped.
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

    /// The spec named `name`, if registered, or the one a mapping export sends as `name`
    /// (see [`tool_name`](crate::spec::tool_name)).
    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.index_of(name).and_then(|index| self.specs.get(index))
    }

    /// Runs a raw call through every gate and returns it, checked.
    ///
    /// # Errors
    /// The first [`Rejection`], in gate order:
    /// - [`Rejection::MalformedJson`] / [`Rejection::TruncatedJson`]: the call, or the
    ///   arguments text inside it, is not JSON (or stops short).
    /// - [`Rejection::BadEnvelope`]: JSON, but not a call in any shape toolgate reads.
    /// - [`Rejection::UnknownTool`]: the name is not registered.
    /// - [`Rejection::ArgumentsNotObject`]: the arguments are not a JSON object.
    /// - [`Rejection::SchemaViolation`]: the arguments break the tool's spec.
    pub fn check_call<'a>(&self, raw: &'a str) -> Result<Call<'a>, Rejection> {
        self.check(raw).map(|(_, call)| call)
    }

    /// Like [`Gate::check_call`] for bytes that should be UTF-8 (a line read from a log),
    /// read by the same reader: a call cut inside a multi-byte character is truncated, with
    /// its id and tool, like any other cut.
    ///
    /// # Errors
    /// As [`Gate::check_call`]; bytes that are not UTF-8 are [`Rejection::MalformedJson`] at
    /// the first bad byte.
    pub fn check_call_bytes<'a>(&self, raw: &'a [u8]) -> Result<Call<'a>, Rejection> {
        let call = envelope::read_call_bytes(raw, self.limits)?;
        self.checked(call).map(|(_, call)| call)
    }

    /// The check-only verdict on a raw call: [`Gate::check_call`]'s answer, handing back
    /// only the call's id and tool name, not its arguments (`toolgate check`, a harness that
    /// only counts).
    ///
    /// ```
    /// use toolgate::{Gate, ToolSpec, Type};
    /// let spec = ToolSpec::new("get_weather", "Current weather").required("city", Type::string());
    /// let gate = Gate::new(vec![spec.build().unwrap()]).unwrap();
    /// let accepted = gate.verdict(r#"{"name":"get_weather","arguments":{"city":"Oslo"}}"#);
    /// assert_eq!(accepted.unwrap().name, "get_weather");
    /// let rejection = gate.verdict(r#"{"name":"get_weather","arguments":{"city":7}}"#);
    /// assert_eq!(
    ///     rejection.unwrap_err().to_string(),
    ///     "get_weather rejected: city must be a string; received 7."
    /// );
    /// ```
    ///
    /// A thin wrapper over [`Gate::check_call`], kept so that code written for 0.2 keeps
    /// working: the same gates, the same answer, only the id and name handed back.
    ///
    /// # Errors
    /// As [`Gate::check_call`].
    pub fn verdict<'a>(&self, raw: &'a str) -> Result<Accepted<'a>, Rejection> {
        self.check_call(raw).map(Accepted::from)
    }

    /// [`Gate::verdict`] for bytes that should be UTF-8 (a line read from a log): a thin
    /// wrapper over [`Gate::check_call_bytes`].
    ///
    /// # Errors
    /// As [`Gate::check_call_bytes`].
    pub fn verdict_bytes<'a>(&self, raw: &'a [u8]) -> Result<Accepted<'a>, Rejection> {
        self.check_call_bytes(raw).map(Accepted::from)
    }

    /// Every gate, returning the index of the tool's spec with the call: the one path every
    /// call takes, for [`Gate::check_call`] and for the registry, which needs the index to
    /// find the handler.
    ///
    /// The call returned is the one the tool receives: a `null` that gate 3 read as absent
    /// (strict mode's "not given" for an optional field, see
    /// [`Schema::remove_absent_nulls`](crate::spec::Schema::remove_absent_nulls)) is removed
    /// from its arguments here, the one place every accepted call passes.
    pub(crate) fn check<'a>(&self, raw: &'a str) -> Result<(usize, Call<'a>), Rejection> {
        let call = envelope::read_call(raw, self.limits)?;
        self.checked(call)
    }

    /// [`Gate::check`] on a call the envelope has read.
    pub(crate) fn checked<'a>(&self, call: Call<'a>) -> Result<(usize, Call<'a>), Rejection> {
        let (index, spec, read_absent) = self.check_read(&call)?;
        Ok((index, admitted(spec, call, read_absent)))
    }

    /// The gates after the envelope, on a call already read: the index of the tool's spec,
    /// the spec, and whether gate 3 read a `null` as absent. The call is only borrowed, so
    /// it is moved once, from the envelope to the caller.
    fn check_read(&self, call: &Call<'_>) -> Result<(usize, &ToolSpec, bool), Rejection> {
        let (index, spec) = self.check_name(call)?;
        check_object(spec, call)?;
        let read_absent = check_spec(spec, call)?;
        Ok((index, spec, read_absent))
    }

    /// Gate 1, *is the name registered?* A model that invents or misspells a tool name
    /// cannot be helped by running anything; it needs the names that exist. So the answer
    /// lists them all when there are few, and the closest by edit distance when there are
    /// many, so the model can pick one on its next try. A name a mapping export sent in
    /// place of a tool's own (`github_create_issue` for `github.create_issue`) is that tool:
    /// the model calls what it was shown. For the same reason the names listed are in the
    /// form the called name suggests the model was shown: a name every provider's rule
    /// accepts (no dot) gets the mapped names, any other the tools' own.
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

    /// Whether some tool's name, or a name a mapping export sends, starts with `prefix`: a
    /// name still arriving that fails this can be refused before it ends.
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
        // A handful of tools: comparing lengths first rejects most names without touching
        // their bytes, which beats the ordered comparisons of a binary search.
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
/// as absent, when it read any. The streaming check, which ran gate 3 on the call's events
/// as they arrived, admits the call it read through this same step.
pub(crate) fn admitted<'a>(spec: &ToolSpec, mut call: Call<'a>, read_absent: bool) -> Call<'a> {
    if read_absent {
        spec.params().remove_absent_nulls(&mut call.args);
    }
    call
}

/// Gate 2, *are the arguments an object?* Every tool takes named fields; a list, a number or
/// a bare string means the model has not understood the call's form at all, and a field-level
/// complaint would mislead it. The answer says that the arguments must be an object and shows
/// what arrived.
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

/// Gate 3, *do the arguments match the spec?* The tool's code may assume its contract
/// (required fields present, amounts in range, an enum value it knows); the model, which
/// produced the arguments token by token, may not have kept it. The answer names the first
/// broken rule with its dotted path and the value received, which is exactly what the model
/// must change. A `null` for an optional field whose schema refuses it is "not given", as
/// the strict export tells the model to send it (see
/// [`Schema::remove_absent_nulls`](crate::spec::Schema::remove_absent_nulls)).
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

/// The name a rejection gives the tool: the one the model used, which is the spec's own or
/// the name a mapping export sent it as (the model reads its own name back; Gemini's answer
/// must carry a name it declared).
fn called_name(spec: &ToolSpec, call: &Call<'_>) -> String {
    if call.name.is_empty() {
        spec.name().to_owned()
    } else {
        call.name.clone().into_owned()
    }
}
