//! `toolgate bench`: in-process measurements on realistic data, reported as medians.
//!
//! `bench parse FILE...` times `toolgate::json::parse_with` over each file (a `.jsonl` file
//! is one document per line) and counts the heap allocations one pass makes, through the
//! counting allocator in `alloc.rs`. The helpers below (`median`, `time_passes`,
//! `allocations_during`, `read_documents`, `count_option`) are public so that other
//! `bench` subcommands measure and read their options the same way.
//!
//! Speed is measured here and only here: no test asserts a time.

use crate::alloc::{self, AllocCount};
use crate::args::{Arg, Args, UsageError};
use crate::out;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;
use toolgate::json::{self, Limits};

/// Passes timed when `--passes` is not given (the one number both benches and their help
/// texts read).
macro_rules! default_passes {
    () => {
        21
    };
}
pub(crate) use default_passes;

/// Passes timed when `--passes` is not given.
pub const DEFAULT_PASSES: usize = default_passes!();

/// The most passes a bench times. Each pass keeps one sample, so an unbounded count
/// (`--passes 18446744073709551615`) asked for a list of samples no memory holds, and the
/// command died in the allocator instead of saying what it expected.
pub const MAX_PASSES: usize = 100_000;

/// Reads the value of a count option (`--passes`, `--turns`): a whole number from 1 to
/// `max`.
///
/// # Errors
/// The message saying what was expected and what arrived.
fn parse_count(flag: &str, text: &str, max: usize) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{flag} expects a whole number from 1 to {max}, got '{text}'"
        )),
    }
}

/// Reads a count option's value if it was given ([`parse_count`]), as a usage error of
/// `args`' command when it is not a count from 1 to `max`.
///
/// # Errors
/// The [`UsageError`] saying what was expected and what arrived.
pub fn count_option(
    args: &Args,
    flag: &str,
    text: Option<String>,
    max: usize,
) -> Result<Option<usize>, UsageError> {
    text.map(|text| parse_count(flag, &text, max).map_err(|e| args.error(e)))
        .transpose()
}

/// The documents of one input file.
pub struct Documents {
    /// The file as given on the command line.
    pub path: String,
    /// The whole file.
    pub text: String,
    /// Byte ranges of the documents in `text`: one per non-empty line for `.jsonl`, else one.
    pub ranges: Vec<std::ops::Range<usize>>,
}

impl Documents {
    /// Each document's text.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.ranges
            .iter()
            .map(|range| self.text.get(range.clone()).unwrap_or(""))
    }

    /// Total bytes over all documents (line ends of `.jsonl` files not included).
    pub fn bytes(&self) -> usize {
        self.ranges.iter().map(|range| range.len()).sum()
    }
}

/// The usage line of `bench parse`.
pub const PARSE_USAGE: &str = concat!("usage: ", bench_parse_synopsis!());

/// `toolgate bench parse --help`.
pub const PARSE_HELP: &str = concat!(
    "toolgate bench parse: time toolgate::json::parse_with on JSON files\n\nusage: ",
    bench_parse_synopsis!(),
    "

  --passes N    timed passes over each file (default ",
    default_passes!(),
    "); the median and the best are shown
  FILE...       JSON files: a .jsonl file is one document per line, any other one document
  -h, --help    print this help

Build with --release (cargo run --release -- bench parse ...): a debug build's numbers
say nothing about the library."
);

/// What `bench parse` was asked to do.
#[derive(Debug)]
pub struct ParseOptions {
    passes: usize,
    files: Vec<String>,
}

/// Reads `bench parse`'s arguments, by the same rules as every command's (one value per
/// option, no unknown flag taken for a file); `Ok(None)` means help was asked for.
///
/// # Errors
/// A [`UsageError`] for an unknown flag, a missing, repeated or bad `--passes`, or no file.
pub fn parse_args(mut args: Args) -> Result<Option<ParseOptions>, UsageError> {
    let mut passes = None;
    let mut files = Vec::new();
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Flag(flag, inline) => match flag.as_str() {
                "-h" | "--help" => return Ok(None),
                "--passes" => args.value_once(&flag, inline, &mut passes)?,
                _ => return Err(args.unknown(&flag)),
            },
            Arg::Positional(path) => files.push(path),
        }
    }
    if files.is_empty() {
        return Err(args.error("give at least one file".into()));
    }
    let passes = count_option(&args, "--passes", passes, MAX_PASSES)?.unwrap_or(DEFAULT_PASSES);
    Ok(Some(ParseOptions { passes, files }))
}

/// Runs `bench parse`.
pub fn parse_command(options: &ParseOptions) -> ExitCode {
    parse_report(options).unwrap_or_else(|code| code)
}

