//! The tsume convention on futile interpositions (無駄合), as an option of the mate search
//! (docs/METHOD.md §11.5).
//!
//! A drop is a **futile interposition** when the defender, in check from one sliding piece
//! two or more squares away, drops a piece between it and the king, and the checker can
//! take the dropped piece (legally, promoting or not) leaving the defender mated under the
//! convention. A defender whose every legal reply is a futile interposition is **mated
//! under the convention**: the position ends the mate, as a composer's solution ends
//! there (詰め上がり). Elsewhere the convention changes no length: a futile drop and its
//! capture are two plies followed by mate, and every other reply lasts at least as long.
//!
//! Board moves that interpose (移動合) are never futile, and a drop that only delays a
//! mate further on is a reply like any other: conventions beyond this narrow one are
//! disputed among composers and depend on the line, not the position.

use shogi_core::{Bitboard, Game, Move, MoveList, Position, Square};
use std::collections::HashMap;

/// Whether the defender to move in `pos` (in check) is mated under the convention: no
/// legal reply, or only futile interpositions.
pub fn mated_with_futile_drops<G: Game>(pos: &Position<G>) -> bool {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    only_futile_drops(pos, &list)
}

/// [`mated_with_futile_drops`] for `pos` whose legal moves `replies` are already listed.
/// Cheap unless every reply is a drop: in check, a legal drop interposes, so the test
/// looks further only when drops are all the defender has.
pub(crate) fn only_futile_drops<G: Game>(pos: &Position<G>, replies: &[Move]) -> bool {
    settled(replies).unwrap_or_else(|| Futility::default().mated(pos, replies))
}

/// What the replies alone say: not mated if one is a board move, mated if there are none;
/// `None` when they are all drops, whose futility is the question.
fn settled(replies: &[Move]) -> Option<bool> {
    if replies.iter().any(|mv| matches!(mv, Move::Normal { .. })) {
        Some(false)
    } else if replies.is_empty() {
        Some(true)
    } else {
        None
    }
}

/// The state of one test: what is known of the positions met, by key.
#[derive(Default)]
struct Futility {
    /// Positions after drop and capture, mated or not under the convention.
    exact: HashMap<u64, bool>,
    /// The same read with the defender's hand as at the start ([`Futility::mated_ample`]).
    ample: Vec<(u64, bool)>,
}

impl Futility {
    /// Whether the defender to move in `pos`, whose replies (all drops, at least one) are
    /// `replies`, is mated under the convention.
    fn mated<G: Game>(&mut self, pos: &Position<G>, replies: &[Move]) -> bool {
        // A defender mated even if it kept every piece it drops is mated with fewer pieces
        // too (fewer drops, each futile for the same reason). That question, the hand
        // never shrinking, meets each square of the line once instead of once per sequence
        // of dropped kinds (seven empty squares and seven kinds to drop would be hundreds
        // of thousands of positions); only a no is checked literally.
        if self.mated_ample(pos, replies) {
            return true;
        }
        let Some(checker) = pos.checkers().into_iter().next() else {
            return false;
        };
        replies.iter().all(|&drop| {
            let Move::Drop { to, .. } = drop else {
                return false;
            };
            let mut dropped = pos.clone();
            dropped.play_unchecked(drop);
            let futile = captures(&dropped, checker, to).any(|capture| {
                let mut taken = dropped.clone();
                taken.play_unchecked(capture);
                self.mated_exact(&taken)
            });
            futile
        })
    }

