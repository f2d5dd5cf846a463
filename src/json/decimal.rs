//! Exact arithmetic on JSON number text, without allocating: comparison (for bounds, `enum`,
//! `const` and `uniqueItems`), the integer test ([`Number::as_i64`](super::Number::as_i64)
//! and the `integer` type) and `multipleOf`.
//!
//! Converting to `f64` first would be wrong in ways the model can see: `9007199254740993`
//! and `9007199254740992` are the same `f64`, `0.1 + 0.2` style rounding makes `0.0075` look
//! like no multiple of `0.0001`, and an `i64` bound above 2^53 would round. So a number is
//! read as the decimal its text denotes (RFC 8259 section 6 grammar: `-? int frac? exp?`) and
//! compared digit by digit.

use std::cmp::Ordering;
use std::fmt::{self, Write as _};

/// A JSON number's text read as a decimal: `sign × 0.d₁d₂…dₙ × 10^lead`, where `d₁ ≠ 0`
/// and `dₙ ≠ 0` (leading and trailing zeros dropped). Borrows the text; copying nothing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decimal<'a> {
    negative: bool,
    /// Digits before the point, as written.
    int: &'a [u8],
    /// Digits after the point, as written.
    frac: &'a [u8],
    /// Index (in `int` then `frac`) of the first non-zero digit; equals `end` for zero.
    first: usize,
    /// One past the index of the last non-zero digit.
    end: usize,
    /// The power of ten of the first significant digit's place, plus one.
    lead: i64,
}

/// Exponents are clamped far beyond any range that matters (`1e999999999999` is simply
/// huge), so that no arithmetic on them can overflow.
const EXPONENT_CLAMP: i64 = 1 << 40;

const I64_MAX_DIGITS: &str = "9223372036854775807";
const I64_MIN_DIGITS: &str = "9223372036854775808";

