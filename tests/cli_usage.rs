//! The command line's usage contract: `--help`/`-h` per command and `--version` exit 0 on
//! standard output; an unknown flag, a missing value, a missing required flag or an argument
//! that is not UTF-8 is a usage error: exit 2, the problem and the usage line on standard
//! error, nothing on standard output, never a panic.
#![cfg(all(
    feature = "pattern",
    feature = "format",
    feature = "turns",
    feature = "stream",
    feature = "mcp"
))]

use std::process::Command;

/// Runs `toolgate ARGS` and returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Asserts a usage error: exit 2, nothing on stdout, and stderr made of `problem` and the
/// command's usage line(s), then the pointer to `--help`.
fn check_usage_error(args: &[&str], problem: &str, usage: &str, help: &str) {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert_eq!(stdout, "", "{args:?}");
    assert_eq!(
        stderr,
        format!("{problem}\n{usage}\nRun '{help}' for more.\n"),
        "{args:?}"
    );
}

// Issue #11 added `--lenient` to both commands, `--no-format-checks` to `check`, and
// `--map-names`, `--no-close` to `schema`.
const CHECK_USAGE: &str =
    "usage: toolgate check --tools TOOLS.json [--lenient] [--no-format-checks] [--summary] [CALLS.jsonl]";
const SCHEMA_USAGE: &str =
    "usage: toolgate schema --tools TOOLS.json --to PROVIDER [--lenient] [--map-names] [--no-close]";
// Issue #28 added `mcp`.
const MCP_USAGE: &str =
    "usage: toolgate mcp [--log FILE] [--metrics FILE] [--protocol-errors] [--max-bytes N] -- COMMAND [ARGS...]";
const TOP_USAGE: &str = "\
usage: toolgate                                    play the demo agent loop
       toolgate check --tools TOOLS.json [--lenient] [--no-format-checks] [--summary] [CALLS.jsonl]
       toolgate schema --tools TOOLS.json --to PROVIDER [--lenient] [--map-names] [--no-close]
       toolgate mcp [--log FILE] [--metrics FILE] [--protocol-errors] [--max-bytes N] -- COMMAND [ARGS...]
       toolgate bench parse [--passes N] FILE...
       toolgate bench check --tools TOOLS.json [--passes N] [--verdicts] [--stream] [--turns N [--events]] CALLS.jsonl
       toolgate --version";

