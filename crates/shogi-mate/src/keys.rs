//! Keys of positions (docs/METHOD.md §12): the table key leaves the attacker's hand out, so
//! that superior and inferior hands of one board meet in one place, and the keys of a
//! child are computed from its parent's without playing the move.

use crate::defender::DefenderHand;
use crate::hand::PackedHand;
use shogi_core::{Color, Game, Move, Piece, Position};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for keys that are already random 64-bit values.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map from keys (already random) to small numbers.
pub(crate) type KeyMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// Mixes a path key with the key of the next position (splitmix64's finaliser).
pub(crate) fn extend_path(path: u64, key: u64) -> u64 {
    let mut z = path.rotate_left(5) ^ key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// How one search keys its positions: who attacks, and whether the defender's hand is the
/// SFEN's (then part of the table key) or the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Keys {
    pub attacker: Color,
    pub defender_hand: DefenderHand,
}

impl Keys {
    /// The attacker's hand in `pos`.
    #[inline]
    pub fn hand<G: Game>(self, pos: &Position<G>) -> PackedHand {
        PackedHand::new(pos.hand(self.attacker))
    }

    /// The table key of a position: its board and side to move, and with the SFEN's hands
    /// convention the defender's hand too (the attacker's hand is compared separately).
    /// Odd, so that the table can tell it from its markers.
    #[inline]
    pub fn node<G: Game>(self, pos: &Position<G>) -> u64 {
        pos.board_key().wrapping_add(self.defender_part(pos)) | 1
    }

    /// What the defender's hand adds to the table key: nothing with the rest convention.
    #[inline]
    fn defender_part<G: Game>(self, pos: &Position<G>) -> u64 {
        let mut key = 0u64;
        if self.defender_hand == DefenderHand::Sfen {
            let t = G::tables();
            let d = !self.attacker;
            for (k, &n) in pos.hand(d).0.iter().enumerate() {
                key = key.wrapping_add(t.zobrist_hand[d.index()][k].wrapping_mul(n as u64));
            }
        }
        key
    }

    /// The full key, table key and attacker hand of the position after `mv`, computed
    /// from the Zobrist tables without playing the move (`board_key` is `pos`'s).
    #[inline]
    pub fn child<G: Game>(
        self,
        pos: &Position<G>,
        mv: Move,
        board_key: u64,
    ) -> (u64, u64, PackedHand) {
        let t = G::tables();
        let us = pos.side_to_move();
        let mut full = pos.key();
        let mut board = board_key;
        let mut mover_hand = *pos.hand(us);
        match mv {
            Move::Normal { from, to, promote } => {
                if let Some(p) = pos.piece_at(from) {
                    let kind = if promote {
                        p.kind.promoted().unwrap_or(p.kind)
                    } else {
                        p.kind
                    };
                    let mut delta = t.zobrist_board[Piece::new(us, kind).index()][to.index()]
                        .wrapping_sub(t.zobrist_board[p.index()][from.index()]);
                    if let Some(c) = pos.piece_at(to) {
                        let held = c.kind.unpromoted();
                        delta = delta.wrapping_sub(t.zobrist_board[c.index()][to.index()]);
                        full = full.wrapping_add(t.zobrist_hand[us.index()][held.index()]);
                        mover_hand.0[held.index()] += 1;
                    }
                    full = full.wrapping_add(delta);
                    board = board.wrapping_add(delta);
                }
            }
            Move::Drop { kind, to } => {
                let delta = t.zobrist_board[Piece::new(us, kind).index()][to.index()];
                full = full
                    .wrapping_add(delta)
                    .wrapping_sub(t.zobrist_hand[us.index()][kind.index()]);
                board = board.wrapping_add(delta);
                mover_hand.0[kind.index()] = mover_hand.0[kind.index()].saturating_sub(1);
            }
        }
        let side = side_change::<G>(us);
        full = full.wrapping_add(side);
        board = board.wrapping_add(side);
        let attacker_hand = if us == self.attacker {
            PackedHand::new(&mover_hand)
        } else {
            PackedHand::new(pos.hand(self.attacker))
        };
        if self.defender_hand == DefenderHand::Sfen {
            let d = !self.attacker;
            let dh = if us == d { &mover_hand } else { pos.hand(d) };
            for (k, &n) in dh.0.iter().enumerate() {
                board = board.wrapping_add(t.zobrist_hand[d.index()][k].wrapping_mul(n as u64));
            }
        }
        (full, board | 1, attacker_hand)
    }

