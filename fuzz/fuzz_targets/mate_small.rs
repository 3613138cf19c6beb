//! The df-pn mate solver on small Mini Shogi problems, against a brute-force AND/OR search
//! (`shogi_count_fuzz::mate`): the defender's king and up to five pieces of either side on
//! the board or in hand, the attacker's king present or not, solved under random options
//! (defender hand `rest` or `sfen`, superiority on or off, node and depth limits, a table
//! from one cluster up, the shortest mate or the first, each search refinement on or off).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shogi_core::{Color, Hand, MiniShogi, Piece, PieceKind, Position, Relax, Setup, Square};
use shogi_count_fuzz::assert_invariants;
use shogi_count_fuzz::mate::{checks_by_filter, replay_mate_with, rest_hand, with_hands, Brute};
use shogi_mate::{verify_line_with, with_defender_hand, DefenderHand, MateOptions, Solver, Verdict};
use std::cell::RefCell;
use std::collections::HashMap;

type G = MiniShogi;

/// The solver's depth limits and node limits the input picks from.
const DEPTHS: [u32; 8] = [1, 3, 5, 7, 9, 13, 31, 255];
const NODES: [u64; 4] = [20, 100, 400, 1_000];
/// Pieces besides the kings, at most.
const MAX_PIECES: usize = 5;
/// The brute force's longest mate and its node budget for the root position; the checks
/// of proof and disproof pieces get a smaller budget of their own.
const BRUTE_PLIES: u32 = 7;
const BRUTE_BUDGET: u64 = 2_000;
const PIECES_BUDGET: u64 = 1_000;

/// The kinds a Mini Shogi board can hold besides kings.
const KINDS: [PieceKind; 10] = [
    PieceKind::Pawn,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::ProPawn,
    PieceKind::ProSilver,
    PieceKind::Horse,
    PieceKind::Dragon,
    PieceKind::Gold,
];

/// The options as a key (their `Debug` form: every field).
type OptionsKey = String;

thread_local! {
    /// Solvers reused from one input to the next, by options: a search must not depend on
    /// what the solver searched before.
    static SOLVERS: RefCell<HashMap<OptionsKey, Solver<G>>> = RefCell::new(HashMap::new());
}

/// A problem read from the input: the position (attacker to move) and the options.
struct Problem {
    pos: Position<G>,
    opts: MateOptions,
    /// Whether a fresh solver checks the reused one.
    fresh: bool,
}

fn read(data: &[u8]) -> Option<Problem> {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let flags = byte(0);
    let attacker = if flags & 1 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let opts = MateOptions {
        max_nodes: NODES[(byte(2) % 4) as usize],
        table_entries: if flags & 16 == 0 { 1 << 12 } else { 8 },
        max_depth: DEPTHS[(byte(1) % 8) as usize],
        defender_hand: if flags & 4 == 0 {
            DefenderHand::Rest
        } else {
            DefenderHand::Sfen
        },
        superiority: flags & 8 == 0,
        shortest: flags & 64 != 0,
        // The refinements each off for an input in eight.
        tca: byte(2) & 0x1c != 0x04,
        delay: byte(2) & 0x1c != 0x08,
        dn_lookahead: byte(2) & 0x1c != 0x0c,
        futile_interpositions: byte(2) & 0x20 != 0,
        threads: 1,
    };
    let square = |b: u8| Square::from_index_in::<G>(b % 25).expect("on the board");
    let mut s = Setup::<G>::empty();
    s.set_side_to_move(attacker);
    s.put(square(byte(3)), Piece::new(!attacker, PieceKind::King));
    let with_king = flags & 2 != 0;
    if with_king && s.piece_at(square(byte(4))).is_none() {
        s.put(square(byte(4)), Piece::new(attacker, PieceKind::King));
    }
    for pair in data.get(5..)?.chunks_exact(2).take(MAX_PIECES) {
        let kind = KINDS[(pair[0] & 15) as usize % KINDS.len()];
        // A quarter of the pieces are the defender's.
        let color = if pair[0] & 0x30 == 0x30 {
            !attacker
        } else {
            attacker
        };
        let at = pair[1] % 32;
        if at < 25 {
            let sq = square(at);
            if s.piece_at(sq).is_none() {
                s.put(sq, Piece::new(color, kind));
            }
        } else {
            let kind = kind.unpromoted();
            s.set_hand(color, kind, s.hand(color).count(kind) + 1);
        }
    }
    let relax = if with_king {
        Relax::empty()
    } else {
        Relax::ATTACKER_WITHOUT_KING
    };
    let pos = s.into_position(relax).ok()?;
    Some(Problem {
        pos,
        opts,
        fresh: flags & 32 != 0,
    })
}

