//! The MCP proxy's decisions, message by message, with plain strings: which client message
//! goes to the server, which the proxy answers (exact answers), what it learns from the
//! server's `tools/list` pages and forgets at `list_changed`, what it says on standard
//! error, what it counts, and that no input makes it panic.
#![cfg(feature = "mcp")]

#[path = "support/rng.rs"]
mod rng;

use rng::Rng;
use toolgate::mcp::{Options, Proxy, Relay, Verdict};
use toolgate::RejectionKind;

const PAGE_ONE: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","description":"Add two integers.","inputSchema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}}],"nextCursor":"p2"}}"#;
const PAGE_TWO: &str = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"search_orders","inputSchema":{"type":"object","properties":{"query":{"type":"string","minLength":1}},"required":["query"]}}]}}"#;

fn call(id: &str, name: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#
    )
}

fn tool_error(id: &str, text: &str) -> Relay {
    let text = text.replace('"', "\\\"");
    Relay::Answer(format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{text}"}}],"isError":true}}}}"#
    ))
}

/// A proxy that has seen both pages of the listing.
fn listed(options: Options) -> Proxy {
    let mut proxy = Proxy::new(options);
    let first = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
    assert_eq!(proxy.from_client(first.as_bytes()), Relay::Forward);
    proxy.from_server(PAGE_ONE.as_bytes());
    let second = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"p2"}}"#;
    assert_eq!(proxy.from_client(second.as_bytes()), Relay::Forward);
    proxy.from_server(PAGE_TWO.as_bytes());
    assert_eq!(proxy.take_notes(), Vec::<String>::new());
    proxy
}

