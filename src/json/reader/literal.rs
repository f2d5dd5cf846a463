//! A text read through a string literal's escapes (OpenAI's arguments text): the literal's
//! body read by the byte machine itself as far as it holds no escape but `\"` and `\\`
//! ([`Reader::feed_literal`], [`Literal`] chunks), and the fast steps a text fed as the
//! literal's pieces takes at nearly every escaped character, without a turn of the byte
//! machine.

use super::escape::{self, scan_plain, Escape};
use super::{ends_text, Cut, Expect, Input, Literal, Reader, Step, Stop, Str, CUT};
use crate::json::event::Sink;
use std::cell::Cell;

impl Reader {
    /// Reads the text a JSON string literal holds, from the literal's body as it stands in
    /// the input (`literal`: its bytes after the opening quote, escapes and all), as one
    /// step: the stretches that hold no escape but `\"` and `\\` are read by the byte
    /// machine itself, as chunks of its own kind that end where the machine meets any other
    /// escape (so a string or key of the text between two `\"` comes whole, borrowed from
    /// `literal`, and no byte is scanned twice), and the character any other escape
    /// stands for goes in as [`Reader::feed_char`] takes it. No unescaped copy is made.
    ///
    /// Reading stops at the literal's closing quote, and before anything that would end it
    /// otherwise or make it invalid: a control character, an escape that is not valid, or
    /// one that `literal` ends inside. The answer is how many bytes of `literal` were read;
    /// the caller feeds the rest, if it goes on, as the literal's pieces
    /// ([`Reader::feed_str`], [`Reader::feed_char`]), or finds there the literal's own
    /// error. The text is the same whichever way it came in.
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
        let mut pos = 0;
        loop {
            // The rest is read as a chunk where nothing but a string is cut (the rest a
            // chunk can cut is carried as the text's own bytes), and where its bytes fit the
            // limit as they stand (the text's are fewer): up to the first byte that is
            // neither plain, `\"` nor `\\`. Else its first run, and the `\"` or `\\` after
            // it, go in as pieces. (Positions at ASCII bytes or at the end are character
            // boundaries.)
            let rest = literal.get(pos..).unwrap_or_default();
            let fits = self
                .offset
                .checked_add(rest.len())
                .is_some_and(|end| end <= self.max_bytes);
            if fits && matches!(self.cut, None | Some(Cut::Str(_))) {
                pos += self.feed_stretch(rest, sink)?;
            } else {
                let run_end = scan_plain(bytes, pos);
                self.feed_str(literal.get(pos..run_end).unwrap_or_default(), sink)?;
                pos = run_end;
                if !ends_text(bytes, pos) && pos < bytes.len() {
                    let escaped = bytes.get(pos + 1).copied().unwrap_or_default();
                    self.feed_char(char::from(escaped), sink)?;
                    pos += 2;
                    continue;
                }
            }
            let Some((c, len)) = literal_escape(bytes, pos) else {
                return Ok(pos);
            };
            self.feed_char(c, sink)?;
            pos += len;
        }
    }

    /// The text of a literal from the start of `body`, as a [`Literal`] chunk, as far as
    /// the chunk goes: how many bytes of `body` it took. Out of line, so that the byte
    /// machine it inlines is laid out as a text's is (inlined into `feed_literal`, it
    /// measured slower).
    #[inline(never)]
    fn feed_stretch<'a, S: Sink<'a>>(
        &mut self,
        body: &'a str,
        sink: &mut S,
    ) -> Result<usize, Stop> {
        let end = Cell::new(body.len());
        let literal = Literal { body, end: &end };
        self.run(literal, &mut None, sink)?;
        Ok(end.get())
    }

    /// One of the text's escapes in a string of a [`Literal`] chunk: its backslash is the
    /// literal's `\\` at chunk position `stop`, and its code follows, itself escaped where
    /// it is `"` or `\` (`\\\"` in the literal is `\"` in the text, `\\n` is `\n`,
    /// `\\u00e9` is `\u00e9`). The chunk position after it, or [`CUT`] when the chunk ends
    /// inside it (carried as the text's bytes so far, as a chunk of the text would be);
    /// with the string.
    pub(super) fn literal_text_escape<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        stop: usize,
        mut string: Str,
        sink: &mut S,
    ) -> Result<(usize, Str), Stop> {
        let bytes = input.bytes();
        let at = self.at(stop);
        // The commonest: a one-letter code, or `"` or `\` escaped in the literal.
        let quick = match bytes.get(stop + 2) {
            Some(b'\\') => match bytes.get(stop + 3) {
                Some(&code @ (b'"' | b'\\')) => Some((char::from(code), 4)),
                _ => None,
            },
            // (A `"` there is the literal's own.)
            Some(&code) if code != b'"' => escape::short(code).map(|c| (c, 3)),
            _ => None,
        };
        if let Some((c, len)) = quick {
            self.string_char(&mut string, c, at, sink)?;
            // Two bytes of the text.
            self.offset = self.offset.wrapping_sub(len - 2);
            return Ok((stop + len, string));
        }
        // `\u` and four hex digits that are not a surrogate, as they stand in the literal.
        if let Some(&[b'u', d0, d1, d2, d3]) = bytes.get(stop + 2..stop + 7) {
            if let Escape::Char(c, 6) = escape::decode(&[b'\\', b'u', d0, d1, d2, d3], false) {
                self.string_char(&mut string, c, at, sink)?;
                self.offset = self.offset.wrapping_sub(1);
                return Ok((stop + 7, string));
            }
        }
        // The text's bytes from its backslash, as many as an escape can take and up to where
        // the text ends, and the chunk position each begins at (`\"` and `\\` each stand
        // for their second byte).
        let mut text = [0; 12];
        let mut starts = [stop; 13];
        let mut n_text = 0;
        let mut pos = stop;
        while let (Some(slot), Some(&byte)) = (text.get_mut(n_text), bytes.get(pos)) {
            if ends_text(bytes, pos) {
                break;
            }
            let (byte, len) = match byte {
                b'\\' => (bytes.get(pos + 1).copied().unwrap_or(byte), 2),
                _ => (byte, 1),
            };
            *slot = byte;
            pos += len;
            n_text += 1;
            if let Some(start) = starts.get_mut(n_text) {
                *start = pos;
            }
        }
        let start_of = |n: usize| starts.get(n).copied().unwrap_or(pos);
        let text = text.get(..n_text).unwrap_or_default();
        // Steps `offset` to the text byte `n` of the escape, at chunk position `start_of(n)`.
        let shift = |reader: &mut Reader, n: usize| {
            reader.offset = reader.offset.wrapping_sub(start_of(n) - stop - n);
        };
        match escape::decode(text, false) {
            Escape::Char(c, len) => {
                self.string_char(&mut string, c, at, sink)?;
                shift(self, len);
                Ok((start_of(len), string))
            }
            Escape::NeedMore => {
                // Every byte of the text's chunk is in it.
                input.ends_at(pos);
                if let Some(carry) = self.carry.escape.get_mut(..n_text) {
                    carry.copy_from_slice(text);
                }
                self.cut = Some(Cut::Escape {
                    string,
                    at,
                    len: n_text,
                });
                shift(self, n_text);
                Ok((CUT, string))
            }
            Escape::Broken(broken) => {
                let decided = broken.decided.map(|n| {
                    shift(self, n);
                    start_of(n)
                });
                self.broken_escape(broken, at, decided, string, input)
                    .map(|step| (step, string))
            }
        }
    }

    /// Where reading goes on after the sink read `read` bytes of a string literal's body
    /// itself, from chunk position `body` ([`Sink::literal`]): past the literal if it
    /// closed there, else on through the rest of its body, as a string already begun.
    #[inline(never)]
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

    /// Takes reading up again after the sink broke at the [`Event::StringStart`](crate::json::Event::StringStart) of a string
    /// value whose literal (opened at offset `quote`) it read on its own, through
    /// [`Reader::feed_literal`], up to offset `at`: just past the literal's closing quote
    /// when `closed`, else inside its body, where the reader goes on with it (sending its
    /// remaining pieces and its [`Event::StringEnd`]). The next chunk starts at `at`.
    #[cfg(feature = "stream")]
    pub(crate) fn resume_after_literal(&mut self, quote: usize, at: usize, closed: bool) {
        self.stopped = None;
        self.offset = at;
        self.expect = self.after_value();
        self.cut = if closed {
            None
        } else {
            Some(Cut::Str(Str {
                quote,
                key: false,
                started: true,
            }))
        };
    }

    /// The opening quote of the string value whose body the last chunk ended in, with
    /// nothing of it cut (no escape, no character), while the reader has not stopped: a
    /// caller that reads that body on its own ([`Reader::feed_literal`]) can take the next
    /// chunk from here and then [`Reader::resume_after_literal`].
    #[cfg(feature = "stream")]
    pub(crate) fn in_string_body(&self) -> Option<usize> {
        match (&self.cut, &self.stopped) {
            (Some(Cut::Str(string)), None) if !string.key => Some(string.quote),
            _ => None,
        }
    }

    /// Whether the last chunk ended inside an escape of a string value.
    #[cfg(feature = "stream")]
    pub(crate) fn in_escape(&self) -> bool {
        matches!(&self.cut, Some(Cut::Escape { string, .. }) if !string.key)
            && self.stopped.is_none()
    }
}

/// The character the escape of a literal at `at` stands for, and its length; `None` when
/// no escape stands there, or one that is not valid or that the bytes end inside.
#[inline]
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
}
