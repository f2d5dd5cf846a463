//! Reading a call's envelope: a [`Sink`] of the one reader, member by member, in one pass.
//!
//! Each member's key says where its value goes: a field the envelope reads (`type`, `id`,
//! `call_id`, `name`), kept as the string it nearly always is or built as a `Value` for the
//! message when it is not; a place the arguments may be, whose events go on to the
//! [`Downstream`] sink (a [`Builder`], or the gate's validation), told the tool name read so
//! far beside them; a nested call object (`function`, `functionCall`,
//! `function_call`), read member by member in turn; or nothing, and the value is skipped
//! (the reader still checks it). `arguments` given as a string is arguments text, fed piece
//! by piece into a second reader ([`Text`]). Every key goes into a [`KeySet`], so a key
//! given twice is refused once the object ends.
//!
//! The sink only takes what it is given and keeps what it read so far in [`Outer`]: a call
//! the reader stops inside (cut off, or not JSON) still tells its id and name, and a call
//! fed in chunks would be read by the same sink.

use super::keys::KeySet;
use super::text::{Text, TextArgs};
use super::{Arguments, Downstream, Inner, Nested, Outer};
use crate::json::{Builder, Event, Kind, Limits, Sink, Value};
use std::borrow::Cow;
use std::ops::ControlFlow;

/// The envelope sink, sending the arguments' events to `D`.
#[derive(Debug)]
pub(crate) struct Envelope<'a, 'd, D: Downstream<'a>> {
    /// What has been read.
    pub(crate) outer: Outer<'a, D::Read>,
    /// The kind of the top-level value, known from its first event.
    pub(crate) root: Option<Kind>,
    /// Containers open, the envelope object included.
    depth: usize,
    doing: Doing,
    keys: KeySet<'a>,
    /// The keys of the nested call object being read, made when the first begins (most
    /// calls have none: a set is a couple of hundred bytes to fill) and emptied for the next
    /// (a turn's calls share one envelope).
    nested_keys: Option<KeySet<'a>>,
    /// The nested call object being read, if any.
    nested: Option<NestedKey>,
    /// Builds the value of a member the envelope reads when it is not a plain string: made
    /// when first needed, since nearly every call has none (a builder is kilobytes to set up).
    builder: Option<Box<Builder<'a>>>,
    /// Takes the arguments' events (and those of an arguments text).
    downstream: &'d mut D,
    /// The arguments text being read, while `doing` is [`Doing::Text`].
    text: Option<Text<'a>>,
    limits: Limits,
}

/// What the next event belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Doing {
    /// The envelope's own structure: a key, or the end of an object.
    Members,
    /// The first event of the value of a member that goes to `Target`.
    Value(Target),
    /// A value being built for `Target`; it ends when the depth is back to the one given.
    Build(Target, usize),
    /// Arguments going downstream for `Target`; they end when the depth is back to the one
    /// given.
    Args(Target, usize),
    /// A value not read; it ends when the depth is back to the one given.
    Skip(usize),
    /// The pieces of an arguments text for `Target`.
    Text(Target),
    /// Nothing more to read: the top-level value is not an object.
    Done,
}

/// Where a member's value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Ignore,
    Type,
    Id,
    CallId,
    Name,
    Arguments,
    Input,
    Args,
    Parameters,
    Nested(NestedKey),
    InnerId,
    InnerName,
    InnerArguments,
    InnerArgs,
}

/// The keys of the nested call objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NestedKey {
    /// OpenAI chat's `function`.
    Function,
    /// Gemini's wire form `functionCall`.
    FunctionCallCamel,
    /// google-genai's dump and OpenAI's legacy form, `function_call`.
    FunctionCall,
}

