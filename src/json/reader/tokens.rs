//! The token loop: a chunk's tokens from where the last one left the reader, until it
//! ends. Two loops, as a parser without chunks would have them (at a value, after a
//! value); keys, numbers, literals and brackets on the way. Strings are in `string.rs`,
//! the end of the input and the errors in `end.rs`.

use super::escape::scan_plain;
use super::number::{End, Grammar};
use super::{invalid, skip_whitespace, Cut, Expect, Input, KeyStep, Reader, Stop, Str, Word};
use crate::json::error::ErrorKind;
use crate::json::event::{Event, Sink};
use crate::json::value::Number;
use std::borrow::Cow;
use std::ops::ControlFlow;

pub(super) fn emit<'a, S: Sink<'a>>(sink: &mut S, event: Event<'a>, at: usize) -> Result<(), Stop> {
    match sink.event(event, at) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(Stop::Sink),
    }
}

/// The token functions' answer: the chunk position after the token, or [`CUT`] when the
/// chunk ended first (the token is then in `cut`, or an error waits there for its
/// character). A plain `usize`, not an `Option`, so that the answer comes back in registers.
pub(super) type Step = Result<usize, Stop>;

/// See [`Step`]: no chunk position is this large.
pub(super) const CUT: usize = usize::MAX;

impl Reader {
    pub(super) fn run<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Result<(), Stop> {
        if let Some(stop) = &self.stopped {
            return Err(stop.clone());
        }
        let result = self.read(input, next, sink);
        if let Err(stop) = &result {
            self.stopped = Some(stop.clone());
        }
        result
    }

    pub(super) fn read<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Result<(), Stop> {
        // A character after the chunk (see `feed_str_then`) counts with it.
        let extra = next.map_or(0, char::len_utf8);
        let end = match self.offset.checked_add(input.bytes().len() + extra) {
            Some(end) if end <= self.max_bytes => end,
            size => {
                let kind = ErrorKind::TooLarge {
                    limit: self.max_bytes,
                    size: size.unwrap_or(usize::MAX),
                };
                return Err(invalid(self.error(kind, self.max_bytes, "")));
            }
        };
        let chunk_end = end - extra;
        let pos = match self.cut.take() {
            Some(cut) => self.resume(cut, input, next, sink)?,
            None => 0,
        };
        // `CUT`: the chunk ended inside what the last one left cut.
        if pos != CUT {
            self.tokens(input, pos, next, sink)?;
        }
        // The character after the chunk counts once it has been read with it.
        self.offset = if next.is_none() { end } else { chunk_end };
        Ok(())
    }

    /// The offset in the text of chunk position `pos`.
    pub(super) fn at(&self, pos: usize) -> usize {
        self.offset + pos
    }

