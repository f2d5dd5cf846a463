//! The `format` checkers (`toolgate::spec::format`): each format's name, phrase and kind;
//! exact tables of accepted and refused values per format, RFC corners included; the
//! JSON-Schema-Test-Suite's `optional/format` cases, when the suite has them; exhaustive
//! dates and times against a reference written here; IP addresses against `std::net`; and
//! random text, which never panics.
#![cfg(feature = "format")]

mod support;

use std::net::{Ipv4Addr, Ipv6Addr};
use support::corpus::json_schema_test_suite;
use support::rng::Rng;
use toolgate::json::{self, Kind, Number, Value};
use toolgate::spec::format::Format;

/// Asserts that `format` accepts (`"ok"`) or refuses (`"no"`) each string of `cases`.
fn check(format: Format, cases: &[(&str, &str)]) {
    for &(input, expect) in cases {
        let got = if format.accepts_str(input) {
            "ok"
        } else {
            "no"
        };
        assert_eq!(got, expect, "{format} {input:?}");
    }
}

/// As [`check`], for numbers written as JSON number text.
fn check_numbers(format: Format, cases: &[(&str, &str)]) {
    for &(text, expect) in cases {
        let number = Number::from_text(text).unwrap_or_else(|| panic!("not a number: {text}"));
        let got = if format.accepts_number(&number) {
            "ok"
        } else {
            "no"
        };
        assert_eq!(got, expect, "{format} {text}");
    }
}

/// What each format is called, says and applies to. The match is exhaustive, so a new
/// variant does not compile until it has a row here, and then fails the count below until
/// `Format::ALL` lists it.
fn expected(format: Format) -> (&'static str, &'static str, Kind) {
    match format {
        Format::DateTime => (
            "date-time",
            "an RFC 3339 date-time such as 2025-01-31T09:30:00Z",
            Kind::String,
        ),
        Format::Date => ("date", "an RFC 3339 date such as 2025-01-31", Kind::String),
        Format::Time => (
            "time",
            "an RFC 3339 time with an offset such as 09:30:00Z",
            Kind::String,
        ),
        Format::Duration => (
            "duration",
            "an ISO 8601 duration such as P1DT12H",
            Kind::String,
        ),
        Format::Email => (
            "email",
            "an email address such as ana@example.com",
            Kind::String,
        ),
        Format::Uri => (
            "uri",
            "an absolute URI such as https://example.com/orders?id=7",
            Kind::String,
        ),
        Format::Uuid => (
            "uuid",
            "a UUID such as 123e4567-e89b-12d3-a456-426614174000",
            Kind::String,
        ),
        Format::Ipv4 => ("ipv4", "an IPv4 address such as 192.0.2.1", Kind::String),
        Format::Ipv6 => ("ipv6", "an IPv6 address such as 2001:db8::1", Kind::String),
        Format::Hostname => (
            "hostname",
            "a host name such as api.example.com",
            Kind::String,
        ),
        Format::Int32 => (
            "int32",
            "an integer from -2147483648 to 2147483647",
            Kind::Number,
        ),
        Format::Int64 => (
            "int64",
            "an integer from -9223372036854775808 to 9223372036854775807",
            Kind::Number,
        ),
    }
}

#[test]
fn each_format_has_its_name_phrase_and_kind() {
    assert_eq!(
        Format::ALL.len(),
        12,
        "a format is missing from Format::ALL"
    );
    let mut names = Vec::new();
    for format in Format::ALL {
        let (name, phrase, kind) = expected(format);
        assert_eq!(format.name(), name);
        assert_eq!(format.to_string(), name);
        assert_eq!(Format::from_name(name), Some(format));
        assert_eq!(format.phrase(), phrase);
        assert_eq!(format.applies_to(), kind, "{name}");
        names.push(name);
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names.len(),
        Format::ALL.len(),
        "Format::ALL lists a format twice"
    );
}

#[test]
fn other_format_names_are_not_enforced() {
    for name in [
        "",
        "Date-Time",
        "DATE",
        "date-time ",
        "datetime",
        "idn-hostname",
        "iri",
        "iri-reference",
        "uri-reference",
        "uri-template",
        "json-pointer",
        "regex",
        "int16",
        "float",
        "double",
        "byte",
        "password",
        "unknown",
    ] {
        assert_eq!(Format::from_name(name), None, "{name:?}");
    }
}

