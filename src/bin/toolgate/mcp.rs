//! `toolgate mcp`: a stdio proxy in front of an MCP server. It starts the server and relays
//! newline-delimited JSON-RPC both ways, byte for byte and in order; each `tools/call` is
//! checked by [`toolgate::mcp::Proxy`] before the server sees it, and a refused call is
//! answered by the proxy.
//!
//! Two threads, one per direction, so that neither side waits on the other: the client's
//! lines go to the server's input (or, refused, back to the client), the server's lines go
//! to the client. Both write to the client through one lock, a whole line at a time, so
//! lines never interleave. A server line is learned from before it is relayed: a client
//! that calls a tool the moment it reads the `tools/list` result finds the tool known.
//!
//! The server's standard error passes through. The proxy's own notes go to standard error,
//! each line starting `toolgate mcp:`. When the client closes, the server's input is
//! closed; when the server's output ends, the proxy waits for it and exits with its code.

use crate::args::{Arg, Args, UsageError};
use crate::check::{write_passed, write_rejection, At};
use crate::mcp_read::{content, read_message, Message};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::process::{ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use toolgate::mcp::{Options as ProxyOptions, Proxy, Relay, Verdict};

/// The usage line.
pub const USAGE: &str = concat!("usage: ", mcp_synopsis!());

/// `toolgate mcp --help`.
pub const HELP: &str = concat!(
    "toolgate mcp: check every tools/call before an MCP server (stdio) sees it\n\nusage: ",
    mcp_synopsis!(),
    "

  --log FILE          one JSON verdict per tools/call, as 'toolgate check' prints them,
                      with \"line\" the client message's number; a call passed on
                      unchecked has \"unchecked\":true
  --metrics FILE      the counts as Prometheus text, rewritten every second and at exit
  --protocol-errors   answer a call to an unknown tool with a JSON-RPC error (-32602)
                      instead of a tool result with isError
  --max-bytes N       the largest message read (default 16777216); a client message
                      over it is not forwarded, a server message over it is relayed unread
  COMMAND [ARGS...]   the server to start; its standard error passes through
  -h, --help          print this help

The tools are learned from the server's tools/list results (every page; again after
notifications/tools/list_changed). A refused call is answered under its id with a
tool result whose text is the rejection's sentence (isError: true), and never reaches
the server. A call to a tool whose schema is not known passes, counted. At exit, the
counts go to standard error.

Exit status: the server's; 2 for a usage error, a server that cannot be started, or a
log or metrics file that cannot be written."
);

/// Bytes of an over-long client message kept to read its id from.
const HEAD_BYTES: usize = 4096;

/// Bytes beyond the limit still read whole, so that a message just over it gets the
/// parser's own answer; longer ones are only measured.
const LINE_MARGIN: usize = 4096;

/// What `mcp` was asked to do.
#[derive(Debug)]
pub struct Options {
    log: Option<String>,
    metrics: Option<String>,
    proxy: ProxyOptions,
    command: Vec<String>,
}

/// Reads `mcp`'s arguments; `Ok(None)` means help was asked for. The first word that is no
/// option starts the server's command line, whose words are all its own.
///
/// # Errors
/// A [`UsageError`] for an unknown flag, a missing or bad value, or no command.
pub fn parse_args(mut args: Args) -> Result<Option<Options>, UsageError> {
    let mut log = None;
    let mut metrics = None;
    let mut max_bytes = None;
    let mut proxy = ProxyOptions::default();
    let mut command = Vec::new();
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Flag(flag, inline) => match flag.as_str() {
                "-h" | "--help" => return Ok(None),
                "--log" => args.value_once(&flag, inline, &mut log)?,
                "--metrics" => args.value_once(&flag, inline, &mut metrics)?,
                "--max-bytes" => args.value_once(&flag, inline, &mut max_bytes)?,
                "--protocol-errors" => {
                    args.no_value(&flag, inline)?;
                    proxy.protocol_errors = true;
                }
                _ => return Err(args.unknown(&flag)),
            },
            Arg::Positional(word) => {
                command.push(word);
                command.extend(args.rest());
            }
        }
    }
    if let Some(text) = max_bytes {
        proxy.max_bytes = match text.parse::<usize>() {
            Ok(bytes) if bytes > 0 => bytes,
            _ => {
                let problem = format!("--max-bytes needs a positive number of bytes, not '{text}'");
                return Err(args.error(problem));
            }
        };
    }
    if command.is_empty() {
        return Err(args.error("the server's command is required, after '--'".into()));
    }
    Ok(Some(Options {
        log,
        metrics,
        proxy,
        command,
    }))
}

