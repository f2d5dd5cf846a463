//! toolgate: nothing a model emits executes before it has been checked.
//!
//! A model's tool call is text: it may be cut off, name a tool that does not exist, or carry
//! arguments that break the tool's contract. toolgate parses it strictly ([`json`]), reads
//! any provider's envelope ([`envelope`]), runs three gates in order, and either runs the
//! tool or answers the model with one sentence it can act on, paired with the call's id.
//!
//! ```text
//! raw call ─► JSON ─► envelope ─► gate 1: name ─► gate 2: object ─► gate 3: spec ─► handler
//!               └─────────┴──────────────┴──── Rejection (one sentence) ─┴──────────┘
//! ```
//!
//! # The gates, in order
//!
//! Each gate can only ask its question once the ones before pass, and the first refusal is
//! the most basic fix. A cut-off call (`truncated_json`) is told apart from a wrong one
//! (`malformed_json`): sending it again would be cut off again.
//!
//! ```
//! use toolgate::{Gate, ToolSpec, Type};
//!
//! let gate = Gate::new(vec![
//!     ToolSpec::new("lookup_policy", "Find a store policy.")
//!         .required("topic", Type::string())
//!         .build()?,
//!     ToolSpec::new("issue_refund", "Refund part of an order, in cents.")
//!         .required("amount_cents", Type::integer().min(1).max(500000))
//!         .build()?,
//! ])?;
//! let raw = r#"{"type":"tool_use","id":"toolu_01","name":"lookup_policy","input":{"topic":"Can I ret"#;
//! let cut = gate.check_call(raw).unwrap_err();
//! assert_eq!((cut.kind().label(), cut.id()), ("truncated_json", Some("toolu_01")));
//! assert_eq!(
//!     cut.to_string(),
//!     "The call to lookup_policy was cut off after 85 bytes, inside a string. Do not send the \
//!      same call again: make it smaller, with fewer or shorter items."
//! );
//! // Gate 1: is the name registered? Up to 8 tools, all are listed.
//! let unknown = gate.check_call(r#"{"name":"issue_refnd","arguments":{}}"#).unwrap_err();
//! assert_eq!(
//!     unknown.to_string(),
//!     "No tool named 'issue_refnd'. Did you mean: issue_refund? The tools are: \
//!      lookup_policy, issue_refund."
//! );
//! // Gate 2: are the arguments an object?
//! let list = gate.check_call(r#"{"name":"lookup_policy","arguments":["returns"]}"#).unwrap_err();
//! assert_eq!(
//!     list.to_string(),
//!     "lookup_policy rejected: the arguments must be a JSON object of named fields; received \
//!      an array: [\"returns\"]."
//! );
//! // Gate 3: do they match the spec? The first broken rule, its path and the value received.
//! let raw = r#"{"name":"issue_refund","arguments":{"amount_cents":0}}"#;
//! let zero = gate.check_call(raw).unwrap_err();
//! assert_eq!(zero.path(), Some("amount_cents"));
//! assert_eq!(
//!     zero.to_string(),
//!     "issue_refund rejected: amount_cents must be an integer from 1 to 500000; received 0."
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Exactly one retry
//!
//! [`Registry::handle_tool_call`] checks a call and runs its handler; a refused call's text
//! goes to `ask_model` once, and its answer is checked the same way. A model that fails twice
//! is usually stuck on something a third try will not fix, so what next belongs to the agent
//! loop. `ask_model` is an [`FnOnce`]: "at most once" is checked by the compiler. A handler
//! that returns `Err` or panics is [`Outcome::ToolFailed`], not a rejection: the call was
//! right, so the model is not asked for another.
//!
//! ```
//! use toolgate::{Outcome, Registry, ToolSpec, Type};
//!
//! let mut registry = Registry::new();
//! let spec = ToolSpec::new("get_weather", "Current weather for a city.")
//!     .required("city", Type::string())
//!     .optional("units", Type::string().one_of(["metric", "imperial"]))
//!     .build()?;
//! registry.register(spec, |args| {
//!     let city = args.get("city").and_then(|city| city.as_str()).unwrap_or_default();
//!     Ok(format!("{city}: 21 °C, sunny"))
//! })?;
//!
//! let raw = r#"{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Oslo","units":"celsius"}}"#;
//! let outcome = registry.handle_tool_call(raw, |error| {
//!     assert_eq!(
//!         error,
//!         "get_weather rejected: units must be one of \"metric\", \"imperial\"; received \"celsius\"."
//!     );
//!     r#"{"type":"tool_use","id":"toolu_02","name":"get_weather","input":{"city":"Oslo","units":"metric"}}"#.to_string()
//! });
//! assert_eq!(
//!     outcome,
//!     Outcome::Dispatched {
//!         id: Some("toolu_02".into()),
//!         tool: "get_weather".into(),
//!         output: "Oslo: 21 °C, sunny".into(),
//!         first_rejection: Some(Box::new(registry.gate().check_call(raw).unwrap_err())),
//!     }
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every [`Outcome`] becomes the provider's answer with [`result_block()`]; a whole turn of
//! parallel calls is read, checked and answered in one message by the `turn` module.
//!
//! # Loop safety: the guard and the counters
//!
//! The [`Guard`] ends a run at the third rejection in a row of one tool (a model stuck on one
//! spec needs a better declaration, not a fourth try); the [`Counters`] keep outcomes and
//! rejection kinds apart, so rejections point at declarations and failures at dependencies.
//!
//! ```
//! use toolgate::{Counters, Guard, Registry, ToolSpec, Type};
//!
//! let mut registry = Registry::new();
//! let spec = ToolSpec::new("issue_refund", "Refund part of an order, in cents.")
//!     .required("amount_cents", Type::integer().min(1).max(50000))
//!     .build()?;
//! registry.register(spec, |_| Ok("refunded".to_string()))?;
//!
//! let (mut guard, counters) = (Guard::default(), Counters::default());
//! let too_much = r#"{"name":"issue_refund","arguments":{"amount_cents":80000}}"#;
//! let mut turns = 0;
//! let stopped = loop {
//!     turns += 1;
//!     let outcome = registry.handle_tool_call(too_much, |_error| too_much.to_string());
//!     counters.record(&outcome);
//!     if let Err(unrecoverable) = guard.record(&outcome) {
//!         break unrecoverable;
//!     }
//! };
//! assert_eq!(turns, 3);
//! assert_eq!(stopped.tool.as_deref(), Some("issue_refund"));
//! let counts = counters.snapshot();
//! assert_eq!((counts.rejected_calls, counts.dispatched), (3, 0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Cargo features
//!
//! All on by default; the core (json, specs, envelopes, gates, registry, guard, counters)
//! always builds. `pattern` adds the regex engine and the `pattern`/`patternProperties`
//! keywords, `format` the `format` checkers, `turns` the `turn` module, `stream` the
//! `stream` module, both together the `events` module (a turn read from the providers'
//! stream events), `mcp` the `mcp` module (the proxy's logic). A schema using a keyword
//! whose feature is off is refused at load, by name.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

