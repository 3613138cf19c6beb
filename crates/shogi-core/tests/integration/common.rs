//! Test helpers: random legal games (from the one test RNG of shogi-verify), and a naive move generator that
//! shares no code with the library's (coordinates and ray walking, no bitboards, no tables).
#![allow(dead_code)]

use shogi_core::{
    Color, Game, Move, PawnDropRule, Piece, PieceKind, Position, Relax, Rules, Setup, Square,
};
use shogi_verify::rng::{below, test_rng};

/// Positions along random legal games from the initial position, biased towards captures,
/// promotions and drops so that hands fill up and promoted pieces appear.
pub fn random_positions<G: Game>(seed: u64, games: usize, max_plies: usize) -> Vec<Position<G>> {
    let mut rng = test_rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::<G>::startpos();
        let plies = 1 + below(&mut rng, max_plies);
        for _ in 0..plies {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            let interesting: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| match *m {
                    Move::Normal { to, promote, .. } => promote || pos.piece_at(to).is_some(),
                    Move::Drop { .. } => true,
                })
                .collect();
            let mv = if !interesting.is_empty() && below(&mut rng, 3) > 0 {
                interesting[below(&mut rng, interesting.len())]
            } else {
                moves[below(&mut rng, moves.len())]
            };
            pos.play_unchecked(mv);
            out.push(pos.clone());
        }
    }
    out
}

fn on_board<G: Game>(x: i32, y: i32) -> Option<Square> {
    Square::new::<G>(u8::try_from(x).ok()?, u8::try_from(y).ok()?)
}

/// `(dx, dy, slides)` for Black; White negates `dy`.
fn movement(kind: PieceKind) -> Vec<(i32, i32, bool)> {
    use PieceKind::*;
    let gold = vec![
        (-1, -1, false),
        (0, -1, false),
        (1, -1, false),
        (-1, 0, false),
        (1, 0, false),
        (0, 1, false),
    ];
    let diag = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
    let orth = [(0, -1), (0, 1), (-1, 0), (1, 0)];
    match kind {
        Pawn => vec![(0, -1, false)],
        Lance => vec![(0, -1, true)],
        Knight => vec![(-1, -2, false), (1, -2, false)],
        Silver => vec![
            (-1, -1, false),
            (0, -1, false),
            (1, -1, false),
            (-1, 1, false),
            (1, 1, false),
        ],
        Gold | ProPawn | ProLance | ProKnight | ProSilver => gold,
        King => diag
            .iter()
            .chain(orth.iter())
            .map(|&(a, b)| (a, b, false))
            .collect(),
        Bishop => diag.iter().map(|&(a, b)| (a, b, true)).collect(),
        Rook => orth.iter().map(|&(a, b)| (a, b, true)).collect(),
        Horse => diag
            .iter()
            .map(|&(a, b)| (a, b, true))
            .chain(orth.iter().map(|&(a, b)| (a, b, false)))
            .collect(),
        Dragon => orth
            .iter()
            .map(|&(a, b)| (a, b, true))
            .chain(diag.iter().map(|&(a, b)| (a, b, false)))
            .collect(),
    }
}

/// Squares the piece on `from` reaches (attacks), by walking.
pub fn naive_reach<G: Game>(pos: &Position<G>, from: Square) -> Vec<Square> {
    let p = pos.piece_at(from).expect("piece");
    let sign = if p.color == Color::Black { 1 } else { -1 };
    let (x0, y0) = (from.x::<G>() as i32, from.y::<G>() as i32);
    let mut out = vec![];
    for (dx, dy, slides) in movement(p.kind) {
        let (mut x, mut y) = (x0 + dx, y0 + sign * dy);
        while let Some(s) = on_board::<G>(x, y) {
            out.push(s);
            if !slides || pos.piece_at(s).is_some() {
                break;
            }
            x += dx;
            y += sign * dy;
        }
    }
    out
}

pub fn naive_attacked<G: Game>(pos: &Position<G>, sq: Square, by: Color) -> bool {
    (0..G::SQUARES as u8)
        .filter_map(Square::from_index)
        .any(|s| {
            matches!(pos.piece_at(s), Some(p) if p.color == by) && naive_reach(pos, s).contains(&sq)
        })
}

