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

/// The specs the file declares. `lenient` loads a keyword toolgate cannot enforce (or a
/// provider's built-in tool) instead of refusing it, and lists each on standard error, one
/// line per keyword (`toolgate check: note: tools[0].input_schema.properties.zip: 'pattern'
/// is not enforced`): the operator asked to go on, and must still see what is not checked.
///
/// # Errors
/// A message naming the command, the file and the loader's error (its position or tool).
pub fn load_specs(command: &str, path: &str, lenient: bool) -> Result<Vec<ToolSpec>, String> {
    let text = read(command, path)?;
    let invalid = |error| format!("toolgate {command}: invalid tools file '{path}': {error}");
    if !lenient {
        return spec::load_tools(&text).map_err(invalid);
    }
    let (specs, unenforced) = spec::load_tools_lenient(&text).map_err(invalid)?;
    for entry in &unenforced {
        eprintln!("toolgate {command}: note: {entry}");
    }
    Ok(specs)
}

/// A gate over the file's specs, loaded as [`load_specs`] does; with `formats` false, each
/// `format` is an annotation only (draft 2020-12's default), checked nowhere.
///
/// # Errors
/// As [`load_specs`].
pub fn load_gate(command: &str, path: &str, lenient: bool, formats: bool) -> Result<Gate, String> {
    if !formats {
        let specs = load_specs(command, path, lenient)?;
        let specs = specs.into_iter().map(ToolSpec::without_format_assertions);
        return Gate::new(specs.collect())
            .map_err(|error| format!("toolgate {command}: invalid tools file '{path}': {error}"));
    }
    if !lenient {
        let text = read(command, path)?;
        return Gate::from_tools_json(&text)
            .map_err(|error| format!("toolgate {command}: invalid tools file '{path}': {error}"));
    }
    // The lenient loader refuses two tools with one name too, with their places.
    let specs = load_specs(command, path, true)?;
    Gate::new(specs)
        .map_err(|error| format!("toolgate {command}: invalid tools file '{path}': {error}"))
}
