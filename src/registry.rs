//! The registry: specs bound to handlers, and [`handle_tool_call`] with exactly one retry.
//! For every input, an unchecked call never reaches a handler, a handler runs at most once,
//! and the model is asked at most once (`ask_model` is an [`FnOnce`]).

use crate::envelope::Call;
use crate::gate::{DuplicateTool, Gate};
use crate::json::Value;
use crate::rejection::Rejection;
use crate::spec::{export_tools, ExportRefusal, Provider, ToolSpec};
use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A tool's code: it gets the checked arguments; `Ok` is its output for the model, `Err` a
/// tool failure (the call was right, the tool could not do it).
pub type Handler = Box<dyn Fn(&Value<'_>) -> Result<String, String> + Send + Sync>;

/// A handler given the call id too (one from [`Registry::register`] ignores it).
type IdHandler = Box<dyn Fn(Option<&str>, &Value<'_>) -> Result<String, String> + Send + Sync>;

/// Specs bound to handlers; `Send + Sync`, so one registry serves any number of threads.
pub struct Registry {
    gate: Gate,
    /// `handlers[i]` serves `gate.specs()[i]`.
    handlers: Vec<IdHandler>,
}

/// What became of one call: it ran, it ran and the tool failed, or it never ran. Every
/// variant carries the call id and, when the model was asked once for a corrected call, the
/// first call's rejection, so [`Outcome::rejections`] lists every decision the gate made.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A valid call ran and returned output.
    Dispatched {
        /// The id of the call that ran (the first call's when the corrected call had none).
        id: Option<String>,
        /// The tool.
        tool: String,
        /// The tool's output.
        output: String,
        /// The first call's rejection, when this is the model's corrected call.
        first_rejection: Option<Box<Rejection>>,
    },
    /// A valid call ran and the tool failed (returned `Err` or panicked): not a rejection,
    /// the call was right.
    ToolFailed {
        /// The id of the call that ran (the first call's when the corrected call had none).
        id: Option<String>,
        /// The tool.
        tool: String,
        /// The tool's error, or the panic's message.
        error: String,
        /// True if the handler panicked (the panic was caught; it never propagates).
        panicked: bool,
        /// The first call's rejection, when this is the model's corrected call.
        first_rejection: Option<Box<Rejection>>,
    },
    /// The call (and, if asked, the model's one retry) was refused; nothing ran.
    Rejected {
        /// The id of the last call refused (the first call's when the retry had none).
        id: Option<String>,
        /// The last rejection: the retry's when the model was asked, else the call's.
        error: Rejection,
        /// The first call's rejection, when the model was asked for a corrected call.
        first_rejection: Option<Box<Rejection>>,
    },
}

/// A registration that cannot stand: the name is already registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistryError {
    /// The tool name registered twice.
    pub duplicate: String,
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the tool '{}' is already registered; every tool needs its own name",
            self.duplicate
        )
    }
}

impl std::error::Error for RegistryError {}

impl From<DuplicateTool> for RegistryError {
    fn from(duplicate: DuplicateTool) -> Self {
        RegistryError {
            duplicate: duplicate.name,
        }
    }
}

impl Default for Registry {
    fn default() -> Self {
        Registry::new()
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("gate", &self.gate)
            .field("handlers", &self.handlers.len())
            .finish()
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry {
            gate: Gate::empty(),
            handlers: Vec::new(),
        }
    }

