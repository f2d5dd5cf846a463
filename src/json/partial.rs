//! [`PartialBuilder`]: a text fed in chunks, built as it comes, lending the tree it has so
//! far after every chunk (the *partial tree*), so a stream can refuse a call early. After a
//! chunk the open containers are nested into the root and the open string or number put
//! last; before the next they are taken apart again: each member moves once, however often
//! the tree is lent.

use super::error::ParseError;
use super::event::{Event, Sink};
use super::open::{Open, Tail};
use super::parse::Builder;
use super::reader::{Limits, Reader, Stop};
use super::value::{Number, Value};
use std::borrow::Cow;
use std::ops::ControlFlow;

/// A JSON text fed in chunks of any size, cut anywhere, built into an owned [`Value`] as
/// it comes; between chunks, [`PartialBuilder::partial`] lends what has arrived.
#[derive(Debug)]
pub(crate) struct PartialBuilder {
    reader: Reader,
    builder: Builder<'static>,
    /// How the builder's open path is nested for lending, while it is (between chunks).
    nested: Option<Nested>,
}

/// What [`PartialBuilder`] did to the builder after a chunk, to undo before the next one.
#[derive(Clone, Copy, Debug)]
struct Nested {
    /// How many containers were open: all but the root are now its chain of last members.
    levels: usize,
    /// The string or number still being written, put last in the innermost open container
    /// (or as the root), if there was one.
    scalar: Option<Tail<'static>>,
}

impl PartialBuilder {
    /// A builder at the start of a text, under `limits`.
    pub(crate) fn new(limits: Limits) -> PartialBuilder {
        PartialBuilder {
            reader: Reader::new(limits),
            builder: Builder::new(),
            nested: None,
        }
    }

    /// Reads the next chunk of the text, which may end anywhere.
    ///
    /// # Errors
    /// As [`Reader::feed`]: [`Stop::Invalid`] with the text's first error, its position an
    /// offset only ([`ParseError::locate`] counts lines and columns in the text). After an
    /// error, [`PartialBuilder::partial`] has nothing to lend.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Result<(), Stop> {
        self.take_apart();
        self.reader.feed(chunk, &mut Owning(&mut self.builder))?;
        if let Some(error) = self.reader.decided_error() {
            return Err(Stop::Invalid(Box::new(error.clone())));
        }
        self.nest();
        Ok(())
    }

    /// The tree of what has arrived, and what is still open at its end; `None` before the
    /// first value has begun (or after an error). A string still being written holds its
    /// text so far; a number, a stand-in ([`Tail::Number`]); a literal (`tru`) is not in it.
    pub(crate) fn partial(&self) -> Option<(&Value<'static>, Open<'_>)> {
        let nested = self.nested?;
        let tail = match (nested.scalar, &self.builder.key) {
            (Some(scalar), _) => scalar,
            (None, Some(key)) => Tail::Key(key),
            (None, None) => Tail::Whole,
        };
        let open = Open {
            containers: nested.levels,
            tail,
        };
        self.builder.root.as_ref().map(|root| (root, open))
    }

    /// Ends the text: the value it holds, the one [`parse_bytes_with`](super::parse_bytes_with)
    /// reads from the whole text.
    ///
    /// # Errors
    /// As [`Reader::finish`]: the text's first error, [`ErrorKind::Truncated`](super::ErrorKind::Truncated)
    /// when it stopped inside a value or before one; its position an offset only.
    pub(crate) fn finish(mut self) -> Result<Value<'static>, ParseError> {
        self.take_apart();
        match self.reader.finish(&mut Owning(&mut self.builder)) {
            // The builder never breaks.
            Ok(()) | Err(Stop::Sink) => Ok(self.builder.take_value()),
            Err(Stop::Invalid(error)) => Err(*error),
        }
    }

    /// Nests the builder's open containers into the partial tree, with the open scalar
    /// last: from the innermost out, each takes the members that came since the last
    /// chunk, the last of which is the slot of the container inside it.
    fn nest(&mut self) {
        let builder = &mut self.builder;
        let scalar = if self.reader.string_started().is_some() {
            let text = std::mem::take(&mut builder.text);
            builder.value(Value::String(Cow::Owned(text)));
            Some(Tail::String)
        } else if let Some(text) = self.reader.number_so_far() {
            builder.value(Value::Number(stand_in(text)));
            Some(Tail::Number)
        } else {
            None
        };
        let levels = builder.starts.len();
        while let Some(start) = builder.starts.pop() {
            let start = start.min(builder.members.len());
            // The container is taken out of its slot (or the root) while the members after
            // it move in.
            let slot = match builder.starts.is_empty() {
                true => builder.root.as_mut(),
                false => builder
                    .members
                    .get_mut(start.wrapping_sub(1))
                    .map(|(_, slot)| slot),
            };
            let Some(mut container) = slot.map(|slot| std::mem::replace(slot, Value::Null)) else {
                continue;
            };
            for (key, value) in builder.members.drain(start..) {
                push(&mut container, key, value);
            }
            match builder.starts.is_empty() {
                true => builder.root = Some(container),
                false => {
                    if let Some((_, slot)) = builder.members.last_mut() {
                        *slot = container;
                    }
                }
            }
        }
        self.nested = Some(Nested { levels, scalar });
    }

    /// Undoes [`PartialBuilder::nest`], so that the reader's next events go where they
    /// belong: each open container inside the root goes back on the stack as a slot,
    /// holding its members so far.
    fn take_apart(&mut self) {
        let Some(nested) = self.nested.take() else {
            return;
        };
        let builder = &mut self.builder;
        if nested.levels > 0 {
            builder.starts.push(0);
        }
        for _ in 1..nested.levels {
            let parent = match builder.members.last_mut() {
                Some((_, slot)) => Some(slot),
                None => builder.root.as_mut(),
            };
            let Some(slot) = parent.and_then(pop) else {
                break;
            };
            builder.members.push(slot);
            builder.starts.push(builder.members.len());
        }
        if nested.scalar.is_none() {
            return;
        }
        let innermost = match (nested.levels, builder.members.last_mut()) {
            (0, _) => None,
            (_, Some((_, slot))) => Some(slot),
            (_, None) => builder.root.as_mut(),
        };
        let (key, scalar) = match innermost {
            Some(Value::Object(members)) => match members.pop() {
                Some((key, scalar)) => (Some(key), scalar),
                None => return,
            },
            Some(parent) => match pop(parent) {
                Some((_, scalar)) => (None, scalar),
                None => return,
            },
            None => match builder.root.take() {
                Some(scalar) => (None, scalar),
                None => return,
            },
        };
        builder.key = key;
        if let Value::String(Cow::Owned(text)) = scalar {
            builder.text = text;
        }
    }
}

