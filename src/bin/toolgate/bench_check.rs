//! `toolgate bench check --tools TOOLS.json CALLS.jsonl`: what `Gate::check_call` costs on a
//! real log, measured in process: median nanoseconds per call over several passes, calls per
//! second, and heap allocations per call from the counting allocator, split into accepted
//! and rejected calls (a rejection should cost no more than an accept plus its error text,
//! so the text is measured as a row of its own).
//!
//! With `--verdicts`, four more rows: `Gate::verdict` (the check-only answer, no call
//! handed back) on the accepted and rejected calls, and the validator alone
//! (`ToolSpec::validate` on arguments parsed beforehand) on the accepted ones, both on the
//! trees as `check_call` returns them and on exact-size copies of them.
//!
//! With `--stream`, the streaming check ([`toolgate::CallStream`]) fed each call's raw text
//! in 16-byte chunks, finish included, on the accepted and rejected calls (to compare with
//! the first two rows), and the share of each rejected call's bytes received before the
//! stream refused it (the whole call when it was only refused at the end), in both the raw
//! form and the provider form (the name, then the arguments text in 16-byte chunks); and the
//! provider form's cost on the accepted calls.
//!
//! With `--turns N`, [`Gate::check_turn`] on turns of N calls (each a JSON array of N
//! consecutive lines that are JSON: a list of calls is a turn form), timed per call against
//! [`Gate::check_call`] on the same calls one by one, with the ratio: a turn should cost
//! no more than its calls checked alone, plus the turn's own reading. With `--events` as
//! well, the same turns as each provider's stream events, read by [`toolgate::TurnStream`]
//! against the turn checked whole (`bench_events.rs`).
//!
//! The whole log is read into memory first so that the passes time the gate, not the disk.
//! Speed is reported, never asserted: no test depends on these numbers.

use crate::args::{set_once, Arg, Args, UsageError};
use crate::{bench, bench_events, out, tools};
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;
use toolgate::Gate;

/// The usage line.
pub const USAGE: &str = concat!("usage: ", bench_check_synopsis!());

/// `toolgate bench check --help`.
pub const HELP: &str = concat!(
    "toolgate bench check: time Gate::check_call on a log of raw calls\n\nusage: ",
    bench_check_synopsis!(),
    "

  --tools TOOLS.json  the tools array
  --passes N          timed passes over the log (default ",
    bench::default_passes!(),
    "); the median is shown
  --verdicts          also time Gate::verdict (check only, no call returned) and the
                      validator alone on already-parsed arguments (as check_call
                      returns them, and copied at their exact size)
  --stream            also time the streaming check fed 16-byte chunks (the raw call, and
                      the provider form: the name, then the arguments text), and report
                      the share of rejected calls' bytes received before their refusal
  --turns N           also time Gate::check_turn on turns of N calls (JSON arrays of N
                      consecutive lines) against the same calls checked one by one
  --events            with --turns N: also time each turn as each provider's stream
                      events (OpenAI chat, Anthropic, Responses, Gemini) fed to a
                      TurnStream and finished, against check_turn on the same turn
                      whole and json::parse on the events alone, in ns per turn
  CALLS.jsonl         one raw call per line
  -h, --help          print this help

Build with --release (cargo run --release -- bench check ...): a debug build's numbers
say nothing about the library."
);

/// What `bench check` was asked to do.
#[derive(Debug)]
pub struct Options {
    tools: String,
    calls: String,
    passes: usize,
    verdicts: bool,
    stream: bool,
    /// Calls per turn for the turn rows, if asked.
    turns: Option<usize>,
    /// The turns also as stream events (needs `turns`).
    events: bool,
}

/// Reads `bench check`'s arguments; `Ok(None)` means help was asked for.
///
/// # Errors
/// A [`UsageError`] for an unknown flag, a missing or bad value, or a missing file.
pub fn parse_args(mut args: Args) -> Result<Option<Options>, UsageError> {
    let mut tools = None;
    let mut calls = None;
    let mut passes = None;
    let mut verdicts = false;
    let mut stream = false;
    let mut turns = None;
    let mut events = false;
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Flag(flag, inline) => match flag.as_str() {
                "-h" | "--help" => return Ok(None),
                "--verdicts" => verdicts = true,
                "--stream" => stream = true,
                "--events" => events = true,
                "--tools" => args.value_once(&flag, inline, &mut tools)?,
                "--passes" => args.value_once(&flag, inline, &mut passes)?,
                "--turns" => args.value_once(&flag, inline, &mut turns)?,
                _ => return Err(args.unknown(&flag)),
            },
            Arg::Positional(path) => set_once(&args, &mut calls, "CALLS.jsonl", path)?,
        }
    }
    let tools = tools.ok_or_else(|| args.error("--tools TOOLS.json is required".into()))?;
    let calls = calls.ok_or_else(|| args.error("CALLS.jsonl is required".into()))?;
    let passes = bench::count_option(&args, "--passes", passes, bench::MAX_PASSES)?
        .unwrap_or(bench::DEFAULT_PASSES);
    let turns = bench::count_option(&args, "--turns", turns, MAX_TURN)?;
    if events && turns.is_none() {
        // The events are of turns, so they take the turns' size rather than a second one.
        let problem = "--events needs --turns N (the calls in each streamed turn)";
        return Err(args.error(problem.into()));
    }
    Ok(Some(Options {
        tools,
        calls,
        passes,
        verdicts,
        stream,
        turns,
        events,
    }))
}

