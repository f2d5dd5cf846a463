//! toolgate: nothing a model emits executes before it has been checked.
//!
//! (The crate-level guide to the gates lands with issue #4.)

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

// Floors, bottom up: each module uses only the ones above it in this list.
pub mod json;

pub mod spec;
pub use spec::{ToolSpec, Type};

pub mod rejection;

pub mod envelope;
pub mod suggest;

pub mod gate;

pub mod registry;
pub mod result_block;

pub mod counters;
pub mod guard;

// Re-exports of the gate layer (issue #4).
pub use envelope::Call;
pub use gate::{DuplicateTool, Gate};
pub use registry::{handle_tool_call, Handler, Outcome, Registry, RegistryError};
pub use rejection::{EnvelopeProblem, Part, Rejection, RejectionKind};
pub use result_block::result_block;

// Re-exports of loop safety (issue #5).
pub use counters::{Counters, Counts};
pub use guard::{Guard, Unrecoverable};
