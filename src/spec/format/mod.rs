//! The `format` values toolgate enforces: [`Format`]. Draft 2020-12 makes `format` an
//! annotation, but a tool that declares `"date-time"` means it, and a model that sends
//! `"next Tuesday"` should hear so at the gate. Each is a precise RFC grammar (cited where
//! implemented), checked without allocating in linear time; where the JSON-Schema-Test-Suite
//! and the RFC differ, the suite wins. One departure: `email` also accepts internationalized
//! addresses (`idn-email` names the same check), because real people have them.
//!
//! ```
//! use toolgate::spec::format::Format;
//!
//! let format = Format::from_name("date-time").unwrap();
//! assert!(format.accepts_str("2025-01-31T09:30:00Z"));
//! assert!(!format.accepts_str("next Tuesday"));
//! assert_eq!(format.phrase(), "an RFC 3339 date-time such as 2025-01-31T09:30:00Z");
//! ```

mod email;
mod hostname;
mod ip;
mod scan;
mod time;
mod uri;

use crate::json::{Kind, Number};
use std::fmt;

/// A `format` value toolgate enforces. Any other format name is an annotation only
/// ([`Format::from_name`] returns `None` for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `date-time`: RFC 3339 `date-time`, such as `2025-01-31T09:30:00Z`.
    DateTime,
    /// `date`: RFC 3339 `full-date`, such as `2025-01-31`.
    Date,
    /// `time`: RFC 3339 `full-time` (with its offset), such as `09:30:00Z`.
    Time,
    /// `duration`: RFC 3339 Appendix A (ISO 8601) `duration`, such as `P1DT12H`.
    Duration,
    /// `email` (and `idn-email`): RFC 5321 `Mailbox` with RFC 6531's UTF-8, such as
    /// `ana@example.com` or `jürgen@exämple.de`.
    Email,
    /// `uri`: RFC 3986 `URI`, such as `https://example.com/orders?id=7`.
    Uri,
    /// `uuid`: RFC 4122 hyphenated hex, such as `123e4567-e89b-12d3-a456-426614174000`.
    Uuid,
    /// `ipv4`: a dotted quad without leading zeros, such as `192.0.2.1`.
    Ipv4,
    /// `ipv6`: RFC 4291 text form, such as `2001:db8::1`.
    Ipv6,
    /// `hostname`: RFC 1123 host name, such as `api.example.com`.
    Hostname,
    /// `int32` (OpenAPI): an integer from -2147483648 to 2147483647.
    Int32,
    /// `int64` (OpenAPI): an integer from -9223372036854775808 to 9223372036854775807.
    Int64,
}

impl Format {
    /// Every format, in declaration order.
    pub const ALL: [Format; 12] = [
        Format::DateTime,
        Format::Date,
        Format::Time,
        Format::Duration,
        Format::Email,
        Format::Uri,
        Format::Uuid,
        Format::Ipv4,
        Format::Ipv6,
        Format::Hostname,
        Format::Int32,
        Format::Int64,
    ];

