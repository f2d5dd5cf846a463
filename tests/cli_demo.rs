//! The demo (`toolgate` with no arguments): it teaches each mistake's rejection, the retry,
//! a tool failure that is not a rejection, the guard tripping, and the counters; it exits 0
//! after the guard trips (that is the lesson); it shows a turn of parallel calls answered in
//! one message and corrected in the next turn; it prints no colour when standard output is
//! not a terminal or `NO_COLOR` is set.
#![cfg(all(
    feature = "pattern",
    feature = "format",
    feature = "turns",
    feature = "stream",
    feature = "mcp"
))]

use std::process::Command;

/// Runs the demo with `NO_COLOR` set or not; returns (exit code, stdout, stderr).
fn demo(no_color: bool) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolgate"));
    if no_color {
        command.env("NO_COLOR", "1");
    } else {
        command.env_remove("NO_COLOR");
    }
    let output = command.output().expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The text of the numbered turn whose title starts with `title`, up to the next turn.
fn turn<'a>(stdout: &'a str, title: &str) -> &'a str {
    let start = stdout
        .lines()
        .find(|line| {
            line.split_once(". ")
                .is_some_and(|(_, rest)| rest.starts_with(title))
        })
        .and_then(|line| stdout.find(line))
        .unwrap_or_else(|| panic!("no turn '{title}' in:\n{stdout}"));
    let rest = &stdout[start..];
    let end = rest.find("\n\n").unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn the_demo_exits_0_after_the_guard_trips() {
    let (code, stdout, stderr) = demo(true);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "");
    assert!(
        stdout.contains("guard    Stopped the run: 'issue_refund' was rejected 3 times in a row."),
        "{stdout}"
    );
}

#[test]
fn each_mistake_shows_its_rejection_the_retry_and_the_outcome() {
    let (_, stdout, _) = demo(true);
    let cases = [
        ("a valid call", None, "outcome  dispatched search_orders: "),
        (
            "a misspelled name",
            Some("gate     unknown_tool: "),
            "outcome  dispatched search_orders after one retry: ",
        ),
        (
            "a missing field",
            Some("gate     schema_violation: "),
            "outcome  dispatched send_email after one retry: ",
        ),
        (
            "a wrong type",
            Some("gate     schema_violation: "),
            "outcome  dispatched issue_refund after one retry: ",
        ),
        (
            "an enum near-miss",
            Some("gate     schema_violation: "),
            "outcome  dispatched search_orders after one retry: ",
        ),
        (
            "a truncated call",
            Some("gate     truncated_json: "),
            "outcome  dispatched send_email after one retry: ",
        ),
        ("a tool failure", None, "outcome  tool failed get_order: "),
    ];
    for (title, gate, outcome) in cases {
        let text = turn(&stdout, title);
        assert!(text.contains("   model    {"), "{title}: {text}");
        match gate {
            Some(gate) => {
                assert!(text.contains(gate), "{title}: {text}");
                assert!(text.contains("   retry    {"), "{title}: {text}");
            }
            None => {
                assert!(!text.contains("   gate "), "{title}: {text}");
                assert!(!text.contains("   retry "), "{title}: {text}");
            }
        }
        assert!(text.contains(outcome), "{title}: {text}");
    }
}

#[test]
fn the_unsatisfiable_spec_is_rejected_after_each_retry_until_the_guard_trips() {
    let (_, stdout, _) = demo(true);
    for (n, guard) in [
        (
            1,
            "guard    issue_refund: 1 rejected turn in a row; the run stops at 3",
        ),
        (
            2,
            "guard    issue_refund: 2 rejected turns in a row; the run stops at 3",
        ),
        (
            3,
            "guard    Stopped the run: 'issue_refund' was rejected 3 times in a row.",
        ),
    ] {
        let text = turn(&stdout, &format!("a spec the model cannot satisfy ({n})"));
        assert!(text.contains("gate     schema_violation: "), "{n}: {text}");
        assert!(
            text.contains("rejected again after its one retry: nothing ran"),
            "{n}: {text}"
        );
        assert!(text.contains(guard), "{n}: {text}");
    }
}

