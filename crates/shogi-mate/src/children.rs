//! A node's children: the moves of an expanded node (and, after a quiet move, the pass)
//! with what the search knows of the positions they lead to, and the delayed moves that
//! wait for another (docs/METHOD.md §11.2, §13).
//!
//! The children of every node on the current path live in one stack, each node's in a
//! range of it, so that a visit allocates nothing.

use crate::futile;
use crate::hand::PackedHand;
use crate::history::History;
use crate::keys::Keys;
use crate::node::{Defense, Kind, Node};
use crate::outcome::Outcome;
use crate::table::Table;
use shogi_core::{Game, Move, MoveList, PieceKind, Position};

/// A move of an expanded node, with what the search knows of the position it leads to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    /// The move; for a pass, a placeholder that [`Child::play`] never plays.
    pub mv: Move,
    /// Whether the child is the defender's pass.
    pub pass: bool,
    /// The node the move leads to.
    pub node: Node,
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
    /// The child reached by `mv` (capturing `captured`), a node of the mate search or the
    /// pass count (`node`), with the full key, table key and attacker hand of the node it
    /// leads to and the depth of the path it repeats: a new position, (1, 1) until looked
    /// up.
    pub fn new(
        mv: Move,
        captured: Option<PieceKind>,
        node: Node,
        (full, key, hand): (u64, u64, PackedHand),
        repeats: Option<u32>,
    ) -> Child {
        Child {
            mv,
            pass: false,
            node,
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

    /// The position the child stands for: `pos` after its move, or after the pass.
    #[inline]
    pub fn play<G: Game>(&self, pos: &Position<G>) -> Position<G> {
        let mut next = pos.clone();
        if self.pass {
            // A pass follows a quiet move only, so the defender is not in check.
            let passed = next.play_pass();
            debug_assert!(passed);
        } else {
            next.play_unchecked(self.mv);
        }
        next
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
    /// The defender's moves besides the pass after a quiet move (the pass count).
    pub defense: Defense,
}

/// Pushes the children of node `node` at `pos` onto `stack`, their table slots prefetched
/// and their repetitions of the path marked: with no pass allowed, the attacker's checks or
/// the defender's replies (the mate search); with passes, every attacker move (a check
/// leads to the defender in check, another move to the defender after a quiet move), and
/// after a quiet move the pass (one pass fewer) and the moves of the defence set.
pub(crate) fn expand<G: Game>(
    stack: &mut Vec<Child>,
    pos: &Position<G>,
    node: Node,
    how: Expansion,
    table: &Table,
    history: &History,
) {
    let start = stack.len();
    let bound = node.bound;
    let mut list = MoveList::new();
    match node.kind {
        Kind::Attack if bound == 0 => {
            pos.legal_checks(&mut list);
            push_moves(
                stack,
                pos,
                &list,
                |_| Node::mate(false),
                how,
                table,
                history,
            );
        }
        Kind::Attack => {
            let mut checks = MoveList::new();
            pos.legal_checks(&mut checks);
            pos.legal_moves(&mut list);
            let next = |mv: Move| Node {
                kind: if checks.contains(&mv) {
                    Kind::Evade
                } else {
                    Kind::Quiet { to: mv.to() }
                },
                bound,
            };
            push_moves(stack, pos, &list, next, how, table, history);
        }
        Kind::Evade => {
            pos.legal_moves(&mut list);
            if how.futile && futile::only_futile_drops(pos, &list) {
                list.clear();
            }
            let next = |_| Node {
                kind: Kind::Attack,
                bound,
            };
            push_moves(stack, pos, &list, next, how, table, history);
        }
        Kind::Quiet { to } => {
            let passed = Node {
                kind: Kind::Attack,
                bound: bound - 1,
            };
            let (full, key, hand) = how.keys.pass(pos);
            let (full, key) = (passed.key(full, how.defense), passed.key(key, how.defense));
            table.prefetch(key);
            let placeholder = Move::Normal {
                from: to,
                to,
                promote: false,
            };
            let repeats = history.depth(full);
            stack.push(Child {
                pass: true,
                ..Child::new(placeholder, None, passed, (full, key, hand), repeats)
            });
            if how.defense != Defense::None {
                pos.legal_moves(&mut list);
                if how.defense == Defense::Takeback {
                    list.retain(|mv| matches!(mv, Move::Normal { to: t, .. } if *t == to));
                }
                let next = |_| Node {
                    kind: Kind::Attack,
                    bound,
                };
                push_moves(stack, pos, &list, next, how, table, history);
            }
        }
    }
    // Only interpositions wait at defender nodes: after a quiet move the defender's drops
    // block no check.
    if how.delay && !matches!(node.kind, Kind::Quiet { .. }) {
        link_delayed(stack, start, node.is_or());
    }
}

/// Pushes a child for each move of `list` at `pos`, leading to the node `next(mv)`.
#[inline]
fn push_moves<G: Game>(
    stack: &mut Vec<Child>,
    pos: &Position<G>,
    list: &[Move],
    next: impl Fn(Move) -> Node,
    how: Expansion,
    table: &Table,
    history: &History,
) {
    let board_key = pos.board_key();
    for &mv in list {
        let node = next(mv);
        let captured = match mv {
            Move::Normal { to, .. } => pos.piece_at(to).map(|p| p.kind),
            Move::Drop { .. } => None,
        };
        let (full, key, child_hand) = how.keys.child(pos, mv, board_key);
        let (full, key) = (node.key(full, how.defense), node.key(key, how.defense));
        table.prefetch(key);
        #[cfg(debug_assertions)]
        {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            debug_assert_eq!(
                (full, key, child_hand),
                (
                    node.key(next.key(), how.defense),
                    node.key(how.keys.node(&next), how.defense),
                    how.keys.hand(&next)
                )
            );
            // The attacker may be in check too: a reply can check back.
            match node.kind {
                Kind::Evade => debug_assert!(next.in_check(next.side_to_move())),
                Kind::Quiet { .. } => debug_assert!(!next.in_check(next.side_to_move())),
                Kind::Attack => {}
            }
        }
        let repeats = history.depth(full);
        stack.push(Child::new(
            mv,
            captured,
            node,
            (full, key, child_hand),
            repeats,
        ));
    }
}

/// Chains the moves of `stack[start..]` that wait for another: interpositions on one
/// square are nearly the same defence, and summing their proof numbers makes a check that
/// allows many of them look many times harder than it is; a check without promotion rarely
/// mates where the promotion does not (how long it waits: [`still_waits`]).
pub(crate) fn link_delayed(stack: &mut [Child], start: usize, or_node: bool) {
    let kids = &mut stack[start..];
    if or_node {
        // Only checks wait: a quiet move without promotion (the pass count's threats) is as
        // often better than the promotion as worse (a silver keeps its diagonals back), and
        // waiting for a quiet promotion to be refuted can cost a whole threat search (a
        // threat of the committed sets took 346,506 nodes instead of 1,687).
        let check = |c: &Child| c.node.kind == Kind::Evade;
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
                if check(&kids[i]) {
                    kids[i].after = kids
                        .iter()
                        .position(|c| c.mv == promoted && check(c))
                        .map(|j| (start + j) as u32);
                }
            }
        }
    } else {
        let mut last = [u32::MAX; DROP_CHAINS];
        for (i, c) in kids.iter_mut().enumerate() {
            if let Some(chain) = drop_chain(c.mv) {
                let at = &mut last[chain];
                c.after = (*at != u32::MAX).then_some(*at);
                *at = (start + i) as u32;
            }
        }
    }
}

