//! Declaration files: a tools array in any provider's form, mixed freely.
//! (Skeleton: lands with issue #3.)

use super::{LoadError, ToolSpec, Unenforced};

/// Reads a tools array (Anthropic, OpenAI chat, OpenAI Responses, MCP, Gemini forms).
///
/// # Errors
/// A [`LoadError`] with the file position or the tool and path.
pub fn load_tools(text: &str) -> Result<Vec<ToolSpec>, LoadError> {
    load_tools_lenient(text).map(|(tools, _)| tools)
}

/// Like [`load_tools`], but keywords toolgate cannot enforce are listed instead of refused.
///
/// # Errors
/// A [`LoadError`] with the file position or the tool and path.
pub fn load_tools_lenient(text: &str) -> Result<(Vec<ToolSpec>, Vec<Unenforced>), LoadError> {
    let _ = text;
    Ok((Vec::new(), Vec::new()))
}