    /// The format a `"format"` value names (case-sensitive; `"idn-email"` is
    /// [`Format::Email`]), or `None` for one toolgate does not enforce.
    pub fn from_name(name: &str) -> Option<Format> {
        if name == "idn-email" {
            return Some(Format::Email);
        }
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// The keyword value, as a schema spells it (`"date-time"`, `"int32"`).
    pub fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Duration => "duration",
            Format::Email => "email",
            Format::Uri => "uri",
            Format::Uuid => "uuid",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Hostname => "hostname",
            Format::Int32 => "int32",
            Format::Int64 => "int64",
        }
    }

    /// What a value of this format is, after "must be": `an email address such as
    /// ana@example.com`. One example each: a model fixes a value fastest by imitating one.
    pub fn phrase(self) -> &'static str {
        match self {
            Format::DateTime => "an RFC 3339 date-time such as 2025-01-31T09:30:00Z",
            Format::Date => "an RFC 3339 date such as 2025-01-31",
            Format::Time => "an RFC 3339 time with an offset such as 09:30:00Z",
            Format::Duration => "an ISO 8601 duration such as P1DT12H",
            Format::Email => "an email address such as ana@example.com",
            Format::Uri => "an absolute URI such as https://example.com/orders?id=7",
            Format::Uuid => "a UUID such as 123e4567-e89b-12d3-a456-426614174000",
            Format::Ipv4 => "an IPv4 address such as 192.0.2.1",
            Format::Ipv6 => "an IPv6 address such as 2001:db8::1",
            Format::Hostname => "a host name such as api.example.com",
            Format::Int32 => "an integer from -2147483648 to 2147483647",
            Format::Int64 => "an integer from -9223372036854775808 to 9223372036854775807",
        }
    }

    /// The kind of value the format constrains: [`Kind::String`] for the string formats,
    /// [`Kind::Number`] for `int32` and `int64`. A value of another kind passes.
    pub fn applies_to(self) -> Kind {
        match self.check() {
            Check::Text(_) => Kind::String,
            Check::Number(_) => Kind::Number,
        }
    }

    /// The longest string, in bytes, this format accepts, or `None` for no limit: a
    /// streaming check refuses a string as soon as it grows past it.
    pub fn max_len(self) -> Option<usize> {
        match self {
            Format::Date => Some(10),
            Format::Email => Some(email::MAX_MAILBOX_LEN),
            Format::Uuid => Some(36),
            Format::Ipv4 => Some(15),
            Format::Ipv6 => Some(ip::MAX_IPV6_LEN),
            Format::Hostname => Some(hostname::MAX_NAME_LEN),
            _ => None,
        }
    }

    /// True if `text` is a value of this format; always true for a number format
    /// (`int32`, `int64`), which says nothing about strings.
    pub fn accepts_str(self, text: &str) -> bool {
        match self.check() {
            Check::Text(check) => check(text),
            Check::Number(_) => true,
        }
    }

    /// True if `number` is a value of this format, decided exactly from its text (`1e2` is
    /// 100); always true for a string format.
    pub fn accepts_number(self, number: &Number<'_>) -> bool {
        match self.check() {
            Check::Text(_) => true,
            Check::Number(check) => check(number),
        }
    }
}

impl From<Format> for String {
    /// The keyword value (`Type::string().format(Format::Email)`).
    fn from(format: Format) -> String {
        format.name().to_string()
    }
}

impl fmt::Display for Format {
    /// The keyword value (`date-time`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format's checker; its variant is the kind of value it applies to.
#[derive(Clone, Copy)]
enum Check {
    Text(fn(&str) -> bool),
    Number(fn(&Number<'_>) -> bool),
}

impl Format {
    /// The format's checker.
    fn check(self) -> Check {
        match self {
            Format::DateTime => Check::Text(time::is_date_time),
            Format::Date => Check::Text(time::is_date),
            Format::Time => Check::Text(time::is_time),
            Format::Duration => Check::Text(time::is_duration),
            Format::Email => Check::Text(email::is_mailbox),
            Format::Uri => Check::Text(uri::is_uri),
            Format::Uuid => Check::Text(is_uuid),
            Format::Ipv4 => Check::Text(ip::is_ipv4),
            Format::Ipv6 => Check::Text(ip::is_ipv6),
            Format::Hostname => Check::Text(hostname::is_hostname),
            Format::Int32 => Check::Number(is_int32),
            Format::Int64 => Check::Number(is_int64),
        }
    }
}

/// RFC 4122 section 3: hyphenated hex groups of 8-4-4-4-12, either case, any version and
/// variant (the grammar does not constrain them, and RFC 9562 added new ones).
fn is_uuid(text: &str) -> bool {
    const GROUPS: [usize; 5] = [8, 4, 4, 4, 12];
    let mut groups = text.split('-');
    let all_hex = GROUPS.iter().all(|&len| {
        groups
            .next()
            .is_some_and(|group| group.len() == len && group.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    all_hex && groups.next().is_none()
}

/// OpenAPI's `int32`: an integer (by value: `1.0` and `1e2` are) that fits `i32`.
fn is_int32(number: &Number<'_>) -> bool {
    number
        .as_i64()
        .is_some_and(|n| i64::from(i32::MIN) <= n && n <= i64::from(i32::MAX))
}

/// OpenAPI's `int64`: an integer (by value) that fits `i64`.
fn is_int64(number: &Number<'_>) -> bool {
    number.is_i64()
}
