//! `toolgate check --tools TOOLS.json [--lenient] [--no-format-checks] [--summary]
//! [CALLS.jsonl]`: runs every line of a log through the gate and prints one JSON verdict
//! per call. Other programs read this output, so its shape is a contract (issue #5):
//!
//! - one object per non-blank input line, in input order; blank lines are skipped but still
//!   counted in `line` (1-based);
//! - accepted: `{"line":3,"ok":true,"tool":"get_weather","id":"toolu_1"}`;
//! - rejected: `{"line":4,"ok":false,"kind":"unknown_tool","tool":"serch_orders","error":"…"}`,
//!   with `kind` one of the six rejection labels, `tool` when a name could be read, `path`
//!   for `schema_violation` (dotted, `""` for the arguments root), `id` when the call has one,
//!   and `error` last: the sentence the model would read;
//! - a line may also hold a whole assistant turn (an OpenAI chat message or completion, an
//!   Anthropic message, a Responses output or response, a Gemini content or response, a
//!   list of calls): then one object per call of the turn, in call order, each with `"call"`
//!   (its index in the turn, from 0) after `line`, and the same other fields; a turn without
//!   calls prints nothing. A line that is one call prints exactly as above, without `call`;
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
use toolgate::json::{self, Kind};
use toolgate::{EnvelopeProblem, Gate, Rejection, RejectionKind, Turn};

/// The usage line.
pub const USAGE: &str = concat!("usage: ", check_synopsis!());

/// `toolgate check --help`.
pub const HELP: &str = concat!(
    "toolgate check: run each raw tool call of a log through the gate\n\nusage: ",
    check_synopsis!(),
    "

  --tools TOOLS.json  the tools array (Anthropic, OpenAI, Responses, Gemini or MCP form)
  --lenient           load a keyword toolgate cannot enforce (or a provider's built-in
                      tool) instead of refusing the file; each is listed on standard error
  --no-format-checks  read every 'format' as an annotation (draft 2020-12's default):
                      no value is refused for its format
  --summary           print calls, accepted and each rejection kind with its rate
                      to standard error
  CALLS.jsonl         one raw call, or one whole assistant turn, per line; standard
                      input when absent or '-'
  -h, --help          print this help

Prints one JSON object per non-blank line, in order:
  {\"line\":3,\"ok\":true,\"tool\":\"get_weather\",\"id\":\"toolu_1\"}
  {\"line\":4,\"ok\":false,\"kind\":\"unknown_tool\",\"tool\":\"serch_orders\",\"error\":\"...\"}
'path' is present for schema_violation, 'id' when the call has one. A line holding a
whole turn prints one object per call, with \"call\" (its index in the turn) after
\"line\"; --summary counts calls, not lines.

Exit status: 0 every call accepted, 1 some call rejected, 2 usage error or unreadable input."
);

/// Bytes beyond the parser's `max_bytes` still read whole, so that a line just over the
/// limit gets the parser's own `TooLarge` answer; longer lines are only measured.
const LINE_MARGIN: usize = 4096;

/// What `check` was asked to do.
#[derive(Debug)]
pub struct Options {
    tools: String,
    calls: Option<String>,
    summary: bool,
    lenient: bool,
    formats: bool,
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
    let mut lenient = false;
    let mut formats = true;
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Flag(flag, inline) => match flag.as_str() {
                "-h" | "--help" => return Ok(None),
                "--tools" => args.value_once(&flag, inline, &mut tools)?,
                "--summary" => {
                    args.no_value(&flag, inline)?;
                    summary = true;
                }
                "--lenient" => {
                    args.no_value(&flag, inline)?;
                    lenient = true;
                }
                "--no-format-checks" => {
                    args.no_value(&flag, inline)?;
                    formats = false;
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
        lenient,
        formats,
    }))
}

/// Runs `check`.
pub fn run(options: &Options) -> ExitCode {
    let gate = match tools::load_gate("check", &options.tools, options.lenient, options.formats) {
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
    nonblank: u64,
    /// Turns read that held no call.
    empty_turns: u64,
    /// Calls judged: one per line of one call, one per call of a turn.
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
        tally.nonblank = tally.nonblank.saturating_add(1);
        record.clear();
        let at = At {
            line: tally.lines,
            call: None,
        };
        match read {
            Line::TooLong { bytes } => {
                let text = too_long_text(bytes, max_bytes);
                write_rejected(&mut record, at, RejectionKind::MalformedJson, None, &text);
                tally.count(Some(RejectionKind::MalformedJson));
            }
            // Bytes that are not UTF-8 are a malformed call (the gate's answer names the
            // first bad byte), never a crash.
            _ => match gate.verdict_bytes(&line) {
                Ok(call) => {
                    write_accepted(&mut record, at, &call.name, call.id.as_deref());
                    tally.count(None);
                }
                Err(rejection) => match read_turn(gate, &line, &rejection) {
                    Some(turn) => write_turn(&mut record, tally, &turn),
                    None => {
                        write_rejection(&mut record, at, &rejection);
                        tally.count(Some(rejection.kind()));
                    }
                },
            },
        }
        out.write_all(record.as_bytes())?;
    }
}

/// The line as a whole turn, when it is not one call but reads as a turn.
///
/// Only lines that no call shape fits are tried: an object with no `name` and no nested
/// call, a list, or a `"type"` that is no call's (an Anthropic message's `"message"`). Every
/// shape of one call has one of those, so a line that is one call, accepted or refused,
/// keeps its one verdict.
fn read_turn<'l>(gate: &Gate, line: &'l [u8], rejection: &Rejection) -> Option<Turn<'l>> {
    let Rejection::BadEnvelope { problem, .. } = rejection else {
        return None;
    };
    let no_call_shape = matches!(
        problem,
        EnvelopeProblem::MissingName { field: "name" }
            | EnvelopeProblem::NotAnObject { found: Kind::Array }
            | EnvelopeProblem::NotACall { .. }
    );
    if !no_call_shape {
        return None;
    }
    let text = std::str::from_utf8(line).ok()?;
    gate.check_turn(text).ok()
}

