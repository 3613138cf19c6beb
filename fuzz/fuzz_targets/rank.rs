//! Ranking of the full-material candidate space `P_K` of both games: arbitrary bytes as a
//! big-endian number modulo `|P_K|` unrank and rank back; a SFEN on the input's first line
//! ranks and unranks back (or is refused for the documented reason).
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use shogi_core::{Color, Game, MiniShogi, Position, Shogi};
use shogi_count_fuzz::{assert_invariants, candidate, first_line, with_game};
use shogi_rank::{full_table, RankError, RankTable, U256};

fuzz_target!(|data: &[u8]| {
    // The tables are built once per process (about 40 ms for Shogi).
    let shogi = full_table::<Shogi>();
    let mini = full_table::<MiniShogi>();
    let n = BigUint::from_bytes_be(&data[..data.len().min(32)]);
    round_trip(shogi, &n);
    round_trip(mini, &n);
    let (line, _) = first_line(data);
    if let Some(pos) = candidate(&line) {
        with_game!(pos, |p| rank_position(full_table(), &p));
    }
});

/// `n mod |P_K|` unranks to a Black-to-move candidate of full material that ranks back to
/// it; `n` itself, if not below `|P_K|`, is refused as out of range.
fn round_trip<G: Game>(table: &RankTable<G>, n: &BigUint) {
    let count = table.count_u256();
    let r = U256::from_biguint(&(n % count.to_biguint())).expect("below |P_K|");
    let pos = table
        .unrank_u256(r)
        .unwrap_or_else(|e| panic!("rank {r} of {}: {e}", G::NAME));
    assert_invariants(&pos);
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.material(), G::MATERIAL, "{pos}");
    assert_eq!(table.rank_u256(&pos), Ok(r), "{pos}");
    // The BigUint interface agrees with the fixed-width one.
    assert_eq!(table.unrank(&r.to_biguint()).as_ref(), Ok(&pos));
    if let Some(big) = U256::from_biguint(n).filter(|&big| big >= count) {
        assert!(matches!(
            table.unrank_u256(big),
            Err(RankError::OutOfRange { .. })
        ));
    }
    assert!(
        matches!(table.unrank(n), Err(RankError::OutOfRange { .. })) == (*n >= count.to_biguint())
    );
}

/// A candidate ranks exactly when it is Black to move with the full material and a
/// K-canonical king placement, and then unranks back to itself; a non-K-canonical one's
/// mirror image ranks.
fn rank_position<G: Game>(table: &RankTable<G>, pos: &Position<G>) {
    let sfen = pos.to_sfen();
    match table.rank_u256(pos) {
        Ok(r) => {
            assert_eq!(pos.side_to_move(), Color::Black, "{sfen}");
            assert_eq!(pos.material(), G::MATERIAL, "{sfen}");
            assert!(r < table.count_u256(), "{sfen}: rank {r}");
            let back = table
                .unrank_u256(r)
                .unwrap_or_else(|e| panic!("{sfen}: {r}: {e}"));
            assert_eq!(back, *pos, "{sfen}: rank {r}");
            assert_eq!(back.key(), pos.key());
        }
        Err(RankError::WhiteToMove) => {
            assert_eq!(pos.side_to_move(), Color::White, "{sfen}");
            // Its colour-flipped twin is Black to move.
            let twin = pos.flip_colors();
            assert!(!matches!(
                table.rank_u256(&twin),
                Err(RankError::WhiteToMove)
            ));
        }
        Err(RankError::WrongMaterial { expected, found }) => {
            assert_eq!(pos.side_to_move(), Color::Black, "{sfen}");
            assert_eq!(expected, G::MATERIAL);
            assert_eq!(found, pos.material());
            assert_ne!(found, G::MATERIAL, "{sfen}");
        }
        Err(RankError::NotKCanonical) => {
            assert_eq!(pos.side_to_move(), Color::Black, "{sfen}");
            assert_eq!(pos.material(), G::MATERIAL, "{sfen}");
            let mirror = pos.hflip();
            assert_invariants(&mirror);
            let r = table
                .rank_u256(&mirror)
                .unwrap_or_else(|e| panic!("{sfen}: the mirror image {mirror} has no rank: {e}"));
            assert_eq!(table.unrank_u256(r).as_ref(), Ok(&mirror), "{sfen}");
        }
        Err(e) => panic!("{sfen}: {e}"),
    }
}
