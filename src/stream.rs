//! The streaming check: a call checked while its text arrives, chunk by chunk, answering
//! after each chunk whether it is still [`Progress::Pending`] or already
//! [`Progress::Refused`].
//!
//! Why refuse early: a model writes a tool call token by token, and an agent pays for every
//! token it lets the model write. Once no ending of the text so far could be accepted (an
//! unknown tool, `{"city": 42` for a string field, a key the tool does not take, text that is
//! not JSON), the rest of the call is wasted: the agent can cancel the generation at that
//! byte and send the rejection at once, instead of waiting for a closing brace that changes
//! nothing.
//!
//! A [`CallStream`] takes one of two forms, fixed by its first feed:
//! - the raw call text in chunks ([`CallStream::feed`]), in any shape [`Gate::check_call`]
//!   reads;
//! - the provider's streaming form ([`CallStream::feed_name`], then
//!   [`CallStream::feed_arguments`]): the name first, then the arguments text in fragments,
//!   as OpenAI's `function.arguments` deltas and Anthropic's `input_json_delta.partial_json`
//!   give them.
//!
//! Two promises, tested over every prefix of the corpus:
//! - **never too early**: a prefix is refused only when no completion of it is accepted;
//! - **the same last word**: [`CallStream::finish`] is [`Gate::check_call`]'s answer, byte
//!   for byte. It is computed by running `check_call` on the text kept (the raw text, or for
//!   the provider form the plain call `{"name":…,"arguments":"…"}` assembled from the
//!   fragments, which is the call the provider would have delivered whole), not by reusing
//!   the incremental state: the gates' order (JSON first, then the envelope, the name, the
//!   object, the spec) decides which of several problems is reported, and only the whole
//!   text knows them all.
//!
//! How the early answer is found: the one resumable [`Reader`] is fed each chunk as it comes
//! (malformed JSON is refused at its first bad byte), and the arguments' events go, as they
//! come, into the tool's [`Validation`], whose [`Validation::refused`] says whether the
//! arguments so far can still be accepted. The validation outlives the chunks, so it is fed
//! events that own their text: a string's text arrives as characters.
//!
//! In the raw form the shape of the envelope decides which members count, and a member read
//! later can change it (a `"type":"function"` after a top-level `"name"` makes that name one
//! toolgate ignores). So a raw call is refused for its name and arguments only once its
//! shape is fixed by its member `"type"` (the envelope's first test, and a second `"type"`
//! is a repeated key): `"tool_use"` (Anthropic; its `name` and `input` then count, whatever
//! follows), `"function_call"` (Responses; its `name` counts) or `"function"` (OpenAI chat;
//! `function.name` counts). Arguments given as text (OpenAI's, Responses') are not yet
//! checked while they stream in the raw form (the provider form checks them). Shapes without
//! `"type"` (plain, Gemini) are refused early only for malformed JSON, and always at
//! [`CallStream::finish`]. The provider form has no such doubt: the name is complete when the
//! arguments begin.
//!
//! A number, `true`, `false` or `null` is seen by the reader once its token ends (`4` may
//! go on as `42` or `4.5`), so a number where a string belongs is refused at its first byte's
//! offset, but in the answer to the chunk that ends it (the delimiter after it). Strings and
//! keys are seen as they arrive: an unknown key when it closes, a string past `maxLength` (or
//! longer than any value of its bounded `format`: a `date` past 10 bytes) or
//! no longer a prefix of any `enum` value at the character that shows it, as the
//! [`Validation`] decides.
//!
//! Memory is bounded per call: the text kept is cut just past [`Limits::max_bytes`]
//! (a longer call is refused as too large anyway, at the same byte), and the validation's
//! own stacks are bounded as [`Validation`] documents.
//!
//! [`Limits::max_bytes`]: crate::json::Limits::max_bytes