impl<'a, 'd, D: Downstream<'a>> Envelope<'a, 'd, D> {
    /// The envelope sink, sending the arguments' events to `downstream`, under `limits`.
    pub(crate) fn new(limits: Limits, downstream: &'d mut D) -> Envelope<'a, 'd, D> {
        Envelope {
            outer: Outer::default(),
            root: None,
            depth: 0,
            doing: Doing::Members,
            keys: KeySet::new(),
            nested_keys: None,
            nested: None,
            builder: None,
            downstream,
            text: None,
            limits,
        }
    }

    /// Makes the sink read a new call, as [`Envelope::new`] would (the builder of member
    /// values kept unless it may hold part of one), without moving it: an envelope is
    /// nearly two kilobytes, which the turn's pass would otherwise copy for each call.
    #[cfg(feature = "turns")]
    pub(crate) fn restart(&mut self) {
        if !matches!(self.doing, Doing::Members | Doing::Done) {
            self.builder = None;
        }
        self.outer = Outer::default();
        self.root = None;
        self.depth = 0;
        self.doing = Doing::Members;
        self.keys.clear();
        if let Some(nested_keys) = &mut self.nested_keys {
            nested_keys.clear();
        }
        self.nested = None;
        self.text = None;
    }

    /// The downstream sink.
    #[cfg(feature = "turns")]
    pub(crate) fn downstream(&mut self) -> &mut D {
        self.downstream
    }

    /// A key of the envelope or of a nested call object: where its value goes. Inlined at
    /// the reader's key sites (see the arms of its `Sink::event`).
    #[inline(always)]
    fn key(&mut self, key: Cow<'a, str>) {
        let target = if self.depth == 1 {
            let target = top_target(&key);
            self.keys.insert(key);
            target
        } else {
            let target = inner_target(&key);
            if let Some(nested_keys) = &mut self.nested_keys {
                nested_keys.insert(key);
            }
            target
        };
        self.doing = Doing::Value(target);
    }

    /// A field the envelope reads, as the string it nearly always is (or a string where a
    /// nested call object belongs, kept for the message). Inlined, as a key is.
    #[inline(always)]
    fn field_string(&mut self, target: Target, text: &'a str) {
        self.doing = Doing::Members;
        self.store(target, Some(Value::String(Cow::Borrowed(text))));
    }

    /// The envelope object or a nested call object ends: a key given twice in it is found.
    #[inline(never)]
    fn object_end(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        if self.depth == 0 {
            self.outer.duplicate = self.keys.duplicate();
        } else {
            let duplicate = self.nested_keys.as_mut().and_then(KeySet::duplicate);
            if let Some(inner) = self.inner() {
                inner.duplicate = duplicate;
            }
            self.nested = None;
        }
    }

    /// The first event of the value of a member that goes to `target`, but for the two the
    /// inlined path takes itself: a field's string ([`Envelope::field_string`]) and an
    /// arguments literal's start ([`Envelope::text_begins`]).
    #[inline(never)]
    fn value(&mut self, target: Target, event: Event<'a>, at: usize) -> ControlFlow<()> {
        self.doing = Doing::Members;
        match (target, event) {
            (Target::Ignore, event) => {
                if !ends_value(&event) {
                    self.doing = Doing::Skip(self.depth);
                    self.track(&event);
                }
            }
            (_, Event::Null) => self.store(target, None),
            (Target::Arguments | Target::InnerArguments, Event::String(text)) => {
                self.begin_args(target, at, true);
                let text = Text::whole(text, at, self.limits, self.downstream);
                self.store_text(target, text);
            }
            (
                Target::Arguments
                | Target::Input
                | Target::Args
                | Target::Parameters
                | Target::InnerArguments
                | Target::InnerArgs,
                event,
            ) => {
                let depth = self.depth;
                let done = ends_value(&event);
                self.track(&event);
                self.begin_args(target, at, false);
                let _ = self.downstream.event(event, at);
                if done {
                    self.args_read(target);
                } else {
                    self.doing = Doing::Args(target, depth);
                }
            }
            (Target::Nested(key), Event::ObjectStart) => {
                self.depth += 1;
                self.nested = Some(key);
                self.nested_keys.get_or_insert_with(KeySet::new).clear();
                *self.nested_slot(key) = Some(Nested::Object(Inner::default()));
            }
            (_, event) => {
                let depth = self.depth;
                let done = ends_value(&event);
                self.track(&event);
                let builder = self.builder.get_or_insert_with(Box::default);
                let _ = builder.event(event, at);
                if done {
                    let value = builder.take_value();
                    self.store(target, Some(value));
                } else {
                    self.doing = Doing::Build(target, depth);
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// An arguments literal that holds an escape begins at `at` (its [`Event::StringStart`]),
    /// where the reader did not offer it whole ([`Sink::literal`]: bytes that may not be
    /// UTF-8, a chunk of a stream): its pieces go to the text's reader as they come.
    #[inline(never)]
    fn text_begins(&mut self, target: Target, at: usize) -> ControlFlow<()> {
        self.begin_args(target, at, true);
        self.text = Some(Text::new(self.limits, at));
        self.doing = Doing::Text(target);
        ControlFlow::Continue(())
    }

    /// An arguments literal opening at `quote`, whose body from just after the quote is
    /// `body`, read by the text's reader as far as it goes: how many bytes of `body` it
    /// read. When the literal closed there, the text is stored; else its reading goes on
    /// with the pieces of the rest.
    #[inline(never)]
    fn read_literal(&mut self, target: Target, quote: usize, body: &'a str) -> usize {
        self.begin_args(target, quote, true);
        let mut text = Text::new(self.limits, quote);
        let read = text.literal(body, self.downstream);
        if body.as_bytes().get(read) == Some(&b'"') {
            let text = text.end(self.downstream);
            self.store_text(target, text);
        } else {
            self.text = Some(text);
            self.doing = Doing::Text(target);
        }
        read
    }

    /// Follows the depth through an event of a value.
    #[inline]
    fn track(&mut self, event: &Event<'_>) {
        match event {
            Event::ArrayStart | Event::ObjectStart => self.depth += 1,
            Event::ArrayEnd | Event::ObjectEnd => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
    }

    /// Stores a member's value; `None` for `null`, which makes the member absent (for a
    /// place of the arguments, that is all that is stored here). Inlined where it is
    /// called, so that the match on `target` folds where the target is known.
    #[inline(always)]
    fn store(&mut self, target: Target, value: Option<Value<'a>>) {
        match target {
            Target::Ignore => {}
            Target::Type => self.outer.type_ = value,
            Target::Id => self.outer.id = value,
            Target::CallId => self.outer.call_id = value,
            Target::Name => self.outer.name = value,
            Target::Nested(key) => *self.nested_slot(key) = value.map(Nested::Other),
            Target::InnerId | Target::InnerName => {
                if let Some(inner) = self.inner() {
                    match target {
                        Target::InnerId => inner.id = value,
                        _ => inner.name = value,
                    }
                }
            }
            Target::Arguments
            | Target::Input
            | Target::Args
            | Target::Parameters
            | Target::InnerArguments
            | Target::InnerArgs => self.store_args(target, None),
        }
    }

    /// Stores what the downstream sink kept of a place's arguments (`None`: a `null`).
    fn store_args(&mut self, target: Target, read: Option<Arguments<D::Read>>) {
        // Only `arguments` takes text: the other places are fed values alone.
        let value = |read| match read {
            Some(Arguments::Value(read)) => Some(read),
            _ => None,
        };
        match target {
            Target::Arguments => self.outer.arguments = read,
            Target::Input => self.outer.input = value(read),
            Target::Args => self.outer.args = value(read),
            Target::Parameters => self.outer.parameters = value(read),
            Target::InnerArguments => {
                if let Some(inner) = self.inner() {
                    inner.arguments = read;
                }
            }
            Target::InnerArgs => {
                if let Some(inner) = self.inner() {
                    inner.args = value(read);
                }
            }
            _ => {}
        }
    }

    fn store_text(&mut self, target: Target, text: TextArgs<D::Read>) {
        self.store_args(target, Some(Arguments::Text(text)));
    }

    /// Tells the downstream sink that a place's arguments begin, with the tool name read so
    /// far in the same object (the one the call's shape takes its name from).
    fn begin_args(&mut self, target: Target, at: usize, in_text: bool) {
        let outer = &self.outer;
        let name = match (target, self.nested) {
            (Target::InnerArguments | Target::InnerArgs, Some(key)) => {
                let slot = match key {
                    NestedKey::Function => &outer.function,
                    NestedKey::FunctionCallCamel => &outer.function_call_camel,
                    NestedKey::FunctionCall => &outer.function_call,
                };
                match slot {
                    Some(Nested::Object(inner)) => inner.name.as_ref(),
                    _ => None,
                }
            }
            _ => outer.name.as_ref(),
        };
        let name = name.and_then(Value::as_str);
        self.downstream.begin(name, at, in_text);
    }

    /// The arguments going downstream are complete.
    #[inline(never)]
    fn args_read(&mut self, target: Target) {
        let read = self.downstream.end();
        self.store_args(target, Some(Arguments::Value(read)));
        self.doing = Doing::Members;
    }

    fn nested_slot(&mut self, key: NestedKey) -> &mut Option<Nested<'a, D::Read>> {
        match key {
            NestedKey::Function => &mut self.outer.function,
            NestedKey::FunctionCallCamel => &mut self.outer.function_call_camel,
            NestedKey::FunctionCall => &mut self.outer.function_call,
        }
    }

    /// The nested call object being read.
    fn inner(&mut self) -> Option<&mut Inner<'a, D::Read>> {
        let key = self.nested?;
        match self.nested_slot(key) {
            Some(Nested::Object(inner)) => Some(inner),
            _ => None,
        }
    }
}

impl<'a, D: Downstream<'a>> Sink<'a> for Envelope<'a, '_, D> {
    // Inlined where the reader sends each kind of event, so that the arguments' events (the
    // most of a call) go on downstream or to the text's reader without a turn through the
    // envelope's own structure, which stays out of line (the downstream sink's code is
    // inlined at every site, so nothing else is).
    #[inline(always)]
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        match (self.doing, event) {
            (Doing::Args(target, depth), event) => {
                let done = ends_value(&event);
                self.track(&event);
                let _ = self.downstream.event(event, at);
                if done && self.depth == depth {
                    self.args_read(target);
                }
            }
            (Doing::Text(_), Event::StringPart(run)) => {
                if let Some(text) = &mut self.text {
                    text.part(run, self.downstream);
                }
            }
            (Doing::Text(_), Event::StringChar(c)) => {
                if let Some(text) = &mut self.text {
                    text.char(c, self.downstream);
                }
            }
            // The envelope's commonest events, each by a small function of its own rather
            // than through `structure`, whose dispatch and frame cost more than the work
            // (callgrind: folding the field's string and the literal's start into `value`
            // cost OpenAI calls 120 instructions more). A key and a field's string are
            // inlined at the reader's sites, where the key is known borrowed: out of line,
            // their frames and the key's `Cow` passed through memory cost 20 / 88 / 91
            // instructions a plain / OpenAI / Anthropic call.
            (Doing::Members, Event::Key(key)) => self.key(key),
            (Doing::Value(target), Event::String(text)) if is_field(target) => {
                self.field_string(target, text);
            }
            (
                Doing::Value(target @ (Target::Arguments | Target::InnerArguments)),
                Event::StringStart,
            ) => return self.text_begins(target, at),
            (Doing::Members, Event::ObjectEnd) => self.object_end(),
            (Doing::Members, Event::ObjectStart) if self.depth == 0 => {
                self.root = Some(Kind::Object);
                self.depth = 1;
            }
            (Doing::Value(target), event) => return self.value(target, event, at),
            (_, event) => return self.structure(event, at),
        }
        ControlFlow::Continue(())
    }

    /// An arguments literal that holds an escape: read by the text's own reader, through
    /// its escapes, as far as it goes; the call's reader goes on after that and sends only
    /// what is left of it, as pieces. Any other string is left to the reader.
    #[inline(always)]
    fn literal(&mut self, quote: usize, body: &'a str) -> Option<usize> {
        match self.doing {
            Doing::Value(target @ (Target::Arguments | Target::InnerArguments)) => {
                self.doing = Doing::Members;
                Some(self.read_literal(target, quote, body))
            }
            _ => None,
        }
    }
}

