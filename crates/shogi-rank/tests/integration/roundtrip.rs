//! rank ∘ unrank and unrank ∘ rank are the identity: random ranks and positions, both ends
//! of the range, and the boundaries between hand classes.

use crate::common;

use common::{random_position, roundtrip_rank};
use num_bigint::BigUint;
use proptest::prelude::*;
use shogi_core::{Game, MiniShogi, Shogi};
use shogi_rank::{full_table, RankTable, U256};
use shogi_verify::rng::test_rng;

fn ends<G: Game>(table: &RankTable<G>) {
    let total = table.count_u256();
    for i in 0..1000u64 {
        roundtrip_rank(table, U256::from(i));
        roundtrip_rank(table, total.checked_sub(U256::from(i + 1)).unwrap());
    }
    assert!(table.unrank_u256(total).is_err());
    assert!(table.unrank(&(table.count() + 5u32)).is_err());
    assert!(table.unrank(&(BigUint::from(1u8) << 300)).is_err());
}

#[test]
fn first_and_last_thousand_ranks() {
    ends(full_table::<Shogi>());
    ends(full_table::<MiniShogi>());
}

/// Round trips of the first and last rank of every `step`-th class (and of the last).
fn boundaries<G: Game>(table: &RankTable<G>, step: usize) {
    let n = table.class_count();
    let mut i = 0;
    while i < n {
        let c = table.class(i);
        assert!(!c.size.is_zero());
        let last = c
            .offset
            .checked_add(c.size)
            .unwrap()
            .checked_sub(U256::ONE)
            .unwrap();
        for r in [c.offset, last] {
            roundtrip_rank(table, r);
            assert_eq!(table.class_of(r), i);
            // The pieces in hand of the position are those of the class.
            let pos = table.unrank_u256(r).unwrap();
            for t in table.types() {
                let h = pos.hand(shogi_core::Color::Black).count(t.kind)
                    + pos.hand(shogi_core::Color::White).count(t.kind);
                let want = c.hand.iter().find(|(k, _)| *k == t.kind).map_or(0, |x| x.1);
                assert_eq!(h, want);
            }
        }
        if i + 1 < n {
            assert_eq!(
                c.offset.checked_add(c.size),
                Some(table.class(i + 1).offset)
            );
        } else {
            assert_eq!(c.offset.checked_add(c.size), Some(table.count_u256()));
        }
        i = if i + step >= n && i != n - 1 {
            n - 1
        } else {
            i + step
        };
    }
}

#[test]
fn every_mini_class_boundary() {
    boundaries(full_table::<MiniShogi>(), 1);
}

#[test]
fn shogi_class_boundaries() {
    // All 106,875 classes: first and last rank of each (about a second).
    boundaries(full_table::<Shogi>(), 1);
}

fn random_positions<G: Game>(seed: u64, n: usize) {
    let table = full_table::<G>();
    let mut rng = test_rng(seed);
    for _ in 0..n {
        let pos = random_position(table, &mut rng);
        let r = table
            .rank_u256(&pos)
            .unwrap_or_else(|e| panic!("{pos:?}: {e}"));
        assert!(r < table.count_u256());
        assert_eq!(table.unrank_u256(r).unwrap(), pos);
        assert_eq!(table.unrank(&table.rank(&pos).unwrap()).unwrap(), pos);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_shogi_ranks(l0: u64, l1: u64, l2: u64, l3: u64) {
        let t = full_table::<Shogi>();
        let x = U256::from_limbs([l0, l1, l2, l3 >> 20]).to_biguint() % t.count();
        let r = U256::from_biguint(&x).unwrap();
        roundtrip_rank(t, r);
        let pos = t.unrank(&x).unwrap();
        prop_assert_eq!(t.rank(&pos).unwrap(), x);
    }

    #[test]
    fn random_mini_ranks(l0: u64) {
        let t = full_table::<MiniShogi>();
        let x = BigUint::from(l0) % t.count();
        let pos = t.unrank(&x).unwrap();
        prop_assert_eq!(t.rank(&pos).unwrap(), x);
    }

    #[test]
    fn random_shogi_positions(seed: u64) {
        random_positions::<Shogi>(seed, 50);
    }

    #[test]
    fn random_mini_positions(seed: u64) {
        random_positions::<MiniShogi>(seed, 50);
    }
}