use crate::envelope::Call;
use crate::gate::Gate;
use crate::json::{Event, Number, Reader, Sink, Stop};
use crate::rejection::{Rejection, RejectionKind};
use crate::spec::validate::Validation;
use std::borrow::Cow;
use std::ops::ControlFlow;

/// The answer after a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Some completion of the text so far could still be accepted.
    Pending,
    /// No completion of the text so far can be accepted.
    Refused {
        /// The byte offset of the first byte of the token that settled it: the bad byte of
        /// malformed JSON, the first byte of the value or key that cannot be accepted (the
        /// `4` of `{"city": 42`, the opening quote of an unknown name or key, or of a string
        /// past its `maxLength`). In the raw form it counts bytes of the raw call; in the
        /// provider form bytes of the arguments text (0 for an unknown name).
        at: usize,
        /// Why, as the gate that refused it sees it. [`CallStream::finish`] may still report
        /// an earlier gate's rejection if the rest of the text breaks one (the JSON gate
        /// comes first): this is why the text *so far* is refused.
        kind: RejectionKind,
    },
}

/// One call being checked as it streams: see the [module](self) docs.
///
/// ```
/// use toolgate::stream::Progress;
/// use toolgate::{Gate, RejectionKind, ToolSpec, Type};
///
/// let spec = ToolSpec::new("get_weather", "Current weather").required("city", Type::string());
/// let gate = Gate::new(vec![spec.build().unwrap()]).unwrap();
///
/// let mut stream = gate.stream_call();
/// assert_eq!(stream.feed_name("get_weather"), Progress::Pending);
/// assert_eq!(stream.feed_arguments(r#"{"city": "#), Progress::Pending);
/// // A number is read once it ends (`42` may go on as `421`)...
/// assert_eq!(stream.feed_arguments("42"), Progress::Pending);
/// // ...and then refused at its first byte.
/// assert_eq!(
///     stream.feed_arguments("}"),
///     Progress::Refused { at: 9, kind: RejectionKind::SchemaViolation }
/// );
/// let rejection = stream.finish().unwrap_err();
/// assert_eq!(rejection.to_string(), "get_weather rejected: city must be a string; received 42.");
/// ```
pub struct CallStream<'g> {
    gate: &'g Gate,
    form: Form,
    /// The raw call text, or (provider form) the name.
    kept: String,
    /// The provider form's arguments text.
    arguments: String,
    /// Whether the kept text stopped growing at the size limit.
    cut: bool,
    reader: Reader,
    probe: Probe<'g>,
    refused: Option<(usize, RejectionKind)>,
}

impl std::fmt::Debug for CallStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallStream")
            .field("form", &self.form)
            .field("kept_bytes", &(self.kept.len() + self.arguments.len()))
            .field("progress", &self.progress())
            .finish()
    }
}

/// Which form the stream was fed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Nothing fed yet.
    Unset,
    Raw,
    /// The provider form, still taking the name.
    Name,
    /// The provider form, taking the arguments text.
    Arguments,
}

impl Gate {
    /// A streaming check of one call against this gate's specs, to be fed as the call
    /// arrives ([`CallStream`]).
    pub fn stream_call(&self) -> CallStream<'_> {
        CallStream {
            gate: self,
            form: Form::Unset,
            kept: String::new(),
            arguments: String::new(),
            cut: false,
            reader: Reader::new(self.limits()),
            probe: Probe::new(self),
            refused: None,
        }
    }
}

impl<'g> CallStream<'g> {
    /// The next chunk of the raw call text (any shape [`Gate::check_call`] reads). A chunk
    /// may end anywhere, inside a character or an escape.
    ///
    /// A stream fed in the provider form takes no raw chunks: this one is ignored and the
    /// answer so far is returned.
    pub fn feed(&mut self, chunk: &str) -> Progress {
        match self.form {
            Form::Unset | Form::Raw => self.form = Form::Raw,
            Form::Name | Form::Arguments => return self.progress(),
        }
        keep(
            &mut self.kept,
            &mut self.cut,
            chunk,
            self.gate.limits().max_bytes,
        );
        if self.refused.is_none() {
            let read = self.reader.feed_str(chunk, &mut self.probe);
            self.note(read);
        }
        self.progress()
    }

