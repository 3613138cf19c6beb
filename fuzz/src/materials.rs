//! Reduced materials for the targets that build a table per material.
//!
//! Mini Shogi has 243 sub-multisets of its material that keep both kings, each table built
//! in well under a millisecond: all of them are reachable. Shogi has 106,875, and a table
//! of `S` takes up to 0.4 s to build (the lances and knights make it dear), so a target
//! that drew them from raw bytes would spend its time building tables: it picks from a
//! fixed list of 64 instead, the edge cases first and then materials drawn once with a
//! fixed generator, with at most five lances and knights together so that each builds in
//! milliseconds.

use shogi_core::{Game, Material, MiniShogi, PieceKind, Shogi};
use shogi_rank::material_from_spec;
use std::sync::OnceLock;

/// How many Shogi materials [`shogi_material`] picks from.
pub const SHOGI_MATERIALS: usize = 64;

/// Kings, golds, knights, lances, pawns, silvers, rooks, bishops (the order of
/// `material_from_spec`): the edge cases of the Shogi list.
const SHOGI_EDGES: &[[u8; 8]] = &[
    [2, 4, 4, 4, 18, 4, 2, 2], // full
    [2, 3, 4, 4, 18, 4, 2, 2], // full but one of each kind
    [2, 4, 3, 4, 18, 4, 2, 2],
    [2, 4, 4, 3, 18, 4, 2, 2],
    [2, 4, 4, 4, 17, 4, 2, 2],
    [2, 4, 4, 4, 18, 3, 2, 2],
    [2, 4, 4, 4, 18, 4, 1, 2],
    [2, 4, 4, 4, 18, 4, 2, 1],
    [2, 0, 0, 0, 0, 0, 0, 0],  // kings only
    [2, 1, 1, 1, 1, 1, 1, 1],  // one of each
    [2, 0, 0, 0, 18, 0, 0, 0], // pawns: more than files, a file each, one more, one
    [2, 0, 0, 0, 9, 0, 0, 0],
    [2, 0, 0, 0, 10, 0, 0, 0],
    [2, 0, 0, 0, 1, 0, 0, 0],
    [2, 0, 0, 4, 0, 0, 0, 0], // lances, knights and both
    [2, 0, 4, 0, 0, 0, 0, 0],
    [2, 0, 4, 4, 0, 0, 0, 0],
    [2, 0, 4, 4, 18, 0, 0, 0], // the whole core of S
    [2, 0, 0, 4, 18, 0, 0, 0],
    [2, 0, 4, 0, 18, 0, 0, 0],
    [2, 4, 0, 0, 0, 0, 0, 0], // unconstrained kinds only
    [2, 0, 0, 0, 0, 4, 0, 0],
    [2, 0, 0, 0, 0, 0, 2, 2],
    [2, 4, 4, 4, 0, 4, 2, 2],  // everything but pawns
    [2, 4, 0, 0, 18, 4, 2, 2], // everything but lances and knights
    [2, 2, 2, 2, 9, 2, 1, 1],  // half
    [2, 0, 1, 1, 2, 0, 0, 0],
];

/// The Shogi material picked by `byte` from the list of [`SHOGI_MATERIALS`].
pub fn shogi_material(byte: u8) -> Material {
    static LIST: OnceLock<Vec<Material>> = OnceLock::new();
    let list = LIST.get_or_init(|| {
        let mut list: Vec<Material> = SHOGI_EDGES.iter().map(|&s| material_from_spec(s)).collect();
        // xorshift64 from a fixed seed: the same list in every process.
        let mut x: u64 = 0x5348_4f47_4920_4655;
        let mut next = |bound: u8| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % (bound as u64 + 1)) as u8
        };
        while list.len() < SHOGI_MATERIALS {
            let mut m = Material::default();
            m.set(PieceKind::King, 2);
            for kind in [
                PieceKind::Gold,
                PieceKind::Knight,
                PieceKind::Lance,
                PieceKind::Pawn,
                PieceKind::Silver,
                PieceKind::Rook,
                PieceKind::Bishop,
            ] {
                m.set(kind, next(Shogi::MATERIAL.get(kind)));
            }
            if m.get(PieceKind::Lance) + m.get(PieceKind::Knight) <= 5 && !list.contains(&m) {
                list.push(m);
            }
        }
        list
    });
    list[byte as usize % SHOGI_MATERIALS]
}

/// The Mini Shogi material of `byte`: `byte mod 243` as five base-3 digits, the counts of
/// golds, silvers, bishops, rooks and pawns (each 0 to 2), and both kings.
pub fn mini_material(byte: u8) -> Material {
    let mut m = Material::default();
    m.set(PieceKind::King, 2);
    let mut rest = byte as u32 % 243;
    for kind in [
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Pawn,
    ] {
        m.set(kind, (rest % 3) as u8);
        rest /= 3;
    }
    debug_assert!(m.fits_in(&MiniShogi::MATERIAL));
    m
}
