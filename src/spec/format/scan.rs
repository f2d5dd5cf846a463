//! [`Scan`]: the forward-only byte cursor the format grammars read with. Every format is
//! ASCII but `email`, whose non-ASCII characters are accepted byte by byte.

/// A position in a text, moving forward only.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scan<'a> {
    rest: &'a [u8],
}

impl<'a> Scan<'a> {
    pub(super) fn new(text: &'a str) -> Scan<'a> {
        Scan {
            rest: text.as_bytes(),
        }
    }

    /// True once every byte has been read.
    pub(super) fn is_done(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next byte, not consumed.
    pub(super) fn peek(&self) -> Option<u8> {
        self.rest.first().copied()
    }

    /// The next byte, consumed.
    pub(super) fn bump(&mut self) -> Option<u8> {
        let (&first, rest) = self.rest.split_first()?;
        self.rest = rest;
        Some(first)
    }

    /// Consumes `byte` if it is next.
    pub(super) fn eat(&mut self, byte: u8) -> bool {
        self.eat_if(|next| next == byte)
    }

    /// Consumes `letter` in either case if it is next (RFC 5234 section 2.3).
    pub(super) fn eat_ignore_case(&mut self, letter: u8) -> bool {
        self.eat_if(|next| next.eq_ignore_ascii_case(&letter))
    }

    /// Consumes the next byte if `accept` holds for it.
    pub(super) fn eat_if(&mut self, accept: impl Fn(u8) -> bool) -> bool {
        match self.peek() {
            Some(next) if accept(next) => {
                self.bump();
                true
            }
            _ => false,
        }
    }

    /// Consumes the longest run of bytes for which `accept` holds; returns its length.
    pub(super) fn eat_while(&mut self, accept: impl Fn(u8) -> bool) -> usize {
        let len = self.rest.iter().take_while(|&&b| accept(b)).count();
        self.rest = self.rest.get(len..).unwrap_or_default();
        len
    }

    /// Consumes and returns the next `n` bytes, or `None` (consuming nothing).
    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (taken, rest) = (self.rest.get(..n)?, self.rest.get(n..)?);
        self.rest = rest;
        Some(taken)
    }

    /// Consumes exactly `n` ASCII digits and returns their value, or `None`.
    pub(super) fn digits(&mut self, n: usize) -> Option<u32> {
        let mut value: u32 = 0;
        for _ in 0..n {
            value = push_digit(value, self.bump()?)?;
        }
        Some(value)
    }
}

/// `value` with the ASCII digit `digit` written after it (saturating), or `None`.
pub(super) fn push_digit(value: u32, digit: u8) -> Option<u32> {
    digit.is_ascii_digit().then_some(())?;
    Some(
        value
            .saturating_mul(10)
            .saturating_add(u32::from(digit - b'0')),
    )
}
