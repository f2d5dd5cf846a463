//! The arguments text's fast steps: what a text read through a literal's escapes does at
//! nearly every `\"`, without a turn of the byte machine.

use super::escape::scan_plain;
use super::{emit, Cut, Expect, Reader, Stop, Str};
use crate::json::event::{Event, Sink};
use std::borrow::Cow;

/// The steps a text read through a literal's escapes takes at nearly every `\"`, taken
/// without a turn of the byte machine, which would do the same (the property tests feed
/// texts both ways): a quote that opens a string or key, a run that is a whole string's or
/// key's body closed by the quote after it, a character of a body, and the punctuation
/// between strings.
impl Reader {
    /// A `"` where a string or key may begin and no token is cut: opens it.
    #[inline]
    pub(super) fn open_quote(&mut self) -> bool {
        if self.stopped.is_some() || self.cut.is_some() || self.offset >= self.max_bytes {
            return false;
        }
        let key = match self.expect {
            Expect::Value | Expect::FirstElement => false,
            Expect::FirstKey | Expect::Key => true,
            _ => return false,
        };
        self.cut = Some(Cut::Str(Str {
            quote: self.offset,
            key,
            started: false,
        }));
        self.expect = if key {
            Expect::Colon
        } else {
            self.after_value()
        };
        self.offset += 1;
        true
    }

    /// A character of a string's or key's body (not `"` or a control character; a
    /// backslash begins an escape) while one is open and nothing is cut inside it.
    #[inline]
    pub(super) fn body_char<'a, S: Sink<'a>>(
        &mut self,
        c: char,
        sink: &mut S,
    ) -> Option<Result<(), Stop>> {
        let mut string = match &self.cut {
            Some(Cut::Str(string)) if self.stopped.is_none() => *string,
            _ => return None,
        };
        if c < ' ' || c == '"' {
            return None;
        }
        let at = self.offset;
        let end = at.checked_add(c.len_utf8())?;
        if end > self.max_bytes {
            return None;
        }
        self.offset = end;
        if c == '\\' {
            // An escape of the text begins: its backslash is carried, as a chunk would.
            if let Some(slot) = self.carry.escape.first_mut() {
                *slot = b'\\';
            }
            self.cut = Some(Cut::Escape { string, at, len: 1 });
            return Some(Ok(()));
        }
        let emitted = self.string_char(&mut string, c, at, sink);
        self.cut = Some(Cut::Str(string));
        if let Err(stop) = &emitted {
            self.stopped = Some(stop.clone());
        }
        Some(emitted)
    }

    /// A chunk of nothing but whitespace and the `:` or `,` that may come next (between two
    /// `\"` of a text read through a literal's escapes), then the quote that opens a string
    /// or key: steps over both, or over neither.
    #[inline]
    pub(super) fn punctuation_then_quote(&mut self, chunk: &[u8]) -> bool {
        if self.stopped.is_some() || self.cut.is_some() {
            return false;
        }
        // The quote counts with the chunk.
        match self.offset.checked_add(chunk.len()) {
            Some(end) if end < self.max_bytes => {}
            _ => return false,
        }
        let mut expect = self.expect;
        for &byte in chunk {
            expect = match (byte, expect) {
                (b' ' | b'\n' | b'\r' | b'\t', expect) => expect,
                (b':', Expect::Colon) => Expect::Value,
                (b',', Expect::AfterValue) if self.in_object() => Expect::Key,
                (b',', Expect::AfterValue) => Expect::Value,
                _ => return false,
            };
        }
        if !matches!(expect, Expect::Value | Expect::Key) {
            return false;
        }
        self.expect = expect;
        self.offset += chunk.len();
        self.open_quote()
    }

    /// `run` then `"`, right after a quote opened a string or key: its whole body, when
    /// `run` holds nothing that would end or escape it. `None` when that is not the case.
    #[inline]
    pub(super) fn close_run<'a, S: Sink<'a>>(
        &mut self,
        run: &'a str,
        sink: &mut S,
    ) -> Option<Result<(), Stop>> {
        let string = match &self.cut {
            Some(Cut::Str(string)) if self.stopped.is_none() => *string,
            _ => return None,
        };
        if string.started || (string.key && !self.carry.key.is_empty()) {
            return None;
        }
        let end = self.offset.checked_add(run.len())?.checked_add(1)?;
        if end > self.max_bytes || scan_plain(run.as_bytes(), 0) != run.len() {
            return None;
        }
        self.cut = None;
        self.offset = end;
        let event = if string.key {
            Event::Key(Cow::Borrowed(run))
        } else {
            Event::String(run)
        };
        let emitted = emit(sink, event, string.quote);
        if let Err(stop) = &emitted {
            self.stopped = Some(stop.clone());
        }
        Some(emitted)
    }
}
