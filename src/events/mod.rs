//! Turn streams: a whole assistant turn read from the provider's own stream events, as the
//! SDKs deliver them, each event's JSON text fed as it arrives.
//!
//! | Stream | Events read | A call's name, then its arguments |
//! |---|---|---|
//! | OpenAI chat | `ChatCompletionChunk`s (the first choice; a usage chunk with no choices passes) | `delta.tool_calls[]` by `index`: `id` and `function.name` first, then `function.arguments` fragments |
//! | Anthropic Messages | `content_block_start`, `content_block_delta`, `content_block_stop`, `message_delta` | a `tool_use` block, then its `input_json_delta.partial_json` fragments |
//! | OpenAI Responses | `response.output_item.added`, `response.function_call_arguments.delta` / `.done`, `response.output_text.delta`, `response.completed` / `.incomplete` | a `function_call` item, then its `arguments` deltas |
//! | Gemini | streamed `GenerateContentResponse`s (the first candidate) | a `functionCall` part, whole at once |
//!
//! Why: an agent that streams pays for every token it lets the model write. Each call of the
//! turn gets a [`CallStream`] in the provider form, so after every event the stream says
//! which calls are refused so far ([`Refusal`]: the call's place in the turn, its id, the
//! sentence the model should read, and the byte of its arguments text where the refusal
//! became certain); the agent can stop the generation there and answer at once.
//!
//! At the end, [`TurnStream::finish`] assembles the turn in the provider's whole form, stop
//! reason included ([`TurnStream::message`]), and answers [`Gate::check_turn`]'s [`Turn`] on
//! it: one source of truth, so a streamed turn and the same turn read whole get the same
//! verdicts, and a turn stopped at the output limit has its last call cut either way. A call
//! refused while streaming is refused in that `Turn` too (the stream's "never too early"
//! promise), though an earlier gate may give the last word. The message is the form that
//! is checked, not a copy of the SDK's accumulated message: it keeps no usage, ids of the
//! message, thinking text or signatures.
//!
//! Events the stream does not need (`ping`, usage, thinking deltas, `response.created`) pass.
//! An event that is not JSON, names no provider, belongs to another provider's stream, or
//! contradicts the stream (a delta for a block never started) is an [`EventError`] and
//! changes nothing. Memory is bounded: each event by the gate's
//! [`Limits`](crate::json::Limits), the turn kept (and its calls' streams) by its
//! `max_bytes`; past it nothing more is kept or checked, and [`TurnStream::finish`] says the
//! turn is too large.
//!
//! ```
//! use toolgate::{Gate, ToolSpec, Type};
//!
//! let gate = Gate::new(vec![ToolSpec::new("get_weather", "Current weather.")
//!     .required("city", Type::string())
//!     .build()?])?;
//! let mut turn = gate.stream_turn();
//! for event in [
//!     r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"stop_reason":null}}"#,
//!     r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#,
//!     r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": 4"}}"#,
//! ] {
//!     turn.feed(event)?;
//! }
//! // No city is a number: refused at the `4`, while the model is still writing.
//! let refused = &turn.refusals()[0];
//! assert_eq!((refused.index, refused.id.as_deref(), refused.at), (0, Some("toolu_1"), 9));
//! assert_eq!(refused.rejection.to_string(), "get_weather rejected: city must be a string; received 4.");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod anthropic;
mod error;
mod gemini;
mod openai;
mod read;
mod responses;

pub use error::EventError;

use crate::gate::Gate;
use crate::json::{self, Value};
use crate::rejection::Rejection;
use crate::stream::{CallStream, Progress};
use crate::turn::{Turn, TurnForm};
use read::Problem;

/// A call refused while its turn streams: what the agent needs to stop the generation and
/// answer the model at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The call's place in the turn, as in [`Turn::calls`].
    pub index: usize,
    /// The call id, when its events gave one.
    pub id: Option<String>,
    /// Why the text so far is refused, with the sentence the model should read
    /// ([`CallStream::rejection`]).
    pub rejection: Rejection,
    /// The byte of the call's arguments text where the refusal became certain
    /// ([`Progress::Refused::at`]; 0 for an unknown name). A Gemini call's text is its
    /// `args` written as compact JSON.
    pub at: usize,
}

