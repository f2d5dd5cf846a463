//! JSON Schema import: the subset toolgate enforces, and a load error for every keyword
//! that would assert something toolgate does not check. (Skeleton: lands with issue #3.)

use super::Schema;
use crate::json::Value;
use std::fmt;

/// A schema or tools file that cannot be loaded.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadError {
    pub(crate) message: String,
}

/// A keyword a lenient load accepted without enforcing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unenforced {
    /// Where it stands (`tools[2].input_schema.properties.zip`).
    pub path: String,
    /// The keyword (`pattern`).
    pub keyword: String,
}

impl Schema {
    /// Compiles a JSON Schema.
    ///
    /// # Errors
    /// A [`LoadError`] naming any unsupported keyword and where it stands.
    pub fn from_json_schema(schema: &Value<'_>) -> Result<Schema, LoadError> {
        let _ = schema;
        Ok(Schema::default())
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LoadError {}