#[test]
fn bounded_formats_accept_strings_up_to_their_max_len() {
    let email = format!(
        "{}@{}.{}.{}.{}",
        "a".repeat(64),
        "b".repeat(63),
        "c".repeat(63),
        "d".repeat(49),
        "e".repeat(11)
    );
    let hostname = format!(
        "{}.{}.{}.{}",
        "a".repeat(63),
        "b".repeat(63),
        "c".repeat(63),
        "d".repeat(61)
    );
    let longest = [
        (Format::Date, "2025-01-31"),
        (Format::Email, &email),
        (Format::Uuid, "123e4567-e89b-12d3-a456-426614174000"),
        (Format::Ipv4, "255.255.255.255"),
        (
            Format::Ipv6,
            "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255",
        ),
        (Format::Hostname, &hostname),
    ];
    for (format, text) in longest {
        assert!(format.accepts_str(text), "{format} {text}");
        assert_eq!(format.max_len(), Some(text.len()), "{format}");
    }
    let unbounded = [
        (
            Format::DateTime,
            format!("2025-01-31T09:30:00.{}Z", "5".repeat(300)),
        ),
        (Format::Time, format!("09:30:00.{}Z", "5".repeat(300))),
        (Format::Duration, format!("P{}D", "9".repeat(300))),
        (
            Format::Uri,
            format!("https://example.com/{}", "a".repeat(300)),
        ),
    ];
    for (format, text) in &unbounded {
        assert!(format.accepts_str(text), "{format} {text}");
        assert_eq!(format.max_len(), None, "{format}");
    }
    assert_eq!(Format::Int32.max_len(), None);
    assert_eq!(Format::Int64.max_len(), None);
}

#[test]
fn a_format_says_nothing_about_values_of_another_kind() {
    let number = Number::from_text("12").unwrap();
    for format in Format::ALL {
        match format.applies_to() {
            Kind::String => assert!(format.accepts_number(&number), "{format}"),
            _ => assert!(format.accepts_str("twelve"), "{format}"),
        }
    }
}

#[test]
fn date_time_is_rfc_3339_section_5_6() {
    check(
        Format::DateTime,
        &[
            ("2025-01-31T09:30:00Z", "ok"),
            ("1985-04-12T23:20:50.52Z", "ok"),
            ("1996-12-19T16:39:57-08:00", "ok"),
            ("1937-01-01T12:00:27.87+00:20", "ok"),
            ("2025-01-31t09:30:00z", "ok"),
            ("2025-01-31T09:30:00-00:00", "ok"),
            ("2024-02-29T00:00:00Z", "ok"),
            ("0000-01-01T00:00:00Z", "ok"),
            ("9999-12-31T23:59:59.999999999999Z", "ok"),
            // Leap seconds: only at 23:59:60 once moved to UTC.
            ("1990-12-31T23:59:60Z", "ok"),
            ("1990-12-31T15:59:60-08:00", "ok"),
            ("1991-01-01T00:29:60+00:30", "ok"),
            ("1990-12-31T23:59:60+01:00", "no"),
            ("1990-12-31T23:58:60Z", "no"),
            ("1990-12-31T23:59:61Z", "no"),
            // The grammar, byte by byte.
            ("2025-01-31 09:30:00Z", "no"),
            ("2025-01-31T09:30:00", "no"),
            ("2025-01-31T09:30Z", "no"),
            ("2025-01-31T9:30:00Z", "no"),
            ("2025-01-31T09:30:00.Z", "no"),
            ("2025-01-31T09:30:00,5Z", "no"),
            ("2025-01-31T09:30:00+0100", "no"),
            ("2025-01-31T09:30:00+01", "no"),
            ("2025-01-31T09:30:00+24:00", "no"),
            ("2025-01-31T09:30:00+01:60", "no"),
            ("2025-01-31T09:30:00Z+01:00", "no"),
            ("2025-01-31T09:30:00ZZ", "no"),
            ("2025-01-31T09:30:00Z ", "no"),
            ("2025-01-31T24:00:00Z", "no"),
            ("2025-01-31T09:60:00Z", "no"),
            ("2023-02-29T00:00:00Z", "no"),
            ("2025-13-01T00:00:00Z", "no"),
            ("+2025-01-31T09:30:00Z", "no"),
            ("2025-01-31", "no"),
            ("T09:30:00Z", "no"),
            ("２025-01-31T09:30:00Z", "no"),
            ("", "no"),
        ],
    );
}

#[test]
fn date_is_rfc_3339_full_date() {
    check(
        Format::Date,
        &[
            ("2025-01-31", "ok"),
            ("2024-02-29", "ok"),
            ("2000-02-29", "ok"),
            ("1900-02-28", "ok"),
            ("0000-02-29", "ok"),
            ("1582-10-10", "ok"),
            ("9999-12-31", "ok"),
            ("1900-02-29", "no"),
            ("2023-02-29", "no"),
            ("2025-04-31", "no"),
            ("2025-00-10", "no"),
            ("2025-01-00", "no"),
            ("2025-01-32", "no"),
            ("2025-1-01", "no"),
            ("25-01-01", "no"),
            ("12025-01-01", "no"),
            ("2025/01/31", "no"),
            ("20250131", "no"),
            ("2025-W05", "no"),
            ("2025-031", "no"),
            ("2025-01-31T00:00:00Z", "no"),
            ("2025-01-31 ", "no"),
            ("", "no"),
        ],
    );
}

