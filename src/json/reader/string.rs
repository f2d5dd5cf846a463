//! Strings: a string's body read to its closing quote, the runs and characters it goes to
//! the sink as, and the tokens a chunk cut (a string, an escape, a character, a number, a
//! literal) taken up again when the next chunk comes.

use super::escape::{self, scan_plain, Broken, Escape};
use super::number::End;
use super::{emit, invalid, CharAt, Cut, Input, Reader, Step, Stop, Str, CUT};
use crate::json::error::{ErrorKind, Inside};
use crate::json::event::{Event, Sink};
use crate::json::value::Number;
use std::borrow::Cow;

/// The room a carried key starts with: most keys are shorter.
const KEY_START: usize = 32;

impl Reader {
    /// Goes on with the token the last chunk cut.
    pub(super) fn resume<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        cut: Cut,
        input: I,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Step {
        let bytes = input.bytes();
        match cut {
            Cut::Str(string) => self.string(input, 0, string, next, sink),
            Cut::Escape { string, at, len } => {
                self.resume_escape(string, at, len, input, next, sink)
            }
            Cut::Char { string, at, len } => match self.complete_char(len, bytes) {
                (CharAt::Valid(c), used) => {
                    let mut string = string;
                    self.string_char(&mut string, c, at, sink)?;
                    self.string(input, used, string, next, sink)
                }
                (CharAt::Invalid, _) => Err(invalid(self.error(ErrorKind::InvalidUtf8, at, ""))),
                (CharAt::Cut(len), _) => {
                    self.cut = Some(Cut::Char { string, at, len });
                    Ok(CUT)
                }
            },
            Cut::Number { start, grammar } => {
                let (grammar, end) = grammar.scan(bytes, 0);
                let digits = bytes.get(..end).unwrap_or_default();
                self.carry
                    .number
                    .extend(digits.iter().map(|&b| char::from(b)));
                match bytes.get(end) {
                    None => {
                        self.cut = Some(Cut::Number { start, grammar });
                        Ok(CUT)
                    }
                    Some(&byte) => match grammar.end_at(byte) {
                        End::Complete => {
                            let text = std::mem::take(&mut self.carry.number);
                            let number = Number::from_checked(Cow::Owned(text));
                            emit(sink, Event::Number(number), start)?;
                            Ok(end)
                        }
                        End::Broken(detail) => {
                            let error = self.error(ErrorKind::InvalidNumber, self.at(end), detail);
                            self.fail_at(error, input, end).map(|()| CUT)
                        }
                    },
                }
            }
            Cut::Literal {
                start,
                word,
                matched,
            } => self.literal(word, start, matched, input, 0, sink),
            Cut::BadChar { error, at, len } => match self.complete_char(len, bytes) {
                (CharAt::Valid(c), _) => {
                    let mut error = *error;
                    if error.at.offset == at {
                        error.set_found(c);
                    }
                    Err(invalid(error))
                }
                (CharAt::Invalid, _) => Err(invalid(self.error(ErrorKind::InvalidUtf8, at, ""))),
                (CharAt::Cut(len), _) => {
                    self.cut = Some(Cut::BadChar { error, at, len });
                    Ok(CUT)
                }
            },
        }
    }

    /// Goes on with an escape a chunk cut, its first `len` bytes in `carry.escape`.
    pub(super) fn resume_escape<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        string: Str,
        at: usize,
        len: usize,
        input: I,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Step {
        let bytes = input.bytes();
        // The escape's bytes so far and as many of this chunk's as an escape can hold,
        // decoded once (the decoder decides at the same byte whatever follows it).
        let room = self.carry.escape.len().saturating_sub(len);
        let added = bytes.len().min(room);
        let n_bytes = len + added;
        if let (Some(slots), Some(more)) =
            (self.carry.escape.get_mut(len..n_bytes), bytes.get(..added))
        {
            slots.copy_from_slice(more);
        }
        let escape = self.carry.escape.get(..n_bytes).unwrap_or_default();
        match escape::decode(escape, false) {
            Escape::Char(c, used) => {
                let mut string = string;
                self.string_char(&mut string, c, at, sink)?;
                self.string(input, used.saturating_sub(len), string, next, sink)
            }
            Escape::NeedMore => {
                // Every byte of the chunk is in the escape, and it still needs more.
                self.cut = Some(Cut::Escape {
                    string,
                    at,
                    len: n_bytes,
                });
                Ok(CUT)
            }
            Escape::Broken(broken) => {
                // The deciding byte is one this chunk gave.
                let decided = broken.decided.map(|d| d.saturating_sub(len));
                self.broken_escape(broken, at, decided, string, input)
            }
        }
    }

    /// A string's body from chunk position `pos` (after its opening quote, or at the
    /// chunk's start when a chunk cut it) to its closing quote.
    pub(super) fn string<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        pos: usize,
        string: Str,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Step {
        let stop = scan_plain(input.bytes(), pos);
        self.string_from(input, pos, stop, string, next, sink)
    }

