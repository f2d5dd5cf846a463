//! The `format` checkers allocate nothing, whether they accept or refuse: checked with a
//! counting global allocator, on the suite-like cases of every format.
//!
//! This file is its own test binary because a global allocator applies to a whole binary
//! (as in `spec_validate_alloc.rs`, whose allocator this copies): it needs `unsafe`, since
//! `GlobalAlloc` is an unsafe trait and std has no safe way to observe allocations. The
//! allocator only forwards to `System` and bumps a thread-local counter, so tests running
//! on other threads do not disturb the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use toolgate::json::Number;
use toolgate::spec::format::Format;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: during thread teardown the counter may already be gone.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counter (a const-initialised thread-local `Cell`, which
// itself never allocates) has no effect on the memory returned.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread while `f` runs.
fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// Checks `input` against every string format and asserts that none allocated; returns
/// how many accepted it.
fn check(input: &str) -> usize {
    let mut n_accepted = 0;
    let n = allocations_during(|| {
        for format in Format::ALL {
            n_accepted += usize::from(format.accepts_str(input));
        }
    });
    assert_eq!(n, 0, "{input:?}: {n} allocations");
    n_accepted
}

#[test]
fn string_formats_allocate_nothing() {
    let inputs = [
        "2025-01-31T09:30:00.25+01:00",
        "1998-12-31T23:59:60Z",
        "2025-02-30",
        "23:59:60+00:00",
        "P1Y2M3DT4H5M6S",
        "P1Y2D",
        "ana@example.com",
        "\"joe bloggs\"@[IPv6:::1]",
        "joe..bloggs@example.com",
        "https://user@[2001:db8::1]:8080/a%20b?q#f",
        "https://example.com/a b",
        "123e4567-e89b-12d3-a456-426614174000",
        "192.168.0.1",
        "::ffff:192.168.0.1",
        "1::2::3",
        "xn--mnchen-3ya.de",
        "xn--ngba5hb2804a.xn--11b2ezcw70k",
        "xn--vek778f.xn--4dbc5h.xn--wva3je.xn--ll-0ea",
        "xn--X",
        "xn--07jceefgh4c",
        "",
    ];
    let n_checks = inputs.len() * Format::ALL.len();
    let n_accepted: usize = inputs.into_iter().map(check).sum();
    // Both paths ran: accepting and refusing.
    assert!(
        0 < n_accepted && n_accepted < n_checks,
        "{n_accepted} of {n_checks}"
    );
}

#[test]
fn number_formats_allocate_nothing() {
    for text in [
        "7",
        "2147483648",
        "1e2",
        "9223372036854775808",
        "1.5",
        "-0.0e-5",
    ] {
        let number = Number::from_text(text).unwrap();
        let n = allocations_during(|| {
            for format in Format::ALL {
                format.accepts_number(&number);
            }
        });
        assert_eq!(n, 0, "{text}: {n} allocations");
    }
}
