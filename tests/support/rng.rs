//! A small seeded PRNG for property tests, shaped like fastrand (wyrand inside), std only.
//!
//! Every property test prints its seed, so a failure can be replayed exactly:
//! `TOOLGATE_SEED=1234 cargo test --test NAME`. `TOOLGATE_FUZZ_ITERS` raises (or lowers) the
//! number of cases a test runs. Use it as `#[path = "support/rng.rs"] mod rng;` or through
//! `mod support;` (`support::rng::Rng`).
#![allow(dead_code)]

/// wyrand: one `u64` of state, a multiply and a fold per number. Not cryptographic; fast,
/// and good enough to spread test cases.
#[derive(Clone, Debug)]
pub struct Rng {
    seed: u64,
    state: u64,
}

impl Rng {
    /// A generator that always yields the same sequence for the same seed.
    pub fn new(seed: u64) -> Rng {
        Rng { seed, state: seed }
    }

    /// A generator seeded from `TOOLGATE_SEED`, or else from the clock. Prints the seed (the
    /// test harness shows it when the test fails) so that the run can be replayed.
    pub fn from_env() -> Rng {
        let seed = match std::env::var("TOOLGATE_SEED") {
            Ok(text) => match text.trim().parse() {
                Ok(seed) => seed,
                Err(_) => panic!("TOOLGATE_SEED must be a u64, got {text:?}"),
            },
            Err(_) => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|elapsed| elapsed.as_nanos() as u64)
                .unwrap_or(0x5eed),
        };
        println!("rng seed {seed} (replay with TOOLGATE_SEED={seed})");
        Rng::new(seed)
    }

    /// The seed this generator started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// A uniformly random `u64`.
    pub fn u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let product = u128::from(self.state) * u128::from(self.state ^ 0xe703_7ed1_a0b4_28db);
        (product >> 64) as u64 ^ product as u64
    }

    /// A number in `0..n` (0 when `n` is 0), without modulo bias worth noticing in tests
    /// (Lemire's multiply-shift).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.u64()) * n as u128) >> 64) as usize
    }

    /// A number in `low..=high`.
    pub fn range(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high.saturating_sub(low).saturating_add(1))
    }

    /// `true` or `false`, even odds.
    pub fn bool(&mut self) -> bool {
        self.u64() & 1 == 1
    }

    /// `true` with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: usize, denominator: usize) -> bool {
        self.below(denominator) < numerator
    }

    /// A random byte.
    pub fn u8(&mut self) -> u8 {
        self.u64() as u8
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        match items.get(self.below(items.len())) {
            Some(item) => item,
            None => panic!("Rng::pick needs a non-empty slice"),
        }
    }

    /// How many cases a property test runs: `TOOLGATE_FUZZ_ITERS`, or `default`.
    pub fn iters(default: usize) -> usize {
        match std::env::var("TOOLGATE_FUZZ_ITERS") {
            Ok(text) => match text.trim().parse() {
                Ok(n) => n,
                Err(_) => panic!("TOOLGATE_FUZZ_ITERS must be a number, got {text:?}"),
            },
            Err(_) => default,
        }
    }
}
