//! A second mate solver for the `mate_small` target: a plain depth-limited AND/OR search
//! over the legal moves (the game's rules, drop-pawn mate included), knowing nothing of
//! proof numbers, tables, proof pieces or superiority, with a node budget so that every
//! execution stays fast. Also an independent replay of a mating line and the "rest" hand
//! of mate problems computed from the material.

use shogi_core::{Color, Game, Hand, Move, MoveList, PieceKind, Position, Relax, Setup};

/// A brute-force search with a node budget shared by all its calls.
pub struct Brute {
    nodes: u64,
    budget: u64,
    futile: bool,
}

impl Brute {
    /// A search that gives up after `budget` positions.
    pub fn new(budget: u64) -> Brute {
        Brute {
            nodes: 0,
            budget,
            futile: false,
        }
    }

    /// The same search under the convention on futile interpositions (the solver's
    /// `MateOptions::futile_interpositions`) when `on`.
    pub fn futile(self, on: bool) -> Brute {
        Brute { futile: on, ..self }
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn visit(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= self.budget).then_some(())
    }

    /// Whether the side to move forces checkmate within `plies` plies: some legal move
    /// that gives check after which every legal reply leaves a mate within `plies - 2`
    /// (or there is none: checkmate). `None` when the budget ran out first. Repetitions
    /// need no rule: a shortest mate never repeats a position.
    pub fn mate_within<G: Game>(&mut self, pos: &Position<G>, plies: u32) -> Option<bool> {
        if plies == 0 {
            return Some(false);
        }
        self.visit()?;
        let them = !pos.side_to_move();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for mv in list {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            if next.in_check(them) && self.mated_within(&next, plies - 1)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// For the defender to move in check: whether every legal reply leaves a mate within
    /// `plies - 1` plies (no reply at all: checkmate).
    fn mated_within<G: Game>(&mut self, pos: &Position<G>, plies: u32) -> Option<bool> {
        self.visit()?;
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() || (self.futile && self.only_futile_drops(pos, &list)?) {
            return Some(true);
        }
        if plies < 2 {
            return Some(false);
        }
        for mv in list {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            if !self.mate_within(&next, plies - 1)? {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Whether every reply in `list` (the defender's, in check) is a drop that the checker
    /// takes, promoting or not, into a position where this holds again (or no reply is
    /// left): mated under the convention. Every drop of every kind is followed.
    fn only_futile_drops<G: Game>(&mut self, pos: &Position<G>, list: &[Move]) -> Option<bool> {
        let Some(checker) = pos.checkers().into_iter().next() else {
            return Some(list.is_empty());
        };
        for &mv in list {
            let Move::Drop { to, .. } = mv else {
                return Some(false);
            };
            let mut dropped = pos.clone();
            dropped.play_unchecked(mv);
            let mut futile = false;
            for promote in [false, true] {
                let capture = Move::Normal {
                    from: checker,
                    to,
                    promote,
                };
                if !futile && dropped.is_legal(capture) {
                    self.visit()?;
                    let mut taken = dropped.clone();
                    taken.play_unchecked(capture);
                    let mut replies = MoveList::new();
                    taken.legal_moves(&mut replies);
                    futile = self.only_futile_drops(&taken, &replies)?;
                }
            }
            if !futile {
                return Some(false);
            }
        }
        Some(true)
    }

    /// The shortest mate of at most `max_plies` plies, by iterative deepening over odd
    /// depths, and the deepest depth fully searched (0 if none): `(Some(d), d)` for a mate
    /// in `d`, `(None, done)` when there is no mate within `done` plies and the budget
    /// stopped the next depth (or `done` reached `max_plies`).
    pub fn shortest_mate<G: Game>(
        &mut self,
        pos: &Position<G>,
        max_plies: u32,
    ) -> (Option<u32>, u32) {
        let mut done = 0;
        for d in (1..=max_plies).step_by(2) {
            match self.mate_within(pos, d) {
                Some(true) => return (Some(d), d),
                Some(false) => done = d,
                None => break,
            }
        }
        (None, done)
    }
}

/// Replays a claimed mate from `root` without the solver's `verify_line`: every move in
/// the legal move list of its position, every move of the side to move at the root a
/// check, an odd number of plies, and at the end the defender in check with no legal move.
pub fn replay_mate<G: Game>(root: &Position<G>, line: &[Move]) -> Result<(), String> {
    replay_mate_with(root, line, false)
}

/// [`replay_mate`], where with `futile` the last position may be one whose every reply is
/// a futile interposition (checked by [`Brute`] under the convention, without a budget).
pub fn replay_mate_with<G: Game>(
    root: &Position<G>,
    line: &[Move],
    futile: bool,
) -> Result<(), String> {
    if line.len() % 2 != 1 {
        return Err(format!("{} plies", line.len()));
    }
    let attacker = root.side_to_move();
    let mut pos = root.clone();
    for (i, &mv) in line.iter().enumerate() {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if !list.contains(&mv) {
            return Err(format!(
                "ply {}: {} is not legal in {pos}",
                i + 1,
                mv.to_usi::<G>()
            ));
        }
        let mover = pos.side_to_move();
        pos.play_unchecked(mv);
        if mover == attacker && !pos.in_check(!attacker) {
            return Err(format!(
                "ply {}: {} gives no check",
                i + 1,
                mv.to_usi::<G>()
            ));
        }
        if mover != attacker && pos.in_check(!attacker) {
            return Err(format!("ply {}: the defender is still in check", i + 1));
        }
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mated = list.is_empty()
        || (futile
            && Brute::new(u64::MAX)
                .futile(true)
                .only_futile_drops(&pos, &list)
                == Some(true));
    if pos.side_to_move() == !attacker && pos.in_check(!attacker) && mated {
        Ok(())
    } else {
        Err(format!("{pos} is not checkmate"))
    }
}

/// The legal moves of `pos` that give check, found by playing every legal move: what the
/// solver's check generator must list.
pub fn checks_by_filter<G: Game>(pos: &Position<G>) -> Vec<Move> {
    let them = !pos.side_to_move();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.into_iter()
        .filter(|&mv| {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            next.in_check(them)
        })
        .collect()
}

/// What the defender (the side not to move) holds under the convention of mate problems:
/// every piece of the game that is neither on the board nor in the attacker's hand.
pub fn rest_hand<G: Game>(pos: &Position<G>) -> Hand {
    let attacker = pos.side_to_move();
    let mut on_board = [0u8; PieceKind::HAND_COUNT];
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            if kind != PieceKind::King {
                on_board[kind.unpromoted().index()] += pos.pieces(color, kind).count() as u8;
            }
        }
    }
    let mut hand = Hand::EMPTY;
    for kind in PieceKind::HAND {
        let i = kind.index();
        hand.0[i] = G::MATERIAL.get(kind) - on_board[i] - pos.hand(attacker).count(kind);
    }
    hand
}

/// `pos` with the attacker's hand replaced by `attacker` and the defender's by `defender`
/// (`None` if that breaks the material).
pub fn with_hands<G: Game>(
    pos: &Position<G>,
    attacker: &Hand,
    defender: &Hand,
) -> Option<Position<G>> {
    let a = pos.side_to_move();
    let mut s = Setup::from(pos.clone());
    for kind in PieceKind::HAND {
        s.set_hand(a, kind, attacker.count(kind));
        s.set_hand(!a, kind, defender.count(kind));
    }
    s.into_position(Relax::all()).ok()
}
