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
//! - the raw call in chunks, in any shape [`Gate::check_call`] reads: as text
//!   ([`CallStream::feed`]) or as bytes cut anywhere, inside a character too
//!   ([`CallStream::feed_bytes`], for a network stream);
//! - the provider's streaming form ([`CallStream::feed_name`], then
//!   [`CallStream::feed_arguments`]): the name first, then the arguments text in fragments,
//!   as OpenAI's `function.arguments` deltas and Anthropic's `input_json_delta.partial_json`
//!   give them.
//!
//! Two promises, tested over every prefix of the corpus:
//! - **never too early**: a prefix is refused only when no completion of it is accepted;
//! - **the same last word**: [`CallStream::finish`] is [`Gate::check_call`]'s answer, byte
//!   for byte, on the text kept (the raw text, or for the provider form the plain call
//!   `{"name":…,"arguments":"…"}` assembled from the fragments, which is the call the
//!   provider would have delivered whole). The envelope is read from that text, since the
//!   gates' order (JSON first, then the envelope, the name, the object, the spec) decides
//!   which of several problems is reported and only the whole text knows them all. Gate 3
//!   is not run twice: when it already accepted the whole arguments as they streamed (the
//!   shape was fixed before they began, so they are the ones the envelope takes), its
//!   answer stands, and only a call it did not settle is validated again.
//!
//! How the early answer is found: the one resumable [`Reader`] is fed each chunk as it comes
//! (malformed JSON is refused at its first bad byte), and the arguments' events go, as they
//! come, into the tool's [`Validation`], whose [`Validation::refused`] says whether the
//! arguments so far can still be accepted. The validation outlives the chunks, so a
//! string's text goes into it as runs it copies where it keeps them
//! ([`Validation::string_text`]), and keys and numbers as owned events.
//!
//! In the raw form the shape of the envelope decides which members count, and a member read
//! later can change it (a `"type":"function"` after a top-level `"name"` makes that name one
//! toolgate ignores). So a raw call is refused for its name and arguments only once its
//! shape is fixed by its member `"type"` (the envelope's first test, and a second `"type"`
//! is a repeated key): `"tool_use"` (Anthropic; its `name` and `input` then count, whatever
//! follows), `"function_call"` (Responses; its `name` and the text in `arguments` count) or
//! `"function"` (OpenAI chat; `function.name` and the text in `function.arguments` count).
//! The name that counts is refused as soon as no tool's name starts with what has arrived
//! of it (`"get_wea` may still become `get_weather`; `"get_wez` cannot), at its opening
//! quote. Arguments given as text are read through the literal's escapes by a second
//! reader, fed the literal's pieces as the first reader produces them, so they are checked
//! like an object; a refusal inside the text is placed where its token stands in the call
//! (a character an escape stands for, at the escape). A text cut short is refused only
//! once its literal closes. Arguments that come before the name, or before `"type"`, are
//! left for [`CallStream::finish`]. Shapes without `"type"` (plain, Gemini) are refused
//! early only for malformed JSON: a `"type":"function"` with a `function` member could
//! still follow and make the call an accepted one whatever its top-level name and
//! arguments say. The provider form has no such doubt: the name is complete when the
//! arguments begin.
//!
//! A number, `true`, `false` or `null` is seen by the reader once its token ends (`4` may
//! go on as `42` or `4.5`), so a number where a string belongs is refused at its first byte's
//! offset, but in the answer to the chunk that ends it (the delimiter after it). Strings and
//! keys are seen as they arrive: an unknown key when it closes, a string past `maxLength` (or
//! longer than any value of its bounded `format`: a `date` past 10 bytes) or no longer a
//! prefix of any `enum` value at the chunk that shows it (the refusal at the string's
//! opening quote), as the [`Validation`] decides. Missing required fields, and `minLength`
//! or `minimum` not reached, are known only when their object or value ends.
//!
//! Memory is bounded per call: the text kept is cut just past [`Limits::max_bytes`]
//! (a longer call is refused as too large anyway, at the same byte, and its rejection still
//! gives the whole call's size), and the validation's own stacks are bounded as
//! [`Validation`] documents.
//!
//! [`Limits::max_bytes`]: crate::json::Limits::max_bytes

