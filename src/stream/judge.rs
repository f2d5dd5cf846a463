//! What the text so far already settles: the partial tree read as an envelope far enough to
//! know the name that counts and where the arguments are, and the arguments validated in
//! partial mode.
//!
//! In the raw form the envelope's shape decides which members count, and a member read later
//! can change it (a `"type":"function"` after a top-level `"name"` makes the nested
//! `function.name` the one that counts). So a call is refused for its name and arguments only
//! once its shape is fixed by its first member `"type"`: `"tool_use"` (Anthropic: `name`,
//! `input`), `"function_call"` (Responses: `name`, the text in `arguments`) or `"function"`
//! (OpenAI chat: `function.name`, the text in `function.arguments`). Before that, a whole
//! top-level `name` that is no tool's is refused (every shape that takes one refuses it, and
//! every other shape refuses it beside a nested call). Arguments are checked only when they
//! come after the member `"type"` and the name that counts, as a reader going left to right
//! would know; the rest is left to [`CallStream::finish`](super::CallStream::finish).
//! In the provider form the name is whole before the arguments begin, so only the arguments
//! are read here.

use super::place;
use crate::gate::Gate;
use crate::json::{Member, Open, PartialBuilder, Segment, Stop, Tail, Value};
use crate::rejection::RejectionKind;
use crate::spec::ToolSpec;

/// A refusal: why, and the first byte of the token that settled it.
pub(super) type Found = (RejectionKind, usize);

/// The raw form's or the provider form's reading of one text, fed in chunks.
pub(super) struct Judge<'g> {
    gate: &'g Gate,
    /// The tool, in the provider form (its name is whole before its arguments begin).
    provider: Option<&'g ToolSpec>,
    /// The raw call, or the provider form's arguments text.
    tree: PartialBuilder,
    /// The raw form's arguments text, once the shape and a known name say where it is.
    text: Option<Text>,
}

/// An arguments text inside the raw call: its own builder, fed what arrives of the string.
struct Text {
    /// Where its literal opens in the raw call.
    quote: usize,
    builder: Option<PartialBuilder>,
    /// How many bytes of the text the builder has been fed.
    fed: usize,
    /// Its answer once the literal closed (it cannot change after that).
    settled: Option<Option<Found>>,
}

impl<'g> Judge<'g> {
    /// A reading of a raw call (`provider: None`) or of a known tool's arguments text.
    pub(super) fn new(gate: &'g Gate, provider: Option<&'g ToolSpec>) -> Judge<'g> {
        Judge {
            gate,
            provider,
            tree: PartialBuilder::new(gate.limits()),
            text: None,
        }
    }

    /// Reads the next chunk of the text whose first `seen` bytes it has read (`text` is all
    /// of it so far): the refusal the text so far settles, if any.
    pub(super) fn step(&mut self, text: &[u8], seen: usize) -> Option<Found> {
        let chunk = text.get(seen..).unwrap_or_default();
        if let Err(Stop::Invalid(error)) = self.tree.feed(chunk) {
            return Some((RejectionKind::MalformedJson, error.offset()));
        }
        let (root, open) = self.tree.partial()?;
        let last_token = || place::token_start(text, text.len().saturating_sub(1));
        if let Some(spec) = self.provider {
            return arguments(spec, root, open).map(|kind| (kind, last_token()));
        }
        match shape(self.gate, root, open) {
            Seen::Waiting => None,
            Seen::UnknownName => Some((RejectionKind::UnknownTool, last_token())),
            Seen::Value(spec, value, open) => {
                arguments(spec, value, open).map(|kind| (kind, last_token()))
            }
            Seen::Text(spec, base, literal, whole) => {
                let limits = self.gate.limits();
                let state = self.text.get_or_insert_with(|| {
                    let key = |name: &str| Segment::Key(name.to_owned());
                    let path: Vec<Segment> =
                        base.map(key).into_iter().chain([key(ARGUMENTS)]).collect();
                    Text {
                        quote: crate::json::offset_of(text, &path, false).unwrap_or(0),
                        builder: Some(PartialBuilder::new(limits)),
                        fed: 0,
                        settled: None,
                    }
                });
                state.step(spec, text, literal, whole)
            }
        }
    }
}

impl Text {
    /// Feeds what arrived of the arguments text since the last step, and judges it.
    fn step(&mut self, spec: &ToolSpec, raw: &[u8], literal: &str, whole: bool) -> Option<Found> {
        if let Some(settled) = self.settled {
            return settled;
        }
        let quote = self.quote;
        let builder = self.builder.as_mut()?;
        let new = literal.as_bytes().get(self.fed..).unwrap_or_default();
        self.fed = literal.len();
        if let Err(Stop::Invalid(error)) = builder.feed(new) {
            let at = place::in_literal(raw, quote, error.offset());
            let found = Some((RejectionKind::MalformedJson, at));
            self.settled = Some(found);
            return found;
        }
        // A token of the text is placed where it stands in the call's literal.
        let last_token = || {
            let last = place::token_start(literal.as_bytes(), literal.len().saturating_sub(1));
            place::in_literal(raw, quote, last)
        };
        if !whole {
            let (value, open) = builder.partial()?;
            return arguments(spec, value, open).map(|kind| (kind, last_token()));
        }
        // The literal closed: the text is all there is.
        let found = match self.builder.take()?.finish() {
            // Refused at the literal's closing quote, where the text was seen to stop short.
            Err(error) if error.is_truncated() => {
                let close = place::in_literal(raw, quote, literal.len());
                Some((RejectionKind::TruncatedJson, close))
            }
            Err(error) => {
                let at = place::in_literal(raw, quote, error.offset());
                Some((RejectionKind::MalformedJson, at))
            }
            Ok(value) => arguments(spec, &value, Open::WHOLE).map(|kind| (kind, last_token())),
        };
        self.settled = Some(found);
        found
    }
}

