//! The placement-legal subspace `S` (docs/METHOD.md §10.2): its exact size against an
//! enumeration of `P_K` through the filter, its core counts against brute force, its sampler
//! against the enumerated set (every sample in `S`, uniform by chi-square), and its rates
//! against sampling `P_K`.

use shogi_core::{Color, Game, MiniShogi, PieceKind, Position, Shogi};
use shogi_rank::filters::{check_ok, placement_ok};
use shogi_rank::{
    full_placement_table, full_table, kings_k_canonical, material_from_spec, Core, KingSet,
    PlacementSampler, PlacementTable, RankTable, Sampler, U256,
};
use std::collections::HashMap;

/// The board and hands of a position as one string (positions of `P_K` are Black to move).
fn code<G: Game>(pos: &Position<G>) -> String {
    pos.to_sfen()
}

/// Every position of `S` for a small material, from every rank of `P_K` through the filter.
fn enumerate_s<G: Game>(spec: [u8; 8]) -> (PlacementTable<G>, Vec<Position<G>>) {
    let material = material_from_spec(spec);
    let pk = RankTable::<G>::new(&material).unwrap();
    let total = pk.count_u256().to_u128().unwrap() as u64;
    let s: Vec<Position<G>> = (0..total)
        .map(|r| pk.unrank_u256(U256::from(r)).unwrap())
        .filter(placement_ok)
        .collect();
    let table = PlacementTable::<G>::new(&material).unwrap();
    assert_eq!(
        table.count_u256(),
        U256::from(s.len() as u64),
        "|S| of {spec:?} against the enumeration ({total} positions of P_K)"
    );
    // The part with both kings on the centre file, which mirror-distinct counts take once.
    let centre = G::WIDTH / 2;
    let on_centre = s
        .iter()
        .filter(|p| {
            Color::ALL
                .iter()
                .all(|&c| p.king(c).unwrap().x::<G>() == centre)
        })
        .count();
    let centre_table = PlacementTable::<G>::with_kings(&material, KingSet::CentreFile).unwrap();
    assert_eq!(
        centre_table.count_u256(),
        U256::from(on_centre as u64),
        "|S_centre| of {spec:?}"
    );
    (table, s)
}

/// Every sample is a position of the enumerated `S`, and the samples are uniform over it
/// (Pearson's chi-square over the positions, which needs about 40 samples per position).
fn sampler_uniform<G: Game>(spec: [u8; 8], seed: u64) {
    let (table, s) = enumerate_s::<G>(spec);
    let index: HashMap<String, usize> = s.iter().enumerate().map(|(i, p)| (code(p), i)).collect();
    assert_eq!(index.len(), s.len(), "the enumeration has duplicates");
    let n = 40 * s.len() as u64;
    let sampler = PlacementSampler::new(&table, seed);
    let mut observed = vec![0u64; s.len()];
    for i in 0..n {
        let pos = sampler.sample(i);
        let at = index
            .get(&code(&pos))
            .unwrap_or_else(|| panic!("sample {i} is not in S: {}", pos.to_sfen()));
        observed[*at] += 1;
    }
    let expected = n as f64 / s.len() as f64;
    let stat: f64 = observed
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    let df = (s.len() - 1) as f64;
    // Far beyond any uniform sampler's statistic (about 7 standard deviations).
    let limit = df + 7.0 * (2.0 * df).sqrt() + 10.0;
    assert!(stat < limit, "{spec:?}: chi2 = {stat:.0} with {df} df");
}

#[test]
fn size_equals_enumeration_mini() {
    enumerate_s::<MiniShogi>([2, 0, 0, 0, 0, 0, 0, 0]);
    enumerate_s::<MiniShogi>([2, 0, 0, 0, 2, 0, 0, 0]);
    enumerate_s::<MiniShogi>([2, 1, 0, 0, 1, 0, 0, 0]);
    enumerate_s::<MiniShogi>([2, 0, 0, 0, 1, 1, 0, 0]);
}

#[test]
fn size_equals_enumeration_shogi() {
    enumerate_s::<Shogi>([2, 0, 0, 0, 1, 0, 0, 0]);
    enumerate_s::<Shogi>([2, 0, 0, 1, 0, 0, 0, 0]);
    enumerate_s::<Shogi>([2, 0, 1, 0, 0, 0, 0, 0]);
}

#[test]
fn sampler_is_uniform_on_enumerated_s() {
    sampler_uniform::<MiniShogi>([2, 0, 0, 0, 1, 0, 0, 0], 3);
    sampler_uniform::<MiniShogi>([2, 1, 0, 0, 0, 0, 0, 0], 4);
    sampler_uniform::<Shogi>([2, 0, 0, 0, 0, 0, 0, 0], 7);
}

