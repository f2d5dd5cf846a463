//! The `toolgate` command line: the demo (no arguments), `check`, `schema`, `mcp` and
//! `bench`.
//!
//! Arguments are parsed by hand with std only ([`args`]): each command reads its own words,
//! and any mistake (an unknown flag, a missing value, an argument that is not UTF-8) is a
//! usage error, printed with that command's usage line, exit status 2.

// The library forbids unsafe code; the binary denies it everywhere but the counting
// allocator, which cannot be written without `unsafe impl GlobalAlloc`.
#![deny(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
// Standard output goes through `out::print`, which a closed pipe does not make panic.
#![deny(clippy::print_stdout)]

// Each command's synopsis, written once: its usage line, its `--help` and the top-level
// usage all read it, so that a flag added to a command shows everywhere. Macros rather than
// constants, because `concat!` takes only literals.
macro_rules! demo_synopsis {
    () => {
        "toolgate [demo]"
    };
}
macro_rules! check_synopsis {
    () => {
        "toolgate check --tools TOOLS.json [--lenient] [--no-format-checks] [--summary] [CALLS.jsonl]"
    };
}
macro_rules! schema_synopsis {
    () => {
        "toolgate schema --tools TOOLS.json --to PROVIDER [--lenient] [--map-names] [--no-close]"
    };
}
macro_rules! mcp_synopsis {
    () => {
        "toolgate mcp [--log FILE] [--metrics FILE] [--protocol-errors] [--max-bytes N] -- COMMAND [ARGS...]"
    };
}
macro_rules! bench_parse_synopsis {
    () => {
        "toolgate bench parse [--passes N] FILE..."
    };
}
macro_rules! bench_check_synopsis {
    () => {
        "toolgate bench check --tools TOOLS.json [--passes N] [--verdicts] [--stream] [--turns N [--events]] CALLS.jsonl"
    };
}

#[allow(unsafe_code)]
mod alloc;
mod args;
mod bench;
mod bench_check;
mod bench_events;
mod check;
mod demo;
mod lines;
mod mcp;
mod mcp_read;
mod out;
mod schema;
mod tools;

use args::{Args, UsageError};
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

/// The top-level usage: every command's synopsis.
macro_rules! top_usage {
    () => {
        concat!(
            "usage: toolgate                                    play the demo agent loop\n       ",
            check_synopsis!(),
            "\n       ",
            schema_synopsis!(),
            "\n       ",
            mcp_synopsis!(),
            "\n       ",
            bench_parse_synopsis!(),
            "\n       ",
            bench_check_synopsis!(),
            "\n       toolgate --version"
        )
    };
}

/// The top-level usage.
const USAGE: &str = top_usage!();

/// `toolgate --help`.
const HELP: &str = concat!(
    "toolgate: checks a language model's tool calls before any tool code runs\n\n",
    top_usage!(),
    "

  (no command)  an agent loop against a scripted model that makes the real mistakes
  check         one JSON verdict per raw call of a log; exit 1 if any was rejected
  schema        tool declarations in one provider's form
  mcp           a proxy in front of an MCP server that checks every tools/call
  bench         parse and check throughput and heap allocations (build with --release)

Run 'toolgate COMMAND --help' for a command's options."
);

/// `toolgate bench --help`.
const BENCH_USAGE: &str = concat!(
    "usage: ",
    bench_parse_synopsis!(),
    "\n       ",
    bench_check_synopsis!()
);

/// What the command line asked for.
enum Command {
    /// Print this text on standard output, exit 0.
    Print(&'static str),
    Demo,
    Check(check::Options),
    Schema(schema::Options),
    Mcp(mcp::Options),
    BenchParse(bench::ParseOptions),
    BenchCheck(bench_check::Options),
}

fn main() -> ExitCode {
    let command = args::from_os(std::env::args_os().skip(1)).and_then(parse_command);
    match command {
        Ok(Command::Print(text)) => match out::print("toolgate", &format!("{text}\n")) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => code,
        },
        Ok(Command::Demo) => demo::run(),
        Ok(Command::Check(options)) => check::run(&options),
        Ok(Command::Schema(options)) => schema::run(&options),
        Ok(Command::Mcp(options)) => mcp::run(&options),
        Ok(Command::BenchParse(options)) => bench::parse_command(&options),
        Ok(Command::BenchCheck(options)) => bench_check::run(&options),
        Err(error) => {
            eprintln!("{error}");
            eprintln!("{}", usage_of(error.command));
            let help = match error.command {
                "" => String::from("toolgate --help"),
                command => format!("toolgate {command} --help"),
            };
            eprintln!("Run '{help}' for more.");
            ExitCode::from(2)
        }
    }
}

