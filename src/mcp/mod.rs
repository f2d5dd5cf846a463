//! The MCP proxy's protocol logic: which client message goes on to the server, which the
//! proxy answers itself, and what the server's messages teach it. No I/O and no threads:
//! the command line (`toolgate mcp`) owns the processes and the pipes and hands each line
//! here, so every decision is tested with plain strings.
//!
//! An MCP client sends `tools/call` requests straight to a server, and many servers run
//! them without checking the arguments. The [`Proxy`] learns each tool's `inputSchema` from
//! the server's `tools/list` results (every page; forgotten at
//! `notifications/tools/list_changed`, learned again from the next listing) and runs each
//! `tools/call` through the [`Gate`](crate::Gate) before the server sees it. A refused call
//! is never forwarded: the client gets, under the request's id, a tool result with
//! `isError: true` whose text is the rejection's sentence (MCP 2025-11-25: input validation
//! errors are tool results, so the model can correct its call).
//!
//! ```
//! use toolgate::mcp::{Options, Proxy, Relay};
//!
//! let mut proxy = Proxy::new(Options::default());
//! // The client asks for the tools; the server answers; the proxy learns them.
//! assert_eq!(proxy.from_client(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#), Relay::Forward);
//! proxy.from_server(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add",
//!     "inputSchema":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}}]}}"#);
//! // A call that breaks the schema is answered by the proxy, never forwarded.
//! let call = br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":"one"}}}"#;
//! assert_eq!(
//!     proxy.from_client(call),
//!     Relay::Answer(r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"add rejected: a must be an integer; received \"one\"."}],"isError":true}}"#.into())
//! );
//! let fixed = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}"#;
//! assert_eq!(proxy.from_client(fixed), Relay::Forward);
//! ```
//!
//! What the proxy cannot read it does not pass on, because an unread message may be a
//! call: a client message that is not JSON (a lenient server might still run it: Python's
//! reader takes `NaN`), is over the size limit, or repeats a top-level key (two readers may
//! take different copies) is answered with a JSON-RPC error under its id when its first
//! bytes show a request, and dropped with a note otherwise. Server messages are always
//! relayed unchanged; one the proxy cannot read only goes unlearned.
//!
//! JSON-RPC batches were removed from MCP in 2025-06-18. A batch holding no `tools/call` is
//! forwarded unchanged (and said once); a batch holding one is answered with an error, since
//! forwarding it would run a call unchecked.

mod answer;
mod head;
mod listing;

pub use answer::{INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR};

use crate::counters::{Counters, Counts};
use crate::envelope::Call;
use crate::json::{self, preview, repeated_key, Limits, Member, Value, PREVIEW_CHARS};
use crate::registry::Outcome;
use crate::rejection::{EnvelopeProblem, Rejection, RejectionKind};
use listing::{learn_page, Known, Listing};
use std::borrow::Cow;
use std::collections::VecDeque;

/// The default size limit of one message, in bytes: a `tools/list` result with hundreds
/// of tools, or a resource read of a few megabytes, stays under it.
pub const DEFAULT_MAX_BYTES: usize = 16 << 20;

/// Requests of each kind the proxy remembers while it waits for their answers; beyond
/// this, the oldest is forgotten (a server that never answers cannot grow the proxy).
const MAX_PENDING: usize = 4096;

/// How the proxy answers and reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Answer a call to an unknown tool with a JSON-RPC error (`-32602`, the protocol-error
    /// reading of the spec) instead of a tool result with `isError: true`.
    pub protocol_errors: bool,
    /// The largest message read, in bytes; a client message over it is not forwarded.
    pub max_bytes: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            protocol_errors: false,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// What to do with one client message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relay {
    /// Send the line to the server unchanged, byte for byte.
    Forward,
    /// Do not forward it; write this line (without its newline) to the client.
    Answer(String),
    /// Do not forward it, and answer nothing: a notification or a response the proxy would
    /// not pass on (the note says why).
    Drop,
}