    /// Binds a spec to its handler.
    ///
    /// # Errors
    /// [`RegistryError`] if a tool with this name is already registered; the registry is
    /// left unchanged.
    pub fn register(
        &mut self,
        spec: ToolSpec,
        handler: impl Fn(&Value<'_>) -> Result<String, String> + Send + Sync + 'static,
    ) -> Result<(), RegistryError> {
        self.register_with_id(spec, move |_id, args| handler(args))
    }

    /// Binds a spec to a handler that also gets the call id (to log it, or to key an
    /// idempotent side effect on it).
    ///
    /// ```
    /// use toolgate::{Outcome, Registry, ToolSpec};
    ///
    /// let mut registry = Registry::new();
    /// registry.register_with_id(ToolSpec::new("ping", "Answers pong.").build()?, |id, _args| {
    ///     Ok(format!("pong to {}", id.unwrap_or("a call without id")))
    /// })?;
    /// let outcome = registry.handle_tool_call(r#"{"id":"call_7","name":"ping"}"#, |_| String::new());
    /// assert!(matches!(outcome, Outcome::Dispatched { output, .. } if output == "pong to call_7"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`RegistryError`] if a tool with this name is already registered; the registry is
    /// left unchanged.
    pub fn register_with_id(
        &mut self,
        spec: ToolSpec,
        handler: impl Fn(Option<&str>, &Value<'_>) -> Result<String, String> + Send + Sync + 'static,
    ) -> Result<(), RegistryError> {
        self.gate.add(spec)?;
        self.handlers.push(Box::new(handler));
        Ok(())
    }

    /// The same registry, parsing calls under `limits`.
    pub fn with_limits(self, limits: crate::json::Limits) -> Registry {
        Registry {
            gate: self.gate.with_limits(limits),
            handlers: self.handlers,
        }
    }

    /// The check-only gate over the registered specs.
    pub fn gate(&self) -> &Gate {
        &self.gate
    }

    /// The request's tools array in `provider`'s form, from the specs the gate checks, so
    /// what the model is told and what is enforced cannot drift apart.
    ///
    /// # Errors
    /// [`ExportRefusal::Name`] for a tool name the provider's rule refuses.
    pub fn tools(&self, provider: Provider) -> Result<Value<'static>, ExportRefusal> {
        export_tools(self.gate.specs(), provider)
    }

    /// Gate, then dispatch; on a rejection, `ask_model` gets its text once and returns the
    /// model's next call, checked the same way. A second refusal is [`Outcome::Rejected`]
    /// with the second rejection: what next is the agent loop's call (see [`crate::guard`]).
    ///
    /// A handler's `Err` or panic is [`Outcome::ToolFailed`]; the panic is caught (with
    /// `panic = "unwind"`, Rust's default) and nothing unwinds out of this call. A panic in
    /// `ask_model`, the caller's own code, is not caught.
    pub fn handle_tool_call(&self, raw: &str, ask_model: impl FnOnce(&str) -> String) -> Outcome {
        self.handle_tool_call_with(raw, |rejection| ask_model(&rejection.to_string()))
    }

    /// [`Registry::handle_tool_call`], with `ask_model` given the [`Rejection`] itself, whose
    /// [`Rejection::result_block`] answers the refused call by its id.
    ///
    /// ```
    /// use toolgate::{Outcome, Registry, ToolSpec, Type};
    /// use toolgate::spec::Provider;
    ///
    /// let mut registry = Registry::new();
    /// let spec = ToolSpec::new("get_weather", "Current weather.").required("city", Type::string());
    /// registry.register(spec.build()?, |_| Ok("Sunny".into()))?;
    ///
    /// let raw = r#"{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{}}"#;
    /// let outcome = registry.handle_tool_call_with(raw, |rejection| {
    ///     // What goes back to the model, paired with toolu_01, before it tries again.
    ///     assert_eq!(
    ///         rejection.result_block(Provider::Anthropic).to_string(),
    ///         r#"{"type":"tool_result","tool_use_id":"toolu_01","content":"get_weather rejected: missing required field 'city'.","is_error":true}"#
    ///     );
    ///     r#"{"type":"tool_use","id":"toolu_02","name":"get_weather","input":{"city":"Oslo"}}"#.into()
    /// });
    /// assert!(matches!(outcome, Outcome::Dispatched { .. }) && outcome.retried());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn handle_tool_call_with(
        &self,
        raw: &str,
        ask_model: impl FnOnce(&Rejection) -> String,
    ) -> Outcome {
        self.handle_tool_call_or_decline(raw, |rejection| Some(ask_model(rejection)))
    }

    /// [`Registry::handle_tool_call_with`], where `ask_model` may decline with `None`: the
    /// outcome is the first call's [`Outcome::Rejected`], no retry. (An empty string is a
    /// call, cut off.)
    ///
    /// ```
    /// use toolgate::{Outcome, Registry, ToolSpec, Type};
    ///
    /// let mut registry = Registry::new();
    /// let spec = ToolSpec::new("get_weather", "Current weather.").required("city", Type::string());
    /// registry.register(spec.build()?, |_| Ok("Sunny".into()))?;
    /// let outcome = registry.handle_tool_call_or_decline(r#"{"name":"get_weather"}"#, |_| None);
    /// assert!(matches!(&outcome, Outcome::Rejected { first_rejection: None, .. }));
    /// assert_eq!(outcome.rejections().count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn handle_tool_call_or_decline(
        &self,
        raw: &str,
        ask_model: impl FnOnce(&Rejection) -> Option<String>,
    ) -> Outcome {
        let first = match self.gate.check(raw) {
            Ok((index, call)) => return self.dispatch(index, &call, None),
            Err(rejection) => rejection,
        };
        let Some(answer) = ask_model(&first) else {
            return Outcome::refused(first, None);
        };
        let first = Box::new(first);
        match self.gate.check(&answer) {
            Ok((index, call)) => self.dispatch(index, &call, Some(first)),
            Err(second) => Outcome::Rejected {
                id: second.id().or(first.id()).map(String::from),
                error: second,
                first_rejection: Some(first),
            },
        }
    }

    /// Runs the handler of a checked call once, catching a panic. `first_rejection` is the
    /// refusal this call corrects; its id stands in when the call has none.
    pub(crate) fn dispatch(
        &self,
        index: usize,
        call: &Call<'_>,
        first_rejection: Option<Box<Rejection>>,
    ) -> Outcome {
        let id = call
            .id
            .as_deref()
            .or(first_rejection.as_deref().and_then(Rejection::id));
        let id = id.map(String::from);
        let tool = call.name.clone().into_owned();
        // The gate and the handlers are built together, so every index has a handler.
        let (result, panicked) = match self.handlers.get(index) {
            None => (Err(format!("no handler is registered for {tool}")), false),
            Some(handler) => {
                match catch_unwind(AssertUnwindSafe(|| handler(id.as_deref(), &call.args))) {
                    Ok(result) => (result, false),
                    Err(payload) => {
                        let error = panic_message(payload.as_ref());
                        drop_payload(payload);
                        (Err(error), true)
                    }
                }
            }
        };
        Outcome::ran(id, tool, result, panicked, first_rejection)
    }
}