#[test]
fn version_prints_the_package_version() {
    for flag in ["--version", "-V"] {
        let (code, stdout, stderr) = run(&[flag]);
        assert_eq!((code, stderr.as_str()), (0, ""));
        assert_eq!(stdout, format!("toolgate {}\n", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn help_is_printed_on_stdout_for_every_command() {
    let cases: [(&[&str], &str); 15] = [
        (&["mcp", "--help"], "toolgate mcp: check every tools/call"),
        (&["help", "mcp"], "toolgate mcp: check every tools/call"),
        (
            &["--help"],
            "toolgate: checks a language model's tool calls",
        ),
        (&["-h"], "toolgate: checks a language model's tool calls"),
        (&["help"], "toolgate: checks a language model's tool calls"),
        (
            &["check", "--help"],
            "toolgate check: run each raw tool call",
        ),
        (&["check", "-h"], "toolgate check: run each raw tool call"),
        (&["help", "check"], "toolgate check: run each raw tool call"),
        (
            &["schema", "--help"],
            "toolgate schema: convert tool declarations",
        ),
        (
            &["schema", "--tools", "x.json", "-h"],
            "toolgate schema: convert",
        ),
        (
            &["bench", "--help"],
            "usage: toolgate bench parse [--passes N] FILE...",
        ),
        (
            &["bench", "check", "--help"],
            "toolgate bench check: time Gate::check_call",
        ),
        (
            &["bench", "parse", "--help"],
            "toolgate bench parse: time toolgate::json::parse_with",
        ),
        (
            &["help", "bench"],
            "usage: toolgate bench parse [--passes N] FILE...",
        ),
        (&["demo", "--help"], "toolgate: play the demo agent loop"),
    ];
    for (args, start) in cases {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
        assert!(stdout.starts_with(start), "{args:?}: {stdout}");
    }
}

#[test]
fn the_top_level_help_lists_every_command() {
    let (_, stdout, _) = run(&["--help"]);
    assert!(stdout.contains(TOP_USAGE), "{stdout}");
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    check_usage_error(
        &["check", "--tools", "t.json", "--sumary"],
        "toolgate check: unknown option '--sumary'",
        CHECK_USAGE,
        "toolgate check --help",
    );
    check_usage_error(
        &["--verbose"],
        "toolgate: unknown option '--verbose'",
        TOP_USAGE,
        "toolgate --help",
    );
}

#[test]
fn a_missing_value_is_a_usage_error() {
    check_usage_error(
        &["check", "--tools"],
        "toolgate check: --tools needs a value",
        CHECK_USAGE,
        "toolgate check --help",
    );
    // The next word is another option, not a value.
    check_usage_error(
        &["schema", "--tools", "--to", "openai"],
        "toolgate schema: --tools needs a value",
        SCHEMA_USAGE,
        "toolgate schema --help",
    );
}

#[test]
fn a_missing_required_flag_is_a_usage_error() {
    check_usage_error(
        &["check", "calls.jsonl"],
        "toolgate check: --tools TOOLS.json is required",
        CHECK_USAGE,
        "toolgate check --help",
    );
    check_usage_error(
        &["schema", "--tools", "t.json"],
        "toolgate schema: --to PROVIDER is required",
        SCHEMA_USAGE,
        "toolgate schema --help",
    );
}

#[test]
fn other_mistakes_are_usage_errors() {
    check_usage_error(
        &["check", "--tools", "a.json", "--tools", "b.json"],
        "toolgate check: --tools given twice ('a.json' and 'b.json')",
        CHECK_USAGE,
        "toolgate check --help",
    );
    check_usage_error(
        &["check", "--tools", "t.json", "one.jsonl", "two.jsonl"],
        "toolgate check: CALLS.jsonl given twice ('one.jsonl' and 'two.jsonl')",
        CHECK_USAGE,
        "toolgate check --help",
    );
    check_usage_error(
        &["check", "--tools=t.json", "--summary=yes"],
        "toolgate check: --summary takes no value (got 'yes')",
        CHECK_USAGE,
        "toolgate check --help",
    );
    check_usage_error(
        &["schema", "--tools", "t.json", "--to", "claude"],
        "toolgate schema: unknown provider 'claude': expected one of anthropic, openai, \
         openai-strict, responses, responses-strict, gemini, mcp",
        SCHEMA_USAGE,
        "toolgate schema --help",
    );
    check_usage_error(
        &["mcp"],
        "toolgate mcp: the server's command is required, after '--'",
        MCP_USAGE,
        "toolgate mcp --help",
    );
    check_usage_error(
        &["mcp", "--max-bytes", "0", "--", "server"],
        "toolgate mcp: --max-bytes needs a positive number of bytes, not '0'",
        MCP_USAGE,
        "toolgate mcp --help",
    );
    // Options after the command are the server's: `--verbose` here is no usage error of
    // ours, so only an option before it is.
    check_usage_error(
        &["mcp", "--verbose", "--", "server"],
        "toolgate mcp: unknown option '--verbose'",
        MCP_USAGE,
        "toolgate mcp --help",
    );
    check_usage_error(
        &["frobnicate"],
        "toolgate: unknown command 'frobnicate'",
        TOP_USAGE,
        "toolgate --help",
    );
    check_usage_error(
        &["bench"],
        "toolgate bench: a benchmark name is required",
        "usage: toolgate bench parse [--passes N] FILE...\n       toolgate bench check --tools TOOLS.json [--passes N] [--verdicts] [--stream] [--turns N [--events]] CALLS.jsonl",
        "toolgate bench --help",
    );
    check_usage_error(
        &[
            "bench", "check", "--tools", "t.json", "--passes", "0", "c.jsonl",
        ],
        "toolgate bench check: --passes expects a whole number from 1 to 100000, got '0'",
        "usage: toolgate bench check --tools TOOLS.json [--passes N] [--verdicts] [--stream] [--turns N [--events]] CALLS.jsonl",
        "toolgate bench check --help",
    );
    // A count past the bound is a usage error too, not a list of samples the allocator
    // cannot give (it was a panic, exit 101).
    check_usage_error(
        &[
            "bench",
            "check",
            "--tools",
            "t.json",
            "--passes",
            "18446744073709551615",
            "c.jsonl",
        ],
        "toolgate bench check: --passes expects a whole number from 1 to 100000, got '18446744073709551615'",
        "usage: toolgate bench check --tools TOOLS.json [--passes N] [--verdicts] [--stream] [--turns N [--events]] CALLS.jsonl",
        "toolgate bench check --help",
    );
    check_usage_error(
        &[
            "bench", "check", "--tools", "t.json", "--turns", "1001", "c.jsonl",
        ],
        "toolgate bench check: --turns expects a whole number from 1 to 1000, got '1001'",
        "usage: toolgate bench check --tools TOOLS.json [--passes N] [--verdicts] [--stream] [--turns N [--events]] CALLS.jsonl",
        "toolgate bench check --help",
    );
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_a_usage_error_not_a_panic() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args([
            OsStr::new("check"),
            OsStr::new("--tools"),
            OsStr::from_bytes(b"tools-\xff.json"),
        ])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(
        stderr.starts_with("toolgate: argument 3 is not valid UTF-8: tools-\u{fffd}.json\n"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn options_and_values_may_be_joined_with_equals_and_ended_with_double_dash() {
    // `--tools=FILE` and `-- FILE` reach the command: the error is about the missing file,
    // not the usage.
    let (code, stdout, stderr) = run(&["check", "--tools=missing-tools.json", "--", "-c.jsonl"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with("toolgate check: cannot read tools file 'missing-tools.json': "),
        "{stderr}"
    );
}

/// A command's usage line, as a usage error shows it, is the one its `--help` shows and the
/// one in the top-level usage: a flag cannot be added to one and not the others.
#[test]
fn each_usage_line_is_the_one_its_help_and_the_top_level_usage_show() {
    let (_, top_help, _) = run(&["--help"]);
    for (wrong, help) in [
        (&["check"][..], &["check", "--help"][..]),
        (&["schema"], &["schema", "--help"]),
        (&["bench", "check"], &["bench", "check", "--help"]),
        (&["bench", "parse"], &["bench", "parse", "--help"]),
        (&["demo", "x"], &["demo", "--help"]),
    ] {
        let (code, _, stderr) = run(wrong);
        assert_eq!(code, 2, "{wrong:?}");
        let usage = stderr.lines().nth(1).unwrap_or("");
        let synopsis = usage.strip_prefix("usage: ").unwrap_or("");
        assert!(synopsis.starts_with("toolgate"), "{wrong:?}: {stderr}");
        let (_, own_help, _) = run(help);
        assert!(own_help.lines().any(|line| line == usage), "{help:?}");
        if wrong != ["demo", "x"] {
            let listed = top_help.lines().any(|line| line.trim_start() == synopsis);
            assert!(listed, "{synopsis} is not in the top-level usage");
        }
    }
}

const BENCH_PARSE_USAGE: &str = "usage: toolgate bench parse [--passes N] FILE...";

/// `bench parse` reads `--passes` with the same rule as `bench check`: a count past the
/// bound is refused with the range it takes (it was a panic in the allocator, exit 101).
#[test]
fn bench_parse_refuses_a_pass_count_past_the_bound() {
    for value in ["18446744073709551615", "100001", "0", "x"] {
        check_usage_error(
            &["bench", "parse", "--passes", value, "none.json"],
            &format!(
                "toolgate bench parse: --passes expects a whole number from 1 to 100000, got '{value}'"
            ),
            BENCH_PARSE_USAGE,
            "toolgate bench parse --help",
        );
    }
}

/// `bench parse` reads its words as every command does: an option it does not take is a
/// usage error, not a file it then fails to open, and `--passes` is given once.
#[test]
fn bench_parse_refuses_unknown_options_a_second_pass_count_and_no_file() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["bench", "parse", "--pases", "3", "a.json"],
            "toolgate bench parse: unknown option '--pases'",
        ),
        (
            &["bench", "parse", "--passes", "2", "--passes=3", "a.json"],
            "toolgate bench parse: --passes given twice ('2' and '3')",
        ),
        (
            &["bench", "parse", "a.json", "--passes"],
            "toolgate bench parse: --passes needs a value",
        ),
        (
            &["bench", "parse", "--passes", "2"],
            "toolgate bench parse: give at least one file",
        ),
    ];
    for (args, problem) in cases {
        check_usage_error(
            args,
            problem,
            BENCH_PARSE_USAGE,
            "toolgate bench parse --help",
        );
    }
}

/// Both benches' help states the pass count they time without `--passes`, and it is the
/// count `bench parse` really times: the help cannot drift from the code.
#[test]
fn the_default_pass_count_in_the_help_is_the_one_timed() {
    let stated = |help: &[&str]| {
        let (_, stdout, _) = run(help);
        let after = stdout.split("(default ").nth(1).unwrap_or("");
        after.split(')').next().unwrap_or("").to_owned()
    };
    let parse_default = stated(&["bench", "parse", "--help"]);
    assert!(parse_default.parse::<usize>().is_ok(), "{parse_default}");
    assert_eq!(stated(&["bench", "check", "--help"]), parse_default);
    let dir = std::env::temp_dir().join(format!("toolgate-passes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("one.json");
    std::fs::write(&file, "[1]").expect("the file is written");
    let (code, stdout, stderr) = run(&["bench", "parse", file.to_str().unwrap_or("")]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{stderr}");
    let timed = format!("median and best of {parse_default} passes");
    assert!(stdout.contains(&timed), "{stdout}");
}
