//! Positions outside `P_K` get a typed error, never a panic.

use shogi_core::{Color, Game, MiniShogi, Piece, PieceKind, Position, Shogi, Square};
use shogi_rank::{full_table, material_from_spec, MaterialError, RankError, RankTable};

#[test]
fn white_to_move() {
    let mut p = Position::<Shogi>::from_sfen(
        "Knppr4/klppr4/glppb4/glppb4/glpp5/gpps5/npps5/npps5/npps5 b - 1",
    )
    .unwrap();
    p.set_side_to_move(Color::White);
    assert_eq!(full_table::<Shogi>().rank(&p), Err(RankError::WhiteToMove));
}

#[test]
fn kings_not_canonical() {
    // Black's king right of the centre file.
    let p = Position::<Shogi>::from_sfen("8K/k8/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1").unwrap();
    assert_eq!(
        full_table::<Shogi>().rank(&p),
        Err(RankError::NotKCanonical)
    );
    // Both on the centre file is fine; Black's on the centre and White's right of it is not.
    let p = Position::<MiniShogi>::from_sfen("2K1k/5/5/5/5 b RBGSPrbgsp 1").unwrap();
    assert_eq!(
        full_table::<MiniShogi>().rank(&p),
        Err(RankError::NotKCanonical)
    );
    let p = Position::<MiniShogi>::from_sfen("k1K2/5/5/5/5 b RBGSPrbgsp 1").unwrap();
    assert!(full_table::<MiniShogi>().rank(&p).is_ok());
    let p = Position::<MiniShogi>::from_sfen("2K2/2k2/5/5/5 b RBGSPrbgsp 1").unwrap();
    assert!(full_table::<MiniShogi>().rank(&p).is_ok());
    // The mirror image of a non-canonical placement is canonical.
    let p = Position::<MiniShogi>::from_sfen("4K/k4/5/5/5 b RBGSPrbgsp 1").unwrap();
    assert_eq!(
        full_table::<MiniShogi>().rank(&p),
        Err(RankError::NotKCanonical)
    );
    assert!(full_table::<MiniShogi>().rank(&p.hflip()).is_ok());
}

#[test]
fn missing_and_extra_kings() {
    let p = Position::<MiniShogi>::from_sfen("K4/5/5/5/5 b RBGSPrbgsp 1").unwrap();
    assert_eq!(
        full_table::<MiniShogi>().rank(&p),
        Err(RankError::KingCount {
            color: Color::White,
            count: 0
        })
    );
    let mut p = Position::<MiniShogi>::from_sfen("K4/k4/5/5/5 b RBGSPrbgsp 1").unwrap();
    p.put(
        Square::new::<MiniShogi>(1, 1),
        Piece::new(Color::Black, PieceKind::King),
    );
    assert_eq!(
        full_table::<MiniShogi>().rank(&p),
        Err(RankError::KingCount {
            color: Color::Black,
            count: 2
        })
    );
}

#[test]
fn wrong_material() {
    let t = full_table::<MiniShogi>();
    // A pawn missing, a pawn too many, a knight that Mini Shogi does not have.
    for sfen in [
        "K4/k4/5/5/5 b RBGSrbgsp 1",
        "K4/k4/5/5/5 b RBGS2Prbgsp 1",
        "K4/k4/5/5/5 b RBGSNPrbgsp 1",
    ] {
        let p = Position::<MiniShogi>::from_sfen(sfen).unwrap();
        let e = t.rank(&p).unwrap_err();
        assert!(matches!(e, RankError::WrongMaterial { .. }), "{sfen}: {e}");
        assert!(!e.to_string().is_empty());
    }
    // A reduced-material table rejects the full material.
    let small = RankTable::<MiniShogi>::new(&material_from_spec([2, 1, 0, 0, 1, 0, 0, 0])).unwrap();
    let p = Position::<MiniShogi>::from_sfen("K4/k4/5/5/5 b RBGSPrbgsp 1").unwrap();
    assert!(matches!(
        small.rank(&p),
        Err(RankError::WrongMaterial { .. })
    ));
    let p = Position::<MiniShogi>::from_sfen("K4/k4/5/5/5 b GP 1").unwrap();
    assert!(small.rank(&p).is_ok());
}

#[test]
fn bad_materials() {
    assert_eq!(
        RankTable::<MiniShogi>::new(&material_from_spec([1, 1, 0, 0, 0, 0, 0, 0])).err(),
        Some(MaterialError::Kings(1))
    );
    assert!(matches!(
        RankTable::<MiniShogi>::new(&material_from_spec([2, 0, 1, 0, 0, 0, 0, 0])),
        Err(MaterialError::TooMany {
            kind: PieceKind::Knight,
            ..
        })
    ));
    assert!(shogi_rank::count::<Shogi>(&material_from_spec([2, 0, 0, 0, 19, 0, 0, 0])).is_err());
    assert!(RankTable::<Shogi>::new(&Shogi::MATERIAL).is_ok());
}
