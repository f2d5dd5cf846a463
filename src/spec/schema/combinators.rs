//! The readers of the keywords that apply schemas to the same value (`allOf`, `anyOf`,
//! `oneOf`, `not`, `if`, `dependentSchemas`, `unevaluated*`), and how a lenient load tells
//! that one of their subschemas was weakened.

use super::import::{Importer, Seen};
use super::rules::{check_unique, invalid};
use super::LoadError;
use crate::json::{Path, Value};
use crate::spec::{IfThenElse, Type};

impl<'v, 'a> Importer<'v, 'a> {
    pub(super) fn schema_list(
        &mut self,
        value: &'v Value<'a>,
        path: &Path,
        key: &str,
        depth: usize,
    ) -> Result<Vec<Type>, LoadError> {
        let items = match value.as_array() {
            Some(items) if !items.is_empty() => items,
            _ => {
                return Err(invalid(
                    path,
                    Some(key),
                    "a non-empty array of schemas",
                    value,
                ))
            }
        };
        let list_path = path.key(key);
        let mut out = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            out.push(self.compile(item, &list_path.index(index), depth + 1, false)?);
        }
        Ok(out)
    }

    /// `oneOf`, skipped whole in a lenient load when a branch got weaker.
    pub(super) fn one_of(
        &mut self,
        value: &'v Value<'a>,
        path: &Path,
        key: &str,
        depth: usize,
    ) -> Result<Vec<Type>, LoadError> {
        let mark = self.mark();
        let branches = self.schema_list(value, path, key, depth)?;
        if self.weakened_since(mark) {
            self.refuse(path, key)?;
            return Ok(Vec::new());
        }
        Ok(branches)
    }

    /// `not`, skipped whole in a lenient load when the schema it negates got weaker (a
    /// weaker schema matches more, so its negation would refuse more).
    pub(super) fn negated(
        &mut self,
        value: &'v Value<'a>,
        path: &Path,
        key: &str,
        depth: usize,
    ) -> Result<Option<Box<Type>>, LoadError> {
        let mark = self.mark();
        let negated = self.compile(value, &path.key(key), depth + 1, false)?;
        if self.weakened_since(mark) {
            self.refuse(path, key)?;
            return Ok(None);
        }
        Ok(Some(Box::new(negated)))
    }

    /// `if`, `then` and `else`; `None` without `if` (then the others assert nothing). In a
    /// lenient load, an `if` that got weaker would send values to `then` that belong to
    /// `else`: the three are skipped, and `if` listed.
    pub(super) fn if_then_else(
        &mut self,
        seen: &Seen<'v, 'a>,
        path: &Path,
        depth: usize,
    ) -> Result<Option<Box<IfThenElse>>, LoadError> {
        let Some((key, value)) = seen.get("if") else {
            return Ok(None);
        };
        let mark = self.mark();
        let condition = self.compile(value, &path.key(key), depth + 1, false)?;
        let weakened = self.weakened_since(mark);
        let mut branch = |keyword: &str| match seen.get(keyword) {
            Some((key, value)) => self
                .compile(value, &path.key(key), depth + 1, false)
                .map(Some),
            None => Ok(None),
        };
        let then = branch("then")?;
        let otherwise = branch("else")?;
        if weakened {
            self.refuse(path, key)?;
            return Ok(None);
        }
        Ok(Some(Box::new(IfThenElse {
            condition,
            then,
            otherwise,
        })))
    }

    /// `dependentSchemas`: an object of schemas, by member name.
    pub(super) fn dependent_schemas(
        &mut self,
        value: &'v Value<'a>,
        path: &Path,
        key: &str,
        depth: usize,
    ) -> Result<Vec<(String, Type)>, LoadError> {
        let entries = value
            .as_object()
            .ok_or_else(|| invalid(path, Some(key), "an object of schemas", value))?;
        let map_path = path.key(key);
        check_unique(entries, &map_path)?;
        let mut out = Vec::with_capacity(entries.len());
        for (name, schema) in entries {
            let ty = self.compile(schema, &map_path.key(name.as_ref()), depth + 1, false)?;
            out.push((name.to_string(), ty));
        }
        Ok(out)
    }

    /// `unevaluatedProperties` or `unevaluatedItems`. Which members or items they judge
    /// depends on what every other keyword of the schema evaluated, here, in the subschemas
    /// applied to the same value and in the definitions those refer to. In a lenient load
    /// that skipped any of those since `since` (this schema object's start), a member the
    /// skipped keyword would have evaluated would now be judged, and a valid value refused:
    /// the keyword is skipped too, and listed.
    pub(super) fn unevaluated(
        &mut self,
        entry: Option<(&'v str, &'v Value<'a>)>,
        since: (usize, usize),
        path: &Path,
        depth: usize,
    ) -> Result<Option<Box<Type>>, LoadError> {
        let Some((key, _)) = entry else {
            return Ok(None);
        };
        if self.weakened_since(since) {
            self.refuse(path, key)?;
            return Ok(None);
        }
        self.subschema(entry, path, depth)
    }

    /// Where the unenforced list and the reference log stand, for [`Self::weakened_since`].
    pub(super) fn mark(&self) -> (usize, usize) {
        (self.unenforced.len(), self.ref_log.len())
    }

    /// True, on the second pass of a lenient load, if what was compiled since `mark`
    /// skipped a keyword or referred to a weakened definition: a keyword whose meaning
    /// turns when its subschemas weaken (`oneOf`, `not`) must then be skipped itself.
    pub(super) fn weakened_since(&self, (skipped, log_start): (usize, usize)) -> bool {
        match &self.weak {
            Some(weak) => {
                self.unenforced.len() > skipped
                    || self
                        .ref_log
                        .get(log_start..)
                        .unwrap_or(&[])
                        .iter()
                        .any(|&index| weak.get(index).copied().unwrap_or(true))
            }
            None => false,
        }
    }
}
