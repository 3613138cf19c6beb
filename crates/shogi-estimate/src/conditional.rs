//! The conditional estimator (docs/METHOD.md §10.8): each sample of the space stands for
//! the group of positions that differ from it only in where White's king (the side not to
//! move) stands. The share of the group that passes the check filter is computed exactly
//! from one attack map, and the rest of the pipeline runs on one position of the group
//! drawn uniformly among those that pass.
//!
//! Every position of a sampled space lies in exactly one group, and a uniform sample lands in
//! a group with probability proportional to its size; so the mean over the group, weighted
//! by nothing, is an unbiased estimate of the share in the whole space (§10.8 gives the
//! proof). The check filter, which the indicator estimator pays for with most of its
//! variance, then contributes none.

use crate::stream::{phase2_selected, uniform_index, SALT_ACCEPT, SALT_SQUARE};
use core::fmt;
use serde::{Deserialize, Serialize};
use shogi_core::{Bitboard, Color, Game, Position, Square};

/// The squares of White's king in the group of `pos`, and those of them that Black does not
/// attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingGroup {
    /// The squares the king may stand on: every empty square and its own, those of
    /// K-canonical positions only (with Black's king on the centre file, White's stands on
    /// it or to its left, docs/METHOD.md §3).
    pub squares: Bitboard,
    /// The squares of `squares` that no Black piece attacks: White's king is not in check
    /// there.
    pub safe: Bitboard,
}

impl KingGroup {
    /// The group of `pos` (Black to move, both kings on the board); `None` without them.
    pub fn of<G: Game>(pos: &Position<G>) -> Option<KingGroup> {
        let wk = pos.king(Color::White)?;
        let bk = pos.king(Color::Black)?;
        let t = G::tables();
        let occ_without = pos.occupied().without(wk);
        let mut squares = t.board & !occ_without;
        let centre = G::WIDTH / 2;
        if bk.x::<G>() == centre {
            // Squares are numbered file first (`x · H + y`): x <= centre is a prefix.
            let prefix = (u32::from(centre) + 1) * u32::from(G::HEIGHT);
            squares &= Bitboard((1u128 << prefix) - 1);
        }
        // Sliders see through the square White's king leaves; on its new square the king
        // itself blocks nothing that decides whether that square is attacked.
        let safe = squares & !pos.attacks_by(Color::Black, occ_without);
        Some(KingGroup { squares, safe })
    }

    /// The weight of the group: its size and how many of its squares are safe.
    pub fn weight(&self) -> KingWeight {
        KingWeight {
            squares: self.squares.count() as u8,
            safe: self.safe.count() as u8,
        }
    }
}

/// The size `g` of a king group and the number `k` of its safe squares: the sample's share
/// of the check filter is exactly `k / g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct KingWeight {
    /// `g`: squares of the group.
    pub squares: u8,
    /// `k`: safe squares (at most `g`).
    pub safe: u8,
}

impl KingWeight {
    /// `k / g` (0 for an empty group, which a sample never has: its own square is in it).
    pub fn share(self) -> f64 {
        if self.squares == 0 {
            0.0
        } else {
            f64::from(self.safe) / f64::from(self.squares)
        }
    }
}

impl fmt::Display for KingWeight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.safe, self.squares)
    }
}

/// The safe square that sample `index` of `seed` moves White's king to: uniform among the
/// `safe` squares, from a hash of `(seed, index)` alone (the same on every machine, thread
/// count and shard); `None` when no square is safe.
pub fn chosen_square(safe: Bitboard, seed: u64, index: u64) -> Option<Square> {
    let k = safe.count();
    if k == 0 {
        return None;
    }
    let mut bits = safe.0;
    for _ in 0..uniform_index(seed, index, SALT_SQUARE, u64::from(k)) {
        bits &= bits - 1;
    }
    Bitboard(bits).first()
}

