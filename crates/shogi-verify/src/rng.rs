//! The one random generator of the tests, sweeps and benchmarks: ChaCha8 (the `chacha20`
//! crate's `ChaCha8Rng`, the generator the estimate's sampler already trusts), seeded from a
//! `u64` so that a failure repeats on any machine.

pub use chacha20::ChaCha8Rng as TestRng;
pub use rand_core::{Rng, SeedableRng};

/// The generator of seed `seed`.
pub fn test_rng(seed: u64) -> TestRng {
    TestRng::seed_from_u64(seed)
}

/// A number in `0..n` (`n > 0`), by multiply-and-shift: its bias, below `n / 2^64`, is far
/// beneath anything a test could see.
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    assert!(n > 0, "below(0)");
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// `true` with probability `num / den`.
pub fn chance<R: Rng + ?Sized>(rng: &mut R, num: usize, den: usize) -> bool {
    below(rng, den) < num
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_below_and_covers() {
        let mut rng = test_rng(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[below(&mut rng, 7)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(below(&mut rng, 1), 0);
    }

    #[test]
    fn a_seed_gives_one_stream() {
        let (mut a, mut b) = (test_rng(5), test_rng(5));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
    }
}
