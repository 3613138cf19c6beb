//! What the fuzz targets share: the invariants every `Position` must keep, the fixed
//! positions a target falls back on when its input is no SFEN, and the decoding of raw
//! bytes into (mostly nonsensical) moves.
//!
//! The targets themselves are in `fuzz_targets/`; `README.md` says what each one checks.
//! The modules hold what only some targets need: a second reader of counts
//! ([`counts`]), the reduced materials of the sampler target ([`materials`]) and a
//! brute-force mate search ([`mate`]) and the round trips of KIF and CSA records
//! ([`records`]).

pub mod counts;
pub mod mate;
pub mod materials;
pub mod records;

use shogi_core::{
    AnyPosition, Color, Game, Move, PieceKind, Position, PositionErrors, Relax, Square,
};

/// Positions a target plays on when its input does not start with a usable SFEN: the
/// starts, and crowded boards with full hands (from testdata/perft), so that short inputs
/// reach the big move lists too.
pub const FALLBACK_SFENS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "rbsgk/4p/5/P4/KGSBR b - 1",
    // crowded.perft spec-593: the most moves found in a legal Shogi position.
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    // crowded.perft hand-040, crowd-049, dpm-005: full hands, a crowded board, a pawn
    // drop that only drop-pawn-mate forbids.
    "9/9/9/5k3/2p5l/9/9/8K/9 b 2R2B4G4S4N3L17P 1",
    "p+S1p1p3/5PR+n1/2+pL1bP1P/7Pp/1k+pP1S2N/1p1G+p4/1+P2L2Gn/P1+psp+SB2/LR1GKN3 b Pgl 1",
    "9/1k7/9/9/9/9/7+nn/9/8K w RB4G2SN2L12Prb2sn2l6p 1",
    // mini.perft: a crowded hand and a few pieces.
    "5/Bp1k1/5/1KG2/3Ss w Rrbgp 34",
    "2+R+B1/1P2R/1K2g/3pk/2S2 b BGs 39",
];

/// The invariants of every [`Position`] (asserted, so a break is a crash libFuzzer keeps):
/// the key is the one computed from scratch, no [`PositionErrors::ESSENTIAL`] rule is
/// broken, each side has its king and the material fits in the game's.
pub fn assert_invariants<G: Game>(p: &Position<G>) {
    assert_eq!(p.key(), p.compute_key(), "key not incremental: {p}");
    let essential = p.validate() & PositionErrors::ESSENTIAL;
    assert!(essential.is_empty(), "{p} breaks {essential}");
    assert!(p.king(Color::Black).is_some() && p.king(Color::White).is_some());
    assert!(p.material().fits_in(&G::MATERIAL), "{p}: too much material");
}

/// Asserts that two positions are the same, key and move number included.
pub fn assert_same<G: Game>(a: &Position<G>, b: &Position<G>, what: &str) {
    assert_eq!(a, b, "{what}");
    assert_eq!(a.key(), b.key(), "{what}: keys differ");
    assert_eq!(
        a.move_number(),
        b.move_number(),
        "{what}: move numbers differ"
    );
}

/// The candidate position read from `text` (either game), if any.
pub fn candidate(text: &str) -> Option<AnyPosition> {
    AnyPosition::from_sfen_with(text, Relax::CANDIDATE).ok()
}

/// Splits the input at its first newline: the first line as text, the rest as bytes.
pub fn first_line(data: &[u8]) -> (String, &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (
            String::from_utf8_lossy(&data[..i]).into_owned(),
            &data[i + 1..],
        ),
        None => (String::from_utf8_lossy(data).into_owned(), &[]),
    }
}

/// The position a target works on: the first line if it is a candidate SFEN (then the
/// rest of the input follows), else a fallback position picked by the first byte (then
/// the whole input follows).
pub fn position_or_fallback(data: &[u8]) -> (AnyPosition, &[u8]) {
    let (line, rest) = first_line(data);
    if let Some(p) = candidate(&line) {
        return (p, rest);
    }
    let i = data.first().map_or(0, |&b| b as usize) % FALLBACK_SFENS.len();
    let p = candidate(FALLBACK_SFENS[i]).expect("the fallback SFENs are candidate positions");
    (p, data)
}

/// A kind from a byte: one of the 14 kinds, or `None` for two values of 16.
pub fn kind_of(b: u8) -> Option<PieceKind> {
    PieceKind::from_index((b % 16) as usize)
}

/// A square from a byte: any square of the largest board (so off a Mini Shogi board too),
/// or `None` for a few values.
pub fn square_of(b: u8) -> Option<Square> {
    Square::from_index(b % 96)
}

/// A move and a captured kind from four bytes, with no regard for any position: drops of
/// kings and promoted kinds, promotions of golds, squares off the board and captures of
/// kings all come out.
pub fn garbage_move(b: [u8; 4]) -> Option<(Move, Option<PieceKind>)> {
    let captured = kind_of(b[0] >> 2);
    let mv = if b[0] & 1 == 0 {
        Move::Normal {
            from: square_of(b[1])?,
            to: square_of(b[2])?,
            promote: b[0] & 2 != 0,
        }
    } else {
        Move::Drop {
            kind: kind_of(b[3])?,
            to: square_of(b[2])?,
        }
    };
    Some((mv, captured))
}

/// Calls `f` with the game's position of an [`AnyPosition`], monomorphised per game.
#[macro_export]
macro_rules! with_game {
    ($any:expr, |$p:ident| $body:expr) => {
        match $any {
            shogi_core::AnyPosition::Shogi($p) => $body,
            shogi_core::AnyPosition::Mini($p) => $body,
        }
    };
}