use crate::envelope::{self, Call};
use crate::gate::{self, Gate};
use crate::json::{ErrorKind, Event, Limits, Number, Reader, Sink, Stop, Value};
use crate::rejection::{Rejection, RejectionKind};
use crate::spec::validate::Validation;
use crate::spec::ToolSpec;
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
        /// past its `maxLength`). In the raw form it counts bytes of the raw call (for a
        /// token inside an arguments text, where that token stands in the call's string
        /// literal); in the provider form bytes of the arguments text (0 for an unknown
        /// name).
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
    /// The raw call's bytes (raw form).
    kept: Vec<u8>,
    /// The provider form's name.
    name: String,
    /// The provider form's arguments text.
    arguments: String,
    /// Whether the kept text stopped growing at the size limit.
    cut: bool,
    /// How many bytes of the whole call were not kept (in the provider form, of the plain
    /// call it stands for): the size a too-large call's rejection gives is the whole's.
    dropped: usize,
    reader: Reader,
    probe: Probe<'g>,
    refused: Option<(usize, RejectionKind)>,
}

impl std::fmt::Debug for CallStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.kept.len() + self.name.len() + self.arguments.len();
        f.debug_struct("CallStream")
            .field("form", &self.form)
            .field("kept_bytes", &kept)
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
            kept: Vec::new(),
            name: String::new(),
            arguments: String::new(),
            cut: false,
            dropped: 0,
            reader: Reader::new(self.limits()),
            probe: Probe::new(self),
            refused: None,
        }
    }
}

impl<'g> CallStream<'g> {
    /// The next chunk of the raw call text (any shape [`Gate::check_call`] reads). A chunk
    /// may end anywhere, inside an escape or a number; [`CallStream::feed_bytes`] takes
    /// chunks that end inside a character.
    ///
    /// A stream fed in the provider form takes no raw chunks: this one is ignored and the
    /// answer so far is returned.
    pub fn feed(&mut self, chunk: &str) -> Progress {
        if !self.take_raw(chunk.as_bytes()) {
            return self.progress();
        }
        // Nearly every chunk holds no control character: one piece (see `piece_end`).
        let controls = chunk.bytes().fold(false, |seen, byte| seen | (byte < 0x20));
        if !controls {
            let read = self.reader.feed_str(chunk, &mut self.probe);
            self.note(read);
            return self.progress();
        }
        let mut rest = chunk;
        while !rest.is_empty() && self.refused.is_none() {
            // Pieces end before an ASCII byte, so both are text.
            let end = piece_end(rest.as_bytes(), false);
            let (piece, after) = rest.split_at(end);
            let read = self.reader.feed_str(piece, &mut self.probe);
            self.note(read);
            rest = after;
        }
        self.progress()
    }

