//! The text of a string value that arrives in parts (it holds an escape, or a chunk of a
//! streamed call cuts it), joined for the rules that read a string whole (`pattern`,
//! `format`) or keep it (a `uniqueItems` item).
//!
//! Such strings are mostly short: a date, an e-mail address with an accented letter, an
//! id. Up to [`INLINE`] bytes they are joined in place, so that a check-only verdict on a
//! valid call allocates nothing even then; a longer one moves to a heap buffer, which the
//! validation keeps for the next.

/// Bytes joined in place before the text moves to the heap.
pub(super) const INLINE: usize = 64;

/// A string joined from parts: `inline[..len]` while it fits, else `heap`.
pub(super) struct Joined {
    inline: [u8; INLINE],
    len: usize,
    heap: String,
    spilled: bool,
}

impl Joined {
    pub(super) fn new() -> Joined {
        Joined {
            inline: [0; INLINE],
            len: 0,
            heap: String::new(),
            spilled: false,
        }
    }

    /// Empties it (the heap buffer keeps its room).
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.heap.clear();
        self.spilled = false;
    }

    pub(super) fn push_str(&mut self, part: &str) {
        if !self.spilled {
            let end = self.len.saturating_add(part.len());
            if let Some(room) = self.inline.get_mut(self.len..end) {
                room.copy_from_slice(part.as_bytes());
                self.len = end;
                return;
            }
            // Too long to stay in place: what is joined so far moves first.
            let joined = std::str::from_utf8(self.inline.get(..self.len).unwrap_or_default());
            self.heap.push_str(joined.unwrap_or_default());
            self.spilled = true;
        }
        self.heap.push_str(part);
    }

    /// The text joined so far. Only whole `&str` parts are pushed, so the bytes in place are
    /// always UTF-8 (read here with the standard check, not assumed).
    pub(super) fn as_str(&self) -> &str {
        if self.spilled {
            return &self.heap;
        }
        std::str::from_utf8(self.inline.get(..self.len).unwrap_or_default()).unwrap_or_default()
    }

    /// The text, owned, leaving it empty.
    pub(super) fn take(&mut self) -> String {
        let text = if self.spilled {
            std::mem::take(&mut self.heap)
        } else {
            self.as_str().to_owned()
        };
        self.clear();
        text
    }
}

#[cfg(test)]
mod tests {
    use super::{Joined, INLINE};

    /// Parts of every length up to past the inline room, multi-byte characters included,
    /// join to their concatenation, whether they stay in place or move.
    #[test]
    fn parts_join_to_their_concatenation_in_place_or_on_the_heap() {
        let parts = ["a", "é", "\u{1F600}", "bc", "ÿ€", ""];
        let mut joined = Joined::new();
        for n in 0..3 * INLINE {
            joined.clear();
            let mut expected = String::new();
            for i in 0..n {
                let part = parts[i % parts.len()];
                joined.push_str(part);
                expected.push_str(part);
                assert_eq!(joined.as_str(), expected);
            }
            assert_eq!(joined.take(), expected);
            assert_eq!(joined.as_str(), "");
        }
    }
}