/// The core of a position: the king squares and the squares of the unpromoted pawns of
/// each side, as one number.
fn core_key<G: Game>(pos: &Position<G>) -> u128 {
    let mut key = 0u128;
    for c in Color::ALL {
        key = key << 7 | pos.king(c).unwrap().index() as u128;
    }
    for c in Color::ALL {
        key = key << 81 ^ pos.pieces(c, PieceKind::Pawn).0;
    }
    key
}

/// Where the rejection step matters: with two pawns, the distribution of the core (kings
/// and unpromoted pawns, two of a side never on one file) against its exact distribution
/// from the enumeration, by chi-square.
#[test]
fn sampler_core_distribution_is_exact_mini_two_pawns() {
    let (table, s) = enumerate_s::<MiniShogi>([2, 0, 0, 0, 2, 0, 0, 0]);
    let mut exact: HashMap<u128, (u64, u64)> = HashMap::new();
    for p in &s {
        exact.entry(core_key(p)).or_default().0 += 1;
    }
    let n = 3_000_000u64;
    let sampler = PlacementSampler::new(&table, 21);
    for i in 0..n {
        let p = sampler.sample(i);
        exact
            .get_mut(&core_key(&p))
            .unwrap_or_else(|| panic!("sample {i} has a core outside S: {}", p.to_sfen()))
            .1 += 1;
    }
    let total = s.len() as f64;
    let (mut stat, mut cells) = (0.0, 0usize);
    let (mut o_acc, mut e_acc) = (0.0, 0.0);
    let mut keys: Vec<_> = exact.into_iter().collect();
    keys.sort_unstable();
    for (_, (count, observed)) in keys {
        // Cells pooled until their expected count reaches 5.
        o_acc += observed as f64;
        e_acc += count as f64 / total * n as f64;
        if e_acc >= 5.0 {
            stat += (o_acc - e_acc).powi(2) / e_acc;
            cells += 1;
            (o_acc, e_acc) = (0.0, 0.0);
        }
    }
    let df = (cells - 1) as f64;
    let limit = df + 7.0 * (2.0 * df).sqrt() + 10.0;
    assert!(stat < limit, "chi2 = {stat:.0} with {df} df");
}

/// Whether unpromoted `kind` of `color` may stand on rank `y` (counted from White's side,
/// rank a = 0), written from the rules rather than from the library's tables.
fn allowed<G: Game>(color: Color, kind: PieceKind, y: u32) -> bool {
    let from_last = if color == Color::Black {
        y
    } else {
        G::HEIGHT as u32 - 1 - y
    };
    match kind {
        PieceKind::Knight => from_last >= 2,
        _ => from_last >= 1,
    }
}

/// `K(k)` by brute force: every K-canonical king placement, then every choice of squares
/// for the core groups, kept when the squares are distinct, allowed, and no side has two
/// unpromoted pawns on a file.
fn core_brute_force<G: Game>(k: &Core) -> u128 {
    let kinds = [PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight];
    // One entry per piece: (group, kind, colour); pieces of a group in increasing squares.
    let mut pieces = Vec::new();
    for g in 0..6 {
        let color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        for _ in 0..k[g] {
            pieces.push((g, kinds[g / 2], color));
        }
    }
    let h = G::HEIGHT as u32;
    fn go<G: Game>(
        pieces: &[(usize, PieceKind, Color)],
        i: usize,
        used: &mut Vec<(usize, u32)>,
    ) -> u128 {
        if i == pieces.len() {
            return 1;
        }
        let (g, kind, color) = pieces[i];
        let h = G::HEIGHT as u32;
        let mut n = 0;
        for sq in 0..G::SQUARES as u32 {
            if used.iter().any(|&(_, s)| s == sq) || !allowed::<G>(color, kind, sq % h) {
                continue;
            }
            // Same group: increasing squares, so each set is counted once.
            if used.iter().any(|&(gg, s)| gg == g && s > sq) {
                continue;
            }
            if g < 2 && used.iter().any(|&(gg, s)| gg == g && s / h == sq / h) {
                continue;
            }
            used.push((g, sq));
            n += go::<G>(pieces, i + 1, used);
            used.pop();
        }
        n
    }
    let mut total = 0;
    for b in 0..G::SQUARES as u8 {
        for w in 0..G::SQUARES as u8 {
            let (bs, ws) = (
                shogi_core::Square::from_index(b).unwrap(),
                shogi_core::Square::from_index(w).unwrap(),
            );
            if !kings_k_canonical::<G>(bs, ws) {
                continue;
            }
            // Kings are pieces of their own group (6 and 7) that nothing may share.
            let mut used = vec![(6, b as u32), (7, w as u32)];
            total += go::<G>(&pieces, 0, &mut used);
        }
    }
    let _ = h;
    total
}