/// One verdict per call of `turn`, each with its index in the turn.
fn write_turn(record: &mut String, tally: &mut Tally, turn: &Turn<'_>) {
    if turn.calls.is_empty() {
        tally.empty_turns = tally.empty_turns.saturating_add(1);
    }
    for (index, call) in turn.calls.iter().enumerate() {
        let at = At {
            line: tally.lines,
            call: Some(index),
        };
        match &call.verdict {
            Ok(checked) => {
                write_accepted(record, at, &checked.name, checked.id.as_deref());
                tally.count(None);
            }
            Err(rejection) => {
                write_rejection(record, at, rejection);
                tally.count(Some(rejection.kind()));
            }
        }
    }
}

/// Where a verdict belongs: its line, and its index in the line's turn when the line held
/// a turn.
#[derive(Clone, Copy)]
pub struct At {
    /// The line (or message) number, from 1.
    pub line: u64,
    /// The call's index in the line's turn.
    pub call: Option<usize>,
}

/// `{"line":N` or `{"line":N,"call":I`, the start of every verdict.
fn write_at(record: &mut String, at: At) {
    // Writing to a `String` cannot fail.
    let _ = write!(record, "{{\"line\":{}", at.line);
    if let Some(call) = at.call {
        let _ = write!(record, ",\"call\":{call}");
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

/// `{"line":N,"ok":true,"tool":…,"id":…}` and its newline.
pub fn write_accepted(record: &mut String, at: At, name: &str, id: Option<&str>) {
    write_passed(record, at, true, name, id);
}

/// `{"line":N,"ok":true,"tool":…,"id":…}` for a call checked, or with `"unchecked":true`
/// after `"ok":true` for one passed on without a check (`toolgate mcp`, a tool whose schema
/// the server did not give), and its newline.
pub fn write_passed(record: &mut String, at: At, checked: bool, name: &str, id: Option<&str>) {
    write_at(record, at);
    record.push_str(",\"ok\":true");
    if !checked {
        record.push_str(",\"unchecked\":true");
    }
    record.push_str(",\"tool\":");
    let _ = json::write_escaped_str(record, name);
    if let Some(id) = id {
        record.push_str(",\"id\":");
        let _ = json::write_escaped_str(record, id);
    }
    record.push_str("}\n");
}

/// `{"line":N,"ok":false,"kind":…,"tool":…,"path":…,"id":…,"error":…}` and its newline.
pub fn write_rejection(record: &mut String, at: At, rejection: &Rejection) {
    let text = rejection.to_string();
    let fields = Fields {
        tool: rejection.tool(),
        path: rejection.path(),
        id: rejection.id(),
    };
    write_rejected(record, at, rejection.kind(), Some(fields), &text);
}

/// The optional members of a rejected line.
struct Fields<'r> {
    tool: Option<&'r str>,
    path: Option<&'r str>,
    id: Option<&'r str>,
}

fn write_rejected(
    record: &mut String,
    at: At,
    kind: RejectionKind,
    fields: Option<Fields<'_>>,
    error: &str,
) {
    write_at(record, at);
    let _ = write!(record, ",\"ok\":false,\"kind\":\"{}\"", kind.label());
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
    record.push_str("}\n");
}

impl Tally {
    /// Counts one call: accepted (`None`) or refused with `kind`.
    fn count(&mut self, kind: Option<RejectionKind>) {
        self.calls = self.calls.saturating_add(1);
        match kind {
            None => self.accepted = self.accepted.saturating_add(1),
            Some(kind) => self.reject(kind),
        }
    }

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
        if self.lines > self.nonblank {
            let blank = self.lines.saturating_sub(self.nonblank);
            let lines = if blank == 1 { "line" } else { "lines" };
            let _ = writeln!(table, "({blank} blank {lines} skipped)");
        }
        if self.empty_turns > 0 {
            let turns = if self.empty_turns == 1 {
                "turn"
            } else {
                "turns"
            };
            let _ = writeln!(table, "({} {turns} without calls)", self.empty_turns);
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
