//! The number grammar of RFC 8259 section 6, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]?
//! [0-9]+)?`, as a state machine so a chunk can end inside a number. The crate's only one.

/// Where a number's text stands in the grammar after the bytes read so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Grammar {
    /// Nothing read yet.
    Start,
    /// After the leading `-`.
    Minus,
    /// After a leading `0`: a digit may not follow.
    Zero,
    /// Inside the integer part's digits.
    Int,
    /// After the `.`.
    Dot,
    /// Inside the fraction's digits.
    Frac,
    /// After the `e` or `E`.
    Exp,
    /// After the exponent's sign.
    ExpSign,
    /// Inside the exponent's digits.
    ExpDigits,
}

/// How a number's text ends at a byte that does not continue it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The number is complete; the byte belongs to what follows.
    Complete,
    /// The number is broken at the byte: what the grammar wanted there, in words.
    Broken(&'static str),
}

impl Grammar {
    /// Steps over the bytes of `bytes` from `pos` that continue the number; returns the state
    /// reached and the offset of the first byte that does not continue it (`bytes.len()`
    /// when the bytes ran out first). Inlined into the reader's number path, where it is the
    /// whole of the work for a number.
    ///
    /// The grammar's parts in order (sign, integer, fraction, exponent), each entered only
    /// from the states that lead into it: from [`Grammar::Start`], the reader's case, the
    /// states are known at every step and this compiles to straight-line code, as a parser
    /// without chunks would write it; from a state a chunk cut, the same code takes up
    /// where it stood.
    pub(crate) fn scan(self, bytes: &[u8], mut pos: usize) -> (Grammar, usize) {
        let mut state = self;
        if state == Grammar::Start && bytes.get(pos) == Some(&b'-') {
            pos += 1;
            state = Grammar::Minus;
        }
        if matches!(state, Grammar::Start | Grammar::Minus) {
            match bytes.get(pos) {
                Some(b'0') => state = Grammar::Zero,
                Some(b'1'..=b'9') => state = Grammar::Int,
                _ => return (state, pos),
            }
            pos += 1;
        }
        if state == Grammar::Int {
            pos = digits(bytes, pos);
        }
        if matches!(state, Grammar::Zero | Grammar::Int) && bytes.get(pos) == Some(&b'.') {
            pos += 1;
            state = Grammar::Dot;
        }
        if state == Grammar::Dot {
            match bytes.get(pos) {
                Some(b'0'..=b'9') => state = Grammar::Frac,
                _ => return (state, pos),
            }
            pos += 1;
        }
        if state == Grammar::Frac {
            pos = digits(bytes, pos);
        }
        if matches!(state, Grammar::Zero | Grammar::Int | Grammar::Frac) {
            match bytes.get(pos) {
                Some(b'e' | b'E') => state = Grammar::Exp,
                _ => return (state, pos),
            }
            pos += 1;
        }
        if state == Grammar::Exp && matches!(bytes.get(pos), Some(b'+' | b'-')) {
            pos += 1;
            state = Grammar::ExpSign;
        }
        if matches!(state, Grammar::Exp | Grammar::ExpSign) {
            match bytes.get(pos) {
                Some(b'0'..=b'9') => state = Grammar::ExpDigits,
                _ => return (state, pos),
            }
            pos += 1;
        }
        if state == Grammar::ExpDigits {
            pos = digits(bytes, pos);
        }
        (state, pos)
    }

    /// How the number ends at `byte`, a byte that [`Grammar::scan`] did not take.
    pub(crate) fn end_at(self, byte: u8) -> End {
        match self {
            Grammar::Zero if byte.is_ascii_digit() => {
                End::Broken("a leading 0 must not be followed by a digit")
            }
            Grammar::Zero | Grammar::Int | Grammar::Frac | Grammar::ExpDigits => End::Complete,
            Grammar::Start | Grammar::Minus => End::Broken("expected a digit after '-'"),
            Grammar::Dot => End::Broken("expected a digit after '.'"),
            Grammar::Exp | Grammar::ExpSign => End::Broken("expected a digit in the exponent"),
        }
    }

    /// True when the text read so far is a whole number (so the end of the input may come).
    pub(crate) fn is_complete(self) -> bool {
        matches!(
            self,
            Grammar::Zero | Grammar::Int | Grammar::Frac | Grammar::ExpDigits
        )
    }
}

/// The offset of the first byte at or after `pos` that is not a digit.
fn digits(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(b'0'..=b'9') = bytes.get(pos) {
        pos += 1;
    }
    pos
}

/// True if `text` is exactly one number in the grammar.
pub(crate) fn is_number(text: &[u8]) -> bool {
    let (grammar, end) = Grammar::Start.scan(text, 0);
    end == text.len() && grammar.is_complete()
}
