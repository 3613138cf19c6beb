//! An independent oracle for the phase-1 verdicts of the fast pipeline (docs/METHOD.md §10.1,
//! §10.7): the filters of §5 recomputed from the board, and the one-ply predecessors of §6
//! found by brute force with nothing but the forward legal move generator.
//!
//! No code of `shogi-retro` is used. For the side that just moved (the side not to move in
//! `pos`), every piece on the board is taken back in every way a piece can have got there:
//!
//! - **un-drops**: an unpromoted piece other than the king goes back to the mover's hand;
//! - **un-moves**: the piece came from any square that is empty in `pos`, as the same piece,
//!   or, if it is promoted now, as its unpromoted form (whether the move could promote is
//!   the forward generator's business: both are tried);
//! - **un-captures**: each un-move also with a piece of the side to move standing on the
//!   destination before the move, of any kind the mover holds in hand (a captured piece goes
//!   to the hand unpromoted), unpromoted or, where the kind promotes, promoted; one of that
//!   kind leaves the mover's hand.
//!
//! The only pruning is of origins from which the piece does not attack the destination in
//! shogi-core's *forward* attack tables (the tables the forward generator moves by, which
//! perft ties to two outside libraries); without it the oracle finds the same set, only
//! slower (a test checks this). Each candidate is then kept only if it is a legal position
//! with the mover to move ([`Setup::into_position`] with no rule relaxed: one king each, the
//! material, no two pawns, no dead piece, the side not to move not in check) and the forward
//! legal move generator, run on it under the rules in force, lists a move that leads
//! exactly to `pos` (board, hands and side to move compared). Promotion zones, forced
//! promotions, the two-pawn rule of drops, drop-pawn-mate under either reading, pins and
//! checks are therefore all decided by the forward generator alone.

use core::ops::ControlFlow;
use shogi_core::{
    attacks, Color, Game, Move, MoveList, Piece, PieceKind, Position, Relax, Rules, Setup, Square,
};

/// A predecessor the oracle found: the position before the last move, and that move.
pub type Predecessor<G> = (Position<G>, Move);

/// Every legal predecessor of `pos` under `rules`, each with the forward move that leads from
/// it to `pos`, found by brute force (see the module documentation). Each predecessor appears
/// once.
pub fn brute_predecessors<G: Game>(pos: &Position<G>, rules: Rules) -> Vec<Predecessor<G>> {
    let mut out: Vec<Predecessor<G>> = Vec::new();
    let _ = for_each_predecessor(pos, rules, true, |q, m| {
        out.push((q, m));
        ControlFlow::Continue(())
    });
    out
}

/// Whether `pos` has a legal predecessor under `rules`, by the brute force of
/// [`brute_predecessors`], stopping at the first one found.
pub fn brute_has_predecessor<G: Game>(pos: &Position<G>, rules: Rules) -> bool {
    for_each_predecessor(pos, rules, true, |_, _| ControlFlow::Break(())).is_break()
}

/// [`brute_predecessors`] without any pruning of the origins: every empty square is tried
/// as the origin of every piece. Slow; the tests use it to show that the pruning loses
/// nothing.
pub fn brute_predecessors_unpruned<G: Game>(
    pos: &Position<G>,
    rules: Rules,
) -> Vec<Predecessor<G>> {
    let mut out: Vec<Predecessor<G>> = Vec::new();
    let _ = for_each_predecessor(pos, rules, false, |q, m| {
        out.push((q, m));
        ControlFlow::Continue(())
    });
    out
}

/// The squares of the board of `G`, in index order.
fn squares<G: Game>() -> impl Iterator<Item = Square> {
    (0..G::SQUARES as u8).filter_map(Square::from_index_in::<G>)
}

