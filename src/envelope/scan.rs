//! Reading an envelope object member by member, without building its tree.
//!
//! An envelope is a small object around the arguments (`{"type":"tool_use","id":…,
//! "name":…,"input":{…}}`). Building a `Value` for it would allocate a member vector only to
//! pick three fields out of it, so the reader walks the object's punctuation itself and
//! hands every member *value* to the JSON parser as a slice of the input. The parser still
//! judges every byte: this file only finds where a value ends (matching brackets outside
//! strings) and checks the object's own punctuation, which is the RFC 8259 `object` rule:
//! `{ ws [ string ws : ws value ( ws , ws string ws : ws value )* ] ws }`.
//!
//! Any doubt ends the scan with [`Stop`]; the caller then parses the whole text with
//! [`json::parse_with`], whose error (with its true position) is the one reported. So the
//! scan accepts a text exactly when the parser would, and never has to explain an error.

use crate::json::{self, Limits, Value};
use std::borrow::Cow;

/// The scan cannot go on: the text is not valid JSON (or the scanner is unsure), and the
/// whole text must go to the parser for the authoritative error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stop;

/// A position in the raw call text.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Cursor<'a> {
        Cursor { text, pos: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn bump(&mut self) {
        self.pos = self.pos.saturating_add(1);
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Skips JSON whitespace: space, tab, line feed, carriage return (RFC 8259 section 2).
    pub(crate) fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.bump();
        }
    }

    /// True when only whitespace is left.
    pub(crate) fn at_end(&mut self) -> bool {
        self.skip_whitespace();
        self.pos >= self.text.len()
    }

    /// True if the next value starts with `{`.
    pub(crate) fn at_object(&self) -> bool {
        self.peek() == Some(b'{')
    }

    /// The text from `start` to the cursor.
    fn slice_from(&self, start: usize) -> Result<&'a str, Stop> {
        self.text.get(start..self.pos).ok_or(Stop)
    }

    /// Moves past a string literal (at its opening quote) and returns it, quotes included.
    /// Escapes are skipped, not checked: the parser checks them when it reads the slice.
    fn skip_string(&mut self) -> Result<&'a str, Stop> {
        let start = self.pos;
        if !self.eat(b'"') {
            return Err(Stop);
        }
        let rest = self.text.as_bytes().get(self.pos..).ok_or(Stop)?;
        let mut escaped = false;
        for (index, &byte) in rest.iter().enumerate() {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                self.pos = self.pos.saturating_add(index).saturating_add(1);
                return self.slice_from(start);
            }
        }
        Err(Stop)
    }

    /// Moves past one value of any kind and returns its text. Containers are matched by
    /// counting brackets outside strings; a text whose brackets do not pair up yields a
    /// slice the parser refuses, or leaves the cursor where the object rule fails.
    fn skip_value(&mut self) -> Result<&'a str, Stop> {
        let start = self.pos;
        match self.peek() {
            Some(b'"') => self.skip_string(),
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                while let Some(byte) = self.peek() {
                    match byte {
                        b'"' => {
                            self.skip_string()?;
                            continue;
                        }
                        b'{' | b'[' => depth = depth.saturating_add(1),
                        b'}' | b']' => {
                            depth = depth.checked_sub(1).ok_or(Stop)?;
                            if depth == 0 {
                                self.bump();
                                return self.slice_from(start);
                            }
                        }
                        _ => {}
                    }
                    self.bump();
                }
                Err(Stop)
            }
            Some(_) => {
                // A number or a literal runs to the next delimiter.
                while let Some(byte) = self.peek() {
                    if matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.bump();
                }
                self.slice_from(start)
            }
            None => Err(Stop),
        }
    }

    /// Parses the value at the cursor with the parser, under `limits` with `depth` levels
    /// already open around it.
    pub(crate) fn parse_value(&mut self, limits: Limits, depth: usize) -> Result<Parsed<'a>, Stop> {
        let raw = self.skip_value()?;
        let inner = Limits {
            max_depth: limits.max_depth.saturating_sub(depth),
            ..limits
        };
        let value = json::parse_with(raw, inner).map_err(|_| Stop)?;
        Ok(Parsed { value, raw })
    }

    /// Walks the members of the object at the cursor, calling `member` with each key; the
    /// callback must consume the value (with [`Cursor::parse_value`] or by walking a nested
    /// object). Every key goes into `keys` so duplicates can be refused afterwards.
    pub(crate) fn walk_object(
        &mut self,
        keys: &mut KeySet<'a>,
        mut member: impl FnMut(&mut Cursor<'a>, &Cow<'a, str>) -> Result<(), Stop>,
    ) -> Result<(), Stop> {
        if !self.eat(b'{') {
            return Err(Stop);
        }
        self.skip_whitespace();
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            self.skip_whitespace();
            let key = self.key()?;
            self.skip_whitespace();
            if !self.eat(b':') {
                return Err(Stop);
            }
            self.skip_whitespace();
            member(self, &key)?;
            keys.insert(key);
            self.skip_whitespace();
            if self.eat(b'}') {
                return Ok(());
            }
            if !self.eat(b',') {
                return Err(Stop);
            }
        }
    }

    /// Reads a member key. A key without backslashes or control characters is its own
    /// text and is borrowed; any other goes through the parser.
    fn key(&mut self) -> Result<Cow<'a, str>, Stop> {
        let literal = self.skip_string()?;
        let inner = literal
            .get(1..literal.len().saturating_sub(1))
            .ok_or(Stop)?;
        if inner.bytes().all(|byte| byte != b'\\' && byte >= 0x20) {
            return Ok(Cow::Borrowed(inner));
        }
        match json::parse(literal) {
            Ok(Value::String(key)) => Ok(key),
            _ => Err(Stop),
        }
    }
}

