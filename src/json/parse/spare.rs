//! The stacks and buffer a parse works on, kept per thread between parses.
//!
//! Without them every parse would allocate its frame stack, its member stack and its
//! unescaping buffer (and grow each), several allocations more than a small call needs.

use super::Frame;
use crate::json::value::Member;
use std::cell::Cell;

/// The stacks and buffer a parse works on, kept per thread between parses so that parsing
/// a small document allocates only what the document itself needs.
#[derive(Default)]
pub(super) struct Spare {
    pub(super) frames: Vec<Frame>,
    pub(super) members: Vec<Member<'static>>,
    pub(super) unescaped: String,
}

thread_local! {
    static SPARE: Cell<Spare> = const {
        Cell::new(Spare {
            frames: Vec::new(),
            members: Vec::new(),
            unescaped: String::new(),
        })
    };
}

/// Spare stacks bigger than this many entries (and buffers of this many bytes) are freed
/// rather than kept.
const MAX_KEPT: usize = 1 << 12;

/// This thread's spare stacks (empty, with their capacity), or fresh ones.
pub(super) fn take_spare() -> Spare {
    // A `Cell` swap, not a `RefCell` borrow: nothing to check, nothing to release.
    SPARE.try_with(Cell::take).unwrap_or_default()
}

/// Keeps the stacks of a finished parse for the next one on this thread.
pub(super) fn give_back_spare(
    mut frames: Vec<Frame>,
    mut members: Vec<Member<'_>>,
    mut unescaped: String,
) {
    if frames.capacity() > MAX_KEPT
        || members.capacity() > MAX_KEPT
        || unescaped.capacity() > MAX_KEPT * 16
    {
        return;
    }
    frames.clear();
    members.clear();
    unescaped.clear();
    // An empty `Vec<Member<'a>>` becomes a `Vec<Member<'static>>` keeping its buffer: std
    // collects `vec::IntoIter` adapters in place when the element layout is the same.
    // (`filter` would keep the lifetime; `filter_map` is what changes the element type.)
    #[allow(clippy::unnecessary_filter_map)]
    let members: Vec<Member<'static>> = members.into_iter().filter_map(|_| None).collect();
    let _ = SPARE.try_with(|spare| {
        spare.set(Spare {
            frames,
            members,
            unescaped,
        })
    });
}
