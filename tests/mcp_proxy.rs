//! `toolgate mcp` end to end, in front of a stand-in MCP server written here
//! (`support/mcp_server.rs`): this test binary is also the server. Its own harness
//! (`harness = false`): run with `TOOLGATE_MCP_STANDIN` set, it serves; otherwise it runs
//! each case below, starting `toolgate mcp -- <this binary>`, prints one line per case and
//! exits 1 if any failed.
//!
//! Each case drives the proxy one client line at a time and reads exactly the lines that
//! line must bring back, so the expected bytes are exact and in order: every message
//! relayed byte for byte (odd spacing, `\r\n`, raw UTF-8, escapes), refused calls answered
//! under their id and never reaching the server (the server records every line it
//! receives), pagination and list changes, a server that dies mid-call, garbage and
//! oversized lines, the log and the metrics file.

#[path = "support/mcp_server.rs"]
mod mcp_server;

use mcp_server::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// A case returns what went wrong, if anything.
type Case = fn() -> Result<(), String>;

fn main() {
    if std::env::var_os(SERVE).is_some() {
        serve();
        return;
    }
    // A guard against a hang, not a timed assertion: a proxy that stops relaying would
    // otherwise block the test run for ever.
    std::thread::spawn(|| {
        std::thread::sleep(Duration::from_secs(300));
        eprintln!("mcp_proxy: no progress in 300 s: the proxy hangs");
        std::process::exit(1);
    });
    let cases: [(&str, Case); 5] = [
        (
            "a_recorded_session_is_relayed_byte_for_byte_in_order",
            recorded_session,
        ),
        (
            "a_server_that_dies_mid_call_ends_the_proxy_with_its_code",
            server_dies,
        ),
        (
            "garbage_and_oversized_lines_are_handled_in_order",
            garbage_and_oversized,
        ),
        ("a_server_that_cannot_start_is_a_clear_error", cannot_start),
        (
            "a_closed_client_ends_the_server_and_the_proxy",
            client_closes,
        ),
    ];
    let mut failed = 0;
    for (name, case) in cases {
        let outcome = std::panic::catch_unwind(case).unwrap_or_else(|panic| {
            let text = panic.downcast_ref::<String>().cloned();
            let text = text.or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
            Err(format!("panicked: {}", text.unwrap_or_default()))
        });
        match outcome {
            Ok(()) => println!("test {name} ... ok"),
            Err(problem) => {
                failed += 1;
                println!("test {name} ... FAILED\n{problem}\n");
            }
        }
    }
    println!(
        "\nmcp_proxy: {} passed, {failed} failed",
        cases.len() - failed
    );
    if failed > 0 {
        std::process::exit(1);
    }
}

/// One running proxy in front of the stand-in.
struct Session {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
    stderr: Option<JoinHandle<String>>,
    record: PathBuf,
    /// Every client line the server must have received, in order.
    forwarded: Vec<u8>,
}

fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("toolgate-mcp-{}-{n}-{name}", std::process::id()))
}

impl Session {
    fn start(options: &[&str]) -> Session {
        let record = scratch("record.jsonl");
        let _ = std::fs::remove_file(&record);
        let me = std::env::current_exe().expect("the test binary has a path");
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolgate"))
            .arg("mcp")
            .args(options)
            .arg("--")
            .arg(me)
            .env(SERVE, "1")
            .env(RECORD, &record)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("toolgate mcp starts");
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Session {
            input: child.stdin.take(),
            output: BufReader::new(child.stdout.take().expect("stdout is piped")),
            child,
            stderr: Some(stderr),
            record,
            forwarded: Vec::new(),
        }
    }

    /// Sends one client line; `forward` says whether the server must receive it.
    fn send(&mut self, line: &str, forward: bool) {
        self.send_bytes(line.as_bytes(), forward);
    }