    /// [`Reader::string`], its first plain run known to stop at `stop`.
    pub(super) fn string_from<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        mut pos: usize,
        mut stop: usize,
        mut string: Str,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Step {
        let bytes = input.bytes();
        loop {
            match bytes.get(stop) {
                Some(b'"') => {
                    let run = self.run_text(input, pos, stop)?;
                    self.end_string(string, run, pos, stop, sink)?;
                    return Ok(stop + 1);
                }
                Some(b'\\') => {
                    let run = self.run_text(input, pos, stop)?;
                    self.string_run(&mut string, run, self.at(pos), sink)?;
                    let at = self.at(stop);
                    let escape = bytes.get(stop..).unwrap_or_default();
                    match escape::decode(escape, false) {
                        Escape::Char(c, len) => {
                            self.string_char(&mut string, c, at, sink)?;
                            pos = stop + len;
                            stop = scan_plain(bytes, pos);
                        }
                        Escape::NeedMore => {
                            let len = escape.len();
                            if let Some(carry) = self.carry.escape.get_mut(..len) {
                                carry.copy_from_slice(escape);
                            }
                            self.cut = Some(Cut::Escape { string, at, len });
                            return Ok(CUT);
                        }
                        Escape::Broken(broken) => {
                            let decided = broken.decided.map(|d| stop + d);
                            return self.broken_escape(broken, at, decided, string, input);
                        }
                    }
                }
                Some(&byte) => {
                    // Bytes that are not UTF-8 before it come first.
                    self.run_text(input, pos, stop)?;
                    let kind = ErrorKind::ControlCharacter { byte };
                    let error = self.error(kind, self.at(stop), "");
                    return self.fail_at(error, input, stop).map(|()| CUT);
                }
                None => return self.string_cut(input, pos, string, next, sink),
            }
        }
    }

    /// The chunk ended inside a string, after a run from `pos` that holds no escape.
    pub(super) fn string_cut<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        pos: usize,
        mut string: Str,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Step {
        let bytes = input.bytes();
        let len = bytes.len();
        let run = bytes.get(pos..).unwrap_or_default();
        let (text, n_cut) = match input.tail(pos) {
            Ok(tail) => tail,
            Err(bad) => {
                let at = self.at(bad);
                return Err(invalid(self.error(ErrorKind::InvalidUtf8, at, "")));
            }
        };
        if n_cut == 0 && *next == Some('"') {
            *next = None;
            self.end_string(string, text, pos, len, sink)?;
            return Ok(len);
        }
        self.string_run(&mut string, text, self.at(pos), sink)?;
        if n_cut == 0 {
            self.cut = Some(Cut::Str(string));
        } else {
            let partial = run.get(run.len() - n_cut..).unwrap_or_default();
            if let Some(carry) = self.carry.char.get_mut(..n_cut) {
                carry.copy_from_slice(partial);
            }
            let at = self.at(len - n_cut);
            self.cut = Some(Cut::Char {
                string,
                at,
                len: n_cut,
            });
        }
        Ok(CUT)
    }

    /// The closing quote at chunk position `close`, after a last run (from `run_pos`).
    pub(super) fn end_string<'a, S: Sink<'a>>(
        &mut self,
        string: Str,
        run: &'a str,
        run_pos: usize,
        close: usize,
        sink: &mut S,
    ) -> Result<(), Stop> {
        if string.key {
            let key = if self.carry.key.is_empty() {
                Cow::Borrowed(run)
            } else {
                self.carry.key.push_str(run);
                Cow::Owned(std::mem::take(&mut self.carry.key))
            };
            return emit(sink, Event::Key(key), string.quote);
        }
        if !string.started {
            return emit(sink, Event::String(run), string.quote);
        }
        if !run.is_empty() {
            emit(sink, Event::StringPart(run), self.at(run_pos))?;
        }
        emit(sink, Event::StringEnd, self.at(close))
    }

    /// A run of a string's text that stands in the input as itself.
    pub(super) fn string_run<'a, S: Sink<'a>>(
        &mut self,
        string: &mut Str,
        run: &'a str,
        at: usize,
        sink: &mut S,
    ) -> Result<(), Stop> {
        if run.is_empty() {
            return Ok(());
        }
        if string.key {
            self.carry_key().push_str(run);
            return Ok(());
        }
        if !string.started {
            string.started = true;
            emit(sink, Event::StringStart, string.quote)?;
        }
        emit(sink, Event::StringPart(run), at)
    }

    /// The carry a key is gathered in, given room for a typical key at once: it is handed
    /// on with the key, so each key a chunk cuts starts a new one, which would otherwise
    /// grow from 8 bytes.
    fn carry_key(&mut self) -> &mut String {
        if self.carry.key.capacity() == 0 {
            self.carry.key.reserve(KEY_START);
        }
        &mut self.carry.key
    }

    /// One character of a string's text that does not stand in the input as itself.
    pub(super) fn string_char<'a, S: Sink<'a>>(
        &mut self,
        string: &mut Str,
        c: char,
        at: usize,
        sink: &mut S,
    ) -> Result<(), Stop> {
        if string.key {
            self.carry_key().push(c);
            return Ok(());
        }
        if !string.started {
            string.started = true;
            emit(sink, Event::StringStart, string.quote)?;
        }
        emit(sink, Event::StringChar(c), at)
    }

    /// The text of a run of a string between two chunk positions that stand next to ASCII
    /// bytes: a `str` by type, or bytes checked to be UTF-8 here.
    pub(super) fn run_text<'a, I: Input<'a>>(
        &self,
        input: I,
        start: usize,
        end: usize,
    ) -> Result<&'a str, Stop> {
        input
            .text(start, end)
            .map_err(|bad| invalid(self.error(ErrorKind::InvalidUtf8, self.at(bad), "")))
    }

    /// An escape that is not valid, at the backslash `at`; `decided` is the chunk position
    /// of the byte that decided it.
    pub(super) fn broken_escape<'a>(
        &mut self,
        broken: Broken,
        at: usize,
        decided: Option<usize>,
        string: Str,
        input: impl Input<'a>,
    ) -> Step {
        let error = match broken.kind.error_kind() {
            Some(kind) => self.error(kind, at + broken.report, broken.detail),
            None => self.truncated(Inside::String, string.quote),
        };
        match decided {
            Some(decided) => self.fail_at(error, input, decided).map(|()| CUT),
            None => Err(invalid(error)),
        }
    }
}
