//! Pass rates of the filters of docs/METHOD.md §5 on uniform samples, against Table 1 of the paper
//! (docs/METHOD.md §1), within 4 standard errors.

use shogi_core::{Game, GameKind, MiniShogi, Shogi};
use shogi_estimate::{paper, z_score};
use shogi_rank::filters::{classify, FilterCounts};
use shogi_rank::{full_table, Sampler};

fn rates<G: Game>(seed: u64, n: u64, game: GameKind) -> [f64; 3] {
    // Table 1: samples, pass mirror, pass placement, pass check, reachable.
    let table1 = paper(game).stages();
    let sampler = Sampler::new(full_table::<G>(), seed);
    let mut counts = FilterCounts::default();
    for i in 0..n {
        counts.add(classify(&sampler.sample(i)));
    }
    let mut z = [0.0; 3];
    for (k, (&got, name)) in [counts.mirror, counts.placement, counts.check]
        .iter()
        .zip(["mirror", "placement", "check"])
        .enumerate()
    {
        let p = table1[k + 1] as f64 / table1[0] as f64;
        z[k] = z_score(got, n, table1[k + 1], table1[0]);
        println!(
            "{} seed {seed}: pass {name}: {got} of {n} = {:.6} (paper {:.6}), z = {:+.2}",
            G::NAME,
            got as f64 / n as f64,
            p,
            z[k]
        );
    }
    z
}

fn check(z: [f64; 3]) {
    for v in z {
        assert!(v.abs() < 4.0, "z = {z:?}");
    }
}

#[test]
fn shogi_filter_rates_100k() {
    check(rates::<Shogi>(2024, 100_000, GameKind::Shogi));
}

#[test]
fn mini_filter_rates_100k() {
    check(rates::<MiniShogi>(2024, 100_000, GameKind::Mini));
}

/// One million samples per game (the criterion; about 2 s in the optimised test
/// profile). `--nocapture` prints the rates and z-scores.
#[test]
fn filter_rates_1m() {
    check(rates::<Shogi>(1, 1_000_000, GameKind::Shogi));
    check(rates::<MiniShogi>(1, 1_000_000, GameKind::Mini));
}

/// The board tuple of docs/METHOD.md §3, built as plain lists: for King, Gold, Knight, Lance, Pawn,
/// Silver, Rook, Bishop the sorted squares of (Black promoted, White promoted, Black
/// unpromoted, White unpromoted).
fn tuple<G: Game>(p: &shogi_core::Position<G>) -> Vec<Vec<usize>> {
    use shogi_core::{Color, PieceKind};
    let mut out = Vec::new();
    for kind in PieceKind::PAPER_ORDER {
        for (color, promoted) in [
            (Color::Black, true),
            (Color::White, true),
            (Color::Black, false),
            (Color::White, false),
        ] {
            let mut v: Vec<usize> = (0..G::SQUARES)
                .filter(|&s| {
                    p.piece_at(shogi_core::Square::from_index(s as u8).unwrap())
                        .is_some_and(|pc| {
                            pc.color == color
                                && pc.kind.unpromoted() == kind
                                && pc.kind.is_promoted() == promoted
                        })
                })
                .collect();
            v.sort_unstable();
            out.push(v);
        }
    }
    out
}

fn mirror_matches_tuple_order<G: Game>(n: u64) {
    let sampler = Sampler::new(full_table::<G>(), 77);
    let mut dropped = 0;
    for i in 0..n {
        let p = sampler.sample(i);
        let ok = shogi_rank::filters::mirror_ok(&p);
        assert_eq!(ok, tuple(&p.hflip()) >= tuple(&p), "{p:?}");
        if !ok {
            dropped += 1;
            // Only positions with both kings on the centre file can fail.
            let c = G::WIDTH / 2;
            assert_eq!(p.king(shogi_core::Color::Black).unwrap().x::<G>(), c);
            assert_eq!(p.king(shogi_core::Color::White).unwrap().x::<G>(), c);
        }
    }
    assert!(dropped > 0);
}

#[test]
fn mirror_filter_is_the_tuple_order() {
    mirror_matches_tuple_order::<Shogi>(20_000);
    mirror_matches_tuple_order::<MiniShogi>(20_000);
}