/// What the proxy decided about one `tools/call`, for a verdict log.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Checked and forwarded.
    Accepted {
        /// The client message's number, from 1.
        line: u64,
        /// The request's id as text: a string id's characters, a number as written.
        id: Option<String>,
        /// The tool called.
        tool: String,
    },
    /// Forwarded without a check: the tool's schema is not known.
    Unchecked {
        /// The client message's number, from 1.
        line: u64,
        /// The request's id as text: a string id's characters, a number as written.
        id: Option<String>,
        /// The tool called.
        tool: String,
    },
    /// Refused and answered by the proxy; the server never saw it.
    Refused {
        /// The client message's number, from 1.
        line: u64,
        /// Why; its id is the request's, as text.
        rejection: Rejection,
    },
}

/// One proxy session: what it learned of the server's tools, and what it counted.
#[derive(Debug)]
pub struct Proxy {
    options: Options,
    /// The tools of the current listing; `None` before any `tools/list` result and after
    /// `notifications/tools/list_changed`.
    listing: Option<Listing>,
    /// `tools/list` requests forwarded, by id (as JSON), and whether each began a listing
    /// (no cursor): a response carries only the id.
    lists: VecDeque<(String, bool)>,
    /// `tools/call` requests forwarded, by id, with their tool: the server's answer says
    /// whether the tool ran or failed.
    calls: VecDeque<(String, String)>,
    counters: Counters,
    unchecked: u64,
    client_lines: u64,
    server_lines: u64,
    said_batch: bool,
    notes: Vec<String>,
    verdicts: Vec<Verdict>,
}

impl Proxy {
    /// A proxy that knows no tools yet: every call passes unchecked until the first
    /// `tools/list` result.
    pub fn new(options: Options) -> Proxy {
        Proxy {
            options,
            listing: None,
            lists: VecDeque::new(),
            calls: VecDeque::new(),
            counters: Counters::new(),
            unchecked: 0,
            client_lines: 0,
            server_lines: 0,
            said_batch: false,
            notes: Vec::new(),
            verdicts: Vec::new(),
        }
    }

    /// Decides one line from the client (without its newline).
    ///
    /// A `tools/call` to a tool whose schema is known is checked; refused, it is answered
    /// under its id and not forwarded. A call to a name the complete listing lacks is
    /// refused with the gate's suggestions. A call to a tool whose schema is not known
    /// passes, counted in [`Proxy::unchecked`]. Every other readable message is forwarded.
    pub fn from_client(&mut self, line: &[u8]) -> Relay {
        self.client_lines = self.client_lines.saturating_add(1);
        if line.iter().all(u8::is_ascii_whitespace) {
            return Relay::Forward;
        }
        match json::parse_bytes_with(line, self.limits()) {
            Ok(Value::Object(members)) => self.client_message(line, &members),
            Ok(Value::Array(items)) => self.batch(&items),
            // JSON but no message: the server answers it as invalid; it runs nothing.
            Ok(_) => Relay::Forward,
            Err(error) => self.unreadable(line, &format!("is not JSON ({error})"), PARSE_ERROR),
        }
    }

    /// Decides a client line longer than the size limit, of `bytes` bytes, of which `head`
    /// (its first bytes) was kept: never forwarded, answered when `head` shows a request.
    pub fn from_client_too_long(&mut self, head: &[u8], bytes: u64) -> Relay {
        self.client_lines = self.client_lines.saturating_add(1);
        let why = format!(
            "is {bytes} bytes, over the limit of {}",
            self.options.max_bytes
        );
        self.unreadable(head, &why, INVALID_REQUEST)
    }

    /// Learns from one line from the server (without its newline). Server lines are
    /// always relayed unchanged; this only reads them.
    pub fn from_server(&mut self, line: &[u8]) {
        self.server_lines = self.server_lines.saturating_add(1);
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match json::parse_bytes_with(line, self.limits()) {
            Ok(Value::Object(members)) => self.server_message(&members),
            Ok(_) => {}
            Err(error) => self.notes.push(format!(
                "server message {} is not JSON ({error}); relayed unchanged",
                self.server_lines
            )),
        }
    }

