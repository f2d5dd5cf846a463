//! A stack whose first `N` entries live inline, for the validation's working state.
//!
//! A validation of ordinary arguments must not allocate (the gate checks calls in a loop,
//! and check-only verdicts promise no heap at all), yet its state is stacks whose depth only
//! the value decides. So each stack keeps its first `N` entries in an array inside the
//! [`Validation`](super::Validation) and spills to a `Vec` beyond: shallow values cost no
//! allocation, deep ones cost what they need, and no depth is refused for want of room.

/// A stack of `T` with its first `N` entries inline.
pub(super) struct Stack<T, const N: usize> {
    /// Entries `0..min(len, N)`; `None` past `len`.
    inline: [Option<T>; N],
    /// Entries `N..len`.
    spill: Vec<T>,
    len: usize,
}

impl<T, const N: usize> Stack<T, N> {
    pub(super) fn new() -> Self {
        Stack {
            inline: std::array::from_fn(|_| None),
            spill: Vec::new(),
            len: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn push(&mut self, value: T) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = Some(value),
            None => self.spill.push(value),
        }
        self.len += 1;
    }

    pub(super) fn pop(&mut self) -> Option<T> {
        let index = self.len.checked_sub(1)?;
        self.len = index;
        match self.inline.get_mut(index) {
            Some(slot) => slot.take(),
            None => self.spill.pop(),
        }
    }

    pub(super) fn clear(&mut self) {
        self.truncate(0);
    }

    /// Drops every entry from `len` on.
    pub(super) fn truncate(&mut self, len: usize) {
        while self.len > len {
            self.pop();
        }
    }

    pub(super) fn get(&self, index: usize) -> Option<&T> {
        if index >= self.len {
            return None;
        }
        match self.inline.get(index) {
            Some(slot) => slot.as_ref(),
            None => self.spill.get(index - N),
        }
    }

    pub(super) fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        if index >= self.len {
            return None;
        }
        match self.inline.get_mut(index) {
            Some(slot) => slot.as_mut(),
            None => self.spill.get_mut(index - N),
        }
    }

    pub(super) fn last(&self) -> Option<&T> {
        self.get(self.len.checked_sub(1)?)
    }

    pub(super) fn last_mut(&mut self) -> Option<&mut T> {
        self.get_mut(self.len.checked_sub(1)?)
    }
}
