//! The raw form's probe: the sink between the one reader and the arguments' validation,
//! which follows the envelope far enough to know when its shape is fixed, which name counts
//! and where the arguments are, and feeds them to the tool's [`Validation`] (an arguments
//! text through a second reader), noting the first refusal.

use super::piece_end;
use crate::envelope::Call;
use crate::gate::Gate;
use crate::json::{Event, Limits, Number, Reader, Sink, Stop, Value};
use crate::rejection::RejectionKind;
use crate::spec::validate::Validation;
use crate::spec::ToolSpec;
use std::borrow::Cow;
use std::ops::ControlFlow;

/// Where the byte at offset `at` of an arguments text stands in the raw call, whose string
/// literal holding the text opens at `quote`: the literal is read again, only on the way to
/// a refusal, through its escapes (a character an escape stands for is placed at the
/// escape).
pub(super) fn offset_in_call(raw: &[u8], quote: usize, at: usize) -> usize {
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
pub(super) struct Probe<'g> {
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
    pub(super) args: Option<Args<'g>>,
    /// The arguments' value is being fed to `args`.
    in_args: bool,
    /// The arguments text being read, when the arguments come as text.
    text: Option<Text>,
    /// An arguments text has begun (a second one is a repeated key).
    text_begun: bool,
    /// The first refusal.
    pub(super) refused: Option<(usize, RejectionKind)>,
    /// The refusal's offset is in the arguments text whose literal opens at this offset.
    pub(super) refused_in_text: Option<usize>,
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
    pub(super) fn new(gate: &'g Gate) -> Probe<'g> {
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

    /// A number begins at `at` and its token is still open: in the arguments (all of the
    /// provider form's text, or the raw form's arguments value once its shape is fixed), it
    /// is refused now if no number can stand there ([`Args::number_started`]). An arguments
    /// text inside the raw call has its own reader, and waits for the token's end.
    pub(super) fn number_started(&mut self, at: usize, provider_form: bool) {
        let in_args = provider_form || (self.in_args && self.text.is_none());
        if self.refused.is_some() || !in_args {
            return;
        }
        if let Some(refusal) = self.args.as_mut().and_then(|args| args.number_started(at)) {
            self.refused = Some(refusal);
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
    pub(super) fn validated(
        &self,
        gate: &'g Gate,
        call: &Call<'_>,
    ) -> Option<(&'g ToolSpec, bool)> {
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
pub(super) struct Feed<'p, 'g> {
    pub(super) args: &'p mut Option<Args<'g>>,
    pub(super) refused: &'p mut Option<(usize, RejectionKind)>,
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
pub(super) struct Args<'g> {
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
    /// The arguments text has ended; `read_whole` says the reader took all of it without an
    /// error. Gate 3's answer is in only if the value also ended, unrefused.
    pub(super) fn text_ended(&mut self, read_whole: bool) {
        self.whole = read_whole && self.done && !self.failed;
    }

    /// A number of the arguments begins at `at`, its token still open: refused now if no
    /// number can stand there (the refusal the number's end would give, at the same byte).
    pub(super) fn number_started(&mut self, at: usize) -> Option<(usize, RejectionKind)> {
        if !self.started || self.done || self.failed || !self.validation.refused_if_number_next() {
            return None;
        }
        self.failed = true;
        Some((at, RejectionKind::SchemaViolation))
    }

    pub(super) fn new(spec: &'g ToolSpec) -> Args<'g> {
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