#[test]
fn the_counters_close_the_run() {
    let (_, stdout, _) = demo(true);
    // Ten turns: six dispatched (one valid, five after a retry), one tool failure, three
    // rejected after a retry; eight retries asked, five succeeded. Gate decisions: ten calls
    // plus eight retries, eighteen; seven accepted, so eleven rejections: the typo's
    // unknown_tool and the cut-off call's truncated_json (both fixed by the retry), the
    // missing field, wrong type and enum near-miss (fixed too), and the unsatisfiable
    // refund's two refusals on each of its three turns: nine schema_violation in all.
    for row in [
        "calls                           10",
        "dispatched                       6   60.0 %",
        "tool failed                      1   10.0 %",
        "rejected                         3   30.0 %",
        "retries asked                    8   80.0 %",
        "retries succeeded                5   62.5 %",
        "gate decisions                  18",
        "rejections                      11   61.1 %",
        "  truncated_json                 1    5.6 %",
        "  unknown_tool                   1    5.6 %",
        "  schema_violation               9   50.0 %",
    ] {
        assert!(
            stdout.contains(&format!("\n{row}\n")),
            "missing '{row}' in:\n{stdout}"
        );
    }
}

#[test]
fn no_colour_when_not_a_terminal_or_when_no_color_is_set() {
    for no_color in [false, true] {
        let (_, stdout, _) = demo(no_color);
        assert!(
            !stdout.contains('\x1b'),
            "escape codes with NO_COLOR={no_color}"
        );
    }
}

#[test]
fn the_demo_fits_in_about_two_screens() {
    // Two screens for the single calls, and about half a screen for the whole turns.
    let (_, stdout, _) = demo(true);
    let n_lines = stdout.lines().count();
    assert!(n_lines <= 135, "{n_lines} lines");
}

#[test]
fn a_turn_of_parallel_calls_is_answered_in_one_message_and_corrected_in_the_next() {
    let (_, stdout, _) = demo(true);
    let first = turn(&stdout, "one turn, three calls");
    for line in [
        "   call 1   toolu_11 dispatched get_order: ",
        "   call 2   toolu_12 unknown_tool: ",
        "   call 3   toolu_13 schema_violation: ",
    ] {
        assert!(first.contains(line), "missing '{line}' in:\n{first}");
    }
    // One user message answering the three ids in call order, the refusals flagged.
    let reply = first
        .lines()
        .find_map(|line| line.strip_prefix("   reply    "))
        .expect("a reply row");
    let message = toolgate::json::parse(reply).expect("the reply is JSON");
    assert_eq!(message.get("role").and_then(|r| r.as_str()), Some("user"));
    let blocks = message
        .get("content")
        .and_then(|c| c.as_array())
        .expect("blocks");
    let answers: Vec<(Option<&str>, bool)> = blocks
        .iter()
        .map(|block| {
            let id = block.get("tool_use_id").and_then(|id| id.as_str());
            (id, block.get("is_error").is_some())
        })
        .collect();
    assert_eq!(
        answers,
        [
            (Some("toolu_11"), false),
            (Some("toolu_12"), true),
            (Some("toolu_13"), true)
        ],
        "{reply}"
    );

    let second = turn(&stdout, "the next turn");
    assert!(
        second.contains("toolu_14 dispatched search_orders, correcting toolu_12: "),
        "{second}"
    );
    assert!(
        second.contains("toolu_15 dispatched issue_refund, correcting toolu_13: "),
        "{second}"
    );
    assert!(
        second.contains(
            "   session  3 calls, 3 dispatched; 2 retries asked in the next turn, 2 succeeded;"
        ),
        "{second}"
    );
}

/// On a terminal (a pseudo-terminal made by util-linux `script`), the demo colours its
/// labels, unless `NO_COLOR` is set.
#[cfg(target_os = "linux")]
#[test]
fn colour_on_a_terminal_unless_no_color_is_set() {
    let run_on_terminal = |no_color: bool| -> Option<String> {
        let binary = env!("CARGO_BIN_EXE_toolgate");
        let inner = if no_color {
            format!("env NO_COLOR=1 '{binary}'")
        } else {
            format!("env -u NO_COLOR '{binary}'")
        };
        let output = Command::new("script")
            .args(["-qec", &inner, "/dev/null"])
            .output()
            .ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let Some(coloured) = run_on_terminal(false) else {
        println!("skipped: util-linux `script` is not available to make a terminal");
        return;
    };
    assert!(coloured.contains("\x1b[32mdispatched\x1b[0m"), "{coloured}");
    let plain = run_on_terminal(true).expect("script ran once already");
    assert!(plain.contains("dispatched search_orders"), "{plain}");
    assert!(!plain.contains('\x1b'), "{plain}");
}
