//! A node's children: the moves of an expanded node with what the search knows of the
//! positions they lead to, and the delayed moves that wait for another (docs/METHOD.md
//! §11.2).
//!
//! The children of every node on the current path live in one stack, each node's in a
//! range of it, so that a visit allocates nothing.

use crate::futile;
use crate::hand::PackedHand;
use crate::history::History;
use crate::keys::Keys;
use crate::outcome::Outcome;
use crate::table::Table;
use shogi_core::{Game, Move, MoveList, PieceKind, Position};

/// A move of an expanded node, with what the search knows of the position it leads to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    pub mv: Move,
    /// The kind captured by the move, if any.
    pub captured: Option<PieceKind>,
    /// Table key and attacker hand of the position after the move.
    pub key: u64,
    pub hand: PackedHand,
    /// Full key (board and hands) of the position after the move.
    pub full: u64,
    /// Depth of the position on the current path that this child repeats.
    pub repeats: Option<u32>,
    /// The child's look-ahead number, once computed in this expansion.
    pub init: Option<u32>,
    /// Whether the last refresh found nothing in the table: the child is a new position.
    pub fresh: bool,
    /// The child (index in the stack) this one waits for (delayed moves).
    pub after: Option<u32>,
    pub out: Outcome,
}

impl Child {
    /// The child reached by `mv` (capturing `captured`), with the full key, table key and
    /// attacker hand of the position it leads to and the depth of the path it repeats: a
    /// new position, (1, 1) until looked up.
    pub fn new(
        mv: Move,
        captured: Option<PieceKind>,
        (full, key, hand): (u64, u64, PackedHand),
        repeats: Option<u32>,
    ) -> Child {
        Child {
            mv,
            captured,
            key,
            hand,
            full,
            repeats,
            init: None,
            fresh: false,
            after: None,
            out: Outcome::open(1, PackedHand::EMPTY),
        }
    }
}

/// How a node's children are made: the search's options that change them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Expansion {
    pub keys: Keys,
    /// The convention on futile interpositions: a defender left only futile drops has no
    /// reply.
    pub futile: bool,
    /// Delayed moves: link the moves that wait for another.
    pub delay: bool,
}

/// Pushes the children of `pos` onto `stack` (the attacker's checks, or the defender's
/// replies), their table slots prefetched and their repetitions of the path marked.
pub(crate) fn expand<G: Game>(
    stack: &mut Vec<Child>,
    pos: &Position<G>,
    or_node: bool,
    how: Expansion,
    table: &Table,
    history: &History,
) {
    let mut list = MoveList::new();
    if or_node {
        pos.legal_checks(&mut list);
    } else {
        pos.legal_moves(&mut list);
        if how.futile && futile::only_futile_drops(pos, &list) {
            list.clear();
        }
    }
    let board_key = pos.board_key();
    let start = stack.len();
    for mv in list {
        let captured = match mv {
            Move::Normal { to, .. } => pos.piece_at(to).map(|p| p.kind),
            Move::Drop { .. } => None,
        };
        let (full, key, child_hand) = how.keys.child(pos, mv, board_key);
        table.prefetch(key);
        #[cfg(debug_assertions)]
        {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            debug_assert_eq!(
                (full, key, child_hand),
                (next.key(), how.keys.node(&next), how.keys.hand(&next))
            );
            debug_assert!(!or_node || next.in_check(next.side_to_move()));
        }
        let repeats = history.depth(full);
        stack.push(Child::new(mv, captured, (full, key, child_hand), repeats));
    }
    if how.delay {
        link_delayed(stack, start, or_node);
    }
}

/// Chains the moves of `stack[start..]` that wait for another: interpositions on one
/// square are nearly the same defence, and summing their proof numbers makes a check that
/// allows many of them look many times harder than it is; a check without promotion rarely
/// mates where the promotion does not.
pub(crate) fn link_delayed(stack: &mut [Child], start: usize, or_node: bool) {
    let kids = &mut stack[start..];
    if or_node {
        for i in 0..kids.len() {
            if let Move::Normal {
                from,
                to,
                promote: false,
            } = kids[i].mv
            {
                let promoted = Move::Normal {
                    from,
                    to,
                    promote: true,
                };
                kids[i].after = kids
                    .iter()
                    .position(|c| c.mv == promoted)
                    .map(|j| (start + j) as u32);
            }
        }
    } else {
        let mut last = [u32::MAX; 128];
        for (i, c) in kids.iter_mut().enumerate() {
            if let Move::Drop { to, .. } = c.mv {
                let at = &mut last[to.index() & 127];
                c.after = (*at != u32::MAX).then_some(*at);
                *at = (start + i) as u32;
            }
        }
    }
}

/// Whether a move that waits for another still waits, `first` being what is known of the
/// one it waits for: an interposition waits until the one before it is proved, a check
/// without promotion until the promotion is disproved.
#[inline]
pub(crate) fn still_waits(first: Outcome, or_node: bool) -> bool {
    if or_node {
        first.dn != 0
    } else {
        first.pn != 0
    }
}

