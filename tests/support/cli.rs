//! Running the `toolgate` binary from a test: a scratch file to hand it, and one run with
//! its exit code and both outputs.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Writes `text` to a scratch file of this call's own, named after `name`, and returns its
/// path. Tests run in parallel and may write files of one name: each call writes its own
/// file under a unique name, so no test reads another's half-written one.
pub fn file(name: &str, text: impl AsRef<[u8]>) -> String {
    static N_FILES: AtomicUsize = AtomicUsize::new(0);
    let n = N_FILES.fetch_add(1, Ordering::SeqCst);
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}.{n}.{name}", std::process::id()));
    std::fs::write(&path, text).expect("the scratch folder is writable");
    path.display().to_string()
}

/// Runs `toolgate ARGS` with `stdin`; returns (exit code, stdout, stderr).
pub fn toolgate(args: &[&str], stdin: impl AsRef<[u8]>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.as_ref().to_vec();
    // Written from another thread: a large input would otherwise fill the pipe while the
    // child waits for its output to be read. A command that stops early (a tools file it
    // refuses) does not read it.
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("the writer thread ends");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
