//! The defender's choices: the longest defence, the one that leaves no pieces, drops on one
//! square as one defence, and 変同 where it is one.

use crate::defender::{with_defender_hand, DefenderHand};
use crate::shortest::mates_within;
use crate::solver::Solver;
use crate::soundness::testing::{kinds, opts, problem, usi};
use crate::soundness::{check, Flaw, FlawKind, Soundness};
use shogi_core::{MoveList, Position, Relax, Shogi};

/// The defender longest: after 4b3a+ the king's 2a3a is mated in 3 plies in all, but
/// 2a1b resists to 5. A recorded solution that declares the 3 is shown the longer
/// defence at its ply.
#[test]
fn a_longer_defence_than_declared_is_placed_in_the_recorded_line() {
    let p = problem(
        "4pS1k1/5B3/5n3/6g2/9/9/9/9/9 b G 1",
        Some(3),
        "4b3a+ 2a3a G*3b",
    );
    let r = check(&p, &opts()).unwrap();
    assert_eq!(
        (r.verdict, r.length, r.declared),
        (Soundness::Flawed, Some(5), Some(3))
    );
    let flaws: Vec<&Flaw> = r.flaws.iter().filter(|f| f.kind.is_flaw()).collect();
    assert_eq!(flaws.len(), 1);
    let f = flaws[0];
    assert_eq!((f.kind, f.ply), (FlawKind::LongerVariation, 2));
    assert_eq!(usi(&f.moves[..1]), ["2a1b"]);
    assert_eq!(f.moves.len(), 4, "the defence and the mate after it");
    // The main line follows the recorded check, then leaves its defence for the longest.
    assert_eq!(usi(&r.main_line[..2]), ["4b3a+", "2a1b"]);
}

/// The defender's choice among equally long lines: after G*2c, 1b2a and 1b1a both last
/// five plies; 1b2a's ends with the pawn in the attacker's hand, 1b1a's uses it. The
/// main line takes 1b1a, and 1b2a is a variation, no 変同. The solver's own line took
/// 1b2a: without the rule the problem would be reported as 駒余り.
#[test]
fn the_defender_avoids_leaving_pieces_among_equal_lines() {
    let sfen = "9/5l2k/3B5/3s1N2S/9/9/9/9/9 b PG 1";
    let r = check(&problem(sfen, Some(5), ""), &opts()).unwrap();
    assert_eq!(r.verdict, Soundness::Sound, "{:?}", kinds(&r));
    assert_eq!(usi(&r.main_line), ["G*2c", "1b1a", "P*1b", "1a2a", "4d3b+"]);
    let pos = Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
    let mut solver = Solver::<Shogi>::new(opts().mate);
    let raw = solver.solve_shortest(&pos);
    assert_eq!(usi(&raw.moves[..2]), ["G*2c", "1b2a"]);
}

/// 変同: after P*1c both 1b2b and 1b1a hold out to the fifth ply and end with no
/// pieces left.
#[test]
fn an_equally_long_defence_is_an_equal_variation() {
    let r = check(
        &problem("9/8k/5B3/4l2Gl/7S1/9/9/9/9 b SP 1", None, ""),
        &opts(),
    )
    .unwrap();
    assert_eq!(r.verdict, Soundness::Flawed);
    assert_eq!(usi(&r.main_line[..2]), ["P*1c", "1b2b"]);
    assert_eq!(kinds(&r)[0], (FlawKind::EqualVariation, 2));
    assert_eq!(usi(&r.flaws[0].moves), ["1b1a", "S*1b", "1a2b", "1b2a+"]);
}

/// The defender's replies at the end of `prefix` from the problem `sfen` after which
/// the attacker has no mate within `left - 3` plies: the longest defences there.
fn longest(sfen: &str, prefix: &str, left: u32) -> Vec<String> {
    let pos = Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
    let mut pos = with_defender_hand(&pos, DefenderHand::Rest);
    let mut solver = Solver::<Shogi>::new(opts().mate);
    let s = solver.search_mut();
    s.opts.futile_interpositions = true;
    s.start(&pos);
    for m in prefix.split_whitespace() {
        pos.play_usi(m).unwrap();
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut out = Vec::new();
    for &mv in list.iter() {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        if left < 4 || mates_within(s, &next, left - 3) == Some(false) {
            out.push(mv.to_usi::<Shogi>());
        }
    }
    out
}

/// Two defences as long in the last two plies are no 変同 (composers do not call them
/// one): here the king's 9e9f and an interposition on 8d, which the horse takes with
/// mate, are each mated at the next ply.
#[test]
fn equal_defences_in_the_last_two_plies_are_no_variation() {
    let sfen = "+B8/9/2r6/9/k8/2+B6/9/9/9 b r4g4s4n4l18p 1";
    let last = longest(sfen, "9a7c", 2);
    assert_eq!(
        last,
        ["9e9f", "P*8d", "L*8d", "N*8d", "S*8d", "G*8d", "R*8d"]
    );
    let r = check(&problem(sfen, Some(3), ""), &opts()).unwrap();
    assert_eq!(r.verdict, Soundness::Sound);
}

/// Interpositions of different kinds on one square are one defence: after 6e6a+ the
/// defender may drop a knight or a bishop on 5a, each as long, and the problem is sound.
#[test]
fn drops_of_other_kinds_on_one_square_are_one_defence() {
    let sfen = "5k3/7S1/9/9/3R2g2/9/9/9/9 b PGS 1";
    let drops: Vec<String> = longest(sfen, "6e6a+", 6)
        .into_iter()
        .filter(|m| m.ends_with("*5a"))
        .collect();
    assert_eq!(drops, ["N*5a", "B*5a"]);
    let r = check(&problem(sfen, Some(7), ""), &opts()).unwrap();
    assert_eq!(r.verdict, Soundness::Sound, "{:?}", kinds(&r));
    assert_eq!(r.length, Some(7));
}

/// 変同 is decided over every line after a defence, not the one a walk takes: 将棋図巧 26
/// (testdata/mate/classics) from its eighth ply, where the defender's L*2d at the second
/// ply lasts as long as the main line's 2c3b, and one of the lines after it, not the
/// first one walked, uses every piece the attacker holds.
#[test]
fn an_equal_defence_is_judged_by_every_line_after_it() {
    let mut pos = Position::<Shogi>::from_sfen_with(
        "4p3n/3p4p/3S1p2r/6kg1/9/5LppN/9/9/9 b RB2Gbg3s2n3l12p 1",
        Relax::ATTACKER_WITHOUT_KING,
    )
    .unwrap();
    for m in "G*3e 3d3e R*4e 3e3d B*2e 2d2e 4e3e 3d2c".split_whitespace() {
        pos.play_usi(m).unwrap();
    }
    let p = problem(&pos.to_sfen(), Some(17), "");
    let r = check(&p, &opts()).unwrap();
    assert_eq!((r.verdict, r.length), (Soundness::Flawed, Some(17)));
    let equal: Vec<&Flaw> = r
        .flaws
        .iter()
        .filter(|f| f.kind == FlawKind::EqualVariation)
        .collect();
    assert_eq!(equal.len(), 1, "{:?}", kinds(&r));
    assert_eq!(equal[0].ply, 2);
    let defences = [usi(&r.main_line[1..2]), usi(&equal[0].moves[..1])].concat();
    assert!(
        defences.contains(&"L*2d".to_string()) && defences.contains(&"2c3b".to_string()),
        "{defences:?}"
    );
}
