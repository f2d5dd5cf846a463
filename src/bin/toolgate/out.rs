//! Standard output, written so that a reader that goes away ends a command quietly.
//!
//! `println!` panics when standard output is closed: `toolgate bench check ... | head -3`
//! closes it after three lines. A panic is the one answer the tool never gives, so every
//! command writes what it prints through [`print`], and `clippy::print_stdout` is denied
//! in the binary to keep it that way.

use std::io::{self, Write};
use std::process::ExitCode;

/// Writes `text` to standard output, or gives the exit status the command stops with: success
/// when the reader went away (`| head`: a filter stops quietly, as `toolgate check` does),
/// or 2 after a message naming `command` when writing failed otherwise.
///
/// # Errors
/// The exit status, as above, when `text` could not be written.
pub fn print(command: &str, text: &str) -> Result<(), ExitCode> {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Err(ExitCode::SUCCESS),
        Err(error) => {
            eprintln!("{command}: cannot write standard output: {error}");
            Err(ExitCode::from(2))
        }
    }
}