/// A member value and the text it was parsed from.
pub(crate) struct Parsed<'a> {
    pub(crate) value: Value<'a>,
    pub(crate) raw: &'a str,
}

/// The keys of one object, to find a key given twice without allocating in the common case.
///
/// Up to [`KeySet::INLINE`] keys are compared pairwise as they arrive (envelopes have a
/// handful); past that every key moves to a vector that is sorted once at the end, so an
/// object with a hundred thousand keys costs `n log n`, not `n²`.
pub(crate) struct KeySet<'a> {
    inline: [Option<Cow<'a, str>>; KeySet::INLINE],
    n_inline: usize,
    spilled: Vec<Cow<'a, str>>,
    duplicate: Option<Cow<'a, str>>,
}

impl<'a> KeySet<'a> {
    const INLINE: usize = 16;

    pub(crate) fn new() -> KeySet<'a> {
        KeySet {
            inline: Default::default(),
            n_inline: 0,
            spilled: Vec::new(),
            duplicate: None,
        }
    }

    fn insert(&mut self, key: Cow<'a, str>) {
        if self.duplicate.is_some() {
            return;
        }
        if !self.spilled.is_empty() {
            self.spilled.push(key);
            return;
        }
        let seen = self.inline.iter().take(self.n_inline).flatten();
        if seen.clone().any(|earlier| *earlier == key) {
            self.duplicate = Some(key);
            return;
        }
        match self.inline.get_mut(self.n_inline) {
            Some(slot) => {
                *slot = Some(key);
                self.n_inline = self.n_inline.saturating_add(1);
            }
            None => {
                self.spilled = self.inline.iter_mut().filter_map(Option::take).collect();
                self.spilled.push(key);
            }
        }
    }

    /// The first key found twice (in the inline case, the second occurrence in input
    /// order; past [`KeySet::INLINE`] keys, the alphabetically first duplicate).
    pub(crate) fn duplicate(mut self) -> Option<Cow<'a, str>> {
        if self.duplicate.is_some() || self.spilled.is_empty() {
            return self.duplicate;
        }
        self.spilled.sort_unstable();
        self.spilled
            .windows(2)
            .find(|pair| pair.first() == pair.get(1))
            .and_then(|pair| pair.first().cloned())
    }
}
