//! `KeySet`: the keys of one envelope object, to refuse a key given twice.
//!
//! Two readers may pick different members of `{"name":"f","name":"g"}` (RFC 8259 section 4),
//! so the envelope refuses a repeat rather than guess, found by the crate's one rule
//! ([`repeated_key`]: the first key, in input order, that repeats an earlier one). The keys
//! arrive one event at a time, so they are kept until the object ends: an envelope's
//! handful in a plain array, without allocating; more (or keys that held an escape, which
//! own their text) in a vector.

use crate::json::repeated_key;
use std::borrow::Cow;

/// The keys of one object, in input order.
#[derive(Debug)]
pub(crate) struct KeySet<'a> {
    inline: [&'a str; KeySet::INLINE],
    n_inline: usize,
    /// Every key so far, once one did not fit inline.
    spilled: Vec<Cow<'a, str>>,
}

impl<'a> KeySet<'a> {
    const INLINE: usize = 8;

    pub(crate) fn new() -> KeySet<'a> {
        KeySet {
            inline: [""; KeySet::INLINE],
            n_inline: 0,
            spilled: Vec::new(),
        }
    }

    /// Empties the set for the next object, as [`KeySet::new`] makes it: the slots past
    /// `n_inline` are never read, so they are left as they are rather than filled again.
    pub(crate) fn clear(&mut self) {
        self.n_inline = 0;
        self.spilled.clear();
    }

    #[inline]
    pub(crate) fn insert(&mut self, key: Cow<'a, str>) {
        if !self.spilled.is_empty() {
            self.spilled.push(key);
            return;
        }
        match (key, self.inline.get_mut(self.n_inline)) {
            (Cow::Borrowed(key), Some(slot)) => {
                *slot = key;
                self.n_inline += 1;
            }
            (key, _) => self.spill(key),
        }
    }

    /// Moves the inline keys to the vector, then adds `key`.
    #[cold]
    fn spill(&mut self, key: Cow<'a, str>) {
        let inline = self.inline.get(..self.n_inline).unwrap_or_default();
        self.spilled = inline
            .iter()
            .map(|&earlier| Cow::Borrowed(earlier))
            .collect();
        self.spilled.push(key);
    }

    /// The first key, in input order, that repeats an earlier one.
    pub(crate) fn duplicate(&mut self) -> Option<Cow<'a, str>> {
        if self.spilled.is_empty() {
            let inline = self.inline.get(..self.n_inline).unwrap_or_default();
            let index = repeated_key(inline, |key| key)?;
            return inline.get(index).map(|&key| Cow::Borrowed(key));
        }
        let index = repeated_key(&self.spilled, |key| key.as_ref())?;
        self.spilled.get(index).cloned()
    }
}
