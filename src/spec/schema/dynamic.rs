//! `$dynamicRef`, resolved at load: `"#node"` resolves as a `$ref`, unless the schema found
//! declares `"$dynamicAnchor": "node"`; then it leads to that anchor in the outermost
//! resource of the dynamic scope that declares one. Each place is compiled once per
//! [`Scope`] it is reached in, so the validator sees plain references.

/// The dynamic scope, as much of it as `$dynamicRef` reads: for each name a `$dynamicAnchor`
/// declares, the outermost resource entered that declares it (an index into the document's
/// resources), in the order first entered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Scope(Vec<(String, usize)>);

impl Scope {
    /// This scope once resource `index`, whose dynamic anchors are `declared`, is entered:
    /// its names that no outer resource declares now lead to it.
    pub(super) fn entering(&self, index: usize, declared: &[String]) -> Scope {
        let mut scope = self.clone();
        for name in declared {
            if !scope.0.iter().any(|(bound, _)| bound == name) {
                scope.0.push((name.clone(), index));
            }
        }
        scope
    }

    /// The outermost resource entered that declares the dynamic anchor `name`.
    pub(super) fn resource_for(&self, name: &str) -> Option<usize> {
        self.0
            .iter()
            .find(|(bound, _)| bound == name)
            .map(|&(_, index)| index)
    }
}

/// A place is compiled under at most this many scopes; a document that would need more
/// (resources declaring the same dynamic anchors, entered in ever new orders) is refused
/// ([`LoadError::DynamicScopes`](crate::spec::LoadError::DynamicScopes)).
pub(super) const MAX_SCOPES_PER_PLACE: usize = 8;
