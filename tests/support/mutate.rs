//! Character edits of a valid tool call, for the fuzz tests that feed the gate broken and
//! reshaped calls: each test names the edits it wants, how many rounds, and the tokens it
//! inserts (the fragments that matter to its own shapes).
//!
//! The edits work on characters, never bytes, so the result is always a `&str` the gate can
//! take; the byte-level fuzzing of the parser lives in `json_properties.rs`.
#![allow(dead_code)]

use super::rng::Rng;

/// One kind of edit `mutate` may make at a random point of the text.
#[derive(Clone, Copy, Debug)]
pub enum Edit {
    /// Delete 1 to `max` characters from the point (when the text has any).
    Delete(usize),
    /// Insert one of the tokens at the point.
    Insert,
    /// Cut the text at the point.
    Cut,
    /// Copy 1 to `max` characters from elsewhere in the text to the point (when the text
    /// has two or more).
    Copy(usize),
    /// Swap the character at the point with another one (when the text has two or more).
    Swap,
}

/// `text` after `rng.range(min_rounds, max_rounds)` edits, each picked evenly from `edits`
/// (an edit that does not apply to the text as it is leaves it alone for that round).
pub fn mutate(
    rng: &mut Rng,
    text: &str,
    (min_rounds, max_rounds): (usize, usize),
    edits: &[Edit],
    tokens: &[&str],
) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.range(min_rounds, max_rounds) {
        let len = chars.len();
        let at = rng.below(len + 1);
        match *rng.pick(edits) {
            Edit::Delete(max) if len > 0 => {
                let end = (at + rng.range(1, max)).min(len);
                chars.drain(at.min(end)..end);
            }
            Edit::Insert => {
                let token: Vec<char> = rng.pick(tokens).chars().collect();
                chars.splice(at..at, token);
            }
            Edit::Cut => chars.truncate(at),
            Edit::Copy(max) if len > 1 => {
                let start = rng.below(len);
                let end = (start + rng.range(1, max)).min(len);
                let copy: Vec<char> = chars[start..end].to_vec();
                chars.splice(at..at, copy);
            }
            Edit::Swap if len > 1 => {
                let other = rng.below(len);
                chars.swap(at.min(len - 1), other);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}
