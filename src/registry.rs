//! The registry: specs bound to handlers, and [`handle_tool_call`] with exactly one retry.
//!
//! `handle_tool_call` is the whole gate logic in one function: check the raw call; if it
//! passes, run its handler once; if it is refused, show the model the rejection once, check
//! its answer the same way, and run that if it passes. Three promises hold for every input:
//! an unchecked call never reaches a handler, a handler runs at most once, and the model is
//! asked at most once (`ask_model` is an [`FnOnce`], so the compiler holds that one).

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

/// A handler as the registry keeps it: given the call id too, which a handler registered
/// with [`Registry::register`] ignores.
type IdHandler = Box<dyn Fn(Option<&str>, &Value<'_>) -> Result<String, String> + Send + Sync>;

/// Specs bound to handlers. `Send + Sync`: one registry serves any number of threads,
/// since checking a call reads only the compiled specs and a handler is `Fn + Sync`.
pub struct Registry {
    gate: Gate,
    /// `handlers[i]` serves `gate.specs()[i]`.
    handlers: Vec<IdHandler>,
}

/// What became of one call: it ran, it ran and the tool failed, or it never ran.
///
/// Every variant carries the call id (the answer to the model must pair with it) and, when
/// the first call was refused and the model was asked once for a corrected call, that first
/// [`Rejection`] (`first_rejection`). So an outcome holds every decision the gate made for
/// the call: [`Outcome::rejections`] lists them, and [`Counters`](crate::counters::Counters)
/// counts a refusal that the retry fixed as well as one that stood.
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
        /// When this is the model's corrected call: the first call's rejection, the text the
        /// model was shown. `None` when the first call passed. (Boxed: most calls have none.)
        first_rejection: Option<Box<Rejection>>,
    },
    /// A valid call ran and the tool failed (returned `Err` or panicked). Not a rejection:
    /// the model's call was right, so its fix is not a different call.
    ToolFailed {
        /// The id of the call that ran (the first call's when the corrected call had none).
        id: Option<String>,
        /// The tool.
        tool: String,
        /// The tool's error, or the panic's message.
        error: String,
        /// True if the handler panicked (the panic was caught; it never propagates).
        panicked: bool,
        /// When this is the model's corrected call: the first call's rejection. `None` when
        /// the first call passed.
        first_rejection: Option<Box<Rejection>>,
    },
    /// The call (and, if asked, the model's one retry) was refused; nothing ran.
    Rejected {
        /// The id of the last call refused (the first call's when the retry had none).
        id: Option<String>,
        /// The last rejection: the retry's when the model was asked, else the call's.
        error: Rejection,
        /// When the model was asked once for a corrected call: the first call's rejection
        /// (`error` is then the retry's). `None` when the model was not asked.
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

    /// Binds a spec to a handler that also gets the call id (`None` when the call had
    /// none): to log it, to key an idempotent side effect on it, or to find the call again
    /// when its result arrives later.
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

    /// The request's tools array in `provider`'s form, derived from the same specs the gate
    /// checks, so what the model is told and what is enforced cannot drift apart. (For the
    /// notes, or to map names the provider refuses, call [`export_tools_with`](crate::spec::export_tools_with) on
    /// [`Gate::specs`]: the gate accepts the mapped names.)
    ///
    /// # Errors
    /// [`ExportRefusal::Name`] for a tool name the provider's rule refuses.
    pub fn tools(&self, provider: Provider) -> Result<Value<'static>, ExportRefusal> {
        export_tools(self.gate.specs(), provider)
    }

    /// Gate, then dispatch; on a rejection ask the model once for a corrected call.
    ///
    /// - The raw call passes every gate: its handler runs once, and the outcome is
    ///   [`Outcome::Dispatched`] or [`Outcome::ToolFailed`].
    /// - It is refused: `ask_model` gets the rejection's text and returns the model's next
    ///   raw call, which goes through the same gates. If it passes, its handler runs
    ///   (the outcome's `first_rejection` is the first call's); if not, the outcome is
    ///   [`Outcome::Rejected`] with the *second* rejection, and the loop around this call
    ///   decides what next (see `guard`).
    ///
    /// A handler that returns `Err` or panics is [`Outcome::ToolFailed`]: the panic is
    /// caught, its message kept, and nothing unwinds out of this call (not even a panic in
    /// dropping the panic's payload). Catching needs `panic = "unwind"`, Rust's default; a
    /// build with `panic = "abort"` stops the process at a handler's panic. `ask_model` is
    /// the caller's own code, so a panic in it is not caught.
    ///
    /// One retry, not a loop: a model that fails twice at the same call is usually stuck on
    /// something a third try will not fix (the schema is unclear, or the output limit cuts
    /// it), and every try costs a model round trip. The outcome says so, so the agent loop
    /// can count it and stop.
    pub fn handle_tool_call(&self, raw: &str, ask_model: impl FnOnce(&str) -> String) -> Outcome {
        self.handle_tool_call_with(raw, |rejection| ask_model(&rejection.to_string()))
    }

    /// [`Registry::handle_tool_call`], with `ask_model` given the [`Rejection`] itself: its
    /// text (`Display`), and the call id the provider needs to pair the answer with the
    /// refused call ([`Rejection::result_block`] builds that answer).
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

    /// [`Registry::handle_tool_call_with`], where `ask_model` may decline: `None` means no
    /// corrected call (the model was not asked, or gave no call), and the outcome is the
    /// first call's [`Outcome::Rejected`] with no retry, counted as one refusal. (An empty
    /// string is not a decline: it is a call, and an empty call is cut off.)
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
            return Outcome::Rejected {
                id: first.id().map(String::from),
                error: first,
                first_rejection: None,
            };
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

    /// Runs the handler of a checked call, once, catching a panic. `first_rejection` is the
    /// refusal this call corrects, if any; its id stands in when the call has none.
    pub(crate) fn dispatch(
        &self,
        index: usize,
        call: &Call<'_>,
        first_rejection: Option<Box<Rejection>>,
    ) -> Outcome {
        let id = call
            .id
            .as_deref()
            .or(first_rejection.as_deref().and_then(Rejection::id))
            .map(String::from);
        let tool = call.name.clone().into_owned();
        let Some(handler) = self.handlers.get(index) else {
            // The gate and the handlers are built together, so every index has a handler.
            return Outcome::ToolFailed {
                id,
                error: format!("no handler is registered for {tool}"),
                tool,
                panicked: false,
                first_rejection,
            };
        };
        match catch_unwind(AssertUnwindSafe(|| handler(id.as_deref(), &call.args))) {
            Ok(Ok(output)) => Outcome::Dispatched {
                id,
                tool,
                output,
                first_rejection,
            },
            Ok(Err(error)) => Outcome::ToolFailed {
                id,
                tool,
                error,
                panicked: false,
                first_rejection,
            },
            Err(payload) => {
                let error = panic_message(payload.as_ref());
                drop_payload(payload);
                Outcome::ToolFailed {
                    id,
                    tool,
                    error,
                    panicked: true,
                    first_rejection,
                }
            }
        }
    }
}