/// The usage line(s) shown with a usage error in `command`.
fn usage_of(command: &str) -> &'static str {
    match command {
        "check" => check::USAGE,
        "schema" => schema::USAGE,
        "mcp" => mcp::USAGE,
        "bench" => BENCH_USAGE,
        "bench parse" => bench::PARSE_USAGE,
        "bench check" => bench_check::USAGE,
        "demo" => concat!("usage: ", demo_synopsis!()),
        _ => USAGE,
    }
}

/// Reads the command word and hands the rest to that command's parser.
fn parse_command(words: Vec<String>) -> Result<Command, UsageError> {
    let mut words = words.into_iter();
    let Some(first) = words.next() else {
        return Ok(Command::Demo);
    };
    let rest: Vec<String> = words.collect();
    match first.as_str() {
        "-h" | "--help" => Ok(Command::Print(HELP)),
        "help" => match rest.first() {
            None => Ok(Command::Print(HELP)),
            // `help COMMAND` is `COMMAND --help`; the command word is checked there.
            Some(_) => parse_command(rest.into_iter().take(1).chain(["--help".into()]).collect()),
        },
        "-V" | "--version" => match rest.first() {
            None => Ok(Command::Print(concat!(
                "toolgate ",
                env!("CARGO_PKG_VERSION")
            ))),
            Some(word) => Err(UsageError {
                command: "",
                problem: format!("unexpected argument '{word}' after {first}"),
            }),
        },
        "demo" => match rest.first().map(String::as_str) {
            None => Ok(Command::Demo),
            Some("-h" | "--help") => Ok(Command::Print(demo::HELP)),
            Some(word) => Err(UsageError {
                command: "demo",
                problem: format!("unexpected argument '{word}'"),
            }),
        },
        "check" => Ok(check::parse_args(Args::new("check", rest))?
            .map_or(Command::Print(check::HELP), Command::Check)),
        "schema" => Ok(schema::parse_args(Args::new("schema", rest))?
            .map_or(Command::Print(schema::HELP), Command::Schema)),
        "mcp" => Ok(mcp::parse_args(Args::new("mcp", rest))?
            .map_or(Command::Print(mcp::HELP), Command::Mcp)),
        "bench" => parse_bench(rest),
        word if word.starts_with('-') => Err(UsageError {
            command: "",
            problem: format!("unknown option '{word}'"),
        }),
        word => Err(UsageError {
            command: "",
            problem: format!("unknown command '{word}'"),
        }),
    }
}

/// `bench parse FILE...` or `bench check ...`.
fn parse_bench(words: Vec<String>) -> Result<Command, UsageError> {
    let mut words = words.into_iter();
    let sub = words.next();
    let rest: Vec<String> = words.collect();
    match sub.as_deref() {
        Some("-h" | "--help") if rest.is_empty() => Ok(Command::Print(BENCH_USAGE)),
        Some("parse") => Ok(bench::parse_args(Args::new("bench parse", rest))?
            .map_or(Command::Print(bench::PARSE_HELP), Command::BenchParse)),
        Some("check") => Ok(bench_check::parse_args(Args::new("bench check", rest))?
            .map_or(Command::Print(bench_check::HELP), Command::BenchCheck)),
        Some(word) => Err(UsageError {
            command: "bench",
            problem: format!("unknown benchmark '{word}': expected 'parse' or 'check'"),
        }),
        None => Err(UsageError {
            command: "bench",
            problem: String::from("a benchmark name is required"),
        }),
    }
}
