//! Sets of code points: what one consuming step accepts (a literal, `.`, `[...]`, `\d`...).
//! Sorted disjoint `u32` ranges (a pattern may name surrogates) plus a 128-bit ASCII map.

/// The last code point.
const MAX_CODE_POINT: u32 = 0x10_FFFF;

/// A set of code points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Class {
    /// Sorted, disjoint and not touching: `(low, high)` with `low <= high`, both inclusive.
    ranges: Vec<(u32, u32)>,
    /// Bit `n` is set when code point `n` (below 128) is a member; always agrees with `ranges`.
    ascii: u128,
}

impl Class {
    /// The set of the given ranges, in any order; a reversed range is empty.
    pub(super) fn from_ranges(mut ranges: Vec<(u32, u32)>) -> Class {
        ranges.retain(|&(low, high)| low <= high);
        ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (low, high) in ranges {
            match merged.last_mut() {
                Some(last) if low <= last.1.saturating_add(1) => last.1 = last.1.max(high),
                _ => merged.push((low, high)),
            }
        }
        let mut ascii = 0u128;
        for &(low, high) in &merged {
            for code in low..=high.min(127) {
                ascii |= 1 << code;
            }
        }
        Class {
            ranges: merged,
            ascii,
        }
    }

    /// The one code point `code`.
    pub(super) fn single(code: u32) -> Class {
        Class::from_ranges(vec![(code, code)])
    }

    /// Every code point not in `self` (`[^...]`, `\D`, `\W`, `\S`).
    pub(super) fn negated(&self) -> Class {
        let mut complement = Vec::with_capacity(self.ranges.len() + 1);
        let mut next = 0u32;
        for &(low, high) in &self.ranges {
            if next < low {
                complement.push((next, low - 1));
            }
            next = high.saturating_add(1);
        }
        if next <= MAX_CODE_POINT {
            complement.push((next, MAX_CODE_POINT));
        }
        Class::from_ranges(complement)
    }

    /// The ranges of the set, for building a union (`[a-z\d]`).
    pub(super) fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// `.` without the `s` flag: anything but ECMA-262's line terminators.
    pub(super) fn dot() -> Class {
        Class::from_ranges(LINE_TERMINATORS.iter().map(|&c| (c, c)).collect()).negated()
    }

    /// `\d`: the ASCII digits only, as ECMA-262 defines it (not Unicode's `Nd`).
    pub(super) fn digit() -> Class {
        Class::from_ranges(vec![(0x30, 0x39)])
    }

    /// `\w`: `[A-Za-z0-9_]`, the set `\b` uses too ([`is_word`]).
    pub(super) fn word() -> Class {
        Class::from_ranges(vec![(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
    }

    /// `\s`: ECMA-262's WhiteSpace (with `Zs`) and LineTerminator.
    pub(super) fn space() -> Class {
        let mut ranges: Vec<(u32, u32)> = LINE_TERMINATORS.iter().map(|&c| (c, c)).collect();
        ranges.extend_from_slice(&[
            (0x09, 0x09),
            (0x0B, 0x0C),
            (0x20, 0x20),
            (0xA0, 0xA0),
            (0x1680, 0x1680),
            (0x2000, 0x200A),
            (0x202F, 0x202F),
            (0x205F, 0x205F),
            (0x3000, 0x3000),
            (0xFEFF, 0xFEFF),
        ]);
        Class::from_ranges(ranges)
    }

    /// Whether `c` is a member.
    pub(super) fn contains(&self, c: char) -> bool {
        let code = u32::from(c);
        if code < 128 {
            return self.ascii & (1 << code) != 0;
        }
        self.ranges
            .binary_search_by(|&(low, high)| {
                if high < code {
                    std::cmp::Ordering::Less
                } else if low > code {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }

    /// Whether no code point a `str` can hold is a member (`[]`, or only surrogates).
    pub(super) fn is_empty(&self) -> bool {
        self.ranges
            .iter()
            .all(|&(low, high)| 0xD800 <= low && high <= 0xDFFF)
    }
}

/// Whether `c` is a word character for `\b` and `\B`: `[A-Za-z0-9_]`, the same set as `\w`.
pub(super) fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// ECMA-262's LineTerminator code points.
const LINE_TERMINATORS: [u32; 4] = [0x0A, 0x0D, 0x2028, 0x2029];