#[test]
fn time_is_rfc_3339_full_time_with_its_offset() {
    check(
        Format::Time,
        &[
            ("09:30:00Z", "ok"),
            ("09:30:00z", "ok"),
            ("23:20:50.52Z", "ok"),
            ("09:30:00+05:30", "ok"),
            ("09:30:00-00:00", "ok"),
            ("23:59:60Z", "ok"),
            ("15:59:60-08:00", "ok"),
            ("00:29:60-23:30", "ok"),
            ("09:30:00", "no"),
            ("09:30Z", "no"),
            ("9:30:00Z", "no"),
            ("09:30:00 Z", "no"),
            ("24:00:00Z", "no"),
            ("09:60:00Z", "no"),
            ("09:30:61Z", "no"),
            ("09:30:60Z", "no"),
            ("23:59:60+01:00", "no"),
            ("09:30:00+5:30", "no"),
            ("09:30:00+05:30Z", "no"),
            ("09:30:00UTC", "no"),
            ("T09:30:00Z", "no"),
            ("", "no"),
        ],
    );
}

#[test]
fn duration_is_rfc_3339_appendix_a() {
    check(
        Format::Duration,
        &[
            ("P1DT12H", "ok"),
            ("P3Y6M4DT12H30M5S", "ok"),
            ("P2W", "ok"),
            ("PT36H", "ok"),
            ("P1M", "ok"),
            ("PT1M", "ok"),
            ("PT0S", "ok"),
            ("P0D", "ok"),
            ("P1Y2M", "ok"),
            ("P1M2D", "ok"),
            ("PT1H2M", "ok"),
            ("PT1M2S", "ok"),
            ("P0001D", "ok"),
            ("P99999999999999999999999D", "ok"),
            // ABNF strings are case-insensitive (RFC 5234 section 2.3).
            ("p1dt2h", "ok"),
            ("P", "no"),
            ("PT", "no"),
            ("P1YT", "no"),
            ("P1DT", "no"),
            ("PT1D", "no"),
            ("P1H", "no"),
            ("P1D2H", "no"),
            ("P1Y2D", "no"),
            ("PT1H2S", "no"),
            ("P2D1Y", "no"),
            ("PT1S2M", "no"),
            ("P1Y1Y", "no"),
            ("P1Y2DT1H", "no"),
            ("P1W1D", "no"),
            ("P1Y1W", "no"),
            ("P1WT1H", "no"),
            ("P1.5D", "no"),
            ("PT0.5S", "no"),
            ("PT0,5S", "no"),
            ("P-1D", "no"),
            ("-P1D", "no"),
            ("1D", "no"),
            ("P1", "no"),
            ("PD", "no"),
            ("P1D ", "no"),
            ("", "no"),
        ],
    );
}

#[test]
fn email_is_an_rfc_5321_mailbox() {
    let local_64 = format!("{}@example.com", "a".repeat(64));
    let local_65 = format!("{}@example.com", "a".repeat(65));
    // The longest address: 254 characters, here with a one-character local part.
    let domain_252 = [
        &*"a".repeat(63),
        &"b".repeat(63),
        &"c".repeat(63),
        &"d".repeat(60),
    ]
    .join(".");
    let longest = format!("a@{domain_252}");
    let too_long = format!("a@{domain_252}e");
    assert_eq!((longest.len(), too_long.len()), (254, 255));
    check(
        Format::Email,
        &[
            ("ana@example.com", "ok"),
            ("joe.bloggs@example.com", "ok"),
            ("a+tag@sub.example.co.uk", "ok"),
            ("!#$%&'*+-/=?^_`{|}~@example.com", "ok"),
            ("ana@localhost", "ok"),
            ("\"joe bloggs\"@example.com", "ok"),
            ("\"joe..bloggs\"@example.com", "ok"),
            ("\"joe@bloggs\"@example.com", "ok"),
            ("\"joe\\\"q\"@example.com", "ok"),
            ("\"\"@example.com", "ok"),
            ("ana@[127.0.0.1]", "ok"),
            ("ana@[127.000.0.1]", "ok"),
            ("ana@[IPv6:::1]", "ok"),
            ("ana@[ipv6:2001:db8::1]", "ok"),
            ("ana@[IPv6:1:2:3:4:5:6::]", "ok"),
            ("ana@xn--mnchen-3ya.de", "ok"),
            (&local_64, "ok"),
            (&local_65, "no"),
            (&longest, "ok"),
            (&too_long, "no"),
            ("2962", "no"),
            ("ana", "no"),
            ("@example.com", "no"),
            ("ana@", "no"),
            (".ana@example.com", "no"),
            ("ana.@example.com", "no"),
            ("a..b@example.com", "no"),
            ("ana@example..com", "no"),
            ("ana@-example.com", "no"),
            ("ana@example.com.", "no"),
            ("ana@exa_mple.com", "no"),
            ("ana@example.com\n", "no"),
            ("ana @example.com", "no"),
            ("a@b@example.com", "no"),
            ("Ana <ana@example.com>", "no"),
            ("ana@example.com, bo@example.com", "no"),
            ("\"unterminated@example.com", "no"),
            ("\"tab\there\"@example.com", "no"),
            ("ana@[127.0.0.256]", "no"),
            ("ana@[127.0.0.1", "no"),
            ("ana@[1:2::3]", "no"),
            // RFC 5321: `::` stands for at least two groups.
            ("ana@[IPv6:1:2:3:4:5:6:7::]", "no"),
            ("ana@[x-tag:content]", "no"),
            ("ana@xn--ls8h.com", "ok"),
        ],
    );
}

