//! `toolgate check --tools TOOLS.json [--summary] [CALLS.jsonl]`: runs every line of a log
//! through the gate and prints one JSON verdict per call. Other programs read this output,
//! so its shape is a contract (issue #5):
//!
//! - one object per non-blank input line, in input order; blank lines are skipped but still
//!   counted in `line` (1-based);
//! - accepted: `{"line":3,"ok":true,"tool":"get_weather","id":"toolu_1"}`;
//! - rejected: `{"line":4,"ok":false,"kind":"unknown_tool","tool":"serch_orders","error":"…"}`,
//!   with `kind` one of the six rejection labels, `tool` when a name could be read, `path`
//!   for `schema_violation` (dotted, `""` for the arguments root), `id` when the call has one,
//!   and `error` last: the sentence the model would read;
//! - exit 0 when every call was accepted, 1 when any was rejected, 2 for a usage error, an
//!   unreadable or invalid tools file, or an unreadable calls file.
//!
//! A line that is not UTF-8 is a rejected call (`malformed_json`), not a crash, and a line
//! longer than the parser's size limit (plus a small margin) is rejected after being
//! measured, never held whole: memory stays flat whatever the input.

use crate::args::{set_once, Arg, Args, UsageError};
use crate::lines::{Line, LineReader};
use crate::tools;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;
use toolgate::json;
use toolgate::{Call, Gate, Rejection, RejectionKind};

/// The usage line.
pub const USAGE: &str = "usage: toolgate check --tools TOOLS.json [--summary] [CALLS.jsonl]";

/// `toolgate check --help`.
pub const HELP: &str = "\
toolgate check: run each raw tool call of a log through the gate

usage: toolgate check --tools TOOLS.json [--summary] [CALLS.jsonl]

  --tools TOOLS.json  the tools array (Anthropic, OpenAI, Responses, Gemini or MCP form)
  --summary           print calls, accepted and each rejection kind with its rate
                      to standard error
  CALLS.jsonl         one raw call per line; standard input when absent or '-'
  -h, --help          print this help

Prints one JSON object per non-blank line, in order:
  {\"line\":3,\"ok\":true,\"tool\":\"get_weather\",\"id\":\"toolu_1\"}
  {\"line\":4,\"ok\":false,\"kind\":\"unknown_tool\",\"tool\":\"serch_orders\",\"error\":\"...\"}
'path' is present for schema_violation, 'id' when the call has one.

Exit status: 0 every call accepted, 1 some call rejected, 2 usage error or unreadable input.";

/// Bytes beyond the parser's `max_bytes` still read whole, so that a line just over the
/// limit gets the parser's own `TooLarge` answer; longer lines are only measured.
const LINE_MARGIN: usize = 4096;

/// What `check` was asked to do.
#[derive(Debug)]
pub struct Options {
    tools: String,
    calls: Option<String>,
    summary: bool,
}

/// Reads `check`'s arguments; `Ok(None)` means help was asked for.
///
/// # Errors
/// A [`UsageError`] for an unknown flag, a missing value, a missing `--tools`, or more than
/// one calls file.
pub fn parse_args(mut args: Args) -> Result<Option<Options>, UsageError> {
    let mut tools = None;
    let mut calls = None;
    let mut summary = false;
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Flag(flag, inline) => match flag.as_str() {
                "-h" | "--help" => return Ok(None),
                "--tools" => args.value_once(&flag, inline, &mut tools)?,
                "--summary" => {
                    args.no_value(&flag, inline)?;
                    summary = true;
                }
                _ => return Err(args.unknown(&flag)),
            },
            Arg::Positional(path) => set_once(&args, &mut calls, "CALLS.jsonl", path)?,
        }
    }
    let tools = tools.ok_or_else(|| args.error("--tools TOOLS.json is required".into()))?;
    Ok(Some(Options {
        tools,
        calls,
        summary,
    }))
}

