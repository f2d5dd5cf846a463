//! `Stack`: one number per open array or object, the first levels inline, so that reading
//! an ordinary call allocates nothing for its nesting.

/// A stack of `usize`, the first [`Stack::INLINE`] entries inline.
#[derive(Clone, Debug)]
pub(crate) struct Stack {
    inline: [usize; Stack::INLINE],
    deeper: Vec<usize>,
    /// Invariant: `len <= INLINE + deeper.len()`, and `deeper` is empty while `len <= INLINE`.
    len: usize,
}

impl Stack {
    const INLINE: usize = 16;

    pub(crate) fn new() -> Stack {
        Stack {
            inline: [0; Stack::INLINE],
            deeper: Vec::new(),
            len: 0,
        }
    }

    /// How many entries there are.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether there is none.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn push(&mut self, entry: usize) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = entry,
            None => self.deeper.push(entry),
        }
        self.len += 1;
    }

    pub(crate) fn pop(&mut self) -> Option<usize> {
        let top = self.last()?;
        if self.len > Stack::INLINE {
            self.deeper.pop();
        }
        self.len -= 1;
        Some(top)
    }

    pub(crate) fn last(&self) -> Option<usize> {
        match self.len.checked_sub(1)? {
            index if index < Stack::INLINE => self.inline.get(index).copied(),
            _ => self.deeper.last().copied(),
        }
    }
}
