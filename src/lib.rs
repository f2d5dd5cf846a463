//! toolgate: nothing a model emits executes before it has been checked.
//!
//! A language model calls a tool by *writing text*: a tool name and its arguments, wrapped
//! in its provider's envelope. That text is a prediction, token by token, and it goes wrong
//! in a few ways that real logs show again and again: the reply is cut off at the output
//! limit, the name is misspelled or invented, the arguments are a list instead of an object,
//! a field is missing, out of range or of the wrong type. toolgate stands between that text
//! and your tool code. It checks the call, runs the tool only if every check passes, and
//! otherwise answers the model with one sentence it can act on, paired with the call's id.
//!
//! ```text
//! raw call ─► JSON ─► envelope ─► gate 1: name ─► gate 2: object ─► gate 3: spec ─► handler
//!               │         │              │                │                 │
//!               └─────────┴──────────────┴──── Rejection ─┴─────────────────┘
//!                                      (one sentence for the model)
//! ```
//!
//! # Reading the call: JSON, then the envelope
//!
//! Before any gate can ask its question, the call must be read. toolgate parses it with its
//! own strict parser ([`json`]), which tells input that *stops* (`truncated_json`) from input
//! that is *wrong* (`malformed_json`), because the model's fix differs: a cut-off reply hit
//! the output limit, and sending the same call again would be cut off again, so the answer
//! asks for a smaller call. The [`envelope`] reader then finds the id, the name and the
//! arguments in any provider's shape (Anthropic `tool_use`, OpenAI chat and Responses,
//! Gemini, MCP, the plain `{"name", "arguments"}`), parsing OpenAI's arguments *text* with the
//! same parser. JSON that is no tool call at all is `bad_envelope`.
//!
//! ```
//! use toolgate::{Gate, ToolSpec, Type};
//!
//! let gate = Gate::new(vec![ToolSpec::new("lookup_policy", "Find a store policy.")
//!     .required("topic", Type::string())
//!     .build()?])?;
//! // Cut off at the output limit: the id and the name are kept, and the fix is a smaller call.
//! let raw = r#"{"type":"tool_use","id":"toolu_01","name":"lookup_policy","input":{"topic":"Can I ret"#;
//! let rejection = gate.check_call(raw).unwrap_err();
//! assert_eq!(rejection.kind().label(), "truncated_json");
//! assert_eq!(rejection.id(), Some("toolu_01"));
//! assert_eq!(
//!     rejection.to_string(),
//!     "The call to lookup_policy was cut off after 85 bytes, inside a string. Do not send the \
//!      same call again: make it smaller, with fewer or shorter items."
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The three gates, in order
//!
//! Each gate answers one question, and each can only be asked once the ones before it pass:
//! there is no spec to check arguments against until the name is known. The first refusal
//! is also the most basic fix, so the model is never told to repair a field of a call it
//! must send to another tool anyway. Each is a function named for its question
//! ([`gate::Gate::check_name`], [`gate::check_object`], [`gate::check_args`]).
//!
//! **Gate 1: is the name registered?** (`unknown_tool`) Running nothing cannot help a model
//! that called a tool that does not exist; it needs the names that do. With up to 8 tools
//! the answer lists them all, with more the 3 closest by edit distance ([`suggest`]), and
//! the model picks one on its next try.
//!
//! ```
//! # use toolgate::{Gate, ToolSpec, Type};
//! # let names = ["search_orders", "get_shipment", "issue_refund"];
//! # let gate = Gate::new(names.iter().map(|n| ToolSpec::new(*n, "A tool.").build()).collect::<Result<_, _>>()?)?;
//! let rejection = gate.check_call(r#"{"name":"serch_orders","arguments":{}}"#).unwrap_err();
//! assert_eq!(
//!     rejection.to_string(),
//!     "No tool named 'serch_orders'. Did you mean: search_orders? The tools are: \
//!      search_orders, get_shipment, issue_refund."
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Gate 2: are the arguments an object?** (`arguments_not_object`) Every tool takes named
//! fields. A list, a number or a bare string means the model has not understood the form of
//! the call at all, and a complaint about one field would mislead it; the answer says what
//! the form is and shows what arrived.
//!
//! ```
//! # use toolgate::{Gate, ToolSpec, Type};
//! # let gate = Gate::new(vec![ToolSpec::new("get_shipment", "Track an order.").required("order_id", Type::string()).build()?])?;
//! let rejection = gate.check_call(r#"{"name":"get_shipment","arguments":["ORD-1"]}"#).unwrap_err();
//! assert_eq!(
//!     rejection.to_string(),
//!     "get_shipment rejected: the arguments must be a JSON object of named fields; received \
//!      an array: [\"ORD-1\"]."
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Gate 3: do the arguments match the spec?** (`schema_violation`) Tool code assumes its
//! contract: required fields present, amounts in range, an enum value it knows. The
//! [`ToolSpec`] that states the contract is the one sent to the provider
//! ([`Registry::tools`]), so what the model was told and what is enforced cannot drift
//! apart. The answer names the first broken rule, its dotted path and the value received
//! (cut at [`PREVIEW_CHARS`](json::PREVIEW_CHARS) characters), which is exactly what the model must change.
//!
//! ```
//! # use toolgate::{Gate, ToolSpec, Type};
//! let refund = ToolSpec::new("issue_refund", "Refund part of an order, in cents.")
//!     .required("order_id", Type::string())
//!     .required("amount_cents", Type::integer().min(1).max(500000))
//!     .build()?;
//! let gate = Gate::new(vec![refund])?;
//! let raw = r#"{"name":"issue_refund","arguments":{"order_id":"A-1","amount_cents":0}}"#;
//! let rejection = gate.check_call(raw).unwrap_err();
//! assert_eq!(rejection.path(), Some("amount_cents"));
//! assert_eq!(
//!     rejection.to_string(),
//!     "issue_refund rejected: amount_cents must be an integer from 1 to 500000; received 0."
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Exactly one retry: `handle_tool_call`
//!
//! A [`Registry`] binds each spec to its handler. [`handle_tool_call`] checks the raw call
//! and runs its handler; if the call is refused, it gives the rejection's text to
//! `ask_model` once, checks the answer the same way, and runs it if it passes. If the answer
//! is refused too, the outcome is [`Outcome::Rejected`] with the second rejection.
//!
//! Why once: a model that gets a precise sentence fixes most mistakes on the next try, and
//! one that fails twice at the same call is usually stuck on something a third try will not
//! fix (an unclear schema, an output limit that cuts every attempt). Each try is a model
//! round trip, so the decision of what to do next belongs to the agent loop, with its
//! [`guard`] that stops a run after repeated rejections of one tool. `ask_model` is an
//! [`FnOnce`]: "at most once" is a fact the compiler checks. And whatever the input, an
//! unchecked call never reaches a handler, and no handler runs twice. (To pair the text with
//! the refused call's id, [`Registry::handle_tool_call_with`] hands `ask_model` the
//! [`Rejection`] itself, whose [`Rejection::result_block`] is the provider's message; with
//! [`Registry::handle_tool_call_or_decline`], `ask_model` may return `None`: no retry, and
//! nothing counted but the one refusal.)
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
//!     // Show `error` to the model, paired with toolu_01, and return its next call.
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
//! # A rejection is not a tool failure
//!
//! A [`Rejection`] says the *call* was wrong: nothing ran, and the model fixes it by sending
//! a different call. A handler that returns `Err` (or panics: panics are caught and never
//! propagate) is [`Outcome::ToolFailed`]: the call was right and the tool could not do it, so
//! sending a different call is the wrong fix, and the model is not asked for one. Keeping
//! them apart also keeps the counters honest: a rising rejection rate points at the tool
//! declarations (a schema the model misreads), a rising failure rate at a dependency.
//!
//! ```
//! use toolgate::{Outcome, Registry, ToolSpec};
//! use toolgate::spec::Provider;
//!
//! let mut registry = Registry::new();
//! registry.register(ToolSpec::new("list_orders", "List orders.").build()?, |_| {
//!     Err("the orders database timed out".to_string())
//! })?;
//! let outcome = registry.handle_tool_call(r#"{"id":"call_1","name":"list_orders"}"#, |_| {
//!     unreachable!("a tool failure does not ask the model for another call")
//! });
//! assert!(matches!(outcome, Outcome::ToolFailed { panicked: false, first_rejection: None, .. }));
//! // The answer to the model is keyed to the call and flagged as an error.
//! assert_eq!(
//!     outcome.result_block(Provider::Anthropic).to_string(),
//!     r#"{"type":"tool_result","tool_use_id":"call_1","content":"list_orders failed: the orders database timed out","is_error":true}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Answering the model
//!
//! Every [`Outcome`] carries the call id, and [`result_block()`] turns it into the message the
//! provider expects (Anthropic `tool_result`, OpenAI `role: tool`, Responses
//! `function_call_output`, Gemini `functionResponse`, MCP `CallToolResult`), flagged as an
//! error for failures and rejections.
//!
//! # Whole turns: every call answered, once, in order
//!
//! A real turn holds several calls made in parallel, and the provider refuses the next request
//! unless every call id of the turn is answered exactly once, in order, in the message that
//! follows: the *pairing rule*. So the model cannot be asked for a correction from inside one
//! call's check while the others wait. [`Gate::check_turn`] reads a whole turn in any
//! provider's form (see [`turn`]), checks each call, and keeps every id it can read;
//! [`Registry::handle_turn`] also runs the valid calls; [`result_message`] answers them all
//! in one message; and a [`Session`] links each refused call to its correction in the
//! model's next turn, which is the retry. Nothing calls you back: with async handlers, run
//! the accepted calls yourself and hand their outputs to [`Answers`].
//!
//! ```
//! # #[cfg(feature = "turns")] {
//! use toolgate::{Answers, Gate, ToolSpec, Type};
//! use toolgate::spec::Provider;
//!
//! let gate = Gate::new(vec![ToolSpec::new("get_weather", "Current weather.")
//!     .required("city", Type::string())
//!     .build()?])?;
//! // A Responses `output` list: reasoning, then two calls; the second was cut off.
//! let output = r#"[{"type":"reasoning","id":"rs_1","summary":[]},
//!   {"type":"function_call","id":"fc_1","call_id":"call_A","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"},
//!   {"type":"function_call","id":"fc_2","call_id":"call_B","name":"get_weather","arguments":"{\"ci"}]"#;
//! let turn = gate.check_turn(output)?;
//! let mut answers = Answers::new(&turn);
//! for (index, _call) in turn.accepted() {
//!     answers.answer(index, Ok("21 °C".into()))?; // run it however you like, then hand back
//! }
//! assert_eq!(
//!     answers.result_message(Provider::Responses)?.to_string(),
//!     r#"[{"type":"function_call_output","call_id":"call_A","output":"21 °C"},{"type":"function_call_output","call_id":"call_B","output":"Error: The arguments of get_weather were cut off after 4 bytes, inside a string. Do not send the same call again: make it smaller, with fewer or shorter items."}]"#
//! );
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Loop safety: the guard and the counters
//!
//! One retry bounds the cost of a call; the [`Guard`] bounds the cost of a run. It counts
//! rejected turns in a row per tool ([`Guard::record_turn`]: several refused calls to one
//! tool in one turn are one refused turn) and ends the run at the third (configurable) with an
//! [`Unrecoverable`] error naming the tool and the last rejection. It is keyed by tool
//! because a model that fails at A, succeeds at B and fails at A again is exploring, not
//! stuck; one that fails the same spec three turns running needs a better declaration, not a
//! fourth try, and stopping there leaves a diagnosable point instead of a spent budget. The
//! [`Counters`] keep every outcome and every rejection kind apart, so the rates say where to
//! look: rejections at our declarations, tool failures at a dependency.
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
//!     // The model keeps asking for more than the spec allows, and so does its one retry.
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
//! # Layout
//!
//! Modules form floors, each using only those below it: [`json`] (the one reader, values,
//! writer) → [`spec`] (tool contracts) and [`envelope`] (provider shapes) with [`rejection`]
//! (why a call is refused) and [`suggest`] (edit distance) → [`gate`] (the three gates) →
//! [`registry`] (handlers, `handle_tool_call`) and [`mod@result_block`] → [`guard`] and
//! [`counters`] (loop safety) → [`turn`] (whole turns, result messages, sessions) → the
//! command line.
//!
//! # Cargo features
//!
//! Every feature is on by default. Without them, the core is built: [`json`], [`spec`] with
//! the core keywords, [`envelope`], the three gates, [`Registry`], [`Guard`] and
//! [`Counters`]. `pattern` adds the regex engine ([`pattern`]) and the `pattern` and
//! `patternProperties` keywords; `format` the `format` checkers; `turns` whole turns
//! ([`turn`]); `stream` the streaming check ([`stream`]). A schema that uses a keyword
//! whose feature is off is refused at load, by name, with the feature that enforces it:
//! never silently ignored.

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

// Re-exports of the gate layer (issue #4).
pub use envelope::Call;
pub use gate::{Accepted, DuplicateTool, Gate};
pub use registry::{handle_tool_call, Handler, Outcome, Registry, RegistryError};
pub use rejection::{EnvelopeProblem, Part, Rejection, RejectionKind};
pub use result_block::result_block;
#[cfg(feature = "stream")]
pub use stream::{CallStream, Progress};

// Re-exports of loop safety (issue #5).
pub use counters::{Counters, Counts};
pub use guard::{Guard, Unrecoverable};

// Re-exports of whole turns (issue #10).
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