/// Calls `f` with every predecessor found, cheapest kinds first (un-drops, then quiet
/// un-moves, then un-captures) so that a search for one stops early.
fn for_each_predecessor<G: Game>(
    pos: &Position<G>,
    rules: Rules,
    prune: bool,
    mut f: impl FnMut(Position<G>, Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let s = pos.side_to_move();
    let mover = !s;
    let occ = pos.occupied();
    let empties: Vec<Square> = squares::<G>()
        .filter(|&sq| pos.piece_at(sq).is_none())
        .collect();
    let mine: Vec<(Square, PieceKind)> = squares::<G>()
        .filter_map(|sq| match pos.piece_at(sq) {
            Some(p) if p.color == mover => Some((sq, p.kind)),
            _ => None,
        })
        .collect();
    let hand = *pos.hand(mover);
    let mut moves = MoveList::new();
    // The candidate as a position with the mover to move, kept only if it is legal and the
    // forward generator has a move from it to `pos`. Only a move onto `to` can lead to
    // `pos`: the candidate differs from `pos` on `to`, and a move changes only its origin
    // (emptied) and its destination.
    let mut confirm = |mut setup: Setup<G>, to: Square| -> Option<Predecessor<G>> {
        setup.set_side_to_move(mover);
        let q = setup.into_position(Relax::empty()).ok()?;
        moves.clear();
        q.legal_moves_with(rules, &mut moves);
        let mut found = None;
        for &m in moves.iter().filter(|m| m.to() == to) {
            let mut next = q.clone();
            next.play_unchecked(m);
            if next == *pos {
                debug_assert!(found.is_none(), "two moves from one position to {pos}");
                found = Some(m);
            }
        }
        found.map(|m| (q, m))
    };
    // Un-drops.
    for &(to, kind) in &mine {
        if kind == PieceKind::King || kind.is_promoted() {
            continue;
        }
        let mut setup = Setup::from(pos.clone());
        setup.take(to);
        setup.set_hand(mover, kind, hand.count(kind) + 1);
        if let Some((q, m)) = confirm(setup, to) {
            f(q, m)?;
        }
    }
    // The origins of the un-moves: (destination, kind before the move, origin).
    let mut origins: Vec<(Square, PieceKind, Square)> = Vec::new();
    for &(to, kind) in &mine {
        let mut before = vec![kind];
        if kind.is_promoted() {
            before.push(kind.unpromoted());
        }
        for piece in before {
            for &from in &empties {
                if !prune || attacks::<G>(mover, piece, from, occ).has(to) {
                    origins.push((to, piece, from));
                }
            }
        }
    }
    // Quiet un-moves: the destination was empty.
    for &(to, piece, from) in &origins {
        let mut setup = Setup::from(pos.clone());
        setup.take(to);
        setup.put(from, Piece::new(mover, piece));
        if let Some((q, m)) = confirm(setup, to) {
            f(q, m)?;
        }
    }
    // Un-captures: a piece of the side to move stood on the destination.
    for &(to, piece, from) in &origins {
        for base in PieceKind::HAND {
            let held = hand.count(base);
            if held == 0 {
                continue;
            }
            for captured in [Some(base), base.promoted()].into_iter().flatten() {
                let mut setup = Setup::from(pos.clone());
                setup.take(to);
                setup.put(from, Piece::new(mover, piece));
                setup.put(to, Piece::new(s, captured));
                setup.set_hand(mover, base, held - 1);
                if let Some((q, m)) = confirm(setup, to) {
                    f(q, m)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// A sample's phase-1 verdict (docs/METHOD.md §10.1): the first filter of §5 it fails, or
/// whether it has a legal predecessor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase1 {
    /// Dropped by the mirror filter (not canonical).
    Mirror,
    /// Dropped by the piece-placement filter.
    Placement,
    /// Dropped by the check filter (the side not to move is in check).
    Check,
    /// Passes the filters, is not a KK position and has no legal predecessor: unreachable.
    NoPredecessor,
    /// Passes the filters and is a KK position or has a legal predecessor (an `A`-sample,
    /// which phase 2 may search).
    Predecessor,
}

impl Phase1 {
    /// Every verdict, in pipeline order.
    pub const ALL: [Phase1; 5] = [
        Phase1::Mirror,
        Phase1::Placement,
        Phase1::Check,
        Phase1::NoPredecessor,
        Phase1::Predecessor,
    ];

    /// The name in reports (as `shogi-count sample` spells the filters).
    pub fn name(self) -> &'static str {
        match self {
            Phase1::Mirror => "non-canonical",
            Phase1::Placement => "illegal-placement",
            Phase1::Check => "opponent-in-check",
            Phase1::NoPredecessor => "no-predecessor",
            Phase1::Predecessor => "has-predecessor",
        }
    }

    /// The index in [`Phase1::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The oracle's phase-1 verdict of `pos`: the filters of docs/METHOD.md §5 recomputed from
/// the board by the code of this module (its own piece movements, its own position order),
/// then KK positions, then [`brute_has_predecessor`].
pub fn oracle_phase1<G: Game>(pos: &Position<G>, rules: Rules) -> Phase1 {
    oracle_phase1_with(pos, rules, brute_has_predecessor)
}

/// [`oracle_phase1`] with another predecessor test: what a pipeline with that test would
/// decide (the tests give it a broken one).
pub fn oracle_phase1_with<G: Game>(
    pos: &Position<G>,
    rules: Rules,
    has_predecessor: impl Fn(&Position<G>, Rules) -> bool,
) -> Phase1 {
    if !canonical(pos) {
        Phase1::Mirror
    } else if !placement_legal(pos) {
        Phase1::Placement
    } else if side_not_to_move_attacked(pos) {
        Phase1::Check
    } else if kk(pos) || has_predecessor(pos, rules) {
        Phase1::Predecessor
    } else {
        Phase1::NoPredecessor
    }
}

/// Column and row of a square: `index = x * H + y` (docs/METHOD.md §3).
fn xy<G: Game>(sq: Square) -> (i32, i32) {
    let h = G::HEIGHT as usize;
    ((sq.index() / h) as i32, (sq.index() % h) as i32)
}

fn at<G: Game>(x: i32, y: i32) -> Option<Square> {
    if (0..G::WIDTH as i32).contains(&x) && (0..G::HEIGHT as i32).contains(&y) {
        Square::new::<G>(x as u8, y as u8)
    } else {
        None
    }
}

/// The tuple of docs/METHOD.md §3 as one sequence: for each basic kind in the order King,
/// Gold, Knight, Lance, Pawn, Silver, Rook, Bishop, the sets (Black promoted, White promoted,
/// Black unpromoted, White unpromoted), each as its ascending square numbers `x·H + y` plus
/// one, closed by a 0. Comparing two such sequences lexicographically compares the tuples,
/// a proper prefix of a set first (its 0 is below any square). `mirror` reads the board
/// reflected (`x -> W-1-x`).
fn board_tuple<G: Game>(pos: &Position<G>, mirror: bool) -> Vec<u8> {
    use PieceKind::*;
    let order = [
        (King, None),
        (Gold, None),
        (Knight, Some(ProKnight)),
        (Lance, Some(ProLance)),
        (Pawn, Some(ProPawn)),
        (Silver, Some(ProSilver)),
        (Rook, Some(Dragon)),
        (Bishop, Some(Horse)),
    ];
    // The sets in tuple order, each named by the piece it holds.
    let mut sets: Vec<Piece> = Vec::with_capacity(32);
    for (plain, promoted) in order {
        if let Some(p) = promoted {
            sets.push(Piece::new(Color::Black, p));
            sets.push(Piece::new(Color::White, p));
        }
        sets.push(Piece::new(Color::Black, plain));
        sets.push(Piece::new(Color::White, plain));
    }
    let (w, h) = (G::WIDTH as usize, G::HEIGHT as usize);
    // (set, square number) of every piece, in ascending square numbers of the (possibly
    // mirrored) board; then sorted by set, stably.
    let mut items: Vec<(usize, u8)> = Vec::with_capacity(G::SQUARES);
    for n in 0..w * h {
        let (x, y) = (n / h, n % h);
        let src_x = if mirror { w - 1 - x } else { x };
        let sq = Square::new::<G>(src_x as u8, y as u8).expect("on the board");
        if let Some(p) = pos.piece_at(sq) {
            let set = sets
                .iter()
                .position(|&s| s == p)
                .expect("every piece belongs to a set");
            items.push((set, n as u8 + 1));
        }
    }
    items.sort_by_key(|&(set, _)| set);
    let mut out = Vec::with_capacity(items.len() + sets.len());
    let mut next = items.iter().peekable();
    for set in 0..sets.len() {
        while let Some(&&(s, n)) = next.peek() {
            if s != set {
                break;
            }
            out.push(n);
            next.next();
        }
        out.push(0);
    }
    out
}

/// Filter 1, recomputed: Black to move and `Hflip(p) >= p` in the tuple order.
pub fn canonical<G: Game>(pos: &Position<G>) -> bool {
    pos.side_to_move() == Color::Black && board_tuple(pos, true) >= board_tuple(pos, false)
}

/// Filter 2, recomputed: no side has two unpromoted pawns on a file, no unpromoted pawn or
/// lance stands on its last rank, no unpromoted knight on its last two ranks.
pub fn placement_legal<G: Game>(pos: &Position<G>) -> bool {
    let h = G::HEIGHT as i32;
    let mut pawns = [[0u8; 16]; 2];
    for sq in squares::<G>() {
        let Some(p) = pos.piece_at(sq) else { continue };
        let (x, y) = xy::<G>(sq);
        // Ranks from the owner's far end: 0 is its last rank.
        let from_far = match p.color {
            Color::Black => y,
            Color::White => h - 1 - y,
        };
        match p.kind {
            PieceKind::Pawn => {
                pawns[p.color.index()][x as usize] += 1;
                if from_far == 0 {
                    return false;
                }
            }
            PieceKind::Lance if from_far == 0 => return false,
            PieceKind::Knight if from_far <= 1 => return false,
            _ => {}
        }
    }
    pawns.iter().flatten().all(|&n| n <= 1)
}

/// Steps `(dx, dy)` on the board.
type Directions = &'static [(i32, i32)];

/// The moves of a piece as Black plays them (`y` grows towards Black, so forward is
/// `dy = -1`): single steps and slides.
fn movement(kind: PieceKind) -> (Directions, Directions) {
    const GOLD: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const ORTHO: &[(i32, i32)] = &[(0, -1), (0, 1), (-1, 0), (1, 0)];
    const DIAG: &[(i32, i32)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    const KING: &[(i32, i32)] = &[
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];
    match kind {
        PieceKind::Pawn => (&[(0, -1)], &[]),
        PieceKind::Lance => (&[], &[(0, -1)]),
        PieceKind::Knight => (&[(-1, -2), (1, -2)], &[]),
        PieceKind::Silver => (&[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)], &[]),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => (GOLD, &[]),
        PieceKind::King => (KING, &[]),
        PieceKind::Bishop => (&[], DIAG),
        PieceKind::Rook => (&[], ORTHO),
        PieceKind::Horse => (ORTHO, DIAG),
        PieceKind::Dragon => (DIAG, ORTHO),
    }
}

/// Whether the piece `piece` on `from` attacks `target` (reaches it in one move, through
/// empty squares for a slider), by [`movement`] and the board alone.
fn piece_attacks<G: Game>(pos: &Position<G>, piece: Piece, from: Square, target: Square) -> bool {
    let (steps, slides) = movement(piece.kind);
    let sign = match piece.color {
        Color::Black => 1,
        Color::White => -1,
    };
    let (x, y) = xy::<G>(from);
    for &(dx, dy) in steps {
        if at::<G>(x + dx, y + sign * dy) == Some(target) {
            return true;
        }
    }
    for &(dx, dy) in slides {
        let (mut cx, mut cy) = (x + dx, y + sign * dy);
        while let Some(sq) = at::<G>(cx, cy) {
            if sq == target {
                return true;
            }
            if pos.piece_at(sq).is_some() {
                break;
            }
            cx += dx;
            cy += sign * dy;
        }
    }
    false
}

/// Filter 3, recomputed: some piece of the side to move attacks the king of the other side.
pub fn side_not_to_move_attacked<G: Game>(pos: &Position<G>) -> bool {
    let us = pos.side_to_move();
    let Some(king) =
        squares::<G>().find(|&sq| pos.piece_at(sq) == Some(Piece::new(!us, PieceKind::King)))
    else {
        return false;
    };
    squares::<G>().any(|sq| match pos.piece_at(sq) {
        Some(p) if p.color == us => piece_attacks(pos, p, sq, king),
        _ => false,
    })
}

/// Whether `pos` is a KK position as the pipeline starts its searches from: the two kings
/// and nothing else on the board.
pub fn kk<G: Game>(pos: &Position<G>) -> bool {
    let pieces: Vec<Piece> = squares::<G>().filter_map(|sq| pos.piece_at(sq)).collect();
    pieces.len() == 2
        && pieces.contains(&Piece::new(Color::Black, PieceKind::King))
        && pieces.contains(&Piece::new(Color::White, PieceKind::King))
}

/// Whether a certificate's start is a KK position of docs/METHOD.md §7: the two kings alone
/// on the board at Chebyshev distance at least 2.
pub fn kk_start<G: Game>(pos: &Position<G>) -> bool {
    if !kk(pos) {
        return false;
    }
    let king = |c| {
        squares::<G>()
            .find(|&sq| pos.piece_at(sq) == Some(Piece::new(c, PieceKind::King)))
            .map(xy::<G>)
    };
    match (king(Color::Black), king(Color::White)) {
        (Some((bx, by)), Some((wx, wy))) => (bx - wx).abs().max((by - wy).abs()) >= 2,
        _ => false,
    }
}

/// Replays a certificate forward with the legal move generator under `rules`: the start is a
/// KK position, every move is among the legal moves of the position it is played in, and
/// the last position equals `target`. `Err` says what failed.
pub fn replay_certificate<G: Game>(
    kk_position: &Position<G>,
    moves: &[Move],
    target: &Position<G>,
    rules: Rules,
) -> Result<(), String> {
    if !kk_start(kk_position) {
        return Err(format!("the start {kk_position} is not a KK position"));
    }
    let mut p = kk_position.clone();
    let mut legal = MoveList::new();
    for (i, &m) in moves.iter().enumerate() {
        legal.clear();
        p.legal_moves_with(rules, &mut legal);
        if !legal.contains(&m) {
            return Err(format!(
                "move {} ({}) is not legal in {p}",
                i + 1,
                m.to_usi::<G>()
            ));
        }
        p.play_unchecked(m);
    }
    if p == *target {
        Ok(())
    } else {
        Err(format!("the moves end in {p}, not in the sample"))
    }
}

/// What the oracle's backward closure of a position found: every position from which the
/// position can be reached by legal moves, by [`brute_predecessors`] repeated until nothing
/// new appears (docs/METHOD.md §10.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closure {
    /// Positions in the closure, the start included (all of them when `complete`).
    pub positions: usize,
    /// The most plies traced back from the start (the start at 0).
    pub depth: u32,
    /// Whether a KK position is in it: then the start is reachable (every KK position is
    /// reachable from the initial position, §7).
    pub found_kk: bool,
    /// Whether the closure was enumerated to the end: `false` when a KK position stopped
    /// it, or it grew past the cap.
    pub complete: bool,
}

impl Closure {
    /// Whether the closure proves the start unreachable: complete, finite, no KK position.
    pub fn proves_unreachable(&self) -> bool {
        self.complete && !self.found_kk
    }
}

/// The backward closure of `pos` under `rules` by the oracle's brute-force predecessors,
/// breadth first, stopped at the first KK position or past `cap` positions. It shares no
/// code with the pipeline's search (shogi-reach) or its unmove generator (shogi-retro).
pub fn closure<G: Game>(pos: &Position<G>, rules: Rules, cap: usize) -> Closure {
    let mut seen: std::collections::HashSet<Position<G>> = std::collections::HashSet::new();
    seen.insert(pos.clone());
    let mut frontier = vec![pos.clone()];
    let mut depth = 0;
    if kk(pos) {
        return Closure {
            positions: 1,
            depth: 0,
            found_kk: true,
            complete: false,
        };
    }
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for p in &frontier {
            for (q, _) in brute_predecessors(p, rules) {
                if seen.contains(&q) {
                    continue;
                }
                let is_kk = kk(&q);
                seen.insert(q.clone());
                if is_kk {
                    return Closure {
                        positions: seen.len(),
                        depth: depth + 1,
                        found_kk: true,
                        complete: false,
                    };
                }
                if seen.len() > cap {
                    return Closure {
                        positions: seen.len(),
                        depth: depth + 1,
                        found_kk: false,
                        complete: false,
                    };
                }
                next.push(q);
            }
        }
        if !next.is_empty() {
            depth += 1;
        }
        frontier = next;
    }
    Closure {
        positions: seen.len(),
        depth,
        found_kk: false,
        complete: true,
    }
}
