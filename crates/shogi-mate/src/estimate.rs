//! Initial estimates of new positions (docs/METHOD.md §11.2): a one-ply look-ahead that
//! counts the moves of a child the table does not know, and decides it where it has none.
//!
//! After a check, a new position's proof number is the defender's number of replies (as in
//! df-pn+), so that checks leaving few replies are tried first, the drops on one square
//! counted once with delayed moves (as the node counts them); after a reply, its
//! disproof number is the attacker's number of checks. A look-ahead that finds no move
//! decides the child where it is generated: no reply is checkmate, no check no mate; so the
//! leaves of a proof cost no visit of their own. The counts are remembered by position in a
//! small direct-mapped array, since a node entered again makes its children again.

use crate::children::{drop_chain, Child, DROP_CHAINS};
use crate::futile;
use crate::node::{Defense, Kind};
use crate::numbers::INF;
use crate::outcome::Outcome;
use crate::proof::Rules;
use shogi_core::{Game, Move, MoveList, Position};

/// Entries of [`LookAhead`] (16 bytes each) at most: with the default tables (2^20
/// entries and more); smaller tables get a 16th of their entries, so that many small
/// solvers (a fuzz target keeps one for each set of options) stay small.
const AHEAD_SLOTS: usize = 1 << 16;

/// What the look-ahead counts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Estimates {
    /// Count the attacker's checks after a reply (off: 1).
    pub dn_lookahead: bool,
    /// The convention on futile interpositions: a defender left only futile drops has no
    /// reply.
    pub futile: bool,
    /// Delayed moves: the defender's drops on one square count as one reply, as the node
    /// counts them once expanded ([`crate::children::link_delayed`]).
    pub delay: bool,
    /// How a child without moves is decided.
    pub rules: Rules,
    /// The defender's moves besides the pass after a quiet move (the pass count).
    pub defense: Defense,
}

/// The look-ahead numbers of positions met in one search, by full key (mixed with the
/// node kind), direct-mapped: a node entered again expands its children again, and their
/// look-aheads (a move generation each) are most of that cost. A collision only misorders
/// children, never decides one; cleared with the table so that a search does not depend on
/// the one before. A power of two, at most [`AHEAD_SLOTS`], and a 32nd of the table's
/// memory at most.
pub(crate) struct LookAhead {
    slots: Vec<(u64, u32)>,
}

impl LookAhead {
    /// The array for a table of `capacity` entries.
    pub fn for_table(capacity: usize) -> LookAhead {
        LookAhead {
            // A power of two (the slot is a mask), at most a 16th of the table's entries.
            slots: vec![(0, 0); prev_power_of_two(capacity / 16).clamp(1, AHEAD_SLOTS)],
        }
    }

    /// Forgets every count.
    pub fn clear(&mut self) {
        self.slots.fill((0, 0));
    }

    /// The number of child `c` of `pos`, a position the table does not know: its proof
    /// number after a check (the defender's replies), its disproof number after a reply or
    /// a pass (the attacker's moves: its checks with no pass left; 1 without
    /// `dn_lookahead`), and after a quiet move the proof number of the defender's pass and
    /// defences. `Err` with the child's final outcome when it has no move. (Storing the
    /// look-ahead as an open entry was measured: more nodes, not fewer.)
    pub fn number<G: Game>(
        &mut self,
        pos: &Position<G>,
        c: &Child,
        or_node: bool,
        how: Estimates,
    ) -> Result<u32, Outcome> {
        let kind = c.node.kind;
        if kind == Kind::Attack && !how.dn_lookahead {
            return Ok(1);
        }
        if matches!(kind, Kind::Quiet { .. }) && how.defense == Defense::None {
            // The pass alone.
            return Ok(1);
        }
        let tag = if or_node { c.full } else { !c.full };
        let slot = (tag >> 3) as usize & (self.slots.len() - 1);
        let (known, n) = self.slots[slot];
        if known == tag && n > 0 {
            return Ok(n);
        }
        let next = c.play(pos);
        let n = match kind {
            Kind::Evade if how.futile || how.delay => {
                let mut list = MoveList::new();
                next.legal_moves(&mut list);
                if how.futile && futile::only_futile_drops(&next, &list) {
                    0
                } else if how.delay {
                    counted_replies(&list)
                } else {
                    list.len() as u32
                }
            }
            Kind::Evade => next.count_moves().min(INF as u64 / 2) as u32,
            Kind::Attack if c.node.bound == 0 => {
                let mut list = MoveList::new();
                next.legal_checks(&mut list);
                list.len() as u32
            }
            Kind::Attack => next.count_moves().min(INF as u64 / 2) as u32,
            Kind::Quiet { to } => {
                let defences = if how.defense == Defense::Takeback {
                    let mut list = MoveList::new();
                    next.legal_moves(&mut list);
                    let takeback =
                        |mv: &&Move| matches!(mv, Move::Normal { to: t, .. } if *t == to);
                    list.iter().filter(takeback).count() as u64
                } else {
                    next.count_moves()
                };
                1 + defences.min(INF as u64 / 4) as u32
            }
        };
        if n > 0 {
            self.slots[slot] = (tag, n);
            return Ok(n);
        }
        Err(how.rules.without_moves(&next, c.node, c.hand))
    }
}

