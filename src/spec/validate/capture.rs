//! Building, from events, the one kind of value the validation must see whole: an array or
//! object that an `enum` or `const` compares (JSON Schema equality ignores member order, so
//! it cannot be decided member by member), or that is an item of a `uniqueItems` array.
//!
//! Tool arguments rarely hold such values, so this is the validation's one allocating
//! path on success; scalars are compared as they arrive and never come here. One capture
//! runs at a time: a container inside a captured one is a part of what is being built, and
//! is read back as the capture's last completed value when it ends.

use crate::json::{Event, Member, Value};
use std::borrow::Cow;

/// A value being built from events, outermost container first.
#[derive(Default)]
pub(super) struct Capture<'a> {
    open: Vec<Open<'a>>,
    /// The outermost value, once complete.
    done: Option<Value<'a>>,
    /// A string value arriving in parts.
    text: String,
}

enum Open<'a> {
    Array(Vec<Value<'a>>),
    /// Members so far, and the key of the member whose value is being read.
    Object(Vec<Member<'a>>, Option<Cow<'a, str>>),
}

impl<'a> Capture<'a> {
    /// True while a container is being built.
    pub(super) fn is_active(&self) -> bool {
        !self.open.is_empty()
    }

    /// Starts building at a container's first event.
    pub(super) fn begin(&mut self, array: bool) {
        self.done = None;
        self.open.push(if array {
            Open::Array(Vec::new())
        } else {
            Open::Object(Vec::new(), None)
        });
    }

    /// Stops building and forgets what was built (the value is too deep to matter).
    pub(super) fn abandon(&mut self) {
        self.open.clear();
        self.done = None;
    }

    /// Takes one event of the value being built.
    pub(super) fn feed(&mut self, event: &Event<'a>) {
        match event {
            Event::Null => self.complete(Value::Null),
            Event::Bool(b) => self.complete(Value::Bool(*b)),
            Event::Number(number) => self.complete(Value::Number(number.clone())),
            Event::String(text) => self.complete(Value::String(Cow::Borrowed(text))),
            Event::StringStart => self.text.clear(),
            Event::StringPart(part) => self.text.push_str(part),
            Event::StringChar(c) => self.text.push(*c),
            Event::StringEnd => {
                let text = std::mem::take(&mut self.text);
                self.complete(Value::String(Cow::Owned(text)));
            }
            Event::Key(key) => {
                if let Some(Open::Object(_, pending)) = self.open.last_mut() {
                    *pending = Some(key.clone());
                }
            }
            Event::ArrayStart => self.open.push(Open::Array(Vec::new())),
            Event::ObjectStart => self.open.push(Open::Object(Vec::new(), None)),
            Event::ArrayEnd | Event::ObjectEnd => {
                let value = match self.open.pop() {
                    Some(Open::Array(items)) => Value::Array(items),
                    Some(Open::Object(members, _)) => Value::Object(members),
                    None => return,
                };
                self.complete(value);
            }
        }
    }

    /// A run of a string value's text, copied ([`Validation::string_text`]).
    ///
    /// [`Validation::string_text`]: super::Validation::string_text
    pub(super) fn text(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// The value completed by the last event fed: the outermost one, or the newest part
    /// of the container still being built.
    pub(super) fn last(&self) -> Option<&Value<'a>> {
        match self.open.last() {
            None => self.done.as_ref(),
            Some(Open::Array(items)) => items.last(),
            Some(Open::Object(members, _)) => members.last().map(|(_, value)| value),
        }
    }

    /// The outermost value, once complete, ending the capture.
    pub(super) fn take(&mut self) -> Option<Value<'a>> {
        self.done.take()
    }

    fn complete(&mut self, value: Value<'a>) {
        match self.open.last_mut() {
            None => self.done = Some(value),
            Some(Open::Array(items)) => items.push(value),
            Some(Open::Object(members, pending)) => {
                members.push((pending.take().unwrap_or_default(), value));
            }
        }
    }
}