fuzz_target!(|data: &[u8]| {
    if let Some(problem) = read(data) {
        check(&problem);
    }
});

fn check(problem: &Problem) {
    let Problem { pos, opts, fresh } = problem;
    assert_invariants_relaxed(pos);
    // The position as both solvers read it: under `rest`, the defender holds every piece
    // that is neither on the board nor in the attacker's hand.
    let root = with_defender_hand(pos, opts.defender_hand);
    if opts.defender_hand == DefenderHand::Rest {
        let attacker = pos.side_to_move();
        let mine = with_hands(pos, pos.hand(attacker), &rest_hand(pos)).expect("fits");
        assert_eq!(root, mine, "{pos}: the rest hand");
    } else {
        assert_eq!(&root, pos);
    }
    let sfen = root.to_sfen();
    let what = format!("{sfen} {opts:?}");

    // The solver's check generator lists exactly the legal moves that give check.
    let mut checks = shogi_core::MoveList::new();
    root.legal_checks(&mut checks);
    let mut by_filter = checks_by_filter(&root);
    let mut listed: Vec<_> = checks.to_vec();
    let key = |m: &shogi_core::Move| m.to_usi::<G>();
    listed.sort_by_key(key);
    by_filter.sort_by_key(key);
    assert_eq!(listed, by_filter, "{what}: legal_checks");

    // A solver reused from earlier inputs, and (for half the inputs) a fresh one: the
    // same answer.
    let result = SOLVERS.with(|solvers| {
        let mut solvers = solvers.borrow_mut();
        let key = format!("{opts:?}");
        let solver = solvers.entry(key).or_insert_with(|| Solver::new(*opts));
        solver.solve(pos)
    });
    if *fresh {
        let again = Solver::<G>::new(*opts).solve(pos);
        assert_eq!(result.verdict, again.verdict, "{what}: a reused solver");
        assert_eq!(result.moves, again.moves, "{what}: a reused solver");
        assert_eq!(result.pieces, again.pieces, "{what}: a reused solver");
    }

    let futile = opts.futile_interpositions;
    let mut brute = Brute::new(BRUTE_BUDGET).futile(futile);
    let (shortest, done) = brute.shortest_mate(&root, BRUTE_PLIES);
    let attacker = root.side_to_move();
    let hand = *root.hand(attacker);
    match result.verdict {
        Verdict::Mate => {
            let n = result.moves.len() as u32;
            let line: Vec<String> = result.moves.iter().map(|m| m.to_usi::<G>()).collect();
            let what = format!("{what}: mate in {n} {}", line.join(" "));
            assert!(n <= opts.max_depth, "{what}: longer than the depth limit");
            replay_mate_with(&root, &result.moves, futile)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            verify_line_with(&root, &result.moves, futile)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            if let Some(d) = shortest {
                assert!(n >= d, "{what}: shorter than the shortest mate, {d}");
            }
            // `--shortest`: a proved length is the brute force's (or beyond what it
            // searched), and a line planned or walked is never shorter (exactly as long
            // unless the walk ran out of nodes, which a small table and node limit allow).
            if let Some(s) = result.shortest {
                match shortest {
                    Some(d) => assert_eq!(s, d, "{what}: proved shortest {s}, brute force {d}"),
                    None => assert!(s > done, "{what}: proved shortest {s}, none within {done}"),
                }
                if result.line_minimax {
                    assert!(n >= s, "{what}: the line of a proved shortest mate, {s}");
                }
            }
            assert!(
                shortest.is_some() || n > done,
                "{what}: brute force finds no mate within {done}"
            );
            // The proof pieces are a part of the hand, and enough: the same board with
            // only them in the attacker's hand (the rest to the defender, under `rest`)
            // is mate within the depth limit.
            let p = result.pieces.expect("a mate has proof pieces");
            assert!(
                contains(&hand, &p),
                "{what}: proof pieces {p:?} beyond the hand"
            );
            // They are the pieces of the proof found, which need not be the line's: the
            // table keeps proofs of fewer pieces and of shorter mates side by side, and the
            // line takes the shortest. So they are enough for a mate within the depth
            // limit, not always within the line's length.
            let m = opts.max_depth;
            if m <= BRUTE_PLIES && p != hand {
                let inferior = rehand(&root, &p, opts.defender_hand);
                let mated = Brute::new(PIECES_BUDGET)
                    .futile(futile)
                    .mate_within(&inferior, m);
                assert_ne!(
                    mated,
                    Some(false),
                    "{what}: with the proof pieces {p:?}, {inferior} has no mate in {m}"
                );
            }
        }
        Verdict::NoMate => {
            assert_eq!(shortest, None, "{what}: no-mate, but brute force mates");
            // The disproof pieces contain the hand, and every hand they contain is
            // no-mate too: the largest the material allows must not be mate.
            let d = result.pieces.expect("a no-mate has disproof pieces");
            assert!(
                contains(&d, &hand),
                "{what}: disproof pieces {d:?} below the hand"
            );
            let most = largest_hand(&root, &d, opts.defender_hand);
            if most != hand {
                let superior = rehand(&root, &most, opts.defender_hand);
                let (mate, _) = Brute::new(PIECES_BUDGET).shortest_mate(&superior, BRUTE_PLIES);
                assert_eq!(
                    mate, None,
                    "{what}: disproof pieces {d:?}, but {superior} is mate"
                );
                let again = Solver::<G>::new(*opts).solve(&superior);
                assert_ne!(
                    again.verdict,
                    Verdict::Mate,
                    "{what}: disproof pieces {d:?}, but {superior} is mate"
                );
            }
        }
        Verdict::Unknown => {}
    }
}

