//! The outcome of a decided node from its children (docs/METHOD.md §11.2, §12): proof
//! pieces and the mate's length of a proof, disproof pieces, depth bound and repetition of
//! a disproof, and the outcome of a node without a move.

use crate::children::Child;
use crate::hand::PackedHand;
use crate::node::Node;
use crate::outcome::{deeper, Outcome, ANY_DEPTH, NO_REP};
use crate::pieces;
use shogi_core::{Game, Hand, Position};

/// The options that decide how a proof or disproof is summed up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// Proof pieces (on) or the whole hand (off: the ablation without superiority).
    pub superiority: bool,
}

impl Rules {
    /// Proof pieces as stored: without superiority, the whole hand.
    #[inline]
    pub fn proof_pieces(self, p: PackedHand, hand: PackedHand) -> PackedHand {
        if self.superiority {
            p
        } else {
            hand
        }
    }

    /// The outcome of node `node` at `pos` without a move to search (with attacker hand
    /// `hand`): an attacker without a check has no mate, whatever it holds that cannot
    /// check; a defender without a reply is checkmated (pawn-drop mates were never
    /// generated as checks). With passes allowed, the hand itself stands for the pieces.
    pub fn without_moves<G: Game>(
        self,
        pos: &Position<G>,
        node: Node,
        hand: PackedHand,
    ) -> Outcome {
        if node.exact() {
            return if node.is_or() {
                Outcome::disproof(hand)
            } else {
                Outcome::proof(hand, 0)
            };
        }
        if node.is_or() {
            let d = pieces::or_disproof(pos, PackedHand::new(&Hand([u8::MAX; 7])));
            Outcome::disproof(d)
        } else {
            let p = pieces::and_proof(pos, PackedHand::EMPTY);
            Outcome::proof(self.proof_pieces(p, hand), 0)
        }
    }

    /// The outcome of a proved node `node` with children `kids`: at an OR node the proved
    /// check with the fewest proof pieces, then the shortest mate; at an AND node the union
    /// of the replies' pieces (with the attacker's monopoly where the check could be
    /// blocked) and the longest mate. With passes allowed, the hand and the shortest mate.
    pub fn proved<G: Game>(
        self,
        pos: &Position<G>,
        kids: &[Child],
        node: Node,
        hand: PackedHand,
    ) -> Outcome {
        if node.exact() {
            let lens = kids.iter().filter(|c| c.out.pn == 0).map(|c| c.out.len);
            let len = if node.is_or() { lens.min() } else { lens.max() };
            return Outcome::proof(hand, len.unwrap_or(0).saturating_add(1));
        }
        if node.is_or() {
            let (p, len) = kids
                .iter()
                .filter(|c| c.out.pn == 0)
                .map(|c| {
                    (
                        pieces::before(c.mv, c.captured, c.out.pieces),
                        c.out.len.saturating_add(1),
                    )
                })
                .min_by_key(|(p, len)| (p.total(), *len))
                .expect("a proved OR node has a proved child");
            Outcome::proof(self.proof_pieces(p, hand), len)
        } else {
            let union = kids
                .iter()
                .fold(PackedHand::EMPTY, |u, c| u.union(c.out.pieces));
            let len = kids.iter().map(|c| c.out.len).max().unwrap_or(0);
            let p = pieces::and_proof(pos, union);
            Outcome::proof(self.proof_pieces(p, hand), len.saturating_add(1))
        }
    }

    /// The outcome of a disproved node `node` with children `kids`: disproof pieces (with
    /// passes allowed, the hand `hand`), the shallowest repetition it rests on and its
    /// depth bound, one ply wider than the children's.
    pub fn disproved<G: Game>(
        self,
        pos: &Position<G>,
        kids: &[Child],
        node: Node,
        hand: PackedHand,
    ) -> Outcome {
        let out = self.disproof_of(pos, kids, node.is_or());
        if node.exact() {
            return Outcome {
                pieces: hand,
                ..out
            };
        }
        out
    }