/// Runs `check`.
pub fn run(options: &Options) -> ExitCode {
    let gate = match tools::load_gate("check", &options.tools) {
        Ok(gate) => gate,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let input: Box<dyn Read> = match options.calls.as_deref() {
        None | Some("-") => {
            if io::stdin().is_terminal() {
                eprintln!("toolgate check: reading calls from the terminal, one per line; end with Ctrl-D");
            }
            Box::new(io::stdin())
        }
        Some(path) => match File::open(path) {
            Ok(file) => Box::new(file),
            Err(error) => {
                eprintln!("toolgate check: cannot read calls file '{path}': {error}");
                return ExitCode::from(2);
            }
        },
    };
    let calls_name = options.calls.as_deref().unwrap_or("standard input");
    let mut tally = Tally::default();
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let result = check_stream(&gate, input, &mut out, &mut tally).and_then(|()| out.flush());
    if options.summary {
        eprint!("{}", tally.table());
    }
    match result {
        Ok(()) => {}
        // The reader of our output went away (`| head`): stop quietly, like other filters.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        Err(error) => {
            eprintln!(
                "toolgate check: stopped after line {} of {calls_name}: {error}",
                tally.lines
            );
            return ExitCode::from(2);
        }
    }
    if tally.rejected_total() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Counts for `--summary`.
#[derive(Debug, Default)]
struct Tally {
    /// Lines read, blank ones included.
    lines: u64,
    /// Non-blank lines.
    calls: u64,
    accepted: u64,
    /// Per kind, in [`RejectionKind::ALL`] order.
    rejected: [u64; RejectionKind::ALL.len()],
}

/// Reads every line of `input`, writes one verdict per call to `out`.
fn check_stream(
    gate: &Gate,
    input: impl Read,
    out: &mut impl Write,
    tally: &mut Tally,
) -> io::Result<()> {
    let max_bytes = gate.limits().max_bytes;
    let cap = max_bytes.saturating_add(LINE_MARGIN);
    let mut reader = LineReader::new(input);
    let mut line = Vec::new();
    let mut record = String::new();
    loop {
        let read = reader.read_line(&mut line, cap, || out.flush())?;
        if read == Line::End {
            return Ok(());
        }
        tally.lines = tally.lines.saturating_add(1);
        if read == Line::Text && line.iter().all(|byte| b" \t\r".contains(byte)) {
            continue;
        }
        tally.calls = tally.calls.saturating_add(1);
        record.clear();
        let kind = match read {
            Line::TooLong { bytes } => {
                let text = too_long_text(bytes, max_bytes);
                write_rejected(
                    &mut record,
                    tally.lines,
                    RejectionKind::MalformedJson,
                    None,
                    &text,
                );
                Some(RejectionKind::MalformedJson)
            }
            // Bytes that are not UTF-8 are a malformed call (the gate's answer names the
            // first bad byte), never a crash.
            _ => match gate.check_call_bytes(&line) {
                Ok(call) => {
                    write_accepted(&mut record, tally.lines, &call);
                    None
                }
                Err(rejection) => {
                    write_rejection(&mut record, tally.lines, &rejection);
                    Some(rejection.kind())
                }
            },
        };
        match kind {
            None => tally.accepted = tally.accepted.saturating_add(1),
            Some(kind) => tally.reject(kind),
        }
        record.push('\n');
        out.write_all(record.as_bytes())?;
    }
}

/// The answer for a line too long to read whole: the gate's words for a call over the size
/// limit (`malformed_json`, like the gate's own answer for a line just over the limit), with
/// the line's real length.
fn too_long_text(bytes: u64, limit: usize) -> String {
    format!(
        "The call cannot be read: the input is {bytes} bytes, more than the limit of {limit}. \
         Send a smaller call, with fewer or shorter items and less nesting."
    )
}

/// `{"line":N,"ok":true,"tool":…,"id":…}`.
fn write_accepted(record: &mut String, line: u64, call: &Call<'_>) {
    // Writing to a `String` cannot fail.
    let _ = write!(record, "{{\"line\":{line},\"ok\":true,\"tool\":");
    let _ = json::write_escaped_str(record, &call.name);
    if let Some(id) = call.id.as_deref() {
        record.push_str(",\"id\":");
        let _ = json::write_escaped_str(record, id);
    }
    record.push('}');
}

/// `{"line":N,"ok":false,"kind":…,"tool":…,"path":…,"id":…,"error":…}`.
fn write_rejection(record: &mut String, line: u64, rejection: &Rejection) {
    let text = rejection.to_string();
    let fields = Fields {
        tool: rejection.tool(),
        path: rejection.path(),
        id: rejection.id(),
    };
    write_rejected(record, line, rejection.kind(), Some(fields), &text);
}

/// The optional members of a rejected line.
struct Fields<'r> {
    tool: Option<&'r str>,
    path: Option<&'r str>,
    id: Option<&'r str>,
}

fn write_rejected(
    record: &mut String,
    line: u64,
    kind: RejectionKind,
    fields: Option<Fields<'_>>,
    error: &str,
) {
    let _ = write!(
        record,
        "{{\"line\":{line},\"ok\":false,\"kind\":\"{}\"",
        kind.label()
    );
    let fields = fields.unwrap_or(Fields {
        tool: None,
        path: None,
        id: None,
    });
    for (name, value) in [
        ("tool", fields.tool),
        ("path", fields.path),
        ("id", fields.id),
    ] {
        if let Some(value) = value {
            let _ = write!(record, ",\"{name}\":");
            let _ = json::write_escaped_str(record, value);
        }
    }
    record.push_str(",\"error\":");
    let _ = json::write_escaped_str(record, error);
    record.push('}');
}

impl Tally {
    fn reject(&mut self, kind: RejectionKind) {
        let index = RejectionKind::ALL.iter().position(|k| *k == kind);
        if let Some(count) = index.and_then(|index| self.rejected.get_mut(index)) {
            *count = count.saturating_add(1);
        }
    }

    fn rejected_total(&self) -> u64 {
        self.rejected
            .iter()
            .fold(0u64, |total, count| total.saturating_add(*count))
    }

    /// The `--summary` table: calls, accepted, then each kind with its count and rate.
    fn table(&self) -> String {
        let mut table = String::new();
        let _ = writeln!(table, "{:<22}{:>10}{:>10}", "", "count", "rate");
        let _ = writeln!(table, "{:<22}{:>10}", "calls", self.calls);
        row(&mut table, "accepted", self.accepted, self.calls);
        for (kind, count) in RejectionKind::ALL.iter().zip(self.rejected) {
            row(&mut table, kind.label(), count, self.calls);
        }
        if self.lines > self.calls {
            let blank = self.lines.saturating_sub(self.calls);
            let lines = if blank == 1 { "line" } else { "lines" };
            let _ = writeln!(table, "({blank} blank {lines} skipped)");
        }
        table
    }
}

fn row(table: &mut String, label: &str, count: u64, calls: u64) {
    let rate = if calls == 0 {
        String::from("-")
    } else {
        // Precision loss above 2^53 calls does not matter for a two-decimal percentage.
        format!("{:.2} %", count as f64 * 100.0 / calls as f64)
    };
    let _ = writeln!(table, "{label:<22}{count:>10}{rate:>10}");
}