/// The builder as a sink of chunks that do not outlive their feed: it owns what it keeps.
struct Owning<'b>(&'b mut Builder<'static>);

impl<'e> Sink<'e> for Owning<'_> {
    fn event(&mut self, event: Event<'e>, _at: usize) -> ControlFlow<()> {
        self.0.take_owned(event);
        ControlFlow::Continue(())
    }
}

/// Puts `value` last in the container `parent`, under `key` if it is an object.
fn push(parent: &mut Value<'static>, key: Cow<'static, str>, value: Value<'static>) {
    match parent {
        Value::Object(members) => members.push((key, value)),
        Value::Array(items) => items.push(value),
        _ => {}
    }
}

/// Takes the last member (or item, under the empty key) out of the container `parent`.
fn pop(parent: &mut Value<'static>) -> Option<(Cow<'static, str>, Value<'static>)> {
    match parent {
        Value::Object(members) => members.pop(),
        Value::Array(items) => items.pop().map(|item| (Cow::Borrowed(""), item)),
        _ => None,
    }
}

/// The stand-in for a number still being written: its longest prefix that is a number
/// (`12` for `12e+`), or `0` when none is (`-`).
fn stand_in(text: &str) -> Number<'static> {
    let prefix = text.trim_end_matches(['.', 'e', 'E', '+', '-']);
    Number::from_text(prefix.to_owned()).unwrap_or_else(|| Number::from_checked(Cow::Borrowed("0")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    /// The partial tree after feeding `text` in chunks of `size` bytes.
    fn after(text: &str, size: usize) -> Option<(Value<'static>, Open<'static>)> {
        let mut partial = PartialBuilder::new(Limits::default());
        for chunk in text.as_bytes().chunks(size) {
            partial.feed(chunk).ok()?;
        }
        let (value, open) = partial.partial()?;
        let tail = match open.tail {
            Tail::Key(key) => Tail::Key(Box::leak(key.to_owned().into_boxed_str())),
            Tail::Whole => Tail::Whole,
            Tail::String => Tail::String,
            Tail::Number => Tail::Number,
        };
        let open = Open {
            containers: open.containers,
            tail,
        };
        Some((value.clone(), open))
    }

    fn check(text: &str, tree: &str, containers: usize, tail: Tail<'static>) {
        let expected = parse(tree).map(Value::into_owned).ok();
        for size in [1, 2, 3, 5, text.len().max(1)] {
            let got = after(text, size);
            let want = expected
                .clone()
                .map(|value| (value, Open { containers, tail }));
            assert_eq!(got, want, "{text:?} in chunks of {size}");
        }
    }

    #[test]
    fn the_partial_tree_has_the_open_path_at_every_kind_of_cut() {
        check(r#"{"city": "Zü"#, r#"{"city": "Zü"}"#, 1, Tail::String);
        check(r#"{"city": "Z\u00fc"#, r#"{"city": "Zü"}"#, 1, Tail::String);
        check(r#"{"city": "Z\u00"#, r#"{"city": "Z"}"#, 1, Tail::String);
        check(r#"{"city": ""#, r#"{"city": ""}"#, 1, Tail::String);
        check(r#"{"days": [1, 2"#, r#"{"days": [1, 2]}"#, 2, Tail::Number);
        check(
            r#"{"days": [1, 2.5e-"#,
            r#"{"days": [1, 2.5]}"#,
            2,
            Tail::Number,
        );
        check(r#"{"days": [-"#, r#"{"days": [0]}"#, 2, Tail::Number);
        check(r#"{"days": [1, tru"#, r#"{"days": [1]}"#, 2, Tail::Whole);
        check(r#"{"ok": fal"#, "{}", 1, Tail::Key("ok"));
        check(r#"{"ok""#, "{}", 1, Tail::Key("ok"));
        check(r#"{"ok": "#, "{}", 1, Tail::Key("ok"));
        check(r#"{"o"#, "{}", 1, Tail::Whole);
        check(r#"{"a": {"b": ["#, r#"{"a": {"b": []}}"#, 3, Tail::Whole);
        check(r#"{"a": {"b": [{"#, r#"{"a": {"b": [{}]}}"#, 4, Tail::Whole);
        check(r#"[[1], ["x"#, r#"[[1], ["x"]]"#, 2, Tail::String);
        check(r#"{"a": 1}"#, r#"{"a": 1}"#, 0, Tail::Whole);
        check(r#""ab"#, r#""ab""#, 0, Tail::String);
        check("12", "12", 0, Tail::Number);
        assert_eq!(after("", 1), None);
        assert_eq!(after("  tr", 1), None);
        assert_eq!(after("[1, x", 1), None, "nothing is lent after an error");
    }

    #[test]
    fn finishing_gives_what_parse_gives_whatever_was_asked_between_chunks() {
        let texts = [
            r#"{"name": "search_orders", "arguments": {"query": "Zürich \"raincoat\"\n", "limit": 10, "tags": ["a", [], {}], "ok": true, "none": null, "x": -1.5e3}}"#,
            r#"[1, "\ud83d\ude4f", [[["deep"]]], {"k": {"k": {"k": 0}}}]"#,
            "  \"just a string\" ",
            "0",
        ];
        for text in texts {
            let whole = parse(text).map(Value::into_owned);
            for size in 1..=text.len() {
                let mut partial = PartialBuilder::new(Limits::default());
                for chunk in text.as_bytes().chunks(size) {
                    assert!(partial.feed(chunk).is_ok(), "{text:?} in chunks of {size}");
                    let _ = partial.partial();
                }
                assert_eq!(partial.finish(), whole, "{text:?} in chunks of {size}");
            }
        }
    }

    #[test]
    fn a_cut_text_finishes_truncated() {
        let mut partial = PartialBuilder::new(Limits::default());
        assert!(partial.feed(br#"{"a": [1, "#).is_ok());
        let error = partial.finish().err().map(|error| error.is_truncated());
        assert_eq!(error, Some(true));
    }
}
