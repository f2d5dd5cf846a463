//! `format` enforced end to end: each of the twelve formats through `Gate::check_call` on
//! real call text, accepted and refused with the sentence the model reads; strings that
//! arrive escaped or in parts; the streaming check refusing a bounded format early; the off
//! switch (`without_format_assertions`); the importer (known and unknown names, the
//! lenient list); and the exports, which keep writing `format` and read back the same.
#![cfg(all(feature = "format", feature = "stream"))]

mod support;

use std::borrow::Cow;
use support::parts::accepts;
use toolgate::json::{self, Event};
use toolgate::spec::Provider;
use toolgate::spec::{export_tools, load_tools, load_tools_lenient, LoadError, Schema};
use toolgate::stream::Progress;
use toolgate::{Gate, RejectionKind, ToolSpec};

/// One tool with a field of each format, as a tools file declares them (Anthropic form),
/// and a field whose format name toolgate does not know.
const TOOLS: &str = r#"[{"name": "record", "description": "Records one value of each format.",
  "input_schema": {"type": "object", "additionalProperties": false, "properties": {
    "at": {"type": "string", "format": "date-time"},
    "due": {"type": "string", "format": "date"},
    "opens": {"type": "string", "format": "time"},
    "lasts": {"type": "string", "format": "duration"},
    "to": {"type": "string", "format": "email"},
    "cc": {"type": "string", "format": "idn-email"},
    "link": {"type": "string", "format": "uri"},
    "id": {"type": "string", "format": "uuid"},
    "v4": {"type": "string", "format": "ipv4"},
    "v6": {"type": "string", "format": "ipv6"},
    "host": {"type": "string", "format": "hostname"},
    "count": {"type": "integer", "format": "int32"},
    "total": {"type": "number", "format": "int64"},
    "note": {"type": "string", "format": "x-free-text"}}}}]"#;

fn gate() -> Gate {
    Gate::from_tools_json(TOOLS).unwrap_or_else(|e| panic!("{e}"))
}

/// The gate's answer to a plain call of `record` with `args`: `"ok"` or the rejection.
fn check(gate: &Gate, args: &str) -> String {
    let call = format!(r#"{{"name":"record","arguments":{args}}}"#);
    match gate.check_call(&call) {
        Ok(_) => "ok".to_owned(),
        Err(rejection) => rejection.to_string(),
    }
}

/// Per format: the field, a value it accepts, a value it refuses, and the sentence.
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "at",
        r#""2025-01-31T09:30:00+01:00""#,
        r#""2025-01-31 09:30""#,
        r#"record rejected: at must be an RFC 3339 date-time such as 2025-01-31T09:30:00Z; received "2025-01-31 09:30"."#,
    ),
    (
        "due",
        r#""2024-02-29""#,
        r#""next Tuesday""#,
        r#"record rejected: due must be an RFC 3339 date such as 2025-01-31; received "next Tuesday"."#,
    ),
    (
        "opens",
        r#""09:30:00Z""#,
        r#""9:30""#,
        r#"record rejected: opens must be an RFC 3339 time with an offset such as 09:30:00Z; received "9:30"."#,
    ),
    (
        "lasts",
        r#""P1DT12H""#,
        r#""36 hours""#,
        r#"record rejected: lasts must be an ISO 8601 duration such as P1DT12H; received "36 hours"."#,
    ),
    (
        "to",
        r#""jürgen@exämple.de""#,
        r#""bob at example dot com""#,
        r#"record rejected: to must be an email address such as ana@example.com; received "bob at example dot com"."#,
    ),
    (
        "cc",
        r#""用户@例子.广告""#,
        r#""Ana <ana@example.com>""#,
        r#"record rejected: cc must be an email address such as ana@example.com; received "Ana <ana@example.com>"."#,
    ),
    (
        "link",
        r#""https://example.com/orders?id=7""#,
        r#""example.com/orders""#,
        r#"record rejected: link must be an absolute URI such as https://example.com/orders?id=7; received "example.com/orders"."#,
    ),
    (
        "id",
        r#""123e4567-e89b-12d3-a456-426614174000""#,
        r#""123e4567e89b12d3a456426614174000""#,
        r#"record rejected: id must be a UUID such as 123e4567-e89b-12d3-a456-426614174000; received "123e4567e89b12d3a456426614174000"."#,
    ),
    (
        "v4",
        r#""192.0.2.1""#,
        r#""192.0.2.256""#,
        r#"record rejected: v4 must be an IPv4 address such as 192.0.2.1; received "192.0.2.256"."#,
    ),
    (
        "v6",
        r#""2001:db8::1""#,
        r#""2001:db8:::1""#,
        r#"record rejected: v6 must be an IPv6 address such as 2001:db8::1; received "2001:db8:::1"."#,
    ),
    (
        "host",
        r#""api.example.com""#,
        r#""api_example.com""#,
        r#"record rejected: host must be a host name such as api.example.com; received "api_example.com"."#,
    ),
    (
        "count",
        "-2147483648",
        "2147483648",
        "record rejected: count must be an integer from -2147483648 to 2147483647; received 2147483648.",
    ),
    (
        "total",
        "9223372036854775807",
        "1.5",
        "record rejected: total must be an integer from -9223372036854775808 to 9223372036854775807; received 1.5.",
    ),
];

