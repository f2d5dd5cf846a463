//! Dates, times and durations: RFC 3339's `date-time`, `full-date`, `full-time` (section 5.6)
//! and `duration` (Appendix A), the profile of ISO 8601 the internet uses. `T` and `Z` may be
//! lower case (RFC 5234 section 2.3); the space applications may use for `T` is refused.

use super::scan::{push_digit, Scan};

/// RFC 3339 `date-time`: `full-date "T" full-time`.
pub(super) fn is_date_time(text: &str) -> bool {
    let mut scan = Scan::new(text);
    full_date(&mut scan) && scan.eat_ignore_case(b'T') && full_time(&mut scan) && scan.is_done()
}

/// RFC 3339 `full-date`: `YYYY-MM-DD` in the proleptic Gregorian calendar.
pub(super) fn is_date(text: &str) -> bool {
    let mut scan = Scan::new(text);
    full_date(&mut scan) && scan.is_done()
}

/// RFC 3339 `full-time`: `hh:mm:ss[.frac]` and a required offset (`Z` or `±hh:mm`).
pub(super) fn is_time(text: &str) -> bool {
    let mut scan = Scan::new(text);
    full_time(&mut scan) && scan.is_done()
}

/// RFC 3339 Appendix A `duration`: units in order without gaps (`P1Y2M`, `PT1M2S`; not
/// `P1Y2D`), a time unit after `T`, weeks alone, whole numbers of any length, no sign.
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

/// Reads `number unit` pairs, each unit the one after the last in `designators`; returns
/// how many, or `None` when one breaks the grammar.
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

/// `full-date`, the day checked against its month's length.
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

/// `full-time`, with the leap second rule: second 60 only where the time in UTC is 23:59
/// (the suite's reading; which dates had one is not checked).
fn full_time(scan: &mut Scan<'_>) -> bool {
    time_parts(scan).is_some_and(|(local, second, offset)| {
        second < 60 || (local - offset).rem_euclid(24 * 60) == 23 * 60 + 59
    })
}

/// `partial-time` and `time-offset`: the minute of the day, the second (0 to 60) and the
/// offset in minutes east of UTC; a fraction is read and dropped.
fn time_parts(scan: &mut Scan<'_>) -> Option<(i64, u32, i64)> {
    let local = hour_minute(scan)?;
    scan.eat(b':').then_some(())?;
    let second = scan.digits(2).filter(|&second| second <= 60)?;
    if scan.eat(b'.') && scan.eat_while(|b| b.is_ascii_digit()) == 0 {
        return None;
    }
    if scan.eat_ignore_case(b'Z') {
        return Some((local, second, 0));
    }
    let sign = match scan.bump()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    Some((local, second, sign * hour_minute(scan)?))
}

/// `hh:mm` as minutes of the day.
fn hour_minute(scan: &mut Scan<'_>) -> Option<i64> {
    let hour = scan.digits(2).filter(|&hour| hour <= 23)?;
    scan.eat(b':').then_some(())?;
    let minute = scan.digits(2).filter(|&minute| minute <= 59)?;
    Some(i64::from(hour * 60 + minute))
}

/// Days in `month` of `year` (Gregorian), or 0 for a month that is not 1 to 12.
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 0,
    }
}
