//! The JSON Schema `format` values toolgate enforces, each with its exact rule: [`Format`].
//!
//! Draft 2020-12 makes `format` an annotation by default, but a tool that declares
//! `"format": "date-time"` means it: its handler will parse the value as one, and a model
//! that sends `"next Tuesday"` should hear so at the gate, in a sentence it can act on, not
//! from a stack trace. So each format here is a precise grammar taken from its RFC, cited
//! where it is implemented, and checked without allocating, without panicking and in time
//! linear in the input, whatever the model sends:
//!
//! | name        | rule                                              | applies to |
//! |-------------|---------------------------------------------------|------------|
//! | `date-time` | RFC 3339 section 5.6 `date-time`                  | strings    |
//! | `date`      | RFC 3339 section 5.6 `full-date`                  | strings    |
//! | `time`      | RFC 3339 section 5.6 `full-time`                  | strings    |
//! | `duration`  | RFC 3339 Appendix A `duration` (ISO 8601)         | strings    |
//! | `email`     | RFC 5321 section 4.1.2 `Mailbox`, with RFC 6531's  | strings    |
//! |             | UTF-8 (also read for `idn-email`; see below)      |            |
//! | `uri`       | RFC 3986 section 3 `URI` (a scheme is required)   | strings    |
//! | `uuid`      | RFC 4122 section 3, hyphenated                    | strings    |
//! | `ipv4`      | RFC 3986 section 3.2.2 `IPv4address`              | strings    |
//! | `ipv6`      | RFC 4291 section 2.2 (no zone id)                 | strings    |
//! | `hostname`  | RFC 1123 section 2.1, A-labels per RFC 5890-5892  | strings    |
//! | `int32`     | OpenAPI: an integer that fits 32 signed bits      | numbers    |
//! | `int64`     | OpenAPI: an integer that fits 64 signed bits      | numbers    |
//!
//! One departure from JSON Schema: its `email` is the ASCII address of RFC 5321, and the
//! internationalized one (`jürgen@exämple.de`, RFC 6531's SMTPUTF8) is `idn-email`. Here
//! `email` accepts both, and `idn-email` names the same check: mail systems deliver such
//! addresses, customers have them, and models write them, so a gate that refused them
//! would refuse real people. The local part may hold any non-ASCII character, and a domain
//! label with non-ASCII text is a U-label of letters and digits of any script and hyphens
//! (see the `email` module for the exact rule).
//!
//! Like every JSON Schema keyword, a format constrains only the values it applies to: an
//! `email` format says nothing about a number, and `int32` nothing about a string (the
//! `type` keyword is what refuses those). Where the JSON-Schema-Test-Suite's
//! `optional/format` cases and the RFC differ, the suite wins (it is what other validators
//! agree on, and what a schema author will have tested against), and the place says so.
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

    /// The format a schema's `"format"` value names, or `None` for a name toolgate does
    /// not enforce (`"uri-reference"`, `"float"`, a vendor's own). `"idn-email"` is
    /// [`Format::Email`], which accepts internationalized addresses (see the
    /// [module](self)). Names are case-sensitive, as in JSON Schema: `"Date-Time"` is not
    /// `"date-time"`.
    pub fn from_name(name: &str) -> Option<Format> {
        if name == "idn-email" {
            return Some(Format::Email);
        }
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// The keyword value, as a schema spells it (`"date-time"`, `"int32"`).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// What a value of this format is, as the rest of a sentence for a model after
    /// "must be": `an email address such as ana@example.com`. Each names the standard and
    /// gives one example, because a model fixes a value fastest by imitating one.
    pub fn phrase(self) -> &'static str {
        self.row().phrase
    }

    /// The kind of value the format constrains: [`Kind::String`] for the string formats,
    /// [`Kind::Number`] for `int32` and `int64`. A value of another kind passes.
    pub fn applies_to(self) -> Kind {
        match self.row().check {
            Check::Text(_) => Kind::String,
            Check::Number(_) => Kind::Number,
        }
    }

    /// The longest string, in bytes, this format accepts, or `None` if there is no limit
    /// (a fraction of a second, a duration or a URI can be as long as it likes; a number
    /// format accepts every string). A consumer that receives a string in pieces can keep
    /// the pieces of a bounded format in a buffer of this size, and refuse the string as
    /// soon as it grows past it.
    pub fn max_len(self) -> Option<usize> {
        self.row().max_len
    }

    /// True if `text` is a value of this format; always true for a number format
    /// (`int32`, `int64`), which says nothing about strings.
    pub fn accepts_str(self, text: &str) -> bool {
        match self.row().check {
            Check::Text(check) => check(text),
            Check::Number(_) => true,
        }
    }

    /// True if `number` is a value of this format, decided exactly from its text
    /// (`1e2` is the integer 100; `2147483648` is one past `int32`); always true for a
    /// string format, which says nothing about numbers.
    pub fn accepts_number(self, number: &Number<'_>) -> bool {
        match self.row().check {
            Check::Text(_) => true,
            Check::Number(check) => check(number),
        }
    }
}

