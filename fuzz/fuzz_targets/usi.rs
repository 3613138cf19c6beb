//! A position (the input's first line if it is a candidate SFEN, else a fixed one) and
//! arbitrary USI text, one move per line, played with `play_usi`.
//!
//! A line `#N` plays the legal move number `N` (modulo their count) through its USI text, so
//! that the fuzzer can walk deep into games without having to guess legal moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shogi_core::{Game, MiniShogi, Move, Position, Shogi, UsiError};
use shogi_count_fuzz::{assert_invariants, assert_same, position_or_fallback, with_game};

/// Lines played per input at most.
const MAX_PLIES: usize = 24;

fuzz_target!(|data: &[u8]| {
    let (pos, rest) = position_or_fallback(data);
    let text = String::from_utf8_lossy(rest);
    with_game!(pos, |p| play_lines(p, &text));
});

fn play_lines<G: Game>(mut pos: Position<G>, text: &str) {
    let mut first = true;
    for line in text.lines().take(MAX_PLIES) {
        usi_syntax::<G>(line);
        // The other game reads the same text without panicking.
        usi_syntax::<Shogi>(line);
        usi_syntax::<MiniShogi>(line);

        let moves = pos.moves();
        if first {
            // Legal moves' text reads back as the move (every 8th: the lists reach 593).
            for &m in moves.iter().step_by(8) {
                assert_eq!(Move::from_usi::<G>(&m.to_usi::<G>()), Ok(m));
            }
            first = false;
        }
        let usi = match line.strip_prefix('#').and_then(|n| n.parse::<usize>().ok()) {
            Some(n) if !moves.is_empty() => moves[n % moves.len()].to_usi::<G>(),
            _ => line.to_string(),
        };
        let before = pos.clone();
        match pos.play_usi(&usi) {
            Ok(mv) => {
                assert!(moves.contains(&mv), "{before}: {usi} played but not listed");
                assert_eq!(Move::from_usi::<G>(&usi), Ok(mv));
                let mut expected = before.clone();
                expected.play_unchecked(mv);
                assert_same(&pos, &expected, &usi);
                assert_invariants(&pos);
                assert!(!pos.in_check(before.side_to_move()), "{before}: {usi}");
            }
            Err(e) => {
                assert_same(&pos, &before, &usi);
                match (e, Move::from_usi::<G>(&usi)) {
                    (UsiError::Syntax { .. }, Err(_)) => {}
                    (UsiError::Illegal(t), Ok(mv)) => {
                        assert_eq!(t, usi);
                        assert!(!moves.contains(&mv), "{before}: legal {usi} refused");
                        // `play` refuses it too, and changes nothing.
                        assert!(pos.play(mv).is_err());
                        assert_same(&pos, &before, &usi);
                    }
                    (e, parsed) => panic!("{usi}: play_usi says {e:?}, from_usi {parsed:?}"),
                }
            }
        }
    }
}

/// `Move::from_usi` never panics, and what it reads writes back to the same text.
fn usi_syntax<G: Game>(line: &str) {
    match Move::from_usi::<G>(line) {
        Ok(m) => {
            assert_eq!(m.to_usi::<G>(), line);
            if let Move::Normal { from, to, .. } = m {
                assert_ne!(from, to);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}
