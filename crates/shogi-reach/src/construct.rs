//! Games from the initial position to any KK position, and so to any certified target
//! (issue 5).
//!
//! A search certificate ([`Certificate`]) starts at a KK position; docs/METHOD.md §7 rests on every KK
//! position being reachable from the initial position. This module makes that concrete: it
//! writes out an actual legal game for any KK position of the game's full material, so a
//! certificate can be extended into a complete game from the initial position and checked by
//! any independent library.
//!
//! The construction has three parts, all with only the two kings on the board after the
//! first:
//!
//! 1. a fixed opening line from the initial position to a KK position `K0` (docs/METHOD.md §9: 44 plies
//!    in Shogi, 18 in Mini Shogi), see [`opening_line`];
//! 2. hand transfers, one piece at a time: the giving side drops the piece next to the other
//!    king (and away from its own), the other king captures it. The dropped piece is never
//!    defended, so the capture is legal and a pawn drop is never drop-pawn-mate, and there
//!    is no pawn on the board, so no two pawns either;
//! 3. a king walk to the target squares with the target side to move, found by a
//!    breadth-first search over (Black king, White king, side to move).
//!
//! Parts 2 and 3 are [`kk_to_kk`], which works for any material. Every move is played with
//! the legality-checked [`Position::play`], so a bug shows up as a [`ConstructError`], never as
//! an illegal game.

use crate::Certificate;
use shogi_core::{Color, Game, Material, MiniShogi, Move, PieceKind, Position, Shogi, Square};
use std::collections::VecDeque;

/// The Shogi line of docs/METHOD.md §9 (the paper's Table A.1): the initial position to
/// `5k3/9/9/9/9/9/9/9/3K5 b RB2G2S2N2L9Prb2g2s2n2l9p 45`.
const SHOGI_OPENING: [&str; 44] = [
    "7g7f", "8b3b", "8h3c", "3b3c", "2h3h", "3c3g", "3h3g", "2b9i+", "3g3a", "9i8i", "3a2a",
    "8i6g", "2a2c", "6g7f", "2c1c", "7f8g", "1c4c", "1a1g", "1i1g", "8g9g", "4c5c", "5a4b", "5c6c",
    "9g7i", "6c7c", "7i5g", "7c7a", "5g3i", "7a8a", "3i1g", "8a8c", "1g2g", "4i3h", "2g3h", "8c9c",
    "3h2i", "9c9a", "2i4g", "9a6a", "4g6i", "5i6i", "4b5b", "6a4a", "5b4a",
];

/// The Mini Shogi line of docs/METHOD.md §9: the initial position to `5/2K2/5/3k1/5 b RBGSPrbgsp 1`.
const MINI_OPENING: [&str; 18] = [
    "1e1b", "1a1b", "5d5c", "5a5c", "4e5d", "5c5d", "5e5d", "4a5b", "2e5b", "3a4b", "5b4c", "4b4c",
    "5d4c", "2a3b", "4c3b", "1b1c", "3e2d", "1c2d",
];

/// Why no game could be constructed.
///
/// The first variants describe bad input; the last ones mean that a step of the
/// construction (or of a certificate) was rejected by the legality check, which for valid
/// input would be a bug: the error is reported instead of returning an illegal game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstructError {
    /// The position is not a KK position: it must have exactly the Black king and the White
    /// king on the board and nothing else.
    NotKk {
        /// The offending position, in SFEN.
        sfen: String,
    },
    /// The two kings stand next to each other, which no legal position allows.
    AdjacentKings {
        /// The offending position, in SFEN.
        sfen: String,
    },
    /// The pieces (board and hands) differ from the material required: the game's full
    /// material for [`game_to_kk`], the starting position's for [`kk_to_kk`].
    WrongMaterial {
        /// The material required.
        expected: Material,
        /// The material of the position.
        found: Material,
    },
    /// The game has no known opening line to a KK position (only Shogi and Mini Shogi do).
    UnsupportedGame(&'static str),
    /// No sequence of king moves reaches the required king placement (impossible on the
    /// 9x9 and 5x5 boards; only a degenerate board could cause it).
    NoKingWalk {
        /// The position the walk started from, in SFEN.
        sfen: String,
    },
    /// A move of the construction or of a certificate is illegal where it is played.
    IllegalStep {
        /// Its index in the game being built (0 = the first move from the initial position).
        ply: usize,
        /// The move, in USI.
        usi: String,
        /// The position it was played in, in SFEN.
        sfen: String,
    },
    /// The construction ended in a position other than the target (a bug).
    Mismatch {
        /// The position reached, in SFEN.
        reached: String,
        /// The target, in SFEN.
        target: String,
    },
}

