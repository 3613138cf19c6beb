//! Positions outside `P_K` get a typed error, never a panic.

use shogi_core::{
    Color, Game, MiniShogi, PieceKind, Position, PositionErrors, Relax, Setup, SfenError, Shogi,
};
use shogi_rank::{full_table, material_from_spec, MaterialError, RankError, RankTable};

#[test]
fn white_to_move() {
    let mut p = Setup::<Shogi>::from_sfen(
        "Knppr4/klppr4/glppb4/glppb4/glpp5/gpps5/npps5/npps5/npps5 b - 1",
    )
    .unwrap();
    p.set_side_to_move(Color::White);
    let p = p.into_position(Relax::CANDIDATE).unwrap();
    assert_eq!(full_table::<Shogi>().rank(&p), Err(RankError::WhiteToMove));
}

#[test]
fn kings_not_canonical() {
    // Black's king right of the centre file.
    let p = Position::<Shogi>::from_sfen_with(
        "8K/k8/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
        Relax::CANDIDATE,
    )
    .unwrap();
    assert_eq!(
        full_table::<Shogi>().rank(&p),
        Err(RankError::NotKCanonical)
    );
    // Both on the centre file is fine; Black's on the centre and White's right of it is not.
    let p = Position::<MiniShogi>::from_sfen_with("2K1k/5/5/5/5 b RBGSPrbgsp 1", Relax::CANDIDATE)
        .unwrap();
    assert_eq!(
        full_table::<MiniShogi>().rank(&p),
        Err(RankError::NotKCanonical)
    );
    let p = Position::<MiniShogi>::from_sfen_with("k1K2/5/5/5/5 b RBGSPrbgsp 1", Relax::CANDIDATE)
        .unwrap();
    assert!(full_table::<MiniShogi>().rank(&p).is_ok());
    let p = Position::<MiniShogi>::from_sfen_with("2K2/2k2/5/5/5 b RBGSPrbgsp 1", Relax::CANDIDATE)
        .unwrap();
    assert!(full_table::<MiniShogi>().rank(&p).is_ok());
    // The mirror image of a non-canonical placement is canonical.
    let p = Position::<MiniShogi>::from_sfen_with("4K/k4/5/5/5 b RBGSPrbgsp 1", Relax::CANDIDATE)
        .unwrap();
    assert_eq!(
        full_table::<MiniShogi>().rank(&p),
        Err(RankError::NotKCanonical)
    );
    assert!(full_table::<MiniShogi>().rank(&p.hflip()).is_ok());
}

#[test]
fn missing_and_extra_kings_are_no_positions() {
    // A position always has one king each (the rank table relies on it), so these are
    // refused before ranking, with the broken rule named.
    for (sfen, error) in [
        ("K4/5/5/5/5 b RBGSPrbgsp 1", PositionErrors::MISSING_KING),
        (
            "KK3/k4/5/5/5 b RBGSPrbgsp 1",
            PositionErrors::TOO_MANY_KINGS,
        ),
    ] {
        match Position::<MiniShogi>::from_sfen_with(sfen, Relax::CANDIDATE) {
            Err(SfenError::Illegal(e)) => assert!(e.errors().contains(error), "{sfen}: {e}"),
            other => panic!("{sfen}: {other:?}"),
        }
    }
}

#[test]
fn wrong_material() {
    let t = full_table::<MiniShogi>();
    // A pawn missing: a position, but not of this table's material.
    let p = Position::<MiniShogi>::from_sfen_with("K4/k4/5/5/5 b RBGSrbgsp 1", Relax::CANDIDATE)
        .unwrap();
    let e = t.rank(&p).unwrap_err();
    assert!(matches!(e, RankError::WrongMaterial { .. }), "{e}");
    assert!(!e.to_string().is_empty());
    // A pawn too many, a knight that Mini Shogi does not have: no position at all.
    for sfen in ["K4/k4/5/5/5 b RBGS2Prbgsp 1", "K4/k4/5/5/5 b RBGSNPrbgsp 1"] {
        match Position::<MiniShogi>::from_sfen_with(sfen, Relax::CANDIDATE) {
            Err(SfenError::Illegal(e)) => {
                assert_eq!(e.errors(), PositionErrors::TOO_MUCH_MATERIAL, "{sfen}")
            }
            other => panic!("{sfen}: {other:?}"),
        }
    }
    // A reduced-material table rejects the full material.
    let small = RankTable::<MiniShogi>::new(&material_from_spec([2, 1, 0, 0, 1, 0, 0, 0])).unwrap();
    let p = Position::<MiniShogi>::from_sfen_with("K4/k4/5/5/5 b RBGSPrbgsp 1", Relax::CANDIDATE)
        .unwrap();
    assert!(matches!(
        small.rank(&p),
        Err(RankError::WrongMaterial { .. })
    ));
    let p = Position::<MiniShogi>::from_sfen_with("K4/k4/5/5/5 b GP 1", Relax::CANDIDATE).unwrap();
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