/// RFC 6531 (SMTPUTF8): `email` takes internationalized addresses too, as the module
/// documents, and `idn-email` names the same check.
#[test]
fn email_takes_rfc_6531_addresses_and_idn_email_is_the_same_check() {
    assert_eq!(Format::from_name("idn-email"), Some(Format::Email));
    assert_eq!(Format::Email.name(), "email");
    // A U-label of 59 characters fits an A-label of 63 octets; one of 60 cannot.
    let label_59 = format!("ä{}", "b".repeat(58));
    let label_60 = format!("ä{}", "b".repeat(59));
    let (at_59, at_60) = (format!("ana@{label_59}.de"), format!("ana@{label_60}.de"));
    // 64 octets of local part: 32 two-byte characters; 33 are 66 octets.
    let (local_64, local_66) = (
        format!("{}@example.com", "ü".repeat(32)),
        format!("{}@example.com", "ü".repeat(33)),
    );
    check(
        Format::Email,
        &[
            ("jürgen@exämple.de", "ok"),
            ("ana@exämple.com", "ok"),
            ("änä@example.com", "ok"),
            ("用户@例子.广告", "ok"),
            ("чебурашка@ящик-с-апельсинами.рф", "ok"),
            ("δοκιμή@παράδειγμα.δοκιμή", "ok"),
            ("\"jür gen\"@example.de", "ok"),
            ("ana@xn--mnchen-3ya.de", "ok"),
            ("ana@münchen-3.de", "ok"),
            ("ana😀@example.com", "ok"),
            (&at_59, "ok"),
            (&at_60, "no"),
            (&local_64, "ok"),
            (&local_66, "no"),
            // A U-label is letters, digits and hyphens of any script, not at either end.
            ("ana@exämple-.de", "no"),
            ("ana@-exämple.de", "no"),
            ("ana@ex😀mple.de", "no"),
            ("ana@exä_mple.de", "no"),
            ("ana@exä mple.de", "no"),
            ("ana@exämple..de", "no"),
            ("ana@.exämple.de", "no"),
            ("jürgen at exämple dot de", "no"),
            ("jür..gen@exämple.de", "no"),
            ("Jürgen <jürgen@exämple.de>", "no"),
        ],
    );
}

#[test]
fn uri_is_an_rfc_3986_uri_with_a_scheme() {
    check(
        Format::Uri,
        &[
            ("https://example.com/orders?id=7", "ok"),
            ("http://foo.bar/?baz=qux#quux", "ok"),
            (
                "http://user:pa%20ss@example.com:8080/a/b;c?d=e&f#g/h?i",
                "ok",
            ),
            ("http://example.com:/", "ok"),
            ("http://example.com", "ok"),
            ("http://[2001:db8::1]:8080/", "ok"),
            ("http://[::ffff:192.0.2.1]/", "ok"),
            ("http://[v1.fe80::a+en1]/", "ok"),
            ("http://999.999.999.999/", "ok"),
            ("http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", "ok"),
            ("file:///etc/hosts", "ok"),
            ("mailto:ana@example.com", "ok"),
            ("urn:isbn:0451450523", "ok"),
            ("tel:+1-816-555-1212", "ok"),
            ("news:comp.infosystems.www.servers.unix", "ok"),
            ("a+b-c.d:", "ok"),
            ("x:/path", "ok"),
            ("/orders", "no"),
            ("//example.com/orders", "no"),
            ("orders/7", "no"),
            ("example.com", "no"),
            ("", "no"),
            (":foo", "no"),
            ("1http://example.com", "no"),
            ("ht_tp://example.com", "no"),
            ("bar,baz:foo", "no"),
            ("http://exa mple.com", "no"),
            ("http://example.com/a b", "no"),
            ("http://example.com/ü", "no"),
            ("http://example.com/%zz", "no"),
            ("http://example.com/%4", "no"),
            ("http://example.com/%", "no"),
            ("http://example.com/a\\b", "no"),
            ("http://example.com/<>", "no"),
            ("http://example.com/{}", "no"),
            ("http://example.com/#a#b", "no"),
            ("http://a@b@c/", "no"),
            ("http://[::1/", "no"),
            ("http://[::1]x/", "no"),
            ("http://[1.2.3.4]/", "no"),
            ("http://[fe80::1%25eth0]/", "no"),
            ("http://[::ffff:01.2.3.4]/", "no"),
            ("http://[v1.]/", "no"),
            ("http://example.com:80a/", "no"),
            ("http:/[::1]", "no"),
            ("https://[@example.org/test.txt", "no"),
            ("\\\\server\\share", "no"),
        ],
    );
}