    /// The next chunk of the raw call as bytes, as a network stream delivers them: a chunk
    /// may end anywhere, inside a multi-byte character too (its bytes are joined with the
    /// next chunk's). Bytes that are not UTF-8 are malformed JSON at the first of them.
    /// The last word is then [`Gate::check_call_bytes`]' on the whole, which is
    /// [`Gate::check_call`]'s when the bytes are UTF-8.
    ///
    /// A stream fed in the provider form ignores it, like [`CallStream::feed`].
    pub fn feed_bytes(&mut self, chunk: &[u8]) -> Progress {
        if !self.take_raw(chunk) {
            return self.progress();
        }
        let mut rest = chunk;
        while !rest.is_empty() && self.refused.is_none() {
            let (piece, after) = rest.split_at(piece_end(rest, true));
            let read = self.reader.feed(piece, &mut self.probe);
            self.note(read);
            rest = after;
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
        let dropped = keep_text(
            &mut self.name,
            &mut self.cut,
            fragment,
            self.gate.limits().max_bytes,
        );
        self.dropped = self.dropped.saturating_add(dropped);
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
                match self.gate.spec(&self.name) {
                    Some(spec) => self.probe.args = Some(Args::new(spec)),
                    None => self.refused = Some((0, RejectionKind::UnknownTool)),
                }
            }
            Form::Arguments => {}
            Form::Raw => return self.progress(),
        }
        let dropped = keep_text(
            &mut self.arguments,
            &mut self.cut,
            fragment,
            self.gate.limits().max_bytes,
        );
        self.dropped = self.dropped.saturating_add(dropped);
        if self.refused.is_none() {
            let probe = &mut self.probe;
            let mut sink = Feed {
                args: &mut probe.args,
                refused: &mut probe.refused,
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
    /// name and the arguments text as JSON strings; on bytes fed with
    /// [`CallStream::feed_bytes`], [`Gate::check_call_bytes`]' answer).
    ///
    /// # Errors
    /// As [`Gate::check_call`]; a stream fed nothing is [`Rejection::TruncatedJson`].
    pub fn finish(mut self) -> Result<Call<'static>, Rejection> {
        if self.form == Form::Arguments && self.refused.is_none() {
            // The arguments text has ended: whether it was one whole JSON text is known now
            // (trailing whitespace is fine, a missing `}` is not).
            let probe = &mut self.probe;
            let mut sink = Feed {
                args: &mut probe.args,
                refused: &mut probe.refused,
            };
            let whole = self.reader.finish(&mut sink).is_ok();
            if let Some(args) = &mut probe.args {
                args.whole = whole && args.done && !args.failed;
            }
        }
        let plain;
        let raw = match self.form {
            Form::Unset | Form::Raw => self.kept.as_slice(),
            Form::Name | Form::Arguments => {
                plain = plain_call(&self.name, &self.arguments);
                plain.as_bytes()
            }
        };
        let call = match envelope::read_call_bytes(raw, self.gate.limits()) {
            Ok(call) => call,
            Err(rejection) => return Err(whole_size(rejection, self.dropped)),
        };
        let validated = match self.refused {
            None => self.probe.validated(self.gate, &call),
            Some(_) => None,
        };
        let call = match validated {
            // Gate 3 already ran on these very arguments as they arrived: running it again
            // on their value would only repeat its answer.
            Some((spec, read_absent)) => gate::admitted(spec, call, read_absent),
            None => self.gate.checked(call)?.1,
        };
        Ok(call.into_owned())
    }

    /// Starts or continues the raw form with `chunk`, kept; false if the stream is in the
    /// provider form or already refused (then nothing more is read).
    fn take_raw(&mut self, chunk: &[u8]) -> bool {
        match self.form {
            Form::Unset | Form::Raw => self.form = Form::Raw,
            Form::Name | Form::Arguments => return false,
        }
        let dropped = keep(
            &mut self.kept,
            &mut self.cut,
            chunk,
            self.gate.limits().max_bytes,
        );
        self.dropped = self.dropped.saturating_add(dropped);
        self.refused.is_none()
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
            if let Some((at, kind)) = self.probe.refused {
                let at = match self.probe.refused_in_text {
                    Some(quote) => offset_in_call(&self.kept, quote, at),
                    None => at,
                };
                self.refused = Some((at, kind));
            }
        }
    }
}

/// A rejection of the kept text as the whole text's: a call too large is refused with the
/// size of the whole, `dropped` bytes more than was kept.
fn whole_size(mut rejection: Rejection, dropped: usize) -> Rejection {
    if let Rejection::MalformedJson { error, .. } = &mut rejection {
        if let ErrorKind::TooLarge { size, .. } = &mut error.kind {
            *size = size.saturating_add(dropped);
        }
    }
    rejection
}

/// Where the first piece of a chunk that the reader is fed on its own ends: before the next
/// control character (after the first byte) and, for bytes, before the first byte that
/// cannot be UTF-8.
///
/// Why: the reader hands on a run of a string only once it has found where the run ends and
/// that it is UTF-8, so a control character or a bad byte inside a string is refused before
/// the run in front of it in the same chunk is read, though that run may settle the call
/// first (a name no tool has). Fed apart, the run is read first, as it is when a chunk ends
/// just there, and the answer does not depend on where the chunks fall. (Other malformed
/// bytes are refused in the order they come.)
fn piece_end(chunk: &[u8], bytes: bool) -> usize {
    let control = chunk
        .iter()
        .skip(1)
        .position(|&byte| byte < 0x20)
        .map_or(chunk.len(), |found| found + 1);
    let invalid = match bytes {
        true => match first_invalid(chunk) {
            0 => chunk.len(),
            at => at,
        },
        false => chunk.len(),
    };
    control.min(invalid).max(1)
}

/// Where the first byte of `chunk` that cannot be UTF-8 is (its length if none is): the
/// bytes that continue a character the last chunk began, and a character cut by the
/// chunk's end, are left to the reader.
fn first_invalid(chunk: &[u8]) -> usize {
    let lead = chunk
        .iter()
        .take(3)
        .take_while(|byte| *byte & 0xC0 == 0x80)
        .count();
    match std::str::from_utf8(chunk.get(lead..).unwrap_or_default()) {
        Err(error) if error.error_len().is_some() => lead + error.valid_up_to(),
        Ok(_) | Err(_) => chunk.len(),
    }
}

