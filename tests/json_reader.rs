//! The reader fed in chunks is the reader fed whole: property tests with the seeded PRNG in
//! `tests/support/rng.rs` (the seed is printed; replay with `TOOLGATE_SEED=N`, raise the
//! number of cases with `TOOLGATE_FUZZ_ITERS=N`).
//!
//! A text is fed whole, in random chunks (cut anywhere: inside escapes, multi-byte
//! characters, numbers and literals; one-byte chunks included), and character by character
//! through `feed_char` and `feed_str_then` the way a text held in a string literal is.
//! Every way gives the same completed events at the same offsets (a string value may come
//! whole or in parts; assembled, it is the same string), the same `Value` as `parse_bytes`,
//! and on a broken text the same error kind and offset. The events also keep the contract
//! of `json::Event`: parts only inside a started string, no empty part, keys whole.

mod support;

use std::ops::ControlFlow;
use support::rng::Rng;
use support::values::{random_value, spell, HALF_PLAIN, MOSTLY_PLAIN};
use toolgate::json::{
    parse_bytes, parse_bytes_with, Event, Limits, ParseError, Reader, Sink, Stop,
};

/// One completed step, with its offset: strings assembled from their parts.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Key(String),
    ArrayStart,
    ArrayEnd,
    ObjectStart,
    ObjectEnd,
}

/// Gathers the completed steps of a text and checks the event contract as they come.
#[derive(Default)]
struct Steps {
    steps: Vec<(Step, usize)>,
    /// The string value being assembled, and where it started.
    open_string: Option<(String, usize)>,
    broken_contract: Option<String>,
}

impl<'a> Sink<'a> for Steps {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        let mut complain = |what: String| {
            self.broken_contract.get_or_insert(what);
        };
        let step = match (&mut self.open_string, event) {
            (None, Event::StringStart) => {
                self.open_string = Some((String::new(), at));
                return ControlFlow::Continue(());
            }
            (Some((text, _)), Event::StringPart(part)) => {
                if part.is_empty() {
                    complain(format!("an empty part at {at}"));
                }
                text.push_str(part);
                return ControlFlow::Continue(());
            }
            (Some((text, _)), Event::StringChar(c)) => {
                text.push(c);
                return ControlFlow::Continue(());
            }
            (Some(_), Event::StringEnd) => match self.open_string.take() {
                Some((text, start)) => (Step::String(text), start),
                None => return ControlFlow::Continue(()),
            },
            (Some(_), other) => {
                complain(format!("{other:?} at {at} inside a string"));
                return ControlFlow::Continue(());
            }
            (None, Event::Null) => (Step::Null, at),
            (None, Event::Bool(b)) => (Step::Bool(b), at),
            (None, Event::Number(n)) => (Step::Number(n.as_str().to_owned()), at),
            (None, Event::String(text)) => (Step::String(text.to_owned()), at),
            (None, Event::Key(key)) => (Step::Key(key.into_owned()), at),
            (None, Event::ArrayStart) => (Step::ArrayStart, at),
            (None, Event::ArrayEnd) => (Step::ArrayEnd, at),
            (None, Event::ObjectStart) => (Step::ObjectStart, at),
            (None, Event::ObjectEnd) => (Step::ObjectEnd, at),
            (None, other) => {
                complain(format!("{other:?} at {at} outside a string"));
                return ControlFlow::Continue(());
            }
        };
        self.steps.push(step);
        ControlFlow::Continue(())
    }
}

/// What reading a text gave: its completed steps, and the error (located) if any, else
/// the bytes read.
#[derive(Debug, PartialEq)]
struct Read {
    steps: Vec<(Step, usize)>,
    end: Result<usize, ParseError>,
}

/// Ends a read whose feeding gave `result`.
fn finish(mut reader: Reader, mut result: Result<(), Stop>, mut steps: Steps, text: &[u8]) -> Read {
    if result.is_ok() {
        result = reader.finish(&mut steps);
    }
    if let Some(broken) = steps.broken_contract {
        panic!("event contract broken: {broken}");
    }
    let end = match result {
        Ok(()) => Ok(reader.offset()),
        Err(Stop::Invalid(error)) => Err(error.locate(text)),
        Err(Stop::Sink) => panic!("the sink never breaks"),
    };
    Read {
        steps: steps.steps,
        end,
    }
}

