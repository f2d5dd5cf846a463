//! Reading an envelope object member by member, without building its tree.
//!
//! An envelope is a small object around the arguments (`{"type":"tool_use","id":…,
//! "name":…,"input":{…}}`). Building a `Value` for it would allocate a member vector only to
//! pick three fields out of it, so the reader walks the object's punctuation itself and
//! hands every member *value* to the JSON parser: an object or array is parsed where it
//! stands by [`json::parse_prefix_into`], which also says where it ended, so the arguments are
//! read in one pass. The parser still judges every byte: this file only reads plain strings
//! and scalars, whose rules are one line each, and checks the object's own punctuation,
//! which is the RFC 8259 `object` rule:
//! `{ ws [ string ws : ws value ( ws , ws string ws : ws value )* ] ws }`.
//!
//! Any doubt ends the scan with [`Stop`]; the caller then parses the whole text with
//! [`json::parse_with`], whose error (with its true position) is the one reported. So the
//! scan accepts a text exactly when the parser would, and never has to explain an error.

use crate::json::{self, Limits, Number, Value};
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

    /// True if the next value starts with `"`.
    pub(crate) fn at_string(&self) -> bool {
        self.peek() == Some(b'"')
    }

    /// The text from the cursor to the end.
    pub(crate) fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or_default()
    }

    /// Moves the cursor `length` bytes on (past a value its caller has read).
    pub(crate) fn advance(&mut self, length: usize) {
        self.pos = self.pos.saturating_add(length);
    }

    /// The text from `start` to the cursor.
    fn slice_from(&self, start: usize) -> Result<&'a str, Stop> {
        self.text.get(start..self.pos).ok_or(Stop)
    }

    /// Moves past a string literal (at its opening quote) and returns it, quotes included.
    /// Escapes are skipped, not checked: the parser checks them when it reads the slice.
    fn skip_string(&mut self) -> Result<&'a str, Stop> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        if bytes.get(start) != Some(&b'"') {
            return Err(Stop);
        }
        let mut at = start.saturating_add(1);
        loop {
            // Eight bytes at a time to the next quote, backslash or control byte.
            at = json::scan_plain(bytes, at);
            match bytes.get(at) {
                Some(b'"') => {
                    self.pos = at.saturating_add(1);
                    return self.slice_from(start);
                }
                // The next byte is escaped, whatever it is.
                Some(b'\\') => at = at.saturating_add(2),
                Some(_) => at = at.saturating_add(1),
                None => return Err(Stop),
            }
        }
    }

    /// At an opening quote: the content of a string literal that holds no backslash and no
    /// control character, which is valid JSON and means exactly its own text (RFC 8259
    /// section 7; a `&str` is already UTF-8), moving past it. `None`, with the cursor
    /// unmoved, for any other literal and anything else.
    #[inline(always)]
    fn plain_string_here(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        if bytes.get(self.pos) != Some(&b'"') {
            return None;
        }
        let body = self.pos.saturating_add(1);
        let stop = json::scan_plain(bytes, body);
        if bytes.get(stop) != Some(&b'"') {
            return None;
        }
        let content = self.text.get(body..stop)?;
        self.pos = stop.saturating_add(1);
        Some(content)
    }

    /// Moves past a string, number or literal and returns its text (objects and arrays go
    /// to the parser where they stand, see [`Cursor::parse_value`]). A scalar runs to the
    /// next delimiter; the slice is then checked whole.
    fn skip_value(&mut self) -> Result<&'a str, Stop> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        match self.peek() {
            Some(b'"') => self.skip_string(),
            Some(_) => {
                // A number or a literal runs to the next delimiter.
                let rest = bytes.get(start..).ok_or(Stop)?;
                let length = rest
                    .iter()
                    .position(|&byte| {
                        matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                    })
                    .unwrap_or(rest.len());
                self.pos = start.saturating_add(length);
                self.slice_from(start)
            }
            None => Err(Stop),
        }
    }

    /// Reads the value at the cursor, under `limits` with `depth` levels already open around
    /// it. Strings without escapes and scalars are read here (they are their own text, and
    /// RFC 8259 makes checking them one line each); everything else goes to the parser.
    /// An object or array is parsed where it stands, in one pass that also finds its end.
    #[inline(always)]
    pub(crate) fn parse_value(&mut self, limits: Limits, depth: usize) -> Result<Value<'a>, Stop> {
        if let Some(text) = self.plain_string_here() {
            return Ok(Value::String(Cow::Borrowed(text)));
        }
        self.parse_other_value(limits, depth)
    }

    /// Reads the value at the cursor into `slot` as [`Cursor::parse_value`] does, leaving the
    /// slot `None` for `null` (a member that is `null` is absent). Written in place: a
    /// plain string, the commonest envelope member, is stored straight into the slot.
    #[inline(always)]
    pub(crate) fn keep_value(
        &mut self,
        slot: &mut Option<Value<'a>>,
        limits: Limits,
        depth: usize,
    ) -> Result<(), Stop> {
        if let Some(text) = self.plain_string_here() {
            *slot = Some(Value::String(Cow::Borrowed(text)));
            return Ok(());
        }
        if slot.is_none() && self.at_container() {
            // Parsed straight into the slot; a failure leaves it as it was, empty.
            let place = slot.insert(Value::Null);
            let parsed = self.parse_container_into(place, limits, depth);
            if parsed.is_err() {
                *slot = None;
            }
            return parsed;
        }
        *slot = match self.parse_other_value(limits, depth)? {
            Value::Null => None,
            value => Some(value),
        };
        Ok(())
    }

    /// True if the next value is an object or an array.
    pub(crate) fn at_container(&self) -> bool {
        matches!(self.peek(), Some(b'{' | b'['))
    }

    /// Parses the object or array at the cursor where it stands, into `place` (untouched
    /// if it fails), in one pass that also finds its end.
    pub(crate) fn parse_container_into(
        &mut self,
        place: &mut Value<'a>,
        limits: Limits,
        depth: usize,
    ) -> Result<(), Stop> {
        let inner = Limits {
            max_depth: limits.max_depth.saturating_sub(depth),
            ..limits
        };
        let length = json::parse_prefix_into(self.rest(), inner, place).ok_or(Stop)?;
        self.advance(length);
        Ok(())
    }

    /// [`Cursor::parse_value`] for anything but a plain string.
    #[inline(never)]
    fn parse_other_value(&mut self, limits: Limits, depth: usize) -> Result<Value<'a>, Stop> {
        if self.at_container() {
            let mut value = Value::Null;
            self.parse_container_into(&mut value, limits, depth)?;
            return Ok(value);
        }
        let raw = self.skip_value()?;
        let value = match raw.as_bytes().first() {
            Some(b'"') => match plain_string(raw) {
                Some(text) => Value::String(Cow::Borrowed(text)),
                None => json::parse(raw).map_err(|_| Stop)?,
            },
            _ => scalar(raw).ok_or(Stop)?,
        };
        Ok(value)
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

    /// Reads a member key: borrowed when it is its own text, else through the parser.
    #[inline(always)]
    fn key(&mut self) -> Result<Cow<'a, str>, Stop> {
        if let Some(key) = self.plain_string_here() {
            return Ok(Cow::Borrowed(key));
        }
        self.escaped_key()
    }

    /// A key that holds an escape (or is not a string at all), read by the parser.
    #[inline(never)]
    fn escaped_key(&mut self) -> Result<Cow<'a, str>, Stop> {
        let literal = self.skip_string()?;
        match json::parse(literal) {
            Ok(Value::String(key)) => Ok(key),
            _ => Err(Stop),
        }
    }
}