/// The first allocation of the kept text: most calls fit.
const KEPT_START: usize = 512;

/// Appends `chunk` to `kept` while `kept` is at most `max_bytes` long (then a few bytes
/// more, to end on a character): past that the reader refuses the call as too large
/// whatever follows, so nothing more is needed to give `check_call`'s answer.
fn keep(kept: &mut Vec<u8>, cut: &mut bool, chunk: &[u8], max_bytes: usize) -> usize {
    if *cut {
        return chunk.len();
    }
    if kept.capacity() == 0 {
        // One allocation for a typical call, rather than one per doubling from 16 bytes.
        kept.reserve(KEPT_START.min(max_bytes));
    }
    let end = kept_end(kept.len(), chunk, max_bytes);
    kept.extend_from_slice(chunk.get(..end).unwrap_or(chunk));
    *cut = end < chunk.len();
    chunk.len() - end.min(chunk.len())
}

/// [`keep`] for text (the provider form's name and arguments); what is not kept is
/// counted as it stands in the plain call, escaped.
fn keep_text(kept: &mut String, cut: &mut bool, chunk: &str, max_bytes: usize) -> usize {
    if *cut {
        return escaped_len(chunk);
    }
    if kept.capacity() == 0 {
        kept.reserve(KEPT_START.min(max_bytes));
    }
    let end = kept_end(kept.len(), chunk.as_bytes(), max_bytes);
    // `kept_end` ends before a byte that starts a character, so this is a boundary.
    kept.push_str(chunk.get(..end).unwrap_or(chunk));
    *cut = end < chunk.len();
    escaped_len(chunk.get(end..).unwrap_or_default())
}

/// The length of `text` written as in a JSON string (without the quotes). Only text past
/// the size limit is measured so.
fn escaped_len(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    let mut escaped = String::new();
    let _ = crate::json::write_escaped_str(&mut escaped, text);
    escaped.len().saturating_sub(2)
}

/// How much of `chunk` to keep after `kept` bytes: all of it while the total is at most one
/// byte past `max_bytes`, else up to that byte and on to the end of its character (a byte
/// that does not continue a UTF-8 sequence).
fn kept_end(kept: usize, chunk: &[u8], max_bytes: usize) -> usize {
    let room = max_bytes.saturating_add(1).saturating_sub(kept);
    if chunk.len() <= room {
        return chunk.len();
    }
    let mut end = room;
    while chunk.get(end).is_some_and(|byte| byte & 0xC0 == 0x80) {
        end = end.saturating_add(1);
    }
    end
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

/// Where the byte at offset `at` of an arguments text stands in the raw call, whose string
/// literal holding the text opens at `quote`: the literal is read again, only on the way to
/// a refusal, through its escapes (a character an escape stands for is placed at the
/// escape).
fn offset_in_call(raw: &[u8], quote: usize, at: usize) -> usize {
    /// Counts the text's bytes through the literal's pieces until `at` is reached.
    struct Find {
        at: usize,
        seen: usize,
        found: Option<usize>,
    }
    impl Find {
        fn piece(&mut self, len: usize, start: usize, one_place: bool) -> ControlFlow<()> {
            if self.at < self.seen.saturating_add(len) {
                let into = if one_place {
                    0
                } else {
                    self.at.saturating_sub(self.seen)
                };
                self.found = Some(start.saturating_add(into));
                return ControlFlow::Break(());
            }
            self.seen = self.seen.saturating_add(len);
            ControlFlow::Continue(())
        }
    }
    impl<'a> Sink<'a> for Find {
        fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
            match event {
                Event::String(run) => {
                    self.piece(run.len(), at.saturating_add(1), false)?;
                    self.found = Some(at.saturating_add(1).saturating_add(run.len()));
                    ControlFlow::Break(())
                }
                Event::StringPart(run) => self.piece(run.len(), at, false),
                Event::StringChar(c) => self.piece(c.len_utf8(), at, true),
                Event::StringEnd => {
                    self.found = Some(at);
                    ControlFlow::Break(())
                }
                _ => ControlFlow::Continue(()),
            }
        }
    }
    let mut find = Find {
        at,
        seen: 0,
        found: None,
    };
    let mut rest = raw.get(quote..).unwrap_or_default();
    let unlimited = Limits {
        max_bytes: usize::MAX,
        max_depth: 1,
    };
    let mut reader = Reader::new(unlimited);
    // In pieces, as the stream was fed, so that a bad byte after the place does not hide it.
    while !rest.is_empty() && find.found.is_none() {
        let (piece, after) = rest.split_at(piece_end(rest, true));
        if reader.feed(piece, &mut find).is_err() {
            break;
        }
        rest = after;
    }
    quote.saturating_add(find.found.unwrap_or(0))
}