impl<'a, D: Downstream<'a>> Envelope<'a, '_, D> {
    /// The rarer events: inside a value skipped or built, an arguments text's end, and an
    /// envelope's own event the inlined path does not take (a top-level value that is not
    /// an object).
    #[inline(never)]
    fn structure(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        match self.doing {
            // The first event of a top-level value that is not an object (a key, an
            // object's start or end take the inlined path; the reader sends nothing else
            // between members).
            Doing::Members if self.depth == 0 => {
                self.root = Some(Event::value_kind(&event));
                self.doing = Doing::Done;
            }
            Doing::Skip(depth) => {
                let done = ends_value(&event);
                self.track(&event);
                if done && self.depth == depth {
                    self.doing = Doing::Members;
                }
            }
            Doing::Text(target) => {
                // The end of the literal (its pieces take the inlined path).
                if let (Event::StringEnd, Some(text)) = (event, &mut self.text) {
                    let text = text.end(self.downstream);
                    self.text = None;
                    self.store_text(target, text);
                }
                self.doing = Doing::Members;
            }
            // A member value the envelope reads that is not a plain string: rare (an
            // escaped id, a wrong kind), so kept out of the inlined path.
            Doing::Build(target, depth) => {
                let done = ends_value(&event);
                self.track(&event);
                if let Some(builder) = &mut self.builder {
                    let _ = builder.event(event, at);
                }
                if done && self.depth == depth {
                    self.built(target);
                }
            }
            // Taken by the inlined path.
            Doing::Members | Doing::Value(_) | Doing::Args(..) | Doing::Done => {}
        }
        ControlFlow::Continue(())
    }

