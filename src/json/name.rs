//! Name equality: the one comparison for duplicate keys ([`repeated_key`](super::repeated_key)),
//! tool names, declared fields and string `enum` values.

/// String equality for names and enum values.
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    a == b
}