/// One assistant turn read from its stream events: see the [module](self) docs.
pub struct TurnStream<'g> {
    gate: &'g Gate,
    /// The provider, told by the first event.
    form: Option<TurnForm>,
    /// How many events were fed, the refused ones too: an error names its event by number.
    fed: usize,
    /// The turn's elements, in order.
    elements: Vec<Element>,
    /// The turn's calls, in order; an element holds its call's place here.
    calls: Vec<Streamed<'g>>,
    /// Why the model stopped: `finish_reason`, `stop_reason`, `incomplete_details.reason`,
    /// `finishReason`, as the events said.
    stop: Option<String>,
    /// A Responses response's `status`.
    status: Option<String>,
    refusals: Vec<Refusal>,
    /// Bytes of the turn kept (texts, names, arguments, a call or item as its event's size):
    /// past the gate's `max_bytes` nothing more is kept or checked, and the turn is too
    /// large. The call streams keep no more than this between them.
    kept: usize,
}

/// One element of a turn, with the index its provider's events name it by (`None` for
/// OpenAI's `content` and Gemini's parts, which events do not name).
struct Element {
    key: Option<u64>,
    body: Body,
}

enum Body {
    Text(String),
    /// The call's place in [`TurnStream::calls`].
    Call(usize),
    /// A thinking block, a reasoning item, a hosted tool's item: kept as its first event
    /// gave it, for the whole form.
    Other(Value<'static>),
}

/// One call as it streams.
struct Streamed<'g> {
    id: Option<String>,
    /// A Responses item's own id (`fc_…`), which its deltas name.
    item: Option<String>,
    /// A Gemini part, whole, written into the turn as it came.
    part: Option<Value<'static>>,
    stream: CallStream<'g>,
    /// Reported in [`TurnStream::refusals`] (or refused with nothing to report).
    refused: bool,
}

/// What one event says, in the terms every provider shares. A provider's reader checks the
/// whole event against the stream before any step is taken, so an event that contradicts
/// the stream changes nothing.
enum Step {
    /// A call begins, its name whole or in its first fragment.
    Begin {
        key: Option<u64>,
        id: Option<String>,
        item: Option<String>,
        name: String,
    },
    /// More of the name of the call at `key`, before its arguments begin.
    Name { key: u64, fragment: String },
    /// More of the arguments text of the call at `key`.
    Arguments { key: u64, fragment: String },
    /// A Gemini call, whole: its name, its arguments as compact JSON, and the part.
    Whole {
        id: Option<String>,
        name: String,
        arguments: String,
        part: Value<'static>,
    },
    /// Text for the element at `key` (a new element when none has it), or with no key, for
    /// the last element when it is keyless text.
    Text { key: Option<u64>, text: String },
    /// Another element, as given.
    Other {
        key: Option<u64>,
        item: Value<'static>,
    },
    /// Why the model stopped, and a response's status.
    Stop {
        reason: Option<String>,
        status: Option<String>,
    },
}

impl Gate {
    /// A stream of one assistant turn's events, read as they come ([`TurnStream`]).
    pub fn stream_turn(&self) -> TurnStream<'_> {
        TurnStream {
            gate: self,
            form: None,
            fed: 0,
            elements: Vec::new(),
            calls: Vec::new(),
            stop: None,
            status: None,
            refusals: Vec::new(),
            kept: 0,
        }
    }
}

