//! How the reader stops: the end of the input (a number that ends it is complete; inside
//! any other value the input is truncated) and the errors, each located at the byte that
//! decided it.

use super::escape::{self, Escape};
use super::{char_at, emit, CharAt, Cut, Expect, Input, Reader, Stop};
use crate::json::error::{ErrorKind, Inside, ParseError, Position};
use crate::json::event::{Event, Sink};
use crate::json::value::Number;
use std::borrow::Cow;

impl Reader {
    /// The end of the input.
    pub(super) fn end<'a, S: Sink<'a>>(&mut self, sink: &mut S) -> Result<(), Stop> {
        match self.cut.take() {
            None => {}
            Some(Cut::Number { start, grammar }) => {
                if !grammar.is_complete() {
                    return Err(invalid(self.truncated(Inside::Number, start)));
                }
                let text = std::mem::take(&mut self.carry.number);
                let number = Number::from_checked(Cow::Owned(text));
                emit(sink, Event::Number(number), start)?;
            }
            Some(Cut::Literal { start, .. }) => {
                return Err(invalid(self.truncated(Inside::Literal, start)))
            }
            Some(Cut::Str(string) | Cut::Char { string, .. }) => {
                return Err(invalid(self.truncated(Inside::String, string.quote)))
            }
            Some(Cut::Escape { string, at, len }) => {
                let escape = self.carry.escape.get(..len).unwrap_or_default();
                let error = match escape::decode(escape, true) {
                    Escape::Broken(broken) => match broken.kind.error_kind() {
                        Some(kind) => self.error(kind, at + broken.report, broken.detail),
                        None => self.truncated(Inside::String, string.quote),
                    },
                    // Cannot happen: the escape was undecided without the end.
                    Escape::Char(..) | Escape::NeedMore => {
                        self.truncated(Inside::String, string.quote)
                    }
                };
                return Err(invalid(error));
            }
            Some(Cut::BadChar { error, at, .. }) => {
                // The character was cut by the end of the input. Some character could have
                // stood there, so the error stands if it was found before it; an error at
                // the character itself is the invalid UTF-8 there.
                if error.at.offset < at {
                    return Err(Stop::Invalid(error));
                }
                return Err(invalid(self.error(ErrorKind::InvalidUtf8, at, "")));
            }
        }
        if self.expect == Expect::End {
            return Ok(());
        }
        let error = match self.open.last() {
            Some(entry) if entry & 1 == 1 => self.truncated(Inside::Object, entry / 2),
            Some(entry) => self.truncated(Inside::Array, entry / 2),
            None => self.truncated(Inside::Document, self.offset),
        };
        Err(invalid(error))
    }

    /// The next bytes of a character whose first `len` bytes are in `carry.char`, from the
    /// start of `bytes`; with how many of them it took.
    pub(super) fn complete_char(&mut self, mut len: usize, bytes: &[u8]) -> (CharAt, usize) {
        let mut used = 0;
        loop {
            match char_at(self.carry.char.get(..len).unwrap_or_default()) {
                CharAt::Cut(_) => {}
                done => return (done, used),
            }
            match (bytes.get(used), self.carry.char.get_mut(len)) {
                (Some(&byte), Some(slot)) => *slot = byte,
                _ => return (CharAt::Cut(len), used),
            }
            len += 1;
            used += 1;
        }
    }

    /// Fails with `error`, decided by the byte at chunk position `decided`. When that byte
    /// is not ASCII, its character decides the answer: not UTF-8, the input is invalid there
    /// (RFC 8259 section 8.1: JSON text is UTF-8); cut by the chunk, the answer waits for
    /// the next one. An error reported at the deciding byte says which character it found.
    pub(super) fn fail_at<'a>(
        &mut self,
        mut error: ParseError,
        input: impl Input<'a>,
        decided: usize,
    ) -> Result<(), Stop> {
        let at = self.at(decided);
        let found = match input.bytes().get(decided..) {
            Some(rest) if !rest.is_empty() => char_at(rest),
            _ => return Err(invalid(error)),
        };
        match found {
            CharAt::Valid(c) => {
                if error.at.offset == at {
                    error.set_found(c);
                }
                Err(invalid(error))
            }
            CharAt::Invalid => Err(invalid(self.error(ErrorKind::InvalidUtf8, at, ""))),
            CharAt::Cut(len) => {
                let partial = input.bytes().get(decided..).unwrap_or_default();
                if let Some(carry) = self.carry.char.get_mut(..len) {
                    carry.copy_from_slice(partial);
                }
                self.cut = Some(Cut::BadChar {
                    error: Box::new(error),
                    at,
                    len,
                });
                Ok(())
            }
        }
    }

    /// `Unexpected` at chunk position `pos`.
    pub(super) fn unexpected<'a>(
        &mut self,
        expected: &'static str,
        input: impl Input<'a>,
        pos: usize,
    ) -> Result<(), Stop> {
        let kind = ErrorKind::Unexpected {
            expected,
            found: '\u{FFFD}',
        };
        let error = self.error(kind, self.at(pos), "");
        self.fail_at(error, input, pos)
    }

    pub(super) fn error(&self, kind: ErrorKind, at: usize, detail: &'static str) -> ParseError {
        ParseError {
            kind,
            at: Position::offset_only(at),
            detail,
            found: None,
        }
    }

    /// The input ended inside a value that started at `start`.
    pub(super) fn truncated(&self, inside: Inside, start: usize) -> ParseError {
        let kind = ErrorKind::Truncated {
            inside,
            start: Position::offset_only(start),
        };
        self.error(kind, self.offset, "")
    }
}

pub(super) fn invalid(error: ParseError) -> Stop {
    Stop::Invalid(Box::new(error))
}