#[test]
fn uuid_is_rfc_4122_hyphenated_hex() {
    check(
        Format::Uuid,
        &[
            ("123e4567-e89b-12d3-a456-426614174000", "ok"),
            ("123E4567-E89B-12D3-A456-426614174000", "ok"),
            ("123e4567-E89B-12d3-A456-426614174000", "ok"),
            ("00000000-0000-0000-0000-000000000000", "ok"),
            ("ffffffff-ffff-ffff-ffff-ffffffffffff", "ok"),
            ("123e4567e89b12d3a456426614174000", "no"),
            ("{123e4567-e89b-12d3-a456-426614174000}", "no"),
            ("urn:uuid:123e4567-e89b-12d3-a456-426614174000", "no"),
            ("123e4567-e89b-12d3-a456-42661417400", "no"),
            ("123e4567-e89b-12d3-a456-4266141740000", "no"),
            ("123e456-7e89b-12d3-a456-426614174000", "no"),
            ("123e4567-e89b-12d3-a456-426614174000-", "no"),
            ("123e4567-e89b-12d3-g456-426614174000", "no"),
            ("123e4567-e89b-12d3-a456-426614174000\n", "no"),
            ("", "no"),
        ],
    );
}

#[test]
fn ipv4_is_a_dotted_quad_without_leading_zeros() {
    check(
        Format::Ipv4,
        &[
            ("192.0.2.1", "ok"),
            ("0.0.0.0", "ok"),
            ("255.255.255.255", "ok"),
            ("10.20.30.40", "ok"),
            ("256.0.0.1", "no"),
            ("01.2.3.4", "no"),
            ("1.2.3.04", "no"),
            ("1.2.3.004", "no"),
            ("1.2.3.1000", "no"),
            ("1.2.3", "no"),
            ("127.1", "no"),
            ("1.2.3.4.5", "no"),
            ("1.2.3.4.", "no"),
            (".1.2.3.4", "no"),
            ("1..3.4", "no"),
            ("0x7f.0.0.1", "no"),
            ("2130706433", "no"),
            ("1.2.3.4/24", "no"),
            ("1.2.3.4:80", "no"),
            (" 1.2.3.4", "no"),
            ("+1.2.3.4", "no"),
            ("1.2.3.-4", "no"),
            ("１.2.3.4", "no"),
            ("", "no"),
        ],
    );
}

#[test]
fn ipv6_is_rfc_4291_section_2_2() {
    check(
        Format::Ipv6,
        &[
            ("::", "ok"),
            ("::1", "ok"),
            ("2001:db8::1", "ok"),
            ("2001:0db8:0000:0000:0000:ff00:0042:8329", "ok"),
            ("1:2:3:4:5:6:7:8", "ok"),
            ("1:2:3:4:5:6:7::", "ok"),
            ("::2:3:4:5:6:7:8", "ok"),
            ("1::8", "ok"),
            ("FE80::1", "ok"),
            ("::ffff:192.0.2.1", "ok"),
            ("1:2:3:4:5:6:1.2.3.4", "ok"),
            ("1::1.2.3.4", "ok"),
            ("::1.2.3.4", "ok"),
            ("1:2:3:4:5:6:7:8:9", "no"),
            ("1:2:3:4:5:6:7", "no"),
            ("1:2:3:4:5:6:7::8", "no"),
            ("1::2::3", "no"),
            ("1:::2", "no"),
            (":1:2:3:4:5:6:7", "no"),
            ("1:2:3:4:5:6:7:", "no"),
            ("12345::", "no"),
            ("::g", "no"),
            ("fe80::1%eth0", "no"),
            ("fe80::/64", "no"),
            ("[::1]", "no"),
            ("1.2.3.4", "no"),
            ("::1.2.3", "no"),
            ("::1.2.3.04", "no"),
            ("1:2:3:4:5:6:7:1.2.3.4", "no"),
            ("1.2.3.4::", "no"),
            ("::1.2.3.4:5", "no"),
            (" ::1", "no"),
            (":", "no"),
            ("", "no"),
        ],
    );
}