/// The raw form's sink: follows the envelope far enough to know when its shape is fixed,
/// the name that counts in it, and where its arguments are, and feeds those to [`Args`]
/// (an arguments text through a second reader).
struct Probe<'g> {
    gate: &'g Gate,
    /// Containers open, the envelope included.
    depth: usize,
    /// The top-level member whose value comes next, or is being read.
    member: Member,
    /// Inside the `function` member, what the key just read names.
    inner: Inner,
    /// The shape, once fixed by the member `"type"` (the first one: a second is a repeated
    /// key, refused whatever it says).
    shape: Fixed,
    type_seen: bool,
    /// A string value being collected (the type or a name), and where it began.
    collected: String,
    collected_at: usize,
    /// The string being collected is the name that counts in the fixed shape: refused as
    /// soon as no tool's name starts with it.
    collecting_name: bool,
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
    /// The arguments text being read, when the arguments come as text.
    text: Option<Text>,
    /// An arguments text has begun (a second one is a repeated key).
    text_begun: bool,
    /// The first refusal.
    refused: Option<(usize, RejectionKind)>,
    /// The refusal's offset is in the arguments text whose literal opens at this offset.
    refused_in_text: Option<usize>,
}

/// What a top-level member's value is to the probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Member {
    None,
    Type,
    Name,
    /// Anthropic's `input`.
    Input,
    /// Responses' `arguments` (text).
    Arguments,
    Function,
}

/// What a key inside OpenAI chat's `function` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inner {
    None,
    Name,
    /// `function.arguments` (text).
    Arguments,
}

/// How far the raw shape is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fixed {
    /// Not fixed: only malformed JSON is refused early.
    No,
    /// Anthropic's `tool_use`: `name` and `input` count.
    Anthropic,
    /// Responses' `function_call`: `name` and the text in `arguments` count.
    Responses,
    /// OpenAI chat's `function`: `function.name` and the text in `function.arguments`
    /// count.
    OpenAiChat,
}

/// An arguments text being read by its own reader, fed the string literal's pieces.
struct Text {
    reader: Reader,
    /// Where the literal opens in the raw call.
    quote: usize,
}