    fn send_bytes(&mut self, line: &[u8], forward: bool) {
        let input = self.input.as_mut().expect("the client is open");
        input.write_all(line).expect("the proxy reads");
        input.flush().expect("the proxy reads");
        if forward {
            self.forwarded.extend_from_slice(line);
        }
    }

    /// Reads the next line the client receives, with its newline.
    fn receive(&mut self) -> String {
        let mut line = Vec::new();
        self.output
            .read_until(b'\n', &mut line)
            .expect("the proxy writes");
        String::from_utf8(line).expect("the client receives UTF-8")
    }

    /// Sends a line and checks that exactly `expected` comes back, in order.
    fn exchange(&mut self, line: &str, forward: bool, expected: &[String]) -> Result<(), String> {
        self.send(line, forward);
        for want in expected {
            let got = self.receive();
            if &got != want {
                let (line, got, want) = (cut(line), cut(&got), cut(want));
                return Err(format!(
                    "after {line:?}\n  received {got:?}\n  expected {want:?}"
                ));
            }
        }
        Ok(())
    }

    /// Closes the client side and returns the proxy's exit code, its standard error, and
    /// whatever the client still received.
    fn finish(mut self) -> (Option<i32>, String, String, Result<(), String>) {
        drop(self.input.take());
        let mut rest = String::new();
        let _ = self.output.read_to_string(&mut rest);
        let code = self.child.wait().ok().and_then(|status| status.code());
        let stderr = self
            .stderr
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        let received = std::fs::read(&self.record).unwrap_or_default();
        let record = if received == self.forwarded {
            Ok(())
        } else {
            Err(format!(
                "the server received\n{}\nbut should have received\n{}",
                String::from_utf8_lossy(&received),
                String::from_utf8_lossy(&self.forwarded)
            ))
        };
        (code, stderr, rest, record)
    }
}

/// The first 300 characters, for messages.
fn cut(text: &str) -> String {
    text.chars().take(300).collect()
}

fn call(id: &str, name: &str, arguments: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"{name}\",\"arguments\":{arguments}}}}}\n")
}

fn refusal(id: &str, text: &str) -> String {
    let mut escaped = String::new();
    let _ = toolgate::json::write_escaped_str(&mut escaped, text);
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":{escaped}}}],\"isError\":true}}}}\n")
}

fn check(condition: bool, what: &str, context: &str) -> Result<(), String> {
    if condition {
        Ok(())
    } else {
        Err(format!("{what}\n{context}"))
    }
}

