//! Per-game lookup tables, computed at compile time by `const fn`s from the board size.
//!
//! Each game has one `static` [`Tables`]; generic code reaches it through
//! [`Game::tables`](crate::Game::tables), which inlines to the address of that static, so the
//! 5x5 and 9x9 games index their own tables with no runtime branch on the board size.
//! Arrays are sized for the largest board (81 squares); Mini Shogi uses the first 25 entries.

use crate::geometry::{DIRS, UP};
use crate::magic::{self, Magic};
use crate::{Bitboard, Color, PieceKind};

/// The board's limits, here where callers have always found them.
pub use crate::geometry::{MAX_FILES, MAX_SQUARES};

/// Everything move generation and hashing look up, for one board size.
pub struct Tables {
    /// All squares of the board.
    pub board: Bitboard,
    /// `pseudo[color][kind][sq]`: the squares a piece attacks from `sq` on an empty board.
    pub pseudo: [[[Bitboard; MAX_SQUARES]; PieceKind::COUNT]; 2],
    /// `rays[dir][sq]`: the squares from `sq` (exclusive) to the edge in direction `dir`.
    pub rays: [[Bitboard; MAX_SQUARES]; 8],
    /// `between[a][b]`: the squares strictly between two aligned squares, else empty.
    pub between: [[Bitboard; MAX_SQUARES]; MAX_SQUARES],
    /// `line[a][b]`: the whole line through two aligned squares (edge to edge), else empty.
    pub line: [[Bitboard; MAX_SQUARES]; MAX_SQUARES],
    /// `zone[color]`: that colour's promotion zone (the far `ZONE_DEPTH` ranks).
    pub zone: [Bitboard; 2],
    /// `dead[color][hand kind]`: squares where that unpromoted piece could never move
    /// (pawn and lance: last rank; knight: last two ranks). Empty for other kinds.
    pub dead: [[Bitboard; PieceKind::HAND_COUNT]; 2],
    /// `files[x]`: the squares of column `x`.
    pub files: [Bitboard; MAX_FILES],
    /// Zobrist keys of a piece (`Piece::index`) on a square.
    pub zobrist_board: [[u64; MAX_SQUARES]; 2 * PieceKind::COUNT],
    /// Zobrist key added once per piece of a kind in a colour's hand (additive hashing).
    pub zobrist_hand: [[u64; PieceKind::HAND_COUNT]; 2],
    /// Zobrist key of White to move.
    pub zobrist_side: u64,
    /// `near[sq]`: the squares at most 2 files and 3 ranks away from `sq`, where every
    /// piece stands that attacks a square next to `sq` with a step (a knight's included).
    pub(crate) near: [Bitboard; MAX_SQUARES],
    /// The magic entries of the bishop's slides, square by square.
    pub(crate) bishop_magic: [Magic; MAX_SQUARES],
    /// The table they index (see [`Tables::with_slides`]).
    pub(crate) bishop_slides: &'static [Bitboard],
    /// The magic entries of the rook's slides along its rank.
    pub(crate) rank_magic: [Magic; MAX_SQUARES],
    /// The table they index.
    pub(crate) rank_slides: &'static [Bitboard],
    /// The magic entries of the rook's slides along its file.
    pub(crate) file_magic: [Magic; MAX_SQUARES],
    /// The table they index.
    pub(crate) file_slides: &'static [Bitboard],
}

const fn sq_of(w: i32, h: i32, x: i32, y: i32) -> Option<usize> {
    if x < 0 || y < 0 || x >= w || y >= h {
        None
    } else {
        Some((x * h + y) as usize)
    }
}

const fn bit(i: usize) -> u128 {
    1u128 << i
}

/// Step offsets of the non-sliding movements, for Black (`dy < 0` is forward).
const fn steps(kind: PieceKind) -> &'static [(i8, i8)] {
    const GOLD: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const KING: &[(i8, i8)] = &[
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
        PieceKind::Pawn => &[(0, -1)],
        PieceKind::Knight => &[(-1, -2), (1, -2)],
        PieceKind::Silver => &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)],
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => GOLD,
        PieceKind::King => KING,
        PieceKind::Horse => &[(0, -1), (0, 1), (-1, 0), (1, 0)],
        PieceKind::Dragon => &[(-1, -1), (1, -1), (-1, 1), (1, 1)],
        PieceKind::Lance | PieceKind::Bishop | PieceKind::Rook => &[],
    }
}