#[test]
fn core_counts_match_brute_force() {
    // Mini Shogi, full material: every core vector (at most two unpromoted pawns).
    let mini = full_placement_table::<MiniShogi>();
    let mut seen = 0;
    for (k, w) in mini.core().iter() {
        assert_eq!(w, core_brute_force::<MiniShogi>(&k), "Mini Shogi K({k:?})");
        seen += 1;
    }
    assert_eq!(
        seen, 6,
        "the Mini Shogi core vectors: (bp, wp) with bp + wp <= 2"
    );
    // Shogi: every core vector of at most two pieces (two pawns of a side on two files,
    // lances and knights beside pawns and kings).
    let shogi =
        PlacementTable::<Shogi>::new(&material_from_spec([2, 0, 2, 2, 2, 0, 0, 0])).unwrap();
    let mut checked = 0;
    for (k, w) in shogi.core().iter() {
        if k.iter().map(|&x| x as u32).sum::<u32>() <= 2 {
            assert_eq!(w, core_brute_force::<Shogi>(&k), "Shogi K({k:?})");
            checked += 1;
        }
    }
    assert_eq!(checked, 1 + 6 + 21);
}

/// `|S| / |P_K|` against the placement filter's pass rate on uniform samples of `P_K`, and
/// the check filter's rate on samples of `S` against its rate on the samples of `P_K` that
/// pass the placement filter: both within 5 standard errors.
fn rates_agree<G: Game>(n_pk: u64, n_s: u64) {
    let pk = full_table::<G>();
    let s = full_placement_table::<G>();
    let share = {
        let a = num_traits::ToPrimitive::to_f64(&s.count()).unwrap();
        let b = num_traits::ToPrimitive::to_f64(&pk.count()).unwrap();
        a / b
    };
    let sampler = Sampler::new(pk, 11);
    let (mut placed, mut placed_check) = (0u64, 0u64);
    for i in 0..n_pk {
        let p = sampler.sample(i);
        if placement_ok(&p) {
            placed += 1;
            placed_check += check_ok(&p) as u64;
        }
    }
    let z = (placed as f64 / n_pk as f64 - share) / (share * (1.0 - share) / n_pk as f64).sqrt();
    assert!(
        z.abs() < 5.0,
        "placement rate {placed}/{n_pk} against |S|/|P_K| = {share}: z = {z:.2}"
    );

    let ss = PlacementSampler::new(s, 12);
    let mut s_check = 0u64;
    for i in 0..n_s {
        let p = ss.sample(i);
        assert!(
            placement_ok(&p),
            "sample {i} of S fails the placement filter"
        );
        s_check += check_ok(&p) as u64;
    }
    let (p1, p2) = (
        s_check as f64 / n_s as f64,
        placed_check as f64 / placed as f64,
    );
    let pooled = (s_check + placed_check) as f64 / (n_s + placed) as f64;
    let z2 =
        (p1 - p2) / (pooled * (1.0 - pooled) * (1.0 / n_s as f64 + 1.0 / placed as f64)).sqrt();
    assert!(
        z2.abs() < 5.0,
        "check rate on S {p1:.5} against P_K given placement {p2:.5}: z = {z2:.2}"
    );
}

#[test]
fn rates_agree_with_candidate_sampling_shogi() {
    rates_agree::<Shogi>(1_000_000, 100_000);
}

#[test]
fn rates_agree_with_candidate_sampling_mini() {
    rates_agree::<MiniShogi>(200_000, 200_000);
}

#[test]
fn full_sizes() {
    // Printed by `shogi-count count --space placement-legal`; confirmed above by the
    // enumerations of reduced material and the sampling rates of the full games.
    assert_eq!(
        full_placement_table::<Shogi>().count().to_string(),
        "3061946014629782898209609153148603825516405472791147447142577969020272"
    );
    assert_eq!(
        full_placement_table::<MiniShogi>().count().to_string(),
        "12874031393035140270"
    );
}

#[test]
fn samples_are_reproducible() {
    let s = full_placement_table::<Shogi>();
    let a = PlacementSampler::new(s, 9);
    let b = PlacementSampler::new(s, 9);
    let c = PlacementSampler::new(s, 10);
    let mut differ = 0;
    for i in [0, 1, 2, 1000, u64::MAX] {
        assert_eq!(a.sample(i), b.sample(i));
        differ += (a.sample(i) != c.sample(i)) as u32;
    }
    assert_eq!(differ, 5);
}

