//! Where a refusal stands in the text: the first byte of the token that settled it.
//!
//! The stream finds the shortest prefix of the text that is refused; its last byte settled
//! the answer. The model (and the agent that cancels its generation) is told where the token
//! holding that byte starts: the opening quote of an unknown name or key, or of a string past
//! its `maxLength`; the first digit of a number no field takes. A byte that ends a number or
//! a literal (`}` after `4`) settles that token, so the answer is the token's start too.
//! Both functions read bytes of a prefix that is JSON so far, so they need no parser.

/// The first byte of the token that byte `last` of `text` belongs to, or ends.
pub(super) fn token_start(text: &[u8], last: usize) -> usize {
    if let Some(quote) = open_string(text.get(..last).unwrap_or(text)) {
        return quote;
    }
    let in_scalar = |at: usize| {
        text.get(at)
            .is_some_and(|&byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'+' | b'-'))
    };
    let mut start = match (in_scalar(last), last.checked_sub(1)) {
        (true, _) => last,
        (false, Some(before)) if in_scalar(before) => before,
        (false, _) => return last,
    };
    while start > 0 && in_scalar(start - 1) {
        start -= 1;
    }
    start
}

/// The opening quote of the string that `text` ends inside, if it does.
fn open_string(text: &[u8]) -> Option<usize> {
    let mut open = None;
    let mut escaped = false;
    for (at, &byte) in text.iter().enumerate() {
        match (open, byte) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), b'\\') => escaped = true,
            (Some(_), b'"') => open = None,
            (None, b'"') => open = Some(at),
            _ => {}
        }
    }
    open
}

/// Where byte `at` of an arguments text stands in the raw call, whose string literal holding
/// that text opens at `quote`: a character that an escape stands for is placed at the escape
/// (`\"` for `"`, `\u00e9` for `é`).
pub(super) fn in_literal(raw: &[u8], quote: usize, at: usize) -> usize {
    let mut place = quote.saturating_add(1);
    let mut seen = 0;
    while let Some(&byte) = raw.get(place) {
        let (raw_len, text_len) = match byte {
            b'"' => break,
            b'\\' => escape_lens(raw.get(place..).unwrap_or_default()),
            _ => (1, 1),
        };
        if at < seen + text_len {
            // Inside a character written as itself, each byte is its own place.
            return place + if byte == b'\\' { 0 } else { at - seen };
        }
        seen += text_len;
        place += raw_len;
    }
    place
}

/// How many bytes an escape takes in the literal, and how many its character takes in the
/// text (`\uD83D\uDE4F` is one four-byte character).
fn escape_lens(escape: &[u8]) -> (usize, usize) {
    let hex = |from: usize| {
        let digits = escape.get(from..from + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    match (escape.get(1), hex(2)) {
        (Some(b'u'), Some(unit)) if (0xD800..0xDC00).contains(&unit) => {
            let pair = escape.get(6..8) == Some(b"\\u") && hex(8).is_some();
            if pair {
                (12, 4)
            } else {
                (6, 3)
            }
        }
        (Some(b'u'), Some(unit)) => {
            let len = char::from_u32(unit).map_or(3, char::len_utf8);
            (6, len)
        }
        _ => (2, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_starts_where_its_first_byte_is() {
        let text = br#"{"city": 42, "unit":"cel"#;
        assert_eq!(token_start(text, 9), 9); // the `4`
        assert_eq!(token_start(text, 10), 9); // the `2`
        assert_eq!(token_start(text, 11), 9); // the `,` that ends it
        assert_eq!(token_start(text, 18), 13); // the key's closing quote
        assert_eq!(token_start(text, 24), 20); // inside an open string
        assert_eq!(token_start(br#"{"a":"\"x"#, 8), 5);
        assert_eq!(token_start(b"[", 0), 0);
        assert_eq!(token_start(br#"{"a":true"#, 8), 5);
        assert_eq!(token_start(br#"{"a":"x"}"#, 8), 8);
    }

    #[test]
    fn a_character_an_escape_stands_for_is_placed_at_the_escape() {
        let raw = br#"{"arguments":"{\"cty\u00e9\":1}"}"#;
        let quote = 13;
        assert_eq!(in_literal(raw, quote, 0), 14); // `{`
        assert_eq!(in_literal(raw, quote, 1), 15); // `\"`
        assert_eq!(in_literal(raw, quote, 2), 17); // `c`
        assert_eq!(in_literal(raw, quote, 5), 20); // `é`, both of its bytes
        assert_eq!(in_literal(raw, quote, 6), 20);
        assert_eq!(in_literal(raw, quote, 7), 26); // the `\"` after it
        assert_eq!(in_literal(raw, quote, 10), 30); // past the text: its closing quote
        let pair = br#""\ud83d\ude4fx""#;
        assert_eq!(in_literal(pair, 0, 4), 13);
    }
}
