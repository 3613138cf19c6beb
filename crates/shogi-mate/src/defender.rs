//! The defender's hand (docs/METHOD.md §11.1): the convention of mate problems, where the
//! defender holds every piece that is neither on the board nor in the attacker's hand, or
//! the hand a position from a game gives it.

use shogi_core::{Game, PieceKind, Position, Relax, Setup};

/// Which hand the defender holds (docs/METHOD.md §11.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum DefenderHand {
    /// Every piece that is neither on the board nor in the attacker's hand: the convention
    /// of mate problems. The hand the SFEN gives the defender is replaced.
    #[default]
    Rest,
    /// The hand the SFEN gives the defender, kept as it is: for positions from games where
    /// both hands are known. What the defender is not given stays out of play (docs/METHOD.md
    /// §11.1); when that is nothing (the SFEN's defender holds the rest, as in any position
    /// of a game), the search is the one of [`DefenderHand::Rest`], node for node.
    Sfen,
}

impl DefenderHand {
    /// The name on the command line: `rest` or `sfen`.
    pub const fn name(self) -> &'static str {
        match self {
            DefenderHand::Rest => "rest",
            DefenderHand::Sfen => "sfen",
        }
    }
}

/// The position with the defender's hand replaced by everything off the board that the
/// attacker does not hold (the usual convention of mate problems), or unchanged.
pub fn with_defender_hand<G: Game>(pos: &Position<G>, convention: DefenderHand) -> Position<G> {
    if convention == DefenderHand::Sfen {
        return pos.clone();
    }
    let attacker = pos.side_to_move();
    let defender = !attacker;
    let material = pos.material();
    let mut setup = Setup::from(pos.clone());
    for kind in PieceKind::HAND {
        let on_board = material.get(kind) as u32
            - pos.hand(attacker).count(kind) as u32
            - pos.hand(defender).count(kind) as u32;
        let rest = G::MATERIAL.get(kind) as u32 - on_board - pos.hand(attacker).count(kind) as u32;
        setup.set_hand(defender, kind, rest as u8);
    }
    // The board, the kings and the side to move are those of a position; the hands now
    // hold exactly the game's material off the board, which is never over the limit.
    setup
        .into_position(Relax::all())
        .unwrap_or_else(|_| pos.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::{Color, MiniShogi, Shogi};

    #[test]
    fn the_rest_is_everything_off_the_board_the_attacker_lacks() {
        // Black attacks with a gold in hand; White's own hand (a pawn) is replaced.
        let pos = Position::<Shogi>::from_sfen("8k/9/8P/9/9/9/9/9/4K4 b Gp 1").unwrap();
        let rest = with_defender_hand(&pos, DefenderHand::Rest);
        let w = rest.hand(Color::White);
        assert_eq!(w.count(PieceKind::Pawn), 17, "18 pawns, one on the board");
        assert_eq!(w.count(PieceKind::Gold), 3, "the attacker holds the fourth");
        assert_eq!(w.count(PieceKind::Rook), 2);
        assert_eq!(rest.hand(Color::Black), pos.hand(Color::Black));
        assert_eq!(rest.board_key(), pos.board_key());
        assert_eq!(with_defender_hand(&pos, DefenderHand::Sfen), pos);
    }

    #[test]
    fn the_rest_of_mini_shogi_counts_its_own_material() {
        let pos = Position::<MiniShogi>::from_sfen("2k2/5/2G2/5/4K b G 1").unwrap();
        let rest = with_defender_hand(&pos, DefenderHand::Rest);
        let w = rest.hand(Color::White);
        assert_eq!(w.count(PieceKind::Gold), 0, "both golds are Black's");
        assert_eq!(w.count(PieceKind::Pawn), 2);
        assert_eq!(w.count(PieceKind::Rook), 2);
        assert_eq!(DefenderHand::Rest.name(), "rest");
        assert_eq!(DefenderHand::Sfen.name(), "sfen");
    }
}