    /// [`Rules::disproved`] for a node of the mate search.
    fn disproof_of<G: Game>(self, pos: &Position<G>, kids: &[Child], or_node: bool) -> Outcome {
        if or_node {
            let mut d = PackedHand::new(&Hand([u8::MAX; 7]));
            let mut rep = NO_REP;
            let mut bound = ANY_DEPTH;
            for c in kids {
                d = d.intersection(pieces::before(c.mv, c.captured, c.out.pieces));
                rep = rep.min(c.out.rep);
                bound = bound.min(c.out.bound);
            }
            let d = pieces::or_disproof(pos, d);
            Outcome {
                rep,
                bound: deeper(bound),
                ..Outcome::disproof(d)
            }
        } else {
            // The refutation that rests on no repetition if there is one, then the one
            // with the most disproof pieces.
            let c = kids
                .iter()
                .filter(|c| c.out.dn == 0)
                .max_by_key(|c| (c.out.rep, c.out.bound, c.out.pieces.total()))
                .expect("a disproved AND node has a disproved child");
            let d = pieces::and_disproof(pos, c.mv, c.out.pieces);
            Outcome {
                rep: c.out.rep,
                bound: deeper(c.out.bound),
                ..Outcome::disproof(d)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::packed as hand;
    use shogi_core::{Move, Shogi};

    const RULES: Rules = Rules { superiority: true };

    const OR: Node = Node::mate(true);
    const AND: Node = Node::mate(false);

    fn pos(sfen: &str) -> Position<Shogi> {
        Position::from_sfen(sfen).expect("a test position")
    }

    fn child(usi: &str, out: Outcome) -> Child {
        let mv = Move::from_usi::<Shogi>(usi).unwrap();
        Child {
            out,
            ..Child::new(mv, None, Node::mate(true), (1, 1, PackedHand::EMPTY), None)
        }
    }

    /// Of two proved checks, the one that needs fewer pieces, though its mate is longer.
    #[test]
    fn an_or_proof_takes_the_fewest_pieces_then_the_shortest_mate() {
        let n = pos("4k4/9/4P4/9/9/9/9/9/K8 b GS 1");
        let gold = hand([0, 0, 0, 0, 1, 0, 0]);
        let kids = [
            child("G*5b", Outcome::proof(PackedHand::EMPTY, 0)),
            child("5c5b+", Outcome::proof(PackedHand::EMPTY, 6)),
            child("5c5b", Outcome::open(3, PackedHand::EMPTY)),
        ];
        let out = RULES.proved(&n, &kids, OR, hand([0, 0, 0, 1, 1, 0, 0]));
        assert_eq!((out.pieces, out.len), (PackedHand::EMPTY, 7));
        let out = RULES.proved(&n, &kids[..1], OR, hand([0, 0, 0, 1, 1, 0, 0]));
        assert_eq!((out.pieces, out.len), (gold, 1), "the drop needs its gold");
        let exact = Rules { superiority: false };
        let h = hand([0, 0, 0, 1, 1, 0, 0]);
        assert_eq!(exact.proved(&n, &kids, OR, h).pieces, h);
    }

    /// An AND proof: the union of the replies' pieces and the longest mate, one ply more.
    #[test]
    fn an_and_proof_unites_the_replies() {
        let n = pos("4k4/4G4/4P4/9/9/9/9/9/K8 w - 1");
        let kids = [
            child("5a4a", Outcome::proof(hand([0, 0, 0, 1, 0, 0, 0]), 2)),
            child("5a6a", Outcome::proof(hand([1, 0, 0, 0, 0, 0, 0]), 4)),
        ];
        let out = RULES.proved(&n, &kids, AND, PackedHand::EMPTY);
        assert_eq!((out.pieces, out.len), (hand([1, 0, 0, 1, 0, 0, 0]), 5));
        assert_eq!((out.pn, out.rep, out.bound), (0, NO_REP, ANY_DEPTH));
    }

    /// An OR disproof rests on the shallowest repetition of its checks and holds one ply
    /// wider than the narrowest; an AND disproof prefers the refutation without a
    /// repetition.
    #[test]
    fn a_disproof_rests_on_what_its_children_rest_on() {
        let n = pos("4k4/9/4P4/9/9/9/9/9/K8 b S 1");
        let d = |rep, bound| Outcome {
            rep,
            bound,
            ..Outcome::disproof(PackedHand::EMPTY)
        };
        let kids = [child("5c5b+", d(4, ANY_DEPTH)), child("5c5b", d(NO_REP, 3))];
        let out = RULES.disproved(&n, &kids, OR, PackedHand::EMPTY);
        assert_eq!((out.rep, out.bound, out.dn), (4, 4, 0));
        let m = pos("4k4/4G4/4P4/9/9/9/9/9/K8 w - 1");
        let kids = [
            child("5a4a", d(2, ANY_DEPTH)),
            child("5a6a", d(NO_REP, 9)),
            child("5a4b", Outcome::open(1, PackedHand::EMPTY)),
        ];
        let out = RULES.disproved(&m, &kids, AND, PackedHand::EMPTY);
        assert_eq!((out.rep, out.bound), (NO_REP, 10));
    }

    #[test]
    fn a_node_without_moves_is_decided() {
        // Checkmated: proved with no pieces (a contact check needs no monopoly).
        let mated = pos("4k4/4G4/4P4/9/9/9/9/9/K8 w - 1");
        let out = RULES.without_moves(&mated, AND, PackedHand::EMPTY);
        assert_eq!((out.pn, out.len, out.pieces), (0, 0, PackedHand::EMPTY));
        // An attacker without a check: disproved.
        let quiet = pos("4k4/9/9/9/9/9/9/9/K8 b - 1");
        let out = RULES.without_moves(&quiet, OR, PackedHand::EMPTY);
        assert!(out.is_unconditional_disproof());
    }

    /// With passes allowed the node's own hand stands for its pieces, and the length is
    /// the shortest proved child's at an OR node, the longest at an AND node, plus one.
    #[test]
    fn with_passes_the_hand_is_kept_exactly() {
        let n = pos("4k4/9/4P4/9/9/9/9/9/K8 b GS 1");
        let h = hand([0, 0, 0, 1, 1, 0, 0]);
        let attack = Node {
            kind: crate::node::Kind::Attack,
            bound: 1,
        };
        let kids = [
            child("G*5b", Outcome::proof(PackedHand::EMPTY, 4)),
            child("5c5b+", Outcome::proof(PackedHand::EMPTY, 2)),
        ];
        let out = RULES.proved(&n, &kids, attack, h);
        assert_eq!((out.pieces, out.len), (h, 3));
        let evade = Node {
            kind: crate::node::Kind::Evade,
            ..attack
        };
        assert_eq!(RULES.proved(&n, &kids, evade, h).len, 5);
        let d = Outcome {
            rep: 3,
            ..Outcome::disproof(PackedHand::EMPTY)
        };
        let out = RULES.disproved(&n, &[child("5c5b+", d)], attack, h);
        assert_eq!((out.pieces, out.rep, out.dn), (h, 3, 0));
        assert_eq!(RULES.without_moves(&n, attack, h).pieces, h);
    }
}