    /// The tokens of a chunk from `pos`, until it ends.
    ///
    /// Two loops, as a parser without chunks would have them: one at a value, one after a
    /// value (a comma, a closing bracket); a key and its colon are read on the way from one
    /// to the other. Where the reader stands is only written to `expect` when the chunk
    /// ends.
    pub(super) fn tokens<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        mut pos: usize,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Result<(), Stop> {
        let bytes = input.bytes();
        // Directly after `[`, where `]` may come.
        let mut first = false;
        let mut at_value = true;
        match self.expect {
            Expect::Value => {}
            Expect::FirstElement => first = true,
            Expect::AfterValue | Expect::End => at_value = false,
            Expect::FirstKey | Expect::Key => {
                let is_first = self.expect == Expect::FirstKey;
                match self.member_key(input, pos, is_first, next, sink)? {
                    KeyStep::Value(after) => pos = after,
                    KeyStep::Closed(after) => {
                        pos = after;
                        at_value = false;
                    }
                    KeyStep::Cut => return Ok(()),
                }
            }
            Expect::Colon => match self.colon(input, pos)? {
                KeyStep::Value(after) => pos = after,
                KeyStep::Closed(_) | KeyStep::Cut => return Ok(()),
            },
        }
        'value: loop {
            if at_value {
                pos = skip_whitespace(bytes, pos);
                let Some(&byte) = bytes.get(pos) else {
                    self.expect = if first {
                        Expect::FirstElement
                    } else {
                        Expect::Value
                    };
                    return Ok(());
                };
                let at = self.at(pos);
                let step = match byte {
                    b'"' => {
                        let body = pos + 1;
                        let string = Str {
                            quote: at,
                            key: false,
                            started: false,
                        };
                        // A literal that holds an escape (or another byte that stops a
                        // plain run) is offered to the sink first.
                        let stop = scan_plain(bytes, body);
                        let offered = match bytes.get(stop) {
                            // A plain string, the commonest value: sent whole, as found.
                            Some(b'"') => {
                                let text = self.run_text(input, body, stop)?;
                                emit(sink, Event::String(text), at)?;
                                pos = stop + 1;
                                at_value = false;
                                continue 'value;
                            }
                            Some(_) => input.rest(body).and_then(|rest| sink.literal(at, rest)),
                            None => None,
                        };
                        match offered {
                            Some(read) => {
                                self.after_literal(input, body, read, string, next, sink)?
                            }
                            None => self.string_from(input, body, stop, string, next, sink)?,
                        }
                    }
                    b'{' => {
                        self.open(true, at, pos, input, sink)?;
                        match self.member_key(input, pos + 1, true, next, sink)? {
                            KeyStep::Value(after) => {
                                pos = after;
                                first = false;
                                continue 'value;
                            }
                            KeyStep::Closed(after) => after,
                            KeyStep::Cut => return Ok(()),
                        }
                    }
                    b'[' => {
                        self.open(false, at, pos, input, sink)?;
                        pos += 1;
                        first = true;
                        continue 'value;
                    }
                    b']' if first => {
                        self.close(at, sink)?;
                        pos + 1
                    }
                    b'-' | b'0'..=b'9' => self.number(input, pos, next, sink)?,
                    b't' => self.literal(Word::True, at, 0, input, pos, sink)?,
                    b'f' => self.literal(Word::False, at, 0, input, pos, sink)?,
                    b'n' => self.literal(Word::Null, at, 0, input, pos, sink)?,
                    _ => {
                        let expected = self.expected_value(first);
                        return self.unexpected(expected, input, pos);
                    }
                };
                if step == CUT {
                    self.expect = self.after_value();
                    return Ok(());
                }
                pos = step;
            }
            at_value = true;
            first = false;
            // After a value: close what the input closes, then on to the next one.
            loop {
                pos = skip_whitespace(bytes, pos);
                let Some(&byte) = bytes.get(pos) else {
                    self.expect = self.after_value();
                    return Ok(());
                };
                let Some(top) = self.open.last() else {
                    let error = self.error(ErrorKind::TrailingCharacters, self.at(pos), "");
                    return self.fail_at(error, input, pos);
                };
                match (byte, top & 1 == 1) {
                    (b',', false) => {
                        pos += 1;
                        continue 'value;
                    }
                    (b',', true) => match self.member_key(input, pos + 1, false, next, sink)? {
                        KeyStep::Value(after) => {
                            pos = after;
                            continue 'value;
                        }
                        KeyStep::Closed(after) => pos = after,
                        KeyStep::Cut => return Ok(()),
                    },
                    (b']', false) | (b'}', true) => {
                        self.close(self.at(pos), sink)?;
                        pos += 1;
                    }
                    (_, in_object) => {
                        let expected = match in_object {
                            false => "',' or ']' after an array element",
                            true => "',' or '}' after an object member",
                        };
                        return self.unexpected(expected, input, pos);
                    }
                }
            }
        }
    }

    /// A key and its colon from chunk position `pos` (after `{` when `first`, where `}`
    /// may come instead, else after `,`). Inlined into the value loop, at its two sites (after
    /// `{` and after `,`): out of line, every key paid a call with six saved registers and
    /// its answer through memory.
    pub(super) fn member_key<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        pos: usize,
        first: bool,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Result<KeyStep, Stop> {
        let bytes = input.bytes();
        let pos = skip_whitespace(bytes, pos);
        let Some(&byte) = bytes.get(pos) else {
            self.expect = if first { Expect::FirstKey } else { Expect::Key };
            return Ok(KeyStep::Cut);
        };
        let at = self.at(pos);
        match byte {
            b'"' => {
                let string = Str {
                    quote: at,
                    key: true,
                    started: false,
                };
                let body = pos + 1;
                let stop = scan_plain(bytes, body);
                let after = match bytes.get(stop) {
                    // A plain key, nearly every one: sent whole, as found.
                    Some(b'"') => {
                        let key = self.run_text(input, body, stop)?;
                        emit(sink, Event::Key(Cow::Borrowed(key)), at)?;
                        stop + 1
                    }
                    _ => self.string_from(input, body, stop, string, next, sink)?,
                };
                if after == CUT {
                    self.expect = Expect::Colon;
                    return Ok(KeyStep::Cut);
                }
                self.colon(input, after)
            }
            b'}' if first => {
                self.close(at, sink)?;
                Ok(KeyStep::Closed(pos + 1))
            }
            _ => {
                let expected = if first {
                    "a string key or '}'"
                } else {
                    "a string key after ','"
                };
                self.unexpected(expected, input, pos).map(|()| KeyStep::Cut)
            }
        }
    }

    /// The colon after a key, from chunk position `pos`.
    pub(super) fn colon<'a, I: Input<'a>>(
        &mut self,
        input: I,
        pos: usize,
    ) -> Result<KeyStep, Stop> {
        let pos = skip_whitespace(input.bytes(), pos);
        match input.bytes().get(pos) {
            Some(b':') => Ok(KeyStep::Value(pos + 1)),
            Some(_) => self
                .unexpected("':' after an object key", input, pos)
                .map(|()| KeyStep::Cut),
            None => {
                self.expect = Expect::Colon;
                Ok(KeyStep::Cut)
            }
        }
    }

    /// A number from chunk position `pos`.
    pub(super) fn number<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        input: I,
        pos: usize,
        next: &mut Option<char>,
        sink: &mut S,
    ) -> Step {
        let bytes = input.bytes();
        let (grammar, end) = Grammar::Start.scan(bytes, pos);
        let complete = match bytes.get(end) {
            Some(&byte) => match grammar.end_at(byte) {
                End::Complete => true,
                End::Broken(detail) => {
                    let error = self.error(ErrorKind::InvalidNumber, self.at(end), detail);
                    return self.fail_at(error, input, end).map(|()| CUT);
                }
            },
            // A number that ends the chunk is complete if `next` cannot go on with it.
            None => {
                grammar.is_complete()
                    && next.is_some_and(|c| !matches!(c, '0'..='9' | '.' | 'e' | 'E' | '+' | '-'))
            }
        };
        let start = self.at(pos);
        if complete {
            // Number bytes are ASCII, so this check cannot fail.
            let text = input.text(pos, end).unwrap_or_default();
            let number = Number::from_checked(Cow::Borrowed(text));
            emit(sink, Event::Number(number), start)?;
            return Ok(end);
        }
        // Cut by the chunk's end: carried into the next chunk.
        let text = bytes.get(pos..end).unwrap_or_default();
        self.carry.number.clear();
        self.carry
            .number
            .extend(text.iter().map(|&b| char::from(b)));
        self.cut = Some(Cut::Number { start, grammar });
        Ok(CUT)
    }

    /// `true`, `false` or `null` that starts at `start`, `matched` bytes read, from chunk
    /// position `pos`, checked byte by byte so that `tru` at the end of the input is
    /// truncated and `trux` is not.
    pub(super) fn literal<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        word: Word,
        start: usize,
        matched: usize,
        input: I,
        mut pos: usize,
        sink: &mut S,
    ) -> Step {
        let first = pos;
        for &want in word.text().get(matched..).unwrap_or_default() {
            match input.bytes().get(pos) {
                Some(&got) if got == want => pos += 1,
                Some(_) => return self.unexpected(word.expected(), input, pos).map(|()| CUT),
                _ => {
                    let matched = matched + (pos - first);
                    self.cut = Some(Cut::Literal {
                        start,
                        word,
                        matched,
                    });
                    return Ok(CUT);
                }
            }
        }
        emit(sink, word.event(), start)?;
        Ok(pos)
    }

    /// Opens an array or object at its bracket (offset `at`, chunk position `pos`).
    pub(super) fn open<'a, I: Input<'a>, S: Sink<'a>>(
        &mut self,
        is_object: bool,
        at: usize,
        pos: usize,
        input: I,
        sink: &mut S,
    ) -> Result<(), Stop> {
        if self.open.len() >= self.max_depth {
            let kind = ErrorKind::TooDeep {
                limit: self.max_depth,
            };
            let error = self.error(kind, at, "");
            return self.fail_at(error, input, pos);
        }
        // Offsets are at most `max_bytes <= usize::MAX`; a text that long cannot be held
        // in memory, so doubling one cannot overflow in practice, and saturates if it does.
        self.open
            .push(at.saturating_mul(2) | usize::from(is_object));
        let event = if is_object {
            Event::ObjectStart
        } else {
            Event::ArrayStart
        };
        emit(sink, event, at)
    }

    /// Closes the innermost container at its bracket (offset `at`).
    pub(super) fn close<'a, S: Sink<'a>>(&mut self, at: usize, sink: &mut S) -> Result<(), Stop> {
        let event = match self.open.pop() {
            Some(entry) if entry & 1 == 1 => Event::ObjectEnd,
            _ => Event::ArrayEnd,
        };
        emit(sink, event, at)
    }

    /// What follows a complete value.
    pub(super) fn after_value(&self) -> Expect {
        if self.open.is_empty() {
            Expect::End
        } else {
            Expect::AfterValue
        }
    }

    /// What a value position wants, in words, for `Unexpected` (`first`: right after `[`).
    pub(super) fn expected_value(&self, first: bool) -> &'static str {
        match self.open.last() {
            _ if first => "a value or ']'",
            None => "a JSON value",
            Some(entry) if entry & 1 == 1 => "a value after ':'",
            Some(_) => "a value after ','",
        }
    }
}
