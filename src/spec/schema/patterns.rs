//! The importer's readers for `pattern` and `patternProperties`: each pattern compiled by
//! the regex engine, and refused by name at load when it does not compile or uses a
//! construct the engine does not run. The `pattern` feature; without it `patterns_off.rs`
//! stands here, and the keyword table refuses both keywords before any reader runs.

use super::import::{Importer, Seen};
use super::rules::{check_unique, typed};
use super::LoadError;
use crate::json::{Path, Value};
use crate::spec::string_pattern::StringPattern;
use crate::spec::PatternField;

impl<'v, 'a> Importer<'v, 'a> {
    /// `patternProperties`, each pattern compiled and its schema compiled; and whether they
    /// run: false when a lenient load skipped them, because a pattern uses a construct
    /// toolgate does not run (which a strict load refuses, as for `pattern`).
    pub(super) fn pattern_fields(
        &mut self,
        seen: &Seen<'v, 'a>,
        path: &Path,
        depth: usize,
    ) -> Result<(Vec<PatternField>, bool), LoadError> {
        let expected = "an object of schemas, keyed by regular expressions";
        let Some((key, map)) = typed(seen, "patternProperties", path, expected, Value::as_object)?
        else {
            return Ok((Vec::new(), true));
        };
        let map_path = path.key(key);
        check_unique(map, &map_path)?;
        let mut out = Vec::with_capacity(map.len());
        for (source, schema) in map {
            let pattern = StringPattern::new(source);
            if let Err(error) = pattern.compiled() {
                if self.lenient {
                    self.refuse(path, key)?;
                    return Ok((Vec::new(), false));
                }
                return Err(LoadError::Pattern {
                    path: map_path.to_string(),
                    keyword: "patternProperties",
                    pattern: source.to_string(),
                    error: error.clone(),
                });
            }
            let ty = self.compile(schema, &map_path.key(source.as_ref()), depth + 1, false)?;
            out.push(PatternField { pattern, ty });
        }
        Ok((out, true))
    }

    /// `pattern`, compiled. One that does not compile, or uses a construct toolgate cannot
    /// check in linear time (lookaround, backreferences), is refused by name
    /// ([`LoadError::Pattern`]); a lenient load skips it instead, and lists it.
    pub(super) fn pattern(
        &mut self,
        seen: &Seen<'_, '_>,
        path: &Path,
    ) -> Result<Option<StringPattern>, LoadError> {
        let Some((key, source)) = typed(
            seen,
            "pattern",
            path,
            "a string (a regular expression)",
            Value::as_str,
        )?
        else {
            return Ok(None);
        };
        let pattern = StringPattern::new(source);
        match pattern.compiled() {
            Ok(_) => Ok(Some(pattern)),
            Err(_) if self.lenient => {
                self.refuse(path, key)?;
                Ok(None)
            }
            Err(error) => Err(LoadError::Pattern {
                path: path.to_string(),
                keyword: "pattern",
                pattern: source.to_string(),
                error: error.clone(),
            }),
        }
    }
}