impl<'a> Decimal<'a> {
    /// Reads number text. Text outside the grammar is read leniently (never panics); the
    /// crate only passes text that `json::Number` has checked.
    pub(crate) fn parse(text: &'a str) -> Decimal<'a> {
        let bytes = text.as_bytes();
        let (negative, rest) = match bytes.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, bytes),
        };
        let e_at = rest
            .iter()
            .position(|&b| b == b'e' || b == b'E')
            .unwrap_or(rest.len());
        let (mantissa, exponent_part) = rest.split_at(e_at);
        let exponent = exponent_part.get(1..).map_or(0, parse_exponent);
        let (int, frac) = match mantissa.iter().position(|&b| b == b'.') {
            Some(dot) => {
                let (int, dot_frac) = mantissa.split_at(dot);
                (int, dot_frac.get(1..).unwrap_or(&[]))
            }
            None => (mantissa, &[][..]),
        };
        let n_digits = int.len().saturating_add(frac.len());
        let mut decimal = Decimal {
            negative,
            int,
            frac,
            first: 0,
            end: 0,
            lead: 0,
        };
        let first = (0..n_digits)
            .find(|&i| decimal.digit(i) != 0)
            .unwrap_or(n_digits);
        let end = (first..n_digits)
            .rev()
            .find(|&i| decimal.digit(i) != 0)
            .map_or(first, |i| i + 1);
        decimal.first = first;
        decimal.end = end;
        // Digit i stands for 10^(int.len() - 1 - i + exponent); the first significant one
        // for 10^(lead - 1).
        decimal.lead = to_i64(int.len())
            .saturating_sub(to_i64(first))
            .saturating_add(exponent);
        decimal
    }

    /// Digit `i` of `int` followed by `frac`, as a number 0 to 9 (0 past the end).
    fn digit(&self, i: usize) -> u8 {
        let byte = match i.checked_sub(self.int.len()) {
            None => self.int.get(i),
            Some(j) => self.frac.get(j),
        };
        byte.map_or(0, |b| b.wrapping_sub(b'0'))
    }

    /// The significant digits, most significant first.
    fn significant(&self) -> impl Iterator<Item = u8> + '_ {
        (self.first..self.end).map(move |i| self.digit(i))
    }

    fn n_significant(&self) -> i64 {
        to_i64(self.end.saturating_sub(self.first))
    }

    /// True for zero, however written (`0`, `-0.0`, `0e5`).
    pub(crate) fn is_zero(&self) -> bool {
        self.first == self.end
    }

    /// Numeric order, exactly.
    pub(crate) fn compare(&self, other: &Decimal<'_>) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => {
                return if other.negative {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (false, true) => {
                return if self.negative {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (false, false) => {}
        }
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.compare_magnitude(other),
            (true, true) => other.compare_magnitude(self),
        }
    }

    /// Order of absolute values; both non-zero.
    fn compare_magnitude(&self, other: &Decimal<'_>) -> Ordering {
        self.lead.cmp(&other.lead).then_with(|| {
            // Same place for the first digit: compare digit strings; a proper prefix is
            // the smaller (its missing digits are zeros, the other's are not all zero).
            self.significant().cmp(other.significant())
        })
    }

    /// True if the value is an integer (`1.0`, `1e2` and `-0` are).
    pub(crate) fn is_integer(&self) -> bool {
        self.is_zero() || self.lead >= self.n_significant()
    }

    /// True if the value is an integer within `i64`: JSON Schema's `integer` as toolgate
    /// defines it, decided exactly.
    pub(crate) fn is_i64(&self) -> bool {
        if !self.is_integer() {
            return false;
        }
        // An integer has `lead` digits before the point; i64 holds every 18-digit one, no
        // 20-digit one, and the 19-digit ones up to its limits.
        match self.lead.cmp(&19) {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => {
                let limit = if self.negative {
                    I64_MIN_DIGITS
                } else {
                    I64_MAX_DIGITS
                };
                let digits = self.significant().chain(std::iter::repeat(0)).take(19);
                let limit_digits = limit.bytes().map(|b| b - b'0');
                digits.cmp(limit_digits) != Ordering::Greater
            }
        }
    }

    /// The value as an `i64`, if it is an integer within `i64` ([`Decimal::is_i64`]).
    pub(crate) fn as_i64(&self) -> Option<i64> {
        if !self.is_i64() {
            return None;
        }
        // At most 19 digits before the point (`lead`), so the magnitude fits an i128.
        let mut magnitude: i128 = 0;
        for digit in self.significant() {
            magnitude = magnitude.checked_mul(10)?.checked_add(i128::from(digit))?;
        }
        for _ in 0..self.lead.saturating_sub(self.n_significant()) {
            magnitude = magnitude.checked_mul(10)?;
        }
        i64::try_from(if self.negative { -magnitude } else { magnitude }).ok()
    }

    /// True if `self / divisor` is an integer, decided exactly. `None` when the divisor is
    /// zero or has more than 19 significant digits (no `f64` divisor does: its shortest
    /// form has at most 17).
    pub(crate) fn is_multiple_of(&self, divisor: &Decimal<'_>) -> Option<bool> {
        if divisor.is_zero() {
            return None;
        }
        if self.is_zero() {
            return Some(true);
        }
        // self = V × 10^a and divisor = D × 10^b with V and D integers that end in a
        // non-zero digit. If a < b, self / divisor = V / (D × 10^(b-a)) would need 10 to
        // divide V, which it does not; otherwise D must divide V × 10^(a-b).
        let a = self.lead.saturating_sub(self.n_significant());
        let b = divisor.lead.saturating_sub(divisor.n_significant());
        if a < b {
            return Some(false);
        }
        if divisor.n_significant() > 19 {
            return None;
        }
        let d = divisor
            .significant()
            .fold(0u128, |acc, digit| acc * 10 + u128::from(digit));
        let v_mod_d = self
            .significant()
            .fold(0u128, |acc, digit| (acc * 10 + u128::from(digit)) % d);
        let shift = u64::try_from(a.saturating_sub(b)).unwrap_or(0);
        Some(v_mod_d * pow_mod(10, shift, d) % d == 0)
    }
}

impl Decimal<'_> {
    /// Folds what identifies the value (zero, or sign, place and significant digits) into
    /// `seed` with `step`: equal values fold alike whatever their text, for hashing.
    pub(crate) fn fold_value(&self, seed: u64, step: impl Fn(u64, u64) -> u64) -> u64 {
        if self.is_zero() {
            return step(seed, 0);
        }
        let signed = step(seed, 1 + u64::from(self.negative));
        let placed = step(signed, u64::from_le_bytes(self.lead.to_le_bytes()));
        self.significant()
            .fold(placed, |acc, digit| step(acc, u64::from(digit)))
    }
}

/// `base^exponent mod modulus` by squaring; `modulus < 10^19 < 2^64`, so every product
/// fits in `u128`.
fn pow_mod(base: u128, mut exponent: u64, modulus: u128) -> u128 {
    let mut result = 1 % modulus;
    let mut base = base % modulus;
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = result * base % modulus;
        }
        base = base * base % modulus;
        exponent >>= 1;
    }
    result
}

/// Reads an exponent's optional sign and digits, clamped to `±EXPONENT_CLAMP`.
fn parse_exponent(bytes: &[u8]) -> i64 {
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, bytes),
    };
    let mut value: i64 = 0;
    for &d in digits {
        value = value
            .saturating_mul(10)
            .saturating_add(i64::from(d.wrapping_sub(b'0') % 10))
            .min(EXPONENT_CLAMP);
    }
    if negative {
        -value
    } else {
        value
    }
}

fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Up to 48 bytes of text on the stack: room for any `f64` in `{:e}` form
/// (`-1.7976931348623157e308` is 23), so a divisor is read without allocating.
pub(crate) struct StackText {
    bytes: [u8; 48],
    len: usize,
}

impl StackText {
    /// An `f64` in Rust's shortest round-trip exponent form (`1e-4`, `1.5e0`), which is
    /// valid JSON number text; `None` for NaN and infinities.
    pub(crate) fn of_f64(x: f64) -> Option<StackText> {
        if !x.is_finite() {
            return None;
        }
        let mut text = StackText {
            bytes: [0; 48],
            len: 0,
        };
        write!(text, "{x:e}").ok()?;
        Some(text)
    }

    pub(crate) fn as_str(&self) -> &str {
        self.bytes
            .get(..self.len)
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("0")
    }
}

impl fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// True if `value` (number text) is a multiple of `divisor`, exactly when the divisor's
/// shortest decimal form is what was declared (it is for every divisor written with at most
/// 17 significant digits), else by `f64` division.
pub(crate) fn is_multiple_of(value: &str, divisor: f64) -> bool {
    let exact = StackText::of_f64(divisor)
        .and_then(|text| Decimal::parse(value).is_multiple_of(&Decimal::parse(text.as_str())));
    match exact {
        Some(answer) => answer,
        None => {
            let quotient = value.parse::<f64>().unwrap_or(f64::NAN) / divisor;
            quotient.is_finite() && quotient == quotient.trunc()
        }
    }
}

/// Numeric order of two number texts, exactly.
pub(crate) fn compare(a: &str, b: &str) -> Ordering {
    match (plain_i64(a), plain_i64(b)) {
        (Some(a), Some(b)) => a.cmp(&b),
        _ => Decimal::parse(a).compare(&Decimal::parse(b)),
    }
}

/// Number text read for the common case, `-? digits (. digits)?` with at most 18 digits
/// before the point and no exponent: its value lies in `[whole, whole + 1)` (for negative
/// text `(whole - 1, whole]`), and equals `whole` exactly when `fraction` is false.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Plain {
    /// The digits before the point, with the sign (`-0.5` has `whole` 0 and `negative`).
    whole: i64,
    /// True if a digit after the point is not zero.
    fraction: bool,
    negative: bool,
}

impl Plain {
    /// `None` for any other text (an exponent, 19 or more digits before the point), which
    /// the exact path handles.
    pub(crate) fn parse(text: &str) -> Option<Plain> {
        let bytes = text.as_bytes();
        let (negative, digits) = match bytes.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, bytes),
        };
        let mut whole: i64 = 0;
        let mut n_whole = 0;
        let mut rest = digits;
        while let Some((&b, tail)) = rest.split_first() {
            if !b.is_ascii_digit() {
                break;
            }
            // At most 18 digits (checked below before the next one): below 10^18 <
            // i64::MAX, so this cannot overflow.
            if n_whole == 18 {
                return None;
            }
            whole = whole * 10 + i64::from(b - b'0');
            n_whole += 1;
            rest = tail;
        }
        if n_whole == 0 {
            return None;
        }
        let fraction = match rest.split_first() {
            None => false,
            Some((b'.', frac)) if !frac.is_empty() && frac.iter().all(u8::is_ascii_digit) => {
                frac.iter().any(|&b| b != b'0')
            }
            Some(_) => return None,
        };
        Some(Plain {
            whole: if negative { -whole } else { whole },
            fraction,
            negative,
        })
    }

    /// Numeric order against an integer, exactly.
    pub(crate) fn cmp_i64(self, bound: i64) -> Ordering {
        match self.whole.cmp(&bound) {
            Ordering::Equal if self.fraction && self.negative => Ordering::Less,
            Ordering::Equal if self.fraction => Ordering::Greater,
            // whole < bound: the value is below whole + 1 <= bound (or at most whole, for
            // negative text); whole > bound likewise. A fraction cannot cross an integer.
            order => order,
        }
    }
}

/// Numeric order of number text against a bound, exactly, taking the fast path when the
/// value was read as [`Plain`] and the bound is a plain integer (`integer`, read when the
/// spec was built).
pub(crate) fn compare_to(
    value: &str,
    plain: Option<Plain>,
    bound: &str,
    integer: Option<i64>,
) -> Ordering {
    match (plain, integer) {
        (Some(plain), Some(bound)) => plain.cmp_i64(bound),
        _ => Decimal::parse(value).compare(&Decimal::parse(bound)),
    }
}

