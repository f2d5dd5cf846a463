//! A key given twice: the one rule wherever names are read. RFC 8259 leaves a repeat's
//! meaning to each reader, so two readers of one text may act on different values; toolgate
//! refuses it and reports the first name, in input order, that repeats an earlier one.

use super::same_name;

/// Up to this many names, each is compared with those before it: no allocation, and for
/// the few members real objects have, faster than sorting.
const PAIRWISE_UP_TO: usize = 32;

/// The index of the first item whose name repeats an earlier item's name, in input order;
/// `None` if every name is distinct. `name` reads an item's name (`|(key, _)| key` for an
/// object's members). Quadratic only up to [`PAIRWISE_UP_TO`] items; beyond, one sort.
pub(crate) fn repeated_key<T>(items: &[T], name: impl Fn(&T) -> &str) -> Option<usize> {
    if items.len() <= PAIRWISE_UP_TO {
        let mut earlier = items;
        // Each item against those before it, walking from the last: the earliest repeat is
        // the smallest index found.
        let mut found = None;
        while let Some((item, before)) = earlier.split_last() {
            let key = name(item);
            if before.iter().any(|other| same_name(name(other), key)) {
                found = Some(before.len());
            }
            earlier = before;
        }
        return found;
    }
    // Sorted by (name, index), each run of equal names lists its items in input order, so
    // the second of each equal pair of neighbours is a repeat, and the smallest such index
    // is the first repeat in input order.
    let mut order: Vec<(&str, usize)> = items
        .iter()
        .enumerate()
        .map(|(index, item)| (name(item), index))
        .collect();
    order.sort_unstable();
    order
        .windows(2)
        .filter_map(|pair| match pair {
            [(first, _), (second, index)] if first == second => Some(*index),
            _ => None,
        })
        .min()
}
