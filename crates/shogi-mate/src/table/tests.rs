//! The table's rules: superiority, depth bounds, runs of one board, collections.

use super::*;

use crate::hand::packed as hand;
use crate::numbers::INF;

#[test]
fn a_table_too_large_is_an_error_and_sizes_are_known_before() {
    assert!(Table::try_new(usize::MAX, true).is_err());
    assert!(Table::try_new(usize::MAX / 64, false).is_err());
    assert_eq!(Table::bytes_for(usize::MAX), None);
    let t = Table::try_new(1000, true).expect("a small table");
    assert_eq!(t.capacity(), 1000, "the size asked for, not a power of two");
    assert_eq!(
        Table::bytes_for(1000),
        Some(1000 * core::mem::size_of::<Slot>())
    );
    assert_eq!(Table::new(1000, true).capacity(), t.capacity());
    assert_eq!(Table::new(3, true).capacity(), MIN_ENTRIES);
    // 100 MiB of 32-byte entries is 100 MiB.
    assert_eq!(Table::bytes_for(100 << 15), Some(100 << 20));
    assert_eq!(
        Table::bytes_for(Table::entries_in(100 << 20)),
        Some(100 << 20)
    );
}

/// A table of any size finds what it stores, over the end of its slots too, and its
/// collections keep it whole.
#[test]
fn a_table_of_any_size_keeps_its_runs_whole() {
    for size in [100, 1000, 777] {
        let mut t = Table::new(size, true);
        assert_eq!(t.capacity(), size);
        let key = |n: u64| n.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let h = hand([1, 0, 0, 0, 0, 0, 0]);
        for n in 0..(size as u64 / 2) {
            t.store(key(n), h, 5, 7, 0, n);
        }
        for n in 0..(size as u64 / 2) {
            let p = t.probe(key(n), h, u16::MAX);
            assert!(p.hit == Hit::Miss || (p.pn, p.dn) == (5, 7));
        }
        // Keys at the top of the range land in the last slots and wrap round.
        let top = u64::MAX;
        assert_eq!(t.shared.home(top), size - 1);
        for n in 0..4u64 {
            t.store(top - 2 * n, h, 9, 9, 0, 1 << 20);
        }
        for n in 0..4u64 {
            assert_eq!(t.probe(top - 2 * n, h, u16::MAX).pn, 9, "{size}");
        }
        for n in 0..(size as u64 * 4) {
            t.store(key(n + 1000), h, 3, 3, 0, n);
        }
        assert!(t.stats().collections > 0);
        assert!(t.fill() <= 0.75);
    }
}

#[test]
fn a_proof_answers_superior_hands_and_a_disproof_inferior_ones() {
    let mut t = Table::new(1 << 10, true);
    let gold = hand([0, 0, 0, 0, 1, 0, 0]);
    t.store(77, gold, 0, INF, 1, 5);
    let rich = hand([3, 0, 0, 1, 2, 0, 1]);
    let p = t.probe(77, rich, u16::MAX);
    assert_eq!((p.pn, p.dn, p.pieces, p.hit), (0, INF, gold, Hit::Superior));
    assert_eq!(t.probe(77, gold, u16::MAX).hit, Hit::Exact);
    assert_eq!(
        t.probe(77, hand([3, 0, 0, 1, 0, 0, 1]), u16::MAX).hit,
        Hit::Miss
    );
    assert_eq!(t.probe(79, rich, u16::MAX).hit, Hit::Miss);

    let d = hand([2, 0, 0, 0, 0, 0, 0]);
    t.store(99, d, INF, 0, u16::MAX, 5);
    assert_eq!(t.probe(99, hand([1, 0, 0, 0, 0, 0, 0]), u16::MAX).dn, 0);
    assert_eq!(t.probe(99, PackedHand::EMPTY, u16::MAX).dn, 0);
    assert_eq!(
        t.probe(99, hand([1, 0, 0, 0, 0, 0, 1]), u16::MAX).hit,
        Hit::Miss
    );
    let stats = t.stats();
    assert_eq!((stats.exact_hits, stats.superior_hits), (1, 3));
}