impl<'g> Probe<'g> {
    fn new(gate: &'g Gate) -> Probe<'g> {
        Probe {
            gate,
            depth: 0,
            member: Member::None,
            inner: Inner::None,
            shape: Fixed::No,
            type_seen: false,
            collected: String::new(),
            collected_at: 0,
            collecting_name: false,
            top_name: None,
            inner_name: None,
            named: false,
            args: None,
            in_args: false,
            text: None,
            text_begun: false,
            refused: None,
            refused_in_text: None,
        }
    }

    fn refuse(&mut self, at: usize, kind: RejectionKind) -> ControlFlow<()> {
        self.refused = Some((at, kind));
        ControlFlow::Break(())
    }

    /// The tool's spec and whether gate 3 read a `null` as absent, if gate 3 accepted the
    /// whole arguments of `call` (the call the envelope read from the same text) as they
    /// streamed: their value ended, as a whole JSON text when they came as one, and the
    /// tool they were checked for is the one `call` names. The shape was fixed when they
    /// began, so they are the arguments the envelope took.
    fn validated(&self, gate: &'g Gate, call: &Call<'_>) -> Option<(&'g ToolSpec, bool)> {
        let args = self.args.as_ref()?;
        if self.refused.is_some() || !args.whole || args.validation.finish().is_err() {
            return None;
        }
        let spec = gate.spec(&call.name)?;
        let same = std::ptr::eq(spec, args.spec) && matches!(call.args, Value::Object(_));
        same.then(|| (spec, args.validation.read_absent()))
    }

    /// A string value the probe reads (the type or a name) is complete.
    fn string_value(&mut self) -> ControlFlow<()> {
        self.collecting_name = false;
        let text = std::mem::take(&mut self.collected);
        let at = self.collected_at;
        if self.depth == 2 {
            self.inner = Inner::None;
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

    /// Part of the name that counts has arrived: refused if no tool's name starts so.
    fn name_so_far(&mut self) -> ControlFlow<()> {
        if self.collecting_name && !self.gate.names_start_with(&self.collected) {
            let at = self.collected_at;
            return self.refuse(at, RejectionKind::UnknownTool);
        }
        ControlFlow::Continue(())
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
            // The arguments are checked from here on; arguments read before the name are
            // left for the last word.
            Some(spec) => {
                self.args = Some(Args::new(spec));
                ControlFlow::Continue(())
            }
            None => {
                let at = *at;
                self.refuse(at, RejectionKind::UnknownTool)
            }
        }
    }

    /// Whether the string value starting now is the name that counts in the fixed shape,
    /// not yet read.
    fn is_counted_name(&self) -> bool {
        match self.shape {
            Fixed::No => false,
            Fixed::Anthropic | Fixed::Responses => {
                self.depth == 1 && self.member == Member::Name && self.top_name.is_none()
            }
            Fixed::OpenAiChat => {
                self.depth == 2
                    && self.member == Member::Function
                    && self.inner == Inner::Name
                    && self.inner_name.is_none()
            }
        }
    }

    /// Whether the value starting now is the arguments text of the fixed shape, for a
    /// known tool, not yet begun.
    fn is_arguments_text(&self) -> bool {
        let place = (self.depth == 1 && self.member == Member::Arguments)
            || (self.depth == 2
                && self.member == Member::Function
                && self.inner == Inner::Arguments);
        place && !self.text_begun && self.args.as_ref().is_some_and(|args| !args.started)
    }

    /// A piece of the arguments text's literal, fed to its reader and on to [`Args`].
    fn text_piece(&mut self, event: Event<'_>, at: usize) -> ControlFlow<()> {
        let (Some(text), Some(_)) = (&mut self.text, &self.args) else {
            return ControlFlow::Continue(());
        };
        let mut sink = Feed {
            args: &mut self.args,
            refused: &mut self.refused,
        };
        // The end of the literal, just past its closing quote, once it has come.
        let (read, end) = match event {
            Event::String(run) => {
                let read = text.reader.feed_str(run, &mut sink);
                let close = at.saturating_add(run.len()).saturating_add(2);
                (
                    read.and_then(|()| text.reader.finish(&mut sink)),
                    Some(close),
                )
            }
            Event::StringPart(run) => (text.reader.feed_str(run, &mut sink), None),
            Event::StringChar(c) => (text.reader.feed_char(c, &mut sink), None),
            Event::StringEnd => (text.reader.finish(&mut sink), Some(at.saturating_add(1))),
            // Nothing else comes inside a string.
            _ => (Ok(()), None),
        };
        let quote = text.quote;
        let whole = read.is_ok();
        match read {
            // The text's own JSON error; a text cut short is refused only once it has
            // ended (the literal closed).
            Err(Stop::Invalid(error)) if end.is_some() || !error.is_truncated() => {
                let kind = if error.is_truncated() {
                    RejectionKind::TruncatedJson
                } else {
                    RejectionKind::MalformedJson
                };
                if self.refused.is_none() {
                    self.refused = Some((error.offset(), kind));
                }
            }
            Ok(()) | Err(Stop::Invalid(_) | Stop::Sink) => {}
        }
        if end.is_some() {
            self.text = None;
            if let Some(args) = &mut self.args {
                args.whole = whole && args.done && !args.failed;
            }
        }
        if self.refused.is_some() {
            self.refused_in_text = Some(quote);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// An event at the envelope's top level or in a member's value outside the arguments.
    fn outside(&mut self, event: Event<'_>, at: usize) -> ControlFlow<()> {
        let collecting = (self.depth == 1 && matches!(self.member, Member::Type | Member::Name))
            || (self.depth == 2 && self.member == Member::Function && self.inner == Inner::Name);
        match event {
            Event::Key(key) if self.depth == 1 => {
                self.member = match key.as_ref() {
                    "type" => Member::Type,
                    "name" => Member::Name,
                    "function" => Member::Function,
                    "input" if self.shape == Fixed::Anthropic => Member::Input,
                    "arguments" if self.shape == Fixed::Responses => Member::Arguments,
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
                self.inner = match key.as_ref() {
                    "name" => Inner::Name,
                    "arguments" if self.shape == Fixed::OpenAiChat => Inner::Arguments,
                    _ => Inner::None,
                };
                ControlFlow::Continue(())
            }
            Event::String(_) | Event::StringStart if self.is_arguments_text() => {
                self.text_begun = true;
                self.text = Some(Text {
                    reader: Reader::new(self.gate.limits()),
                    quote: at,
                });
                match event {
                    Event::String(_) => self.text_piece(event, at),
                    _ => ControlFlow::Continue(()),
                }
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
                self.collecting_name = self.is_counted_name();
                ControlFlow::Continue(())
            }
            Event::StringPart(text) if collecting => {
                self.collected.push_str(text);
                self.name_so_far()
            }
            Event::StringChar(c) if collecting => {
                self.collected.push(c);
                self.name_so_far()
            }
            Event::StringEnd if collecting => self.string_value(),
            Event::ObjectStart | Event::ArrayStart => {
                self.depth = self.depth.saturating_add(1);
                self.inner = Inner::None;
                ControlFlow::Continue(())
            }
            Event::ObjectEnd | Event::ArrayEnd => {
                self.depth = self.depth.saturating_sub(1);
                ControlFlow::Continue(())
            }
            _ => {
                if self.depth == 2 {
                    self.inner = Inner::None;
                }
                ControlFlow::Continue(())
            }
        }
    }
}

impl<'a> Sink<'a> for Probe<'_> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        if self.text.is_some() {
            return self.text_piece(event, at);
        }
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
            args.whole = !args.failed;
        }
        match verdict {
            Some((at, kind)) => self.refuse(at, kind),
            None => ControlFlow::Continue(()),
        }
    }
}

/// A sink whose every event is the arguments': the provider form's text, and an arguments
/// text read by its own reader in the raw form.
struct Feed<'p, 'g> {
    args: &'p mut Option<Args<'g>>,
    refused: &'p mut Option<(usize, RejectionKind)>,
}

impl<'a> Sink<'a> for Feed<'_, '_> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        let Some(args) = self.args else {
            return ControlFlow::Continue(());
        };
        match args.event(event, at) {
            Some(refusal) => {
                *self.refused = Some(refusal);
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        }
    }
}

