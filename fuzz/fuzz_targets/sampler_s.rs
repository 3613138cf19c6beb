//! The sampler of the placement-legal subspace `S` (`PlacementTable`, `PlacementSampler`,
//! as the estimate draws through `SampleSource`): from the input a game, a material, the
//! king placements (all, or both kings on the centre file), a seed and a sample index.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shogi_core::{Color, Game, Material, MiniShogi, PieceKind, Position, Shogi};
use shogi_count_fuzz::assert_invariants;
use shogi_count_fuzz::materials::{mini_material, shogi_material};
use shogi_estimate::SampleSource;
use shogi_rank::filters::{classify_legal, placement_ok, FilterOutcome};
use shogi_rank::{
    count_placement_legal, full_placement_table, full_table, kings_k_canonical, KingSet,
    PlacementSampler, PlacementTable, RankTable,
};
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

fuzz_target!(|data: &[u8]| {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let word = |at: usize| {
        let mut b = [0u8; 8];
        for (j, x) in data.iter().skip(at).take(8).enumerate() {
            b[j] = *x;
        }
        u64::from_le_bytes(b)
    };
    let flags = byte(0);
    let kings = if flags & 2 != 0 {
        KingSet::CentreFile
    } else {
        KingSet::All
    };
    let (seed, index) = (word(2), word(10));
    if flags & 1 == 0 {
        check::<Shogi>(shogi_material(byte(1)), kings, seed, index);
    } else {
        check::<MiniShogi>(mini_material(byte(1)), kings, seed, index);
    }
});

/// The tables of one material and king set: `S`, and `P_K` of the material.
struct Tables<G: Game> {
    s: &'static PlacementTable<G>,
    pk: &'static RankTable<G>,
}

/// The tables of `material` (built on first use and kept for the process: the materials
/// come from a bounded list, see `shogi_count_fuzz::materials`). The full material's `S`
/// and `P_K` (of every king placement) are the shared tables the estimate uses.
fn tables<G: Game>(material: Material, kings: KingSet) -> Tables<G> {
    type Key = (&'static str, Material, bool);
    static CACHE: OnceLock<Mutex<HashMap<Key, &'static (dyn Any + Send + Sync)>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let centre = kings == KingSet::CentreFile;
    let entry = *cache.entry((G::NAME, material, centre)).or_insert_with(|| {
        let full = material == G::MATERIAL;
        let pk: &'static RankTable<G> = if full {
            full_table::<G>()
        } else {
            Box::leak(Box::new(
                RankTable::<G>::new(&material).expect("a valid material"),
            ))
        };
        let s: &'static PlacementTable<G> = if full && !centre {
            full_placement_table::<G>()
        } else {
            Box::leak(Box::new(
                PlacementTable::<G>::with_kings(&material, kings).expect("a valid material"),
            ))
        };
        // Checked once per table: S is a part of P_K, and |S| is what the estimate counts.
        assert_eq!(s.material(), &material);
        assert!(s.count_u256() <= pk.count_u256(), "{material}: |S| > |P_K|");
        if !centre {
            assert_eq!(
                count_placement_legal::<G>(&material),
                Ok(s.count()),
                "{material}"
            );
        }
        let t: &'static (dyn Any + Send + Sync) = Box::leak(Box::new((s, pk)));
        t
    });
    let &(s, pk) = entry
        .downcast_ref::<(&'static PlacementTable<G>, &'static RankTable<G>)>()
        .expect("keyed by the game's name");
    Tables { s, pk }
}

fn check<G: Game>(material: Material, kings: KingSet, seed: u64, index: u64) {
    let t = tables::<G>(material, kings);
    if t.s.count_u256().is_zero() {
        // No placement-legal position of this material (none in these lists): nothing to
        // draw.
        return;
    }
    let sampler = PlacementSampler::new(t.s, seed);
    let pos = sampler.sample(index);
    let sfen = pos.to_sfen();
    let what = format!("{} {material} seed {seed} index {index}: {sfen}", G::NAME);

    // A position of the candidate space of the material.
    assert_invariants(&pos);
    assert_eq!(pos.side_to_move(), Color::Black, "{what}");
    assert_eq!(pos.material(), material, "{what}");
    let (bk, wk) = (
        pos.king(Color::Black).unwrap(),
        pos.king(Color::White).unwrap(),
    );
    assert!(
        kings_k_canonical::<G>(bk, wk),
        "{what}: kings not K-canonical"
    );
    if kings == KingSet::CentreFile {
        let centre = G::WIDTH / 2;
        assert!(bk.x::<G>() == centre && wk.x::<G>() == centre, "{what}");
    }
    // It passes the piece-placement filter, by the filter's own test and by a count here.
    assert!(placement_ok(&pos), "{what}");
    assert!(pos.placement_errors().is_empty(), "{what}");
    assert_ne!(classify_legal(&pos), FilterOutcome::Placement, "{what}");
    placement_by_hand(&pos, &what);
    // Its rank in P_K is below |P_K| and unranks back to it.
    let r =
        t.pk.rank_u256(&pos)
            .unwrap_or_else(|e| panic!("{what}: no rank in P_K: {e}"));
    assert!(r < t.pk.count_u256(), "{what}: rank {r}");
    assert_eq!(t.pk.unrank_u256(r).as_ref(), Ok(&pos), "{what}: rank {r}");

    // The same (seed, index) is the same position, through a new sampler and through the
    // estimate's `SampleSource`.
    let again = PlacementSampler::new(t.s, seed).sample(index);
    assert_eq!(again, pos, "{what}: drawn twice");
    assert_eq!(again.key(), pos.key());
    let source = SampleSource::sample(&sampler, index);
    assert_eq!(source, pos, "{what}: through SampleSource");
}

/// The placement rules counted square by square: no unpromoted pawn or lance on its
/// side's last rank, no unpromoted knight on its last two, no two unpromoted pawns of a
/// side on one file.
fn placement_by_hand<G: Game>(pos: &Position<G>, what: &str) {
    for color in Color::ALL {
        let last = G::last_rank(color);
        let mut files = 0u32;
        for sq in pos.pieces(color, PieceKind::Pawn) {
            assert_ne!(sq.y::<G>(), last, "{what}: a dead pawn");
            let bit = 1 << sq.x::<G>();
            assert_eq!(files & bit, 0, "{what}: two pawns on a file");
            files |= bit;
        }
        for sq in pos.pieces(color, PieceKind::Lance) {
            assert_ne!(sq.y::<G>(), last, "{what}: a dead lance");
        }
        for sq in pos.pieces(color, PieceKind::Knight) {
            assert!(sq.y::<G>().abs_diff(last) >= 2, "{what}: a dead knight");
        }
    }
}