/// A disproof that rests on the depth limit answers only as deep or deeper.
#[test]
fn a_bounded_disproof_answers_only_within_its_bound() {
    let mut t = Table::new(64, true);
    let h = hand([1, 0, 0, 0, 0, 0, 0]);
    t.store(9, h, INF, 0, 5, 1);
    assert_eq!(t.probe(9, h, 5).dn, 0);
    assert_eq!(t.probe(9, h, 3).dn, 0);
    assert_eq!(t.probe(9, h, 6).hit, Hit::Miss);
    // An unbounded disproof replaces it; a bounded one never replaces an unbounded.
    t.store(9, h, INF, 0, u16::MAX, 1);
    assert_eq!(t.probe(9, h, 100).dn, 0);
    t.store(9, h, INF, 0, 2, 1);
    assert_eq!(t.probe(9, h, 100).dn, 0);
}

#[test]
fn without_superiority_only_the_exact_hand_answers() {
    let mut t = Table::new(64, false);
    let gold = hand([0, 0, 0, 0, 1, 0, 0]);
    t.store(77, gold, 0, INF, 1, 5);
    assert_eq!(
        t.probe(77, hand([0, 0, 0, 0, 2, 0, 0]), u16::MAX).hit,
        Hit::Miss
    );
    assert_eq!(t.probe(77, gold, u16::MAX).pn, 0);
}

#[test]
fn open_entries_update_and_never_hide_a_final_one() {
    let mut t = Table::new(64, true);
    let h = hand([1, 0, 0, 0, 0, 0, 0]);
    t.store(5, h, 3, 4, 0, 1);
    assert_eq!(
        (t.probe(5, h, u16::MAX).pn, t.probe(5, h, u16::MAX).dn),
        (3, 4)
    );
    t.store(5, h, 6, 2, 0, 2);
    assert_eq!(
        (t.probe(5, h, u16::MAX).pn, t.probe(5, h, u16::MAX).dn),
        (6, 2)
    );
    t.store(5, h, 0, INF, 3, 9);
    t.store(5, h, 7, 7, 0, 1);
    assert_eq!(t.probe(5, h, u16::MAX).pn, 0);
    t.clear();
    assert_eq!(t.probe(5, h, u16::MAX).hit, Hit::Miss);
}

/// Without superiority, a proof or a wider disproof replaces a disproof bounded by the
/// depth limit for the same hand only where it answers; a shorter proof replaces a
/// longer one; entries of one hand that answer at different depths stay side by side.
#[test]
fn results_of_one_hand_answer_each_at_its_depths() {
    let mut t = Table::new(64, false);
    let h = hand([1, 0, 0, 0, 0, 0, 0]);
    t.store(5, h, INF, 0, 2, 1);
    t.store(5, h, INF, 0, 1, 1);
    assert_eq!(t.probe(5, h, 2).dn, 0, "a narrower bound does not replace");
    t.store(5, h, INF, 0, 4, 1);
    assert_eq!(t.probe(5, h, 4).dn, 0, "a wider bound replaces");
    assert_eq!(t.used(), 1);
    t.store(5, h, 0, INF, 7, 1);
    let p = t.probe(5, h, u16::MAX);
    assert_eq!(
        (p.pn, p.len),
        (0, 7),
        "the proof answers with 7 plies left or more"
    );
    assert_eq!(
        t.probe(5, h, 4).dn,
        0,
        "the disproof still answers within 4"
    );
    assert_eq!(t.probe(5, h, 5).hit, Hit::Miss, "neither answers at 5 or 6");
    assert_eq!(t.probe(5, h, 6).hit, Hit::Miss);
    t.store(5, h, INF, 0, 5, 1);
    assert_eq!(t.probe(5, h, 5).dn, 0, "a wider disproof beside the proof");
    assert_eq!(t.used(), 2);
    t.store(5, h, 0, INF, 9, 1);
    assert_eq!(t.used(), 2, "a longer proof adds nothing");
    t.store(7, h, 0, INF, 9, 1);
    t.store(7, h, 0, INF, 7, 1);
    assert_eq!(
        t.probe(7, h, 7).pn,
        0,
        "a shorter proof answers where it can"
    );
    assert_eq!(t.used(), 3, "and replaces the longer one");
    t.store(9, h, INF, 0, u16::MAX, 1);
    t.store(9, h, 0, INF, 3, 1);
    assert_eq!(t.probe(9, h, u16::MAX).dn, 0, "an unbounded disproof stays");
}