    /// Notes a server line longer than the size limit, relayed unread.
    pub fn from_server_too_long(&mut self, bytes: u64) {
        self.server_lines = self.server_lines.saturating_add(1);
        self.notes.push(format!(
            "server message {} is {bytes} bytes, over the limit of {}: relayed unchanged, \
             unread (tools in it are not learned)",
            self.server_lines, self.options.max_bytes
        ));
    }

    /// The sentences for standard error since the last call: what was not forwarded, not
    /// readable, loaded leniently or not at all.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The verdicts on `tools/call` requests since the last call, in order.
    pub fn take_verdicts(&mut self) -> Vec<Verdict> {
        std::mem::take(&mut self.verdicts)
    }

    /// Calls refused by kind, and calls answered by the server as run (`dispatched`) or
    /// failed (`tool_failed`: an `isError` result or a JSON-RPC error). Retries are not
    /// told apart: a proxy cannot know which call corrects which.
    pub fn counts(&self) -> Counts {
        self.counters.snapshot()
    }

    /// Calls forwarded unchecked, because their tool's schema was not known.
    pub fn unchecked(&self) -> u64 {
        self.unchecked
    }

    /// The tools of the current listing whose schema loaded only leniently (checked, but
    /// not on the keywords the notes named), in listing order.
    pub fn lenient_tools(&self) -> &[String] {
        self.listing
            .as_ref()
            .map_or(&[], |listing| &listing.lenient)
    }

    /// The tools of the current listing whose schema could not be loaded: their calls
    /// pass unchecked.
    pub fn unloadable_tools(&self) -> &[String] {
        self.listing
            .as_ref()
            .map_or(&[], |listing| &listing.unloadable)
    }

    /// The counts as Prometheus text ([`Counts::prometheus`]), and the calls forwarded
    /// unchecked as `toolgate_mcp_unchecked_calls_total`: a rising count says a server
    /// whose schemas the proxy cannot read, or a client that calls before it lists.
    pub fn prometheus(&self) -> String {
        let mut text = self.counts().prometheus();
        text.push_str(
            "# HELP toolgate_mcp_unchecked_calls_total Tool calls the MCP proxy forwarded \
             without a check: their tool's schema was not known.\n\
             # TYPE toolgate_mcp_unchecked_calls_total counter\n",
        );
        text.push_str(&format!(
            "toolgate_mcp_unchecked_calls_total {}\n",
            self.unchecked
        ));
        text
    }

    fn limits(&self) -> Limits {
        Limits {
            max_bytes: self.options.max_bytes,
            ..Limits::default()
        }
    }

