//! The exact size `|P_K|` of docs/METHOD.md §4, computed straight from its formula with big integers.
//!
//! This is deliberately independent of the rank tables (which sum their own class sizes in
//! fixed-width arithmetic): the two must agree, and the tests check that they do.

use crate::error::MaterialError;
use crate::material::{king_placements, piece_types};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use shogi_core::{Game, Material};
use std::collections::HashMap;

/// `C(n, k)` as a big integer.
fn binom(n: u32, k: u32) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let mut r = BigUint::one();
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

/// `N_type`: the number of ways to place `n` pieces of one type on `e` empty squares, summed
/// over the splits `(n_0..n_3)` of docs/METHOD.md §4 (only the unpromoted groups for a type that cannot
/// promote).
pub fn type_placements(e: u32, n: u32, promotable: bool) -> BigUint {
    let mut total = BigUint::zero();
    let promoted_max = if promotable { n } else { 0 };
    for n0 in 0..=promoted_max {
        for n1 in 0..=(promoted_max - n0) {
            for n2 in 0..=(n - n0 - n1) {
                let n3 = n - n0 - n1 - n2;
                total += binom(e, n0)
                    * binom(e - n0.min(e), n1)
                    * binom(e.saturating_sub(n0 + n1), n2)
                    * binom(e.saturating_sub(n0 + n1 + n2), n3);
            }
        }
    }
    total
}

/// The exact `|P_K|` of docs/METHOD.md §4 for any material of game `G`:
/// `Σ_u N_hand(u) · N_kings · Π_i N_type(u, i)`, types placed in the order of docs/METHOD.md §3 with
/// `e` starting at `W·H − 2`.
///
/// The sum over the hand vectors `u` is factored type by type and memoised on the number of
/// empty squares left, so the 106,875 hand vectors of Shogi cost a few hundred big-integer
/// products.
pub fn count<G: Game>(material: &Material) -> Result<BigUint, MaterialError> {
    let types = piece_types::<G>(material)?;
    let mut memo: HashMap<(usize, u32), BigUint> = HashMap::new();
    let mut place = HashMap::new();
    fn rest(
        i: usize,
        e: u32,
        types: &[crate::material::PieceType],
        memo: &mut HashMap<(usize, u32), BigUint>,
        place: &mut HashMap<(u32, u32, bool), BigUint>,
    ) -> BigUint {
        if i == types.len() {
            return BigUint::one();
        }
        if let Some(v) = memo.get(&(i, e)) {
            return v.clone();
        }
        let t = types[i];
        let s = t.count as u32;
        let mut total = BigUint::zero();
        for u in 0..=s {
            let on_board = s - u;
            if on_board > e {
                continue;
            }
            let ways = place
                .entry((e, on_board, t.promotable))
                .or_insert_with(|| type_placements(e, on_board, t.promotable))
                .clone();
            total += ways * (u + 1) * rest(i + 1, e - on_board, types, memo, place);
        }
        memo.insert((i, e), total.clone());
        total
    }
    let e = G::SQUARES as u32 - 2;
    Ok(rest(0, e, &types, &mut memo, &mut place) * king_placements::<G>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_form_of_type_placements() {
        // Σ over splits = C(e, n) · 4^n (2^n for gold).
        for e in 0..20 {
            for n in 0..8 {
                let c = binom(e, n);
                assert_eq!(type_placements(e, n, true), &c * BigUint::from(4u32).pow(n));
                assert_eq!(type_placements(e, n, false), c * BigUint::from(2u32).pow(n));
            }
        }
    }
}
