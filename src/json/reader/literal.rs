//! A text read through a string literal's escapes (OpenAI's arguments text): the literal's
//! body walked escape by escape ([`Reader::feed_literal`]), and the fast steps such a text
//! takes at nearly every `\"`, without a turn of the byte machine.

use super::escape::{self, scan_plain, Escape};
use super::{emit, Cut, Expect, Reader, Stop, Str, Text};
use crate::json::event::{Event, Sink};
use std::borrow::Cow;

impl Reader {
    /// Reads the text a JSON string literal holds, from the literal's body as it stands in
    /// the input (`literal`: its bytes after the opening quote, escapes and all), as one
    /// step: each run between two escapes and the character the escape after it stands for
    /// go in as [`Reader::feed_str_then`] takes them, so that a string or key of the text
    /// between two `\"` comes whole, borrowed from `literal`. No unescaped copy is made.
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
            // The commonest steps between two strings, `:\"` and `,\"`, and an object's or an
            // array's start, `{\"` and `[\"`.
            match bytes.get(pos..pos + 3) {
                // (The guard takes the step when it can.)
                Some(&[punctuation @ (b':' | b','), b'\\', b'"'])
                    if self.punctuation_then_quote(&[punctuation]) =>
                {
                    pos += 3;
                    continue;
                }
                Some(&[bracket @ (b'{' | b'['), b'\\', b'"']) => {
                    if let Some(read) = self.open_then_quote(bracket == b'{', literal, pos, sink) {
                        read?;
                        pos += 3;
                        continue;
                    }
                }
                _ => {}
            }
            let stop = scan_plain(bytes, pos);
            // `stop` stands at an ASCII byte or at the end: a character boundary.
            let run = literal.get(pos..stop).unwrap_or_default();
            let Some((c, len)) = literal_escape(bytes, stop) else {
                if !run.is_empty() {
                    self.feed_str(run, sink)?;
                }
                return Ok(stop);
            };
            let mut after = stop + len;
            let rest = bytes.get(after..).unwrap_or_default();
            match self.body_step(run, c, rest, sink) {
                Some((read, used)) => {
                    read?;
                    after += used;
                }
                None => self.feed_str_then(run, c, sink)?,
            }
            pos = after;
        }
    }

    /// Inside the body of a string or key that is open with nothing cut in it: `run` (which
    /// holds nothing that would end or escape it) then `c`, the character a literal's escape
    /// stands for, when that is `"`, which closes the string, or `\`, which begins an
    /// escape of the text whose code the literal's next bytes `rest` give (`\\n` in the
    /// literal is `\n` in the text, `\\\"` is `\"`, `\\u00e9` is `\u00e9`). The answer,
    /// and how many bytes of `rest` it took; `None` for anything else, which takes the byte
    /// machine's way (the property tests feed texts both ways).
    #[inline]
    fn body_step<'a, S: Sink<'a>>(
        &mut self,
        run: &'a str,
        c: char,
        rest: &[u8],
        sink: &mut S,
    ) -> Option<(Result<(), Stop>, usize)> {
        let mut string = match &self.cut {
            Some(Cut::Str(string)) if self.stopped.is_none() => *string,
            _ => return None,
        };
        let (read, used) = match c {
            '"' => {
                let end = self.offset.checked_add(run.len())?.checked_add(1)?;
                if end > self.max_bytes {
                    return None;
                }
                let read = self.end_string(string, run, 0, run.len(), sink);
                self.cut = None;
                self.offset = end;
                (read, 0)
            }
            '\\' => {
                // The text's escape: its character, how many bytes of `rest` spell the rest
                // of it (its code is itself escaped in the literal when it is `"` or `\`),
                // and its length in the text.
                let (escaped, used, len) = match rest {
                    [b'\\', b'"', ..] => ('"', 2, 2),
                    [b'\\', b'\\', ..] => ('\\', 2, 2),
                    // `\u` with four hex digits, not a surrogate (a pair's second backslash
                    // is escaped in the literal: the byte machine reads pairs).
                    [b'u', digits @ ..] => {
                        let mut unicode = [b'\\', b'u', 0, 0, 0, 0];
                        unicode.get_mut(2..)?.copy_from_slice(digits.get(..4)?);
                        match escape::decode(&unicode, false) {
                            Escape::Char(c, 6) => (c, 5, 6),
                            _ => return None,
                        }
                    }
                    // A bare `"` ends the literal; a backslash begins one of its escapes.
                    [b'"' | b'\\', ..] | [] => return None,
                    [code, ..] => (escape::short(*code)?, 1, 2),
                };
                let end = self.offset.checked_add(run.len())?.checked_add(len)?;
                if end > self.max_bytes {
                    return None;
                }
                let at = self.offset + run.len();
                let mut read = self.string_run(&mut string, run, self.offset, sink);
                if read.is_ok() {
                    read = self.string_char(&mut string, escaped, at, sink);
                }
                self.cut = Some(Cut::Str(string));
                self.offset = end;
                (read, used)
            }
            _ => return None,
        };
        if let Err(stop) = &read {
            self.stopped = Some(stop.clone());
        }
        Some((read, used))
    }

    /// Takes reading up again after the sink broke at the [`Event::StringStart`] of a string
    /// value whose literal (opened at offset `quote`) it read on its own, through
    /// [`Reader::feed_literal`], up to offset `at`: just past the literal's closing quote
    /// when `closed`, else inside its body, where the reader goes on with it (sending its
    /// remaining pieces and its [`Event::StringEnd`]). The next chunk starts at `at`.
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

    /// `{` (`is_object`) or `[` at chunk position `pos` of `literal`, then the quote that
    /// opens the first key or element, where a value may begin and nothing is cut: opens
    /// both. `None` when that is not the case, or when the bracket would be too deep (the
    /// byte machine's to refuse).
    #[inline]
    fn open_then_quote<'a, S: Sink<'a>>(
        &mut self,
        is_object: bool,
        literal: &'a str,
        pos: usize,
        sink: &mut S,
    ) -> Option<Result<(), Stop>> {
        let fits = self
            .offset
            .checked_add(2)
            .is_some_and(|end| end <= self.max_bytes);
        if self.stopped.is_some()
            || self.cut.is_some()
            || !matches!(self.expect, Expect::Value | Expect::FirstElement)
            || self.open.len() >= self.max_depth
            || !fits
        {
            return None;
        }
        let at = self.offset;
        // The chunk is `literal` from `pos`, so that its positions are the reader's.
        let chunk = literal.get(pos..).unwrap_or_default();
        if let Err(stop) = self.open(is_object, at, 0, Text(chunk), sink) {
            self.stopped = Some(stop.clone());
            return Some(Err(stop));
        }
        self.offset += 1;
        self.expect = if is_object {
            Expect::FirstKey
        } else {
            Expect::FirstElement
        };
        // A key or value may begin and the quote fits, so it opens here; the byte machine's
        // way otherwise.
        if self.open_quote() {
            return Some(Ok(()));
        }
        Some(self.feed_char('"', sink))
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