/// One measured group of calls (or turns).
pub struct Measure {
    label: &'static str,
    n_calls: usize,
    /// Median over the passes, per call; `None` for an empty group.
    pub median_ns: Option<f64>,
    /// Heap allocations per call.
    pub allocations: f64,
    bytes: f64,
}

/// Runs `bench check`.
pub fn run(options: &Options) -> ExitCode {
    let gate = match tools::load_gate("bench check", &options.tools, false, true) {
        Ok(gate) => gate,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let bytes = match std::fs::read(&options.calls) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!(
                "toolgate bench check: cannot read calls file '{}': {error}",
                options.calls
            );
            return ExitCode::from(2);
        }
    };
    let mut accepted: Vec<&str> = Vec::new();
    let mut rejected: Vec<&str> = Vec::new();
    let mut not_utf8 = 0usize;
    for line in bytes.split(|byte| *byte == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(|byte| b" \t".contains(byte)) {
            continue;
        }
        match std::str::from_utf8(line) {
            Ok(text) if gate.check_call(text).is_ok() => accepted.push(text),
            Ok(text) => rejected.push(text),
            Err(_) => not_utf8 = not_utf8.saturating_add(1),
        }
    }
    if cfg!(debug_assertions) {
        eprintln!("toolgate bench check: warning: a debug build; use --release for real numbers");
    }
    // Measure the heap as a long-running agent process has it (see `bench::warm_heap`).
    bench::warm_heap();
    let mut measures = vec![
        measure(&gate, "accepted", &accepted, options.passes, Run::Call),
        measure(&gate, "rejected", &rejected, options.passes, Run::Call),
        measure(
            &gate,
            "rejected + error text",
            &rejected,
            options.passes,
            Run::CallAndText,
        ),
    ];
    if options.verdicts {
        measures.push(measure(
            &gate,
            "check-only accepted",
            &accepted,
            options.passes,
            Run::Verdict,
        ));
        measures.push(measure(
            &gate,
            "check-only rejected",
            &rejected,
            options.passes,
            Run::Verdict,
        ));
        measures.extend(measure_validate(&gate, &accepted, options.passes));
    }
    if options.stream {
        let passes = options.passes;
        measures.push(measure(
            &gate,
            "stream 16B accepted",
            &accepted,
            passes,
            Run::Stream,
        ));
        measures.push(measure(
            &gate,
            "stream 16B rejected",
            &rejected,
            passes,
            Run::Stream,
        ));
        measures.push(measure_provider_stream(&gate, &accepted, passes));
    }
    let mut turn_ratio = None;
    let mut events_report = None;
    if let Some(per_turn) = options.turns {
        let lines: Vec<&str> = bytes
            .split(|byte| *byte == b'\n')
            .filter_map(|line| std::str::from_utf8(line).ok())
            .filter(|line| toolgate::json::parse(line).is_ok())
            .collect();
        let (one_by_one, whole) = measure_turns(&gate, &lines, per_turn, options.passes);
        if let (Some(alone), Some(turn)) = (one_by_one.median_ns, whole.median_ns) {
            // A log shorter than a turn is one turn of all its calls.
            turn_ratio = Some((per_turn.min(lines.len()), turn / alone));
        }
        measures.push(one_by_one);
        measures.push(whole);
        if options.events {
            events_report = Some(bench_events::report(
                &gate,
                &lines,
                per_turn,
                options.passes,
            ));
        }
    }
    let all = accepted.len().saturating_add(rejected.len());
    let mut report = format!(
        "Gate::check_call on {all} calls from {} ({} accepted, {} rejected{}), median of {} \
         passes, warm heap\n",
        options.calls,
        accepted.len(),
        rejected.len(),
        if not_utf8 > 0 {
            format!("; {not_utf8} lines that are not UTF-8 left out")
        } else {
            String::new()
        },
        options.passes
    );
    let _ = writeln!(
        report,
        "{:<24}{:>8}{:>11}{:>13}{:>13}{:>12}",
        "", "calls", "ns/call", "calls/s", "allocs/call", "bytes/call"
    );
    for m in &measures {
        let _ = match m.median_ns {
            Some(ns) => writeln!(
                report,
                "{:<24}{:>8}{:>11.0}{:>13.0}{:>13.2}{:>12.0}",
                m.label,
                m.n_calls,
                ns,
                if ns > 0.0 { 1e9 / ns } else { f64::INFINITY },
                m.allocations,
                m.bytes
            ),
            None => writeln!(report, "{:<24}{:>8}{:>11}", m.label, 0, "-"),
        };
    }
    if options.stream {
        let (raw, provider, n_provider) = refusal_shares(&gate, &rejected);
        let _ = writeln!(
            report,
            "stream refusal: rejected calls received {:.1}% of their bytes before refusal \
             (raw form, {} calls); provider form: {:.1}% of the arguments text ({} calls)",
            raw * 100.0,
            rejected.len(),
            provider * 100.0,
            n_provider
        );
    }
    if let Some((per_turn, ratio)) = turn_ratio {
        let _ = writeln!(
            report,
            "turns: a turn of {per_turn} calls costs {ratio:.2}x its calls checked one by one"
        );
    }
    if let Some(events) = events_report {
        report.push_str(&events);
    }
    match out::print("toolgate bench check", &report) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// The most calls a benchmarked turn holds: more than any provider sends in one message.
