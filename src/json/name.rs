//! Name equality: the one duplicate-key rule ([`repeated_key`](super::repeated_key)), tool
//! names, and in the validator member names against declared fields and string `enum`
//! values. These are short, and comparing them is most of an object's cost, so they are
//! compared in whole words rather than byte by byte.

/// String equality for names and enum values, which are short: lengths first, then whole
/// 8-, 4- or 2-byte words (the last one overlapping the one before), so that a ten-byte
/// name takes two word compares instead of ten byte compares or a library call.
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && same_bytes(a, b)
}

/// `a == b` for slices of equal length.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n >= 8 {
        let mut at = 0;
        while at + 8 < n {
            if word8(a, at) != word8(b, at) {
                return false;
            }
            at += 8;
        }
        return word8(a, n - 8) == word8(b, n - 8);
    }
    if n >= 4 {
        return word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4);
    }
    if n >= 2 {
        return word2(a, 0) == word2(b, 0) && word2(a, n - 2) == word2(b, n - 2);
    }
    a.first() == b.first()
}

// The bytes of `bytes` from `at` as one word (`None` past the end, which callers never
// reach: they read within a length both slices share).

fn word8(bytes: &[u8], at: usize) -> Option<u64> {
    let chunk = bytes.get(at..at.checked_add(8)?)?;
    <[u8; 8]>::try_from(chunk).ok().map(u64::from_le_bytes)
}

fn word4(bytes: &[u8], at: usize) -> Option<u32> {
    let chunk = bytes.get(at..at.checked_add(4)?)?;
    <[u8; 4]>::try_from(chunk).ok().map(u32::from_le_bytes)
}

fn word2(bytes: &[u8], at: usize) -> Option<u16> {
    let chunk = bytes.get(at..at.checked_add(2)?)?;
    <[u8; 2]>::try_from(chunk).ok().map(u16::from_le_bytes)
}
