//! The exact sizes and the anchors of docs/METHOD.md §1 and §4.1.

use num_bigint::BigUint;
use shogi_core::{Game, MiniShogi, Position, Relax, Shogi};
use shogi_rank::{count, king_placements, RankTable};

const SHOGI_COUNT: &str = "80880932079767835177773204009328769812438521503800714936366945233084532";
const MINI_COUNT: &str = "16014219505238849250";

fn big(s: &str) -> BigUint {
    s.parse().expect("decimal")
}

#[test]
fn exact_sizes_from_the_formula() {
    assert_eq!(count::<Shogi>(&Shogi::MATERIAL).unwrap(), big(SHOGI_COUNT));
    assert_eq!(
        count::<MiniShogi>(&MiniShogi::MATERIAL).unwrap(),
        big(MINI_COUNT)
    );
}

#[test]
fn exact_sizes_from_the_tables() {
    let s = RankTable::<Shogi>::full();
    assert_eq!(s.count(), big(SHOGI_COUNT));
    assert_eq!(s.class_count(), 106_875);
    assert_eq!(s.king_placements(), 3276);
    let m = RankTable::<MiniShogi>::full();
    assert_eq!(m.count(), big(MINI_COUNT));
    assert_eq!(m.class_count(), 243);
    assert_eq!(m.king_placements(), 310);
    assert_eq!(king_placements::<Shogi>(), 4 * 9 * 80 + 9 * 44);
    assert_eq!(king_placements::<MiniShogi>(), 2 * 5 * 24 + 5 * 14);
}

fn check<G: Game>(table: &RankTable<G>, rank: &str, sfen: &str) {
    let r = big(rank);
    let pos = table.unrank(&r).expect("anchor rank unranks");
    assert_eq!(pos.to_sfen(), sfen, "unrank({rank})");
    let parsed = Position::<G>::from_sfen_with(sfen, Relax::CANDIDATE).expect("anchor SFEN parses");
    assert_eq!(parsed, pos);
    assert_eq!(
        table.rank(&parsed).expect("anchor ranks"),
        r,
        "rank({sfen})"
    );
}

#[test]
fn shogi_anchors() {
    let t = RankTable::<Shogi>::full();
    check(
        &t,
        "0",
        "Knppr4/klppr4/glppb4/glppb4/glpp5/gpps5/npps5/npps5/npps5 b - 1",
    );
    check(
        &t,
        "79711464585613890499229372106470162629966919404028159691811738577084532",
        "Knppr4/klppr4/glppb4/glpp5/glpp5/gpps5/npps5/npps5/npps5 b b 1",
    );
    check(
        &t,
        "55886199229708236745539580704294876784111070413396538952042043639247410",
        "9/+p3L1+l+SR/p+pl+n+P+Pp2/9/2+P4+p1/1+N1+n+P+p1+r+s/K3p2+Pg/1Gbs2+s2/2k6 b BGNL3Pg3p 1",
    );
    check(
        &t,
        "80877689362470270183374292489542421852520392554141776661573298839428499",
        "2p+P2+ppl/N+S2g+Pp+l1/4+Lk1Gr/3+l1P2+N/5+Ps1g/pP2g3+p/+P2+S3+n1/p1p1Ps2p/+RP+PK1+N3 b 2B 1",
    );
}

#[test]
fn mini_anchors() {
    let t = RankTable::<MiniShogi>::full();
    check(
        &t,
        "9191698481829492401",
        "4+p/K4/g1+Rks/1+b+s2/1G+BrP b - 1",
    );
    check(
        &t,
        "15673526037461416338",
        "1R3/3g+R/k+Sg2/3B+B/K2+s+p b p 1",
    );
    // The second Mini Shogi class is "one rook in hand".
    assert_eq!(t.class(1).hand, vec![(shogi_core::PieceKind::Rook, 1)]);
}
