//! Checking a mating line by replaying it (docs/METHOD.md §11.1): the solver never
//! answers mate without a line that passes this check.

use crate::futile;
use shogi_core::{Game, Move, Position};

/// Why a claimed mating line is no mate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// A mate has an odd number of plies (the attacker moves first and last).
    EvenLength {
        /// The line's length.
        plies: usize,
    },
    /// A move is not legal where it is played.
    Illegal {
        /// The ply, from 1.
        ply: usize,
        /// The move in USI.
        usi: String,
    },
    /// An attacker move gives no check.
    NoCheck {
        /// The ply, from 1.
        ply: usize,
        /// The move in USI.
        usi: String,
    },
    /// The line ends in a position that is not checkmate (nor, under the convention on
    /// futile interpositions, mated by it).
    NotMate,
}

impl core::fmt::Display for LineError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LineError::EvenLength { plies } => {
                write!(f, "a mate has an odd number of plies, not {plies}")
            }
            LineError::Illegal { ply, usi } => write!(f, "ply {ply}: {usi} is not legal"),
            LineError::NoCheck { ply, usi } => write!(f, "ply {ply}: {usi} gives no check"),
            LineError::NotMate => f.write_str("the last position is not checkmate"),
        }
    }
}

impl std::error::Error for LineError {}

/// Whether the defender to move in `pos` (in check) is mated: checkmate, or with
/// `futile_interpositions` only futile drops left
/// ([`crate::MateOptions::futile_interpositions`]).
pub(crate) fn mated<G: Game>(pos: &Position<G>, futile_interpositions: bool) -> bool {
    if futile_interpositions {
        futile::mated_with_futile_drops(pos)
    } else {
        pos.is_checkmate()
    }
}

/// Checks a claimed mating line from `root`: every move legal, every attacker move a
/// check, and the last position checkmate.
pub fn verify_line<G: Game>(root: &Position<G>, line: &[Move]) -> Result<(), LineError> {
    verify_line_with(root, line, false)
}

/// [`verify_line`], where with `futile_interpositions` the last position may also be one
/// whose only replies are futile interpositions
/// ([`crate::MateOptions::futile_interpositions`]).
pub fn verify_line_with<G: Game>(
    root: &Position<G>,
    line: &[Move],
    futile_interpositions: bool,
) -> Result<(), LineError> {
    if line.len().is_multiple_of(2) {
        return Err(LineError::EvenLength { plies: line.len() });
    }
    let attacker = root.side_to_move();
    let mut pos = root.clone();
    for (i, &mv) in line.iter().enumerate() {
        let (ply, usi) = (i + 1, || mv.to_usi::<G>());
        if !pos.is_legal(mv) {
            return Err(LineError::Illegal { ply, usi: usi() });
        }
        let mover = pos.side_to_move();
        pos.play_unchecked(mv);
        if mover == attacker && !pos.in_check(!attacker) {
            return Err(LineError::NoCheck { ply, usi: usi() });
        }
    }
    if mated(&pos, futile_interpositions) {
        Ok(())
    } else {
        Err(LineError::NotMate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::Shogi;

    fn line(usi: &str) -> Vec<Move> {
        usi.split_whitespace()
            .map(|m| Move::from_usi::<Shogi>(m).unwrap())
            .collect()
    }

    #[test]
    fn a_mating_line_passes_and_each_fault_is_named() {
        let pos = Position::<Shogi>::from_sfen("4k4/9/4P4/9/9/9/9/9/K8 b G 1").unwrap();
        assert_eq!(verify_line(&pos, &line("G*5b")), Ok(()));
        assert_eq!(
            verify_line(&pos, &[]),
            Err(LineError::EvenLength { plies: 0 })
        );
        let e = verify_line(&pos, &line("S*5b")).unwrap_err();
        assert_eq!(
            e,
            LineError::Illegal {
                ply: 1,
                usi: "S*5b".into()
            }
        );
        assert_eq!(e.to_string(), "ply 1: S*5b is not legal");
        let e = verify_line(&pos, &line("G*1a")).unwrap_err();
        assert_eq!(e.to_string(), "ply 1: G*1a gives no check");
        let e = verify_line(&pos, &line("G*4b")).unwrap_err();
        assert_eq!(e, LineError::NotMate);
        assert_eq!(e.to_string(), "the last position is not checkmate");
        assert_eq!(
            LineError::EvenLength { plies: 2 }.to_string(),
            "a mate has an odd number of plies, not 2"
        );
    }

    /// The example of docs/METHOD.md §11.5: a pawn promotes, discovering a bishop's check
    /// from afar; the defender's only replies are drops the bishop takes into mate.
    #[test]
    fn the_futile_convention_accepts_a_line_that_ends_in_futile_drops() {
        let pos = Position::<Shogi>::from_sfen_with(
            "8k/8p/6P2/9/9/9/9/9/B8 b - 1",
            shogi_core::Relax::ATTACKER_WITHOUT_KING,
        )
        .unwrap();
        let root = crate::with_defender_hand(&pos, crate::DefenderHand::Rest);
        let mv = line("3c3b+");
        assert_eq!(verify_line(&root, &mv), Err(LineError::NotMate));
        assert_eq!(verify_line_with(&root, &mv, true), Ok(()));
        assert!(!mated(&root, true), "the attacker is to move: not mated");
    }
}
