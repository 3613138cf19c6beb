//! Proof pieces and disproof pieces (docs/METHOD.md §12): the rules, one function each, so
//! that every rule has its own test.
//!
//! A proof of position `n` with proof pieces `p` proves every position with the same board
//! and the same pieces out of play whose attacker hand contains `p` (the defender holding
//! the other pieces off the board); a disproof with disproof pieces `d` disproves every
//! such position whose attacker hand `d` contains. The functions below keep
//! `p ⊆ hand ⊆ d` for the hand of `n`. Pieces out of play (a SFEN's defender given less
//! than the rest) are in neither hand, so "off the board" below counts the hands.

use crate::hand::PackedHand;
use shogi_core::{attacks, Color, Game, Move, PieceKind, Position};

/// The attacker's hand before move `mv` (played from `n`) given its hand `after` the move:
/// a drop took a piece from the hand, so it is added back; a capture put the captured kind
/// into it, so it is taken out (if `after` holds it at all).
///
/// docs/METHOD.md §12 explains why this is the opposite of the formula printed with the
/// definition in the source article: the definition and the article's own worked example
/// (a gold drop whose proof pieces are one gold) require this direction.
#[inline]
pub fn before(mv: Move, captured: Option<PieceKind>, after: PackedHand) -> PackedHand {
    match mv {
        Move::Drop { kind, .. } => after.plus_one(kind),
        Move::Normal { .. } => match captured {
            Some(c) => after.minus_one(c.unpromoted()),
            None => after,
        },
    }
}

/// How many pieces of each hand kind are in play off the board (in either hand): the most
/// the attacker could hold of a kind, the defender holding the others.
pub fn off_board<G: Game>(pos: &Position<G>) -> [u32; PieceKind::HAND_COUNT] {
    let mut n = [0; PieceKind::HAND_COUNT];
    for kind in PieceKind::HAND {
        let held = Color::ALL
            .iter()
            .map(|&c| pos.hand(c).count(kind) as u32)
            .sum::<u32>();
        n[kind.index()] = held;
    }
    n
}

/// Whether the side to move is in a check that could be blocked: one checker, a slider,
/// with an empty square between it and the king.
pub fn distant_check<G: Game>(pos: &Position<G>) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return false;
    }
    let (Some(king), Some(checker)) = (pos.king(pos.side_to_move()), checkers.first()) else {
        return false;
    };
    G::tables().between[king.index()][checker.index()].is_nonempty()
}

/// Proof pieces of a defender node (in check) all of whose replies are proved, from the
/// union of the replies' proof pieces (empty for a checkmate): with a check that could be
/// blocked, every kind the defender lacks because the attacker holds all of it in play
/// joins, at the attacker's count: with one piece of it the defender could have
/// interposed.
pub fn and_proof<G: Game>(pos: &Position<G>, union: PackedHand) -> PackedHand {
    if !distant_check(pos) {
        return union;
    }
    let defender = pos.side_to_move();
    let attacker = !defender;
    let mut p = union;
    for kind in PieceKind::HAND {
        let held = pos.hand(attacker).count(kind) as u32;
        if held > 0 && pos.hand(defender).count(kind) == 0 {
            p = p.with(kind, held);
        }
    }
    p
}

/// Disproof pieces of an attacker node none of whose checks mates, from the intersection
/// of `before` over the checks' disproof pieces (`all` when there is no check): a kind the
/// attacker lacks and could drop with check is cut to zero (holding one would add a check
/// that was never tried), and no kind is allowed more pieces than the attacker could hold.
pub fn or_disproof<G: Game>(pos: &Position<G>, intersection: PackedHand) -> PackedHand {
    let attacker = pos.side_to_move();
    let defender = !attacker;
    let occ = pos.occupied();
    let king = pos.king(defender);
    let off = off_board(pos);
    let mut d = intersection;
    for kind in PieceKind::HAND {
        let mut n = d.count(kind).min(off[kind.index()]);
        if pos.hand(attacker).count(kind) == 0 {
            // The drop squares from which a piece of `kind` would attack the king are those
            // the same kind of the defender's colour attacks from the king.
            let checks = king.is_some_and(|k| {
                (attacks::<G>(defender, kind, k, occ) & !occ & G::tables().board).is_nonempty()
            });
            if checks {
                n = 0;
            }
        }
        d = d.with(kind, n);
    }
    d
}