/// Feeds `text` through `feed` in the given chunk lengths (the last chunk takes the rest).
fn read_in_chunks(text: &[u8], lengths: &[usize]) -> Read {
    let mut reader = Reader::new(Limits::default());
    let mut steps = Steps::default();
    let mut rest = text;
    let mut result = Ok(());
    for &length in lengths {
        let (chunk, after) = rest.split_at(length.min(rest.len()));
        rest = after;
        result = reader.feed(chunk, &mut steps);
        if result.is_err() {
            break;
        }
    }
    if result.is_ok() {
        result = reader.feed(rest, &mut steps);
    }
    finish(reader, result, steps, text)
}

fn read_whole(text: &[u8]) -> Read {
    read_in_chunks(text, &[])
}

/// Random chunk lengths that cover `len` bytes, one byte each a quarter of the time.
fn random_cuts(rng: &mut Rng, len: usize) -> Vec<usize> {
    let one_byte = rng.chance(1, 4);
    let mut lengths = Vec::new();
    let mut covered = 0;
    while covered < len {
        let length = if one_byte { 1 } else { rng.range(0, 9) };
        lengths.push(length);
        covered += length;
    }
    lengths
}

/// Feeds a UTF-8 `text` the way the envelope feeds a text held in a string literal: runs of
/// characters with `feed_str`, single characters with `feed_char`, and runs followed by a
/// character with `feed_str_then`, at random.
fn read_by_characters(rng: &mut Rng, text: &str) -> Read {
    let mut reader = Reader::new(Limits::default());
    let mut steps = Steps::default();
    let mut rest = text;
    let mut result = Ok(());
    while !rest.is_empty() && result.is_ok() {
        let n_chars = rng.range(0, 6);
        let run_end = rest
            .char_indices()
            .nth(n_chars)
            .map_or(rest.len(), |(at, _)| at);
        let (run, after) = rest.split_at(run_end);
        rest = after;
        let mut chars = rest.chars();
        match (rng.below(3), chars.next()) {
            (0, Some(c)) => {
                result = reader.feed_str_then(run, c, &mut steps);
                rest = chars.as_str();
            }
            (1, _) => {
                result = reader.feed_str(run, &mut steps);
            }
            _ => {
                for c in run.chars() {
                    result = reader.feed_char(c, &mut steps);
                    if result.is_err() {
                        break;
                    }
                }
            }
        }
    }
    finish(reader, result, steps, text.as_bytes())
}

/// A text a model might send: a random value, spelled with random whitespace and escapes.
fn random_text(rng: &mut Rng) -> String {
    let value = random_value(rng, 4);
    let mut text = String::new();
    let plain = if rng.bool() { HALF_PLAIN } else { MOSTLY_PLAIN };
    spell(rng, &mut text, &value, plain);
    text
}

/// `text` with a few random byte edits (so not always UTF-8), or cut at a random byte.
fn broken_bytes(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    if rng.chance(1, 3) {
        bytes.truncate(rng.below(bytes.len() + 1));
        return bytes;
    }
    const TOKENS: &[&[u8]] = &[
        b"\"",
        b"\\",
        b"\\u",
        b"\\uD83D",
        b"\\uDC00",
        b",",
        b":",
        b"[",
        b"]",
        b"{",
        b"}",
        b"-",
        b"0",
        b"1e",
        b".",
        b"tru",
        b"null",
        b" ",
        b"\xc3",
        b"\xff",
        b"\xe2\x82",
        "é".as_bytes(),
        b"\x01",
    ];
    for _ in 0..rng.range(1, 3) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(4) {
            0 if at < bytes.len() => {
                bytes.remove(at);
            }
            1 if at < bytes.len() => bytes[at] = rng.u8(),
            _ => {
                let token = rng.pick(TOKENS);
                bytes.splice(at..at, token.iter().copied());
            }
        }
    }
    bytes
}