#[test]
fn a_refused_call_is_answered_under_its_id_as_sent() {
    let mut proxy = listed(Options::default());
    let text = "add rejected: b must be an integer; received \"2\".";
    let number = call("7", "add", r#"{"a":1,"b":"2"}"#);
    assert_eq!(proxy.from_client(number.as_bytes()), tool_error("7", text));
    let string = call(r#""req-\u00e9""#, "add", r#"{"a":1,"b":"2"}"#);
    assert_eq!(
        proxy.from_client(string.as_bytes()),
        tool_error(r#""req-é""#, text)
    );
    let fixed = call("8", "add", r#"{"a":1,"b":2}"#);
    assert_eq!(proxy.from_client(fixed.as_bytes()), Relay::Forward);
    let verdicts = proxy.take_verdicts();
    assert_eq!(verdicts.len(), 3);
    match &verdicts[1] {
        Verdict::Refused { line, rejection } => {
            assert_eq!((*line, rejection.id()), (4, Some("req-é")));
            assert_eq!(rejection.kind(), RejectionKind::SchemaViolation);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        verdicts[2],
        Verdict::Accepted {
            line: 5,
            id: Some("8".into()),
            tool: "add".into()
        }
    );
}

#[test]
fn an_unknown_tool_gets_the_suggestions_as_a_tool_result_or_a_protocol_error() {
    let unknown = call("3", "ad", "{}");
    let text = "No tool named 'ad'. Did you mean: add? The tools are: add, search_orders.";
    let mut proxy = listed(Options::default());
    assert_eq!(proxy.from_client(unknown.as_bytes()), tool_error("3", text));
    let mut strict = listed(Options {
        protocol_errors: true,
        ..Options::default()
    });
    assert_eq!(
        strict.from_client(unknown.as_bytes()),
        Relay::Answer(format!(
            r#"{{"jsonrpc":"2.0","id":3,"error":{{"code":-32602,"message":"{text}"}}}}"#
        ))
    );
    // Only the unknown tool is a protocol error; a schema violation stays a tool result.
    let wrong = call("4", "add", r#"{"a":1}"#);
    assert_eq!(
        strict.from_client(wrong.as_bytes()),
        tool_error("4", "add rejected: missing required field 'b'.")
    );
}

#[test]
fn calls_pass_unchecked_until_the_listing_is_complete() {
    let mut proxy = Proxy::new(Options::default());
    let nothing_known = call("1", "anything", r#"{"x":1}"#);
    assert_eq!(proxy.from_client(nothing_known.as_bytes()), Relay::Forward);
    let list = r#"{"jsonrpc":"2.0","id":"l1","method":"tools/list"}"#;
    assert_eq!(proxy.from_client(list.as_bytes()), Relay::Forward);
    proxy.from_server(PAGE_ONE.replace(r#""id":1"#, r#""id":"l1""#).as_bytes());
    // Page one is known and checked; a name not on it may be on page two.
    let wrong = call("2", "add", r#"{"a":"x","b":1}"#);
    assert!(matches!(
        proxy.from_client(wrong.as_bytes()),
        Relay::Answer(_)
    ));
    let later = call("3", "search_orders", r#"{"query":""}"#);
    assert_eq!(proxy.from_client(later.as_bytes()), Relay::Forward);
    assert_eq!(proxy.unchecked(), 2);
    let next = r#"{"jsonrpc":"2.0","id":"l2","method":"tools/list","params":{"cursor":"p2"}}"#;
    assert_eq!(proxy.from_client(next.as_bytes()), Relay::Forward);
    proxy.from_server(PAGE_TWO.replace(r#""id":2"#, r#""id":"l2""#).as_bytes());
    let checked = call("4", "search_orders", r#"{"query":""}"#);
    assert_eq!(
        proxy.from_client(checked.as_bytes()),
        tool_error(
            "4",
            "search_orders rejected: query must be at least 1 character long; received \"\"."
        )
    );
    let absent = call("5", "delete_everything", "{}");
    assert!(matches!(
        proxy.from_client(absent.as_bytes()),
        Relay::Answer(_)
    ));
    assert_eq!(proxy.unchecked(), 2);
}

#[test]
fn list_changed_forgets_and_the_next_listing_replaces() {
    let mut proxy = listed(Options::default());
    proxy.from_server(br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    assert_eq!(
        proxy.take_notes(),
        ["the server's tools changed: calls pass unchecked until the next tools/list result"]
    );
    let stale = call("9", "add", r#"{"a":"x"}"#);
    assert_eq!(proxy.from_client(stale.as_bytes()), Relay::Forward);
    assert_eq!(proxy.unchecked(), 1);
    let list = r#"{"jsonrpc":"2.0","id":10,"method":"tools/list"}"#;
    assert_eq!(proxy.from_client(list.as_bytes()), Relay::Forward);
    let new_tools = r#"{"jsonrpc":"2.0","id":10,"result":{"tools":[{"name":"multiply","inputSchema":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}]}}"#;
    proxy.from_server(new_tools.as_bytes());
    let gone = call("11", "add", r#"{"a":1,"b":2}"#);
    assert_eq!(
        proxy.from_client(gone.as_bytes()),
        tool_error(
            "11",
            "No tool named 'add'. Did you mean: multiply? The tools are: multiply."
        )
    );
    let new = call("12", "multiply", r#"{"x":2}"#);
    assert_eq!(proxy.from_client(new.as_bytes()), Relay::Forward);
}

#[test]
fn a_schema_loaded_leniently_or_not_at_all_is_said_naming_the_tool() {
    let mut proxy = Proxy::new(Options::default());
    proxy.from_client(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    let page = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[
        {"name":"odd","inputSchema":{"type":"object","properties":{"n":{"type":"integer","frobnicate":true}}}},
        {"name":"broken","inputSchema":{"type":"object","properties":{"s":{"type":"string","minLength":-1}}}}]}}"#;
    proxy.from_server(page.replace('\n', "").as_bytes());
    let notes = proxy.take_notes();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].starts_with("tool 'odd': its schema cannot be loaded strictly (")
            && notes[0].contains("loaded leniently, not enforced: ")
            && notes[0].contains("frobnicate"),
        "{notes:?}"
    );
    assert!(
        notes[1].starts_with("tool 'broken': its schema cannot be loaded (")
            && notes[1].ends_with("its calls pass unchecked"),
        "{notes:?}"
    );
    assert_eq!(proxy.lenient_tools(), ["odd"]);
    assert_eq!(proxy.unloadable_tools(), ["broken"]);
    // The lenient schema still checks what it can; the unloadable one passes, counted.
    let odd = call("2", "odd", r#"{"n":"x"}"#);
    assert!(matches!(
        proxy.from_client(odd.as_bytes()),
        Relay::Answer(_)
    ));
    let broken = call("3", "broken", r#"{"s":5}"#);
    assert_eq!(proxy.from_client(broken.as_bytes()), Relay::Forward);
    assert_eq!(proxy.unchecked(), 1);
}

#[test]
fn what_the_proxy_cannot_read_is_not_forwarded_and_said() {
    let mut proxy = listed(Options::default());
    let parse_error = |id: &str, why: &str| {
        Relay::Answer(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32700,"message":"toolgate mcp: the message is not JSON ({why}); it was not forwarded."}}}}"#
        ))
    };
    assert_eq!(
        proxy.from_client(b"hello"),
        parse_error(
            "null",
            "expected a JSON value at line 1, column 1, found 'h'"
        )
    );
    // A lenient server would read NaN and run the call: the proxy answers under its id.
    let nan = br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":{"a":NaN}}}"#;
    assert!(matches!(
        proxy.from_client(nan),
        Relay::Answer(answer) if answer.starts_with(r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32700,"#)
    ));
    // A notification gets no answer.
    assert_eq!(
        proxy.from_client(br#"{"jsonrpc":"2.0","method":"notifications/x","params":{"#),
        Relay::Drop
    );
    let twice = br#"{"jsonrpc":"2.0","id":6,"method":"ping","method":"tools/call","params":{"name":"add"}}"#;
    assert!(matches!(
        proxy.from_client(twice),
        Relay::Answer(answer) if answer.starts_with(r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"#)
    ));
    let head = br#"{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"add","arguments":{"a":"#;
    assert_eq!(
        proxy.from_client_too_long(head, 99_000_000),
        Relay::Answer(
            r#"{"jsonrpc":"2.0","id":"big","error":{"code":-32600,"message":"toolgate mcp: the message is 99000000 bytes, over the limit of 16777216; it was not forwarded."}}"#
                .into()
        )
    );
    let notes = proxy.take_notes();
    assert_eq!(notes.len(), 5, "{notes:?}");
    assert_eq!(
        notes[0],
        "client message 3 is not JSON (expected a JSON value at line 1, column 1, found 'h'): \
         not forwarded, answered with a null id"
    );
    assert!(notes[2].ends_with("not forwarded, no answer (not a request)"));
    assert_eq!(
        notes[4],
        "client message 7 is 99000000 bytes, over the limit of 16777216: not forwarded, \
         answered under its id \"big\""
    );
}

/// The first bytes of an over-long message are read for its id whatever the limit: the
/// head kept can be longer than the limit itself.
#[test]
fn an_oversized_request_is_answered_under_its_id_even_with_a_small_limit() {
    let mut proxy = Proxy::new(Options {
        max_bytes: 16,
        ..Options::default()
    });
    let head = br#"{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"add","arguments":{"a":"#;
    assert_eq!(
        proxy.from_client_too_long(head, 5000),
        Relay::Answer(
            r#"{"jsonrpc":"2.0","id":41,"error":{"code":-32600,"message":"toolgate mcp: the message is 5000 bytes, over the limit of 16; it was not forwarded."}}"#
                .into()
        )
    );
}

#[test]
fn params_are_read_as_a_server_reads_them() {
    let mut proxy = listed(Options::default());
    // `input` is no MCP member: the server would run `add` with no arguments.
    let input = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","input":{"a":1,"b":2}}}"#;
    assert_eq!(
        proxy.from_client(input),
        tool_error("1", "add rejected: missing required field 'a'.")
    );
    let text = call("2", "add", r#""{\"a\":1,\"b\":2}""#);
    assert!(matches!(
        proxy.from_client(text.as_bytes()),
        Relay::Answer(answer) if answer.contains("the arguments must be a JSON object")
    ));
    let no_name = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#;
    assert!(matches!(proxy.from_client(no_name), Relay::Answer(_)));
    let two_names = br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","name":"rm","arguments":{"a":1,"b":2}}}"#;
    assert!(matches!(proxy.from_client(two_names), Relay::Answer(_)));
    // A refused notification cannot be answered; it is dropped and said.
    let notification = br#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add"}}"#;
    assert_eq!(proxy.from_client(notification), Relay::Drop);
    assert_eq!(proxy.take_notes().len(), 1);
}

#[test]
fn batches_without_calls_pass_and_batches_with_one_are_answered() {
    let mut proxy = listed(Options::default());
    let pings =
        br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    assert_eq!(proxy.from_client(pings), Relay::Forward);
    assert_eq!(proxy.from_client(pings), Relay::Forward);
    assert_eq!(proxy.take_notes().len(), 1, "said once");
    let with_call = format!("[{}]", call("3", "add", r#"{"a":1,"b":2}"#));
    assert!(matches!(
        proxy.from_client(with_call.as_bytes()),
        Relay::Answer(answer) if answer.starts_with(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"#)
    ));
}

#[test]
fn server_answers_count_as_dispatched_or_failed_and_reach_the_metrics() {
    let mut proxy = listed(Options::default());
    proxy.from_client(call("1", "add", r#"{"a":1,"b":2}"#).as_bytes());
    proxy.from_client(call("2", "add", r#"{"a":1,"b":2}"#).as_bytes());
    proxy.from_client(call("3", "add", r#"{"a":1}"#).as_bytes());
    proxy.from_server(
        br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"3"}]}}"#,
    );
    proxy.from_server(br#"{"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":true}}"#);
    proxy.from_server(b"not json from the server");
    assert_eq!(
        proxy.take_notes(),
        [
            "server message 5 is not JSON (expected 'null' at line 1, column 2, found 'o'); \
          relayed unchanged"
        ]
    );
    let counts = proxy.counts();
    assert_eq!(
        (counts.dispatched, counts.tool_failed, counts.rejected_calls),
        (1, 1, 1)
    );
    assert_eq!(counts.rejected_by(RejectionKind::SchemaViolation), 1);
    let text = proxy.prometheus();
    assert!(
        text.contains("toolgate_calls_total{outcome=\"tool_failed\"} 1\n"),
        "{text}"
    );
    assert!(
        text.contains("toolgate_tool_rejections_total{tool=\"add\",kind=\"schema_violation\"} 1\n")
    );
    assert!(text.ends_with(
        "# TYPE toolgate_mcp_unchecked_calls_total counter\ntoolgate_mcp_unchecked_calls_total 0\n"
    ));
}

/// Random bytes, and mutations of real messages, from either side: never a panic, and a
/// client message is forwarded only when it parses (the safety promise).
#[test]
fn no_input_makes_the_proxy_panic() {
    let mut rng = Rng::from_env();
    let mut proxy = listed(Options {
        max_bytes: 512,
        ..Options::default()
    });
    let seeds = [
        call("1", "add", r#"{"a":1,"b":2}"#),
        PAGE_ONE.to_string(),
        PAGE_TWO.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":null}}"#.to_string(),
    ];
    for _ in 0..20_000 {
        let seed = &seeds[rng.below(seeds.len())];
        let mut bytes = seed.as_bytes().to_vec();
        for _ in 0..rng.below(4) {
            if bytes.is_empty() {
                break;
            }
            let at = rng.below(bytes.len());
            bytes[at] = rng.u8();
        }
        if rng.below(2) == 0 {
            bytes.truncate(rng.below(bytes.len() + 1));
        }
        let relay = proxy.from_client(&bytes);
        if relay == Relay::Forward {
            assert!(
                toolgate::json::parse_bytes(&bytes).is_ok()
                    || bytes.iter().all(u8::is_ascii_whitespace),
                "forwarded unreadable bytes: {bytes:?}"
            );
        }
        proxy.from_server(&bytes);
        let _ = proxy.from_client_too_long(&bytes, 1 << 40);
        proxy.take_notes();
        proxy.take_verdicts();
    }
}