/// Each lance and knight is drawn on its own, square by square, and the whole core is drawn
/// again on any collision; the cores must still be uniform. Here Black's unpromoted lances
/// and knights are the only core pieces besides the kings (`k = (0, 0, lances, 0, knights,
/// 0)`), so the samples with that `k` are uniform over its valid cores, and the distribution
/// of the lance and knight squares is proportional to the number of king placements that
/// avoid them all, counted by brute force. Compared by chi-square.
fn group_squares_uniform(spec: [u8; 8], lances: u32, knights: u32, n: u64, seed: u64) {
    type G = Shogi;
    let table = PlacementTable::<G>::new(&material_from_spec(spec)).unwrap();
    let squares: Vec<_> = (0..G::SQUARES as u8)
        .filter_map(shogi_core::Square::from_index_in::<G>)
        .collect();
    let kings: Vec<(u32, u32)> = squares
        .iter()
        .flat_map(|&b| squares.iter().map(move |&w| (b, w)))
        .filter(|&(b, w)| kings_k_canonical::<G>(b, w))
        .map(|(b, w)| (b.index() as u32, w.index() as u32))
        .collect();
    let allowed_squares = |kind| -> Vec<u32> {
        squares
            .iter()
            .filter(|s| allowed::<G>(Color::Black, kind, s.y::<G>() as u32))
            .map(|s| s.index() as u32)
            .collect()
    };
    // Every valid choice of squares: (lance set, knight set) as bitboards.
    let mut lance_sets = vec![0u128];
    for _ in 0..lances {
        lance_sets = lance_sets
            .iter()
            .flat_map(|&set| {
                allowed_squares(PieceKind::Lance)
                    .into_iter()
                    // In increasing order, so that each set comes once.
                    .filter(move |&s| 1u128 << s > set)
                    .map(move |s| set | 1u128 << s)
            })
            .collect();
    }
    let knight_squares = allowed_squares(PieceKind::Knight);
    let mut expected: HashMap<(u128, u128), (u64, u64)> = HashMap::new();
    for &l in &lance_sets {
        let mut knight_sets = vec![0u128];
        for _ in 0..knights {
            knight_sets = knight_sets
                .iter()
                .flat_map(|&set| {
                    knight_squares
                        .iter()
                        .filter(move |&&s| 1u128 << s > set && l & 1u128 << s == 0)
                        .map(move |&s| set | 1u128 << s)
                })
                .collect();
        }
        for &nset in &knight_sets {
            let used = l | nset;
            let ways = kings
                .iter()
                .filter(|&&(b, w)| used & (1u128 << b | 1u128 << w) == 0)
                .count() as u64;
            expected.insert((l, nset), (ways, 0));
        }
    }
    let sampler = PlacementSampler::new(&table, seed);
    let mut kept = 0u64;
    for i in 0..n {
        let p = sampler.sample(i);
        let l = p.pieces(Color::Black, PieceKind::Lance).0;
        let nset = p.pieces(Color::Black, PieceKind::Knight).0;
        let others = p.pieces(Color::White, PieceKind::Lance).0
            | p.pieces(Color::White, PieceKind::Knight).0;
        if l.count_ones() != lances || nset.count_ones() != knights || others != 0 {
            continue;
        }
        kept += 1;
        expected
            .get_mut(&(l, nset))
            .unwrap_or_else(|| panic!("sample {i} has a core outside S: {}", p.to_sfen()))
            .1 += 1;
    }
    let total: u64 = expected.values().map(|&(w, _)| w).sum();
    assert!(
        kept as f64 > 10.0 * expected.len() as f64,
        "{kept} samples kept for {} cells",
        expected.len()
    );
    let mut cells: Vec<_> = expected.into_iter().collect();
    cells.sort_unstable();
    let (mut stat, mut df) = (0.0f64, 0.0f64);
    for (_, (w, observed)) in cells {
        let e = w as f64 / total as f64 * kept as f64;
        stat += (observed as f64 - e).powi(2) / e;
        df += 1.0;
    }
    df -= 1.0;
    let limit = df + 7.0 * (2.0 * df).sqrt() + 10.0;
    assert!(stat < limit, "{spec:?}: chi2 = {stat:.0} with {df} df");
}

#[test]
fn two_lances_of_a_side_are_uniform() {
    // 2556 cells; about one sample in 18 has both lances unpromoted on Black's side.
    group_squares_uniform([2, 0, 0, 2, 0, 0, 0, 0], 2, 0, 600_000, 31);
}

#[test]
fn a_lance_and_a_knight_of_a_side_are_uniform() {
    group_squares_uniform([2, 0, 1, 1, 0, 0, 0, 0], 1, 1, 1_000_000, 32);
}