    /// The next fragment of the tool's name (provider form). The name is complete when the
    /// first arguments fragment arrives.
    ///
    /// A stream whose arguments have begun, or fed raw text, ignores it.
    pub fn feed_name(&mut self, fragment: &str) -> Progress {
        match self.form {
            Form::Unset | Form::Name => self.form = Form::Name,
            Form::Raw | Form::Arguments => return self.progress(),
        }
        keep(
            &mut self.kept,
            &mut self.cut,
            fragment,
            self.gate.limits().max_bytes,
        );
        self.progress()
    }

    /// The next fragment of the arguments text (provider form): OpenAI's
    /// `function.arguments` delta, Anthropic's `input_json_delta.partial_json`. The first one
    /// completes the name, which is refused at once if no tool has it.
    ///
    /// A stream fed raw text ignores it.
    pub fn feed_arguments(&mut self, fragment: &str) -> Progress {
        match self.form {
            Form::Unset | Form::Name => {
                self.form = Form::Arguments;
                match self.gate.spec(&self.kept) {
                    Some(spec) => self.probe.args = Some(Args::new(spec.params().validation())),
                    None => self.refused = Some((0, RejectionKind::UnknownTool)),
                }
            }
            Form::Arguments => {}
            Form::Raw => return self.progress(),
        }
        keep(
            &mut self.arguments,
            &mut self.cut,
            fragment,
            self.gate.limits().max_bytes,
        );
        if self.refused.is_none() {
            let mut sink = ArgsSink {
                probe: &mut self.probe,
            };
            let read = self.reader.feed_str(fragment, &mut sink);
            self.note(read);
        }
        self.progress()
    }

    /// The answer so far.
    pub fn progress(&self) -> Progress {
        match self.refused {
            Some((at, kind)) => Progress::Refused { at, kind },
            None => Progress::Pending,
        }
    }

    /// The call is complete: [`Gate::check_call`]'s answer on it, byte for byte (on the raw
    /// text, or in the provider form on the plain call `{"name":…,"arguments":"…"}` with the
    /// name and the arguments text as JSON strings).
    ///
    /// # Errors
    /// As [`Gate::check_call`]; a stream fed nothing is [`Rejection::TruncatedJson`].
    pub fn finish(self) -> Result<Call<'static>, Rejection> {
        let text = match self.form {
            Form::Unset | Form::Raw => self.kept,
            Form::Name | Form::Arguments => plain_call(&self.kept, &self.arguments),
        };
        self.gate.check_call(&text).map(Call::into_owned)
    }

    /// Records the reader's stop, if any, as the refusal.
    fn note(&mut self, read: Result<(), Stop>) {
        match read {
            Ok(()) => {}
            Err(Stop::Invalid(error)) if !error.is_truncated() => {
                self.refused = Some((error.offset(), RejectionKind::MalformedJson));
            }
            // Truncation is never final; a sink stops only when it refused.
            Err(Stop::Invalid(_)) => {}
            Err(Stop::Sink) => {}
        }
        if self.refused.is_none() {
            self.refused = self.probe.refused;
        }
    }
}

/// The first allocation of the kept text: most calls fit.
const KEPT_START: usize = 512;

/// Appends `chunk` to `kept` while `kept` is at most `max_bytes` long (then a few bytes
/// more, to end on a character): past that the reader refuses the call as too large
/// whatever follows, so nothing more is needed to give `check_call`'s answer.
fn keep(kept: &mut String, cut: &mut bool, chunk: &str, max_bytes: usize) {
    if *cut {
        return;
    }
    if kept.capacity() == 0 {
        // One allocation for a typical call, rather than one per doubling from 16 bytes.
        kept.reserve(KEPT_START.min(max_bytes));
    }
    let room = max_bytes.saturating_add(1).saturating_sub(kept.len());
    if chunk.len() <= room {
        kept.push_str(chunk);
        return;
    }
    let mut end = room;
    while !chunk.is_char_boundary(end) && end < chunk.len() {
        end = end.saturating_add(1);
    }
    kept.push_str(chunk.get(..end).unwrap_or(chunk));
    *cut = true;
}