/// The free form of [`Registry::handle_tool_call`].
///
/// ```
/// use toolgate::{handle_tool_call, Outcome, Registry, ToolSpec, Type};
///
/// let mut registry = Registry::new();
/// let spec = ToolSpec::new("get_weather", "Current weather for a city")
///     .required("city", Type::string())
///     .build()?;
/// registry.register(spec, |args| {
///     let city = args.get("city").and_then(|city| city.as_str()).unwrap_or_default();
///     Ok(format!("Sunny in {city}"))
/// })?;
///
/// // The model forgot the city; it is asked once, and its answer runs.
/// let raw = r#"{"name":"get_weather","arguments":{}}"#;
/// let outcome = handle_tool_call(&registry, raw, |error| {
///     assert_eq!(error, "get_weather rejected: missing required field 'city'.");
///     r#"{"name":"get_weather","arguments":{"city":"Oslo"}}"#.to_string()
/// });
/// assert_eq!(
///     outcome,
///     Outcome::Dispatched {
///         id: None,
///         tool: "get_weather".into(),
///         output: "Sunny in Oslo".into(),
///         first_rejection: Some(Box::new(
///             registry.gate().check_call(raw).unwrap_err()
///         )),
///     }
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn handle_tool_call(
    registry: &Registry,
    raw: &str,
    ask_model: impl FnOnce(&str) -> String,
) -> Outcome {
    registry.handle_tool_call(raw, ask_model)
}

impl Outcome {
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
            // An empty error would leave the model a sentence that stops mid-way; say that
            // the tool gave no message instead.
            Outcome::ToolFailed {
                tool,
                error,
                panicked: false,
                ..
            } if error.trim().is_empty() => {
                format!("{tool} failed: the tool returned an error without a message")
            }
            Outcome::ToolFailed {
                tool,
                error,
                panicked: false,
                ..
            } => format!("{tool} failed: {error}"),
            Outcome::ToolFailed { tool, error, .. } if error.trim().is_empty() => {
                format!("{tool} failed: the tool crashed without a message")
            }
            Outcome::ToolFailed { tool, error, .. } => {
                format!("{tool} failed: the tool crashed ({error})")
            }
            Outcome::Rejected { error, .. } => error.to_string(),
        }
    }
}

/// Drops a caught panic's payload without letting a panic in its destructor escape: std's
/// `catch_unwind` docs warn that dropping the payload can itself panic, which here would
/// unwind out of `handle_tool_call` after all. A payload from that second panic is leaked
/// (forgotten) rather than dropped, so nothing can unwind from here.
fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(second) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(second);
    }
}

/// A panic's message: the `&str`, `String` or `Box<str>` it was raised with, else a fixed
/// sentence.
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