fn check_same(whole: &Read, other: &Read, how: &str, text: &[u8], seed: u64) {
    assert_eq!(
        whole,
        other,
        "seed {seed}: {how} differs from whole on {:?}",
        String::from_utf8_lossy(text)
    );
}

#[test]
fn random_texts_read_the_same_in_any_chunks() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(2000) {
        let text = random_text(&mut rng);
        let bytes = text.as_bytes();
        let whole = read_whole(bytes);
        assert_eq!(whole.end, Ok(bytes.len()), "seed {seed}: {text:?}");
        let cuts = random_cuts(&mut rng, bytes.len());
        check_same(&whole, &read_in_chunks(bytes, &cuts), "chunks", bytes, seed);
        let ones = vec![1; bytes.len()];
        check_same(&whole, &read_in_chunks(bytes, &ones), "bytes", bytes, seed);
        let by_characters = read_by_characters(&mut rng, &text);
        check_same(&whole, &by_characters, "characters", bytes, seed);
    }
}

#[test]
fn broken_texts_fail_the_same_in_any_chunks() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(3000) {
        let text = random_text(&mut rng);
        let bytes = broken_bytes(&mut rng, &text);
        let whole = read_whole(&bytes);
        let parsed = parse_bytes(&bytes).err();
        assert_eq!(
            whole.end.clone().err(),
            parsed,
            "seed {seed}: {:?}",
            String::from_utf8_lossy(&bytes)
        );
        let cuts = random_cuts(&mut rng, bytes.len());
        check_same(
            &whole,
            &read_in_chunks(&bytes, &cuts),
            "chunks",
            &bytes,
            seed,
        );
        let ones = vec![1; bytes.len()];
        check_same(
            &whole,
            &read_in_chunks(&bytes, &ones),
            "bytes",
            &bytes,
            seed,
        );
        if let Ok(text) = std::str::from_utf8(&bytes) {
            let by_characters = read_by_characters(&mut rng, text);
            check_same(&whole, &by_characters, "characters", &bytes, seed);
        }
    }
}

#[test]
fn every_prefix_reads_the_same_in_one_byte_chunks() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(100) {
        let text = random_text(&mut rng);
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            let prefix = &bytes[..cut];
            let whole = read_whole(prefix);
            if let Err(error) = &whole.end {
                assert!(error.is_truncated(), "seed {seed}: {prefix:?}: {error}");
            }
            let ones = vec![1; prefix.len()];
            check_same(
                &whole,
                &read_in_chunks(prefix, &ones),
                "bytes",
                prefix,
                seed,
            );
        }
    }
}