/// The plain call the provider form stands for.
fn plain_call(name: &str, arguments: &str) -> String {
    let mut text = String::with_capacity(name.len() + arguments.len() + 32);
    text.push_str("{\"name\":");
    let _ = crate::json::write_escaped_str(&mut text, name);
    text.push_str(",\"arguments\":");
    let _ = crate::json::write_escaped_str(&mut text, arguments);
    text.push('}');
    text
}

/// The raw form's sink: follows the envelope far enough to know when its shape is fixed,
/// the name that counts in it, and where its arguments are, and feeds those to [`Args`].
struct Probe<'g> {
    gate: &'g Gate,
    /// Containers open, the envelope included.
    depth: usize,
    /// The top-level member whose value comes next, or is being read.
    member: Member,
    /// Inside the `function` member, the key just read is `name`.
    inner_name_next: bool,
    /// The shape, once fixed by the member `"type"` (the first one: a second is a repeated
    /// key, refused whatever it says).
    shape: Fixed,
    type_seen: bool,
    /// A string value being collected (the type or a name), and where it began.
    collected: String,
    collected_at: usize,
    /// The top-level name and `function.name`, once read, with their offsets (kept until
    /// the shape says which one counts).
    top_name: Option<(String, usize)>,
    inner_name: Option<(String, usize)>,
    /// The name that counts has been looked up.
    named: bool,
    /// The arguments' check, once the tool is known.
    args: Option<Args<'g>>,
    /// The arguments' value is being fed to `args`.
    in_args: bool,
    /// The first refusal.
    refused: Option<(usize, RejectionKind)>,
}

/// What a top-level member's value is to the probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Member {
    None,
    Type,
    Name,
    Input,
    Function,
}

/// How far the raw shape is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fixed {
    /// Not fixed: only malformed JSON is refused early.
    No,
    /// Anthropic's `tool_use`: `name` and `input` count.
    Anthropic,
    /// Responses' `function_call`: `name` counts (its arguments are text).
    Responses,
    /// OpenAI chat's `function`: `function.name` counts (its arguments are text).
    OpenAiChat,
}