/// The parse benchmark, each row printed as it is measured; the exit status it stops with
/// early (standard output gone) as the error.
fn parse_report(options: &ParseOptions) -> Result<ExitCode, ExitCode> {
    let print = |text: &str| out::print("toolgate bench parse", text);
    let (passes, files) = (options.passes, &options.files);
    if cfg!(debug_assertions) {
        print("note: this is a debug build; measure with `cargo run --release -- bench parse`\n")?;
    }
    // Read everything first, so that no large buffer is freed between measurements.
    let mut all = Vec::new();
    let mut status = ExitCode::SUCCESS;
    for path in files {
        match read_documents(path) {
            Ok(documents) => all.push(documents),
            Err(message) => {
                eprintln!("toolgate bench parse: {message}");
                status = ExitCode::from(1);
            }
        }
    }
    print(&format!(
        "toolgate::json::parse_with on &str (UTF-8 checked once, outside the timing), \
         median and best of {passes} passes, 1 MB = 10^6 bytes\n"
    ))?;
    print(
        "\nfresh heap: the allocator gives freed memory back to the system after each pass \
         (glibc's default until the process frees one large block)\n",
    )?;
    print(&parse_header())?;
    for documents in &all {
        print(&parse_row(documents, passes))?;
    }
    warm_heap();
    print(
        "\nwarm heap: after one large block was freed, glibc keeps up to 64 MB between passes \
         (the state of a long-running process)\n",
    )?;
    print(&parse_header())?;
    for documents in &all {
        print(&parse_row(documents, passes))?;
    }
    Ok(status)
}

/// Frees one 30 MB block. glibc then raises its mmap threshold to the block's size and keeps
/// twice that much freed memory instead of handing it back to the system after every pass.
/// (Elsewhere this is just an allocation.)
pub fn warm_heap() {
    drop(black_box(vec![0u8; 30 << 20]));
}

fn parse_header() -> String {
    format!(
        "{:<34} {:>6} {:>9} {:>8} {:>9} {:>9} {:>11} {:>12}\n",
        "file", "docs", "bytes", "MB/s", "best MB/s", "ns/doc", "allocs/doc", "ok docs"
    )
}

/// Measures parsing `documents` and gives its row.
fn parse_row(documents: &Documents, passes: usize) -> String {
    // No size limit: big.json is larger than the default 1 MiB.
    let limits = Limits {
        max_bytes: usize::MAX,
        ..Limits::default()
    };
    let parse_all = || {
        let mut n_ok = 0usize;
        for document in documents.iter() {
            if black_box(json::parse_with(black_box(document), limits)).is_ok() {
                n_ok += 1;
            }
        }
        n_ok
    };
    let n_ok = parse_all(); // also warms the caches
    let mut seconds = time_passes(passes, || {
        black_box(parse_all());
    });
    let (_, allocated) = allocations_during(parse_all);
    let n_docs = documents.ranges.len().max(1);
    let median_seconds = median(&mut seconds);
    let best_seconds = seconds.first().copied().unwrap_or(median_seconds);
    let mb_per_s = |seconds: f64| documents.bytes() as f64 / seconds / 1e6;
    format!(
        "{:<34} {:>6} {:>9} {:>8.1} {:>9.1} {:>9.0} {:>11.2} {:>12}\n",
        documents.path,
        documents.ranges.len(),
        documents.bytes(),
        mb_per_s(median_seconds),
        mb_per_s(best_seconds),
        median_seconds * 1e9 / n_docs as f64,
        allocated.allocations as f64 / n_docs as f64,
        format!("{n_ok}/{}", documents.ranges.len()),
    )
}

/// Reads a file as documents: one per non-empty line if it ends in `.jsonl`, else one.
///
/// # Errors
/// A message when the file cannot be read or is not UTF-8.
pub fn read_documents(path: &str) -> Result<Documents, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| format!("{path} is not UTF-8: {e}"))?;
    let ranges = if path.ends_with(".jsonl") {
        // Sized up front: a growing `Vec` would free large buffers on the way.
        let mut ranges = Vec::with_capacity(text.split_inclusive('\n').count());
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let end = start + line.len();
            let content = line.trim_end_matches(['\n', '\r']);
            if !content.trim().is_empty() {
                ranges.push(start..start + content.len());
            }
            start = end;
        }
        ranges
    } else {
        let whole = 0..text.len();
        vec![whole]
    };
    Ok(Documents {
        path: path.to_string(),
        text,
        ranges,
    })
}

/// Runs `run` `passes` times and returns each pass's wall time in seconds.
pub fn time_passes(passes: usize, mut run: impl FnMut()) -> Vec<f64> {
    (0..passes)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed().as_secs_f64()
        })
        .collect()
}

/// The median of `samples`, which it sorts in place (so `samples[0]` is then the least);
/// 0 for none.
pub fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    let middle = samples.len() / 2;
    match (samples.get(middle), samples.len() % 2) {
        (Some(&upper), 0) => (samples.get(middle - 1).copied().unwrap_or(upper) + upper) / 2.0,
        (Some(&value), _) => value,
        (None, _) => 0.0,
    }
}

/// Runs `run` and returns its result with the heap allocations it made (on any thread).
pub fn allocations_during<R>(run: impl FnOnce() -> R) -> (R, AllocCount) {
    let before = alloc::snapshot();
    let result = run();
    let after = alloc::snapshot();
    let made = AllocCount {
        allocations: after.allocations.saturating_sub(before.allocations),
        bytes: after.bytes.saturating_sub(before.bytes),
    };
    (result, made)
}
