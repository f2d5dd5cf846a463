//! `KeySet`: the keys of one envelope object, to refuse a key given twice.
//!
//! Two readers may pick different members of `{"name":"f","name":"g"}` (RFC 8259 section 4),
//! so the envelope refuses a duplicate rather than guess. An envelope has a handful of keys:
//! they are compared pairwise as they arrive, without allocating, and only an object with
//! many keys (or keys that held an escape) pays for a sorted vector.

use std::borrow::Cow;

/// The keys of one object, to find a key given twice without allocating in the common case.
///
/// Up to [`KeySet::INLINE`] keys that borrow from the call (no escape in them: envelopes
/// have a handful) are compared pairwise as they arrive, in a plain array of `&str` that
/// costs nothing to set up or drop. Past that, or from the first key that owns its text,
/// every key moves to a vector that is sorted once at the end, so an object with a hundred
/// thousand keys costs `n log n`, not `n²`.
#[derive(Debug)]
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

    pub(crate) fn insert(&mut self, key: Cow<'a, str>) {
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
