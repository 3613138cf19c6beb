//! One check's questions: the depth-limited answers, the walk, the moves of a node, the
//! recorded rest, and the search for a line that leaves no pieces against a brute force.

use super::super::testing::{opts, problem, usi};
use super::*;
use crate::defender::with_defender_hand;
use shogi_core::{MoveList, Shogi};

/// The mate in 3 N*8d 9c8d 7b8b, recorded; the position as a check reads it, with the
/// defender's hand of the options; a solver started on it, as the check's first search
/// leaves it.
fn sound3() -> (Problem<Shogi>, Position<Shogi>, Solver<Shogi>) {
    let p = problem("1+L7/k1+B6/s8/9/9/9/9/9/9 b N 1", Some(3), "N*8d 9c8d 7b8b");
    let root = with_defender_hand(&p.position, opts().mate.defender_hand);
    let mut solver = Solver::new(opts().mate);
    solver.search_mut().start(&root);
    (p, root, solver)
}

/// A question is answered both ways by its depth limit, and its nodes are the check's.
#[test]
fn within_answers_by_the_depth_limit() {
    let (p, root, mut solver) = sound3();
    let mut c = Checker::new(&mut solver, &root, &p);
    assert_eq!(c.within(&root, 1), Some(false));
    let nodes = c.nodes;
    assert_eq!(c.within(&root, 3), Some(true));
    assert!(c.nodes > nodes);
    assert_eq!(c.undecided, 0);
}

/// The walk starts from either side: from the defender's node, with its longest reply.
#[test]
fn a_walk_is_a_line_of_the_length_asked_from_either_side() {
    let (p, root, mut solver) = sound3();
    let mut c = Checker::new(&mut solver, &root, &p);
    let line = c.walk(&root, 3).unwrap();
    assert_eq!(usi(&line), ["N*8d", "9c8d", "7b8b"]);
    let mut after = root.clone();
    after.play_unchecked(line[0]);
    assert_eq!(usi(&c.walk(&after, 2).unwrap()), ["9c8d", "7b8b"]);
}

/// An attacker node's moves are its checks only.
#[test]
fn the_moves_of_an_attacker_node_are_checks() {
    let (p, root, mut solver) = sound3();
    let mut c = Checker::new(&mut solver, &root, &p);
    let checks = c.moves(&root, true);
    assert!(usi(&checks).contains(&"N*8d".to_string()));
    for mv in checks {
        let mut next = root.clone();
        next.play_unchecked(mv);
        assert!(
            next.in_check(!root.side_to_move()),
            "{}",
            mv.to_usi::<Shogi>()
        );
    }
}

/// The recorded solution is taken from where the main line stands, and only as a mating
/// line of exactly the plies left.
#[test]
fn the_recorded_rest_is_a_mate_of_the_plies_left() {
    let (p, root, mut solver) = sound3();
    let c = Checker::new(&mut solver, &root, &p);
    let recorded = p.solution.clone().unwrap();
    assert_eq!(c.recorded_rest(0, &root, 3), Some(recorded.clone()));
    let mut after = root.clone();
    after.play_unchecked(recorded[0]);
    assert_eq!(c.recorded_rest(1, &after, 2), Some(recorded[1..].to_vec()));
    assert_eq!(c.recorded_rest(0, &root, 5), None);
    assert_eq!(
        c.recorded_rest(1, &root, 2),
        None,
        "not legal from the root"
    );
}

/// The length of the shortest mate of `pos` (attacker to move) within `most` plies, by
/// plain minimax over the legal moves, with no table: the check's conventions (a defender
/// left only futile drops is mated) but nothing of the search.
fn brute_attack(pos: &Position<Shogi>, most: u32) -> Option<u32> {
    if most == 0 {
        return None;
    }
    let mut checks = MoveList::new();
    pos.legal_checks(&mut checks);
    let mut best = None;
    for &mv in checks.iter() {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        if let Some(n) = brute_defend(&next, most - 1) {
            best = Some(best.map_or(n + 1, |b: u32| b.min(n + 1)));
        }
    }
    best
}

/// [`brute_attack`] with the defender to move: 0 when mated, else the longest reply's.
fn brute_defend(pos: &Position<Shogi>, most: u32) -> Option<u32> {
    if crate::verify::mated(pos, true) {
        return Some(0);
    }
    let mut replies = MoveList::new();
    pos.legal_moves(&mut replies);
    let mut longest = 0;
    for &mv in replies.iter() {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        longest = longest.max(brute_attack(&next, most.checked_sub(1)?)? + 1);
    }
    Some(longest)
}

/// Whether some line of exactly `left` plies from `pos`, whose shortest mate is `left`,
/// with the attacker shortest and the defender longest at every move, ends with the
/// attacker's hand empty: every such line enumerated.
fn brute_empty(pos: &Position<Shogi>, attacker: shogi_core::Color, left: u32) -> bool {
    if left == 0 {
        return pos.hand(attacker).is_empty();
    }
    let or_node = pos.side_to_move() == attacker;
    let mut moves = MoveList::new();
    if or_node {
        pos.legal_checks(&mut moves);
    } else if !crate::verify::mated(pos, true) {
        pos.legal_moves(&mut moves);
    }
    moves.iter().any(|&mv| {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        let keeps = if or_node {
            brute_defend(&next, left - 1) == Some(left - 1)
        } else {
            brute_attack(&next, left - 1) == Some(left - 1)
        };
        keeps && brute_empty(&next, attacker, left - 1)
    })
}

/// The search for a line that leaves no pieces ([`Checker::empty_line`]) against the
/// brute force above, on the mates in 1 and 3 of testdata/mate/shogi_shortest.tsv (from
/// games), from the root and after each check that keeps a mate in 3: the same answer
/// everywhere, and both answers met.
#[test]
fn the_search_for_an_empty_line_agrees_with_a_brute_force() {
    let set = include_str!("../../../../../testdata/mate/shogi_shortest.tsv");
    let mut seen = [0u32; 2];
    for row in set
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (sfen, len) = row.split_once('\t').unwrap();
        let len: u32 = len.trim().parse().unwrap();
        if len > 3 {
            continue;
        }
        let p = problem(sfen, Some(len), "");
        let root = with_defender_hand(&p.position, opts().mate.defender_hand);
        let attacker = root.side_to_move();
        // The length under the convention on futile drops, which the set's engine does
        // not apply: at most the set's.
        let len = brute_attack(&root, len).expect(sfen);
        let mut solver = Solver::new(opts().mate);
        solver.search_mut().opts.futile_interpositions = true;
        solver.search_mut().start(&root);
        let mut c = Checker::new(&mut solver, &root, &p);
        let mut nodes = vec![(root.clone(), len)];
        if len == 3 {
            let mut checks = MoveList::new();
            root.legal_checks(&mut checks);
            for &mv in checks.iter() {
                let mut next = root.clone();
                next.play_unchecked(mv);
                if brute_defend(&next, 2) == Some(2) {
                    nodes.push((next, 2));
                }
            }
        }
        for (pos, left) in nodes {
            let expected = brute_empty(&pos, attacker, left);
            let found = c.empty_line(&pos, left).expect("decided");
            assert_eq!(found.is_some(), expected, "{sfen}, {} plies left", left);
            if let Some(line) = found {
                assert_eq!(line.len(), left as usize);
                assert!(c.ends_empty(&pos, &line), "{sfen}: the line leaves pieces");
            }
            seen[usize::from(expected)] += 1;
        }
    }
    assert!(seen[0] > 0 && seen[1] > 0, "both answers met: {seen:?}");
}
