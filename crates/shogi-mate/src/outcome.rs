//! What a node's search (or a look-up) says about it: its numbers, its proof or disproof
//! pieces, the length of a mate, and for a disproof the depth bound it holds within and the
//! repetition it rests on (docs/METHOD.md §11.2, §11.4).

use crate::hand::PackedHand;
use crate::numbers::INF;
use crate::table::Probe;

/// The depth bound of a disproof that holds at any remaining depth.
pub(crate) const ANY_DEPTH: u16 = u16::MAX;

/// "No repetition below": the depth marker of a result that does not depend on the path.
pub(crate) const NO_REP: u32 = u32::MAX;

/// A node's numbers and what its proof or disproof rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub pn: u32,
    pub dn: u32,
    /// Proof pieces of a proof, disproof pieces of a disproof, else the hand.
    pub pieces: PackedHand,
    /// Plies of the mate of a proof.
    pub len: u16,
    /// For a disproof: the shallowest depth of the current path whose position it found
    /// repeated; [`NO_REP`] when it depends on no repetition.
    pub rep: u32,
    /// For a disproof: it holds when at most this many plies remain to the depth limit
    /// ([`ANY_DEPTH`]: always; less when it rests on lines the limit cut).
    pub bound: u16,
}

impl Outcome {
    /// An open node with proof number `pn` and disproof number 1 (`pieces`: its hand).
    pub fn open(pn: u32, pieces: PackedHand) -> Outcome {
        Outcome {
            pn,
            dn: 1,
            pieces,
            len: 0,
            rep: NO_REP,
            bound: ANY_DEPTH,
        }
    }

    /// A proof with proof pieces `pieces` of a mate in `len` plies.
    pub fn proof(pieces: PackedHand, len: u16) -> Outcome {
        Outcome {
            pn: 0,
            dn: INF,
            pieces,
            len,
            rep: NO_REP,
            bound: ANY_DEPTH,
        }
    }

    /// A disproof with disproof pieces `pieces` that holds at any depth and rests on no
    /// repetition.
    pub fn disproof(pieces: PackedHand) -> Outcome {
        Outcome {
            pn: INF,
            dn: 0,
            pieces,
            len: 0,
            rep: NO_REP,
            bound: ANY_DEPTH,
        }
    }

    /// What a table look-up answered: a stored disproof keeps its depth bound where a
    /// proof keeps its length.
    pub fn from_probe(p: Probe) -> Outcome {
        Outcome {
            pn: p.pn,
            dn: p.dn,
            pieces: p.pieces,
            len: p.len,
            rep: NO_REP,
            bound: if p.dn == 0 { p.len } else { ANY_DEPTH },
        }
    }

    /// Whether the node is proved or disproved.
    pub fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// Whether it is a disproof that holds for the position whatever the path and the
    /// depth limit: the root's no-mate.
    pub fn is_unconditional_disproof(&self) -> bool {
        self.dn == 0 && self.rep == NO_REP && self.bound == ANY_DEPTH
    }

    /// The value stored in the table's length field: a disproof's depth bound, a proof's
    /// length (0 for an open node).
    pub fn stored_len(&self) -> u16 {
        if self.dn == 0 {
            self.bound
        } else {
            self.len
        }
    }
}

/// The depth bound of a disproof one ply above one with bound `b`.
#[inline]
pub(crate) fn deeper(b: u16) -> u16 {
    if b == ANY_DEPTH {
        ANY_DEPTH
    } else {
        (b + 1).min(ANY_DEPTH - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::packed as hand;
    use crate::table::Hit;

    #[test]
    fn a_look_up_keeps_a_disproofs_bound_and_a_proofs_length() {
        let h = hand([1, 0, 0, 0, 0, 0, 0]);
        let probe = |pn, dn, len| Probe {
            pn,
            dn,
            pieces: h,
            len,
            hit: Hit::Exact,
        };
        let d = Outcome::from_probe(probe(INF, 0, 7));
        assert_eq!((d.bound, d.rep, d.pieces), (7, NO_REP, h));
        assert!(!d.is_unconditional_disproof());
        assert!(Outcome::from_probe(probe(INF, 0, ANY_DEPTH)).is_unconditional_disproof());
        let p = Outcome::from_probe(probe(0, INF, 9));
        assert_eq!((p.len, p.bound, p.stored_len()), (9, ANY_DEPTH, 9));
        assert!(p.is_final() && !Outcome::open(3, h).is_final());
    }

    #[test]
    fn a_disproof_stores_its_bound_and_a_proof_its_length() {
        let h = PackedHand::EMPTY;
        let d = Outcome {
            bound: 4,
            ..Outcome::disproof(h)
        };
        assert_eq!(d.stored_len(), 4);
        assert_eq!(Outcome::proof(h, 11).stored_len(), 11);
        assert_eq!(Outcome::open(2, h).stored_len(), 0);
    }

    #[test]
    fn a_bound_grows_by_a_ply_and_any_depth_stays() {
        assert_eq!(deeper(0), 1);
        assert_eq!(deeper(ANY_DEPTH), ANY_DEPTH);
        assert_eq!(
            deeper(ANY_DEPTH - 1),
            ANY_DEPTH - 1,
            "never becomes unbounded"
        );
    }
}