/// The replies as a defender node counts them once expanded, with delayed moves: every
/// board move, and the drops on one square once (the later ones wait for the first), so
/// that the look-ahead number is the node's own proof number before its children are
/// searched, not the many drops of one interposition summed.
fn counted_replies(replies: &[Move]) -> u32 {
    const _: () = assert!(DROP_CHAINS == u128::BITS as usize, "one bit a chain");
    let mut chains = 0u128;
    let mut n = 0;
    for &mv in replies {
        match drop_chain(mv) {
            Some(chain) => chains |= 1 << chain,
            None => n += 1,
        }
    }
    n + chains.count_ones()
}

/// The largest power of two at most `n` (1 for 0).
fn prev_power_of_two(n: usize) -> usize {
    if n == 0 {
        1
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::PackedHand;
    use crate::keys::Keys;
    use crate::node::Node;
    use shogi_core::{Color, Shogi};

    const HOW: Estimates = Estimates {
        dn_lookahead: true,
        futile: false,
        delay: false,
        rules: Rules { superiority: true },
        defense: Defense::None,
    };

    /// The child of `pos` by `usi`, a node of the mate search.
    fn child(pos: &Position<Shogi>, usi: &str, attacker: Color) -> Child {
        let mv = Move::from_usi::<Shogi>(usi).unwrap();
        assert!(pos.is_legal(mv));
        let keys = Keys {
            attacker,
            out_of_play: 0,
        };
        let node = Node::mate(pos.side_to_move() != attacker);
        Child::new(mv, None, node, keys.child(pos, mv, pos.board_key()), None)
    }

    #[test]
    fn after_a_check_the_defenders_replies_and_a_mate_is_decided() {
        let pos = Position::<Shogi>::from_sfen("4k4/9/4P4/9/9/9/9/9/K8 b G 1").unwrap();
        let mut ahead = LookAhead::for_table(1 << 10);
        // The gold drop on 5b mates: decided where it is generated, a leaf without pieces.
        let mate = child(&pos, "G*5b", Color::Black);
        let out = ahead.number(&pos, &mate, true, HOW).unwrap_err();
        assert_eq!((out.pn, out.len, out.pieces), (0, 0, PackedHand::EMPTY));
        // A gold drop on 4b checks and leaves the king replies: their count.
        let check = child(&pos, "G*4b", Color::Black);
        let mut next = pos.clone();
        next.play_unchecked(check.mv);
        let n = ahead.number(&pos, &check, true, HOW).unwrap();
        assert_eq!(u64::from(n), next.count_moves());
        assert!(n > 0);
        // Remembered: the same answer from the array.
        assert_eq!(ahead.number(&pos, &check, true, HOW), Ok(n));
        ahead.clear();
        assert_eq!(ahead.number(&pos, &check, true, HOW), Ok(n));
    }

    /// With delayed moves the drops on one square count once, as the defender's node
    /// counts them once expanded: a rook's check from four squares away, answered by four
    /// king moves or a gold or silver on any of three squares, is 4 + 3 = 7, not 4 + 6.
    #[test]
    fn with_delayed_moves_the_drops_on_one_square_count_once() {
        let pos = Position::<Shogi>::from_sfen("4k4/9/9/9/9/9/9/9/K8 b Rgs 1").unwrap();
        let mut ahead = LookAhead::for_table(1 << 10);
        let check = child(&pos, "R*5e", Color::Black);
        let mut next = pos.clone();
        next.play_unchecked(check.mv);
        assert_eq!(next.count_moves(), 10);
        assert_eq!(ahead.number(&pos, &check, true, HOW), Ok(10));
        let delay = Estimates { delay: true, ..HOW };
        ahead.clear();
        assert_eq!(ahead.number(&pos, &check, true, delay), Ok(7));
        // The futile convention's count is the same: these drops are not futile (the
        // rook that takes one gives no mate).
        let both = Estimates {
            futile: true,
            ..delay
        };
        ahead.clear();
        assert_eq!(ahead.number(&pos, &check, true, both), Ok(7));
    }

    #[test]
    fn after_a_reply_the_attackers_checks_or_one() {
        // White in check from a black rook; after a reply Black has checks (the count)...
        let pos = Position::<Shogi>::from_sfen("4k4/9/9/9/9/9/9/9/4R3K w - 1").unwrap();
        let mut ahead = LookAhead::for_table(64);
        let reply = child(&pos, "5a4b", Color::Black);
        let mut next = pos.clone();
        next.play_unchecked(reply.mv);
        let mut checks = MoveList::new();
        next.legal_checks(&mut checks);
        let n = ahead.number(&pos, &reply, false, HOW);
        if checks.is_empty() {
            assert!(n.unwrap_err().is_unconditional_disproof());
        } else {
            assert_eq!(n, Ok(checks.len() as u32));
        }
        // ...and without the dn look-ahead, 1.
        let off = Estimates {
            dn_lookahead: false,
            ..HOW
        };
        assert_eq!(ahead.number(&pos, &reply, false, off), Ok(1));
    }

    #[test]
    fn the_array_is_small_for_small_tables() {
        assert_eq!(LookAhead::for_table(64).slots.len(), 4);
        assert_eq!(LookAhead::for_table(1).slots.len(), 1);
        assert_eq!(LookAhead::for_table(1 << 24).slots.len(), AHEAD_SLOTS);
        assert_eq!(LookAhead::for_table(100 << 15).slots.len(), AHEAD_SLOTS);
        assert_eq!(LookAhead::for_table(1000).slots.len(), 32, "1000 / 16 = 62");
    }
}