#[test]
fn every_format_accepts_its_values_and_refuses_others_with_a_sentence_to_act_on() {
    let gate = gate();
    assert_eq!(
        CASES.len(),
        13,
        "one case per field; twelve formats and idn-email"
    );
    for &(field, good, bad, sentence) in CASES {
        assert_eq!(
            check(&gate, &format!(r#"{{"{field}":{good}}}"#)),
            "ok",
            "{field}"
        );
        assert_eq!(check(&gate, &format!(r#"{{"{field}":{bad}}}"#)), sentence);
        let call = format!(r#"{{"name":"record","arguments":{{"{field}":{bad}}}}}"#);
        match gate.check_call(&call) {
            Err(toolgate::Rejection::SchemaViolation { violation, .. }) => {
                assert_eq!(violation.rule().label(), "format");
                assert_eq!(violation.path(), field);
            }
            other => panic!("{field}: {other:?}"),
        }
    }
    // A format constrains only the kind it applies to; `type` refuses the others.
    assert_eq!(check(&gate, r#"{"note":"anything at all"}"#), "ok");
    assert_eq!(
        check(&gate, r#"{"due":20250131}"#),
        "record rejected: due must be a string; received 20250131."
    );
}

#[test]
fn length_rules_come_before_the_format_of_the_same_string() {
    // The format comes after the length rules of the same string, as documented.
    let gate = Gate::from_tools_json(
        r#"[{"name": "mail", "description": "Sends mail.", "input_schema": {"type": "object",
          "properties": {"to": {"type": "string", "format": "email", "minLength": 3,
          "maxLength": 254}}, "required": ["to"]}}]"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let answer = |to: &str| match gate
        .check_call(&format!(r#"{{"name":"mail","arguments":{{"to":{to}}}}}"#))
    {
        Ok(_) => "ok".to_owned(),
        Err(rejection) => rejection.to_string(),
    };
    assert_eq!(
        answer(r#""a""#),
        r#"mail rejected: to must be from 3 to 254 characters long; received "a"."#
    );
    assert_eq!(
        answer(r#""abc""#),
        r#"mail rejected: to must be an email address such as ana@example.com; received "abc"."#
    );
}

#[test]
fn escaped_strings_are_checked_as_the_text_they_stand_for() {
    let gate = gate();
    for (args, expect) in [
        (r#"{"to":"j\u00fcrgen@ex\u00e4mple.de"}"#, "ok"),
        (r#"{"to":"jos\u00e9@example.com"}"#, "ok"),
        (r#"{"due":"2025-01-3\u0031"}"#, "ok"),
        (r#"{"host":"api\u002eexample.com"}"#, "ok"),
        (
            r#"{"due":"2025-01-3\u0032"}"#,
            r#"record rejected: due must be an RFC 3339 date such as 2025-01-31; received "2025-01-32"."#,
        ),
        (
            r#"{"to":"ana\u0020@example.com"}"#,
            r#"record rejected: to must be an email address such as ana@example.com; received "ana @example.com"."#,
        ),
    ] {
        assert_eq!(check(&gate, args), expect, "{args}");
    }
}

/// The events of `{"key": <a string in these parts>}`.
fn string_in_parts(key: &'static str, parts: &[Event<'static>]) -> Vec<Event<'static>> {
    let mut events = vec![
        Event::ObjectStart,
        Event::Key(Cow::Borrowed(key)),
        Event::StringStart,
    ];
    events.extend_from_slice(parts);
    events.extend([Event::StringEnd, Event::ObjectEnd]);
    events
}

#[test]
fn a_string_in_parts_is_checked_whole_at_its_end() {
    let gate = gate();
    let Some(spec) = gate.spec("record") else {
        panic!("record is loaded")
    };
    let schema = spec.params();
    let email = |parts: &[Event<'static>]| string_in_parts("to", parts);
    // An `é` escaped in the middle of the local part and of the domain.
    assert!(accepts(
        schema,
        &email(&[
            Event::StringPart("jos"),
            Event::StringChar('é'),
            Event::StringPart("@caf"),
            Event::StringChar('é'),
            Event::StringPart(".fr"),
        ])
    ));
    assert!(!accepts(
        schema,
        &email(&[
            Event::StringPart("jos"),
            Event::StringChar(' '),
            Event::StringPart("@example.com"),
        ])
    ));
    let date = |parts: &[Event<'static>]| string_in_parts("due", parts);
    assert!(accepts(
        schema,
        &date(&[Event::StringPart("2025-01-3"), Event::StringChar('1')])
    ));
    assert!(!accepts(
        schema,
        &date(&[Event::StringPart("2025-01-3"), Event::StringChar('2')])
    ));
}

#[test]
fn a_bounded_format_is_refused_as_soon_as_the_string_is_too_long_to_be_one() {
    let gate = gate();
    let prefix = r#"{"type":"tool_use","id":"toolu_1","name":"record","input":{"due":"2025-01-31"#;
    let mut stream = gate.stream_call();
    assert_eq!(stream.feed(prefix), Progress::Pending, "a date so far");
    // An eleventh byte: no date is that long, whatever follows.
    let at = prefix.len() - "\"2025-01-31".len();
    assert_eq!(
        stream.feed("T"),
        Progress::Refused {
            at,
            kind: RejectionKind::SchemaViolation
        }
    );
    let rejection = match stream.feed("09:30:00Z\"}}") {
        Progress::Refused { .. } => stream.finish(),
        Progress::Pending => panic!("refused once, refused for good"),
    };
    assert_eq!(
        rejection.map(drop).map_err(|r| r.to_string()),
        Err(r#"record rejected: due must be an RFC 3339 date such as 2025-01-31; received "2025-01-31T09:30:00Z"."#.to_owned())
    );
    // A format without a longest value is decided at the string's end.
    let mut stream = gate.stream_call();
    let text = r#"{"type":"tool_use","id":"toolu_2","name":"record","input":{"at":"next Tuesday"#;
    assert_eq!(stream.feed(text), Progress::Pending);
    assert!(matches!(stream.feed("\""), Progress::Refused { .. }));
    // And a valid value streamed byte by byte is accepted.
    let call = r#"{"type":"tool_use","id":"toolu_3","name":"record","input":{"to":"j\u00fcrgen@ex\u00e4mple.de","due":"2025-01-31"}}"#;
    let mut stream = gate.stream_call();
    for (index, _) in call.char_indices() {
        let end = call[index..]
            .chars()
            .next()
            .map_or(index, |c| index + c.len_utf8());
        assert_eq!(
            stream.feed(&call[index..end]),
            Progress::Pending,
            "at byte {index}"
        );
    }
    assert!(stream.finish().is_ok());
}

#[test]
fn without_format_assertions_every_format_is_an_annotation_and_still_exported() {
    let specs: Vec<ToolSpec> = load_tools(TOOLS)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(ToolSpec::without_format_assertions)
        .collect();
    let exported = export_tools(&specs, Provider::Anthropic)
        .unwrap_or_else(|e| panic!("{e}"))
        .to_string();
    let gate = Gate::new(specs).unwrap_or_else(|e| panic!("{e}"));
    for &(field, _, bad, _) in CASES {
        // `count` is an integer field: 2147483648 is still an integer (within i64).
        assert_eq!(
            check(&gate, &format!(r#"{{"{field}":{bad}}}"#)),
            "ok",
            "{field}"
        );
    }
    // Kinds are still checked, and the model is still shown every format.
    assert_eq!(
        check(&gate, r#"{"due":20250131}"#),
        "record rejected: due must be a string; received 20250131."
    );
    assert!(exported.contains(r#""format":"date""#), "{exported}");
    assert!(exported.contains(r#""format":"idn-email""#), "{exported}");
    // The switch is on the schema: a schema loaded again enforces its formats.
    let document = json::parse(r#"{"format": "date"}"#).unwrap_or_else(|e| panic!("{e}"));
    let schema = Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{e}"));
    let next_tuesday = json::parse(r#""next Tuesday""#).unwrap_or_else(|e| panic!("{e}"));
    assert!(schema.asserts_formats() && schema.validate(&next_tuesday).is_err());
    let annotated = schema.clone().without_format_assertions();
    assert!(!annotated.asserts_formats() && annotated.validate(&next_tuesday).is_ok());
    assert_ne!(schema, annotated, "they validate differently");
}

#[test]
fn the_importer_enforces_known_names_and_lists_unknown_ones_when_lenient() {
    // Strict loads take any format name: an unknown one is an annotation, as in JSON Schema.
    let specs = load_tools(TOOLS).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(specs.len(), 1);
    let (_, unenforced) = load_tools_lenient(TOOLS).unwrap_or_else(|e| panic!("{e}"));
    let listed: Vec<String> = unenforced.iter().map(ToString::to_string).collect();
    assert_eq!(
        listed,
        ["tools[0].input_schema.properties.note: 'format' is not enforced"]
    );
    // Names are case-sensitive, as JSON Schema's are: `Date` is not `date`.
    for (schema, refused) in [
        (r#"{"format": "date"}"#, true),
        (r#"{"format": "Date"}"#, false),
        (r#"{"format": "idn-email"}"#, true),
        (r#"{"format": "uri-reference"}"#, false),
    ] {
        let document = json::parse(schema).unwrap_or_else(|e| panic!("{e}"));
        let loaded = Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{e}"));
        let value = json::parse(r#""not this""#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.validate(&value).is_err(), refused, "{schema}");
        let (_, listed) =
            Schema::from_json_schema_lenient(&document).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(listed.is_empty(), refused, "{schema}: {listed:?}");
    }
    // A format that is not a string is a malformed schema, refused even leniently.
    let document = json::parse(r#"{"format": 7}"#).unwrap_or_else(|e| panic!("{e}"));
    let error = Schema::from_json_schema_lenient(&document).unwrap_err();
    assert!(
        matches!(&error, LoadError::Invalid { keyword: Some(k), .. } if k == "format"),
        "{error:?}"
    );
    // Beside a draft-07 `$ref`, which ignores its siblings, an enforced format is refused
    // as any asserting keyword is; one toolgate does not check asserts nothing, and loads.
    let beside_ref = |format: &str| {
        let text = format!(
            r##"{{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {{"a":
                {{"$ref": "#/definitions/s", "format": "{format}"}}}},
                "definitions": {{"s": {{"type": "string"}}}}}}"##
        );
        Schema::from_json_schema(&json::parse(&text).unwrap_or_else(|e| panic!("{e}")))
    };
    assert!(
        matches!(beside_ref("date"), Err(LoadError::RefSibling { ref keyword, .. }) if keyword == "format")
    );
    assert!(beside_ref("x-a").is_ok());
    // A format the importer lists weakens nothing: a `oneOf` beside it is kept whole.
    let document =
        json::parse(r#"{"oneOf": [{"type": "string", "format": "x-a"}, {"type": "integer"}]}"#)
            .unwrap_or_else(|e| panic!("{e}"));
    let (loaded, listed) =
        Schema::from_json_schema_lenient(&document).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(listed.len(), 1);
    let strict = Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded, strict);
    let number = json::parse("1.5").unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.validate(&number).is_err());
}

#[test]
fn every_plain_export_writes_each_format_and_reads_back_the_same_spec() {
    let specs = load_tools(TOOLS).unwrap_or_else(|e| panic!("{e}"));
    for provider in Provider::ALL.into_iter().filter(|p| !p.is_strict()) {
        let text = export_tools(&specs, provider)
            .unwrap_or_else(|e| panic!("{e}"))
            .to_string();
        for name in [
            "date-time",
            "date",
            "time",
            "duration",
            "email",
            "idn-email",
            "uri",
            "uuid",
            "ipv4",
            "ipv6",
            "hostname",
            "int32",
            "int64",
            "x-free-text",
        ] {
            assert!(
                text.contains(&format!(r#""format":"{name}""#)),
                "{}: {name} in {text}",
                provider.label()
            );
        }
        let read = load_tools(&text).unwrap_or_else(|e| panic!("{}: {e}", provider.label()));
        assert_eq!(read, specs, "{}", provider.label());
        let gate = Gate::new(read).unwrap_or_else(|e| panic!("{e}"));
        for &(field, good, bad, sentence) in CASES {
            assert_eq!(check(&gate, &format!(r#"{{"{field}":{good}}}"#)), "ok");
            assert_eq!(check(&gate, &format!(r#"{{"{field}":{bad}}}"#)), sentence);
        }
    }
}

/// OpenAI's strict mode documents nine string formats; a tool that names another keeps its
/// plain form (`"strict": false`, with a note that names the format rule), and a tool whose
/// formats are all on the list stays strict and carries them.
#[test]
fn the_strict_forms_carry_the_formats_strict_mode_lists_and_fall_back_for_the_others() {
    use toolgate::spec::{export_tools_with, ExportOptions};
    let listed = r#"[{"name": "meet", "description": "Meet.", "input_schema": {"type": "object",
        "properties": {"at": {"type": "string", "format": "date-time"},
                       "who": {"type": "string", "format": "email"}},
        "required": ["at", "who"], "additionalProperties": false}}]"#;
    let unlisted = r#"[{"name": "fetch", "description": "Fetch.", "input_schema": {"type": "object",
        "properties": {"url": {"type": "string", "format": "uri"}},
        "required": ["url"], "additionalProperties": false}}]"#;
    for provider in [Provider::OpenAiStrict, Provider::ResponsesStrict] {
        let specs = load_tools(listed).unwrap_or_else(|e| panic!("{e}"));
        let exported = export_tools_with(&specs, provider, ExportOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let text = exported.tools.to_string();
        assert!(text.contains(r#""strict":true"#), "{text}");
        assert!(text.contains(r#""format":"date-time""#), "{text}");
        assert!(text.contains(r#""format":"email""#), "{text}");
        assert!(exported.notes.is_empty(), "{:?}", exported.notes);

        let specs = load_tools(unlisted).unwrap_or_else(|e| panic!("{e}"));
        let exported = export_tools_with(&specs, provider, ExportOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let text = exported.tools.to_string();
        assert!(text.contains(r#""strict":false"#), "{text}");
        assert!(
            text.contains(r#""format":"uri""#),
            "the model still sees it: {text}"
        );
        let notes: Vec<String> = exported.notes.iter().map(ToString::to_string).collect();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0]
                .contains("url has no OpenAI strict form: a 'format' strict mode does not list"),
            "{notes:?}"
        );
    }
}
