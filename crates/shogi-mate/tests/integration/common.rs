//! Helpers shared by the integration tests.

use shogi_core::{Game, PieceKind, Position, Relax, Setup};

/// Moves one piece of `kind` from the defender's hand to the attacker's (the side to
/// move), if the defender holds one: a superior position.
pub fn give<G: Game>(pos: &Position<G>, kind: PieceKind) -> Option<Position<G>> {
    let attacker = pos.side_to_move();
    if pos.hand(!attacker).count(kind) == 0 {
        return None;
    }
    let mut s = Setup::from(pos.clone());
    s.set_hand(attacker, kind, pos.hand(attacker).count(kind) + 1);
    s.set_hand(!attacker, kind, pos.hand(!attacker).count(kind) - 1);
    s.into_position(Relax::ATTACKER_WITHOUT_KING).ok()
}

/// A mate problem's position from its SFEN (the attacker may have no king); panics naming
/// the SFEN and what is wrong with it.
pub fn problem<G: Game>(sfen: &str) -> Position<G> {
    Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
        .unwrap_or_else(|e| panic!("{sfen}: {e}"))
}