/// Whether phase 2 searches sample `index` of `seed`, given that its chosen position has a
/// legal predecessor: with probability exactly `rate · k / g` (the phase-2 selection of the
/// indicator estimator, then an independent acceptance with probability `k / g`), so that the
/// searched positions are drawn in proportion to the weight each sample carries into `π̂`
/// and their reachable share estimates `ρ` without weights (docs/METHOD.md §10.8).
pub fn phase2_selected_weighted(seed: u64, index: u64, rate: f64, weight: KingWeight) -> bool {
    phase2_selected(seed, index, rate)
        && weight.squares > 0
        && uniform_index(seed, index, SALT_ACCEPT, u64::from(weight.squares))
            < u64::from(weight.safe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::{MiniShogi, Relax, Setup, Shogi};

    /// The group and its safe squares against a brute force: every square, the king moved
    /// there through a `Setup`, canonicity and check asked of the position itself.
    fn brute<G: Game>(sfen: &str) {
        let pos = Setup::<G>::from_sfen(sfen)
            .unwrap()
            .into_position(Relax::CANDIDATE)
            .unwrap();
        let group = KingGroup::of(&pos).unwrap();
        let bk = pos.king(Color::Black).unwrap();
        for i in 0..G::SQUARES as u8 {
            let sq = Square::from_index_in::<G>(i).unwrap();
            let moved = pos.with_king_on(Color::White, sq);
            let canonical_kings = moved.as_ref().is_some_and(|p| {
                let w = p.king(Color::White).unwrap();
                (bk, w) <= (bk.hflip::<G>(), w.hflip::<G>())
            });
            assert_eq!(group.squares.has(sq), canonical_kings, "{sfen}: {sq:?}");
            if let Some(p) = moved.filter(|_| canonical_kings) {
                assert_eq!(
                    group.safe.has(sq),
                    !p.in_check(Color::White),
                    "{sfen}: {sq:?}"
                );
                // The same edit through a Setup gives the same position.
                let mut s = Setup::from(pos.clone());
                let k = s.take(pos.king(Color::White).unwrap()).unwrap();
                s.put(sq, k);
                assert_eq!(s.into_position(Relax::CANDIDATE).unwrap(), p);
            }
        }
    }

    #[test]
    fn king_groups_match_brute_force() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/4P4/9/4K4/9/9/9/9 b - 1",
            "l3k3l/4r4/9/4B4/9/2n6/9/9/4K4 b GSP2gs 1",
            "8k/9/9/9/9/9/9/9/K8 b - 1",
        ] {
            brute::<Shogi>(sfen);
        }
        for sfen in [
            "rbsgk/4p/5/P4/KGSBR b - 1",
            "5/2k2/5/2K2/5 b RBGSPrbgsp 1",
            "4k/5/2R2/5/K3b b - 1",
        ] {
            brute::<MiniShogi>(sfen);
        }
    }

    #[test]
    fn the_chosen_square_is_safe_and_every_safe_square_is_chosen() {
        let safe = Bitboard((1 << 3) | (1 << 17) | (1 << 40) | (1 << 80));
        let mut seen = [0u32; 81];
        for i in 0..4000 {
            let sq = chosen_square(safe, 3, i).unwrap();
            assert!(safe.has(sq));
            seen[sq.index()] += 1;
        }
        for i in [3, 17, 40, 80] {
            assert!((850..1150).contains(&seen[i]), "{i}: {}", seen[i]);
        }
        assert_eq!(chosen_square(Bitboard::EMPTY, 3, 0), None);
    }

    #[test]
    fn phase2_acceptance_is_proportional_to_the_safe_share() {
        let w = KingWeight {
            squares: 40,
            safe: 10,
        };
        let n = 400_000u64;
        let hits = (0..n)
            .filter(|&i| phase2_selected_weighted(5, i, 1.0, w))
            .count() as f64;
        // 1/4 of the samples, within 6 standard errors.
        let sd = (n as f64 * 0.25 * 0.75).sqrt();
        assert!((hits - n as f64 / 4.0).abs() < 6.0 * sd, "{hits}");
        let none = KingWeight {
            squares: 40,
            safe: 0,
        };
        assert!((0..1000).all(|i| !phase2_selected_weighted(5, i, 1.0, none)));
        let all = KingWeight {
            squares: 40,
            safe: 40,
        };
        assert!((0..1000).all(|i| phase2_selected_weighted(5, i, 1.0, all)));
    }
}
