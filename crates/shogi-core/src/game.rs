//! The variant trait: everything that differs between Shogi and Mini Shogi.

use crate::magic;
use crate::tables::Tables;
use crate::{Bitboard, Color, PieceKind};
use core::fmt::Debug;
use core::hash::Hash;

/// Piece counts per basic kind, indexed by [`PieceKind::index`] of the unpromoted kinds
/// (pawn .. rook, then king at index 7). A promoted piece counts as its basic kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Material(pub [u8; 8]);

impl Material {
    /// The count of a kind (its basic kind for promoted ones).
    #[inline]
    pub const fn get(&self, kind: PieceKind) -> u8 {
        self.0[kind.unpromoted().index()]
    }

    /// Sets the count of a basic kind.
    #[inline]
    pub fn set(&mut self, kind: PieceKind, n: u8) {
        self.0[kind.unpromoted().index()] = n;
    }

    /// Whether every count is at most the one in `other`.
    pub fn fits_in(&self, other: &Material) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a <= b)
    }

    /// Total number of pieces.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }
}

/// A short text: `K2 G1 P1`, kind letters and counts in the order of docs/METHOD.md §3, kinds without
/// pieces left out.
impl core::fmt::Display for Material {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut sep = "";
        for kind in PieceKind::PAPER_ORDER
            .into_iter()
            .filter(|&k| self.get(k) > 0)
        {
            write!(f, "{sep}{}{}", kind.letter(), self.get(kind))?;
            sep = " ";
        }
        Ok(())
    }
}

/// One of the games of this crate as a value, for choosing a game at run time (generic
/// code takes a [`Game`] type instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// 9x9 Shogi ([`Shogi`]).
    Shogi,
    /// 5x5 Mini Shogi ([`MiniShogi`]).
    Mini,
}

impl GameKind {
    /// Both games.
    pub const ALL: [GameKind; 2] = [GameKind::Shogi, GameKind::Mini];

    /// The name on the command line and in files (`shogi`, `mini`): the game's
    /// [`Game::NAME`].
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Shogi => Shogi::NAME,
            GameKind::Mini => MiniShogi::NAME,
        }
    }

    /// One line on the game, for help texts.
    pub const fn help(self) -> &'static str {
        match self {
            GameKind::Shogi => "Standard 9x9 Shogi",
            GameKind::Mini => "5x5 Mini Shogi",
        }
    }

    /// The game's standard material.
    pub const fn material(self) -> Material {
        match self {
            GameKind::Shogi => Shogi::MATERIAL,
            GameKind::Mini => MiniShogi::MATERIAL,
        }
    }
}

/// A Shogi-like game: board size, promotion zone, start position, material and tables.
///
/// Every algorithm in the workspace is generic over `G: Game`, so each game is compiled to
/// its own code with the board size as a constant and its own static tables.
///
/// The trait is sealed: the bitboards hold at most 128 squares, the king-placement scheme of
/// the ranking needs an odd board width, and the tables are built for these two boards, so
/// only the games of this crate implement it.
pub trait Game:
    sealed::Sealed + 'static + Copy + Clone + Default + Debug + PartialEq + Eq + Hash + Send + Sync
{
    /// Short name used on the command line (`shogi`, `mini`).
    const NAME: &'static str;
    /// Number of files (columns).
    const WIDTH: u8;
    /// Number of ranks (rows).
    const HEIGHT: u8;
    /// `WIDTH * HEIGHT`.
    const SQUARES: usize = Self::WIDTH as usize * Self::HEIGHT as usize;
    /// Depth of the promotion zone in ranks (3 in Shogi, 1 in Mini Shogi).
    const ZONE_DEPTH: u8;
    /// The initial position in SFEN.
    const START_SFEN: &'static str;
    /// The full material of the game (both sides together).
    const MATERIAL: Material;

    /// The game's lookup tables (a `static`, computed at compile time).
    fn tables() -> &'static Tables;

    /// The far rank of `color` (`y` of its last rank).
    #[inline(always)]
    fn last_rank(color: Color) -> u8 {
        match color {
            Color::Black => 0,
            Color::White => Self::HEIGHT - 1,
        }
    }
}

mod sealed {
    /// Implemented only by this crate's games (see [`super::Game`]).
    pub trait Sealed {}
    impl Sealed for super::Shogi {}
    impl Sealed for super::MiniShogi {}
}

/// Standard Shogi, 9x9, 40 pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Shogi;

/// Mini Shogi, 5x5, 12 pieces (no knights or lances), one-rank promotion zone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MiniShogi;

static SHOGI_TABLES: Tables =
    Tables::new(9, 9, 3).with_slides(&SHOGI_BISHOP, &SHOGI_RANK, &SHOGI_FILE);
static MINI_TABLES: Tables = Tables::new(5, 5, 1).with_slides(&MINI_BISHOP, &MINI_RANK, &MINI_FILE);

// The slide tables the magic entries of each game's `Tables` index.
static SHOGI_BISHOP: [Bitboard; magic::magics(9, 9, magic::BISHOP).1] =
    magic::table(9, 9, magic::BISHOP);
static SHOGI_RANK: [Bitboard; magic::magics(9, 9, magic::RANK).1] = magic::table(9, 9, magic::RANK);
static MINI_BISHOP: [Bitboard; magic::magics(5, 5, magic::BISHOP).1] =
    magic::table(5, 5, magic::BISHOP);
static MINI_RANK: [Bitboard; magic::magics(5, 5, magic::RANK).1] = magic::table(5, 5, magic::RANK);
static SHOGI_FILE: [Bitboard; magic::magics(9, 9, magic::FILE).1] = magic::table(9, 9, magic::FILE);
static MINI_FILE: [Bitboard; magic::magics(5, 5, magic::FILE).1] = magic::table(5, 5, magic::FILE);

impl Game for Shogi {
    const NAME: &'static str = "shogi";
    const WIDTH: u8 = 9;
    const HEIGHT: u8 = 9;
    const ZONE_DEPTH: u8 = 3;
    const START_SFEN: &'static str =
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    //                         P   L  N  S  G  B  R  K
    const MATERIAL: Material = Material([18, 4, 4, 4, 4, 2, 2, 2]);

    #[inline(always)]
    fn tables() -> &'static Tables {
        &SHOGI_TABLES
    }
}

impl Game for MiniShogi {
    const NAME: &'static str = "mini";
    const WIDTH: u8 = 5;
    const HEIGHT: u8 = 5;
    const ZONE_DEPTH: u8 = 1;
    const START_SFEN: &'static str = "rbsgk/4p/5/P4/KGSBR b - 1";
    //                         P  L  N  S  G  B  R  K
    const MATERIAL: Material = Material([2, 0, 0, 2, 2, 2, 2, 2]);

    #[inline(always)]
    fn tables() -> &'static Tables {
        &MINI_TABLES
    }
}