// Floors, bottom up: each module uses only the ones above it in this list.
pub mod json;
pub mod pattern;

pub mod spec;
pub use spec::{ToolSpec, Type};

pub mod rejection;

pub mod envelope;
pub mod suggest;

pub mod gate;
#[cfg(feature = "stream")]
pub mod stream;

pub mod registry;
pub mod result_block;

pub mod counters;
pub mod guard;

#[cfg(feature = "turns")]
pub mod turn;

#[cfg(all(feature = "turns", feature = "stream"))]
pub mod events;

#[cfg(feature = "mcp")]
pub mod mcp;

pub use envelope::Call;
pub use gate::{Accepted, DuplicateTool, Gate};
pub use registry::{handle_tool_call, Handler, Outcome, Registry, RegistryError};
pub use rejection::{EnvelopeProblem, Part, Rejection, RejectionKind};
pub use result_block::result_block;
#[cfg(feature = "stream")]
pub use stream::{CallStream, Progress};

pub use counters::{Counters, Counts, ToolCounts};
pub use guard::{Guard, Unrecoverable};

#[cfg(all(feature = "turns", feature = "stream"))]
pub use events::{EventError, Refusal, TurnStream};
#[cfg(feature = "turns")]
pub use turn::{
    result_message, AnswerError, Answers, Session, SessionError, Turn, TurnCall, TurnError,
    TurnForm,
};

// The README's Rust examples run as doc tests, so the front page cannot drift from the code.
// They show every feature, so they run in the build that has them all (the default): a
// hidden `#[cfg]` line in each would show on every page that renders the README.
#[cfg(all(
    doctest,
    feature = "pattern",
    feature = "format",
    feature = "turns",
    feature = "stream"
))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
