//! Step 2.3 for objects: unknown fields, missing required fields, field names, then the
//! values of declared fields and of other members, in the order the
//! [module](super) documents. Matching members to fields also finds a key that repeats a
//! declared field, so that a valid value often needs no separate step-1 scan.

use super::{
    check, check_name, same_name, Broken, Checked, Cx, Fail, MAPPED_FIELDS, MAPPED_MEMBERS,
};
use crate::json::{Member, Value};
use crate::spec::absent::reads_as_absent;
use crate::spec::{Additional, Field, ObjectType};

/// One object against its rules; `value` is the object itself (where violations point).
#[inline(never)]
pub(super) fn check_object<'s, 'v>(
    cx: &mut Cx<'s>,
    object: &'s ObjectType,
    members: &'v [Member<'v>],
    value: &'v Value<'v>,
    depth: usize,
) -> Checked<'s, 'v> {
    let fields = object.fields.as_slice();
    if fields.len() > MAPPED_FIELDS || members.len() > MAPPED_MEMBERS {
        cx.covered = false;
        return check_object_by_name(cx, object, members, value, depth);
    }
    let fail = |what| Err(Fail { at: value, what });
    let open = !matches!(object.additional, Additional::Forbidden);
    // For each declared field, one plus the index of the member that holds it (0: absent),
    // on the stack. Filling it finds, in passing, a key that repeats a declared field; a
    // repeat among undeclared members is left to the scan.
    let mut member_of = [0u8; MAPPED_FIELDS];
    // Models mostly write members in declaration order, so the field after the last one
    // matched is tried first.
    let mut next_field = 0;
    for (member_index, (key, _)) in members.iter().enumerate() {
        let found = match fields.get(next_field) {
            Some(field) if same_name(&field.name, key) => Some(next_field),
            _ => field_index(fields, key),
        };
        if let Some(index) = found {
            next_field = index + 1;
        }
        match found.and_then(|index| member_of.get_mut(index)) {
            Some(slot) if *slot != 0 => return fail(Broken::DuplicateKey(key)),
            Some(slot) => *slot = u8::try_from(member_index + 1).unwrap_or(u8::MAX),
            None if open => cx.covered = false,
            None => return fail(Broken::Unknown(key, fields)),
        }
    }
    let member_of = member_of.get(..fields.len()).unwrap_or(&[]);
    for (field, &slot) in fields.iter().zip(member_of) {
        if field.required && slot == 0 {
            return fail(Broken::Required(&field.name));
        }
    }
    if let Some(names) = &object.property_names {
        for (key, _) in members {
            check_name(cx, names, key, value, depth)?;
        }
    }
    for (field, &slot) in fields.iter().zip(member_of) {
        if let Some((_, item)) = usize::from(slot)
            .checked_sub(1)
            .and_then(|index| members.get(index))
        {
            check_field(cx, field, item, depth)?;
        }
    }
    if let Additional::Typed(additional) = &object.additional {
        for (member_index, (_, item)) in members.iter().enumerate() {
            let mark = u8::try_from(member_index + 1).unwrap_or(u8::MAX);
            if !member_of.contains(&mark) {
                check(cx, additional, item, depth + 1)?;
            }
        }
    }
    Ok(())
}

/// A declared field's value against its type, where strict mode's `null` for an optional
/// field whose type refuses it reads as absent ([`absent`](crate::spec::absent)).
#[inline(always)]
fn check_field<'s, 'v>(
    cx: &mut Cx<'s>,
    field: &'s Field,
    item: &'v Value<'v>,
    depth: usize,
) -> Checked<'s, 'v> {
    match check(cx, &field.ty, item, depth + 1) {
        Err(fail) if !fail.is_fatal() && reads_as_absent(field, item, || true) => {
            cx.read_absent = true;
            Ok(())
        }
        checked => checked,
    }
}

/// The index of the declared field named `key`, comparing lengths and first bytes before
/// whole names (a linear scan beats any map for the handful of fields a tool declares).
#[inline]
fn field_index(fields: &[Field], key: &str) -> Option<usize> {
    fields.iter().position(|field| same_name(&field.name, key))
}

/// [`check_object`] for objects too large to map on the stack: the same checks in the same
/// order, finding members by name.
fn check_object_by_name<'s, 'v>(
    cx: &mut Cx<'s>,
    object: &'s ObjectType,
    members: &'v [Member<'v>],
    value: &'v Value<'v>,
    depth: usize,
) -> Checked<'s, 'v> {
    let fail = |what| Err(Fail { at: value, what });
    let fields = object.fields.as_slice();
    let open = !matches!(object.additional, Additional::Forbidden);
    for (key, _) in members {
        if !open && field_index(fields, key).is_none() {
            return fail(Broken::Unknown(key, fields));
        }
    }
    let find = |name: &str| members.iter().find(|(key, _)| same_name(key, name));
    for field in fields {
        if field.required && find(&field.name).is_none() {
            return fail(Broken::Required(&field.name));
        }
    }
    if let Some(names) = &object.property_names {
        for (key, _) in members {
            check_name(cx, names, key, value, depth)?;
        }
    }
    for field in fields {
        if let Some((_, item)) = find(&field.name) {
            check_field(cx, field, item, depth)?;
        }
    }
    if let Additional::Typed(additional) = &object.additional {
        for (key, item) in members {
            if field_index(fields, key).is_none() {
                check(cx, additional, item, depth + 1)?;
            }
        }
    }
    Ok(())
}