/// Ray directions of the sliding movements, for Black.
const fn slides(kind: PieceKind) -> &'static [usize] {
    match kind {
        PieceKind::Lance => &[UP],
        PieceKind::Bishop | PieceKind::Horse => &[4, 5, 6, 7],
        PieceKind::Rook | PieceKind::Dragon => &[0, 1, 2, 3],
        _ => &[],
    }
}

/// SplitMix64: a fixed, portable stream for the Zobrist keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

impl Tables {
    /// Builds the tables of a `w` x `h` board whose promotion zone is `zone_depth` ranks deep.
    ///
    /// # Panics
    /// For a board other than 9x9 and 5x5: the slides are looked up with magic numbers
    /// found for those two.
    pub const fn new(w: u8, h: u8, zone_depth: u8) -> Tables {
        let (wu, hu) = (w, h);
        let (w, h) = (w as i32, h as i32);
        let n = (w * h) as usize;
        let mut t = Tables {
            board: Bitboard(if n == 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            }),
            pseudo: [[[Bitboard(0); MAX_SQUARES]; PieceKind::COUNT]; 2],
            rays: [[Bitboard(0); MAX_SQUARES]; 8],
            between: [[Bitboard(0); MAX_SQUARES]; MAX_SQUARES],
            line: [[Bitboard(0); MAX_SQUARES]; MAX_SQUARES],
            zone: [Bitboard(0); 2],
            dead: [[Bitboard(0); PieceKind::HAND_COUNT]; 2],
            files: [Bitboard(0); MAX_FILES],
            zobrist_board: [[0; MAX_SQUARES]; 2 * PieceKind::COUNT],
            zobrist_hand: [[0; PieceKind::HAND_COUNT]; 2],
            zobrist_side: 0,
            near: [Bitboard(0); MAX_SQUARES],
            bishop_magic: magic::magics(wu, hu, magic::BISHOP).0,
            bishop_slides: &[],
            rank_magic: magic::magics(wu, hu, magic::RANK).0,
            rank_slides: &[],
            file_magic: magic::magics(wu, hu, magic::FILE).0,
            file_slides: &[],
        };
        // Rays, between and line.
        let mut s = 0;
        while s < n {
            let (x, y) = (s as i32 / h, s as i32 % h);
            let mut d = 0;
            while d < 8 {
                let (dx, dy) = (DIRS[d].0 as i32, DIRS[d].1 as i32);
                let mut ray = 0u128;
                let mut k = 1;
                while let Some(q) = sq_of(w, h, x + k * dx, y + k * dy) {
                    t.between[s][q] = Bitboard(ray);
                    ray |= bit(q);
                    k += 1;
                }
                t.rays[d][s] = Bitboard(ray);
                d += 1;
            }
            s += 1;
        }
        // The line through two aligned squares: both rays of the axis plus the square itself.
        let mut s = 0;
        while s < n {
            let mut d = 0;
            while d < 8 {
                // DIRS pairs opposite directions as (0,1), (2,3), (4,7), (5,6).
                let opp = match d {
                    0 => 1,
                    1 => 0,
                    2 => 3,
                    3 => 2,
                    4 => 7,
                    7 => 4,
                    5 => 6,
                    _ => 5,
                };
                let full = t.rays[d][s].0 | t.rays[opp][s].0 | bit(s);
                let mut r = t.rays[d][s].0;
                while r != 0 {
                    let q = r.trailing_zeros() as usize;
                    t.line[s][q] = Bitboard(full);
                    r &= r - 1;
                }
                d += 1;
            }
            s += 1;
        }
        // Pseudo attacks on an empty board, for Black and (mirrored vertically) White.
        let mut c = 0;
        while c < 2 {
            let sign = if c == 0 { 1 } else { -1 };
            let mut k = 0;
            while k < PieceKind::COUNT {
                let kind = PieceKind::ALL[k];
                let st = steps(kind);
                let sl = slides(kind);
                let mut s = 0;
                while s < n {
                    let (x, y) = (s as i32 / h, s as i32 % h);
                    let mut a = 0u128;
                    let mut i = 0;
                    while i < st.len() {
                        if let Some(q) = sq_of(w, h, x + st[i].0 as i32, y + sign * st[i].1 as i32)
                        {
                            a |= bit(q);
                        }
                        i += 1;
                    }
                    let mut i = 0;
                    while i < sl.len() {
                        // Vertical mirroring swaps up and down: flip the low bit of the
                        // direction for the vertical pair and swap the diagonal pairs.
                        let d = if c == 0 {
                            sl[i]
                        } else {
                            match sl[i] {
                                0 => 1,
                                1 => 0,
                                4 => 6,
                                6 => 4,
                                5 => 7,
                                7 => 5,
                                other => other,
                            }
                        };
                        a |= t.rays[d][s].0;
                        i += 1;
                    }
                    t.pseudo[c][k][s] = Bitboard(a);
                    s += 1;
                }
                k += 1;
            }
            c += 1;
        }
        // Zones, dead squares and files.
        let mut s = 0;
        while s < n {
            let (x, y) = (s as i32 / h, s as i32 % h);
            let zd = zone_depth as i32;
            if y < zd {
                t.zone[0].0 |= bit(s);
            }
            if y >= h - zd {
                t.zone[1].0 |= bit(s);
            }
            // Black's pawn/lance die on y = 0, knight on y <= 1; White's mirrored.
            if y == 0 {
                t.dead[0][PieceKind::Pawn as usize].0 |= bit(s);
                t.dead[0][PieceKind::Lance as usize].0 |= bit(s);
            }
            if y <= 1 {
                t.dead[0][PieceKind::Knight as usize].0 |= bit(s);
            }
            if y == h - 1 {
                t.dead[1][PieceKind::Pawn as usize].0 |= bit(s);
                t.dead[1][PieceKind::Lance as usize].0 |= bit(s);
            }
            if y >= h - 2 {
                t.dead[1][PieceKind::Knight as usize].0 |= bit(s);
            }
            t.files[x as usize].0 |= bit(s);
            let mut q = 0;
            while q < n {
                let (qx, qy) = (q as i32 / h, q as i32 % h);
                if (qx - x).abs() <= 2 && (qy - y).abs() <= 3 {
                    t.near[s].0 |= bit(q);
                }
                q += 1;
            }
            s += 1;
        }
        // Zobrist keys from a fixed SplitMix64 stream (the same for both games' layouts).
        let mut state = ZOBRIST_SEED;
        let mut p = 0;
        while p < 2 * PieceKind::COUNT {
            let mut s = 0;
            while s < MAX_SQUARES {
                let (ns, z) = splitmix(state);
                state = ns;
                t.zobrist_board[p][s] = z;
                s += 1;
            }
            p += 1;
        }
        let mut c = 0;
        while c < 2 {
            let mut k = 0;
            while k < PieceKind::HAND_COUNT {
                let (ns, z) = splitmix(state);
                state = ns;
                t.zobrist_hand[c][k] = z;
                k += 1;
            }
            c += 1;
        }
        let (_, z) = splitmix(state);
        t.zobrist_side = z;
        t
    }

    /// These tables with the slide tables their magic entries index, built by
    /// [`magic::table`] for the same board.
    pub(crate) const fn with_slides(
        mut self,
        bishop: &'static [Bitboard],
        rank: &'static [Bitboard],
        file: &'static [Bitboard],
    ) -> Tables {
        self.bishop_slides = bishop;
        self.rank_slides = rank;
        self.file_slides = file;
        self
    }

    /// The pseudo attacks of a piece on an empty board.
    #[inline(always)]
    pub fn pseudo(&self, color: Color, kind: PieceKind, sq: crate::Square) -> Bitboard {
        self.pseudo[color.index()][kind.index()][sq.index()]
    }
}

/// The seed of the Zobrist stream: fixed, so keys are the same on every machine and run.
const ZOBRIST_SEED: u64 = 0x5EED_5000_0000_0001;