    /// [`Futility::mated`] for a position after a drop and its capture, remembered.
    fn mated_exact<G: Game>(&mut self, pos: &Position<G>) -> bool {
        if let Some(&known) = self.exact.get(&pos.key()) {
            return known;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mated = settled(&list).unwrap_or_else(|| self.mated(pos, &list));
        self.exact.insert(pos.key(), mated);
        mated
    }

    /// Whether `pos` is mated under the convention if the defender kept every piece it
    /// drops: each capture read as the checker moving to the square of the drop, the hands
    /// unchanged. `replies` are the drops of `pos` (at least one).
    fn mated_ample<G: Game>(&mut self, pos: &Position<G>, replies: &[Move]) -> bool {
        let Some(checker) = pos.checkers().into_iter().next() else {
            return false;
        };
        // Drops of different kinds on one square read the same here: one test a square.
        let mut done = Bitboard::EMPTY;
        for &drop in replies {
            let Move::Drop { to, .. } = drop else {
                return false;
            };
            if done.has(to) {
                continue;
            }
            done = done.with(to);
            let mut dropped = pos.clone();
            dropped.play_unchecked(drop);
            let futile = captures(&dropped, checker, to).any(|capture| {
                let Move::Normal { promote, .. } = capture else {
                    return false;
                };
                pos.with_piece_moved(checker, to, promote)
                    .is_some_and(|moved| self.ample_at(&moved))
            });
            if !futile {
                return false;
            }
        }
        true
    }

    /// [`Futility::mated_ample`] for a position of that reading, remembered.
    fn ample_at<G: Game>(&mut self, pos: &Position<G>) -> bool {
        if let Some(&(_, known)) = self.ample.iter().find(|(k, _)| *k == pos.key()) {
            return known;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mated = settled(&list).unwrap_or_else(|| self.mated_ample(pos, &list));
        self.ample.push((pos.key(), mated));
        mated
    }
}

/// The legal captures by the checker on `checker` of the piece just dropped on `to` in
/// `dropped`: without and with promotion.
fn captures<G: Game>(
    dropped: &Position<G>,
    checker: Square,
    to: Square,
) -> impl Iterator<Item = Move> + '_ {
    [false, true]
        .into_iter()
        .map(move |promote| Move::Normal {
            from: checker,
            to,
            promote,
        })
        .filter(|&capture| dropped.is_legal(capture))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::{Relax, Shogi};

    /// A mate problem's position: the attacker may have no king.
    fn pos(sfen: &str) -> Position<Shogi> {
        Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap()
    }

    /// The position after the attacker's `usi` in the problem `sfen`, the defender holding
    /// every other piece.
    fn after(sfen: &str, usi: &str) -> Position<Shogi> {
        let mut p = crate::with_defender_hand(&pos(sfen), crate::DefenderHand::Rest);
        p.play_usi(usi).unwrap();
        p
    }

    #[test]
    fn drops_the_checker_takes_into_mate_are_futile() {
        // The discovered check of the bishop from 9i: the defender can only drop on 2b
        // … 8h, and each drop is taken by the bishop, again into check with drops only,
        // down to 2b, where the capture mates. Plain rules: not checkmate.
        let p = after("8k/8p/6P2/9/9/9/9/9/B8 b - 1", "3c3b+");
        assert!(!p.is_checkmate());
        assert!(mated_with_futile_drops(&p));
    }

    #[test]
    fn a_drop_the_king_can_retake_is_no_futile_interposition() {
        // The bishop checks from 3c and the knight on 1c guards 2a: the defender can only
        // drop on 2b, and the bishop that takes there is retaken by the king.
        let p = after("4B3k/8p/8N/9/9/9/9/9/9 b - 1", "5a3c");
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        assert!(!list.is_empty());
        assert!(!mated_with_futile_drops(&p));
    }

    #[test]
    fn a_board_move_that_interposes_is_never_futile() {
        // As the first test, with a defender silver on 1c that can step onto 2b.
        let p = after("8k/8p/6P1s/9/9/9/9/9/B8 b - 1", "3c3b+");
        assert!(!mated_with_futile_drops(&p));
    }

    #[test]
    fn without_pieces_to_drop_the_convention_is_plain_checkmate() {
        // The defender holds nothing: plain checkmate, and the convention agrees.
        let mut p = pos("8k/8p/6P2/9/9/9/9/9/B8 b - 1");
        p.play_usi("3c3b+").unwrap();
        assert!(p.is_checkmate());
        assert!(mated_with_futile_drops(&p));
    }
}
