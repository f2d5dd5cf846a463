//! Dates, times and durations: RFC 3339's `date-time`, `full-date`, `full-time` (section
//! 5.6) and `duration` (Appendix A), the grammars JSON Schema's `date-time`, `date`,
//! `time` and `duration` formats name.
//!
//! RFC 3339 is the profile of ISO 8601 that the internet uses: one spelling per instant
//! (`2025-01-31T09:30:00Z`), with no week dates, ordinal dates, basic format or offsets
//! without minutes. A handler can parse what passes here with any RFC 3339 library.
//!
//! The section 5.6 grammar (ABNF, RFC 5234):
//!
//! ```text
//! date-fullyear   = 4DIGIT
//! date-month      = 2DIGIT  ; 01-12
//! date-mday       = 2DIGIT  ; 01-28, 01-29, 01-30, 01-31 based on month/year
//! time-hour       = 2DIGIT  ; 00-23
//! time-minute     = 2DIGIT  ; 00-59
//! time-second     = 2DIGIT  ; 00-58, 00-59, 00-60 based on leap second rules
//! time-secfrac    = "." 1*DIGIT
//! time-numoffset  = ("+" / "-") time-hour ":" time-minute
//! time-offset     = "Z" / time-numoffset
//! partial-time    = time-hour ":" time-minute ":" time-second [time-secfrac]
//! full-date       = date-fullyear "-" date-month "-" date-mday
//! full-time       = partial-time time-offset
//! date-time       = full-date "T" full-time
//! ```
//!
//! `T` and `Z` may be lower case (the note under the grammar, and RFC 5234 section 2.3:
//! quoted ABNF strings are case-insensitive). The space RFC 3339 lets *applications* use
//! instead of `T` is not part of the grammar and is refused.

use super::scan::{push_digit, Scan};

/// RFC 3339 `date-time`: `full-date "T" full-time`.
pub(super) fn is_date_time(text: &str) -> bool {
    let mut scan = Scan::new(text);
    full_date(&mut scan) && scan.eat_ignore_case(b'T') && full_time(&mut scan) && scan.is_done()
}

/// RFC 3339 `full-date`: `YYYY-MM-DD`, a day that exists in the proleptic Gregorian
/// calendar (so `1582-10-10`, inside the Julian-to-Gregorian gap, is a date).
pub(super) fn is_date(text: &str) -> bool {
    let mut scan = Scan::new(text);
    full_date(&mut scan) && scan.is_done()
}

/// RFC 3339 `full-time`: `hh:mm:ss[.frac]` and an offset (`Z` or `±hh:mm`), which the
/// grammar requires: `12:00:00` alone names no instant.
pub(super) fn is_time(text: &str) -> bool {
    let mut scan = Scan::new(text);
    full_time(&mut scan) && scan.is_done()
}

/// RFC 3339 Appendix A `duration` (ISO 8601's, restricted to whole numbers):
///
/// ```text
/// dur-second  = 1*DIGIT "S"
/// dur-minute  = 1*DIGIT "M" [dur-second]
/// dur-hour    = 1*DIGIT "H" [dur-minute]
/// dur-time    = "T" (dur-hour / dur-minute / dur-second)
/// dur-day     = 1*DIGIT "D"
/// dur-week    = 1*DIGIT "W"
/// dur-month   = 1*DIGIT "M" [dur-day]
/// dur-year    = 1*DIGIT "Y" [dur-month]
/// dur-date    = (dur-day / dur-month / dur-year) [dur-time]
/// duration    = "P" (dur-date / dur-time / dur-week)
/// ```
///
/// So the units of each part appear in order and without gaps (`P1Y2M`, `PT1M2S`; not
/// `P1Y2D`, `PT1H2S`), a `T` needs a time unit after it, weeks stand alone, and there are
/// no fractions or signs. Letters may be lower case (RFC 5234 section 2.3). The number of
/// digits is not limited: `P99999999999999999999D` is in the grammar.
pub(super) fn is_duration(text: &str) -> bool {
    let mut scan = Scan::new(text);
    if !scan.eat_ignore_case(b'P') {
        return false;
    }
    // `dur-week`: digits and `W`, and nothing else.
    let mut week = scan;
    if week.eat_while(|b| b.is_ascii_digit()) > 0 && week.eat_ignore_case(b'W') {
        return week.is_done();
    }
    let Some(n_date_units) = units(&mut scan, b"YMD") else {
        return false;
    };
    if scan.eat_ignore_case(b'T') {
        let Some(n_time_units) = units(&mut scan, b"HMS") else {
            return false;
        };
        return n_time_units > 0 && scan.is_done();
    }
    n_date_units > 0 && scan.is_done()
}

