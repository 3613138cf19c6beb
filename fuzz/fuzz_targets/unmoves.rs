//! Unmove generation on a position (the input's first line if it is a candidate SFEN, else
//! a fixed one; a leading `!` selects the paper's drop-pawn rule), then the rest of the
//! input as unmove text and as raw take-backs (`Position::unplay`, `undo`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shogi_core::{Game, PawnDropRule, PieceKind, Position, Rules};
use shogi_count_fuzz::{
    assert_invariants, assert_same, garbage_move, position_or_fallback, with_game,
};
use shogi_retro::{
    count_unmoves, has_predecessor, predecessor, redo, undo, unmoves, Unmove, UnmoveList,
};

/// Children whose unmoves are generated per input at most (the completeness check costs one
/// unmove generation per legal move: all of them on a crowded board would be a millisecond).
const MAX_CHILDREN: usize = 6;
/// Predecessors checked in full per input at most (each costs a move generation).
const MAX_PREDECESSORS: usize = 8;
/// Raw take-backs tried per input at most.
const MAX_GARBAGE: usize = 32;

fuzz_target!(|data: &[u8]| {
    let (rules, data) = match data.strip_prefix(b"!") {
        Some(rest) => (
            Rules {
                pawn_drop: PawnDropRule::NoLegalReply,
            },
            rest,
        ),
        None => (Rules::default(), data),
    };
    let (pos, rest) = position_or_fallback(data);
    let seed = data
        .iter()
        .fold(0usize, |h, &b| h.wrapping_mul(31).wrapping_add(b as usize));
    with_game!(pos, |p| {
        soundness(&p, rules, seed);
        completeness(&p, rules, seed);
        take_backs(&p, rest);
    });
});

/// Every unmove names a legal predecessor in which its forward move is legal and leads back.
fn soundness<G: Game>(pos: &Position<G>, rules: Rules, seed: usize) {
    let sfen = pos.to_sfen();
    let mut list = UnmoveList::new();
    unmoves(pos, rules, &mut list);
    assert_eq!(count_unmoves(pos, rules), list.len(), "{sfen}");
    assert_eq!(has_predecessor(pos, rules), !list.is_empty(), "{sfen}");
    // A position breaking a placement rule, or whose side not to move is in check, was
    // reached by an illegal move if at all: it has no legal predecessor.
    if !pos.placement_errors().is_empty() || pos.in_check(!pos.side_to_move()) {
        assert!(list.is_empty(), "{sfen}: {} unmoves", list.len());
        return;
    }
    let mut sorted = list.clone();
    sorted.sort_unstable();
    assert!(
        sorted.windows(2).all(|w| w[0] != w[1]),
        "{sfen}: duplicate unmoves"
    );
    let stride = list.len().div_ceil(MAX_PREDECESSORS).max(1);
    for (i, &um) in list.iter().enumerate() {
        let text = um.to_text::<G>();
        assert_eq!(Unmove::from_text::<G>(&text), Ok(um), "{sfen}: {text}");
        let q = predecessor(pos, um).unwrap_or_else(|e| panic!("{sfen}: {text}: {e}"));
        assert_invariants(&q);
        assert_eq!(q.side_to_move(), !pos.side_to_move());
        assert_eq!(q.material(), pos.material(), "{sfen}: {text}");
        let mut back = q.clone();
        redo(&mut back, um);
        assert_eq!(back, *pos, "{sfen}: {text} from {q}");
        assert_eq!(back.key(), pos.key());
        assert!(
            q.validate().is_empty(),
            "{sfen}: {text}: {q} breaks {}",
            q.validate()
        );
        if i % stride != seed % stride {
            continue;
        }
        assert!(
            q.is_legal_with(rules, um.forward()),
            "{sfen}: {text}: not legal in {q}"
        );
        assert_eq!(
            Unmove::of_move(&q, um.forward()),
            Some(um),
            "{sfen}: {text}"
        );
    }
}

/// For legal moves of a legal position, the unmove of the move is among the child's.
fn completeness<G: Game>(pos: &Position<G>, rules: Rules, seed: usize) {
    if !pos.validate().is_empty() {
        return;
    }
    let sfen = pos.to_sfen();
    let mut moves = shogi_core::MoveList::new();
    pos.legal_moves_with(rules, &mut moves);
    let stride = moves.len().div_ceil(MAX_CHILDREN).max(1);
    let mut list = UnmoveList::new();
    for &m in moves.iter().skip(seed % stride).step_by(stride) {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let um = Unmove::of_move(pos, m).expect("a legal move has a piece on its origin");
        unmoves(&child, rules, &mut list);
        let text = um.to_text::<G>();
        assert!(
            list.contains(&um),
            "{sfen}: {text} missing from the unmoves of {child}"
        );
        let q = predecessor(&child, um).unwrap_or_else(|e| panic!("{sfen}: {text}: {e}"));
        assert_eq!(q, *pos, "{sfen}: {text}");
        assert_eq!(q.key(), pos.key());
        let mut back = child.clone();
        back.unplay(m, pos.piece_at(m.to()).map(|p| p.kind))
            .unwrap_or_else(|e| panic!("{sfen}: unplay {text}: {e}"));
        assert_eq!(back, *pos, "{sfen}: unplay {text}");
    }
}

/// Unmove text and raw bytes taken back: never a panic; an error changes nothing; a
/// take-back that fits keeps the invariants and is undone by playing the move again.
fn take_backs<G: Game>(pos: &Position<G>, rest: &[u8]) {
    for line in rest.split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        if let Ok(um) = Unmove::from_text::<G>(&text) {
            assert_eq!(um.to_text::<G>(), text, "unmove text does not write back");
            let mut p = pos.clone();
            match undo(&mut p, um) {
                Ok(()) => after_take_back(pos, &p, um.forward()),
                Err(_) => assert_same(&p, pos, &text),
            }
        }
    }
    for chunk in rest.chunks_exact(4).take(MAX_GARBAGE) {
        let Some((mv, captured)) = garbage_move(chunk.try_into().expect("4 bytes")) else {
            continue;
        };
        let mut p = pos.clone();
        match p.unplay(mv, captured) {
            Ok(()) => {
                after_take_back(pos, &p, mv);
                // What was taken back is what `Unmove::of_move` would have recorded.
                if let Some(Unmove::Normal { captured: c, .. }) = Unmove::of_move(&p, mv) {
                    assert_eq!(c, captured, "{pos}: {mv:?}");
                }
            }
            Err(_) => assert_same(&p, pos, &format!("unplay {mv:?} {captured:?}")),
        }
        // `undo` with the same move as an unmove of any piece kind.
        if let shogi_core::Move::Normal { from, to, promote } = mv {
            let piece = PieceKind::from_index(chunk[3] as usize % 14).expect("below 14");
            let um = Unmove::Normal {
                from,
                to,
                piece,
                promote,
                captured,
            };
            let mut p = pos.clone();
            match undo(&mut p, um) {
                Ok(()) => after_take_back(pos, &p, mv),
                Err(_) => assert_same(&p, pos, &format!("undo {um:?}")),
            }
        }
    }
}

fn after_take_back<G: Game>(pos: &Position<G>, p: &Position<G>, mv: shogi_core::Move) {
    assert_invariants(p);
    assert_eq!(p.material(), pos.material(), "{pos}: {mv:?} gives {p}");
    assert_eq!(p.side_to_move(), !pos.side_to_move());
    let mut again = p.clone();
    again.play_unchecked(mv);
    assert_eq!(again, *pos, "{pos}: {mv:?} taken back to {p} and replayed");
    assert_eq!(again.key(), pos.key());
}
