//! The registry: specs bound to handlers, and `handle_tool_call` with exactly one retry.
//! (Skeleton: the API contract; lands with issue #4.)

use crate::gate::{Gate, Rejection};
use crate::json::Value;
use crate::spec::ToolSpec;

/// A tool's code: `Ok` is its output, `Err` a tool failure.
pub type Handler = Box<dyn Fn(&Value<'_>) -> Result<String, String> + Send + Sync>;

/// Specs bound to handlers.
pub struct Registry {
    gate: Gate,
    handlers: Vec<Handler>,
}

/// What became of one call.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A valid call ran and returned output.
    Dispatched {
        /// The call id.
        id: Option<String>,
        /// The tool.
        tool: String,
        /// The tool's output.
        output: String,
        /// True if this was the model's corrected call after one rejection.
        retried: bool,
    },
    /// A valid call ran and the tool failed (returned `Err` or panicked).
    ToolFailed {
        /// The call id.
        id: Option<String>,
        /// The tool.
        tool: String,
        /// The tool's error, or the panic message.
        error: String,
        /// True if the handler panicked.
        panicked: bool,
        /// True if this was the model's corrected call after one rejection.
        retried: bool,
    },
    /// The call (and, if asked, the model's one retry) was refused; nothing ran.
    Rejected {
        /// The call id.
        id: Option<String>,
        /// The last rejection.
        error: Rejection,
        /// True if the model was asked once for a corrected call.
        retried: bool,
    },
}

/// A registration that cannot stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistryError {
    /// The tool name registered twice.
    pub duplicate: String,
}

impl Default for Registry {
    fn default() -> Self {
        Registry::new()
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry {
            gate: Gate::new(Vec::new()),
            handlers: Vec::new(),
        }
    }

    /// Binds a spec to its handler.
    ///
    /// # Errors
    /// [`RegistryError`] if the name is already registered.
    pub fn register(
        &mut self,
        spec: ToolSpec,
        handler: impl Fn(&Value<'_>) -> Result<String, String> + Send + Sync + 'static,
    ) -> Result<(), RegistryError> {
        let _ = (spec, handler);
        Ok(())
    }

    /// The check-only gate over the registered specs.
    pub fn gate(&self) -> &Gate {
        &self.gate
    }

    /// Gate, then dispatch; on a rejection ask the model once for a corrected call.
    pub fn handle_tool_call(&self, raw: &str, ask_model: impl FnOnce(&str) -> String) -> Outcome {
        let _ = (raw, ask_model, &self.handlers);
        Outcome::Rejected {
            id: None,
            error: Rejection::BadEnvelope {
                id: None,
                problem: String::from("not built yet"),
            },
            retried: false,
        }
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