impl core::fmt::Display for ConstructError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ConstructError::NotKk { sfen } => {
                write!(
                    f,
                    "not a KK position (only the two kings may be on the board): {sfen}"
                )
            }
            ConstructError::AdjacentKings { sfen } => write!(f, "the kings are adjacent: {sfen}"),
            ConstructError::WrongMaterial { expected, found } => write!(
                f,
                "wrong material: expected {:?}, found {:?} (counts of P L N S G B R K)",
                expected.0, found.0
            ),
            ConstructError::UnsupportedGame(name) => {
                write!(
                    f,
                    "no known line from the initial position of {name:?} to a KK position"
                )
            }
            ConstructError::NoKingWalk { sfen } => {
                write!(f, "no king walk reaches the required placement from {sfen}")
            }
            ConstructError::IllegalStep { ply, usi, sfen } => {
                write!(f, "ply {ply}: move {usi} is illegal in {sfen}")
            }
            ConstructError::Mismatch { reached, target } => {
                write!(f, "the construction reached {reached} instead of {target}")
            }
        }
    }
}

impl std::error::Error for ConstructError {}

/// The fixed opening of docs/METHOD.md §9 from `Position::<G>::startpos()` to a KK position: 44 plies
/// in Shogi, 18 in Mini Shogi. Each move is checked for legality while it is parsed.
pub fn opening_line<G: Game>() -> Result<Vec<Move>, ConstructError> {
    // Compare the start positions, not the names: the line only makes sense from that start.
    let line: &[&str] = if G::START_SFEN == Shogi::START_SFEN {
        &SHOGI_OPENING
    } else if G::START_SFEN == MiniShogi::START_SFEN {
        &MINI_OPENING
    } else {
        return Err(ConstructError::UnsupportedGame(G::NAME));
    };
    let mut pos = Position::<G>::startpos();
    let mut moves = Vec::with_capacity(line.len());
    for (ply, usi) in line.iter().enumerate() {
        let mv = pos.play_usi(usi).map_err(|_| ConstructError::IllegalStep {
            ply,
            usi: (*usi).to_string(),
            sfen: pos.to_sfen(),
        })?;
        moves.push(mv);
    }
    Ok(moves)
}

/// A legal game from `Position::<G>::startpos()` to a position equal to `target` (board,
/// hands and side to move; the move number is not compared).
///
/// `target` must be a KK position (only the two kings on the board, not adjacent) holding
/// the game's full material (`G::MATERIAL`) in any split between the hands, with either side
/// to move. The game is the [`opening_line`] followed by [`kk_to_kk`] from its end.
pub fn game_to_kk<G: Game>(target: &Position<G>) -> Result<Vec<Move>, ConstructError> {
    // Check the target first so bad input is reported as such, before any move is played.
    check_kk(target)?;
    check_material(target, G::MATERIAL)?;
    let mut moves = opening_line::<G>()?;
    let mut k0 = Position::<G>::startpos();
    for &mv in &moves {
        k0.play_unchecked(mv); // `opening_line` has checked each move already
    }
    let rest = kk_to_kk(&k0, target).map_err(|e| shift_ply(e, moves.len()))?;
    moves.extend(rest);
    Ok(moves)
}

/// The complete game from the initial position to the certificate's target: a game to
/// `cert.kk` ([`game_to_kk`]) followed by `cert.moves`, every move checked for legality.
pub fn game_to<G: Game>(cert: &Certificate<G>) -> Result<Vec<Move>, ConstructError> {
    let mut moves = game_to_kk(&cert.kk)?;
    // Replay the certificate too: the returned game is then legal from end to end even if
    // the certificate was built or edited elsewhere.
    let mut pos = cert.kk.clone();
    for (i, &mv) in cert.moves.iter().enumerate() {
        if pos.play(mv).is_err() {
            return Err(ConstructError::IllegalStep {
                ply: moves.len() + i,
                usi: mv.to_usi::<G>(),
                sfen: pos.to_sfen(),
            });
        }
    }
    moves.extend_from_slice(&cert.moves);
    Ok(moves)
}

