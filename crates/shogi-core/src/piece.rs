//! Piece kinds (with their promoted forms) and coloured pieces.

use crate::Color;

/// A kind of piece, promoted forms included.
///
/// The first seven are the kinds that can be held in hand, in the order of
/// [`PieceKind::HAND`]; their discriminants index per-kind hand tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PieceKind {
    /// Pawn (歩, `P`).
    Pawn = 0,
    /// Lance (香, `L`).
    Lance,
    /// Knight (桂, `N`).
    Knight,
    /// Silver general (銀, `S`).
    Silver,
    /// Gold general (金, `G`).
    Gold,
    /// Bishop (角, `B`).
    Bishop,
    /// Rook (飛, `R`).
    Rook,
    /// King (玉, `K`).
    King,
    /// Promoted pawn, tokin (と, `+P`).
    ProPawn,
    /// Promoted lance (成香, `+L`).
    ProLance,
    /// Promoted knight (成桂, `+N`).
    ProKnight,
    /// Promoted silver (成銀, `+S`).
    ProSilver,
    /// Promoted bishop, horse (馬, `+B`).
    Horse,
    /// Promoted rook, dragon (龍, `+R`).
    Dragon,
}

impl PieceKind {
    /// Number of kinds.
    pub const COUNT: usize = 14;
    /// Number of kinds that can be held in hand.
    pub const HAND_COUNT: usize = 7;

    /// All kinds, in discriminant order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The kinds that can be held in hand, indexed by their discriminant.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// The basic (unpromoted) kinds in the order of docs/METHOD.md §3 (King, Gold, Knight, Lance,
    /// Pawn, Silver, Rook, Bishop): the order of the paper's board tuple and of the rank.
    pub const PAPER_ORDER: [PieceKind; 8] = [
        PieceKind::King,
        PieceKind::Gold,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
        PieceKind::Silver,
        PieceKind::Rook,
        PieceKind::Bishop,
    ];

    /// The discriminant, an index into per-kind tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with the given discriminant, if any.
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 14 {
            Some(Self::ALL[i])
        } else {
            None
        }
    }

    /// Whether this kind can promote (pawn, lance, knight, silver, bishop, rook).
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        matches!(
            self,
            PieceKind::Pawn
                | PieceKind::Lance
                | PieceKind::Knight
                | PieceKind::Silver
                | PieceKind::Bishop
                | PieceKind::Rook
        )
    }

    /// Whether this is a promoted kind.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        self as u8 >= PieceKind::ProPawn as u8
    }

    /// The promoted form, or `None` for kinds that cannot promote.
    #[inline]
    pub const fn promoted(self) -> Option<PieceKind> {
        Some(match self {
            PieceKind::Pawn => PieceKind::ProPawn,
            PieceKind::Lance => PieceKind::ProLance,
            PieceKind::Knight => PieceKind::ProKnight,
            PieceKind::Silver => PieceKind::ProSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            _ => return None,
        })
    }

    /// The unpromoted form: what a captured piece becomes in hand.
    #[inline]
    pub const fn unpromoted(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// The SFEN letter of the basic kind, upper case (`P L N S G B R K`).
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }

    /// The basic kind for an SFEN letter (either case).
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'L' => PieceKind::Lance,
            'N' => PieceKind::Knight,
            'S' => PieceKind::Silver,
            'G' => PieceKind::Gold,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'K' => PieceKind::King,
            _ => return None,
        })
    }
}

/// A piece of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// Its owner.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Index `color * 14 + kind`, for per-piece tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color.index() * PieceKind::COUNT + self.kind.index()
    }
}

impl core::fmt::Display for Piece {
    /// The SFEN text: `+` for promoted kinds, upper case for Black.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.kind.is_promoted() {
            f.write_str("+")?;
        }
        let c = self.kind.letter();
        let c = match self.color {
            Color::Black => c,
            Color::White => c.to_ascii_lowercase(),
        };
        write!(f, "{c}")
    }
}