const MAX_TURN: usize = 1_000;

/// `check_call` on `lines` one by one, and `check_turn` on them as turns of `per_turn`
/// calls (JSON arrays), both per call.
fn measure_turns(
    gate: &Gate,
    lines: &[&str],
    per_turn: usize,
    passes: usize,
) -> (Measure, Measure) {
    let turns: Vec<String> = lines
        .chunks(per_turn)
        .map(|calls| format!("[{}]", calls.join(",")))
        .collect();
    let alone = || {
        for raw in lines {
            let _ = black_box(gate.check_call(black_box(raw)));
        }
    };
    let whole = || {
        for turn in &turns {
            let _ = black_box(gate.check_turn(black_box(turn)));
        }
    };
    (
        timed("turn calls one by one", lines.len(), passes, alone),
        timed("turns (per call)", lines.len(), passes, whole),
    )
}

/// The bytes of a streamed chunk.
const CHUNK_BYTES: usize = 16;

/// `text` in chunks of about [`CHUNK_BYTES`], cut on character boundaries: how a provider
/// streams a call's arguments.
pub fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = CHUNK_BYTES.min(rest.len());
        while !rest.is_char_boundary(end) {
            end = end.saturating_add(1);
        }
        let (Some(piece), Some(tail)) = (rest.get(..end), rest.get(end..)) else {
            return None;
        };
        rest = tail;
        Some(piece)
    })
}