    /// A JSON-RPC object from the client.
    fn client_message(&mut self, line: &[u8], members: &[Member<'_>]) -> Relay {
        if let Some((key, _)) = repeated_key(members, |(key, _)| key).and_then(|i| members.get(i)) {
            let why = format!("gives the key \"{key}\" twice (readers may take either)");
            return self.unreadable(line, &why, INVALID_REQUEST);
        }
        let id = member(members, "id");
        match member(members, "method").and_then(Value::as_str) {
            Some("tools/call") => self.tools_call(member(members, "params"), id),
            Some("tools/list") => {
                if let Some(id) = id.map(ToString::to_string) {
                    let cursor = member(members, "params").and_then(|params| params.get("cursor"));
                    let fresh = cursor.map_or(true, Value::is_null);
                    push_bounded(&mut self.lists, (id, fresh));
                }
                Relay::Forward
            }
            _ => Relay::Forward,
        }
    }

    /// A `tools/call` request (or notification, without `id`).
    fn tools_call(&mut self, params: Option<&Value<'_>>, id_value: Option<&Value<'_>>) -> Relay {
        let line = self.client_lines;
        // The id as JSON answers and matches the server's answer; as text it names the
        // call in verdicts and rejections (a string id's characters, a number as written).
        let id = id_value.map(ToString::to_string);
        let id_text = id_value.map(|id| id.as_str().map_or_else(|| id.to_string(), String::from));
        let call = match read_params(params, id_text.clone()) {
            Ok(call) => call,
            Err(rejection) => return self.refuse(rejection, id),
        };
        let known = self
            .listing
            .as_ref()
            .map_or(Known::Unknown, |listing| listing.known(&call.name));
        let tool = call.name.to_string();
        let checked = match (&self.listing, known) {
            (Some(listing), Known::Checked | Known::Absent) => {
                listing.gate.checked(call).map(|_| ())
            }
            _ => {
                self.unchecked = self.unchecked.saturating_add(1);
                self.verdicts.push(Verdict::Unchecked {
                    line,
                    id: id_text,
                    tool: tool.clone(),
                });
                return self.forward_call(id, tool);
            }
        };
        match checked {
            Ok(()) => {
                self.verdicts.push(Verdict::Accepted {
                    line,
                    id: id_text,
                    tool: tool.clone(),
                });
                self.forward_call(id, tool)
            }
            Err(rejection) => self.refuse(rejection, id),
        }
    }

    /// Forwards a call, remembering it until the server answers.
    fn forward_call(&mut self, id: Option<String>, tool: String) -> Relay {
        if let Some(id) = id {
            push_bounded(&mut self.calls, (id, tool));
        }
        Relay::Forward
    }

    /// Answers a refused call under its id (a notification gets no answer).
    fn refuse(&mut self, rejection: Rejection, id: Option<String>) -> Relay {
        let text = rejection.to_string();
        let unknown = rejection.kind() == RejectionKind::UnknownTool;
        self.counters.record(&Outcome::Rejected {
            id: rejection.id().map(String::from),
            error: rejection.clone(),
            first_rejection: None,
        });
        self.verdicts.push(Verdict::Refused {
            line: self.client_lines,
            rejection,
        });
        match id {
            None => {
                self.notes.push(format!(
                    "client message {} is a tools/call notification that was refused: not \
                     forwarded, and a notification gets no answer ({text})",
                    self.client_lines
                ));
                Relay::Drop
            }
            Some(id) if unknown && self.options.protocol_errors => {
                Relay::Answer(answer::rpc_error(&id, INVALID_PARAMS, &text))
            }
            Some(id) => Relay::Answer(answer::tool_error(&id, &text)),
        }
    }

    /// A client message the proxy cannot read whole, so does not forward: answered with a
    /// JSON-RPC error under its id when its first bytes show a request (or with a `null`
    /// id when they show nothing, as JSON-RPC asks of a parse error), else dropped.
    fn unreadable(&mut self, bytes: &[u8], why: &str, code: i64) -> Relay {
        let line = self.client_lines;
        // The head is read whatever its length: it is what the proxy already holds.
        let limits = Limits {
            max_bytes: bytes.len(),
            ..Limits::default()
        };
        let head = head::read_head(bytes, limits);
        let text = format!("toolgate mcp: the message {why}; it was not forwarded.");
        let (relay, answered) = match (head.id, head.method) {
            (Some(id), true) => {
                let relay = Relay::Answer(answer::rpc_error(&id, code, &text));
                (relay, format!("answered under its id {id}"))
            }
            (None, false) => {
                let relay = Relay::Answer(answer::rpc_error("null", code, &text));
                (relay, String::from("answered with a null id"))
            }
            _ => (Relay::Drop, String::from("no answer (not a request)")),
        };
        self.notes.push(format!(
            "client message {line} {why}: not forwarded, {answered}"
        ));
        relay
    }

    /// A batch: forwarded when it holds no `tools/call`, else answered with an error.
    fn batch(&mut self, items: &[Value<'_>]) -> Relay {
        let holds_call = items
            .iter()
            .any(|item| item.get("method").and_then(Value::as_str) == Some("tools/call"));
        if holds_call {
            self.notes.push(format!(
                "client message {} is a batch holding a tools/call: not forwarded, answered \
                 with an error",
                self.client_lines
            ));
            let text = "toolgate mcp: a batch holding a tools/call is not forwarded (MCP \
                        has no batches since 2025-06-18, and each call must be checked); \
                        send each request on its own line.";
            return Relay::Answer(answer::rpc_error("null", INVALID_REQUEST, text));
        }
        if !self.said_batch {
            self.said_batch = true;
            self.notes.push(String::from(
                "the client sent a JSON-RPC batch (not part of MCP since 2025-06-18): \
                 batches without a tools/call are forwarded unread, and a tools/list in \
                 one is not learned",
            ));
        }
        Relay::Forward
    }

    /// A JSON-RPC object from the server: a listing's page, an answered call, or the
    /// tools changing.
    fn server_message(&mut self, members: &[Member<'_>]) {
        if let Some(method) = member(members, "method").and_then(Value::as_str) {
            if method == "notifications/tools/list_changed" {
                self.listing = None;
                self.notes.push(String::from(
                    "the server's tools changed: calls pass unchecked until the next \
                     tools/list result",
                ));
            }
            return;
        }
        let Some(id) = member(members, "id").map(ToString::to_string) else {
            return;
        };
        let result = member(members, "result");
        if let Some((_, fresh)) = take_pending(&mut self.lists, &id) {
            if let Some(result) = result {
                let notes = learn_page(&mut self.listing, result, fresh);
                self.notes.extend(notes);
            }
            return;
        }
        if let Some((_, tool)) = take_pending(&mut self.calls, &id) {
            let failed = result.map_or(true, |result| {
                result.get("isError").and_then(Value::as_bool) == Some(true)
            });
            let id = Some(id);
            let outcome = if failed {
                Outcome::ToolFailed {
                    id,
                    tool,
                    error: String::new(),
                    panicked: false,
                    first_rejection: None,
                }
            } else {
                Outcome::Dispatched {
                    id,
                    tool,
                    output: String::new(),
                    first_rejection: None,
                }
            };
            self.counters.record(&outcome);
        }
    }
}

/// The call a `tools/call` request makes, read as an MCP server reads it: `params.name`
/// and `params.arguments` (absent or `null` is `{}`), nothing else. The envelope's other
/// shapes are not tried: a server would not run `params.input`, so checking it would
/// check something else than what runs.
fn read_params<'a>(params: Option<&Value<'a>>, id: Option<String>) -> Result<Call<'a>, Rejection> {
    let bad = |problem| Rejection::BadEnvelope {
        id: id.clone(),
        problem,
    };
    let fields = match params {
        Some(Value::Object(fields)) => fields,
        Some(other) => {
            return Err(bad(EnvelopeProblem::WrongType {
                field: "params",
                expected: "an object",
                received: preview(other, PREVIEW_CHARS),
            }))
        }
        None => {
            return Err(bad(EnvelopeProblem::MissingName {
                field: "params.name",
            }))
        }
    };
    if let Some((key, _)) = repeated_key(fields, |(key, _)| key).and_then(|i| fields.get(i)) {
        return Err(bad(EnvelopeProblem::DuplicateKey {
            key: format!("params.{key}"),
        }));
    }
    let name = match member(fields, "name") {
        Some(Value::String(name)) => name.clone(),
        Some(other) => {
            return Err(bad(EnvelopeProblem::WrongType {
                field: "params.name",
                expected: "a string",
                received: preview(other, PREVIEW_CHARS),
            }))
        }
        None => {
            return Err(bad(EnvelopeProblem::MissingName {
                field: "params.name",
            }))
        }
    };
    let args = match member(fields, "arguments") {
        None | Some(Value::Null) => Value::Object(Vec::new()),
        Some(args) => args.clone(),
    };
    Ok(Call {
        id: id.map(Cow::Owned),
        name,
        args,
    })
}

/// The value of the member `key`.
fn member<'v, 'a>(members: &'v [Member<'a>], key: &str) -> Option<&'v Value<'a>> {
    members
        .iter()
        .find(|(name, _)| name == key)
        .map(|(_, value)| value)
}

/// Remembers one more pending request, forgetting the oldest beyond [`MAX_PENDING`].
fn push_bounded<T>(pending: &mut VecDeque<(String, T)>, entry: (String, T)) {
    if pending.len() >= MAX_PENDING {
        pending.pop_front();
    }
    pending.push_back(entry);
}

/// Takes the pending request answered under `id`.
fn take_pending<T>(pending: &mut VecDeque<(String, T)>, id: &str) -> Option<(String, T)> {
    let index = pending.iter().position(|(key, _)| key == id)?;
    pending.remove(index)
}
