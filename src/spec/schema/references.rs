//! How a `$ref` or `$dynamicRef` is followed: the place it names (a JSON pointer, an
//! anchor, a resource by its `$id`), in the dynamic scope it is reached in, becomes one
//! definition on the work list, compiled once.

use super::dynamic::{Scope, MAX_SCOPES_PER_PLACE};
use super::import::{Importer, Place};
use super::pointer::{anchors, find_anchor, parse_ref, resolve, Target};
use super::rules::invalid;
use super::uri;
use super::{LoadError, RefProblem};
use crate::json::{Path, Value};

impl<'v, 'a> Importer<'v, 'a> {
    pub(super) fn reference(
        &mut self,
        value: &Value<'_>,
        path: &Path,
        key: &str,
    ) -> Result<Option<usize>, LoadError> {
        let text = value
            .as_str()
            .ok_or_else(|| invalid(path, Some(key), "a string (a URI reference)", value))?;
        let problem = match parse_ref(text, &self.base_uri, &self.resources) {
            Target::Local(tokens) => return self.target_for(tokens, path, text).map(Some),
            Target::Remote => RefProblem::Remote,
            Target::Anchor(start, name) => {
                match find_anchor(self.document, &start, &name, self.dialect) {
                    Some(tokens) => return self.target_for(tokens, path, text).map(Some),
                    None => RefProblem::Anchor,
                }
            }
            Target::Malformed => {
                return Err(invalid(
                    path,
                    Some(key),
                    "a reference whose fragment is a JSON pointer (RFC 6901)",
                    value,
                ))
            }
        };
        if self.lenient {
            self.refuse(path, key)?;
            return Ok(None);
        }
        Err(LoadError::Reference {
            path: path.to_string(),
            reference: text.to_string(),
            problem,
        })
    }

    /// `scope` once resource `index` (if any) is entered.
    pub(super) fn entering(&self, scope: &Scope, index: Option<usize>) -> Scope {
        match index.and_then(|i| Some((i, self.dynamic_anchors.get(i)?))) {
            Some((index, declared)) => scope.entering(index, declared),
            None => scope.clone(),
        }
    }

    /// `$dynamicRef`: where its plain-name fragment leads in the dynamic scope of the
    /// schema being compiled (see [`dynamic`](super::dynamic)); anything else about it (a
    /// pointer fragment, a name no `$dynamicAnchor` in scope declares, the errors) is as
    /// for `$ref`.
    pub(super) fn dynamic_reference(
        &mut self,
        value: &Value<'_>,
        path: &Path,
        key: &str,
    ) -> Result<Option<usize>, LoadError> {
        match value
            .as_str()
            .and_then(|text| Some((text, self.dynamic_target(text)?)))
        {
            Some((text, tokens)) => self.target_for(tokens, path, text).map(Some),
            None => self.reference(value, path, key),
        }
    }

    /// The place a `$dynamicRef` of `text` leads to by the dynamic scope: when the schema
    /// its `#name` first names declares `"$dynamicAnchor": name`, the schema that declares
    /// it in the outermost resource in scope that has one. `None`: it is a `$ref`.
    pub(super) fn dynamic_target(&self, text: &str) -> Option<Vec<String>> {
        let Target::Anchor(start, name) = parse_ref(text, &self.base_uri, &self.resources) else {
            return None;
        };
        let initial = find_anchor(self.document, &start, &name, self.dialect)?;
        let declares = |tokens: &[String]| {
            resolve(self.document, tokens, self.dialect)
                .ok()
                .and_then(|schema| schema.get("$dynamicAnchor"))
                .and_then(Value::as_str)
                == Some(name.as_str())
        };
        if !declares(&initial) {
            return None;
        }
        let outermost = self.resources.get(self.scope.resource_for(&name)?)?;
        anchors(
            self.document,
            &outermost.tokens,
            self.dialect,
            &["$dynamicAnchor"],
        )
        .into_iter()
        .find(|(anchor, _)| *anchor == name)
        .map(|(_, tokens)| tokens)
    }

    /// The definition for a place in the document, made (and queued) on first reference.
    pub(super) fn target_for(
        &mut self,
        tokens: Vec<String>,
        path: &Path,
        text: &str,
    ) -> Result<usize, LoadError> {
        // Reached through this reference, the place's own resource is entered.
        let scope = self.entering(&self.scope, uri::around(&self.resources, &tokens));
        let same = |t: &Place| t.tokens == tokens && t.scope == scope;
        if let Some(index) = self.targets.iter().position(same) {
            self.ref_log.push(index);
            return Ok(index);
        }
        if self.targets.iter().filter(|t| t.tokens == tokens).count() >= MAX_SCOPES_PER_PLACE {
            return Err(LoadError::DynamicScopes {
                path: path.to_string(),
                reference: text.to_string(),
                limit: MAX_SCOPES_PER_PLACE,
            });
        }
        if let Err(missing) = resolve(self.document, &tokens, self.dialect) {
            return Err(LoadError::Reference {
                path: path.to_string(),
                reference: text.to_string(),
                problem: if missing {
                    RefProblem::NotFound
                } else {
                    RefProblem::NotASchema
                },
            });
        }
        let index = self.targets.len();
        // The root in its own scope is compiled in place (see `run`); in another, it is a
        // definition like any place.
        let is_root = tokens.is_empty() && scope == self.entering(&Scope::default(), Some(0));
        self.targets.push(Place {
            tokens,
            scope,
            ty: None,
            refs: Vec::new(),
            skipped: false,
        });
        if !is_root {
            self.pending.push(index);
        }
        self.ref_log.push(index);
        Ok(index)
    }
}