/// With superiority, a proof of fewer pieces and one of a shorter mate both stay when
/// neither answers all the other does; a look-up takes the one that answers. The
/// shortest stored mate is found whatever the order (a proof stored first under a
/// longer depth limit would otherwise hide a shorter one from a look-up with many plies
/// left).
#[test]
fn proofs_of_fewer_pieces_and_of_shorter_mates_stay_side_by_side() {
    let mut t = Table::new(64, true);
    let gold = hand([0, 0, 0, 0, 1, 0, 0]);
    t.store(11, PackedHand::EMPTY, 0, INF, 9, 1);
    t.store(11, gold, 0, INF, 5, 1);
    assert_eq!(t.used(), 2);
    let p = t.probe(11, gold, 7);
    assert_eq!((p.pn, p.len, p.pieces), (0, 5, gold));
    assert_eq!(t.probe(11, PackedHand::EMPTY, 9).pn, 0);
    assert_eq!(t.probe(11, PackedHand::EMPTY, 7).hit, Hit::Miss);
    assert_eq!(t.shortest_proof(11, gold), Some(5));
    assert_eq!(t.shortest_proof(11, PackedHand::EMPTY), Some(9));
    assert_eq!(t.shortest_proof(13, gold), None);
    // An open entry of a hand a proof answers only with more plies left is kept
    // beside it: the search under a tighter limit needs its numbers.
    t.store(11, PackedHand::EMPTY, 3, 4, 0, 1);
    let p = t.probe(11, PackedHand::EMPTY, 7);
    assert_eq!((p.pn, p.dn, p.hit), (3, 4, Hit::Exact));
    assert_eq!(t.probe(11, PackedHand::EMPTY, 9).pn, 0);
}

/// Every hand of one board lives side by side, however many (a fixed cluster of eight
/// thrashed here), and boards whose runs meet do not hide each other.
#[test]
fn many_hands_of_one_board_all_stay() {
    let mut t = Table::new(1 << 10, true);
    let hands: Vec<PackedHand> = (0..60u8)
        .map(|n| hand([n % 19, n / 19, 0, 0, 0, 0, 0]))
        .collect();
    // Board 1 and board 1 + 2^7 share a home slot; 3 is the next one.
    for (n, &h) in hands.iter().enumerate() {
        t.store(1, h, 2 + n as u32, 3, 0, 1);
        t.store(1 + (1 << 7), h, 5, 6 + n as u32, 0, 1);
        t.store(3, h, 7, 8, 0, 1);
    }
    for (n, &h) in hands.iter().enumerate() {
        assert_eq!(t.probe(1, h, u16::MAX).pn, 2 + n as u32);
        assert_eq!(t.probe(1 + (1 << 7), h, u16::MAX).dn, 6 + n as u32);
        assert_eq!(t.probe(3, h, u16::MAX).hit, Hit::Exact);
    }
    assert_eq!(t.stats().replaced, 0);
    assert_eq!(t.stats().collections, 0);
    // A proof with no pieces makes every open hand of board 1 redundant: they become
    // tombstones, and the entries of the other boards behind them are still found.
    t.store(1, PackedHand::EMPTY, 0, INF, 5, 10);
    for &h in &hands {
        assert_eq!(
            t.probe(1, h, u16::MAX).hit,
            if h == PackedHand::EMPTY {
                Hit::Exact
            } else {
                Hit::Superior
            }
        );
        assert_eq!(t.probe(3, h, u16::MAX).hit, Hit::Exact);
        assert_eq!(t.probe(1 + (1 << 7), h, u16::MAX).hit, Hit::Exact);
    }
    assert!((t.fill() - 121.0 / 1024.0).abs() < 1e-12, "{}", t.fill());
}

