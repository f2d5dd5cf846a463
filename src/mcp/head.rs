//! The `id` and `method` of a client message the proxy cannot read whole: one that is not
//! JSON, or one over the size limit, of which only the first bytes were kept. The proxy does
//! not forward such a message (it might be a `tools/call`), so it must answer it when it was
//! a request, under its id, or the client would wait for ever. The reader stops at the
//! first error; the top-level members before it are all there is.

use crate::json::{self, Event, Limits, Reader, Sink};
use std::ops::ControlFlow;

/// What the first bytes of a message say about it.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Head {
    /// The top-level `id`, as compact JSON (`7`, `"a"`, `null`), when it was read whole.
    pub(crate) id: Option<String>,
    /// A top-level `method` key was read: a request (with an id) or a notification.
    pub(crate) method: bool,
}

/// Reads `bytes` (a message, or its start) as far as the reader goes.
pub(crate) fn read_head(bytes: &[u8], limits: Limits) -> Head {
    let mut sink = HeadSink {
        head: Head::default(),
        depth: 0,
        in_id: false,
        text: None,
    };
    let _ = Reader::new(limits).feed(bytes, &mut sink);
    sink.head
}

struct HeadSink {
    head: Head,
    /// Containers open.
    depth: usize,
    /// The value that comes next is the top-level `id`'s.
    in_id: bool,
    /// The `id` string read so far, when it came in parts.
    text: Option<String>,
}

impl HeadSink {
    fn id_string(&mut self, text: &str) {
        let mut written = String::new();
        // Writing to a `String` cannot fail.
        let _ = json::write_escaped_str(&mut written, text);
        self.head.id = Some(written);
    }
}

impl<'a> Sink<'a> for HeadSink {
    fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
        let taking = std::mem::take(&mut self.in_id);
        match event {
            Event::ObjectStart | Event::ArrayStart => self.depth = self.depth.saturating_add(1),
            Event::ObjectEnd | Event::ArrayEnd => self.depth = self.depth.saturating_sub(1),
            Event::Key(key) if self.depth == 1 => {
                self.in_id = key == "id";
                self.head.method |= key == "method";
            }
            Event::Number(number) if taking => self.head.id = Some(number.as_str().to_owned()),
            Event::String(text) if taking => self.id_string(text),
            Event::Null if taking => self.head.id = Some("null".to_owned()),
            Event::StringStart if taking => self.text = Some(String::new()),
            Event::StringPart(part) => {
                if let Some(text) = &mut self.text {
                    text.push_str(part);
                }
            }
            Event::StringChar(c) => {
                if let Some(text) = &mut self.text {
                    text.push(c);
                }
            }
            Event::StringEnd => {
                if let Some(text) = self.text.take() {
                    self.id_string(&text);
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::{read_head, Head};
    use crate::json::Limits;

    fn head(text: &str) -> Head {
        read_head(text.as_bytes(), Limits::default())
    }

    /// The id is read before the error stops the reader, nested ids are not the message's,
    /// and an id with escapes comes back escaped.
    #[test]
    fn reads_the_top_level_id_and_method_before_the_error() {
        let cut = head(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"id":9,"#);
        assert_eq!((cut.id.as_deref(), cut.method), (Some("7"), true));
        let wrong = head(r#"{"id":"a\"b","method":"x","params":{"n":NaN}}"#);
        assert_eq!(
            (wrong.id.as_deref(), wrong.method),
            (Some(r#""a\"b""#), true)
        );
        let nested = head(r#"{"params":{"id":1,"method":"m"}"#);
        assert_eq!((nested.id, nested.method), (None, false));
        let late = head(r#"{"method":"notifications/x" "id":1}"#);
        assert_eq!((late.id, late.method), (None, true));
        assert_eq!(head("not json"), Head::default());
    }
}