fn naive_king_attacked<G: Game>(pos: &Position<G>, c: Color) -> bool {
    (0..G::SQUARES as u8)
        .filter_map(Square::from_index)
        .any(|s| {
            pos.piece_at(s) == Some(Piece::new(c, PieceKind::King)) && naive_attacked(pos, s, !c)
        })
}

/// The far-rank distance of `y` for `c`: 0 on its last rank.
fn depth_from_far<G: Game>(c: Color, y: i32) -> i32 {
    if c == Color::Black {
        y
    } else {
        G::HEIGHT as i32 - 1 - y
    }
}

fn dead<G: Game>(c: Color, kind: PieceKind, y: i32) -> bool {
    let d = depth_from_far::<G>(c, y);
    match kind {
        PieceKind::Pawn | PieceKind::Lance => d == 0,
        PieceKind::Knight => d <= 1,
        _ => false,
    }
}

/// All legal moves by brute force: every reachable square, every promotion choice, every
/// drop, then keep those that do not leave the mover's king attacked, and apply the
/// drop-pawn rule by searching the opponent's replies with this same generator.
pub fn naive_moves<G: Game>(pos: &Position<G>, rules: Rules) -> Vec<Move> {
    let us = pos.side_to_move();
    let zone = |y: i32| depth_from_far::<G>(us, y) < G::ZONE_DEPTH as i32;
    let mut cand = vec![];
    for s in (0..G::SQUARES as u8).filter_map(Square::from_index) {
        let Some(p) = pos.piece_at(s) else { continue };
        if p.color != us {
            continue;
        }
        for t in naive_reach(pos, s) {
            if matches!(pos.piece_at(t), Some(q) if q.color == us) {
                continue;
            }
            let (fy, ty) = (s.y::<G>() as i32, t.y::<G>() as i32);
            if !dead::<G>(us, p.kind, ty) {
                cand.push(Move::Normal {
                    from: s,
                    to: t,
                    promote: false,
                });
            }
            if p.kind.can_promote() && (zone(fy) || zone(ty)) {
                cand.push(Move::Normal {
                    from: s,
                    to: t,
                    promote: true,
                });
            }
        }
    }
    for kind in PieceKind::HAND {
        if pos.hand(us).count(kind) == 0 {
            continue;
        }
        for t in (0..G::SQUARES as u8).filter_map(Square::from_index) {
            if pos.piece_at(t).is_some() || dead::<G>(us, kind, t.y::<G>() as i32) {
                continue;
            }
            if kind == PieceKind::Pawn
                && (0..G::HEIGHT).any(|y| {
                    pos.piece_at(Square::new::<G>(t.x::<G>(), y).unwrap())
                        == Some(Piece::new(us, PieceKind::Pawn))
                })
            {
                continue;
            }
            cand.push(Move::Drop { kind, to: t });
        }
    }
    let safe = |m: &Move| {
        let mut after = pos.clone();
        after.play_unchecked(*m);
        !naive_king_attacked(&after, us)
    };
    let is_pawn_drop = |m: &Move| {
        matches!(
            m,
            Move::Drop {
                kind: PieceKind::Pawn,
                ..
            }
        )
    };
    cand.into_iter()
        .filter(|m| safe(m))
        .filter(|&m| {
            if !is_pawn_drop(&m) {
                return true;
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            let forbidden = match rules.pawn_drop {
                PawnDropRule::MateOnly => {
                    naive_king_attacked(&after, !us) && !naive_has_reply(&after, rules)
                }
                PawnDropRule::NoLegalReply => !naive_has_reply(&after, rules),
            };
            !forbidden
        })
        .collect()
}

/// Whether the side to move has a legal move: moves other than pawn drops first (cheap),
/// the full generator only when there are none.
fn naive_has_reply<G: Game>(pos: &Position<G>, rules: Rules) -> bool {
    let us = pos.side_to_move();
    let mut no_pawn = Setup::from(pos.clone());
    no_pawn.set_hand(us, PieceKind::Pawn, 0);
    let no_pawn = no_pawn
        .into_position(Relax::CANDIDATE)
        .expect("fewer pieces in hand keep a position");
    !naive_moves(&no_pawn, rules).is_empty() || !naive_moves(pos, rules).is_empty()
}