impl<'g> TurnStream<'g> {
    /// Reads the next event, the JSON text of one event exactly as the SDK delivers it, and
    /// answers every call refused so far, in the order they were refused.
    ///
    /// # Errors
    /// [`EventError::NotJson`] when the event is not JSON (or breaks the gate's limits),
    /// [`EventError::Unexpected`] when it is no provider's event, another provider's than
    /// the stream's first, or contradicts the stream, [`EventError::Failed`] when it is the
    /// provider's own `error` event. The stream is then as it was before the event.
    pub fn feed(&mut self, event: &str) -> Result<&[Refusal], EventError> {
        self.fed = self.fed.saturating_add(1);
        let number = self.fed;
        // An event nests its call as deep as a whole turn does.
        let limits = crate::turn::turn_limits(self.gate.limits());
        let value = json::parse_with(event, limits).map_err(|error| EventError::NotJson {
            event: number,
            error: Box::new(error),
        })?;
        if let Some(message) = read::failure(&value) {
            return Err(EventError::Failed {
                event: number,
                message,
            });
        }
        let form = read::form_of(&value).ok_or_else(|| Problem::unknown(&value).at(number))?;
        match self.form {
            Some(own) if own != form => return Err(Problem::other(own, form, &value).at(number)),
            _ => {}
        }
        let steps = match form {
            TurnForm::OpenAiChat => openai::read(&value, self),
            TurnForm::Anthropic => anthropic::read(&value, self),
            TurnForm::Responses => responses::read(&value, self),
            _ => gemini::read(&value, self),
        }
        .map_err(|problem| problem.at(number))?;
        // An item kept as given is held to a call's depth, so the whole turn reads.
        let max_depth = self.gate.limits().max_depth;
        for step in &steps {
            if let Step::Other { item, .. } = step {
                if crate::turn::deeper_than(item, max_depth) {
                    let expected = "an item nested no deeper than a call may be";
                    return Err(Problem::new(expected, item).at(number));
                }
            }
        }
        self.form = Some(form);
        for step in steps {
            self.take(step, event.len());
        }
        self.note_refusals();
        Ok(&self.refusals)
    }

    /// Every call refused so far, in the order they were refused.
    pub fn refusals(&self) -> &[Refusal] {
        &self.refusals
    }

    /// The turn so far in its provider's whole form, stop reason included: what
    /// [`TurnStream::finish`] checks. `None` before the first event.
    pub fn message(&self) -> Option<String> {
        Some(match self.form? {
            TurnForm::OpenAiChat => openai::message(self),
            TurnForm::Anthropic => anthropic::message(self),
            TurnForm::Responses => responses::message(self),
            _ => gemini::message(self),
        })
    }

