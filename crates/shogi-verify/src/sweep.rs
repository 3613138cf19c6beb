//! The completeness/soundness sweep of docs/METHOD.md §6 over positions from random legal games.
//!
//! For every position `p` visited:
//! - **completeness**: for every legal move `m` of `p`, the unmove of `m` is among
//!   `unmoves(Next(p, m))`, and taking it back gives `p` again;
//! - **soundness**: for every unmove `u` of `p`, the predecessor `q` has no placement error
//!   and its side not to move is not in check (`validate()` finds nothing that `p` does not
//!   already have: a missing king or reduced material), its key is consistent, `u.forward()`
//!   is a legal move of `q` (forward generator) and playing it gives `p`; the list holds no
//!   duplicate, and the text form of every unmove reads back to it.
//!
//! Positions come from random games (biased towards captures, so hands fill up) that start
//! from the initial position, from the initial position with random pieces removed (reduced
//! material), or from a random KK position with the material split between the hands (drop
//! heavy, crowded). Both sides to move, promoted pieces and checks all occur.

use crate::rng::{below, chance, test_rng, TestRng};
use shogi_core::{
    Color, Game, Move, MoveList, Piece, PieceKind, Position, PositionErrors, Relax, Rules, Setup,
    Square,
};
use shogi_retro::{predecessor, unmoves, Unmove, UnmoveList};
use std::time::Instant;

/// What a sweep checked and found.
#[derive(Clone, Debug, Default)]
pub struct SweepReport {
    /// The game's name.
    pub game: &'static str,
    /// Positions visited.
    pub positions: u64,
    /// Positions visited with White to move.
    pub white_to_move: u64,
    /// Positions visited with the side to move in check.
    pub in_check: u64,
    /// Positions visited with fewer pieces than the full material.
    pub reduced_material: u64,
    /// Legal moves checked for completeness.
    pub moves_checked: u64,
    /// Predecessors checked for soundness.
    pub predecessors_checked: u64,
    /// Visited positions without any predecessor.
    pub no_predecessor: u64,
    /// The most predecessors of one position.
    pub max_predecessors: usize,
    /// Number of failed checks.
    pub failures: u64,
    /// The first failures, described (SFEN and unmove).
    pub examples: Vec<String>,
    /// Wall time in seconds.
    pub seconds: f64,
}

impl SweepReport {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.failures == 0
    }
}

