//! The raw form's probe: the sink between the one reader and the arguments' validation,
//! which follows the envelope far enough to know when its shape is fixed, which name counts
//! and where the arguments are, and feeds them to the tool's [`Validation`] (an arguments
//! text through a second reader), noting the first refusal.

use super::args::{Args, Source};
use super::piece_end;
use crate::envelope::Call;
use crate::gate::Gate;
use crate::json::{Event, Limits, Reader, Sink, Stop, Value};
use crate::rejection::RejectionKind;
use crate::spec::ToolSpec;
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

/// The room a name arriving in parts starts with: most tools' names are shorter.
const NAME_START: usize = 32;

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
    /// The arguments text being read, when the arguments come as text. Boxed: only a raw
    /// call in a shape with arguments text needs one, and in place its reader made every
    /// stream a third of a kilobyte larger to set up and to move (callgrind, provider-form
    /// streams: 36 instructions a call).
    text: Option<Box<Text>>,
    /// An arguments text has begun (a second one is a repeated key).
    text_begun: bool,
    /// The first refusal.
    pub(super) refused: Option<(usize, RejectionKind)>,
    /// The refusal's offset is in the arguments text whose literal opens at this offset.
    pub(super) refused_in_text: Option<usize>,
    /// Where the piece being read starts in the call, when it is text (an arguments
    /// literal that begins in it can then be read by the text's reader).
    pub(super) text_at: Option<usize>,
    /// The reader was broken at the opening quote of the arguments literal, at this
    /// offset, for its body to be read by the text's reader (`CallStream::read_str`).
    pub(super) literal_begins: Option<usize>,
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
    /// Not fixed: malformed JSON and an unknown top-level name are refused early.
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
            text_at: None,
            literal_begins: None,
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
        if self.refused.is_some() {
            return None;
        }
        let read_absent = args.accepted()?;
        let spec = gate.spec(&call.name)?;
        let same = std::ptr::eq(spec, args.spec) && matches!(call.args, Value::Object(_));
        same.then_some((spec, read_absent))
    }

    /// A string value the probe reads (the type or a name) is complete.
    fn string_value(&mut self) -> ControlFlow<()> {
        self.collecting_name = false;
        let at = self.collected_at;
        // Only a name is taken out; the type is read in place, and its room kept for the
        // name that follows.
        if self.depth == 2 {
            self.inner = Inner::None;
            if self.inner_name.is_none() {
                self.inner_name = Some((std::mem::take(&mut self.collected), at));
            }
        } else if self.member == Member::Type {
            if !self.type_seen {
                self.type_seen = true;
                self.shape = match self.collected.as_str() {
                    "tool_use" => Fixed::Anthropic,
                    "function_call" => Fixed::Responses,
                    "function" => Fixed::OpenAiChat,
                    _ => Fixed::No,
                };
            }
        } else if self.top_name.is_none() {
            self.top_name = Some((std::mem::take(&mut self.collected), at));
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
            // No shape yet, but a top-level name is the one that counts in every shape
            // that accepts one (beside a nested call object, the envelope refuses it): an
            // unknown one is refused now. A known one waits for the shape, which says where
            // the arguments are.
            Fixed::No => {
                return match &self.top_name {
                    Some((name, at)) if self.gate.spec(name).is_none() => {
                        let at = *at;
                        self.named = true;
                        self.refuse(at, RejectionKind::UnknownTool)
                    }
                    _ => ControlFlow::Continue(()),
                };
            }
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
                self.args = Some(Args::new(spec, self.gate.limits()));
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
            // Before the shape is fixed the top-level name is looked up when it closes
            // (`look_up`), not checked part by part: a plain call's name is nearly always
            // cut by a chunk, and the prefix checks cost more than they gain.
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
    fn text_piece(&mut self, piece: Piece<'_>, kept: &[u8]) -> ControlFlow<()> {
        let (Some(text), Some(_)) = (&mut self.text, &self.args) else {
            return ControlFlow::Continue(());
        };
        let mut sink = Feed::literal(&mut self.args, &mut self.refused, kept, text.quote);
        // Whether the literal has ended (its closing quote has come).
        let (read, ended) = match piece {
            Piece::Whole(run) => {
                let read = text.reader.feed_str(run, &mut sink);
                (read.and_then(|()| text.reader.finish(&mut sink)), true)
            }
            Piece::Run(run) => (text.reader.feed_str(run, &mut sink), false),
            Piece::RunThen(run, c) => (text.reader.feed_str_then(run, c, &mut sink), false),
            Piece::Char(c) => (text.reader.feed_char(c, &mut sink), false),
            Piece::End => (text.reader.finish(&mut sink), true),
        };
        self.text_read(read, ended)
    }

    /// Whether the arguments text's literal is being read.
    #[inline]
    pub(super) fn in_literal(&self) -> bool {
        self.text.is_some()
    }

    /// Whether the string whose literal opens at `quote` is the arguments text being read.
    pub(super) fn reads_literal(&self, quote: usize) -> bool {
        self.args.is_some() && self.text.as_ref().is_some_and(|text| text.quote == quote)
    }

    /// The body of the arguments text's literal from where the call's reader stands in it
    /// (`body`: the rest of the piece being read), read by the text's reader itself as far
    /// as [`Reader::feed_literal`] goes: how many bytes it read, whether the literal's
    /// closing quote stands there, and whether the text is refused. Where it stops short
    /// of the closing quote (an escape the piece cuts, a control character), the call's
    /// reader goes on with the literal's pieces.
    pub(super) fn text_literal(
        &mut self,
        body: &str,
        kept: &[u8],
    ) -> (usize, bool, ControlFlow<()>) {
        let (Some(text), Some(_)) = (&mut self.text, &self.args) else {
            return (0, false, ControlFlow::Continue(()));
        };
        let mut sink = Feed::literal(&mut self.args, &mut self.refused, kept, text.quote);
        let (read, n_read, closed) = match text.reader.feed_literal(body, &mut sink) {
            Ok(n_read) => {
                let closed = body.as_bytes().get(n_read) == Some(&b'"');
                let read = match closed {
                    true => text.reader.finish(&mut sink),
                    false => Ok(()),
                };
                (read, n_read, closed)
            }
            Err(stop) => (Err(stop), 0, false),
        };
        (n_read, closed, self.text_read(read, closed))
    }

    /// The text's reader's answer on a piece of its literal (`ended`: the last one).
    fn text_read(&mut self, read: Result<(), Stop>, ended: bool) -> ControlFlow<()> {
        let Some(quote) = self.text.as_ref().map(|text| text.quote) else {
            return ControlFlow::Continue(());
        };
        let whole = read.is_ok();
        match read {
            // The text's own JSON error; a text cut short is refused only once it has
            // ended (the literal closed).
            Err(Stop::Invalid(error)) if ended || !error.is_truncated() => {
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
        if ended {
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
    fn outside(&mut self, event: Event<'_>, at: usize, kept: &[u8]) -> ControlFlow<()> {
        // Inside a member's value that no shape reads into (only `function`'s is read below
        // the top level): only the nesting counts. Most of a call whose shape is not fixed,
        // its arguments included, is read so.
        if self.depth >= 2 && self.member != Member::Function {
            match event {
                Event::ObjectStart | Event::ArrayStart => {
                    self.depth = self.depth.saturating_add(1);
                }
                Event::ObjectEnd | Event::ArrayEnd => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            return ControlFlow::Continue(());
        }
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
                self.text = Some(Box::new(Text {
                    reader: Reader::new(self.gate.limits()),
                    quote: at,
                }));
                match event {
                    Event::String(run) => self.text_piece(Piece::Whole(run), kept),
                    // Its body begins in the chunk being read: the text's reader reads it.
                    _ if self.text_at.is_some_and(|start| start <= at) => {
                        self.literal_begins = Some(at);
                        ControlFlow::Break(())
                    }
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
                // Room for a name at once: it arrives in parts, from chunks.
                self.collected.reserve(NAME_START);
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

/// A piece of an arguments text's literal, as its reader takes it.
#[derive(Clone, Copy)]
enum Piece<'a> {
    /// The whole literal's text, in one run.
    Whole(&'a str),
    Run(&'a str),
    /// A run, then the character an escape after it stands for.
    RunThen(&'a str, char),
    Char(char),
    /// The literal's closing quote.
    End,
}

/// The probe as one chunk's sink. A run of an arguments text's literal is held back until
/// the piece after it is known, as the envelope's own text reader holds it: a run and the
/// escaped quote after it then go to the text's reader as one step
/// ([`Reader::feed_str_then`]), so a key or string of the text between two `\"` comes whole
/// instead of being gathered in the reader's carry (an allocation each) and fed in parts.
/// What is held back is fed when the chunk ends ([`Chunk::end`]), so the answer after each
/// chunk is the one each piece fed at once gives.
///
/// An arguments literal that begins in a chunk fed as text breaks the reader at its
/// [`Event::StringStart`] (noted in [`Probe::literal_begins`]), so that its text's reader
/// reads the rest of its body itself ([`Probe::text_literal`]), as the envelope reads it
/// from a whole call: its runs and its `\"` then go in as one stretch instead of as one
/// piece each.
pub(super) struct Chunk<'p, 'g, 'a> {
    probe: &'p mut Probe<'g>,
    /// The raw call kept so far, this chunk included.
    kept: &'p [u8],
    pending: Option<&'a str>,
}

impl<'p, 'g, 'a> Chunk<'p, 'g, 'a> {
    pub(super) fn new(probe: &'p mut Probe<'g>, kept: &'p [u8]) -> Chunk<'p, 'g, 'a> {
        Chunk {
            probe,
            kept,
            pending: None,
        }
    }

    /// The chunk has been read, with `read` the reader's answer: the run held back is fed,
    /// and if that refuses the call, the refusal comes first (the run stood before anything
    /// the reader found after it).
    pub(super) fn end(mut self, read: Result<(), Stop>) -> Result<(), Stop> {
        match self.flush() {
            ControlFlow::Break(()) => Err(Stop::Sink),
            ControlFlow::Continue(()) => read,
        }
    }

    fn flush(&mut self) -> ControlFlow<()> {
        match self.pending.take() {
            Some(run) => self.probe.text_piece(Piece::Run(run), self.kept),
            None => ControlFlow::Continue(()),
        }
    }
}

impl<'a> Sink<'a> for Chunk<'_, '_, 'a> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        let kept = self.kept;
        if self.probe.text.is_none() {
            return self.probe.take(event, at, kept);
        }
        match event {
            Event::StringPart(run) => match self.pending.replace(run) {
                Some(earlier) => self.probe.text_piece(Piece::Run(earlier), kept),
                None => ControlFlow::Continue(()),
            },
            Event::StringChar(c) => match self.pending.take() {
                Some(run) => self.probe.text_piece(Piece::RunThen(run, c), kept),
                None => self.probe.text_piece(Piece::Char(c), kept),
            },
            Event::String(run) => self.probe.text_piece(Piece::Whole(run), kept),
            Event::StringEnd => {
                self.flush()?;
                self.probe.text_piece(Piece::End, kept)
            }
            // Nothing else comes inside a string.
            _ => ControlFlow::Continue(()),
        }
    }
}

impl Probe<'_> {
    /// One event of the raw call outside an arguments text, `kept` the call so far.
    fn take(&mut self, event: Event<'_>, at: usize, kept: &[u8]) -> ControlFlow<()> {
        if !self.in_args {
            return self.outside(event, at, kept);
        }
        let Some(args) = &mut self.args else {
            return ControlFlow::Continue(());
        };
        // `null` arguments are absent ones (`{}`): left for the last word.
        if !args.started && matches!(event, Event::Null) {
            self.in_args = false;
            return ControlFlow::Continue(());
        }
        let levels = self.depth;
        let verdict = args.event(&event, at, Source::Call { kept, levels });
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
    /// Where the arguments so far can be read again.
    pub(super) source: Source<'p>,
}

impl<'p, 'g> Feed<'p, 'g> {
    /// The sink of an arguments text read from its literal opening at `quote` in the raw
    /// call, whose bytes so far are `kept`.
    fn literal(
        args: &'p mut Option<Args<'g>>,
        refused: &'p mut Option<(usize, RejectionKind)>,
        kept: &'p [u8],
        quote: usize,
    ) -> Feed<'p, 'g> {
        Feed {
            args,
            refused,
            source: Source::Literal { kept, quote },
        }
    }
}

impl Feed<'_, '_> {
    /// [`Sink::event`] by reference, for a sink that hands the event on after it.
    #[inline(always)]
    pub(super) fn take(&mut self, event: &Event<'_>, at: usize) -> ControlFlow<()> {
        let Some(args) = self.args else {
            return ControlFlow::Continue(());
        };
        match args.event(event, at, self.source) {
            Some(refusal) => {
                *self.refused = Some(refusal);
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        }
    }
}

impl<'a> Sink<'a> for Feed<'_, '_> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        self.take(&event, at)
    }
}
