//! Finding the shared corpora beside the crate (`../shared/...`; the crate never copies
//! them), with the one rule every conformance test follows:
//!
//! - the environment variable (`.ci/run` sets it) names the folder; when it is set, the
//!   folder and the files the tests read must be there, or the test fails;
//! - when it is unset, the folder beside the crate is used; when that is absent too (a fresh
//!   clone), the test prints one line saying it skipped and why, and returns;
//! - a folder that is found must hold the files the tests read, whichever way it was found.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The shared folder `default` (under `../shared/`), or the one `var` names: `None` after
/// one line saying why when it is not there to test. Fails when `var` is set and the folder
/// is missing, or when the folder found lacks one of `required`.
pub fn locate(var: &str, default: &str, what: &str, required: &[&str]) -> Option<PathBuf> {
    let dir = match std::env::var_os(var) {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            assert!(
                dir.is_dir(),
                "{var} is set to {} but that folder is missing",
                dir.display()
            );
            dir
        }
        None => {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../shared")
                .join(default);
            if !dir.is_dir() {
                println!(
                    "skipped: {what} not found ({var} unset, {} absent)",
                    dir.display()
                );
                return None;
            }
            dir
        }
    };
    for name in required {
        assert!(
            dir.join(name).exists(),
            "{what} at {} holds no {name}",
            dir.display()
        );
    }
    Some(dir)
}

/// The tool-call corpus (`TOOLGATE_CORPUS`, default `../shared/corpus`): `tools.json`,
/// `calls.jsonl` and `calls.labels.tsv`.
pub fn corpus() -> Option<PathBuf> {
    locate(
        "TOOLGATE_CORPUS",
        "corpus",
        "the tool-call corpus",
        &["tools.json", "calls.jsonl", "calls.labels.tsv"],
    )
}

/// JSONTestSuite (`TOOLGATE_JSONTESTSUITE`, default `../shared/jsontestsuite`), with its
/// `test_parsing` and `test_transform` folders.
pub fn json_test_suite() -> Option<PathBuf> {
    locate(
        "TOOLGATE_JSONTESTSUITE",
        "jsontestsuite",
        "JSONTestSuite",
        &["test_parsing", "test_transform"],
    )
}

/// The JSON-Schema-Test-Suite's draft 2020-12 folder (`TOOLGATE_JSON_SCHEMA_TEST_SUITE`,
/// default `../shared/json-schema-test-suite`).
pub fn json_schema_test_suite() -> Option<PathBuf> {
    locate(
        "TOOLGATE_JSON_SCHEMA_TEST_SUITE",
        "json-schema-test-suite",
        "JSON-Schema-Test-Suite",
        &["draft2020-12"],
    )
    .map(|dir| dir.join("draft2020-12"))
}

/// The whole text of `dir/name`; fails naming the file when it cannot be read.
pub fn read(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}
