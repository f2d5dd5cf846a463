//! A stand-in MCP server (stdio, newline-delimited JSON-RPC) for the proxy's tests, std
//! and toolgate's own JSON reader only. It writes every line it receives, byte for byte,
//! to the file `TOOLGATE_MCP_RECORD` names, so a test can prove what reached the server
//! and what did not. Its answers are the functions below, so a test knows each byte the
//! client must receive. Its lines are written oddly on purpose (spaces, `\r\n`, raw UTF-8,
//! escapes): the proxy must relay them as they are.
//!
//! Tools: `add` (sends a log notification before its result), `echo` (answers with the
//! exact line it received), `ask` (sends the client a request and answers when the client
//! responds), `change` (changes the tool list and says so), `big` (a long result), `die`
//! (exits with code 3 without answering), and `odd`, whose schema toolgate loads only
//! leniently. Page one of the listing holds `add`; page two the rest.

use std::io::{self, BufRead, Write};
use toolgate::json::{self, Value};

/// The environment variable that makes the test binary serve instead of test.
pub const SERVE: &str = "TOOLGATE_MCP_STANDIN";
/// The environment variable naming the file where received lines are recorded.
pub const RECORD: &str = "TOOLGATE_MCP_RECORD";
/// Bytes of `big`'s result text.
pub const BIG: usize = 5000;

pub fn initialized(id: &str) -> String {
    format!("{{ \"jsonrpc\": \"2.0\", \"id\": {id}, \"result\": {{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{{\"tools\":{{\"listChanged\":true}}}},\"serverInfo\":{{\"name\":\"stand-in\",\"version\":\"1\"}}}} }}\r\n")
}

pub fn page_one(id: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"tools\":[{{\"name\":\"add\",\"description\":\"Adds two integers — exactly.\",\"inputSchema\":{{\"type\":\"object\",\"properties\":{{\"a\":{{\"type\":\"integer\"}},\"b\":{{\"type\":\"integer\"}}}},\"required\":[\"a\",\"b\"]}}}}],\"nextCursor\":\"p2\"}}}}\n")
}

pub fn page_two(id: &str) -> String {
    let schema = |properties: &str, required: &str| {
        format!("{{\"type\":\"object\",\"properties\":{{{properties}}},\"required\":[{required}]}}")
    };
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"tools\":[\
         {{\"name\":\"echo\",\"inputSchema\":{}}},\
         {{\"name\":\"ask\",\"inputSchema\":{{\"type\":\"object\"}}}},\
         {{\"name\":\"change\",\"inputSchema\":{{\"type\":\"object\"}}}},\
         {{\"name\":\"big\",\"inputSchema\":{{\"type\":\"object\"}}}},\
         {{\"name\":\"die\",\"inputSchema\":{{\"type\":\"object\"}}}},\
         {{\"name\":\"odd\",\"inputSchema\":{}}}]}}}}\n",
        schema(r#""text":{"type":"string","maxLength":40}"#, r#""text""#),
        schema(
            r#""n":{"type":"integer","x-unknown-rule":1,"frobnicate":true}"#,
            r#""n""#
        ),
    )
}

/// After `change`: one tool, `multiply`.
pub fn changed_page(id: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"tools\":[{{\"name\":\"multiply\",\"inputSchema\":{{\"type\":\"object\",\"properties\":{{\"x\":{{\"type\":\"number\"}}}},\"required\":[\"x\"]}}}}]}}}}\n")
}

pub fn log_notification() -> String {
    String::from("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"adding \\u00e9 \\ud83d\\ude00\"}}\n")
}

pub fn text_result(id: &str, text: &str) -> String {
    let mut escaped = String::new();
    let _ = json::write_escaped_str(&mut escaped, text);
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":{escaped}}}]}}}}\n")
}

pub fn ask_request() -> String {
    String::from("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}\n")
}

pub fn list_changed() -> String {
    String::from("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n")
}

pub fn empty_result(id: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}\n")
}

/// Serves standard input until it ends.
pub fn serve() {
    let record_path = std::env::var(RECORD).unwrap_or_default();
    let mut record = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(record_path)
        .expect("the record file opens");
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout();
    let mut line = Vec::new();
    let mut changed = false;
    let mut asking: Option<String> = None;
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        record.write_all(&line).expect("the record is written");
        record.flush().expect("the record is flushed");
        let mut reply = String::new();
        match json::parse_bytes(&line) {
            Err(_) => reply.push_str("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"parse error\"}}\n"),
            Ok(message) => {
                let id = message.get("id").map(ToString::to_string);
                let id = id.as_deref().unwrap_or("null");
                let params = message.get("params");
                let method = message.get("method").and_then(Value::as_str);
                let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
                let arguments = params.and_then(|p| p.get("arguments"));
                let int = |key: &str| {
                    arguments.and_then(|a| a.get(key)).and_then(Value::as_i64).unwrap_or(0)
                };
                match (method, name) {
                    (Some("initialize"), _) => reply.push_str(&initialized(id)),
                    (Some("tools/list"), _) if changed => reply.push_str(&changed_page(id)),
                    (Some("tools/list"), _) => {
                        let cursor = params.and_then(|p| p.get("cursor")).and_then(Value::as_str);
                        match cursor {
                            Some("p2") => reply.push_str(&page_two(id)),
                            _ => reply.push_str(&page_one(id)),
                        }
                    }
                    (Some("tools/call"), Some("add")) => {
                        reply.push_str(&log_notification());
                        reply.push_str(&text_result(id, &(int("a") + int("b")).to_string()));
                    }
                    (Some("tools/call"), Some("echo")) => {
                        reply.push_str(&text_result(id, &String::from_utf8_lossy(&line)))
                    }
                    (Some("tools/call"), Some("ask")) => {
                        asking = Some(id.to_string());
                        reply.push_str(&ask_request());
                    }
                    (Some("tools/call"), Some("change")) => {
                        changed = true;
                        reply.push_str(&list_changed());
                        reply.push_str(&text_result(id, "changed"));
                    }
                    (Some("tools/call"), Some("big")) => {
                        reply.push_str(&text_result(id, &"x".repeat(BIG)))
                    }
                    (Some("tools/call"), Some("die")) => std::process::exit(3),
                    (Some(method), _) if method.starts_with("notifications/") => {}
                    (None, _) if id == "\"s1\"" => {
                        let asked = asking.take().unwrap_or_else(|| "null".into());
                        reply.push_str(&text_result(&asked, "the client answered"));
                    }
                    (None, _) => {}
                    _ => reply.push_str(&empty_result(id)),
                }
            }
        }
        if out
            .write_all(reply.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
    }
}