/// The fast path for the common case: text of an optional `-` and 1 to 18 digits, whose
/// value always fits `i64`. `None` for anything else (which the exact path handles).
pub(crate) fn plain_i64(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut value: i64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        // At most 18 digits: below 10^18 < i64::MAX, so this cannot overflow.
        value = value * 10 + i64::from(b - b'0');
    }
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_is_exact() {
        let cases = [
            ("1", "1.0", Ordering::Equal),
            ("-0", "0.0e7", Ordering::Equal),
            ("1e2", "100", Ordering::Equal),
            ("12300e-2", "123", Ordering::Equal),
            ("9007199254740993", "9007199254740992", Ordering::Greater),
            ("-2.0001", "-2", Ordering::Less),
            ("0.1", "0.10000000000000001", Ordering::Less),
            ("1e999999999999999999", "1e308", Ordering::Greater),
            ("-1e-999999999999999999", "0", Ordering::Less),
            ("10", "9.99", Ordering::Greater),
            ("1.5", "1.50000", Ordering::Equal),
            ("-3", "-20", Ordering::Greater),
        ];
        for (a, b, expected) in cases {
            assert_eq!(compare(a, b), expected, "{a} vs {b}");
            assert_eq!(compare(b, a), expected.reverse(), "{b} vs {a}");
        }
    }

    #[test]
    fn integers_within_i64_are_decided_from_the_text() {
        for yes in ["1", "1.0", "1e2", "-0", "0.0", "9223372036854775807"] {
            assert!(Decimal::parse(yes).is_i64(), "{yes}");
        }
        for yes in ["-9223372036854775808", "92233720368547758.07e2", "12300e-2"] {
            assert!(Decimal::parse(yes).is_i64(), "{yes}");
        }
        for no in [
            "1.5",
            "1e-1",
            "9223372036854775808",
            "1e19",
            "-9223372036854775809",
        ] {
            assert!(!Decimal::parse(no).is_i64(), "{no}");
        }
    }

    #[test]
    fn the_fast_path_agrees_with_the_exact_one() {
        for text in [
            "0",
            "-0",
            "7",
            "-42",
            "123456789012345678",
            "-123456789012345678",
        ] {
            let fast = plain_i64(text);
            assert!(fast.is_some(), "{text}");
            assert!(Decimal::parse(text).is_i64(), "{text}");
            assert_eq!(
                compare(text, "5"),
                Decimal::parse(text).compare(&Decimal::parse("5"))
            );
        }
        for text in ["1234567890123456789", "1.0", "1e2", "-", "", "1.5"] {
            assert_eq!(plain_i64(text), None, "{text}");
        }
    }

    #[test]
    fn plain_reading_agrees_with_the_exact_one() {
        let values = [
            "0",
            "-0",
            "7",
            "-42",
            "0.5",
            "-0.5",
            "49.5",
            "250.0",
            "-3.25",
            "-3.0",
            "100",
            "99.999",
            "100.0001",
            "-100.5",
            "123456789012345678.9",
            "1e2",
            "1.5e1",
            "-1E0",
            "1234567890123456789",
            "0.000",
        ];
        let bounds = [
            "0", "1", "-1", "3", "-3", "-4", "49", "50", "100", "-100", "-101",
        ];
        for value in values {
            let plain = Plain::parse(value);
            let exponent = value.contains(['e', 'E']);
            assert_eq!(
                plain.is_none(),
                exponent || value == "1234567890123456789",
                "{value}"
            );
            if let Some(plain) = plain {
                assert_eq!(!plain.fraction, Decimal::parse(value).is_i64(), "{value}");
            }
            for bound in bounds {
                let exact = Decimal::parse(value).compare(&Decimal::parse(bound));
                let fast = compare_to(value, plain, bound, plain_i64(bound));
                let slow = compare_to(value, plain, bound, None);
                assert_eq!(fast, exact, "{value} vs {bound}");
                assert_eq!(slow, exact, "{value} vs {bound}");
            }
        }
        for text in ["", "-", "1.", "-.5", ".5", "1.2.3", "1x"] {
            assert_eq!(Plain::parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn multiples_are_exact() {
        let cases = [
            ("10", 2.0, true),
            ("7", 2.0, false),
            ("0", 1.5, true),
            ("4.5", 1.5, true),
            ("-4.5", 1.5, true),
            ("35", 1.5, false),
            ("0.0075", 0.0001, true),
            ("0.00751", 0.0001, false),
            ("1e308", 0.123456789, false),
            ("12391239123", 1e-8, true),
            ("19.99", 0.01, true),
            ("19.999", 0.01, false),
            ("1e400", 3.0, false),
            ("3e400", 3.0, true),
        ];
        for (value, divisor, expected) in cases {
            assert_eq!(
                is_multiple_of(value, divisor),
                expected,
                "{value} / {divisor}"
            );
        }
    }
}