/// Gates 2 and 3 on arguments so far: an object, then the spec in partial mode.
fn arguments(spec: &ToolSpec, value: &Value<'_>, open: Open<'_>) -> Option<RejectionKind> {
    if !matches!(value, Value::Object(_)) {
        return Some(RejectionKind::ArgumentsNotObject);
    }
    spec.params()
        .validate_partial(value, open)
        .err()
        .map(|_| RejectionKind::SchemaViolation)
}

/// What the envelope so far says.
enum Seen<'v, 'g> {
    /// Nothing settled yet, and no arguments to check.
    Waiting,
    /// The name that counts is, or can only become, no tool's.
    UnknownName,
    /// A known tool's arguments as a value, with what of it is still open.
    Value(&'g ToolSpec, &'v Value<'static>, Open<'v>),
    /// A known tool's arguments text: the member holding it (`function` for OpenAI chat, or
    /// none: the call itself), its text so far, and whether its literal has closed.
    Text(&'g ToolSpec, Option<&'static str>, &'v str, bool),
}

/// The members of an object of the partial tree, with what of the object is still open.
#[derive(Clone, Copy)]
struct Members<'v> {
    list: &'v [Member<'static>],
    open: Open<'v>,
}

impl<'v> Members<'v> {
    /// The first member named `key`: its place, its value, and what of it is still open.
    fn first(self, key: &str) -> Option<(usize, &'v Value<'static>, Open<'v>)> {
        let at = self.list.iter().position(|(name, _)| name == key)?;
        let (_, value) = self.list.get(at)?;
        let last = at + 1 == self.list.len();
        Some((at, value, child_open(self.open, last)))
    }
}

/// Reads the envelope of a raw call so far (see the module docs).
fn shape<'v, 'g>(gate: &'g Gate, root: &'v Value<'static>, open: Open<'v>) -> Seen<'v, 'g> {
    let Value::Object(list) = root else {
        return Seen::Waiting;
    };
    let call = Members { list, open };
    if let Some((_, Value::String(name), Open::WHOLE)) = call.first("name") {
        if gate.spec(name).is_none() {
            return Seen::UnknownName;
        }
    }
    let Some((type_at, Value::String(kind), Open::WHOLE)) = call.first("type") else {
        return Seen::Waiting;
    };
    // Where the name that counts and the arguments are (in the call, or in its `function`),
    // and whether the arguments are a value or a text.
    let (holder, arguments, text, base) = match kind.as_ref() {
        "tool_use" => (call, "input", false, None),
        "function_call" => (call, ARGUMENTS, true, None),
        "function" => match call.first("function") {
            Some((at, Value::Object(list), open)) if at > type_at => {
                (Members { list, open }, ARGUMENTS, true, Some("function"))
            }
            _ => return Seen::Waiting,
        },
        _ => return Seen::Waiting,
    };
    // A reader going left to right knows the shape only past `type`.
    let after_type = |at: usize| base.is_some() || at > type_at;
    let Some((name_at, Value::String(name), name_open)) = holder.first("name") else {
        return Seen::Waiting;
    };
    if name_open != Open::WHOLE {
        // Still being written: refused once no tool's name starts so.
        let unknown = after_type(name_at) && !gate.names_start_with(name);
        return if unknown {
            Seen::UnknownName
        } else {
            Seen::Waiting
        };
    }
    let Some(spec) = gate.spec(name) else {
        return Seen::UnknownName;
    };
    match holder.first(arguments) {
        Some((at, value, open)) if at > name_at && after_type(at) => match (text, value) {
            (false, value) => Seen::Value(spec, value, open),
            (true, Value::String(text)) => Seen::Text(spec, base, text, open == Open::WHOLE),
            (true, _) => Seen::Waiting,
        },
        _ => Seen::Waiting,
    }
}

/// What is open of a member of a container whose own openness is `open`: the member is on
/// the open chain only when it is the container's last.
fn child_open(open: Open<'_>, last: bool) -> Open<'_> {
    match (last, open.containers, open.tail) {
        (false, _, _) | (true, 0, _) => Open::WHOLE,
        (true, 1, Tail::String | Tail::Number) => Open {
            containers: 0,
            tail: open.tail,
        },
        (true, 1, _) => Open::WHOLE,
        (true, n, tail) => Open {
            containers: n - 1,
            tail,
        },
    }
}

/// The member that holds an arguments text.
const ARGUMENTS: &str = "arguments";
