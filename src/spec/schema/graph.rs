//! Checks over compiled types and their definitions: walking a [`Type`]'s subschemas,
//! renumbering references, finding reference cycles that never reach into the value (for
//! the importer and the build check), and which definitions a lenient load weakened.

use crate::spec::{Additional, Schema, Type};

/// The subschemas directly inside `ty`, mutably: `prefixItems`, `items`, `contains`, field
/// types, typed additional members, `propertyNames`, `patternProperties`, the types
/// applied to the same value ([`Type::same_value`]), `unevaluatedProperties` and
/// `unevaluatedItems`.
pub(crate) fn children_mut(ty: &mut Type) -> Vec<&mut Type> {
    let mut out: Vec<&mut Type> = ty.array.prefix.iter_mut().collect();
    if let Some(items) = &mut ty.array.items {
        out.push(items);
    }
    if let Some(contains) = &mut ty.array.contains {
        out.push(contains);
    }
    if let Some(object) = &mut ty.object {
        let object = &mut **object;
        out.extend(object.fields.iter_mut().map(|field| &mut field.ty));
        if let Additional::Typed(additional) = &mut object.additional {
            out.push(additional);
        }
        if let Some(names) = &mut object.property_names {
            out.push(names);
        }
        out.extend(object.patterns.iter_mut().map(|field| &mut field.ty));
    }
    out.extend(ty.any_of.iter_mut());
    out.extend(ty.one_of.iter_mut());
    out.extend(ty.all_of.iter_mut());
    out.extend(ty.not.as_deref_mut());
    if let Some(branches) = ty.if_then_else.as_deref_mut() {
        out.push(&mut branches.condition);
        out.extend(branches.then.as_mut());
        out.extend(branches.otherwise.as_mut());
    }
    out.extend(ty.dependent_schemas.iter_mut().map(|(_, ty)| ty));
    out.extend(ty.unevaluated_properties.as_deref_mut());
    out.extend(ty.unevaluated_items.as_deref_mut());
    out
}

/// Rewrites every reference in the schema: `order[old] = new`.
pub(super) fn remap_references(schema: &mut Schema, order: &[usize]) {
    let mut stack: Vec<&mut Type> = vec![&mut schema.root];
    stack.extend(schema.defs.iter_mut().map(|(_, ty)| ty));
    // An explicit stack, not recursion: the walk is as deep as the schema.
    while let Some(ty) = stack.pop() {
        if let Some(old) = ty.reference {
            ty.reference = order.get(old).copied();
        }
        stack.extend(children_mut(ty));
    }
}

/// The definitions a definition reaches without going into the value: its own `$ref` and
/// those in the types it applies to the same value ([`Type::same_value`]), at any depth of
/// those, in that order (depth first).
fn same_place_references(ty: &Type) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack: Vec<&Type> = vec![ty];
    while let Some(ty) = stack.pop() {
        out.extend(ty.reference);
        // Pushed in reverse, so that they are taken in order.
        let branches: Vec<&Type> = ty.same_value().collect();
        stack.extend(branches.into_iter().rev());
    }
    out
}

/// The first definition found on a cycle of references that never goes into the value
/// (`{"$ref": "#"}`, `a -> anyOf -> b -> a`): validating it would check the same value
/// against the same definition again, without end. The search starts from each of
/// `starts` in turn (the definitions a root reaches) and reports the definition that
/// closes the cycle. This is the one cycle rule, used by the importer and by the build
/// check alike. Depth-first with an explicit stack, so a long chain of definitions cannot
/// exhaust the call stack.
pub(crate) fn find_cycle(
    defs: &[(String, Type)],
    starts: impl IntoIterator<Item = usize>,
) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let successors = |index: usize| {
        defs.get(index)
            .map(|(_, ty)| same_place_references(ty))
            .unwrap_or_default()
    };
    let mut marks = vec![Mark::New; defs.len()];
    for start in starts {
        if marks.get(start) != Some(&Mark::New) {
            continue;
        }
        // (definition, its same-place successors, how many of them were visited)
        let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![(start, successors(start), 0)];
        if let Some(mark) = marks.get_mut(start) {
            *mark = Mark::OnPath;
        }
        while let Some((node, next, visited)) = stack.last_mut() {
            let node = *node;
            let Some(target) = next.get(*visited).copied() else {
                if let Some(mark) = marks.get_mut(node) {
                    *mark = Mark::Done;
                }
                stack.pop();
                continue;
            };
            *visited += 1;
            match marks.get(target) {
                Some(Mark::OnPath) => return Some(target),
                Some(Mark::New) => {
                    if let Some(mark) = marks.get_mut(target) {
                        *mark = Mark::OnPath;
                    }
                    stack.push((target, successors(target), 0));
                }
                _ => {}
            }
        }
    }
    None
}

/// Which definitions a lenient load weakened: those where a keyword was skipped, and
/// those that reference a weakened one. `targets[i] = (skipped, references)`.
pub(super) fn weak_definitions(targets: &[(bool, Vec<usize>)]) -> Vec<bool> {
    let mut weak: Vec<bool> = targets.iter().map(|(skipped, _)| *skipped).collect();
    loop {
        let mut changed = false;
        for (index, (_, references)) in targets.iter().enumerate() {
            let reaches_weak = references
                .iter()
                .any(|&target| weak.get(target) == Some(&true));
            if let Some(flag) = weak.get_mut(index) {
                if !*flag && reaches_weak {
                    *flag = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return weak;
        }
    }
}
