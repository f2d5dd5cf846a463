//! The id and tool name of a call that is not JSON, read before the error: the answer must
//! still pair with the id. The reader feeds a small sink that keeps the whole top-level (and
//! nested call object) `id`, `call_id` and `name` members, for the envelope's
//! [`recovered_id`](super::shape::recovered_id) and
//! [`recovered_name`](super::shape::recovered_name).

use crate::json::{Event, Limits, Member, Reader, Sink, Value};
use std::borrow::Cow;
use std::ops::ControlFlow;

/// The members of `raw` (a call the reader stops inside) that tell its id and name.
pub(crate) fn recover(raw: &[u8], limits: Limits) -> Vec<Member<'_>> {
    let mut sink = Recover {
        members: Vec::new(),
        depth: 0,
        next: None,
        in_nested: false,
        open: None,
        text: None,
    };
    // The reader stops at the error; what came before it is all there is.
    let _ = Reader::new(limits).feed(raw, &mut sink);
    sink.members
}

struct Recover<'a> {
    members: Vec<Member<'a>>,
    /// Containers open.
    depth: usize,
    /// The key of a member kept, whose value comes next.
    next: Option<Cow<'a, str>>,
    /// The object open at depth 2 is a nested call object: the last of `members`.
    in_nested: bool,
    /// A member kept whose value is an array or object (not a call object): kept, as
    /// what it is not (a string), once it closes back to this depth.
    open: Option<(Cow<'a, str>, usize)>,
    /// A kept string value that came in pieces.
    text: Option<String>,
}

impl<'a> Recover<'a> {
    /// Keeps a whole value of the member whose key came last.
    fn keep(&mut self, key: Cow<'a, str>, value: Value<'a>) {
        if self.depth == 1 {
            self.members.push((key, value));
        } else if let Some((_, Value::Object(inner))) = self.members.last_mut() {
            inner.push((key, value));
        }
    }
}

impl<'a> Sink<'a> for Recover<'a> {
    fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
        let next = self.next.take();
        match (event, next) {
            (Event::Key(key), _) => {
                let kept = match self.depth {
                    1 => matches!(
                        key.as_ref(),
                        "id" | "call_id" | "name" | "function" | "functionCall" | "function_call"
                    ),
                    2 => self.in_nested && matches!(key.as_ref(), "id" | "name"),
                    _ => false,
                };
                self.next = kept.then_some(key);
            }
            (Event::ObjectStart, Some(key)) if self.depth == 1 && key.starts_with("function") => {
                self.members.push((key, Value::Object(Vec::new())));
                self.in_nested = true;
                self.depth += 1;
            }
            (Event::ArrayStart | Event::ObjectStart, next) => {
                if let Some(key) = next {
                    self.open = Some((key, self.depth));
                }
                self.depth = self.depth.saturating_add(1);
            }
            (Event::ArrayEnd | Event::ObjectEnd, _) => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 1 {
                    self.in_nested = false;
                }
                if self
                    .open
                    .as_ref()
                    .is_some_and(|(_, depth)| *depth == self.depth)
                {
                    if let Some((key, _)) = self.open.take() {
                        self.keep(key, Value::Array(Vec::new()));
                    }
                }
            }
            (Event::Null, Some(key)) => self.keep(key, Value::Null),
            (Event::Bool(b), Some(key)) => self.keep(key, Value::Bool(b)),
            (Event::Number(n), Some(key)) => self.keep(key, Value::Number(n)),
            (Event::String(text), Some(key)) => self.keep(key, Value::String(text.into())),
            (Event::StringStart, Some(key)) => {
                self.text = Some(String::new());
                self.next = Some(key);
            }
            (Event::StringPart(run), next) => {
                if let Some(text) = &mut self.text {
                    text.push_str(run);
                }
                self.next = next;
            }
            (Event::StringChar(c), next) => {
                if let Some(text) = &mut self.text {
                    text.push(c);
                }
                self.next = next;
            }
            (Event::StringEnd, next) => {
                if let (Some(text), Some(key)) = (self.text.take(), next) {
                    self.keep(key, Value::String(Cow::Owned(text)));
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}
