//! The demo (`toolgate` with no arguments, what `cargo run --release` runs): an agent loop
//! on four example tools against a scripted model that makes the real mistakes. Each turn
//! prints the raw call, the gate's answer, the model's one retry and the outcome; the last
//! turns trip the rejection guard, and the counters close the run. A second part
//! ([`turns`]) shows whole turns: one message with parallel calls, answered together, and the
//! model's next turn correcting the refused ones.
//!
//! It teaches the gate logic in about two screens, so it is written to be read without
//! colour: colour only marks what the words already say, is used only when standard output
//! is a terminal, and never when `NO_COLOR` is set (to any value). The guard tripping is the
//! lesson, not a failure: the demo exits 0.

mod script;
mod tools;
mod turns;

use script::SCRIPT;
use std::fmt::Write as _;
use std::io::{self, IsTerminal};
use std::process::ExitCode;
use toolgate::{Counters, Guard, Outcome};

/// `toolgate demo --help`.
pub const HELP: &str = concat!(
    "toolgate: play the demo agent loop\n\nusage: ",
    demo_synopsis!(),
    "

Runs an agent loop on four example tools against a scripted model that makes the real
mistakes (a misspelled name, a missing field, a wrong type, an enum near-miss, a truncated
call, a spec it cannot satisfy), and prints each call, the gate's answer, the retry and the
outcome, then the counters; then one turn of parallel calls, its result message, and the
model's next turn correcting the refused calls. Colour only on a terminal, never when
NO_COLOR is set."
);

/// Runs the demo.
pub fn run() -> ExitCode {
    let paint = Paint {
        on: io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let mut text = String::new();
    let played = play(&mut text, paint);
    if let Err(code) = crate::out::print("toolgate", &text) {
        if code != ExitCode::SUCCESS {
            return code;
        }
    }
    match played {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("toolgate: the demo could not run: {message}");
            ExitCode::from(1)
        }
    }
}

/// Plays the script into `out`.
///
/// # Errors
/// A message if the example tools do not load (a bug in the demo, reported, not panicked).
fn play(out: &mut String, paint: Paint) -> Result<(), String> {
    let registry = tools::registry()?;
    let counters = Counters::new();
    let mut guard = Guard::default();
    let tool_names: Vec<&str> = registry.gate().specs().iter().map(|s| s.name()).collect();
    let _ = writeln!(
        out,
        "{}\n\
         An agent loop on {} tools ({})\n\
         against a scripted model that makes the mistakes real models make.\n\
         Every call meets three gates before any tool code runs: the name is registered,\n\
         the arguments are an object, the arguments match the tool's spec. A refused call\n\
         goes back to the model once, as one sentence; its correction meets the same gates.",
        paint.bold("toolgate demo"),
        tool_names.len(),
        tool_names.join(", "),
    );
    for (turn_idx, turn) in SCRIPT.iter().enumerate() {
        let title = format!("{}. {}:", turn_idx.saturating_add(1), turn.title);
        let _ = writeln!(out, "\n{} {}", paint.bold(&title), turn.lesson);
        row(out, "model", turn.call);
        // `handle_tool_call` runs the gates, asks the model once, and dispatches only a call
        // that passed; the outcome keeps the first call's rejection, the text the model read.
        let outcome =
            registry.handle_tool_call(turn.call, |_| turn.retry.unwrap_or(turn.call).to_owned());
        if let Some(first) = outcome.first_rejection() {
            prose(
                out,
                "gate",
                &format!("{}: {first}", paint.red(first.kind().label())),
            );
            row(out, "retry", turn.retry.unwrap_or(turn.call));
        }
        write_outcome(out, paint, &outcome);
        counters.record(&outcome);
        match guard.record(&outcome) {
            Ok(()) => {
                if let Outcome::Rejected { error, .. } = &outcome {
                    let key = error.tool().unwrap_or("unreadable calls");
                    let streak = guard.streak(error.tool());
                    let note = format!(
                        "{key}: {streak} rejected turn{} in a row; the run stops at {}",
                        if streak == 1 { "" } else { "s" },
                        guard.limit()
                    );
                    prose(out, "guard", &note);
                }
            }
            Err(stuck) => {
                prose(out, "guard", &paint.red(&stuck.to_string()));
                prose(
                    out,
                    "lesson",
                    "The run ends here, not after a tenth try. The fix is ours, not the \
                     model's: refunds above 500.00 need a tool that escalates to a human.",
                );
                break;
            }
        }
    }
    let _ = writeln!(
        out,
        "\n{}\n{}",
        paint.bold("Counters: rejections point at our declarations, failures at a dependency."),
        counters.snapshot()
    );
    turns::play(out, paint, &registry)
}

/// The outcome of a turn: what ran, or the retry's rejection and that nothing ran.
fn write_outcome(out: &mut String, paint: Paint, outcome: &Outcome) {
    let after_retry = if outcome.retried() {
        " after one retry"
    } else {
        ""
    };
    match outcome {
        Outcome::Dispatched { tool, output, .. } => prose(
            out,
            "outcome",
            &format!(
                "{} {tool}{after_retry}: {output}",
                paint.green("dispatched")
            ),
        ),
        Outcome::ToolFailed { tool, error, .. } => prose(
            out,
            "outcome",
            &format!(
                "{} {tool}{after_retry}: {error}. Not a rejection: the call was valid, so no \
                 retry is asked; the model is told the tool failed.",
                paint.yellow("tool failed"),
            ),
        ),
        Outcome::Rejected { error, .. } => {
            if outcome.retried() {
                prose(
                    out,
                    "gate",
                    &format!("{}: {error}", paint.red(error.kind().label())),
                );
            }
            let text = if outcome.retried() {
                "rejected again after its one retry: nothing ran"
            } else {
                "rejected: nothing ran"
            };
            prose(out, "outcome", &paint.red(text));
        }
    }
}

/// Widest line the prose rows wrap at, in characters.
const WIDTH: usize = 96;

/// `   label    text`, the text wrapped at spaces to [`WIDTH`] with aligned continuation
/// lines. For sentences only: raw calls are printed whole by [`row`], never broken.
fn prose(out: &mut String, label: &str, text: &str) {
    let indent = " ".repeat(12);
    let mut line = format!("   {label:<9}");
    let mut width = line.len();
    let mut first_word = true;
    for word in text.split(' ') {
        let word_width = visible_width(word);
        if !first_word && width + 1 + word_width > WIDTH {
            let _ = writeln!(out, "{line}");
            line = indent.clone();
            width = indent.len();
            first_word = true;
        }
        if !first_word {
            line.push(' ');
            width += 1;
        }
        line.push_str(word);
        width += word_width;
        first_word = false;
    }
    let _ = writeln!(out, "{line}");
}

/// Characters a terminal shows for `text`: ANSI colour sequences take no room.
fn visible_width(text: &str) -> usize {
    let mut width = 0;
    let mut in_escape = false;
    for c in text.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, _) => width += 1,
        }
    }
    width
}

/// `   label    text`.
fn row(out: &mut String, label: &str, text: &str) {
    let _ = writeln!(out, "   {label:<9}{text}");
}

/// ANSI colour when `on`, plain text otherwise.
#[derive(Clone, Copy)]
struct Paint {
    on: bool,
}

impl Paint {
    fn wrap(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    fn bold(self, text: &str) -> String {
        self.wrap("1", text)
    }

    fn red(self, text: &str) -> String {
        self.wrap("31", text)
    }

    fn green(self, text: &str) -> String {
        self.wrap("32", text)
    }

    fn yellow(self, text: &str) -> String {
        self.wrap("33", text)
    }
}
