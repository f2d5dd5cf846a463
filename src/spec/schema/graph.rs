//! Checks over compiled types and their definitions: walking a [`Type`]'s subschemas,
//! renumbering references, finding reference cycles that never reach into the value, and
//! which definitions a lenient load weakened.

use crate::spec::{Additional, Schema, Type};

/// The subschemas directly inside `ty`, mutably: `items`, field types, typed additional
/// members, `propertyNames`, and the `anyOf`, `oneOf`, `allOf` branches.
pub(crate) fn children_mut(ty: &mut Type) -> Vec<&mut Type> {
    let mut out: Vec<&mut Type> = Vec::new();
    if let Some(items) = &mut ty.array.items {
        out.push(items);
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
    }
    out.extend(ty.any_of.iter_mut());
    out.extend(ty.one_of.iter_mut());
    out.extend(ty.all_of.iter_mut());
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
/// those in its `anyOf`, `oneOf` and `allOf` branches, at any depth of branches.
fn same_place_references(ty: &Type) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack: Vec<&Type> = vec![ty];
    while let Some(ty) = stack.pop() {
        out.extend(ty.reference);
        stack.extend(ty.any_of.iter());
        stack.extend(ty.one_of.iter());
        stack.extend(ty.all_of.iter());
    }
    out
}

/// A definition on a cycle of references that never goes into the value
/// (`{"$ref": "#"}`, `a -> anyOf -> b -> a`): validating it would never end.
pub(crate) fn find_cycle(defs: &[(String, Type)]) -> Option<usize> {
    let edges: Vec<Vec<usize>> = defs
        .iter()
        .map(|(_, ty)| same_place_references(ty))
        .collect();
    let n = defs.len();
    // Kahn's algorithm on the reversed graph: peel off definitions nothing refers to
    // from the remaining ones; whatever is left has a predecessor on a cycle.
    let mut indegree = vec![0usize; n];
    for targets in &edges {
        for &target in targets {
            if let Some(count) = indegree.get_mut(target) {
                *count = count.saturating_add(1);
            }
        }
    }
    let mut queue: Vec<usize> = (0..n).filter(|&i| indegree.get(i) == Some(&0)).collect();
    let mut removed = vec![false; n];
    while let Some(node) = queue.pop() {
        if let Some(flag) = removed.get_mut(node) {
            *flag = true;
        }
        for &target in edges.get(node).map(Vec::as_slice).unwrap_or(&[]) {
            if let Some(count) = indegree.get_mut(target) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    queue.push(target);
                }
            }
        }
    }
    let start = removed.iter().position(|&done| !done)?;
    // Walk back along remaining predecessors n times: the walk is then on a cycle.
    let mut node = start;
    for _ in 0..n {
        let predecessor = (0..n).find(|&p| {
            removed.get(p) == Some(&false)
                && edges.get(p).is_some_and(|targets| targets.contains(&node))
        });
        match predecessor {
            Some(p) => node = p,
            None => break,
        }
    }
    Some(node)
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