/// The invariants of a position, allowing the attacker without a king.
fn assert_invariants_relaxed(pos: &Position<G>) {
    if pos.king(pos.side_to_move()).is_some() {
        assert_invariants(pos);
    } else {
        assert_eq!(pos.key(), pos.compute_key());
        assert!(pos.king(!pos.side_to_move()).is_some());
        assert!(pos.material().fits_in(&<G as shogi_core::Game>::MATERIAL));
    }
}

/// Whether hand `a` holds at least hand `b` of every kind.
fn contains(a: &Hand, b: &Hand) -> bool {
    PieceKind::HAND.iter().all(|&k| a.count(k) >= b.count(k))
}

/// `root` with the attacker holding `hand`: under `rest` the defender holds the rest,
/// under `sfen` the defender keeps its hand.
fn rehand(root: &Position<G>, hand: &Hand, convention: DefenderHand) -> Position<G> {
    let attacker = root.side_to_move();
    let defender = match convention {
        DefenderHand::Rest => {
            let mut rest = Hand::EMPTY;
            for kind in PieceKind::HAND {
                let off_board = root.hand(attacker).count(kind) + root.hand(!attacker).count(kind);
                rest.0[kind.index()] = off_board - hand.count(kind);
            }
            rest
        }
        DefenderHand::Sfen => *root.hand(!attacker),
    };
    with_hands(root, hand, &defender).expect("the hands fit in the material")
}

/// The largest attacker hand within the disproof pieces `d` that the material allows: under
/// `rest`, everything off the board; under `sfen`, what neither the board nor the
/// defender's hand holds.
fn largest_hand(root: &Position<G>, d: &Hand, convention: DefenderHand) -> Hand {
    let attacker = root.side_to_move();
    let mut most = Hand::EMPTY;
    for kind in PieceKind::HAND {
        let free = match convention {
            DefenderHand::Rest => {
                root.hand(attacker).count(kind) + root.hand(!attacker).count(kind)
            }
            DefenderHand::Sfen => {
                <G as shogi_core::Game>::MATERIAL.get(kind)
                    - (root.material().get(kind) - root.hand(attacker).count(kind))
            }
        };
        most.0[kind.index()] = d.count(kind).min(free);
    }
    most
}