/// Whether child `c` of `kids` (the whole stack) is left out of its node's numbers: it is
/// undecided and waits for a move that still keeps it waiting.
#[inline]
pub(crate) fn waits(kids: &[Child], c: &Child, or_node: bool) -> bool {
    c.out.pn != 0
        && c.out.dn != 0
        && c.after
            .is_some_and(|j| still_waits(kids[j as usize].out, or_node))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defender::DefenderHand;
    use crate::numbers::INF;
    use shogi_core::{Color, Shogi};

    fn children(sfen: &str, or_node: bool, delay: bool) -> (Position<Shogi>, Vec<Child>) {
        let pos = Position::<Shogi>::from_sfen(sfen).expect("a test position");
        let attacker = if or_node {
            pos.side_to_move()
        } else {
            !pos.side_to_move()
        };
        let how = Expansion {
            keys: Keys {
                attacker,
                defender_hand: DefenderHand::Sfen,
            },
            futile: false,
            delay,
        };
        let mut stack = Vec::new();
        // A child below other nodes' children: indices are into the whole stack.
        stack.extend(std::iter::repeat_n(dummy(), 3));
        expand(
            &mut stack,
            &pos,
            or_node,
            how,
            &Table::new(64, true),
            &History::new(),
        );
        (pos, stack)
    }

    fn dummy() -> Child {
        let mv = Move::from_usi::<Shogi>("1a1b").unwrap();
        Child::new(mv, None, (1, 1, PackedHand::EMPTY), None)
    }

    /// A rook's check from afar: the defender may drop any of its kinds on each square
    /// between; every drop on a square waits for the one before it there.
    #[test]
    fn interpositions_on_one_square_wait_in_a_chain() {
        let (pos, kids) = children("4k4/9/9/9/9/9/9/9/4R3K w gs2p 1", false, true);
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert_eq!(kids.len(), 3 + list.len());
        let mut chains = 0;
        for (i, c) in kids.iter().enumerate().skip(3) {
            match (c.mv, c.after) {
                (Move::Drop { to, .. }, Some(j)) => {
                    let first = kids[j as usize];
                    assert!(j < i as u32 && j >= 3);
                    assert!(matches!(first.mv, Move::Drop { to: t, .. } if t == to));
                    chains += 1;
                }
                (Move::Drop { to, .. }, None) => assert!(
                    kids[3..i]
                        .iter()
                        .all(|k| !matches!(k.mv, Move::Drop { to: t, .. } if t == to)),
                    "the first drop on a square waits for none"
                ),
                (Move::Normal { .. }, after) => assert_eq!(after, None),
            }
        }
        // Three kinds on each of the seven squares between: two wait on each.
        assert_eq!(chains, 7 * 2);
        // Without delayed moves, none waits.
        let (_, kids) = children("4k4/9/9/9/9/9/9/9/4R3K w gs2p 1", false, false);
        assert!(kids.iter().all(|c| c.after.is_none()));
    }

    /// A check without promotion waits for the same move with promotion, until the
    /// promotion is disproved; an interposition until the first one is proved.
    #[test]
    fn a_check_without_promotion_waits_for_the_promotion() {
        let (_, mut kids) = children("4k4/9/4P4/9/9/9/9/9/K8 b S 1", true, true);
        let up = Move::from_usi::<Shogi>("5c5b").unwrap();
        let plus = Move::from_usi::<Shogi>("5c5b+").unwrap();
        let i = kids.iter().position(|c| c.mv == up).expect("5c5b checks");
        let j = kids
            .iter()
            .position(|c| c.mv == plus)
            .expect("5c5b+ checks");
        assert_eq!(kids[i].after, Some(j as u32));
        assert!(kids[j].after.is_none());
        let c = kids[i];
        assert!(waits(&kids, &c, true));
        kids[j].out = Outcome::disproof(PackedHand::EMPTY);
        assert!(
            !waits(&kids, &c, true),
            "the promotion failed: the other counts"
        );
        kids[j].out = Outcome::proof(PackedHand::EMPTY, 1);
        assert!(waits(&kids, &c, true));
        // A decided child never waits.
        kids[i].out = Outcome {
            pn: INF,
            dn: 0,
            ..kids[i].out
        };
        let c = kids[i];
        assert!(!waits(&kids, &c, true));
        assert!(still_waits(Outcome::open(1, PackedHand::EMPTY), false));
        assert!(!still_waits(Outcome::proof(PackedHand::EMPTY, 3), false));
    }

    #[test]
    fn an_attacker_node_has_its_checks_with_their_keys() {
        let (pos, kids) = children("4k4/9/4P4/9/9/9/9/9/K8 b GS 1", true, true);
        let mut list = MoveList::new();
        pos.legal_checks(&mut list);
        assert_eq!(kids.len() - 3, list.len());
        for c in &kids[3..] {
            let mut next = pos.clone();
            next.play_unchecked(c.mv);
            assert!(next.in_check(Color::White));
            assert_eq!(c.full, next.key());
            assert_eq!(c.repeats, None);
            assert_eq!(c.captured, None);
        }
    }
}