#[test]
fn chunks_keep_the_depth_and_size_limits() {
    let limits = Limits {
        max_depth: 3,
        max_bytes: 64,
    };
    let deep = b"[[[[1]]]]";
    let whole = parse_bytes_with(deep, limits).err();
    let mut reader = Reader::new(limits);
    let mut steps = Steps::default();
    let mut error = None;
    for byte in deep.chunks(1) {
        if let Err(Stop::Invalid(e)) = reader.feed(byte, &mut steps) {
            error = Some(e.locate(deep));
            break;
        }
    }
    assert_eq!(error, whole);
    assert_eq!(error.map(|e| e.offset()), Some(3));

    let mut reader = Reader::new(limits);
    let long = [b' '; 40];
    assert!(reader.feed(&long, &mut steps).is_ok());
    match reader.feed(&long, &mut steps) {
        Err(Stop::Invalid(error)) => {
            assert_eq!(
                error.to_string(),
                "the input is 80 bytes, more than the limit of 64 bytes"
            )
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

#[test]
fn a_sink_that_breaks_stops_the_reader() {
    struct FirstKey(Option<String>);
    impl<'a> Sink<'a> for FirstKey {
        fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
            if let Event::Key(key) = event {
                self.0 = Some(key.into_owned());
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        }
    }
    let mut reader = Reader::new(Limits::default());
    let mut sink = FirstKey(None);
    let text = br#"{"name": "get_weather", "arguments": {"#;
    assert_eq!(reader.feed(text, &mut sink), Err(Stop::Sink));
    assert_eq!(sink.0.as_deref(), Some("name"));
    // Stopped is stopped.
    assert_eq!(reader.feed(b"}", &mut sink), Err(Stop::Sink));
}

#[test]
fn strings_within_one_chunk_come_whole_and_borrowed() {
    struct Whole(Vec<String>, usize);
    impl<'a> Sink<'a> for Whole {
        fn event(&mut self, event: Event<'a>, _at: usize) -> ControlFlow<()> {
            match event {
                Event::String(text) => self.0.push(text.to_owned()),
                Event::StringStart => self.1 += 1,
                _ => {}
            }
            ControlFlow::Continue(())
        }
    }
    let mut reader = Reader::new(Limits::default());
    let mut sink = Whole(Vec::new(), 0);
    let text = r#"["plain", "esc\"aped", "Zürich"]"#;
    assert!(reader.feed_str(text, &mut sink).is_ok());
    assert!(reader.finish(&mut sink).is_ok());
    assert_eq!(sink.0, ["plain", "Zürich"]);
    assert_eq!(sink.1, 1, "only the string with an escape comes in parts");

    // Read through a literal's escapes, a key and a value between two `\"` still come whole.
    let mut reader = Reader::new(Limits::default());
    let mut sink = Whole(Vec::new(), 0);
    let mut fed = reader.feed_str_then("{", '"', &mut sink);
    fed = fed.and_then(|()| reader.feed_str_then("city", '"', &mut sink));
    fed = fed.and_then(|()| reader.feed_str_then(":", '"', &mut sink));
    fed = fed.and_then(|()| reader.feed_str_then("Oslo", '"', &mut sink));
    fed = fed.and_then(|()| reader.feed_str("}", &mut sink));
    fed = fed.and_then(|()| reader.finish(&mut sink));
    assert_eq!(fed, Ok(()));
    assert_eq!(sink.0, ["Oslo"]);
    assert_eq!(sink.1, 0);
}

/// A sink that takes the literals of string values with an escape itself, as far as
/// `take(body)` says, and records every event after.
struct TakesLiterals {
    take: fn(&str) -> usize,
    offered: Vec<(usize, String)>,
    events: Vec<String>,
}

impl<'a> Sink<'a> for TakesLiterals {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        self.events.push(format!("{event:?}@{at}"));
        ControlFlow::Continue(())
    }

    fn literal(&mut self, quote: usize, body: &'a str) -> Option<usize> {
        self.offered.push((quote, body.to_owned()));
        Some((self.take)(body))
    }
}

fn read_taking(text: &str, take: fn(&str) -> usize) -> (Result<(), Stop>, TakesLiterals) {
    let mut sink = TakesLiterals {
        take,
        offered: Vec::new(),
        events: Vec::new(),
    };
    let mut reader = Reader::new(Limits::default());
    let read = reader.feed_str(text, &mut sink);
    let read = read.and_then(|()| reader.finish(&mut sink));
    (read, sink)
}

#[test]
fn a_sink_can_take_a_literal_and_the_reader_goes_on_after_it() {
    let text = r#"["plain", "a\"b", 1]"#;
    // Up to the closing quote: the reader goes on past the literal, and sends no event of
    // that string.
    let (read, sink) = read_taking(text, |body| body.find("\", 1").unwrap_or(0));
    assert_eq!(read, Ok(()));
    assert_eq!(sink.offered, [(10, r#"a\"b", 1]"#.to_owned())]);
    let events = [
        "ArrayStart@0",
        r#"String("plain")@1"#,
        r#"Number(Number { text: "1" })@18"#,
        "ArrayEnd@19",
    ];
    assert_eq!(sink.events, events, "only the literal's string is left out");

    // Part of the way: the rest of the string comes as pieces, without a StringStart.
    let (read, sink) = read_taking(text, |_| 1);
    assert_eq!(read, Ok(()));
    let events = [
        "ArrayStart@0",
        r#"String("plain")@1"#,
        "StringChar('\"')@12",
        r#"StringPart("b")@14"#,
        "StringEnd@15",
        r#"Number(Number { text: "1" })@18"#,
        "ArrayEnd@19",
    ];
    assert_eq!(sink.events, events);

    // A count past the input is the input's end: the string is cut there.
    let (read, _) = read_taking(text, |body| body.len() + 10);
    let truncated = matches!(&read, Err(Stop::Invalid(error))
        if matches!(error.kind(), toolgate::json::ErrorKind::Truncated { .. }));
    assert!(truncated, "{read:?}");
}

/// `text` as the body of a JSON string literal that holds it, each character written one of
/// the ways RFC 8259 allows at random (`"` as `\"` or `\u0022`, a control character as `\n`
/// or `\u000a`, any character as itself or as `\uXXXX`, a pair for one above U+FFFF).
fn literal_of(rng: &mut Rng, text: &str) -> String {
    let mut literal = String::new();
    for c in text.chars() {
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\t' => Some("\\t"),
            '\r' => Some("\\r"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '/' if rng.bool() => Some("\\/"),
            _ => None,
        };
        let must_escape = short.is_some() || c < ' ';
        match short {
            Some(short) if !rng.chance(1, 6) => literal.push_str(short),
            _ if must_escape || rng.chance(1, 12) => {
                let mut units = [0; 2];
                for unit in c.encode_utf16(&mut units) {
                    literal.push_str(&format!("\\u{unit:04x}"));
                }
            }
            _ => literal.push(c),
        }
    }
    literal
}

/// The text held in a literal whose body (escapes and all) is `body`, fed as the envelope
/// feeds an arguments literal: in random chunks, each one at random
/// either through `feed_literal`, or decoded here into its runs and characters fed with
/// `feed_str` and `feed_char` (the call's reader's pieces, where `feed_literal` stopped).
/// An escape a chunk cuts is carried into the next one. `text` locates the error.
fn read_through_literal(rng: &mut Rng, body: &str, text: &str) -> Read {
    let mut reader = Reader::new(Limits::default());
    let mut steps = Steps::default();
    let mut carry = String::new();
    let mut rest = body;
    let mut result = Ok(());
    while result.is_ok() && !(rest.is_empty() && carry.is_empty()) {
        let cut = (rng.range(0, 12)..=rest.len())
            .find(|&at| rest.is_char_boundary(at))
            .unwrap_or(rest.len());
        let (chunk, after) = rest.split_at(cut);
        rest = after;
        carry.push_str(chunk);
        let chunk = std::mem::take(&mut carry);
        let read = if rng.bool() {
            reader.feed_literal(&chunk, &mut steps).map(|read| {
                // Only an escape the chunk cuts is left: the text is valid in the literal.
                assert!(chunk[read..].len() < 12, "stopped early in {chunk:?}");
                read
            })
        } else {
            feed_pieces(&mut reader, &chunk, &mut steps)
        };
        match read {
            Ok(read) if rest.is_empty() && read < chunk.len() => {
                panic!("an escape left unread at the end: {chunk:?}")
            }
            Ok(read) => carry = chunk[read..].to_owned(),
            Err(stop) => result = Err(stop),
        }
    }
    if result.is_ok() {
        // The literal's end is read as its end.
        let after = reader.feed_literal("\", \"next\": 1}", &mut steps);
        assert!(
            matches!(after, Ok(0) | Err(_)),
            "read past the closing quote"
        );
        result = after.map(|_| ());
    }
    finish(reader, result, steps, text.as_bytes())
}

/// The runs and escaped characters of a piece of a literal's body, fed as the call's reader
/// sends them, up to an escape cut at its end: how many bytes were fed.
fn feed_pieces(reader: &mut Reader, chunk: &str, steps: &mut Steps) -> Result<usize, Stop> {
    let mut pos = 0;
    while let Some(offset) = chunk[pos..].find('\\') {
        let at = pos + offset;
        reader.feed_str(&chunk[pos..at], steps)?;
        let escape = &chunk[at..];
        let (c, len) = match escape.as_bytes().get(1) {
            None => return Ok(at),
            Some(b'u') => match unicode_escape(escape) {
                Some(decoded) => decoded,
                None => return Ok(at),
            },
            Some(&code) => {
                let c = match code {
                    b'n' => '\n',
                    b't' => '\t',
                    b'r' => '\r',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    other => char::from(other),
                };
                (c, 2)
            }
        };
        reader.feed_char(c, steps)?;
        pos = at + len;
    }
    reader.feed_str(&chunk[pos..], steps)?;
    Ok(chunk.len())
}

/// `\uXXXX` (or a surrogate pair) at the start of `escape`, if it is whole there.
fn unicode_escape(escape: &str) -> Option<(char, usize)> {
    let unit = |at: usize| u32::from_str_radix(escape.get(at..at + 4)?, 16).ok();
    let first = unit(2)?;
    if (0xD800..0xDC00).contains(&first) {
        let low = unit(8)?;
        let c = char::from_u32(0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00))?;
        return Some((c, 12));
    }
    Some((char::from_u32(first)?, 6))
}

#[test]
fn texts_read_through_a_literal_read_as_the_texts_themselves() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(2000) {
        let text = random_text(&mut rng);
        let body = literal_of(&mut rng, &text);
        let literal = format!("{body}\", \"next\": 1}}");
        let whole = read_whole(text.as_bytes());

        // Fed whole, the literal is read to its closing quote.
        let mut reader = Reader::new(Limits::default());
        let mut steps = Steps::default();
        let read = reader.feed_literal(&literal, &mut steps);
        assert_eq!(read, Ok(body.len()), "seed {seed}: {literal:?}");
        let at_once = finish(reader, Ok(()), steps, text.as_bytes());
        check_same(
            &whole,
            &at_once,
            "a literal fed whole",
            text.as_bytes(),
            seed,
        );

        let in_chunks = read_through_literal(&mut rng, &body, &text);
        check_same(
            &whole,
            &in_chunks,
            "a literal in chunks",
            text.as_bytes(),
            seed,
        );
    }
}

#[test]
fn broken_texts_read_through_a_literal_fail_as_the_texts_themselves() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(3000) {
        let text = random_text(&mut rng);
        let Ok(text) = String::from_utf8(broken_bytes(&mut rng, &text)) else {
            continue;
        };
        let body = literal_of(&mut rng, &text);
        let whole = read_whole(text.as_bytes());
        let in_chunks = read_through_literal(&mut rng, &body, &text);
        check_same(
            &whole,
            &in_chunks,
            "a literal in chunks",
            text.as_bytes(),
            seed,
        );
    }
}

#[test]
fn a_literal_is_read_up_to_what_ends_it_or_breaks_it() {
    // How far `feed_literal` reads, in bytes of the literal: to its closing quote, or up to
    // what the literal's own reader must decide (a control character, a broken escape, an
    // escape the input ends inside).
    for (literal, expect) in [
        (r#"{\"a\":1}" tail"#, 9),
        (r#"[\"x\u0022]"#, 11),
        ("[\\\"\u{1}\\\"]", 3),
        (r#"[\"\q\"]"#, 3),
        (r#"[\"\u00"#, 3),
        (r#"[\"\uD83D\"]"#, 3),
        (r#"[\""#, 3),
        // A control byte where the text's whitespace may stand, and a number that an escape
        // of the literal goes on with.
        ("{\\\"a\\\"\n:1}", 6),
        (r#"[1\u0032]" tail"#, 9),
    ] {
        let mut reader = Reader::new(Limits::default());
        let mut steps = Steps::default();
        let read = reader.feed_literal(literal, &mut steps);
        assert_eq!(read, Ok(expect), "{literal:?}");
    }
}
