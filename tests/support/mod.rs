//! Shared helpers for the integration tests: `mod support;` then `support::rng::Rng`,
//! `support::corpus::corpus()` and the like. Each test binary uses a subset.
#![allow(dead_code)]

pub mod cli;
pub mod corpus;
pub mod events;
pub mod mutate;
pub mod parts;
pub mod rng;
pub mod values;
