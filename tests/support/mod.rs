//! Shared helpers for the integration tests: `mod support;` then `support::rng::Rng`.
#![allow(dead_code)]

pub mod rng;