/// Feeds `text` to `feed` in [`pieces`]; the bytes fed when it first answered refused, if
/// it did.
fn feed_chunks(text: &str, mut feed: impl FnMut(&str) -> toolgate::Progress) -> Option<usize> {
    let mut end = 0usize;
    let mut refused_after = None;
    for chunk in pieces(text) {
        end = end.saturating_add(chunk.len());
        let progress = feed(chunk);
        if refused_after.is_none() && progress != toolgate::Progress::Pending {
            refused_after = Some(end);
        }
    }
    refused_after
}

/// The mean share of each rejected call's bytes received before its refusal, in the raw
/// form and in the provider form (of those whose envelope can be read), and how many calls
/// the second mean is over.
fn refusal_shares(gate: &Gate, rejected: &[&str]) -> (f64, f64, usize) {
    let mut raw_sum = 0.0;
    let mut provider_sum = 0.0;
    let mut n_provider = 0usize;
    for text in rejected {
        let mut stream = gate.stream_call();
        let at = feed_chunks(text, |chunk| stream.feed(chunk)).unwrap_or(text.len());
        raw_sum += at as f64 / text.len().max(1) as f64;
        if let Ok(call) = toolgate::envelope::read_call(text, gate.limits()) {
            let arguments = call.args.to_string();
            let mut stream = gate.stream_call();
            let _ = stream.feed_name(&call.name);
            let at = feed_chunks(&arguments, |chunk| stream.feed_arguments(chunk))
                .unwrap_or(arguments.len());
            provider_sum += at as f64 / arguments.len().max(1) as f64;
            n_provider = n_provider.saturating_add(1);
        }
    }
    let n_raw = rejected.len().max(1) as f64;
    (
        raw_sum / n_raw,
        provider_sum / n_provider.max(1) as f64,
        n_provider,
    )
}

/// What one timed call does.
#[derive(Clone, Copy)]
enum Run {
    /// `Gate::check_call`.
    Call,
    /// `Gate::check_call`, and the rejection's text written.
    CallAndText,
    /// `Gate::verdict`.
    Verdict,
    /// The streaming check, fed 16-byte chunks, then finished.
    Stream,
}

/// Times `passes` passes over `calls` and counts one pass's allocations, with the helpers
/// `bench parse` uses, so both benchmarks measure the same way.
fn measure(gate: &Gate, label: &'static str, calls: &[&str], passes: usize, run: Run) -> Measure {
    let one_pass = || {
        for raw in calls {
            if let Run::Verdict = run {
                let _ = black_box(gate.verdict(black_box(raw)));
                continue;
            }
            if let Run::Stream = run {
                black_box(&stream_raw(gate, black_box(raw)));
                continue;
            }
            match gate.check_call(black_box(raw)) {
                Ok(call) => {
                    black_box(&call);
                }
                Err(rejection) if matches!(run, Run::CallAndText) => {
                    black_box(rejection.to_string());
                }
                Err(rejection) => {
                    black_box(&rejection);
                }
            }
        }
    };
    timed(label, calls.len(), passes, one_pass)
}