/// Reads `number unit` pairs while digits come next, and returns how many it read, or
/// `None` if one breaks the grammar: a unit missing or not one of `designators`, or a unit
/// that does not come right after the previous one in `designators` (`dur-year` may only
/// be followed by `dur-month`, which may only be followed by `dur-day`).
fn units(scan: &mut Scan<'_>, designators: &[u8]) -> Option<usize> {
    let mut n_units: usize = 0;
    // The index in `designators` the next unit must have; any index for the first one.
    let mut next: Option<usize> = None;
    while scan.eat_while(|b| b.is_ascii_digit()) > 0 {
        let unit = scan.bump()?;
        let at = designators
            .iter()
            .position(|designator| designator.eq_ignore_ascii_case(&unit))?;
        if next.is_some_and(|next| next != at) {
            return None;
        }
        next = Some(at + 1);
        n_units = n_units.checked_add(1)?;
    }
    Some(n_units)
}

/// `full-date`, with the day checked against its month's length. Its width is fixed, so it
/// is matched as one pattern of ten bytes.
fn full_date(scan: &mut Scan<'_>) -> bool {
    let Some(&[y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1]) = scan.take(10) else {
        return false;
    };
    let number = |digits: &[u8]| digits.iter().try_fold(0, |value, &d| push_digit(value, d));
    let (Some(year), Some(month), Some(day)) = (
        number(&[y0, y1, y2, y3]),
        number(&[m0, m1]),
        number(&[d0, d1]),
    ) else {
        return false;
    };
    1 <= day && day <= days_in_month(year, month)
}

/// `full-time`, with the leap second rule.
fn full_time(scan: &mut Scan<'_>) -> bool {
    let Some((hour, minute, second)) = partial_time(scan) else {
        return false;
    };
    let Some(offset_minutes) = time_offset(scan) else {
        return false;
    };
    if second == 60 {
        // A leap second is inserted at the end of a UTC day (RFC 3339 section 5.7 and
        // Appendix D): second 60 exists only where the time, moved to UTC by its offset,
        // is 23:59. `15:59:60-08:00` is that moment in California; `23:59:60+01:00` is
        // not. (RFC 3339 allows 60 "based on leap second rules" without spelling them
        // out; this is the reading the suite's cases agree on. Which *dates* had a leap
        // second is a table of the past, not a grammar, and is not checked.)
        let local = i64::from(hour * 60 + minute);
        let utc = (local - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// `partial-time`: hour, minute and second (0 to 60, the leap second checked by the
/// caller); a fraction of any length is read and dropped.
fn partial_time(scan: &mut Scan<'_>) -> Option<(u32, u32, u32)> {
    let hour = scan.digits(2).filter(|&hour| hour <= 23)?;
    scan.eat(b':').then_some(())?;
    let minute = scan.digits(2).filter(|&minute| minute <= 59)?;
    scan.eat(b':').then_some(())?;
    let second = scan.digits(2).filter(|&second| second <= 60)?;
    if scan.eat(b'.') && scan.eat_while(|b| b.is_ascii_digit()) == 0 {
        return None;
    }
    Some((hour, minute, second))
}

/// `time-offset`, as signed minutes east of UTC (`Z` and `-00:00` are 0).
fn time_offset(scan: &mut Scan<'_>) -> Option<i64> {
    if scan.eat_ignore_case(b'Z') {
        return Some(0);
    }
    let sign = match scan.bump()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let hour = scan.digits(2).filter(|&hour| hour <= 23)?;
    scan.eat(b':').then_some(())?;
    let minute = scan.digits(2).filter(|&minute| minute <= 59)?;
    Some(sign * i64::from(hour * 60 + minute))
}

/// Days in `month` of `year` (RFC 3339 section 5.7 and Appendix C: Gregorian leap years),
/// or 0 for a month that is not 1 to 12.
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 0,
    }
}
