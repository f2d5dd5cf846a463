//! Property tests with the seeded PRNG in `tests/support/rng.rs` and the random values and
//! spellings of `tests/support/values.rs`. The seed is printed (and
//! shown when a test fails); replay with `TOOLGATE_SEED=N`, and raise the number of cases
//! with `TOOLGATE_FUZZ_ITERS=N`.
//!
//! - Round trip: a random value, written compact, pretty, or spelled with random escapes
//!   (`\u` forms, surrogate pairs, either hex case) and random whitespace, parses back equal.
//! - Every byte prefix of a random valid text is `Ok` or `Truncated`.
//! - Random byte mutations never panic, and give `Ok` or an error whose offset is inside
//!   the input.

mod support;

use support::rng::Rng;
use support::values::{random_value, spell, HALF_PLAIN};
use toolgate::json::{parse, parse_bytes, preview, to_pretty_string, Value};

fn parsed(text: &str, seed: u64) -> Value<'_> {
    match parse(text) {
        Ok(value) => value,
        Err(error) => panic!("seed {seed}: {text:?} failed: {error}"),
    }
}

#[test]
fn random_values_survive_writing_and_parsing() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(3000) {
        let value = random_value(&mut rng, 4);
        let compact = value.to_string();
        assert_eq!(
            parsed(&compact, seed),
            value,
            "seed {seed}: compact {compact:?}"
        );
        assert!(
            !compact.contains(|c: char| c < '\u{20}'),
            "seed {seed}: {compact:?} holds a control character"
        );
        let pretty = to_pretty_string(&value);
        assert_eq!(
            parsed(&pretty, seed),
            value,
            "seed {seed}: pretty {pretty:?}"
        );
        assert_eq!(format!("{value:#}"), pretty);
        let mut spelled = String::new();
        spell(&mut rng, &mut spelled, &value, HALF_PLAIN);
        assert_eq!(
            parsed(&spelled, seed),
            value,
            "seed {seed}: spelled {spelled:?}"
        );
    }
}

#[test]
fn preview_is_the_compact_text_cut_on_a_character_boundary() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(2000) {
        let value = random_value(&mut rng, 3);
        let compact = value.to_string();
        let max_chars = rng.below(40);
        let expected = if compact.chars().count() <= max_chars {
            compact.clone()
        } else {
            compact.chars().take(max_chars).chain(['…']).collect()
        };
        assert_eq!(
            preview(&value, max_chars),
            expected,
            "seed {seed}: {compact:?} at {max_chars}"
        );
    }
}

#[test]
fn every_byte_prefix_of_a_random_text_is_ok_or_truncated() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(300) {
        let value = random_value(&mut rng, 3);
        let mut text = String::new();
        spell(&mut rng, &mut text, &value, HALF_PLAIN);
        let bytes = text.as_bytes();
        for cut in 0..bytes.len() {
            if let Err(error) = parse_bytes(&bytes[..cut]) {
                assert!(
                    error.is_truncated(),
                    "seed {seed}: prefix {:?} of {text:?}: {error}",
                    String::from_utf8_lossy(&bytes[..cut])
                );
            }
        }
    }
}

/// Bytes that matter to the grammar, to mutate with.
const INTERESTING: &[u8] =
    b"[]{}:,\"\\/ux0123456789-+.eEtrfalsn \t\n\r\x00\x1f\x7f\x80\xbf\xc3\xe2\xf0\xff";

#[test]
fn mutated_texts_never_panic_and_errors_point_inside_the_input() {
    let mut rng = Rng::from_env();
    let seed = rng.seed();
    for _ in 0..Rng::iters(5000) {
        let value = random_value(&mut rng, 3);
        let mut text = String::new();
        spell(&mut rng, &mut text, &value, HALF_PLAIN);
        let mut bytes = text.into_bytes();
        for _ in 0..rng.range(1, 4) {
            let at = rng.below(bytes.len() + 1);
            let byte = if rng.bool() {
                *rng.pick(INTERESTING)
            } else {
                rng.u8()
            };
            match rng.below(4) {
                0 if at < bytes.len() => bytes[at] = byte,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                2 => bytes.truncate(at),
                _ => bytes.insert(at, byte),
            }
        }
        match parse_bytes(&bytes) {
            Ok(value) => assert_eq!(parsed(&value.to_string(), seed), value, "seed {seed}"),
            Err(error) => {
                let shown = String::from_utf8_lossy(&bytes);
                assert!(
                    error.offset() <= bytes.len(),
                    "seed {seed}: {shown:?}: offset {} beyond",
                    error.offset()
                );
                assert!(
                    error.line() >= 1 && error.column() >= 1,
                    "seed {seed}: {shown:?}"
                );
                assert!(
                    !error.to_string().is_empty(),
                    "seed {seed}: {shown:?}: empty message"
                );
                if error.is_truncated() {
                    assert_eq!(error.offset(), bytes.len(), "seed {seed}: {shown:?}");
                }
            }
        }
    }
}

#[test]
fn the_rng_replays_its_seed_and_spreads_its_numbers() {
    let mut a = Rng::new(7);
    let mut b = Rng::new(7);
    let first: Vec<u64> = (0..8).map(|_| a.u64()).collect();
    assert_eq!(first, (0..8).map(|_| b.u64()).collect::<Vec<_>>());
    let mut c = Rng::new(8);
    assert_ne!(first, (0..8).map(|_| c.u64()).collect::<Vec<_>>());
    let mut seen = [false; 5];
    for _ in 0..1000 {
        let n = a.below(5);
        assert!(n < 5);
        seen[n] = true;
    }
    assert_eq!(seen, [true; 5]);
    assert_eq!(a.below(0), 0);
}
