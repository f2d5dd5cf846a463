//! The `toolgate` command line. Arguments are parsed by hand (std only).
//! (Skeleton: `bench parse` lands with issue #2; the rest with issue #5.)

// The library forbids unsafe code; the binary denies it everywhere but the counting
// allocator, which cannot be written without `unsafe impl GlobalAlloc`.
#![deny(unsafe_code)]

#[allow(unsafe_code)]
mod alloc;
mod bench;

use std::process::ExitCode;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

const USAGE: &str = "\
usage: toolgate                          run the demo agent loop
       toolgate bench parse FILE...      parse throughput and allocations";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["bench", "parse", files @ ..] if !files.is_empty() => bench::parse_command(files),
        [] | ["-h" | "--help"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
