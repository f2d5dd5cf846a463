//! A counting global allocator, so that `toolgate bench` can report heap allocations per
//! document and per call.
//!
//! This is the one place in the package that needs `unsafe`: `GlobalAlloc` is an unsafe
//! trait, and std offers no safe way to observe allocations. The library itself is
//! `#![forbid(unsafe_code)]`; the binary denies unsafe code everywhere except here, and this
//! file only forwards to `System` and bumps two relaxed atomic counters.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

/// Forwards every request to the system allocator and counts allocations and bytes.
pub struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

/// Allocation calls (alloc, alloc_zeroed and realloc) and bytes requested since start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AllocCount {
    /// Calls that returned new or moved memory.
    pub allocations: u64,
    /// Bytes those calls asked for.
    pub bytes: u64,
}

/// The counts so far; subtract two snapshots to measure a stretch of code.
pub fn snapshot() -> AllocCount {
    AllocCount {
        allocations: ALLOCATIONS.load(Ordering::Relaxed),
        bytes: BYTES.load(Ordering::Relaxed),
    }
}

fn count(size: usize) {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    BYTES.fetch_add(size as u64, Ordering::Relaxed);
}

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counters have no effect on the memory returned.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        System.realloc(ptr, layout, new_size)
    }
}