impl core::fmt::Display for SweepReport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(
            f,
            "{}: {} positions ({} White to move, {} in check, {} reduced material), {} moves \
             (completeness), {} predecessors (soundness), {} without predecessor, at most {} \
             predecessors, {:.1} s: {} failures",
            self.game,
            self.positions,
            self.white_to_move,
            self.in_check,
            self.reduced_material,
            self.moves_checked,
            self.predecessors_checked,
            self.no_predecessor,
            self.max_predecessors,
            self.seconds,
            self.failures
        )?;
        for e in &self.examples {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

/// Runs the sweep over `positions` positions of game `G` under the usual rules.
pub fn sweep<G: Game>(positions: usize, seed: u64) -> SweepReport {
    sweep_with::<G>(positions, seed, Rules::default())
}

/// Runs the sweep under `rules` (both the forward generator and the unmoves use them).
pub fn sweep_with<G: Game>(positions: usize, seed: u64, rules: Rules) -> SweepReport {
    let start = Instant::now();
    let mut rng = test_rng(seed ^ 0x5EED_0000_0000_0006);
    let mut report = SweepReport {
        game: G::NAME,
        ..SweepReport::default()
    };
    let mut ctx = Ctx {
        rules,
        list: UnmoveList::new(),
        child_list: UnmoveList::new(),
        moves: MoveList::new(),
    };
    while (report.positions as usize) < positions {
        let mut pos = random_start::<G>(&mut rng);
        let len = 20 + below(&mut rng, 380);
        for _ in 0..len {
            if (report.positions as usize) >= positions {
                break;
            }
            check(&pos, &mut ctx, &mut report);
            ctx.moves.clear();
            pos.legal_moves_with(rules, &mut ctx.moves);
            if ctx.moves.is_empty() {
                break;
            }
            let mv = pick_move(&pos, &ctx.moves, &mut rng);
            pos.play_unchecked(mv);
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    report
}

struct Ctx {
    rules: Rules,
    list: UnmoveList,
    child_list: UnmoveList,
    moves: MoveList,
}

fn fail<G: Game>(report: &mut SweepReport, pos: &Position<G>, what: String) {
    report.failures += 1;
    if report.examples.len() < 20 {
        report.examples.push(format!("{}: {what}", pos.to_sfen()));
    }
}

/// Runs the completeness and soundness checks on one position, adding to `report`.
pub fn check_position<G: Game>(pos: &Position<G>, rules: Rules, report: &mut SweepReport) {
    let mut ctx = Ctx {
        rules,
        list: UnmoveList::new(),
        child_list: UnmoveList::new(),
        moves: MoveList::new(),
    };
    check(pos, &mut ctx, report);
}

fn check<G: Game>(pos: &Position<G>, ctx: &mut Ctx, report: &mut SweepReport) {
    report.positions += 1;
    if pos.side_to_move() == Color::White {
        report.white_to_move += 1;
    }
    if pos.checkers().is_nonempty() {
        report.in_check += 1;
    }
    if pos.material() != G::MATERIAL {
        report.reduced_material += 1;
    }
    // Soundness.
    unmoves(pos, ctx.rules, &mut ctx.list);
    report.max_predecessors = report.max_predecessors.max(ctx.list.len());
    if ctx.list.is_empty() {
        report.no_predecessor += 1;
    }
    let allowed = pos.validate()
        & (PositionErrors::MISSING_KING
            | PositionErrors::TOO_MANY_KINGS
            | PositionErrors::TOO_MUCH_MATERIAL);
    let mut sorted = ctx.list.clone();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        fail(report, pos, "duplicate unmoves".to_string());
    }
    let mut moves = MoveList::new();
    for &u in &ctx.list {
        report.predecessors_checked += 1;
        let text = u.to_text::<G>();
        if Unmove::from_text::<G>(&text) != Ok(u) {
            fail(report, pos, format!("{text}: text does not read back"));
        }
        let q = match predecessor(pos, u) {
            Ok(q) => q,
            Err(e) => {
                fail(
                    report,
                    pos,
                    format!("{text}: does not fit the position: {e}"),
                );
                continue;
            }
        };
        if q.key() != q.compute_key() {
            fail(report, pos, format!("{text}: key not incremental"));
        }
        let errors = q.validate() - allowed;
        if !errors.is_empty() {
            fail(
                report,
                pos,
                format!("{text}: predecessor {q} breaks: {errors}"),
            );
        }
        moves.clear();
        q.legal_moves_with(ctx.rules, &mut moves);
        if !moves.contains(&u.forward()) {
            fail(
                report,
                pos,
                format!("{text}: not a legal move in predecessor {q}"),
            );
            continue;
        }
        let mut back = q.clone();
        back.play_unchecked(u.forward());
        if back != *pos || back.key() != pos.key() {
            fail(
                report,
                pos,
                format!("{text}: replaying from {q} gives {back}"),
            );
        }
    }
    // Completeness.
    moves.clear();
    pos.legal_moves_with(ctx.rules, &mut moves);
    for &m in &moves {
        report.moves_checked += 1;
        let mut child = pos.clone();
        child.play_unchecked(m);
        let Some(expected) = Unmove::of_move(pos, m) else {
            fail(
                report,
                pos,
                format!("move {}: no piece on its origin", m.to_usi::<G>()),
            );
            continue;
        };
        unmoves(&child, ctx.rules, &mut ctx.child_list);
        if !ctx.child_list.contains(&expected) {
            fail(
                report,
                pos,
                format!(
                    "move {} ({}): missing from the unmoves of {child}",
                    m.to_usi::<G>(),
                    expected.to_text::<G>()
                ),
            );
            continue;
        }
        match predecessor(&child, expected) {
            Ok(q) if q == *pos && q.key() == pos.key() => {}
            Ok(q) => fail(
                report,
                pos,
                format!("move {}: undo gives {q}", m.to_usi::<G>()),
            ),
            Err(e) => fail(report, pos, format!("move {}: {e}", m.to_usi::<G>())),
        }
    }
}

/// Picks a move: a capture half of the time when there is one (so hands fill up), else
/// any move.
pub fn pick_move<G: Game>(pos: &Position<G>, moves: &MoveList, rng: &mut TestRng) -> Move {
    if chance(rng, 1, 2) {
        let captures = moves
            .iter()
            .filter(|m| matches!(m, Move::Normal { to, .. } if pos.piece_at(*to).is_some()))
            .count();
        if captures > 0 {
            let k = below(rng, captures);
            return *moves
                .iter()
                .filter(|m| matches!(m, Move::Normal { to, .. } if pos.piece_at(*to).is_some()))
                .nth(k)
                .expect("k < captures");
        }
    }
    moves[below(rng, moves.len())]
}

/// A random legal start: the initial position, the initial position with pieces removed,
/// or two kings with the (possibly reduced) material in the hands.
pub fn random_start<G: Game>(rng: &mut TestRng) -> Position<G> {
    match below(rng, 4) {
        0 | 1 => Position::startpos(),
        2 => loop {
            let mut p = Setup::from(Position::<G>::startpos());
            let keep = 1 + below(rng, 9); // keep each piece with probability keep/10
            for sq in Position::<G>::startpos().occupied() {
                if p.piece_at(sq).map(|pc| pc.kind) != Some(PieceKind::King)
                    && !chance(rng, keep, 10)
                {
                    p.take(sq);
                }
            }
            // Removing pieces can open a line onto the king of the side not to move.
            if let Ok(p) = p.into_position(Relax::empty()) {
                break p;
            }
        },
        _ => {
            let mut p = Setup::<G>::empty();
            let square = |i: usize| Square::from_index_in::<G>(i as u8).expect("i < SQUARES");
            let n = G::SQUARES;
            let bk = square(below(rng, n));
            let wk = loop {
                let s = square(below(rng, n));
                let dx = (s.x::<G>() as i32 - bk.x::<G>() as i32).abs();
                let dy = (s.y::<G>() as i32 - bk.y::<G>() as i32).abs();
                if dx.max(dy) >= 2 {
                    break s;
                }
            };
            p.put(bk, Piece::new(Color::Black, PieceKind::King));
            p.put(wk, Piece::new(Color::White, PieceKind::King));
            let full = chance(rng, 1, 2);
            for kind in PieceKind::HAND {
                let total = G::MATERIAL.get(kind) as usize;
                let total = if full { total } else { below(rng, total + 1) };
                let black = below(rng, total + 1);
                p.set_hand(Color::Black, kind, black as u8);
                p.set_hand(Color::White, kind, (total - black) as u8);
            }
            if chance(rng, 1, 2) {
                p.set_side_to_move(Color::White);
            }
            p.into_position(Relax::empty())
                .expect("two kings two squares apart and full hands are a legal position")
        }
    }
}