#[test]
fn hostname_is_rfc_1123_with_a_labels_held_to_ldh() {
    let label_63 = "a".repeat(63);
    let label_64 = "a".repeat(64);
    let name_253 = [
        &*"a".repeat(63),
        &"b".repeat(63),
        &"c".repeat(63),
        &"d".repeat(61),
    ]
    .join(".");
    let name_254 = format!("{name_253}e");
    assert_eq!((name_253.len(), name_254.len()), (253, 254));
    check(
        Format::Hostname,
        &[
            ("api.example.com", "ok"),
            ("localhost", "ok"),
            ("1host", "ok"),
            ("a--b.com", "ok"),
            ("A-0.EXAMPLE.COM", "ok"),
            (&label_63, "ok"),
            (&name_253, "ok"),
            (&label_64, "no"),
            (&name_254, "no"),
            ("", "no"),
            (".", "no"),
            // The suite over RFC 1034: no trailing dot.
            ("example.com.", "no"),
            (".example.com", "no"),
            ("a..b", "no"),
            ("-a.com", "no"),
            ("a-.com", "no"),
            ("a_b.com", "no"),
            ("exa mple.com", "no"),
            ("example.com\n", "no"),
            ("münchen.de", "no"),
            // A-labels are held to the LDH rule only (see hostname.rs): their Punycode is
            // not decoded.
            ("xn--mnchen-3ya.de", "ok"),
            ("XN--MNCHEN-3YA.de", "ok"),
            ("xn--9n2bp8q.xn--9t4b11yi5a", "ok"),
            ("xn--X", "ok"),
            ("xn--abc-", "no"),
            ("xn--", "no"),
            ("xn--ab_c", "no"),
        ],
    );
}

#[test]
fn int32_and_int64_decide_from_the_number_text_exactly() {
    check_numbers(
        Format::Int32,
        &[
            ("0", "ok"),
            ("-0", "ok"),
            ("2147483647", "ok"),
            ("-2147483648", "ok"),
            ("2147483648", "no"),
            ("-2147483649", "no"),
            ("1e2", "ok"),
            ("1.0", "ok"),
            ("0.0", "ok"),
            ("2147483647.0", "ok"),
            ("21474836.47e2", "ok"),
            ("21474836.48e2", "no"),
            ("1e9", "ok"),
            ("1e10", "no"),
            ("1.5", "no"),
            ("2147483646.5", "no"),
            ("1e-1", "no"),
            ("1e999999999999", "no"),
        ],
    );
    check_numbers(
        Format::Int64,
        &[
            ("9223372036854775807", "ok"),
            ("-9223372036854775808", "ok"),
            ("9223372036854775808", "no"),
            ("-9223372036854775809", "no"),
            ("9223372036854775807.0", "ok"),
            ("9.223372036854775807e18", "ok"),
            ("9.223372036854775808e18", "no"),
            ("1e18", "ok"),
            ("1e19", "no"),
            ("2147483648", "ok"),
            ("0.5", "no"),
            ("-1e-999999999999", "no"),
        ],
    );
}

