//! The streaming check: a call checked while its text arrives, chunk by chunk, answering
//! after each chunk whether it is still [`Progress::Pending`] or already
//! [`Progress::Refused`].
//!
//! Why refuse early: a model writes a tool call token by token, and an agent pays for every
//! token it lets the model write. Once no ending of the text so far could be accepted (an
//! unknown tool, `{"city": 42` for a string field, a key the tool does not take, text that is
//! not JSON), the rest of the call is wasted: the agent can cancel the generation at that
//! byte and send the rejection at once.
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
//! - **never too early**: a prefix is refused only when no ending of it is accepted;
//! - **the same last word**: [`CallStream::finish`] is [`Gate::check_call`]'s answer on the
//!   text that arrived (the raw text, or for the provider form the plain call
//!   `{"name":…,"arguments":"…"}` its parts stand for), since the gates' order decides which
//!   of several problems is reported and only the whole text knows them all.
//!
//! How: the text goes, chunk by chunk, into the one JSON builder, which lends the tree it
//! has so far with what of it is still open (`json::Open`). After each
//! chunk that partial tree is read as an envelope far enough to know the name that counts
//! and where the arguments are (`judge.rs`; an arguments text has a builder of its own,
//! fed what arrives of its string), and the arguments are validated in the validator's
//! partial mode, which refuses only what no ending can mend: a key the tool does not take,
//! a value of the wrong kind (a number is refused while its digits still come where no
//! number can stand), a string past its `maxLength` or no longer the start of any `enum`
//! value. Missing fields and minimums are known only at the end.
//!
//! Where: [`Progress::Refused::at`] is the first byte of the token that settled the
//! refusal. A refused chunk is searched for the shortest refused prefix (halving, from
//! scratch: it happens once a stream), so the answer does not depend on where the chunks
//! fall. Memory is bounded per call: the text kept is cut just past
//! [`Limits::max_bytes`](crate::json::Limits::max_bytes) (a longer call is refused as too
//! large at that byte, and its rejection still gives the whole call's size).

mod judge;
mod place;
mod rejection;

use crate::envelope::Call;
use crate::gate::Gate;
use crate::json::ErrorKind;
use crate::rejection::{Rejection, RejectionKind};
use judge::Judge;

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
/// // A number's value is known once it ends (`42` may go on as `421`), but no number can
/// // be a city: refused at its first byte, while its token is still open.
/// assert_eq!(
///     stream.feed_arguments("42"),
///     Progress::Refused { at: 9, kind: RejectionKind::SchemaViolation }
/// );
/// // The answer stands whatever follows; the last word is the gate's on the whole text.
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
    /// The raw call, or the provider form's arguments text, cut just past the size limit.
    /// Always UTF-8 unless the raw call came as bytes.
    kept: Vec<u8>,
    /// The raw call came as bytes: the last word is [`Gate::check_call_bytes`]'.
    bytes: bool,
    /// The provider form's name.
    name: String,
    /// The kept text stopped growing at the size limit.
    cut: bool,
    /// How many bytes of the whole call were not kept (in the provider form, of the plain
    /// call it stands for): a too-large call's rejection gives the whole's size.
    dropped: usize,
    /// The reading of the text so far; none before it began, or once refused.
    judge: Option<Judge<'g>>,
    refused: Option<Refused>,
}

/// A stream's refusal: where it became certain, why, and the refused prefix.
#[derive(Clone, Copy, Debug)]
struct Refused {
    /// [`Progress::Refused::at`].
    at: usize,
    kind: RejectionKind,
    /// How many bytes of the kept text the shortest refused prefix holds: the text so far
    /// that [`CallStream::rejection`] answers for.
    prefix: usize,
}