/// The streaming check in the provider form on the accepted calls: the name, then the
/// arguments text (the arguments written compactly, as a provider's deltas spell them) in
/// 16-byte chunks, then finished. Compare with the `accepted` row: the same calls checked
/// whole, each in the shape it was logged in.
fn measure_provider_stream(gate: &Gate, calls: &[&str], passes: usize) -> Measure {
    let parts: Vec<(String, String)> = calls
        .iter()
        .filter_map(|raw| {
            let call = toolgate::envelope::read_call(raw, gate.limits()).ok()?;
            Some((call.name.into_owned(), call.args.to_string()))
        })
        .collect();
    let one_pass = || {
        for (name, arguments) in &parts {
            black_box(&stream_provider(
                gate,
                black_box(name),
                black_box(arguments),
            ));
        }
    };
    timed("provider stream accepted", parts.len(), passes, one_pass)
}

/// One raw call streamed in 16-byte chunks and finished. A function of its own, so that a
/// profiler can measure the stream alone: what it returns is dropped by the caller, as
/// `check_call`'s call is, so both rows pay for the same drop.
#[inline(never)]
fn stream_raw(gate: &Gate, raw: &str) -> StreamAnswer {
    let mut stream = gate.stream_call();
    let refused_after = feed_chunks(raw, |chunk| stream.feed(chunk));
    (refused_after, stream.finish())
}

/// One call streamed in the provider form (the name, then the arguments in 16-byte chunks)
/// and finished; a function of its own as [`stream_raw`] is.
#[inline(never)]
fn stream_provider(gate: &Gate, name: &str, arguments: &str) -> StreamAnswer {
    let mut stream = gate.stream_call();
    let _ = black_box(stream.feed_name(name));
    let refused_after = feed_chunks(arguments, |chunk| stream.feed_arguments(chunk));
    (refused_after, stream.finish())
}

/// Where a stream was refused, if it was, and its last word.
type StreamAnswer = (
    Option<usize>,
    Result<toolgate::Call<'static>, toolgate::Rejection>,
);

/// The validator alone: `ToolSpec::validate` on the accepted calls' arguments, parsed
/// before timing. Two rows: the trees as `check_call` returns them, and copies of the same
/// trees made in one pass after parsing, each object's members at their exact number. With
/// 20,000 trees held at once, the memory the trees take, not the validator, is most of any
/// difference between the rows. A handler validates the tree it was just given, in cache,
/// which neither row measures.
fn measure_validate(gate: &Gate, calls: &[&str], passes: usize) -> [Measure; 2] {
    let parsed: Vec<_> = calls
        .iter()
        .filter_map(|raw| {
            let call = gate.check_call(raw).ok()?;
            let spec = gate.spec(&call.name)?;
            Some((spec, call.args))
        })
        .collect();
    let copies: Vec<_> = parsed
        .iter()
        .map(|(spec, args)| (*spec, args.clone()))
        .collect();
    let as_built = timed("validate accepted", parsed.len(), passes, || {
        for (spec, args) in &parsed {
            let _ = black_box(spec.validate(black_box(args)));
        }
    });
    let exact = timed("validate, exact copies", copies.len(), passes, || {
        for (spec, args) in &copies {
            let _ = black_box(spec.validate(black_box(args)));
        }
    });
    [as_built, exact]
}

/// Counts one pass's allocations (which also warms caches and the allocator), then times
/// `passes` more.
pub fn timed(label: &'static str, n_calls: usize, passes: usize, one_pass: impl Fn()) -> Measure {
    if n_calls == 0 {
        return Measure {
            label,
            n_calls: 0,
            median_ns: None,
            allocations: 0.0,
            bytes: 0.0,
        };
    }
    let ((), allocated) = bench::allocations_during(&one_pass);
    let mut seconds = bench::time_passes(passes, &one_pass);
    let n = n_calls as f64;
    Measure {
        label,
        n_calls,
        median_ns: Some(bench::median(&mut seconds) * 1e9 / n),
        allocations: allocated.allocations as f64 / n,
        bytes: allocated.bytes as f64 / n,
    }
}
