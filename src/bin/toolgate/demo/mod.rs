//! The demo (`toolgate` with no arguments, what `cargo run --release` runs): an agent loop
//! on four example tools against a scripted model that makes the real mistakes. Each turn
//! prints the raw call, the gate's answer, the model's one retry and the outcome; the last
//! turns trip the rejection guard, and the counters close the run.
//!
//! It teaches the gate logic in about two screens, so it is written to be read without
//! colour: colour only marks what the words already say, is used only when standard output
//! is a terminal, and never when `NO_COLOR` is set (to any value). The guard tripping is the
//! lesson, not a failure: the demo exits 0.

mod script;
mod tools;

use script::SCRIPT;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use toolgate::{Counters, Guard, Outcome};

/// `toolgate demo --help`.
pub const HELP: &str = "\
toolgate: play the demo agent loop

usage: toolgate [demo]

Runs an agent loop on four example tools against a scripted model that makes the real
mistakes (a misspelled name, a missing field, a wrong type, an enum near-miss, a truncated
call, a spec it cannot satisfy), and prints each call, the gate's answer, the retry and the
outcome, then the counters. Colour only on a terminal, never when NO_COLOR is set.";

/// Runs the demo.
pub fn run() -> ExitCode {
    let paint = Paint {
        on: io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let mut text = String::new();
    let played = play(&mut text, paint);
    let written = io::stdout().lock().write_all(text.as_bytes());
    if let Err(error) = written {
        if error.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("toolgate: cannot write standard output: {error}");
            return ExitCode::from(2);
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
         An agent loop on {} tools ({}) against a scripted model.\n\
         Every call meets three gates before any tool code runs: the name is registered, the\n\
         arguments are an object, the arguments match the tool's spec. A refused call goes\n\
         back to the model once, as one sentence; its correction meets the same gates.",
        paint.bold("toolgate demo"),
        tool_names.len(),
        tool_names.join(", "),
    );
    for (turn_idx, turn) in SCRIPT.iter().enumerate() {
        let _ = writeln!(
            out,
            "\n{}\n   {}",
            paint.bold(&format!("{}. {}", turn_idx.saturating_add(1), turn.title)),
            paint.dim(turn.lesson)
        );
        row(out, "model", turn.call);
        // The check-only gate shows which gate refused; `handle_tool_call` below runs the
        // same gates, asks the model once, and dispatches only a call that passed.
        let first_kind = registry
            .gate()
            .check_call(turn.call)
            .err()
            .map(|r| r.kind());
        let mut told = None;
        let outcome = registry.handle_tool_call(turn.call, |error: &str| {
            told = Some(error.to_owned());
            turn.retry.unwrap_or(turn.call).to_owned()
        });
        if let (Some(kind), Some(error)) = (first_kind, told.as_deref()) {
            row(out, "gate", &format!("{} {error}", paint.red(kind.label())));
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
                    row(out, "guard", &note);
                }
            }
            Err(stuck) => {
                row(out, "guard", &paint.red(&stuck.to_string()));
                let _ = writeln!(
                    out,
                    "   The run ends here, before a fourth try. The fix is ours, not the \
                     model's:\n   refunds above 500.00 need a tool that escalates to a human."
                );
                break;
            }
        }
    }
    let _ = writeln!(
        out,
        "\n{}\n{}",
        paint.bold(
            "Counters (a rising rejection rate points at our declarations, a rising \
                    failure rate at a dependency):"
        ),
        counters.snapshot()
    );
    Ok(())
}

/// The outcome line of a turn.
fn write_outcome(out: &mut String, paint: Paint, outcome: &Outcome) {
    let text = match outcome {
        Outcome::Dispatched {
            tool,
            output,
            retried,
            ..
        } => format!(
            "{} {tool}{}: {output}",
            paint.green("dispatched"),
            if *retried { " after one retry" } else { "" }
        ),
        Outcome::ToolFailed {
            tool,
            error,
            retried,
            ..
        } => format!(
            "{} {tool}{}: {error}\n{:12}(the call was valid: no retry is asked; the model is told \
             the tool failed)",
            paint.yellow("tool failed"),
            if *retried { " after one retry" } else { "" },
            ""
        ),
        Outcome::Rejected { error, retried, .. } => {
            if *retried {
                format!(
                    "{} {error}\n{:12}{}",
                    paint.red(error.kind().label()),
                    "",
                    paint.red("rejected again after its one retry: nothing ran")
                )
            } else {
                format!("{} {error}", paint.red(error.kind().label()))
            }
        }
    };
    row(out, "outcome", &text);
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

    fn dim(self, text: &str) -> String {
        self.wrap("2", text)
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