/// Every case of the suite's `optional/format/{name}.json` for the formats toolgate
/// enforces (the schema of each is `{"format": name}`) agrees with the checker: a string
/// for a string format, a number for a number format, and anything else valid.
#[test]
fn format_suite_cases_agree() {
    let Some(dir) = json_schema_test_suite() else {
        return;
    };
    let format_dir = dir.join("optional").join("format");
    if !format_dir.is_dir() {
        // The suite calls this folder optional, and a copy may leave it out (the shared
        // one does, and says so in its README); the rest of the suite still runs.
        println!(
            "skipped: format suite: {} absent (a copy of the suite without optional/)",
            format_dir.display()
        );
        return;
    }
    let mut counts = Vec::new();
    let mut failures = Vec::new();
    for format in Format::ALL {
        let file = format!("{}.json", format.name());
        if format.applies_to() == Kind::Number {
            // `int32` and `int64` are OpenAPI's; the suite has no file for them.
            assert!(!format_dir.join(&file).exists(), "{file} exists: run it");
            continue;
        }
        let text = support::corpus::read(&format_dir, &file);
        let document = json::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let groups = document
            .as_array()
            .unwrap_or_else(|| panic!("{file}: not an array"));
        let mut n_cases = 0;
        for group in groups {
            let schema_format = group.get("schema").and_then(|s| s.get("format"));
            assert_eq!(
                schema_format.and_then(Value::as_str),
                Some(format.name()),
                "{file}"
            );
            let tests = group.get("tests").and_then(Value::as_array).unwrap_or(&[]);
            for test in tests {
                let data = test
                    .get("data")
                    .unwrap_or_else(|| panic!("{file}: no data"));
                let valid = test.get("valid").and_then(Value::as_bool);
                let got = match data {
                    Value::String(text) => format.accepts_str(text),
                    Value::Number(number) => format.accepts_number(number),
                    _ => true,
                };
                if Some(got) != valid {
                    let description = test.get("description").and_then(Value::as_str);
                    failures.push(format!(
                        "{file}: {data} should be {}: {}",
                        if got { "refused" } else { "accepted" },
                        description.unwrap_or("?")
                    ));
                }
                n_cases += 1;
            }
        }
        assert!(n_cases > 0, "{file} has no cases");
        counts.push((format.name(), n_cases));
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    let each: Vec<String> = counts
        .iter()
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
    println!(
        "format suite: {total} cases agree across {} formats ({})",
        counts.len(),
        each.join(", ")
    );
}

/// Days in a month, written as a lookup rather than a rule: the leap years are the ones
/// where 29 February exists in the proleptic Gregorian calendar.
fn reference_days(year: u32, month: u32) -> u32 {
    const DAYS: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let leap = match (year % 4, year % 100, year % 400) {
        (_, _, 0) => true,
        (_, 0, _) => false,
        (0, _, _) => true,
        _ => false,
    };
    match month {
        2 if leap => 29,
        1..=12 => DAYS[month as usize - 1],
        _ => 0,
    }
}

#[test]
fn every_day_of_sample_years_against_a_reference() {
    for year in [
        0, 1, 4, 100, 200, 400, 1582, 1900, 1970, 2000, 2023, 2024, 2100, 9999,
    ] {
        for month in 0..=13 {
            for day in 0..=32 {
                let date = format!("{year:04}-{month:02}-{day:02}");
                let valid = 1 <= day && day <= reference_days(year, month);
                assert_eq!(Format::Date.accepts_str(&date), valid, "{date}");
                let date_time = format!("{date}T12:00:00Z");
                assert_eq!(
                    Format::DateTime.accepts_str(&date_time),
                    valid,
                    "{date_time}"
                );
            }
        }
    }
}

#[test]
fn every_time_of_day_against_a_reference() {
    // (offset text, minutes east of UTC)
    let offsets = [
        ("Z", 0),
        ("+00:00", 0),
        ("+01:30", 90),
        ("-08:00", -480),
        ("-23:59", -1439),
    ];
    for hour in 0..=24i32 {
        for minute in 0..=60 {
            for second in 0..=61 {
                for (offset, east) in offsets {
                    let time = format!("{hour:02}:{minute:02}:{second:02}{offset}");
                    let utc = (hour * 60 + minute - east).rem_euclid(1440);
                    let valid = hour <= 23
                        && minute <= 59
                        && (second <= 59 || (second == 60 && utc == 23 * 60 + 59));
                    assert_eq!(Format::Time.accepts_str(&time), valid, "{time}");
                }
            }
        }
    }
}

/// Random text over `alphabet`, up to `max_len` characters.
fn random_text(rng: &mut Rng, alphabet: &[char], max_len: usize) -> String {
    let len = rng.below(max_len + 1);
    (0..len).map(|_| *rng.pick(alphabet)).collect()
}

/// Text shaped like an IPv4 address: 3 to 5 parts, each usually a number 0 to 300,
/// sometimes with a leading zero, empty or a letter.
fn random_ipv4(rng: &mut Rng) -> String {
    let n_parts = *rng.pick(&[4, 4, 4, 3, 5]);
    let parts: Vec<String> = (0..n_parts)
        .map(|_| match rng.below(12) {
            0 => format!("0{}", rng.below(100)),
            1 => String::new(),
            2 => "a".to_string(),
            _ => rng.below(300).to_string(),
        })
        .collect();
    parts.join(".")
}

/// Text shaped like an IPv6 address: groups of 0 to 5 hex digits on each side of an
/// optional `::`, sometimes ending in an IPv4-like part.
fn random_ipv6(rng: &mut Rng) -> String {
    let hex: Vec<char> = "0123456789abcdefABCDEF".chars().collect();
    let group = |rng: &mut Rng| -> String {
        let len = *rng.pick(&[1, 1, 2, 3, 4, 4, 0, 5]);
        (0..len).map(|_| *rng.pick(&hex)).collect()
    };
    let gap = rng.chance(2, 3);
    let n_head = if gap { rng.below(8) } else { rng.range(6, 9) };
    let n_tail = if gap { rng.below(8) } else { 0 };
    let head: Vec<String> = (0..n_head).map(|_| group(rng)).collect();
    let mut tail: Vec<String> = (0..n_tail).map(|_| group(rng)).collect();
    let mut text = head.join(":");
    if gap {
        text.push_str("::");
    }
    if rng.chance(1, 4) {
        tail.push(random_ipv4(rng));
    }
    if !gap && !tail.is_empty() {
        text.push(':');
    }
    text.push_str(&tail.join(":"));
    text
}

#[test]
fn ip_addresses_agree_with_std_net() {
    let mut rng = Rng::from_env();
    let (mut n_v4, mut n_v6, mut n_cases) = (0, 0, 0);
    for _ in 0..Rng::iters(100_000) {
        let text = random_ipv4(&mut rng);
        let std_ok = text.parse::<Ipv4Addr>().is_ok();
        assert_eq!(
            Format::Ipv4.accepts_str(&text),
            std_ok,
            "ipv4 {text:?} (seed {})",
            rng.seed()
        );
        n_v4 += usize::from(std_ok);
        let text = random_ipv6(&mut rng);
        let std_ok = text.parse::<Ipv6Addr>().is_ok();
        assert_eq!(
            Format::Ipv6.accepts_str(&text),
            std_ok,
            "ipv6 {text:?} (seed {})",
            rng.seed()
        );
        n_v6 += usize::from(std_ok);
        n_cases += 1;
    }
    println!("valid: ipv4 {n_v4}, ipv6 {n_v6} of {n_cases}");
    // Both verdicts came up often, so the agreement covers both.
    for (name, n) in [("ipv4", n_v4), ("ipv6", n_v6)] {
        assert!(
            n_cases / 20 < n && n < n_cases,
            "{name}: {n} of {n_cases} valid (seed {})",
            rng.seed()
        );
    }
}

/// Accepted examples of every string format, the seeds of the random edits below.
const EXAMPLES: [&str; 14] = [
    "2025-01-31T09:30:00.25+01:00",
    "2025-01-31",
    "23:59:60Z",
    "P1Y2M3DT4H5M6S",
    "\"joe bloggs\"@[IPv6:1:2::3.4.5.6]",
    "http://user:pw@[2001:db8::1]:80/a/%20b?q=1#f",
    "http://[v1.fe80::a+en1]/",
    "123e4567-e89b-12d3-a456-426614174000",
    "192.168.0.1",
    "1:2:3:4:5:6:192.168.0.1",
    "xn--mnchen-3ya.xn--9t4b11yi5a.com",
    "xn--ngba5hb2804a.xn--11b2ezcw70k",
    "xn--vek778f.xn--4dbc5h.xn--wva3je",
    "xn--ngba1o.xn--zca29lwxobi7a",
];

#[test]
fn examples_are_accepted_by_their_format() {
    let formats = [
        Format::DateTime,
        Format::Date,
        Format::Time,
        Format::Duration,
        Format::Email,
        Format::Uri,
        Format::Uri,
        Format::Uuid,
        Format::Ipv4,
        Format::Ipv6,
        Format::Hostname,
        Format::Hostname,
        Format::Hostname,
        Format::Hostname,
    ];
    for (format, example) in formats.into_iter().zip(EXAMPLES) {
        assert!(format.accepts_str(example), "{format} {example}");
    }
}

#[test]
fn random_text_never_panics() {
    let mut rng = Rng::from_env();
    let alphabet: Vec<char> =
        "0123456789abcdefxnXNPTWYMDHSZz:.-+@[]%/?#\"\\ v\u{0}\u{7f}é·\u{200C}\u{30FB}😀"
            .chars()
            .collect();
    let ldh: Vec<char> = "abcdefghijklmnopqrstuvwxyz0123456789-".chars().collect();
    let mut n_accepted = 0usize;
    for _ in 0..Rng::iters(100_000) {
        let text = if rng.chance(1, 3) {
            random_text(&mut rng, &alphabet, 40)
        } else if rng.chance(1, 2) {
            // An A-label candidate.
            format!("xn--{}", random_text(&mut rng, &ldh, 59))
        } else {
            // An example with a few characters replaced, inserted or removed.
            let mut chars: Vec<char> = rng.pick(&EXAMPLES).chars().collect();
            for _ in 0..rng.range(1, 3) {
                let at = rng.below(chars.len() + 1);
                match rng.below(3) {
                    0 if at < chars.len() => chars[at] = *rng.pick(&alphabet),
                    1 => chars.insert(at, *rng.pick(&alphabet)),
                    _ if at < chars.len() => {
                        chars.remove(at);
                    }
                    _ => {}
                }
            }
            chars.into_iter().collect()
        };
        for format in Format::ALL {
            let accepted = format.accepts_str(&text);
            if let (true, Some(max_len)) = (accepted, format.max_len()) {
                assert!(
                    text.len() <= max_len,
                    "{format} {text:?} (seed {})",
                    rng.seed()
                );
            }
            n_accepted += usize::from(accepted);
        }
    }
    // Some edited examples stay valid; were none accepted, the edits would test nothing.
    assert!(n_accepted > 0, "seed {}", rng.seed());
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::from_env();
    for _ in 0..Rng::iters(50_000) {
        let bytes: Vec<u8> = (0..rng.below(80)).map(|_| rng.u8()).collect();
        let text = String::from_utf8_lossy(&bytes);
        for format in Format::ALL {
            format.accepts_str(&text);
        }
    }
}

#[test]
fn long_inputs_are_decided() {
    let digits = "9".repeat(1 << 20);
    assert!(Format::Duration.accepts_str(&format!("P{digits}D")));
    assert!(!Format::Duration.accepts_str(&format!("P{digits}")));
    let path = "a/".repeat(1 << 19);
    assert!(Format::Uri.accepts_str(&format!("https://example.com/{path}")));
    assert!(!Format::Uri.accepts_str(&format!("https://example.com/{path} ")));
    let labels = "a.".repeat(1 << 19);
    assert!(!Format::Hostname.accepts_str(&labels));
    assert!(!Format::Email.accepts_str(&format!("{labels}@example.com")));
    let colons = ":".repeat(1 << 20);
    assert!(!Format::Ipv6.accepts_str(&colons));
    let number = Number::from_text(format!("1{}", "0".repeat(1 << 20))).unwrap();
    assert!(!Format::Int64.accepts_number(&number));
}