    /// The stream ended: [`Gate::check_turn`]'s answer on the assembled turn
    /// ([`TurnStream::message`]).
    ///
    /// # Errors
    /// [`EventError::NoEvents`] when no event was read, [`EventError::TooLarge`] when the
    /// turn grew past the gate's `max_bytes`, [`EventError::Turn`] when the assembled turn
    /// cannot be read (it always can: a toolgate bug).
    pub fn finish(self) -> Result<Turn<'static>, EventError> {
        let limit = self.gate.limits().max_bytes;
        if self.kept > limit {
            return Err(EventError::TooLarge { limit });
        }
        let message = self.message().ok_or(EventError::NoEvents)?;
        // Written out (escapes, the form's own members) the turn may still outgrow it.
        if message.len() > limit {
            return Err(EventError::TooLarge { limit });
        }
        self.gate
            .check_turn(&message)
            .map(Turn::into_owned)
            .map_err(EventError::Turn)
    }

    /// The call at `key`, if one began there.
    fn call(&self, key: u64) -> Option<&Streamed<'g>> {
        match self.element(key)? {
            Body::Call(index) => self.calls.get(*index),
            _ => None,
        }
    }

    /// The element at `key`, if one began there.
    fn element(&self, key: u64) -> Option<&Body> {
        let found = self
            .elements
            .iter()
            .find(|element| element.key == Some(key));
        found.map(|element| &element.body)
    }

    /// Counts `len` more bytes kept: whether they fit the limit.
    fn room(&mut self, len: usize) -> bool {
        self.kept = self.kept.saturating_add(len);
        self.kept <= self.gate.limits().max_bytes
    }

    /// Takes one step of an event of `event_len` bytes (see [`Step`]).
    fn take(&mut self, step: Step, event_len: usize) {
        match step {
            Step::Begin {
                key,
                id,
                item,
                name,
            } => {
                if !self.room(event_len) {
                    return;
                }
                let mut stream = self.gate.stream_call();
                stream.feed_name(&name);
                let body = Body::Call(self.calls.len());
                self.elements.push(Element { key, body });
                self.calls.push(Streamed {
                    id,
                    item,
                    part: None,
                    stream,
                    refused: false,
                });
            }
            Step::Name { key, fragment } => {
                if !self.room(fragment.len()) {
                    return;
                }
                // Its stream takes no more of the name once the arguments began.
                if let Some(call) = self.call_mut(key) {
                    call.stream.feed_name(&fragment);
                }
            }
            Step::Arguments { key, fragment } => {
                if !self.room(fragment.len()) {
                    return;
                }
                if let Some(call) = self.call_mut(key) {
                    call.stream.feed_arguments(&fragment);
                }
            }
            Step::Whole {
                id,
                name,
                arguments,
                part,
            } => {
                if !self.room(event_len) {
                    return;
                }
                let mut stream = self.gate.stream_call();
                stream.feed_name(&name);
                stream.feed_arguments(&arguments);
                let body = Body::Call(self.calls.len());
                self.elements.push(Element { key: None, body });
                self.calls.push(Streamed {
                    id,
                    item: None,
                    part: Some(part),
                    stream,
                    refused: false,
                });
            }
            Step::Text { key, text } => {
                let fits = self.room(text.len());
                let at = match key {
                    Some(key) => self.elements.iter().position(|e| e.key == Some(key)),
                    None => self
                        .elements
                        .len()
                        .checked_sub(1)
                        .filter(|&last| self.keyless_text(last)),
                };
                match at.and_then(|at| self.elements.get_mut(at)) {
                    Some(Element {
                        body: Body::Text(kept),
                        ..
                    }) if fits => kept.push_str(&text),
                    Some(_) => {}
                    None if fits => self.elements.push(Element {
                        key,
                        body: Body::Text(text),
                    }),
                    None => {}
                }
            }
            Step::Other { key, item } => {
                if self.room(event_len) {
                    let body = Body::Other(item);
                    self.elements.push(Element { key, body });
                }
            }
            Step::Stop { reason, status } => {
                self.stop = reason.or(self.stop.take());
                self.status = status.or(self.status.take());
            }
        }
    }

    /// Whether the element at `at` is text no event names (OpenAI's `content`, a Gemini
    /// text part), which the next keyless text continues.
    fn keyless_text(&self, at: usize) -> bool {
        self.elements
            .get(at)
            .is_some_and(|e| e.key.is_none() && matches!(e.body, Body::Text(_)))
    }

    fn call_mut(&mut self, key: u64) -> Option<&mut Streamed<'g>> {
        let element = self.elements.iter().find(|e| e.key == Some(key))?;
        match element.body {
            Body::Call(index) => self.calls.get_mut(index),
            _ => None,
        }
    }

    /// Adds every call newly refused to [`TurnStream::refusals`].
    fn note_refusals(&mut self) {
        for (index, call) in self.calls.iter_mut().enumerate() {
            if call.refused {
                continue;
            }
            let Progress::Refused { at, .. } = call.stream.progress() else {
                continue;
            };
            call.refused = true;
            if let Some(rejection) = call.stream.rejection(call.id.as_deref()) {
                self.refusals.push(Refusal {
                    index,
                    id: call.id.clone(),
                    rejection,
                    at,
                });
            }
        }
    }
}

impl Streamed<'_> {
    /// The call's name so far.
    fn name(&self) -> &str {
        self.stream.provider_parts().0
    }

    /// The call's arguments text so far.
    fn arguments(&self) -> &str {
        self.stream.provider_parts().1
    }
}

impl std::fmt::Debug for TurnStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnStream")
            .field("form", &self.form)
            .field("events", &self.fed)
            .field("calls", &self.calls.len())
            .field("refusals", &self.refusals)
            .finish()
    }
}