/// The chains of a defender node's drops: one a square (at most 81 of them).
pub(crate) const DROP_CHAINS: usize = 128;

/// The chain the defender's move `mv` waits in among the delayed moves: the drops on one
/// square are one chain (nearly the same interposition), a board move waits in none. The
/// look-ahead (`estimate.rs`) counts a node's replies by the same rule.
#[inline]
pub(crate) fn drop_chain(mv: Move) -> Option<usize> {
    match mv {
        Move::Drop { to, .. } => Some(to.index() & (DROP_CHAINS - 1)),
        Move::Normal { .. } => None,
    }
}

/// How many times the waiting check's own proof number the promotion's may reach before
/// the check without promotion stops waiting for it ([`still_waits`]). Chosen on the `tune`
/// halves of the benchmark sets (docs/BENCHMARKS.md, issue 32): 1, 1.5, 2, 3, 4, 8, 16 and
/// 32 were tried, and waiting for the disproof itself; 2 took the fewest nodes.
pub(crate) const PROMOTION_LEAD: u64 = 2;

/// Whether a move that waits for another still waits, `first` being what is known of the
/// one it waits for and `own` of the move itself: an interposition waits until the one
/// before it is proved; a check without promotion while the promotion is neither disproved
/// nor more than [`PROMOTION_LEAD`] times harder to prove than the check itself looks.
///
/// The promotion is the better move nearly always, so the plain check is held back; but
/// a promotion that is hard to disprove would hold it back for as long as its disproof
/// takes, which in a composed problem built on the exception (a pawn that must not promote)
/// is most of the search. Once the promotion's proof number has outgrown the plain check's,
/// the promotion is no longer the promising move, and the plain check competes on its own
/// numbers; should the promotion become easy again, the check waits again.
#[inline]
pub(crate) fn still_waits(first: Outcome, own: Outcome, or_node: bool) -> bool {
    if or_node {
        first.dn != 0 && u64::from(first.pn) <= PROMOTION_LEAD * u64::from(own.pn)
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
            .is_some_and(|j| still_waits(kids[j as usize].out, c.out, or_node))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbers::INF;
    use shogi_core::{Color, Shogi, Square};

    /// The children of node `node` at `sfen`, after three of another node's.
    fn expanded(
        sfen: &str,
        node: Node,
        delay: bool,
        defense: Defense,
    ) -> (Position<Shogi>, Vec<Child>) {
        let pos = Position::<Shogi>::from_sfen(sfen).expect("a test position");
        let attacker = if node.is_or() {
            pos.side_to_move()
        } else {
            !pos.side_to_move()
        };
        let how = Expansion {
            keys: Keys {
                attacker,
                out_of_play: 0,
            },
            futile: false,
            delay,
            defense,
        };
        let mut stack = Vec::new();
        // A child below other nodes' children: indices are into the whole stack.
        stack.extend(std::iter::repeat_n(dummy(), 3));
        expand(
            &mut stack,
            &pos,
            node,
            how,
            &Table::new(64, true),
            &History::new(),
        );
        (pos, stack)
    }

    fn children(sfen: &str, or_node: bool, delay: bool) -> (Position<Shogi>, Vec<Child>) {
        expanded(sfen, Node::mate(or_node), delay, Defense::None)
    }

    fn dummy() -> Child {
        let mv = Move::from_usi::<Shogi>("1a1b").unwrap();
        Child::new(mv, None, Node::mate(true), (1, 1, PackedHand::EMPTY), None)
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

    /// A check without promotion waits for the same move with promotion, at the longest
    /// until the promotion is disproved; an interposition until the first one is proved.
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
        let open = Outcome::open(1, PackedHand::EMPTY);
        assert!(still_waits(open, open, false));
        assert!(!still_waits(
            Outcome::proof(PackedHand::EMPTY, 3),
            open,
            false
        ));
    }

    /// A check without promotion stops waiting once the promotion's proof number has grown
    /// past [`PROMOTION_LEAD`] times its own (the promotion no longer the promising move),
    /// and waits again when its own grows back to that.
    #[test]
    fn a_check_without_promotion_stops_waiting_for_a_hard_promotion() {
        let (_, mut kids) = children("4k4/9/4P4/9/9/9/9/9/K8 b S 1", true, true);
        let at = |kids: &[Child], usi: &str| {
            let mv = Move::from_usi::<Shogi>(usi).unwrap();
            kids.iter().position(|c| c.mv == mv).unwrap()
        };
        let (i, j) = (at(&kids, "5c5b"), at(&kids, "5c5b+"));
        let open = |pn, dn| Outcome {
            dn,
            ..Outcome::open(pn, PackedHand::EMPTY)
        };
        let lead = PROMOTION_LEAD as u32;
        kids[i].out = open(3, 2);
        kids[j].out = open(3 * lead, 40);
        assert!(
            waits(&kids, &kids[i], true),
            "the promotion is as promising"
        );
        kids[j].out = open(3 * lead + 1, 40);
        assert!(!waits(&kids, &kids[i], true), "the promotion is harder");
        kids[i].out = open(4, 2);
        assert!(waits(&kids, &kids[i], true), "the check is as hard again");
        // Numbers near infinity neither overflow nor end the wait.
        kids[i].out = open(INF - 1, 2);
        kids[j].out = open(INF - 1, 40);
        assert!(waits(&kids, &kids[i], true));
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

    /// With a pass allowed, every attacker move is a child: a check leads to the defender
    /// in check, any other move to the defender after a quiet move, the bound kept. Only
    /// checks wait for their promotion.
    #[test]
    fn with_passes_every_attacker_move_is_a_child() {
        let attack = Node {
            kind: Kind::Attack,
            bound: 1,
        };
        // The silver on 4c may go to 4b or 3b with or without promotion, checking or not.
        let (pos, kids) = expanded("4k4/9/4PS3/9/9/9/9/9/K8 b S 1", attack, true, Defense::None);
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert_eq!(kids.len() - 3, list.len());
        let (mut checks, mut quiet) = (0, 0);
        for c in &kids[3..] {
            let next = c.play(&pos);
            assert_eq!(c.node.bound, 1);
            match c.node.kind {
                Kind::Evade => checks += 1,
                Kind::Quiet { to } => {
                    assert_eq!(to, c.mv.to());
                    assert_eq!(c.after, None, "a quiet move waits for none");
                    quiet += 1;
                }
                Kind::Attack => panic!("the attacker moved"),
            }
            assert_eq!(c.node.kind == Kind::Evade, next.in_check(Color::White));
            assert_ne!(
                c.full,
                next.key(),
                "a node with a pass keys apart from its position"
            );
        }
        assert!(checks > 0 && quiet > 0);
        let waiting = kids[3..].iter().filter(|c| c.after.is_some()).count();
        assert!(waiting > 0, "a check without promotion waits");
    }

    /// After a quiet move: the pass first (one pass fewer), then the defence set's moves;
    /// for takeback, the captures on the square the attacker moved to.
    #[test]
    fn after_a_quiet_move_the_defender_may_pass_or_defend() {
        // Black's silver has just moved to 3b, next to White's gold, which can take it.
        let sfen = "4kg3/6S2/9/9/9/9/9/9/K8 w - 1";
        let to = Square::from_usi::<Shogi>("3b").unwrap();
        let quiet = Node {
            kind: Kind::Quiet { to },
            bound: 2,
        };
        let (pos, none) = expanded(sfen, quiet, true, Defense::None);
        assert_eq!(none.len() - 3, 1, "only the pass");
        let pass = none[3];
        assert!(pass.pass);
        assert_eq!(
            pass.node,
            Node {
                kind: Kind::Attack,
                bound: 1
            }
        );
        let passed = pass.play(&pos);
        assert_eq!(passed.side_to_move(), Color::Black);
        assert_eq!(pass.full, pass.node.key(passed.key(), Defense::None));
        let (_, takeback) = expanded(sfen, quiet, true, Defense::Takeback);
        let captures: Vec<_> = takeback[4..]
            .iter()
            .map(|c| c.mv.to_usi::<Shogi>())
            .collect();
        assert!(!captures.is_empty());
        assert!(takeback[4..]
            .iter()
            .all(|c| c.mv.to() == to && c.captured.is_some()));
        let (_, all) = expanded(sfen, quiet, true, Defense::All);
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert_eq!(all.len() - 4, list.len());
        assert!(all[4..].iter().all(|c| c.node.bound == 2 && !c.pass));
    }
}