/// Legal moves from the KK position `from` to the KK position `to`, for any material (both
/// must hold the same pieces, board and hands together). Only kings move on the board and
/// pieces pass between the hands by drop-and-capture, so every position on the way is a KK
/// position or one with a single dropped piece next to the opposing king.
pub fn kk_to_kk<G: Game>(
    from: &Position<G>,
    to: &Position<G>,
) -> Result<Vec<Move>, ConstructError> {
    let (fb, fw) = check_kk(from)?;
    let (tb, tw) = check_kk(to)?;
    check_material(to, from.material())?;
    let mut b = Builder {
        pos: from.clone(),
        moves: Vec::new(),
    };

    // Pieces Black must give away (positive) or receive (negative), per hand kind. The
    // transfers of the side to move come first: the other side's may then start one king
    // move later, never sooner.
    let mut transfers: Vec<(Color, PieceKind)> = Vec::new();
    for kind in PieceKind::HAND {
        let have = i32::from(from.hand(Color::Black).count(kind));
        let want = i32::from(to.hand(Color::Black).count(kind));
        let giver = if have > want {
            Color::Black
        } else {
            Color::White
        };
        for _ in 0..(have - want).unsigned_abs() {
            transfers.push((giver, kind));
        }
    }
    let first = from.side_to_move();
    transfers.sort_by_key(|&(giver, _)| giver != first);

    let mut state = KingState {
        black: fb,
        white: fw,
        side: from.side_to_move(),
    };
    for (giver, kind) in transfers {
        let receiver = !giver;
        // Walk the kings until the giver is to move and has a square to drop on.
        let ready = |s: KingState| s.side == giver && transfer_square::<G>(s, kind).is_some();
        state = b.walk(state, ready)?;
        // Prefer the drop square nearest the receiver's target square: it is where the
        // receiving king ends up.
        let aim = if receiver == Color::Black { tb } else { tw };
        let Some(drop) = best_transfer_square::<G>(state, kind, aim) else {
            return Err(b.no_walk());
        };
        let from_sq = state.king(receiver);
        b.play(Move::Drop { kind, to: drop })?;
        b.play(Move::Normal {
            from: from_sq,
            to: drop,
            promote: false,
        })?;
        state.set_king(receiver, drop);
    }

    let goal = KingState {
        black: tb,
        white: tw,
        side: to.side_to_move(),
    };
    b.walk(state, |s| s == goal)?;
    if b.pos != *to {
        return Err(ConstructError::Mismatch {
            reached: b.pos.to_sfen(),
            target: to.to_sfen(),
        });
    }
    Ok(b.moves)
}

/// The king squares of a KK position, after checking that it is one.
fn check_kk<G: Game>(pos: &Position<G>) -> Result<(Square, Square), ConstructError> {
    let kings = (pos.king(Color::Black), pos.king(Color::White));
    let (Some(black), Some(white)) = kings else {
        return Err(ConstructError::NotKk {
            sfen: pos.to_sfen(),
        });
    };
    if pos.occupied().count() != 2 {
        return Err(ConstructError::NotKk {
            sfen: pos.to_sfen(),
        });
    }
    if distance::<G>(black, white) < 2 {
        return Err(ConstructError::AdjacentKings {
            sfen: pos.to_sfen(),
        });
    }
    Ok((black, white))
}

fn check_material<G: Game>(pos: &Position<G>, expected: Material) -> Result<(), ConstructError> {
    let found = pos.material();
    if found == expected {
        Ok(())
    } else {
        Err(ConstructError::WrongMaterial { expected, found })
    }
}

/// Renumbers the plies of an error from a sub-construction that starts after `offset` moves.
fn shift_ply(e: ConstructError, offset: usize) -> ConstructError {
    match e {
        ConstructError::IllegalStep { ply, usi, sfen } => ConstructError::IllegalStep {
            ply: ply + offset,
            usi,
            sfen,
        },
        e => e,
    }
}

/// Chebyshev (king-move) distance between two squares.
fn distance<G: Game>(a: Square, b: Square) -> u8 {
    let dx = a.x::<G>().abs_diff(b.x::<G>());
    let dy = a.y::<G>().abs_diff(b.y::<G>());
    dx.max(dy)
}

/// The squares a king on `sq` can step to on an empty board.
fn king_steps<G: Game>(sq: Square) -> impl Iterator<Item = Square> {
    G::tables().pseudo(Color::Black, PieceKind::King, sq)
}

/// The placement of the two kings and the side to move: all that varies in a KK position
/// once the hands are fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KingState {
    black: Square,
    white: Square,
    side: Color,
}

