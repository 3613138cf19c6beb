//! `Position::legal_checks` lists exactly the legal moves that give check: compared with
//! filtering `legal_moves` by playing each move, on positions from random games (both
//! games, with and without kings left in hand-rich endgames) and on the crowded cshogi
//! positions of testdata/perft.

use shogi_core::{Game, MiniShogi, MoveList, Position, Relax, Shogi};
use shogi_verify::perft_file::read_suite;
use shogi_verify::rng::{below, test_rng};
use shogi_verify::sweep::random_start;

fn agree<G: Game>(pos: &Position<G>) {
    let them = !pos.side_to_move();
    let mut all = MoveList::new();
    pos.legal_moves(&mut all);
    let mut expected: Vec<String> = all
        .iter()
        .filter(|&&mv| {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            next.in_check(them)
        })
        .map(|m| m.to_usi::<G>())
        .collect();
    let mut checks = MoveList::new();
    pos.legal_checks(&mut checks);
    let mut got: Vec<String> = checks.iter().map(|m| m.to_usi::<G>()).collect();
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "{pos}");
}

fn random_games<G: Game>(seed: u64, games: usize) {
    let mut rng = test_rng(seed);
    for _ in 0..games {
        let mut pos = random_start::<G>(&mut rng);
        for _ in 0..120 {
            agree(&pos);
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[below(&mut rng, moves.len())]);
        }
    }
}

#[test]
fn checks_agree_in_random_shogi_games() {
    random_games::<Shogi>(31, 300);
}

#[test]
fn checks_agree_in_random_mini_shogi_games() {
    random_games::<MiniShogi>(32, 600);
}

#[test]
fn checks_agree_on_crowded_positions_and_without_the_attackers_king() {
    for case in read_suite("crowded.perft").expect("crowded.perft") {
        agree(&Position::<Shogi>::from_sfen(&case.sfen).expect("legal"));
    }
    let problem = Position::<Shogi>::from_sfen_with(
        "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1",
        Relax::ATTACKER_WITHOUT_KING,
    )
    .expect("a mate problem");
    agree(&problem);
}
