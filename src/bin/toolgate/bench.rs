//! `toolgate bench`: in-process measurements on realistic data, reported as medians.
//! (Skeleton: `bench parse` lands with issue #2, `bench check` with issue #5.)

use std::process::ExitCode;

/// `toolgate bench parse FILE...`.
pub fn parse_command(files: &[&str]) -> ExitCode {
    let _ = files;
    eprintln!("toolgate bench parse: not built yet (issue #2)");
    ExitCode::from(2)
}
