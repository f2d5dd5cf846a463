//! The importer's readers for `pattern` and `patternProperties` in a build without the
//! `pattern` feature: they find nothing to read, because the keyword table refuses both
//! keywords by name (with the feature to turn on) before any reader runs. They stand here
//! so that the readers of a type's rules (`rules.rs`) are one code in every build.

use super::import::{Importer, Seen};
use super::LoadError;
use crate::json::Path;
use crate::spec::string_pattern::StringPattern;
use crate::spec::PatternField;

impl<'v, 'a> Importer<'v, 'a> {
    /// No `patternProperties`, and nothing skipped: `seen` never holds the keyword.
    pub(super) fn pattern_fields(
        &mut self,
        _seen: &Seen<'v, 'a>,
        _path: &Path,
        _depth: usize,
    ) -> Result<(Vec<PatternField>, bool), LoadError> {
        Ok((Vec::new(), true))
    }

    /// No `pattern`: `seen` never holds the keyword.
    pub(super) fn pattern(
        &mut self,
        _seen: &Seen<'_, '_>,
        _path: &Path,
    ) -> Result<Option<StringPattern>, LoadError> {
        Ok(None)
    }
}