fn recorded_session() -> Result<(), String> {
    let log = scratch("verdicts.jsonl");
    let metrics = scratch("metrics.prom");
    let log_arg = log.to_string_lossy().into_owned();
    let metrics_arg = metrics.to_string_lossy().into_owned();
    let mut session = Session::start(&["--log", &log_arg, "--metrics", &metrics_arg]);
    let initialize = "{ \"jsonrpc\" : \"2.0\", \"id\" : 1, \"method\" : \"initialize\", \"params\" : {\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"0\"}} }\r\n";
    session.exchange(initialize, true, &[initialized("1")])?;
    let initialized_note = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    session.exchange(initialized_note, true, &[])?;
    // Before any listing, a call passes unchecked (the server answers it).
    session.exchange(
        &call("2", "add", r#"{"a":1,"b":2}"#),
        true,
        &[log_notification(), text_result("2", "3")],
    )?;
    let list = "{\"jsonrpc\":\"2.0\",\"id\":\"list-1\",\"method\":\"tools/list\"}\n";
    session.exchange(list, true, &[page_one("\"list-1\"")])?;
    let list = "{\"jsonrpc\":\"2.0\",\"id\":\"list-2\",\"method\":\"tools/list\",\"params\":{\"cursor\":\"p2\"}}\n";
    session.exchange(list, true, &[page_two("\"list-2\"")])?;
    let wrong = call("3", "add", r#"{"a":1,"b":"2"}"#);
    session.exchange(
        &wrong,
        false,
        &[refusal(
            "3",
            "add rejected: b must be an integer; received \"2\".",
        )],
    )?;
    session.exchange(
        &call("4", "add", r#"{"a":1,"b":2}"#),
        true,
        &[log_notification(), text_result("4", "3")],
    )?;
    let typo = call("\"t-5\"", "ad", "{}");
    let suggestions = "No tool named 'ad'. Did you mean: add? The tools are: add, echo, ask, change, big, die, odd.";
    session.exchange(&typo, false, &[refusal("\"t-5\"", suggestions)])?;
    // The server answers with the exact line it received: raw UTF-8 and escapes intact.
    let echo = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"é \\u00e9 \\ud83d\\ude00\"}}}\n";
    session.exchange(echo, true, &[text_result("6", echo)])?;
    // A server request to the client, and the client's response, interleaved with a call.
    session.exchange(&call("7", "ask", "{}"), true, &[ask_request()])?;
    let response = "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{\"roots\":[]}}\n";
    session.exchange(response, true, &[text_result("7", "the client answered")])?;
    let odd = call("8", "odd", r#"{"n":"one"}"#);
    session.exchange(
        &odd,
        false,
        &[refusal(
            "8",
            "odd rejected: n must be an integer; received \"one\".",
        )],
    )?;
    // The tools change: calls pass unchecked until the next listing, which replaces them.
    session.exchange(
        &call("9", "change", "{}"),
        true,
        &[list_changed(), text_result("9", "changed")],
    )?;
    session.exchange(
        &call("10", "add", r#"{"a":2,"b":2}"#),
        true,
        &[log_notification(), text_result("10", "4")],
    )?;
    let list = "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/list\"}\n";
    session.exchange(list, true, &[changed_page("11")])?;
    let gone = call("12", "add", r#"{"a":1,"b":2}"#);
    let text = "No tool named 'add'. Did you mean: multiply? The tools are: multiply.";
    session.exchange(&gone, false, &[refusal("12", text)])?;
    session.exchange(
        "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\"}\n",
        true,
        &[empty_result("13")],
    )?;
    let (code, stderr, rest, record) = session.finish();
    record?;
    check(
        code == Some(0),
        "the proxy exits with the server's code 0",
        &stderr,
    )?;
    check(rest.is_empty(), "nothing after the last answer", &rest)?;
    for said in [
        "toolgate mcp: tool 'odd': its schema cannot be loaded strictly (",
        "toolgate mcp: the server's tools changed: calls pass unchecked until the next tools/list result\n",
        "toolgate mcp: the client closed its output; closing the server's input\n",
        "toolgate mcp: the server closed its output\n",
        "calls passed unchecked: 2\n",
        "toolgate mcp: the server exited with code 0\n",
    ] {
        check(stderr.contains(said), &format!("standard error says {said:?}"), &stderr)?;
    }
    let verdicts = std::fs::read_to_string(&log).map_err(|e| e.to_string())?;
    let expected = [
        r#"{"line":3,"ok":true,"unchecked":true,"tool":"add","id":"2"}"#,
        r#"{"line":6,"ok":false,"kind":"schema_violation","tool":"add","path":"b","id":"3","error":"add rejected: b must be an integer; received \"2\"."}"#,
        r#"{"line":7,"ok":true,"tool":"add","id":"4"}"#,
    ];
    let lines: Vec<&str> = verdicts.lines().collect();
    check(
        lines.len() == 10 && lines[..3] == expected,
        "the log has one verdict per call",
        &verdicts,
    )?;
    let text = std::fs::read_to_string(&metrics).map_err(|e| e.to_string())?;
    for sample in [
        "toolgate_calls_total{outcome=\"dispatched\"} 6\n",
        "toolgate_calls_total{outcome=\"rejected\"} 4\n",
        "toolgate_rejections_total{kind=\"unknown_tool\"} 2\n",
        "toolgate_mcp_unchecked_calls_total 2\n",
    ] {
        check(
            text.contains(sample),
            &format!("the metrics hold {sample:?}"),
            &text,
        )?;
    }
    Ok(())
}

fn server_dies() -> Result<(), String> {
    let mut session = Session::start(&[]);
    let list =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"cursor\":\"p2\"}}\n";
    session.exchange(list, true, &[page_two("1")])?;
    session.send(&call("2", "die", "{}"), true);
    // The server exits without answering: the client's output ends, nothing more comes.
    let (code, stderr, rest, record) = session.finish();
    record?;
    check(rest.is_empty(), "no answer from a dead server", &rest)?;
    check(
        code == Some(3),
        &format!("the proxy exits with the server's code 3, not {code:?}"),
        &stderr,
    )?;
    check(
        stderr.contains("toolgate mcp: the server exited with code 3\n"),
        "said on stderr",
        &stderr,
    )
}

fn garbage_and_oversized() -> Result<(), String> {
    let mut session = Session::start(&["--max-bytes", "2000"]);
    let list =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"cursor\":\"p2\"}}\n";
    session.exchange(list, true, &[page_two("1")])?;
    let garbage = "hello, not json\n";
    let not_json = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"toolgate mcp: the message is not JSON (expected a JSON value at line 1, column 1, found 'h'); it was not forwarded.\"}}\n";
    session.exchange(garbage, false, &[not_json.to_string()])?;
    let huge = call(
        "2",
        "echo",
        &format!("{{\"text\":\"{}\"}}", "y".repeat(9000)),
    );
    let too_long = format!("{{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{{\"code\":-32600,\"message\":\"toolgate mcp: the message is {} bytes, over the limit of 2000; it was not forwarded.\"}}}}\n", huge.len());
    session.exchange(&huge, false, &[too_long])?;
    // A server line over the limit is relayed whole and unchanged, in its place.
    session.exchange(
        &call("3", "big", "{}"),
        true,
        &[text_result("3", &"x".repeat(BIG))],
    )?;
    // Bytes that are not UTF-8 are not JSON: answered, never forwarded.
    session.send_bytes(b"{\"id\":\xff}\n", false);
    let answer = session.receive();
    let start = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,";
    check(
        answer.starts_with(start),
        "invalid UTF-8 is a parse error",
        &answer,
    )?;
    session.exchange(
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n",
        true,
        &[empty_result("4")],
    )?;
    let (code, stderr, rest, record) = session.finish();
    record?;
    check(code == Some(0) && rest.is_empty(), "a clean end", &stderr)?;
    for said in [
        "toolgate mcp: client message 2 is not JSON (",
        "toolgate mcp: client message 3 is ",
        "bytes, over the limit of 2000: not forwarded, answered under its id 2\n",
        "toolgate mcp: server message 2 is ",
        "tools checked leniently: odd\n",
    ] {
        check(
            stderr.contains(said),
            &format!("standard error says {said:?}"),
            &stderr,
        )?;
    }
    Ok(())
}

fn cannot_start() -> Result<(), String> {
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(["mcp", "--", "/nonexistent/mcp-server"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    check(output.status.code() == Some(2), "exit 2", &stderr)?;
    check(
        stderr.starts_with("toolgate mcp: cannot start the server '/nonexistent/mcp-server': "),
        "the error names the server",
        &stderr,
    )
}

fn client_closes() -> Result<(), String> {
    let mut session = Session::start(&[]);
    session.exchange(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
        true,
        &[empty_result("1")],
    )?;
    // The last line has no newline: it is still relayed as it is.
    session.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", true);
    let (code, stderr, rest, record) = session.finish();
    record?;
    check(
        code == Some(0),
        "the proxy exits with the server's code",
        &stderr,
    )?;
    check(
        rest == empty_result("2"),
        "the last request is answered",
        &rest,
    )
}