/// Runs the proxy until the server's output ends; exits with the server's code.
pub fn run(options: &Options) -> ExitCode {
    let log = match options.log.as_deref().map(File::create).transpose() {
        Ok(log) => log.map(BufWriter::new),
        Err(error) => {
            let path = options.log.as_deref().unwrap_or_default();
            eprintln!("toolgate mcp: cannot write log file '{path}': {error}");
            return ExitCode::from(2);
        }
    };
    // The metrics file is written once before the server starts, so that a path that
    // cannot be written is a usage problem now, not a note every second.
    if let Some(path) = &options.metrics {
        if let Err(error) = write_atomically(path, &Proxy::new(options.proxy).prometheus()) {
            eprintln!("toolgate mcp: cannot write metrics file '{path}': {error}");
            return ExitCode::from(2);
        }
    }
    let (program, server_args) = match options.command.split_first() {
        Some(split) => split,
        None => return ExitCode::from(2),
    };
    let spawned = Command::new(program)
        .args(server_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn();
    let mut server = match spawned {
        Ok(server) => server,
        Err(error) => {
            eprintln!("toolgate mcp: cannot start the server '{program}': {error}");
            return ExitCode::from(2);
        }
    };
    let (Some(server_in), Some(server_out)) = (server.stdin.take(), server.stdout.take()) else {
        eprintln!("toolgate mcp: the server's pipes could not be opened");
        let _ = server.kill();
        return ExitCode::from(2);
    };
    let shared = Arc::new(Shared {
        proxy: Mutex::new(Proxy::new(options.proxy)),
        client: Mutex::new(ClientOut {
            out: io::stdout(),
            failed: false,
        }),
    });
    let cap = options.proxy.max_bytes.saturating_add(LINE_MARGIN);
    let from_client = Arc::clone(&shared);
    // The client thread may be blocked reading the client when the server ends; the
    // process exits without waiting for it.
    let _client = std::thread::spawn(move || client_to_server(&from_client, server_in, log, cap));
    if let Some(path) = options.metrics.clone() {
        let metrics = Arc::clone(&shared);
        let _metrics = std::thread::spawn(move || {
            let mut said = false;
            loop {
                std::thread::sleep(Duration::from_secs(1));
                // Written under the proxy's lock: the last write, at exit, takes it too, so
                // a periodic write never lands after it.
                let proxy = lock(&metrics.proxy);
                match write_atomically(&path, &proxy.prometheus()) {
                    Ok(()) => said = false,
                    Err(error) if !said => {
                        said = true;
                        eprintln!("toolgate mcp: cannot write metrics file '{path}': {error}");
                    }
                    Err(_) => {}
                }
            }
        });
    }
    let from_server = Arc::clone(&shared);
    let relayed = std::thread::spawn(move || server_to_client(&from_server, server_out, cap));
    if relayed.join().is_err() {
        eprintln!("toolgate mcp: the relay from the server stopped unexpectedly");
    }
    let status = server.wait();
    finish(&shared, options, status)
}

/// What both directions share: the proxy's state and the client's output.
struct Shared {
    proxy: Mutex<Proxy>,
    client: Mutex<ClientOut>,
}

/// The client's input end: standard output, until a write fails.
struct ClientOut {
    out: io::Stdout,
    /// A write failed (the client went away): later lines are dropped, said once.
    failed: bool,
}

impl ClientOut {
    /// Writes `bytes` and flushes, saying on standard error when the client stops reading.
    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.failed {
            return Ok(());
        }
        let written = self.out.write_all(bytes).and_then(|()| self.out.flush());
        if let Err(error) = &written {
            self.failed = true;
            eprintln!(
                "toolgate mcp: cannot write to the client ({error}); the server's messages \
                 are dropped from now on"
            );
        }
        Ok(())
    }
}

/// Locks `mutex`; a thread that panicked while holding it left whole lines behind, so a
/// poisoned lock is used as is.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The client's lines, until it closes: each forwarded to the server or answered.
fn client_to_server(
    shared: &Shared,
    mut server_in: ChildStdin,
    mut log: Option<BufWriter<File>>,
    cap: usize,
) {
    let mut input = BufReader::with_capacity(64 * 1024, io::stdin());
    let mut line = Vec::new();
    let mut head = Vec::new();
    let mut record = String::new();
    loop {
        head.clear();
        let mut keep_head = |part: &[u8]| {
            let room = HEAD_BYTES.saturating_sub(head.len());
            head.extend_from_slice(part.get(..room.min(part.len())).unwrap_or_default());
            Ok(())
        };
        let read = read_message(&mut input, &mut line, cap, &mut keep_head);
        let (relay, notes, verdicts) = {
            let mut proxy = lock(&shared.proxy);
            let relay = match read {
                Ok(Message::Line) => proxy.from_client(content(&line)),
                Ok(Message::TooLong { bytes }) => proxy.from_client_too_long(&head, bytes),
                Ok(Message::End) => {
                    eprintln!(
                        "toolgate mcp: the client closed its output; closing the server's input"
                    );
                    break;
                }
                Err(error) => {
                    eprintln!("toolgate mcp: cannot read from the client ({error}); closing the server's input");
                    break;
                }
            };
            (relay, proxy.take_notes(), proxy.take_verdicts())
        };
        say(&notes);
        if let Some(file) = &mut log {
            record.clear();
            for verdict in &verdicts {
                write_verdict(&mut record, verdict);
            }
            if let Err(error) = file
                .write_all(record.as_bytes())
                .and_then(|()| file.flush())
            {
                eprintln!("toolgate mcp: cannot write the log ({error}); logging stops");
                log = None;
            }
        }
        match relay {
            Relay::Forward => {
                if let Err(error) = server_in.write_all(&line) {
                    eprintln!(
                        "toolgate mcp: cannot write to the server ({error}); it may have exited"
                    );
                    break;
                }
            }
            Relay::Answer(mut answer) => {
                answer.push('\n');
                let _ = lock(&shared.client).write(answer.as_bytes());
            }
            Relay::Drop => {}
        }
    }
    // Dropping the pipe closes the server's input: its signal to finish.
    drop(server_in);
}

