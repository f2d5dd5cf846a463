//! Reading the `--tools` file every command takes, with the error texts they share: a
//! tools file that cannot be read or loaded is the operator's to fix, so the message names
//! the file and passes on the loader's position or tool.

use toolgate::spec::{self, ToolSpec};
use toolgate::Gate;

/// The file's text.
///
/// # Errors
/// A message naming the command and the file: the OS error, or the first byte that is not
/// UTF-8 (a JSON text is UTF-8, RFC 8259 section 8.1).
pub fn read(command: &str, path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path)
        .map_err(|error| format!("toolgate {command}: cannot read tools file '{path}': {error}"))?;
    String::from_utf8(bytes).map_err(|error| {
        let offset = error.utf8_error().valid_up_to();
        format!("toolgate {command}: invalid tools file '{path}': invalid UTF-8 at byte {offset}")
    })
}

/// The specs the file declares.
///
/// # Errors
/// A message naming the command, the file and the loader's error (its position or tool).
pub fn load_specs(command: &str, path: &str) -> Result<Vec<ToolSpec>, String> {
    let text = read(command, path)?;
    spec::load_tools(&text)
        .map_err(|error| format!("toolgate {command}: invalid tools file '{path}': {error}"))
}

/// A gate over the file's specs.
///
/// # Errors
/// As [`load_specs`].
pub fn load_gate(command: &str, path: &str) -> Result<Gate, String> {
    let text = read(command, path)?;
    Gate::from_tools_json(&text)
        .map_err(|error| format!("toolgate {command}: invalid tools file '{path}': {error}"))
}