/// The content of a string literal (quotes included) that holds no backslash and no control
/// character: such a literal is valid JSON and means exactly its own text (RFC 8259 section
/// 7; a `&str` is already UTF-8). `None` for any other, which the parser must read.
fn plain_string(literal: &str) -> Option<&str> {
    let content = literal.strip_prefix('"')?.strip_suffix('"')?;
    content
        .bytes()
        .all(|byte| byte != b'\\' && byte >= 0x20)
        .then_some(content)
}

/// A number or literal, if `raw` is exactly one (RFC 8259 sections 3 and 6).
fn scalar(raw: &str) -> Option<Value<'_>> {
    match raw {
        "null" => Some(Value::Null),
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        _ => Number::from_text(raw).map(Value::Number),
    }
}

/// The keys of one object, to find a key given twice without allocating in the common case.
///
/// Up to [`KeySet::INLINE`] keys that borrow from the call (no escape in them: envelopes
/// have a handful) are compared pairwise as they arrive, in a plain array of `&str` that
/// costs nothing to set up or drop. Past that, or from the first key that owns its text,
/// every key moves to a vector that is sorted once at the end, so an object with a hundred
/// thousand keys costs `n log n`, not `n²`.
pub(crate) struct KeySet<'a> {
    inline: [&'a str; KeySet::INLINE],
    n_inline: usize,
    spilled: Vec<Cow<'a, str>>,
    duplicate: Option<Cow<'a, str>>,
}

impl<'a> KeySet<'a> {
    const INLINE: usize = 16;

    pub(crate) fn new() -> KeySet<'a> {
        KeySet {
            inline: [""; KeySet::INLINE],
            n_inline: 0,
            spilled: Vec::new(),
            duplicate: None,
        }
    }

    #[inline(always)]
    fn insert(&mut self, key: Cow<'a, str>) {
        if self.duplicate.is_some() {
            return;
        }
        if !self.spilled.is_empty() {
            self.spilled.push(key);
            return;
        }
        let seen = self.inline.get(..self.n_inline).unwrap_or_default();
        if seen.contains(&key.as_ref()) {
            self.duplicate = Some(key);
            return;
        }
        match (key, self.inline.get_mut(self.n_inline)) {
            (Cow::Borrowed(key), Some(slot)) => {
                *slot = key;
                self.n_inline = self.n_inline.saturating_add(1);
            }
            (key, _) => self.spill(key),
        }
    }

    /// Moves the inline keys to the vector, then adds `key`.
    #[inline(never)]
    fn spill(&mut self, key: Cow<'a, str>) {
        let seen = self.inline.get(..self.n_inline).unwrap_or_default();
        self.spilled = seen.iter().map(|&earlier| Cow::Borrowed(earlier)).collect();
        self.spilled.push(key);
    }

    /// The first key found twice (while the keys are inline, the second occurrence in
    /// input order; once they have spilled, the alphabetically first duplicate).
    pub(crate) fn duplicate(&mut self) -> Option<Cow<'a, str>> {
        if self.duplicate.is_some() || self.spilled.is_empty() {
            return self.duplicate.take();
        }
        self.spilled.sort_unstable();
        self.spilled
            .windows(2)
            .find(|pair| pair.first() == pair.get(1))
            .and_then(|pair| pair.first().cloned())
    }
}