/// The server's lines, until its output ends: each learned from, then relayed.
fn server_to_client(shared: &Shared, server_out: ChildStdout, cap: usize) {
    let mut input = BufReader::with_capacity(64 * 1024, server_out);
    let mut line = Vec::new();
    loop {
        // An over-long line is relayed in parts as it comes, under the client's lock so that
        // no answer lands inside it.
        let mut held: Option<MutexGuard<'_, ClientOut>> = None;
        let mut relay_part =
            |part: &[u8]| held.get_or_insert_with(|| lock(&shared.client)).write(part);
        let read = read_message(&mut input, &mut line, cap, &mut relay_part);
        drop(held);
        let notes = {
            let mut proxy = lock(&shared.proxy);
            match &read {
                Ok(Message::Line) => proxy.from_server(content(&line)),
                Ok(Message::TooLong { bytes }) => proxy.from_server_too_long(*bytes),
                Ok(Message::End) | Err(_) => {}
            }
            proxy.take_notes()
        };
        say(&notes);
        match read {
            Ok(Message::Line) => {
                let _ = lock(&shared.client).write(&line);
            }
            Ok(Message::TooLong { .. }) => {}
            Ok(Message::End) => {
                eprintln!("toolgate mcp: the server closed its output");
                return;
            }
            Err(error) => {
                eprintln!("toolgate mcp: cannot read from the server ({error})");
                return;
            }
        }
    }
}

/// The proxy's notes, one line each.
fn say(notes: &[String]) {
    for note in notes {
        eprintln!("toolgate mcp: {note}");
    }
}

/// One verdict line, as `toolgate check` writes them.
fn write_verdict(record: &mut String, verdict: &Verdict) {
    match verdict {
        Verdict::Accepted { line, id, tool } => {
            write_passed(record, at(*line), true, tool, id.as_deref());
        }
        Verdict::Unchecked { line, id, tool } => {
            write_passed(record, at(*line), false, tool, id.as_deref());
        }
        Verdict::Refused { line, rejection } => write_rejection(record, at(*line), rejection),
    }
}

fn at(line: u64) -> At {
    At { line, call: None }
}

/// The summary, the last metrics and the server's exit code.
fn finish(
    shared: &Shared,
    options: &Options,
    status: io::Result<std::process::ExitStatus>,
) -> ExitCode {
    let proxy = lock(&shared.proxy);
    eprintln!("toolgate mcp: summary\n{}", proxy.counts());
    eprintln!("calls passed unchecked: {}", proxy.unchecked());
    if !proxy.lenient_tools().is_empty() {
        eprintln!(
            "tools checked leniently: {}",
            proxy.lenient_tools().join(", ")
        );
    }
    if !proxy.unloadable_tools().is_empty() {
        eprintln!(
            "tools not checked (schema not loaded): {}",
            proxy.unloadable_tools().join(", ")
        );
    }
    let mut code = match status {
        Ok(status) => match status.code() {
            Some(code) => {
                eprintln!("toolgate mcp: the server exited with code {code}");
                ExitCode::from(u8::try_from(code & 0xff).unwrap_or(1))
            }
            None => {
                eprintln!("toolgate mcp: the server was ended by a signal ({status})");
                ExitCode::from(1)
            }
        },
        Err(error) => {
            eprintln!("toolgate mcp: cannot wait for the server: {error}");
            ExitCode::from(1)
        }
    };
    if let Some(path) = &options.metrics {
        if let Err(error) = write_atomically(path, &proxy.prometheus()) {
            eprintln!("toolgate mcp: cannot write metrics file '{path}': {error}");
            code = ExitCode::from(2);
        }
    }
    code
}

/// Writes `text` to `path` through `path.tmp` and a rename, so that a reader never sees a
/// half-written file.
fn write_atomically(path: &str, text: &str) -> io::Result<()> {
    let temporary = format!("{path}.tmp");
    std::fs::write(&temporary, text)?;
    std::fs::rename(&temporary, path)
}
