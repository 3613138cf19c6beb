//! Keys of positions (docs/METHOD.md §12): the table key leaves the attacker's hand out, so
//! that superior and inferior hands of one board meet in one place, and the keys of a
//! child are computed from its parent's without playing the move.

use crate::hand::PackedHand;
use shogi_core::{Color, Game, Move, Piece, PieceKind, Position};
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

/// How one search keys its positions: who attacks, and the pieces out of play.
///
/// The pieces in neither hand nor on the board (none with the rest convention; with the
/// SFEN's hands, what the defender is not given) stay out of play for the whole search:
/// captures and drops move pieces between board and hands only. The defender's hand is
/// then the pieces off the board less the attacker's and less those, so it follows from
/// the attacker's and is not keyed: under both conventions positions meet by superiority
/// of the attacker's hand alone (docs/METHOD.md §11.1), and a SFEN whose defender holds
/// the rest searches exactly as under the rest convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Keys {
    pub attacker: Color,
    /// What the pieces out of play add to the table key (0 when there are none), so that
    /// one table never answers a position with another set out of play.
    pub out_of_play: u64,
}

impl Keys {
    /// The keys of a search from `root`, whose pieces out of play are those of the whole
    /// search.
    pub fn of_root<G: Game>(root: &Position<G>) -> Keys {
        let attacker = root.side_to_move();
        let t = G::tables();
        let in_play = root.material();
        let mut out_of_play = 0u64;
        for kind in PieceKind::HAND {
            let out = G::MATERIAL.get(kind).saturating_sub(in_play.get(kind));
            out_of_play = out_of_play.wrapping_add(
                t.zobrist_hand[(!attacker).index()][kind.index()].wrapping_mul(out as u64),
            );
        }
        Keys {
            attacker,
            out_of_play,
        }
    }

    /// The attacker's hand in `pos`.
    #[inline]
    pub fn hand<G: Game>(self, pos: &Position<G>) -> PackedHand {
        PackedHand::new(pos.hand(self.attacker))
    }

    /// The table key of a position: its board, side to move and pieces out of play (the
    /// attacker's hand is compared separately). Odd, so that the table can tell it from
    /// its markers.
    #[inline]
    pub fn node<G: Game>(self, pos: &Position<G>) -> u64 {
        pos.board_key().wrapping_add(self.out_of_play) | 1
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
        (
            full,
            board.wrapping_add(self.out_of_play) | 1,
            attacker_hand,
        )
    }

    /// [`Keys::child`] for a pass: only the side to move changes.
    #[inline]
    pub fn pass<G: Game>(self, pos: &Position<G>) -> (u64, u64, PackedHand) {
        let side = side_change::<G>(pos.side_to_move());
        let full = pos.key().wrapping_add(side);
        let board = pos.board_key().wrapping_add(side);
        (
            full,
            board.wrapping_add(self.out_of_play) | 1,
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
    use crate::defender::{with_defender_hand, DefenderHand};
    use shogi_core::{MiniShogi, MoveList, Shogi};

    /// Every legal move of `sfen`, with pieces out of play and without: the keys computed
    /// without playing the move are those of the position it leads to.
    fn children_keys_match<G: Game>(sfen: &str) {
        let pos = Position::<G>::from_sfen(sfen).expect("a test position");
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert!(!list.is_empty());
        for out_of_play in [0, 0x1234_5678_9abc_def0] {
            for attacker in Color::ALL {
                let keys = Keys {
                    attacker,
                    out_of_play,
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
        for out_of_play in [0, 0x1234_5678_9abc_def0] {
            let keys = Keys {
                attacker: Color::Black,
                out_of_play,
            };
            assert_eq!(
                keys.pass(&pos),
                (passed.key(), keys.node(&passed), keys.hand(&passed))
            );
        }
    }

    /// Hands that split the same pieces differently share a key; a position with pieces
    /// out of play (a defender given less than the rest) has another.
    #[test]
    fn the_table_key_leaves_out_the_hands_but_not_the_pieces_out_of_play() {
        let pos = |sfen: &str| Position::<Shogi>::from_sfen(sfen).unwrap();
        let a = pos("8k/9/8P/9/9/9/9/9/4K4 b G2p 1");
        let b = pos("8k/9/8P/9/9/9/9/9/4K4 b 2G2p 1");
        let c = pos("8k/9/8P/9/9/9/9/9/4K4 b 2Gp 1");
        let rest = |p: &Position<Shogi>| with_defender_hand(p, DefenderHand::Rest);
        let keys = Keys::of_root(&rest(&a));
        assert_eq!(keys.out_of_play, 0, "the rest leaves nothing out");
        assert_eq!(keys.node(&rest(&a)), keys.node(&rest(&b)));
        assert_eq!(keys.node(&a), keys.node(&c), "only the hands differ");
        assert_ne!(keys.hand(&a), keys.hand(&b));
        assert_eq!(keys.node(&a) & 1, 1);
        // The SFEN's hands of b and c leave different pieces out of play.
        let (kb, kc) = (Keys::of_root(&b), Keys::of_root(&c));
        assert_ne!(kb.out_of_play, 0);
        assert_ne!(kb.node(&b), kc.node(&c));
        assert_eq!(Keys::of_root(&rest(&c)), keys);
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
