//! Uniform sampling of `P_K`: a portable, counter-based random rank per (seed, index).

use crate::table::RankTable;
use crate::u256::U256;
use chacha20::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use shogi_core::{Game, Position};

/// Draws uniform samples of `P_K` reproducibly: sample `i` of seed `s` is the same on any
/// machine, thread count or order of drawing.
///
/// Sample `i` uses ChaCha8 (the `chacha20` crate's `ChaCha8Rng`) keyed by the 32 bytes
/// `s.to_le_bytes()` followed by 24 zero bytes, on stream `i`, from word position 0. Each
/// draw takes four `next_u64` values as the 64-bit limbs of a 256-bit number, least
/// significant first, keeps the low `bits(|P_K| - 1)` bits, and is rejected and redrawn
/// (from the same stream) until it is below `|P_K|`: uniform, with no modulo bias. The
/// acceptance rate is above one half (0.73 for Shogi, 0.87 for Mini Shogi).
#[derive(Clone, Debug)]
pub struct Sampler<'a, G: Game> {
    table: &'a RankTable<G>,
    seed: u64,
    bits: u32,
}

/// The ChaCha8 key of a seed: its little-endian bytes, then zeros.
pub(crate) fn key(seed: u64) -> [u8; 32] {
    let mut k = [0u8; 32];
    k[..8].copy_from_slice(&seed.to_le_bytes());
    k
}

/// A uniform integer in `[0, bound)` from stream `index` of seed `seed` (see [`Sampler`]).
/// `bound` must not be zero.
pub fn uniform_below(bound: U256, seed: u64, index: u64) -> U256 {
    let bits = bound.checked_sub(U256::ONE).unwrap_or(U256::ZERO).bits();
    let mut rng = ChaCha8Rng::from_seed(key(seed));
    rng.set_stream(index);
    draw(&mut rng, bound, bits)
}

#[inline]
pub(crate) fn draw(rng: &mut ChaCha8Rng, bound: U256, bits: u32) -> U256 {
    loop {
        let mut l = [
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
        ];
        for (i, limb) in l.iter_mut().enumerate() {
            let lo = 64 * i as u32;
            if bits <= lo {
                *limb = 0;
            } else if bits < lo + 64 {
                *limb &= (1u64 << (bits - lo)) - 1;
            }
        }
        let x = U256::from_limbs(l);
        if x < bound {
            return x;
        }
    }
}

impl<'a, G: Game> Sampler<'a, G> {
    /// A sampler of the table's space with this seed.
    pub fn new(table: &'a RankTable<G>, seed: u64) -> Self {
        let bits = table
            .count_u256()
            .checked_sub(U256::ONE)
            .unwrap_or(U256::ZERO)
            .bits();
        Sampler { table, seed, bits }
    }

    /// The rank of sample `index`.
    pub fn rank(&self, index: u64) -> U256 {
        let mut rng = ChaCha8Rng::from_seed(key(self.seed));
        rng.set_stream(index);
        draw(&mut rng, self.table.count_u256(), self.bits)
    }

    /// Sample `index`: the position of [`Sampler::rank`]`(index)`.
    pub fn sample(&self, index: u64) -> Position<G> {
        self.table
            .unrank_u256(self.rank(index))
            .expect("a rank below |P_K| always unranks")
    }
}