    /// [`Keys::child`] for a pass: only the side to move changes.
    #[inline]
    pub fn pass<G: Game>(self, pos: &Position<G>) -> (u64, u64, PackedHand) {
        let side = side_change::<G>(pos.side_to_move());
        let full = pos.key().wrapping_add(side);
        let board = pos.board_key().wrapping_add(side);
        (
            full,
            board.wrapping_add(self.defender_part(pos)) | 1,
            self.hand(pos),
        )
    }
}

/// What a move by `us` adds to a key: the key holds White to move.
#[inline]
fn side_change<G: Game>(us: Color) -> u64 {
    let side = G::tables().zobrist_side;
    match us {
        Color::Black => side,
        Color::White => side.wrapping_neg(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::{MiniShogi, MoveList, Shogi};

    /// Every legal move of `sfen`, under both conventions: the keys computed without
    /// playing the move are those of the position it leads to.
    fn children_keys_match<G: Game>(sfen: &str) {
        let pos = Position::<G>::from_sfen(sfen).expect("a test position");
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert!(!list.is_empty());
        for defender_hand in [DefenderHand::Rest, DefenderHand::Sfen] {
            for attacker in Color::ALL {
                let keys = Keys {
                    attacker,
                    defender_hand,
                };
                for &mv in list.iter() {
                    let mut next = pos.clone();
                    next.play_unchecked(mv);
                    assert_eq!(
                        keys.child(&pos, mv, pos.board_key()),
                        (next.key(), keys.node(&next), keys.hand(&next)),
                        "{sfen} {}",
                        mv.to_usi::<G>()
                    );
                }
            }
        }
    }

    #[test]
    fn a_childs_keys_are_those_of_the_position_played() {
        // Captures of promoted pieces, drops, promotions, both sides to move.
        children_keys_match::<Shogi>(
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
        );
        children_keys_match::<Shogi>(
            "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL b GN2Ps 36",
        );
        children_keys_match::<MiniShogi>("rbsgk/4p/5/P1+B2/KGS1R b - 1");
    }

    #[test]
    fn a_pass_keys_as_the_position_with_the_other_side_to_move() {
        let pos = Position::<Shogi>::from_sfen("4k4/9/4P4/9/9/9/9/9/K8 b G2p 1").unwrap();
        let mut passed = pos.clone();
        assert!(passed.play_pass());
        for defender_hand in [DefenderHand::Rest, DefenderHand::Sfen] {
            let keys = Keys {
                attacker: Color::Black,
                defender_hand,
            };
            assert_eq!(
                keys.pass(&pos),
                (passed.key(), keys.node(&passed), keys.hand(&passed))
            );
        }
    }

    #[test]
    fn the_table_key_leaves_out_the_attackers_hand_only() {
        let a = Position::<Shogi>::from_sfen("8k/9/8P/9/9/9/9/9/4K4 b G2p 1").unwrap();
        let b = Position::<Shogi>::from_sfen("8k/9/8P/9/9/9/9/9/4K4 b 2G2p 1").unwrap();
        let c = Position::<Shogi>::from_sfen("8k/9/8P/9/9/9/9/9/4K4 b 2Gp 1").unwrap();
        let rest = Keys {
            attacker: Color::Black,
            defender_hand: DefenderHand::Rest,
        };
        let sfen = Keys {
            defender_hand: DefenderHand::Sfen,
            ..rest
        };
        assert_eq!(rest.node(&a), rest.node(&b));
        assert_eq!(rest.node(&b), rest.node(&c));
        assert_eq!(sfen.node(&a), sfen.node(&b));
        assert_ne!(
            sfen.node(&b),
            sfen.node(&c),
            "the defender's hand is in the key"
        );
        assert_eq!(rest.node(&a) & 1, 1);
        assert_ne!(rest.hand(&a), rest.hand(&b));
    }

    #[test]
    fn path_keys_depend_on_order_and_hash_maps_take_keys_as_they_are() {
        assert_ne!(
            extend_path(extend_path(0, 1), 2),
            extend_path(extend_path(0, 2), 1)
        );
        let mut h = KeyHasher::default();
        h.write_u64(0xdead_beef);
        assert_eq!(h.finish(), 0xdead_beef);
        let mut m = KeyMap::default();
        m.insert(5, 1);
        assert_eq!(m.get(&5), Some(&1));
    }
}