impl<'g> Probe<'g> {
    fn new(gate: &'g Gate) -> Probe<'g> {
        Probe {
            gate,
            depth: 0,
            member: Member::None,
            inner_name_next: false,
            shape: Fixed::No,
            type_seen: false,
            collected: String::new(),
            collected_at: 0,
            top_name: None,
            inner_name: None,
            named: false,
            args: None,
            in_args: false,
            refused: None,
        }
    }

    fn refuse(&mut self, at: usize, kind: RejectionKind) -> ControlFlow<()> {
        self.refused = Some((at, kind));
        ControlFlow::Break(())
    }

    /// A string value the probe reads (the type or a name) is complete.
    fn string_value(&mut self) -> ControlFlow<()> {
        let text = std::mem::take(&mut self.collected);
        let at = self.collected_at;
        if self.depth == 2 {
            self.inner_name_next = false;
            if self.inner_name.is_none() {
                self.inner_name = Some((text, at));
            }
        } else if self.member == Member::Type {
            if !self.type_seen {
                self.type_seen = true;
                self.shape = match text.as_str() {
                    "tool_use" => Fixed::Anthropic,
                    "function_call" => Fixed::Responses,
                    "function" => Fixed::OpenAiChat,
                    _ => Fixed::No,
                };
            }
        } else if self.top_name.is_none() {
            self.top_name = Some((text, at));
        }
        self.look_up()
    }

    /// Once the shape is fixed and the name that counts in it is read: is it a tool?
    fn look_up(&mut self) -> ControlFlow<()> {
        if self.named {
            return ControlFlow::Continue(());
        }
        let name = match self.shape {
            Fixed::No => return ControlFlow::Continue(()),
            Fixed::Anthropic | Fixed::Responses => &self.top_name,
            Fixed::OpenAiChat => &self.inner_name,
        };
        let Some((name, at)) = name else {
            return ControlFlow::Continue(());
        };
        self.named = true;
        match self.gate.spec(name) {
            // Anthropic's `input` is read here; an `input` read before the name is left for
            // the last word.
            Some(spec) if self.shape == Fixed::Anthropic => {
                self.args = Some(Args::new(spec.params().validation()));
                ControlFlow::Continue(())
            }
            Some(_) => ControlFlow::Continue(()),
            None => {
                let at = *at;
                self.refuse(at, RejectionKind::UnknownTool)
            }
        }
    }

    /// An event at the envelope's top level or in a member's value outside the arguments.
    fn outside(&mut self, event: Event<'_>, at: usize) -> ControlFlow<()> {
        let collecting = (self.depth == 1 && matches!(self.member, Member::Type | Member::Name))
            || (self.depth == 2 && self.member == Member::Function && self.inner_name_next);
        match event {
            Event::Key(key) if self.depth == 1 => {
                self.member = match key.as_ref() {
                    "type" => Member::Type,
                    "name" => Member::Name,
                    "function" => Member::Function,
                    "input" if self.shape == Fixed::Anthropic => Member::Input,
                    _ => Member::None,
                };
                if self.member == Member::Input {
                    if let Some(args) = &self.args {
                        // Only the first `input` is checked; a second is a repeated key.
                        self.in_args = !args.started;
                    }
                }
                ControlFlow::Continue(())
            }
            Event::Key(key) if self.depth == 2 && self.member == Member::Function => {
                self.inner_name_next = key.as_ref() == "name";
                ControlFlow::Continue(())
            }
            Event::String(text) if collecting => {
                self.collected.clear();
                self.collected.push_str(text);
                self.collected_at = at;
                self.string_value()
            }
            Event::StringStart if collecting => {
                self.collected.clear();
                self.collected_at = at;
                ControlFlow::Continue(())
            }
            Event::StringPart(text) if collecting => {
                self.collected.push_str(text);
                ControlFlow::Continue(())
            }
            Event::StringChar(c) if collecting => {
                self.collected.push(c);
                ControlFlow::Continue(())
            }
            Event::StringEnd if collecting => self.string_value(),
            Event::ObjectStart | Event::ArrayStart => {
                self.depth = self.depth.saturating_add(1);
                self.inner_name_next = false;
                ControlFlow::Continue(())
            }
            Event::ObjectEnd | Event::ArrayEnd => {
                self.depth = self.depth.saturating_sub(1);
                ControlFlow::Continue(())
            }
            _ => {
                if self.depth == 2 {
                    self.inner_name_next = false;
                }
                ControlFlow::Continue(())
            }
        }
    }
}

impl<'a> Sink<'a> for Probe<'_> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        if !self.in_args {
            return self.outside(event, at);
        }
        let Some(args) = &mut self.args else {
            return ControlFlow::Continue(());
        };
        // `null` arguments are absent ones (`{}`): left for the last word.
        if !args.started && matches!(event, Event::Null) {
            self.in_args = false;
            return ControlFlow::Continue(());
        }
        let verdict = args.event(event, at);
        if args.done {
            self.in_args = false;
        }
        match verdict {
            Some((at, kind)) => self.refuse(at, kind),
            None => ControlFlow::Continue(()),
        }
    }
}

/// The provider form's sink: every event is the arguments'.
struct ArgsSink<'p, 'g> {
    probe: &'p mut Probe<'g>,
}