    /// The value being built is complete.
    #[inline(never)]
    fn built(&mut self, target: Target) {
        let value = self
            .builder
            .as_mut()
            .map_or(Value::Null, |builder| builder.take_value());
        self.store(target, Some(value));
        self.doing = Doing::Members;
    }
}

/// True for the events that end a value: a scalar, the end of a string in parts, a closing
/// bracket (whether it ends the value is a matter of depth).
fn ends_value(event: &Event<'_>) -> bool {
    matches!(
        event,
        Event::Null
            | Event::Bool(_)
            | Event::Number(_)
            | Event::String(_)
            | Event::StringEnd
            | Event::ArrayEnd
            | Event::ObjectEnd
    )
}

/// The members the envelope keeps as a string when they are one (a string where a nested
/// call object belongs is kept for the message).
#[inline(always)]
fn is_field(target: Target) -> bool {
    matches!(
        target,
        Target::Type
            | Target::Id
            | Target::CallId
            | Target::Name
            | Target::InnerId
            | Target::InnerName
            | Target::Nested(_)
    )
}

/// Where the value of a top-level member goes.
#[inline]
fn top_target(key: &str) -> Target {
    match key {
        "type" => Target::Type,
        "id" => Target::Id,
        "call_id" => Target::CallId,
        "name" => Target::Name,
        "arguments" => Target::Arguments,
        "input" => Target::Input,
        "args" => Target::Args,
        "parameters" => Target::Parameters,
        "function" => Target::Nested(NestedKey::Function),
        "functionCall" => Target::Nested(NestedKey::FunctionCallCamel),
        "function_call" => Target::Nested(NestedKey::FunctionCall),
        _ => Target::Ignore,
    }
}

/// Where the value of a member of a nested call object goes.
#[inline]
fn inner_target(key: &str) -> Target {
    match key {
        "id" => Target::InnerId,
        "name" => Target::InnerName,
        "arguments" => Target::InnerArguments,
        "args" => Target::InnerArgs,
        _ => Target::Ignore,
    }
}
