//! (Placeholder: this module lands with its issue.)
