//! Every sequence of up to three tokens from a small alphabet (lexopt's `basic_fuzz`),
//! checked against a slow, separate reference: a recursive-descent reading of RFC 8259 that
//! says whether the text is valid, a proper prefix of a valid text, or neither. The parser
//! must agree: `Ok`, `Truncated`, or another error, respectively.

use toolgate::json::{parse, Value};

/// Pieces of JSON, whole tokens and fragments, chosen so that three of them reach every
/// state of the grammar: open containers, cut literals, numbers, strings and escapes.
const TOKENS: &[&str] = &[
    "[", "]", "{", "}", ",", ":", " ", "\"", "\"a\"", "\"\\", "n", "u", "0", "1", "-", ".", "e",
    "+", "true", "tru", "null", "x", "é", "\u{1}",
];

/// What the reference says about a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Valid,
    /// A proper prefix of some valid text.
    Prefix,
    Invalid,
}

/// Why the reference stopped: the input ran out (`Eof`) or a character broke the grammar.
#[derive(Debug)]
enum Stop {
    Eof,
    Bad,
}

struct Reference<'s> {
    chars: &'s [char],
}

impl Reference<'_> {
    fn at(&self, i: usize) -> Result<char, Stop> {
        self.chars.get(i).copied().ok_or(Stop::Eof)
    }

    fn ws(&self, mut i: usize) -> usize {
        while matches!(self.chars.get(i), Some(' ' | '\t' | '\n' | '\r')) {
            i += 1;
        }
        i
    }

    fn value(&self, i: usize) -> Result<usize, Stop> {
        match self.at(i)? {
            '{' => self.object(i + 1),
            '[' => self.array(i + 1),
            '"' => self.string(i + 1),
            't' => self.word(i, "true"),
            'f' => self.word(i, "false"),
            'n' => self.word(i, "null"),
            '-' | '0'..='9' => self.number(i),
            _ => Err(Stop::Bad),
        }
    }

    fn word(&self, i: usize, word: &str) -> Result<usize, Stop> {
        for (k, want) in word.chars().enumerate() {
            if self.at(i + k)? != want {
                return Err(Stop::Bad);
            }
        }
        Ok(i + word.len())
    }

    fn digits(&self, mut i: usize) -> Result<usize, Stop> {
        if !self.at(i)?.is_ascii_digit() {
            return Err(Stop::Bad);
        }
        while self.chars.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        Ok(i)
    }

    fn number(&self, mut i: usize) -> Result<usize, Stop> {
        if self.at(i)? == '-' {
            i += 1;
        }
        if self.at(i)? == '0' {
            i += 1;
            if self.chars.get(i).is_some_and(char::is_ascii_digit) {
                return Err(Stop::Bad);
            }
        } else {
            i = self.digits(i)?;
        }
        if self.chars.get(i) == Some(&'.') {
            i = self.digits(i + 1)?;
        }
        if matches!(self.chars.get(i), Some('e' | 'E')) {
            i += 1;
            if matches!(self.at(i)?, '+' | '-') {
                i += 1;
            }
            i = self.digits(i)?;
        }
        Ok(i)
    }

    fn string(&self, mut i: usize) -> Result<usize, Stop> {
        loop {
            match self.at(i)? {
                '"' => return Ok(i + 1),
                '\\' => {
                    i += 1;
                    match self.at(i)? {
                        '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' => i += 1,
                        'u' => {
                            // Three tokens never spell a surrogate, so four hex digits suffice.
                            for k in 1..=4 {
                                if !self.at(i + k)?.is_ascii_hexdigit() {
                                    return Err(Stop::Bad);
                                }
                            }
                            i += 5;
                        }
                        _ => return Err(Stop::Bad),
                    }
                }
                c if c < '\u{20}' => return Err(Stop::Bad),
                _ => i += 1,
            }
        }
    }

    fn array(&self, i: usize) -> Result<usize, Stop> {
        let mut i = self.ws(i);
        if self.at(i)? == ']' {
            return Ok(i + 1);
        }
        loop {
            i = self.ws(self.value(self.ws(i))?);
            match self.at(i)? {
                ',' => i += 1,
                ']' => return Ok(i + 1),
                _ => return Err(Stop::Bad),
            }
        }
    }

    fn object(&self, i: usize) -> Result<usize, Stop> {
        let mut i = self.ws(i);
        if self.at(i)? == '}' {
            return Ok(i + 1);
        }
        loop {
            i = self.ws(i);
            if self.at(i)? != '"' {
                return Err(Stop::Bad);
            }
            i = self.ws(self.string(i + 1)?);
            if self.at(i)? != ':' {
                return Err(Stop::Bad);
            }
            i = self.ws(self.value(self.ws(i + 1))?);
            match self.at(i)? {
                ',' => i += 1,
                '}' => return Ok(i + 1),
                _ => return Err(Stop::Bad),
            }
        }
    }

    fn verdict(text: &str) -> Verdict {
        let chars: Vec<char> = text.chars().collect();
        let reference = Reference { chars: &chars };
        match reference.value(reference.ws(0)) {
            Ok(end) if reference.ws(end) == chars.len() => Verdict::Valid,
            Ok(_) | Err(Stop::Bad) => Verdict::Invalid,
            Err(Stop::Eof) => Verdict::Prefix,
        }
    }
}

/// Asserts that the parser's verdict on `input` is the reference's `expect`.
fn check(input: &str, expect: Verdict) {
    let got = match parse(input) {
        Ok(value) => {
            let written = value.to_string();
            assert_eq!(
                parse(&written).ok(),
                Some(value.clone()),
                "{input:?} written as {written:?}"
            );
            Verdict::Valid
        }
        Err(error) if error.is_truncated() => Verdict::Prefix,
        Err(error) => {
            assert!(error.offset() <= input.len(), "{input:?}: {error}");
            Verdict::Invalid
        }
    };
    assert_eq!(
        got,
        expect,
        "input {input:?}: parser {:?}",
        parse(input).map(|v: Value<'_>| v.to_string())
    );
}

#[test]
fn every_sequence_of_up_to_three_tokens_agrees_with_the_reference() {
    let mut inputs = vec![String::new()];
    let mut counts = [0usize; 3];
    let mut start = 0;
    for _ in 0..3 {
        let end = inputs.len();
        for i in start..end {
            for token in TOKENS {
                let input = format!("{}{token}", inputs[i]);
                inputs.push(input);
            }
        }
        start = end;
    }
    for input in &inputs {
        let expect = Reference::verdict(input);
        counts[expect as usize] += 1;
        check(input, expect);
    }
    println!(
        "{} inputs: {} valid, {} prefixes, {} invalid",
        inputs.len(),
        counts[0],
        counts[1],
        counts[2]
    );
    // The alphabet must reach all three verdicts in numbers, or the test proves little.
    assert!(counts.iter().all(|&n| n >= 50), "{counts:?}");
}

#[test]
fn the_reference_itself_reads_the_grammar() {
    check("[1, {\"a\": \"\\u00e9\"}]", Verdict::Valid);
    check("[1, {\"a\": \"\\u00", Verdict::Prefix);
    check("[1, {\"a\" 1", Verdict::Invalid);
    check("-", Verdict::Prefix);
    check("01", Verdict::Invalid);
    check("", Verdict::Prefix);
}