/// The arguments' check: gate 2 on their first event, then the tool's validation on every
/// event, asked after each whether the arguments so far are refused.
struct Args<'g> {
    /// The tool they are checked for.
    spec: &'g ToolSpec,
    validation: Validation<'g, 'static>,
    /// The first event has come.
    started: bool,
    /// The value is complete.
    done: bool,
    /// The value was refused.
    failed: bool,
    /// The value is complete and not refused, and it was the whole of its text when it came
    /// as one: gate 3's answer on the call's arguments is in.
    whole: bool,
    /// Containers open in the arguments.
    depth: usize,
    /// Where the string being read began: a refusal inside a string is at its start, so
    /// that where the chunks fell does not move it.
    string_at: usize,
}

impl<'g> Args<'g> {
    fn new(spec: &'g ToolSpec) -> Args<'g> {
        Args {
            spec,
            validation: spec.params().validation(),
            started: false,
            done: false,
            failed: false,
            whole: false,
            depth: 0,
            string_at: 0,
        }
    }

    /// Takes one event; the refusal, if the arguments so far are refused (once: nothing
    /// after a refusal is read).
    fn event(&mut self, event: Event<'_>, at: usize) -> Option<(usize, RejectionKind)> {
        if self.done || self.failed {
            return None;
        }
        if !self.started {
            self.started = true;
            if !matches!(event, Event::ObjectStart) {
                self.failed = true;
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
        // A string's text goes in as it stands in the chunk, in one step, and is copied
        // only where the validation keeps it: the chunk does not live as long as the
        // validation.
        match event {
            Event::String(text) => {
                let _ = self.validation.event(Event::StringStart, at);
                self.validation.string_text(text);
                let _ = self.validation.event(Event::StringEnd, at);
            }
            Event::StringPart(text) => self.validation.string_text(text),
            other => {
                let _ = self.validation.event(owned(other), at);
            }
        }
        self.done = ended;
        // Whole arguments that fail are refused, whatever follows them.
        if self.validation.refused() || (ended && self.validation.finish().is_err()) {
            self.failed = true;
            return Some((settled_at, RejectionKind::SchemaViolation));
        }
        None
    }
}

/// The event, owning its text (a string's text is not passed here: it goes in as text).
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