impl<'a> Sink<'a> for ArgsSink<'_, '_> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        let Some(args) = &mut self.probe.args else {
            return ControlFlow::Continue(());
        };
        match args.event(event, at) {
            Some((at, kind)) => self.probe.refuse(at, kind),
            None => ControlFlow::Continue(()),
        }
    }
}

/// The arguments' check: gate 2 on their first event, then the tool's validation on every
/// event, asked after each whether the arguments so far are refused.
struct Args<'g> {
    validation: Validation<'g, 'static>,
    /// The first event has come.
    started: bool,
    /// The value is complete.
    done: bool,
    /// Containers open in the arguments.
    depth: usize,
    /// Where the string being read began: a refusal inside a string is at its start, so
    /// that where the chunks fell does not move it.
    string_at: usize,
}

impl<'g> Args<'g> {
    fn new(validation: Validation<'g, 'static>) -> Args<'g> {
        Args {
            validation,
            started: false,
            done: false,
            depth: 0,
            string_at: 0,
        }
    }

    /// Takes one event; the refusal, if the arguments so far are refused.
    fn event(&mut self, event: Event<'_>, at: usize) -> Option<(usize, RejectionKind)> {
        if self.done {
            return None;
        }
        if !self.started {
            self.started = true;
            if !matches!(event, Event::ObjectStart) {
                return Some((at, RejectionKind::ArgumentsNotObject));
            }
        }
        let mut ended = false;
        let settled_at = match &event {
            Event::ObjectStart | Event::ArrayStart => {
                self.depth = self.depth.saturating_add(1);
                at
            }
            Event::ObjectEnd | Event::ArrayEnd => {
                self.depth = self.depth.saturating_sub(1);
                ended = self.depth == 0;
                at
            }
            Event::String(_) | Event::StringStart => {
                self.string_at = at;
                at
            }
            Event::StringPart(_) | Event::StringChar(_) | Event::StringEnd => self.string_at,
            _ => at,
        };
        let flow = match event {
            Event::String(text) => {
                let _ = self.validation.event(Event::StringStart, at);
                let mut flow = ControlFlow::Continue(());
                for c in text.chars() {
                    flow = self.validation.event(Event::StringChar(c), at);
                    if flow.is_break() {
                        break;
                    }
                }
                if flow.is_continue() {
                    flow = self.validation.event(Event::StringEnd, at);
                }
                flow
            }
            Event::StringPart(text) => {
                let mut flow = ControlFlow::Continue(());
                for c in text.chars() {
                    flow = self.validation.event(Event::StringChar(c), at);
                    if flow.is_break() {
                        break;
                    }
                }
                flow
            }
            other => self.validation.event(owned(other), at),
        };
        if flow.is_break() || self.validation.refused() {
            return Some((settled_at, RejectionKind::SchemaViolation));
        }
        if ended {
            self.done = true;
            // Whole arguments that fail are refused, whatever follows them.
            if self.validation.finish().is_err() {
                return Some((settled_at, RejectionKind::SchemaViolation));
            }
        }
        None
    }
}

/// The event, owning its text (a string's text is not passed here: it goes as characters).
fn owned(event: Event<'_>) -> Event<'static> {
    match event {
        Event::Null => Event::Null,
        Event::Bool(value) => Event::Bool(value),
        Event::Number(number) => {
            Event::Number(Number::from_checked(Cow::Owned(number.as_str().to_owned())))
        }
        Event::StringChar(c) => Event::StringChar(c),
        Event::Key(key) => Event::Key(Cow::Owned(key.into_owned())),
        Event::ArrayStart => Event::ArrayStart,
        Event::ArrayEnd => Event::ArrayEnd,
        Event::ObjectStart => Event::ObjectStart,
        Event::ObjectEnd => Event::ObjectEnd,
        Event::StringStart | Event::String(_) | Event::StringPart(_) => Event::StringStart,
        Event::StringEnd => Event::StringEnd,
    }
}
