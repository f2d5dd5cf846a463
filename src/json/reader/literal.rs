//! A text read through a string literal's escapes (OpenAI's arguments text):
//! [`Reader::feed_literal`], and the quick steps [`Reader::feed_char`] takes for the
//! characters such a text is fed as, without a turn of the byte machine.

use super::escape::{self, scan_plain, Escape};
use super::{Cut, Expect, Input, Reader, Step, Stop, Str};
use crate::json::event::Sink;

impl Reader {
    /// Reads the text a JSON string literal holds from the literal's body (`literal`: its
    /// bytes after the opening quote, escapes and all), without an unescaped copy: each run
    /// goes in with the character of the escape after it ([`Reader::feed_str_then`]), so a
    /// string of the text between two `\"` comes whole, borrowed from `literal`.
    ///
    /// Reading stops at the literal's closing quote, and before a control character, an
    /// escape that is not valid, or one that `literal` ends inside: the answer is how many
    /// bytes were read. The caller feeds the rest as pieces, or finds there the literal's
    /// own error.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use toolgate::json::{Event, Limits, Reader, Sink};
    ///
    /// // Keeps the text's keys and strings, each as one piece when it came whole.
    /// struct Strings<'a>(Vec<&'a str>);
    /// impl<'a> Sink<'a> for Strings<'a> {
    ///     fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
    ///         match event {
    ///             Event::String(text) => self.0.push(text),
    ///             Event::Key(std::borrow::Cow::Borrowed(key)) => self.0.push(key),
    ///             _ => {}
    ///         }
    ///         ControlFlow::Continue(())
    ///     }
    /// }
    ///
    /// let literal = r#"{\"city\":\"Oslo\",\"days\":[1,2]}", "next": 1"#;
    /// let mut reader = Reader::new(Limits::default());
    /// let mut strings = Strings(Vec::new());
    /// let read = reader.feed_literal(literal, &mut strings).unwrap();
    /// assert_eq!(&literal[read..], r#"", "next": 1"#);
    /// reader.finish(&mut strings).unwrap();
    /// assert_eq!(strings.0, ["city", "Oslo", "days"]);
    /// ```
    ///
    /// # Errors
    /// As [`Reader::feed`], for the text (not the literal): its errors are at offsets in
    /// the text.
    pub fn feed_literal<'a, S: Sink<'a>>(
        &mut self,
        literal: &'a str,
        sink: &mut S,
    ) -> Result<usize, Stop> {
        let bytes = literal.as_bytes();
        // While the rest of the literal fits the size limit as it stands (the text's bytes
        // are fewer), a run goes in with the escape after it, so that a string between two
        // `\"` comes whole; else as pieces, each checked against the limit on its own.
        let mut pos = 0;
        loop {
            let fits = self
                .offset
                .checked_add(literal.len() - pos)
                .is_some_and(|end| end <= self.max_bytes);
            let run_end = scan_plain(bytes, pos);
            let run = literal.get(pos..run_end).unwrap_or_default();
            let Some((c, len)) = literal_escape(bytes, run_end) else {
                self.feed_str(run, sink)?;
                return Ok(run_end);
            };
            if fits {
                // Most runs are a piece of a string or key, or the `:` or `,` before one:
                // taken without a turn of the byte machine.
                let quick = match self.string_piece(run, c, sink) {
                    Some(read) => read.map(|()| true)?,
                    None => c == '"' && self.separator_quote(run),
                };
                if !quick {
                    self.feed_str_then(run, c, sink)?;
                }
            } else {
                self.feed_str(run, sink)?;
                self.feed_char(c, sink)?;
            }
            pos = run_end + len;
        }
    }

    /// Where reading goes on after the sink read `read` bytes of a string literal's body
    /// itself, from chunk position `body` ([`Sink::literal`]): past the literal if it
    /// closed there, else on through the rest of its body, as a string already begun.
    pub(super) fn after_literal<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        body: usize,
        read: usize,
        string: Str,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Step {
        let at = body.saturating_add(read).min(input.bytes().len());
        if input.bytes().get(at) == Some(&b'"') {
            return Ok(at + 1);
        }
        let string = Str {
            started: true,
            ..string
        };
        self.string(input, at, string, next, sink)
    }
}

/// The character the escape of a literal at `at` stands for, and its length; `None` when
/// no escape stands there, or one that is not valid or that the bytes end inside.
fn literal_escape(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    if bytes.get(at) != Some(&b'\\') {
        return None;
    }
    if let Some(c) = bytes.get(at + 1).and_then(|&code| escape::short(code)) {
        return Some((c, 2));
    }
    match escape::decode(bytes.get(at..)?, false) {
        Escape::Char(c, len) => Some((c, len)),
        Escape::NeedMore | Escape::Broken(_) => None,
    }
}

/// The steps a text fed as a literal's pieces ([`Reader::feed_char`]) takes at nearly every
/// escaped character, taken without a turn of the byte machine, which would do the same (the
/// property tests feed texts both ways): a quote that opens a string or key, and a character
/// of a body.
impl Reader {
    /// A `"` where a string or key may begin and no token is cut: opens it.
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

    /// A run of a string's or key's body (no `"`, backslash or control character) while one
    /// is open and nothing is cut inside it, and the character after it: the `"` that closes
    /// it, or the next character of its body. Sent as the byte machine sends them.
    pub(super) fn string_piece<'a, S: Sink<'a>>(
        &mut self,
        run: &'a str,
        c: char,
        sink: &mut S,
    ) -> Option<Result<(), Stop>> {
        let mut string = match &self.cut {
            Some(Cut::Str(string)) if self.stopped.is_none() => *string,
            _ => return None,
        };
        let end = self.offset.checked_add(run.len())?;
        if end.checked_add(c.len_utf8())? > self.max_bytes {
            return None;
        }
        let read = if c == '"' {
            self.cut = None;
            let read = self.end_string(string, run, 0, run.len(), sink);
            self.offset = end + 1;
            read
        } else {
            let read = self.string_run(&mut string, run, self.offset, sink);
            self.offset = end;
            self.cut = Some(Cut::Str(string));
            read
        };
        if let Err(stop) = &read {
            self.stopped = Some(stop.clone());
            return Some(read);
        }
        match c {
            '"' => Some(Ok(())),
            _ => Some(self.feed_char(c, sink)),
        }
    }

    /// A key's `:` or a member's or item's `,` (`run`, with whitespace around it), and the
    /// `"` after it: the string or key after it opens.
    pub(super) fn separator_quote(&mut self, run: &str) -> bool {
        if self.stopped.is_some() || self.cut.is_some() {
            return false;
        }
        // A run holds no control character, so a space is the only whitespace it can hold.
        let mut marks = run.bytes().filter(|&byte| byte != b' ');
        let (Some(mark), None) = (marks.next(), marks.next()) else {
            return false;
        };
        let expect = match (mark, self.expect) {
            (b':', Expect::Colon) => Expect::Value,
            (b',', Expect::AfterValue) => match self.open.last() {
                Some(top) if top & 1 == 1 => Expect::Key,
                _ => Expect::Value,
            },
            _ => return false,
        };
        match self.offset.checked_add(run.len()) {
            Some(end) if end < self.max_bytes => self.offset = end,
            _ => return false,
        }
        self.expect = expect;
        self.open_quote()
    }

    /// A character of a string's or key's body (not `"` or a control character; a
    /// backslash begins an escape) while one is open and nothing is cut inside it.
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
}