impl From<Format> for String {
    /// The keyword value, so that a [`Format`] can be given wherever a format name is
    /// (`Type::string().format(Format::Email)`).
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

/// Everything toolgate knows about one format.
#[derive(Clone, Copy)]
struct Row {
    name: &'static str,
    phrase: &'static str,
    check: Check,
    max_len: Option<usize>,
}

/// A format's checker; its variant is the kind of value the format applies to, so the two
/// cannot disagree.
#[derive(Clone, Copy)]
enum Check {
    Text(fn(&str) -> bool),
    Number(fn(&Number<'_>) -> bool),
}

impl Format {
    /// The one place each format is defined: one match arm holds its name, its phrase and
    /// its checker, so adding a format is one variant and one arm, and the compiler refuses
    /// a variant without them. (A `const` array indexed by the variant would need a test to
    /// keep its order in step with the enum; the match needs none.)
    fn row(self) -> Row {
        match self {
            Format::DateTime => Row {
                name: "date-time",
                phrase: "an RFC 3339 date-time such as 2025-01-31T09:30:00Z",
                check: Check::Text(time::is_date_time),
                max_len: None,
            },
            Format::Date => Row {
                name: "date",
                phrase: "an RFC 3339 date such as 2025-01-31",
                check: Check::Text(time::is_date),
                max_len: Some(10),
            },
            Format::Time => Row {
                name: "time",
                phrase: "an RFC 3339 time with an offset such as 09:30:00Z",
                check: Check::Text(time::is_time),
                max_len: None,
            },
            Format::Duration => Row {
                name: "duration",
                phrase: "an ISO 8601 duration such as P1DT12H",
                check: Check::Text(time::is_duration),
                max_len: None,
            },
            Format::Email => Row {
                name: "email",
                phrase: "an email address such as ana@example.com",
                check: Check::Text(email::is_mailbox),
                max_len: Some(email::MAX_MAILBOX_LEN),
            },
            Format::Uri => Row {
                name: "uri",
                phrase: "an absolute URI such as https://example.com/orders?id=7",
                check: Check::Text(uri::is_uri),
                max_len: None,
            },
            Format::Uuid => Row {
                name: "uuid",
                phrase: "a UUID such as 123e4567-e89b-12d3-a456-426614174000",
                check: Check::Text(is_uuid),
                max_len: Some(36),
            },
            Format::Ipv4 => Row {
                name: "ipv4",
                phrase: "an IPv4 address such as 192.0.2.1",
                check: Check::Text(ip::is_ipv4),
                max_len: Some(15),
            },
            Format::Ipv6 => Row {
                name: "ipv6",
                phrase: "an IPv6 address such as 2001:db8::1",
                check: Check::Text(ip::is_ipv6),
                max_len: Some(ip::MAX_IPV6_LEN),
            },
            Format::Hostname => Row {
                name: "hostname",
                phrase: "a host name such as api.example.com",
                check: Check::Text(hostname::is_hostname),
                max_len: Some(hostname::MAX_NAME_LEN),
            },
            Format::Int32 => Row {
                name: "int32",
                phrase: "an integer from -2147483648 to 2147483647",
                check: Check::Number(is_int32),
                max_len: None,
            },
            Format::Int64 => Row {
                name: "int64",
                phrase: "an integer from -9223372036854775808 to 9223372036854775807",
                check: Check::Number(is_int64),
                max_len: None,
            },
        }
    }
}

/// RFC 4122 section 3: `8HEXDIG "-" 4HEXDIG "-" 4HEXDIG "-" 4HEXDIG "-" 12HEXDIG`, in
/// either case. The version and variant nibbles are not checked: the RFC's grammar does
/// not constrain them, later versions (RFC 9562's 6, 7 and 8) use new values, and the
/// suite accepts a variant nibble RFC 4122 leaves undefined.
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