/// A table that fills is collected: the least searched entries go, the most searched
/// stay and are all found again, and no look-up ever answers for an entry it was not
/// given (a wrong answer would be a wrong verdict).
#[test]
fn a_full_table_keeps_the_most_searched_entries() {
    let mut t = Table::new(256, true);
    let key = |n: u64| n.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let h = hand([1, 0, 0, 0, 0, 0, 0]);
    let mut since_last = 0;
    for n in 0..2000u64 {
        // Amount n: the later, the more searched.
        let before = t.stats().collections;
        t.store(key(n), h, 10 + (n % 7) as u32, 3, 0, n);
        if t.stats().collections > before {
            since_last = n;
        }
        assert!(t.fill() <= 0.75);
    }
    let s = t.stats();
    assert!(s.collections > 0 && s.replaced > 0, "{s:?}");
    let (mut found, mut amounts) = (0, 0u64);
    for n in 0..2000u64 {
        let p = t.probe(key(n), h, u16::MAX);
        match p.hit {
            Hit::Exact => {
                found += 1;
                amounts += n;
                assert_eq!(p.pn, 10 + (n % 7) as u32);
            }
            Hit::Miss => assert!(
                n < since_last,
                "entry {n}, stored after the last collection, went"
            ),
            Hit::Superior => panic!("no superior entry was stored"),
        }
    }
    assert_eq!(found, t.used());
    assert!(found >= 64, "{found}");
    // The survivors are the most searched: their mean amount is far above the mean of all.
    assert!(amounts / found as u64 > 1500, "{}", amounts / found as u64);
}

/// Random stores, look-ups and redundant entries against a plain list of what was
/// stored: exact open entries of colliding boards, without collections.
#[test]
fn open_entries_match_a_plain_model() {
    let mut t = Table::new(1 << 12, false);
    let mut model: std::collections::HashMap<(u64, u32), (u32, u32)> = Default::default();
    let mut x = 0x1234_5678_9abc_def1u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..2500 {
        // Few distinct homes, so that runs meet and interleave.
        let key = ((next() % 40) << 7) | (next() % 3) << 1 | 1;
        let h = hand([(next() % 4) as u8, 0, 0, 0, 0, 0, 0]);
        let (pn, dn) = (1 + (next() % 50) as u32, 1 + (next() % 50) as u32);
        t.store(key, h, pn, dn, 0, 1);
        model.insert((key, h.bits()), (pn, dn));
    }
    assert_eq!(t.stats().collections, 0);
    for (&(key, bits), &(pn, dn)) in &model {
        let h = (0..4)
            .map(|n| hand([n, 0, 0, 0, 0, 0, 0]))
            .find(|h| h.bits() == bits)
            .unwrap();
        let p = t.probe(key, h, u16::MAX);
        assert_eq!((p.pn, p.dn, p.hit), (pn, dn, Hit::Exact));
    }
    assert_eq!(t.used(), model.len());
}

/// Two threads, each with a handle on one small table, store and look up at once through
/// many collections: every answer is the entry stored for that board and hand (never
/// another's numbers); and what one handle stores, the other finds.
#[test]
fn two_handles_store_and_look_up_at_once() {
    let mut t = Table::new(1 << 10, true);
    let key = |n: u64| n.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    // The numbers stored for board n: a function of n alone, so a look-up can check them.
    let numbers = |n: u64| (2 + (n % 1000) as u32, 3 + (n % 7) as u32);
    let h = hand([1, 0, 0, 0, 0, 0, 0]);
    let mut other = t.share();
    std::thread::scope(|s| {
        let run = |t: &mut Table, first: u64| {
            for n in 0..20_000u64 {
                let (pn, dn) = numbers(first + n);
                t.store(key(first + n), h, pn, dn, 0, n);
                // Look up a board of this thread and one of the other's.
                for m in [first + n / 2, (first ^ 1 << 32) + n / 2] {
                    let p = t.probe(key(m), h, u16::MAX);
                    if p.hit != Hit::Miss {
                        assert_eq!((p.pn, p.dn), numbers(m), "board {m}");
                    }
                }
            }
        };
        let a = s.spawn(move || run(&mut other, 1 << 32));
        run(&mut t, 0);
        // A collection the other thread asks for now must not wait for this one.
        t.step_out();
        a.join().unwrap();
        t.step_in();
    });
    assert!(t.stats().collections > 0);
    assert!(t.fill() <= 0.75);
    let mut other = t.share();
    t.store(key(7), h, 0, INF, 9, 1 << 30);
    let p = other.probe(key(7), hand([2, 0, 0, 0, 0, 0, 0]), u16::MAX);
    assert_eq!((p.pn, p.len, p.hit), (0, 9, Hit::Superior));
}