impl std::fmt::Debug for CallStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallStream")
            .field("form", &self.form)
            .field("kept_bytes", &(self.kept.len() + self.name.len()))
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
            bytes: false,
            name: String::new(),
            cut: false,
            dropped: 0,
            judge: None,
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
        self.feed_raw(chunk.as_bytes())
    }

    /// The next chunk of the raw call as bytes, as a network stream delivers them: a chunk
    /// may end anywhere, inside a multi-byte character too. Bytes that are not UTF-8 are
    /// malformed JSON at the first of them. The last word is then
    /// [`Gate::check_call_bytes`]' on the whole, which is [`Gate::check_call`]'s when the
    /// bytes are UTF-8.
    ///
    /// A stream fed in the provider form ignores it, like [`CallStream::feed`].
    pub fn feed_bytes(&mut self, chunk: &[u8]) -> Progress {
        if matches!(self.form, Form::Unset | Form::Raw) {
            self.bytes = true;
        }
        self.feed_raw(chunk)
    }

    fn feed_raw(&mut self, chunk: &[u8]) -> Progress {
        match self.form {
            Form::Unset => {
                self.form = Form::Raw;
                self.judge = Some(Judge::new(self.gate, None));
            }
            Form::Raw => {}
            Form::Name | Form::Arguments => return self.progress(),
        }
        let seen = self.kept.len();
        self.keep(chunk, <[u8]>::len);
        self.read(seen);
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
        let max_bytes = self.gate.limits().max_bytes;
        let room = max_bytes.saturating_sub(self.name.len());
        let end = floor_char_boundary(fragment, room);
        self.name.push_str(fragment.get(..end).unwrap_or_default());
        let rest = fragment.get(end..).unwrap_or_default();
        self.dropped = self.dropped.saturating_add(escaped_len(rest.as_bytes()));
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
                    Some(spec) => self.judge = Some(Judge::new(self.gate, Some(spec))),
                    None => {
                        self.refused = Some(Refused {
                            at: 0,
                            kind: RejectionKind::UnknownTool,
                            prefix: 0,
                        })
                    }
                }
            }
            Form::Arguments => {}
            Form::Raw => return self.progress(),
        }
        let seen = self.kept.len();
        self.keep(fragment.as_bytes(), escaped_len);
        self.read(seen);
        self.progress()
    }

    /// The provider form's name and arguments text so far, as kept (both stop growing just
    /// past the size limit): what a turn stream writes into the whole form.
    pub(crate) fn provider_parts(&self) -> (&str, &str) {
        let arguments = match self.form {
            Form::Arguments => std::str::from_utf8(&self.kept).unwrap_or_default(),
            _ => "",
        };
        (&self.name, arguments)
    }

    /// The answer so far.
    pub fn progress(&self) -> Progress {
        match self.refused {
            Some(Refused { at, kind, .. }) => Progress::Refused { at, kind },
            None => Progress::Pending,
        }
    }

    /// The call is complete: [`Gate::check_call`]'s answer on it (on the raw text, or in
    /// the provider form on the plain call `{"name":…,"arguments":"…"}` with the name and
    /// the arguments text as JSON strings; on bytes fed with [`CallStream::feed_bytes`],
    /// [`Gate::check_call_bytes`]' answer).
    ///
    /// # Errors
    /// As [`Gate::check_call`]; a stream fed nothing is [`Rejection::TruncatedJson`].
    pub fn finish(self) -> Result<Call<'static>, Rejection> {
        let text = String::from_utf8_lossy(&self.kept);
        let plain;
        let checked = match self.form {
            Form::Unset | Form::Raw if self.bytes => self.gate.check_call_bytes(&self.kept),
            Form::Unset | Form::Raw => self.gate.check_call(&text),
            Form::Name | Form::Arguments => {
                plain = plain_call(&self.name, &text);
                self.gate.check_call(&plain)
            }
        };
        checked
            .map(Call::into_owned)
            .map_err(|rejection| whole_size(rejection, self.dropped))
    }

    /// Keeps `chunk` up to one byte past the size limit (and on to the end of a character
    /// cut there); what is not kept is counted by `measure`.
    fn keep(&mut self, chunk: &[u8], measure: fn(&[u8]) -> usize) {
        if self.cut {
            self.dropped = self.dropped.saturating_add(measure(chunk));
            return;
        }
        let room = self
            .gate
            .limits()
            .max_bytes
            .saturating_add(1)
            .saturating_sub(self.kept.len());
        let mut end = room.min(chunk.len());
        while chunk.get(end).is_some_and(|byte| byte & 0xC0 == 0x80) {
            end += 1;
        }
        let (kept, rest) = chunk.split_at(end.min(chunk.len()));
        self.kept.extend_from_slice(kept);
        self.cut = !rest.is_empty();
        self.dropped = self.dropped.saturating_add(measure(rest));
    }

    /// Reads what was kept past `seen` bytes; on a refusal, finds where it became certain.
    fn read(&mut self, seen: usize) {
        let Some(judge) = &mut self.judge else {
            return;
        };
        let Some(mut found) = judge.step(&self.kept, seen) else {
            return;
        };
        self.judge = None;
        // The text at `seen` bytes was not refused and all of it is: the shortest refused
        // prefix lies between, and its answer is the one a stream fed byte by byte gives.
        let (mut pending, mut refused) = (seen, self.kept.len());
        while refused - pending > 1 {
            let middle = pending + (refused - pending) / 2;
            match self.judge_prefix(middle) {
                Some(answer) => (refused, found) = (middle, answer),
                None => pending = middle,
            }
        }
        self.refused = Some(Refused {
            at: found.1,
            kind: found.0,
            prefix: refused,
        });
    }

    /// The answer on the first `len` bytes of the text, read from scratch.
    fn judge_prefix(&self, len: usize) -> Option<judge::Found> {
        let provider = match self.form {
            Form::Arguments => Some(self.gate.spec(&self.name)?),
            _ => None,
        };
        let prefix = self.kept.get(..len)?;
        Judge::new(self.gate, provider).step(prefix, 0)
    }
}

/// The largest char boundary of `text` at or before `at`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut end = at.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// A too-large call's rejection with the size of the whole call, not of the part kept.
fn whole_size(mut rejection: Rejection, dropped: usize) -> Rejection {
    if let Rejection::MalformedJson { error, .. } = &mut rejection {
        if let ErrorKind::TooLarge { size, .. } = &mut error.kind {
            *size = size.saturating_add(dropped);
        }
    }
    rejection
}

/// The length of `text` written as in a JSON string, without the quotes: what a part of the
/// provider form past the size limit adds to the plain call.
fn escaped_len(text: &[u8]) -> usize {
    let mut escaped = String::new();
    let _ = crate::json::write_escaped_str(&mut escaped, &String::from_utf8_lossy(text));
    escaped.len().saturating_sub(2)
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