/// The free form of [`Registry::handle_tool_call`].
pub fn handle_tool_call(
    registry: &Registry,
    raw: &str,
    ask_model: impl FnOnce(&str) -> String,
) -> Outcome {
    registry.handle_tool_call(raw, ask_model)
}

impl Outcome {
    /// A call that stands refused, keeping its id; `first_rejection` is the refusal it
    /// corrected, if it was a correction.
    pub(crate) fn refused(error: Rejection, first_rejection: Option<Box<Rejection>>) -> Outcome {
        Outcome::Rejected {
            id: error.id().map(String::from),
            error,
            first_rejection,
        }
    }

    /// A call that ran: `Ok` is the tool's output, `Err` its failure.
    pub(crate) fn ran(
        id: Option<String>,
        tool: String,
        result: Result<String, String>,
        panicked: bool,
        first_rejection: Option<Box<Rejection>>,
    ) -> Outcome {
        match result {
            Ok(output) => Outcome::Dispatched {
                id,
                tool,
                output,
                first_rejection,
            },
            Err(error) => Outcome::ToolFailed {
                id,
                tool,
                error,
                panicked,
                first_rejection,
            },
        }
    }

    /// The id of the call the outcome answers.
    pub fn id(&self) -> Option<&str> {
        match self {
            Outcome::Dispatched { id, .. }
            | Outcome::ToolFailed { id, .. }
            | Outcome::Rejected { id, .. } => id.as_deref(),
        }
    }

    /// The tool, when known (a rejected call may not have a readable name).
    pub fn tool(&self) -> Option<&str> {
        match self {
            Outcome::Dispatched { tool, .. } | Outcome::ToolFailed { tool, .. } => Some(tool),
            Outcome::Rejected { error, .. } => error.tool(),
        }
    }

    /// True if the model was asked once for a corrected call (the first call was refused).
    pub fn retried(&self) -> bool {
        self.first_rejection().is_some()
    }

    /// The first call's rejection, when the model was asked once for a corrected call.
    pub fn first_rejection(&self) -> Option<&Rejection> {
        match self {
            Outcome::Dispatched {
                first_rejection, ..
            }
            | Outcome::ToolFailed {
                first_rejection, ..
            }
            | Outcome::Rejected {
                first_rejection, ..
            } => first_rejection.as_deref(),
        }
    }

    /// Where every variant keeps the first call's rejection.
    #[cfg(feature = "turns")]
    pub(crate) fn first_rejection_mut(&mut self) -> &mut Option<Box<Rejection>> {
        match self {
            Outcome::Dispatched {
                first_rejection, ..
            }
            | Outcome::ToolFailed {
                first_rejection, ..
            }
            | Outcome::Rejected {
                first_rejection, ..
            } => first_rejection,
        }
    }

    /// Every rejection the gate made for this call, in order: the first call's (when the
    /// model was asked for a corrected call), then, for [`Outcome::Rejected`], the last one.
    /// Empty when the first call passed; two when the retry was refused too.
    pub fn rejections(&self) -> impl Iterator<Item = &Rejection> {
        let last = match self {
            Outcome::Rejected { error, .. } => Some(error),
            Outcome::Dispatched { .. } | Outcome::ToolFailed { .. } => None,
        };
        self.first_rejection().into_iter().chain(last)
    }

    /// True for tool failures and rejections: the answer to the model is flagged as an
    /// error.
    pub fn is_error(&self) -> bool {
        !matches!(self, Outcome::Dispatched { .. })
    }

    /// The text the model reads as the tool's result: the output; for a failure, the tool's
    /// error naming the tool; for a rejection, the rejection's text.
    pub fn text(&self) -> String {
        match self {
            Outcome::Dispatched { output, .. } => output.clone(),
            // An empty error would leave the model a sentence that stops mid-way.
            Outcome::ToolFailed {
                tool,
                error,
                panicked,
                ..
            } => match (panicked, error.trim().is_empty()) {
                (false, true) => {
                    format!("{tool} failed: the tool returned an error without a message")
                }
                (false, false) => format!("{tool} failed: {error}"),
                (true, true) => format!("{tool} failed: the tool crashed without a message"),
                (true, false) => format!("{tool} failed: the tool crashed ({error})"),
            },
            Outcome::Rejected { error, .. } => error.to_string(),
        }
    }
}

/// Drops a caught panic's payload, whose destructor may itself panic (std's `catch_unwind`
/// docs); that second payload is leaked, so nothing unwinds from here.
fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(second) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(second);
    }
}

/// A panic's message: its `&str`, `String` or `Box<str>`, else a fixed sentence.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else if let Some(message) = payload.downcast_ref::<Box<str>>() {
        String::from(&**message)
    } else {
        String::from("the tool panicked without a message")
    }
}
