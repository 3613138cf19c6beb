//! The material of a candidate space: which piece types are present and how many, in the
//! type order of the rank (docs/METHOD.md §3, §4.1).

use crate::error::MaterialError;
use shogi_core::{Game, Material, PieceKind, Square};

/// The non-king types in the order `T` of docs/METHOD.md §4.1 (the order of docs/METHOD.md §3 without the king):
/// Gold, Knight, Lance, Pawn, Silver, Rook, Bishop.
pub const TYPE_ORDER: [PieceKind; 7] = {
    let s = PieceKind::PAPER_ORDER;
    [s[1], s[2], s[3], s[4], s[5], s[6], s[7]]
};

/// The code of a type in the sort key of the hand classes (docs/METHOD.md §4.1): for 9x9 Shogi the
/// index in the order of docs/METHOD.md §3 (G=1, N=2, L=3, P=4, S=5, R=6, B=7); for Mini Shogi the
/// authors' internal piece codes (R=2, B=3, G=4, S=5, P=6).
pub fn class_code<G: Game>(kind: PieceKind) -> u8 {
    let mini = G::WIDTH == 5 && G::HEIGHT == 5;
    match (mini, kind.unpromoted()) {
        (false, PieceKind::Gold) => 1,
        (false, PieceKind::Knight) => 2,
        (false, PieceKind::Lance) => 3,
        (false, PieceKind::Pawn) => 4,
        (false, PieceKind::Silver) => 5,
        (false, PieceKind::Rook) => 6,
        (false, PieceKind::Bishop) => 7,
        (true, PieceKind::Rook) => 2,
        (true, PieceKind::Bishop) => 3,
        (true, PieceKind::Gold) => 4,
        (true, PieceKind::Silver) => 5,
        (true, PieceKind::Pawn) => 6,
        // Knights and lances do not exist in Mini Shogi; keep the 9x9 codes' order.
        (true, PieceKind::Knight) => 7,
        (true, PieceKind::Lance) => 8,
        _ => 0,
    }
}

/// A present non-king piece type of a material, with its count and sort code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceType {
    /// The basic kind.
    pub kind: PieceKind,
    /// How many pieces of the kind the material has (`s_t`).
    pub count: u8,
    /// Its code in the class sort key.
    pub code: u8,
    /// Whether it can promote (every type but gold).
    pub promotable: bool,
}

/// Checks `material` for game `G` (exactly two kings, no more of a kind than the game has)
/// and lists its present non-king types in the order `T`.
pub fn piece_types<G: Game>(material: &Material) -> Result<Vec<PieceType>, MaterialError> {
    let kings = material.get(PieceKind::King);
    if kings != 2 {
        return Err(MaterialError::Kings(kings));
    }
    for kind in PieceKind::PAPER_ORDER {
        let (have, max) = (material.get(kind), G::MATERIAL.get(kind));
        if have > max {
            return Err(MaterialError::TooMany {
                kind,
                count: have,
                max,
            });
        }
    }
    Ok(TYPE_ORDER
        .into_iter()
        .filter(|&k| material.get(k) > 0)
        .map(|kind| PieceType {
            kind,
            count: material.get(kind),
            code: class_code::<G>(kind),
            promotable: kind.can_promote(),
        })
        .collect())
}

/// Whether the king placement (`black`, `white`) is K-canonical (docs/METHOD.md §3): two squares and
/// `κ(p) <= κ(Hflip(p))`, the pairs compared by square index. Only such placements have a
/// rank; the others are the mirror images of ranked ones.
pub fn kings_k_canonical<G: Game>(black: Square, white: Square) -> bool {
    black != white && (black, white) <= (black.hflip::<G>(), white.hflip::<G>())
}

/// The number of K-canonical king placements (docs/METHOD.md §3), counted directly from the
/// definition: 3276 for Shogi, 310 for Mini Shogi.
pub fn king_placements<G: Game>() -> u32 {
    let squares = || (0..G::SQUARES as u8).filter_map(Square::from_index);
    squares()
        .flat_map(|b| squares().map(move |w| (b, w)))
        .filter(|&(b, w)| kings_k_canonical::<G>(b, w))
        .count() as u32
}

/// A material built from counts in the order of docs/METHOD.md §3 (King, Gold, Knight, Lance, Pawn,
/// Silver, Rook, Bishop), e.g. `material_from_spec([2, 1, 0, 0, 1, 0, 0, 0])` for kings, one
/// gold and one pawn.
pub fn material_from_spec(counts: [u8; 8]) -> Material {
    let mut m = Material::default();
    for (kind, n) in PieceKind::PAPER_ORDER.into_iter().zip(counts) {
        m.set(kind, n);
    }
    m
}
