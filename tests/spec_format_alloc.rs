//! The `format` checkers allocate nothing, whether they accept or refuse: checked with a
//! counting global allocator, on the suite-like cases of every format.
//!
//! This file is its own test binary because a global allocator applies to a whole binary;
//! the allocator is the one in `support/alloc.rs`.
#![cfg(feature = "format")]

use toolgate::json::Number;
use toolgate::spec::format::Format;

#[path = "support/alloc.rs"]
mod alloc;
use alloc::{allocations_during, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

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
