//! Arbitrary bytes as SFEN text: the unchecked and the checked readers of both games, and
//! move generation on whatever they accept.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shogi_core::{
    AnyPosition, Game, MiniShogi, Move, PieceKind, Position, PositionErrors, Relax, Setup, Shogi,
};
use shogi_count_fuzz::{assert_invariants, assert_same, with_game};

/// Above this many legal moves, the per-child checks look at every 8th child only (perft(2)
/// is still compared in full), so that crowded boards do not starve the rest of the run.
const FULL_CHILD_CHECK: usize = 160;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    setup_round_trip::<Shogi>(&text);
    setup_round_trip::<MiniShogi>(&text);
    match AnyPosition::from_sfen_with(&text, Relax::CANDIDATE) {
        Ok(any) => with_game!(any, |p| check_position(&p, &text)),
        // Strict reading accepts less than the candidate reading.
        Err(_) => assert!(AnyPosition::from_sfen(&text).is_err()),
    }
});

/// `Setup::from_sfen` never panics; what it reads writes back to text that reads back to
/// the same setup; `into_position(relax)` accepts exactly the setups whose `validate()`
/// lies within what `relax` lets through, and never relaxes the essential rules.
fn setup_round_trip<G: Game>(text: &str) {
    let Ok(setup) = Setup::<G>::from_sfen(text) else {
        return;
    };
    let written = setup.to_sfen();
    let again = Setup::<G>::from_sfen(&written).expect("written SFEN reads back");
    assert_eq!(again, setup, "{written}");
    assert_eq!(again.to_sfen(), written);
    let errors = setup.validate();
    for bits in 0..8u8 {
        let relax = Relax::from_bits_truncate(bits);
        let allowed = relax.errors();
        assert!(!allowed.intersects(PositionErrors::ESSENTIAL));
        match setup.clone().into_position(relax) {
            Ok(p) => {
                assert!(
                    allowed.contains(errors),
                    "{written}: {errors} accepted with {relax:?}"
                );
                assert_eq!(p.validate(), errors);
                assert_eq!(p.to_sfen(), written);
                assert_invariants(&p);
            }
            Err(e) => {
                assert!(
                    !allowed.contains(errors),
                    "{written}: rejected with {relax:?}: {e}"
                );
                assert_eq!(e.errors(), errors - allowed, "{written}");
                assert!(!e.reason().is_empty());
            }
        }
    }
}

fn check_position<G: Game>(p: &Position<G>, text: &str) {
    assert_invariants(p);
    // The SFEN round trip, move number and key included.
    let written = p.to_sfen();
    let q = Position::<G>::from_sfen_with(&written, Relax::CANDIDATE).expect("reads back");
    assert_same(&q, p, &written);
    assert_eq!(q.to_sfen(), written);
    // The strict reader takes exactly the candidates that break no rule.
    assert_eq!(
        Position::<G>::from_sfen(text).is_ok(),
        p.validate().is_empty(),
        "{written}"
    );

    let moves = p.moves();
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert!(
        sorted.windows(2).all(|w| w[0] != w[1]),
        "{written}: duplicate moves"
    );
    assert_eq!(p.count_moves(), moves.len() as u64, "{written}");
    assert_eq!(p.has_legal_move(Default::default()), !moves.is_empty());
    // `is_legal` generates the whole list: a few are enough.
    for &m in moves.iter().take(3).chain(moves.last()) {
        assert!(p.is_legal(m), "{written}: {}", m.to_usi::<G>());
    }

    let before = p.placement_errors();
    let stride = if moves.len() > FULL_CHILD_CHECK { 8 } else { 1 };
    let mut leaves = 0u64;
    for (i, &m) in moves.iter().enumerate() {
        let mut child = p.clone();
        child.play_unchecked(m);
        if i % stride != 0 {
            leaves += child.count_moves();
            continue;
        }
        let reply = child.moves();
        leaves += reply.len() as u64;
        let usi = m.to_usi::<G>();
        assert_invariants(&child);
        assert_eq!(child.material(), p.material(), "{written}: {usi}");
        assert_eq!(child.side_to_move(), !p.side_to_move());
        assert_ne!(child, *p, "{written}: {usi} changed nothing");
        // A legal move never leaves the mover in check ...
        assert!(!child.in_check(p.side_to_move()), "{written}: {usi}");
        // ... nor makes a dead piece or a second pawn on a file ...
        assert!(
            before.contains(child.placement_errors()),
            "{written}: {usi} gives {}",
            child.placement_errors()
        );
        // ... nor mates with a dropped pawn (the pawn giving check; the opponent may have
        // been in check already, by another piece, in a relaxed position).
        if let Move::Drop {
            kind: PieceKind::Pawn,
            to,
        } = m
        {
            assert!(
                !(reply.is_empty() && child.checkers().has(to)),
                "{written}: {usi} is drop-pawn-mate"
            );
        }
    }
    assert_eq!(p.perft(2), leaves, "{written}");
}
