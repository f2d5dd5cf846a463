//! `$dynamicRef`: a reference whose target depends on how validation got there.
//!
//! `"$dynamicRef": "#node"` first resolves as `"$ref": "#node"` would. If the schema found
//! declares `"$dynamicAnchor": "node"`, the target is instead the `node` dynamic anchor of the
//! outermost resource in the *dynamic scope* that declares one: the resources (the root, and
//! schemas with an `$id`) that validation entered on its way here, through subschemas and
//! references. That is how a generic schema (a tree whose nodes are left open) is extended
//! by one that refers to it (the same tree with strict nodes).
//!
//! The scope is known at load time for every place a reference leads to, so the compiler
//! resolves the references statically: each place is compiled once per scope it is reached
//! in ([`Scope`], which keeps only what a `$dynamicRef` reads), and a document without
//! `$dynamicAnchor` has one, empty, scope everywhere. The validator sees plain references.

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