impl KingState {
    fn king(self, color: Color) -> Square {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    fn set_king(&mut self, color: Color, sq: Square) {
        match color {
            Color::Black => self.black = sq,
            Color::White => self.white = sq,
        }
    }

    /// A dense index for the breadth-first search tables.
    fn index<G: Game>(self) -> usize {
        (self.black.index() * G::SQUARES + self.white.index()) * 2 + self.side.index()
    }

    fn from_index<G: Game>(i: usize) -> KingState {
        // Indices come from `index`, so both squares are below `G::SQUARES` (at most 81).
        let kings = i / 2;
        let square = |s: usize| Square::from_index(s as u8).expect("a square of `index`");
        KingState {
            black: square(kings / G::SQUARES),
            white: square(kings % G::SQUARES),
            side: Color::from_index(i % 2).expect("0 or 1"),
        }
    }

    /// The states one legal king move away: the side to move steps its king to a square
    /// not next to the other king (with nothing else on the board, that is all legality
    /// asks).
    fn successors<G: Game>(self) -> impl Iterator<Item = KingState> {
        let mover = self.king(self.side);
        let other = self.king(!self.side);
        king_steps::<G>(mover)
            .filter(move |&to| distance::<G>(to, other) >= 2)
            .map(move |to| {
                let mut next = self;
                next.set_king(self.side, to);
                next.side = !self.side;
                next
            })
    }
}

/// The squares where the side to move in `s` can drop `kind` for the other king to capture
/// at once: next to the receiving king, not next to the giver's (so the capture is legal
/// and the drop is undefended), and not a square where the piece could never move.
fn transfer_squares<G: Game>(s: KingState, kind: PieceKind) -> impl Iterator<Item = Square> {
    let giver = s.side;
    let own = s.king(giver);
    let dead = G::tables().dead[giver.index()][kind.index()];
    king_steps::<G>(s.king(!giver)).filter(move |&d| distance::<G>(d, own) >= 2 && !dead.has(d))
}

fn transfer_square<G: Game>(s: KingState, kind: PieceKind) -> Option<Square> {
    transfer_squares::<G>(s, kind).next()
}

/// The transfer square nearest `aim` (ties to the lowest square, so the result is
/// deterministic).
fn best_transfer_square<G: Game>(s: KingState, kind: PieceKind, aim: Square) -> Option<Square> {
    transfer_squares::<G>(s, kind).min_by_key(|&d| (distance::<G>(d, aim), d))
}

/// The game under construction: the current position and the moves played so far.
struct Builder<G: Game> {
    pos: Position<G>,
    moves: Vec<Move>,
}

impl<G: Game> Builder<G> {
    /// Plays `mv` with the legality check, so a wrong step is an error, not a bad game.
    fn play(&mut self, mv: Move) -> Result<(), ConstructError> {
        if self.pos.play(mv).is_err() {
            return Err(ConstructError::IllegalStep {
                ply: self.moves.len(),
                usi: mv.to_usi::<G>(),
                sfen: self.pos.to_sfen(),
            });
        }
        self.moves.push(mv);
        Ok(())
    }

    fn no_walk(&self) -> ConstructError {
        ConstructError::NoKingWalk {
            sfen: self.pos.to_sfen(),
        }
    }

    /// Plays a shortest sequence of king moves from `start` (the current placement) to a
    /// placement satisfying `goal`, found by breadth-first search, and returns it.
    fn walk(
        &mut self,
        start: KingState,
        goal: impl Fn(KingState) -> bool,
    ) -> Result<KingState, ConstructError> {
        const UNSEEN: u32 = u32::MAX;
        let mut parent = vec![UNSEEN; G::SQUARES * G::SQUARES * 2];
        let start_index = start.index::<G>();
        parent[start_index] = start_index as u32;
        let mut queue = VecDeque::from([start]);
        let mut found = None;
        while let Some(s) = queue.pop_front() {
            if goal(s) {
                found = Some(s);
                break;
            }
            for next in s.successors::<G>() {
                let i = next.index::<G>();
                if parent[i] == UNSEEN {
                    parent[i] = s.index::<G>() as u32;
                    queue.push_back(next);
                }
            }
        }
        let Some(end) = found else {
            return Err(self.no_walk());
        };
        // Read the path back from the goal, then play it forwards.
        let mut path = Vec::new();
        let mut i = end.index::<G>();
        while i != start_index {
            let p = parent[i] as usize;
            let (before, after) = (KingState::from_index::<G>(p), KingState::from_index::<G>(i));
            path.push(Move::Normal {
                from: before.king(before.side),
                to: after.king(before.side),
                promote: false,
            });
            i = p;
        }
        for &mv in path.iter().rev() {
            self.play(mv)?;
        }
        Ok(end)
    }
}