/// Disproof pieces of a defender node refuted by reply `refutation`, from the reply's
/// disproof pieces: a refuting drop needs the defender to keep one piece of the kind, so
/// the attacker may hold at most all but one of those in play.
pub fn and_disproof<G: Game>(pos: &Position<G>, refutation: Move, child: PackedHand) -> PackedHand {
    match refutation {
        Move::Drop { kind, .. } => {
            let off = off_board(pos)[kind.index()];
            child.with(kind, child.count(kind).min(off.saturating_sub(1)))
        }
        _ => child,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::Shogi;

    fn pos(sfen: &str) -> Position<Shogi> {
        Position::from_sfen(sfen).expect("legal test position")
    }

    use crate::hand::packed as hand;

    const GOLD: [u8; 7] = [0, 0, 0, 0, 1, 0, 0];

    /// The article's first example: a rich hand, and a gold drop that mates. The mate leaf
    /// needs nothing; before the drop, the gold.
    #[test]
    fn a_gold_drop_mate_needs_only_the_gold() {
        let n = pos("8k/9/8P/9/9/9/9/9/4K4 b 2R2B4G4S4N4L17P 1");
        let mv = Move::from_usi::<Shogi>("G*1b").expect("usi");
        assert!(n.is_legal(mv));
        let mut leaf = n.clone();
        leaf.play_unchecked(mv);
        assert!(leaf.is_checkmate());
        let p_leaf = and_proof(&leaf, PackedHand::EMPTY);
        assert_eq!(
            p_leaf,
            PackedHand::EMPTY,
            "a contact check needs no monopoly"
        );
        assert_eq!(before(mv, None, p_leaf), hand(GOLD));
    }

    #[test]
    fn before_takes_a_capture_out_and_puts_a_drop_back() {
        let cap = Move::from_usi::<Shogi>("2b2a").expect("usi");
        assert_eq!(
            before(cap, Some(PieceKind::ProSilver), hand([0, 0, 0, 2, 1, 0, 0])),
            hand([0, 0, 0, 1, 1, 0, 0])
        );
        assert_eq!(
            before(cap, Some(PieceKind::Rook), PackedHand::EMPTY),
            PackedHand::EMPTY
        );
        assert_eq!(before(cap, None, hand(GOLD)), hand(GOLD));
    }

    /// The article's second example: a lance checks from afar and the defender can only
    /// interpose; the attacker holds every free pawn. Had the defender one pawn, it could
    /// interpose it: the pawns are part of the proof pieces, at the attacker's count.
    #[test]
    fn a_distant_check_adds_the_attackers_monopoly() {
        // White king 1a, Black lance 1i checking down the file; Black holds all 17 free
        // pawns and a gold, White holds a lance.
        let n = pos("8k/9/9/9/9/9/9/9/K7L w G17Pl 1");
        assert!(distant_check(&n));
        let p = and_proof(&n, hand(GOLD));
        assert_eq!(p, hand([17, 0, 0, 0, 1, 0, 0]));
        // With 12 pawns out of play, the attacker's 5 are all the defender could have had.
        let out = pos("8k/9/9/9/9/9/9/9/K7L w G5Pl 1");
        assert_eq!(and_proof(&out, hand(GOLD)), hand([5, 0, 0, 0, 1, 0, 0]));
        // A kind the defender holds one of adds nothing.
        let shared = pos("8k/9/9/9/9/9/9/9/K7L w G16Plp 1");
        assert_eq!(and_proof(&shared, hand(GOLD)), hand(GOLD));
        // A contact check adds nothing.
        let contact = pos("8k/8L/9/9/9/9/9/9/K8 w G17Pl 1");
        assert!(!distant_check(&contact));
        assert_eq!(and_proof(&contact, hand(GOLD)), hand(GOLD));
    }

    /// The dual: at an attacker node, a kind the attacker lacks but could drop with check
    /// leaves the disproof pieces; a kind that could not check from any empty square stays.
    #[test]
    fn a_missing_kind_that_could_check_leaves_the_disproof_pieces() {
        // Black to move with an empty hand; White holds everything off the board and its
        // king stands alone: every kind could check it from some empty square.
        let n = pos("4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1");
        let all = hand([18, 4, 4, 4, 4, 2, 2]);
        assert_eq!(or_disproof(&n, all), PackedHand::EMPTY);
        // A king in the corner behind its own silver and pawns: no drop of any kind attacks it, so
        // the kinds Black lacks keep their counts (up to what is off the board).
        let walled = pos("7sk/7pp/9/9/9/9/9/9/4K4 b N2r2b4g3s3n4l16p 1");
        assert_eq!(or_disproof(&walled, all), hand([16, 4, 4, 3, 4, 2, 2]));
        // Open the file above the king: now a lance (and a rook) could check from 1c on.
        let open = pos("7sk/7p1/9/9/9/9/9/9/4K4 b N2r2b4g3s3n4l17p 1");
        let d = or_disproof(&open, all);
        assert_eq!(
            (d.count(PieceKind::Lance), d.count(PieceKind::Rook)),
            (0, 0)
        );
        assert_eq!(d.count(PieceKind::Knight), 4, "a held kind is never cut");
        // Pieces out of play are not the attacker's to hold: here all but a knight, 3
        // golds and 16 pawns.
        let out = pos("7sk/7pp/9/9/9/9/9/9/4K4 b N3g16p 1");
        assert_eq!(or_disproof(&out, all), hand([16, 0, 1, 0, 3, 0, 0]));
    }

    /// A refuting drop keeps one piece of the kind for the defender.
    #[test]
    fn a_refuting_drop_leaves_the_defender_one_piece() {
        let n = pos("8k/9/9/9/9/9/9/9/K7L w 17Pl 1");
        let drop = Move::from_usi::<Shogi>("L*1b").expect("usi");
        let d = and_disproof(&n, drop, hand([17, 4, 0, 0, 0, 0, 0]));
        assert_eq!(
            d.count(PieceKind::Lance),
            0,
            "one lance off the board: White keeps it"
        );
        // A board move refutes whatever the attacker holds.
        let mv = Move::from_usi::<Shogi>("1a2a").expect("usi");
        assert_eq!(
            and_disproof(&n, mv, hand([17, 4, 0, 0, 0, 0, 0])).count(PieceKind::Lance),
            4
        );
    }
}
