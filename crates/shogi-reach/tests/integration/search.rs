//! The backward search on positions known to be reachable (docs/METHOD.md §9 lines, random legal
//! games) and on positions known not to be, with every certificate replayed forwards.

use shogi_core::{Game, MiniShogi, Move, MoveList, Position, Shogi};
use shogi_reach::{
    heuristic, is_kk, opening_line, Limits, SearchConfig, SearchOutcome, Searcher, Verdict, Weights,
};
use shogi_verify::rng::{below, chance, test_rng};

/// Searches `pos`, expecting it reachable, and checks the certificate and the statistics.
fn assert_reachable<G: Game>(searcher: &mut Searcher<G>, pos: &Position<G>) -> SearchOutcome<G> {
    let out = searcher.search(pos);
    assert_eq!(out.verdict, Verdict::Reachable, "{}", pos.to_sfen());
    let cert = out
        .certificate
        .as_ref()
        .expect("a reachable verdict has a certificate");
    assert!(
        is_kk(&cert.kk),
        "{} is not a KK position",
        cert.kk.to_sfen()
    );
    assert!(cert.kk.validate().is_empty(), "the KK position is legal");
    let end = cert
        .replay()
        .unwrap_or_else(|e| panic!("certificate of {} does not replay: {e:?}", pos.to_sfen()));
    assert_eq!(&end, pos, "the certificate ends at the target");
    assert!(out.stats.expanded as usize >= cert.moves.len().min(1));
    assert!(out.stats.peak_closed as u64 == out.stats.generated + 1);
    out
}

/// The positions along the docs/METHOD.md §9 line of `G` (its text is checked against docs/METHOD.md in
/// tests/integration/construct.rs), from the initial position to the KK position.
fn line_positions<G: Game>() -> Vec<Position<G>> {
    let mut p = Position::<G>::startpos();
    let mut all = vec![p.clone()];
    for m in opening_line::<G>().expect("the game has a docs/METHOD.md §9 line") {
        p.play(m).expect("the docs/METHOD.md §9 line is legal");
        all.push(p.clone());
    }
    all
}

#[test]
fn every_position_of_the_paper_line_is_reachable() {
    let mut searcher = Searcher::<Shogi>::new(SearchConfig::default());
    let line = line_positions::<Shogi>();
    assert_eq!(line.len(), 45);
    assert!(is_kk(line.last().unwrap()));
    for pos in &line {
        assert_reachable(&mut searcher, pos);
    }
    // The end of the line is a KK position: found at once, with an empty certificate.
    let out = assert_reachable(&mut searcher, line.last().unwrap());
    assert_eq!(out.stats.expanded, 0);
    assert!(out.certificate.unwrap().moves.is_empty());
}

#[test]
fn every_position_of_the_mini_line_is_reachable() {
    let mut searcher = Searcher::<MiniShogi>::new(SearchConfig::default());
    for pos in &line_positions::<MiniShogi>() {
        assert_reachable(&mut searcher, pos);
    }
}

/// Random legal games from the initial position; captures are preferred half of the time so
/// that hands fill and promoted pieces appear.
fn random_games<G: Game>(games: usize, plies: usize, seed: u64, every: usize) -> usize {
    let mut rng = test_rng(seed);
    let mut searcher = Searcher::<G>::new(SearchConfig::default());
    let mut checked = 0;
    for _ in 0..games {
        let mut p = Position::<G>::startpos();
        for ply in 0..plies {
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| matches!(*m, Move::Normal { to, .. } if p.piece_at(to).is_some()))
                .collect();
            let m = if !captures.is_empty() && chance(&mut rng, 1, 2) {
                captures[below(&mut rng, captures.len())]
            } else {
                moves[below(&mut rng, moves.len())]
            };
            p.play(m).unwrap();
            if ply % every == 0 {
                assert_reachable(&mut searcher, &p);
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn positions_of_random_shogi_games_are_reachable() {
    assert!(random_games::<Shogi>(12, 160, 1, 3) > 300);
}

#[test]
fn positions_of_random_mini_games_are_reachable() {
    assert!(random_games::<MiniShogi>(40, 80, 2, 1) > 1000);
}

#[test]
fn a_position_without_predecessors_is_unreachable_at_depth_zero() {
    // White's king in the corner, hemmed in by Black's bishops and rook: White (who just
    // moved) has nothing but the king, and the king can have come from nowhere — every
    // neighbouring square is occupied — so there is no predecessor at all.
    let p = Position::<Shogi>::from_sfen("kB7/BR7/9/9/9/9/9/9/4K4 b - 1").unwrap();
    assert!(p.validate().is_empty());
    let mut list = Vec::new();
    shogi_retro::unmoves(&p, Default::default(), &mut list);
    assert!(list.is_empty(), "{list:?}");
    let out = Searcher::<Shogi>::new(SearchConfig::default()).search(&p);
    assert_eq!(out.verdict, Verdict::Unreachable);
    assert_eq!(out.stats.max_depth, 0);
    assert_eq!(out.stats.expanded, 1);
    assert_eq!(out.stats.generated, 0);
    assert!(out.certificate.is_none());
}

#[test]
fn illegal_positions_are_unreachable_without_search() {
    // Kings adjacent: the side not to move is in check.
    let p = Position::<MiniShogi>::from_sfen_with(
        "5/5/2k2/2K2/5 b RBGSPrbgsp 1",
        shogi_core::Relax::CANDIDATE,
    )
    .unwrap();
    let out = Searcher::<MiniShogi>::new(SearchConfig::default()).search(&p);
    assert_eq!(out.verdict, Verdict::Unreachable);
    assert_eq!(out.stats.expanded, 0);
}

#[test]
fn limits_give_unknown_never_a_wrong_verdict() {
    let line = line_positions::<Shogi>();
    let pos = &line[20];
    let full = Searcher::<Shogi>::new(SearchConfig::default()).search(pos);
    assert_eq!(full.verdict, Verdict::Reachable);
    assert!(full.stats.expanded > 2);
    let limited = |limits| {
        Searcher::<Shogi>::new(SearchConfig {
            limits,
            ..SearchConfig::default()
        })
        .search(pos)
    };
    let out = limited(Limits {
        max_expanded: Some(1),
        max_nodes: None,
    });
    assert_eq!(out.verdict, Verdict::Unknown);
    assert!(out.certificate.is_none());
    assert_eq!(out.stats.expanded, 1);
    let out = limited(Limits {
        max_expanded: None,
        max_nodes: Some(5),
    });
    assert_eq!(out.verdict, Verdict::Unknown);
    assert!(out.stats.peak_closed <= 5);
    // A limit the search does not reach changes nothing.
    let out = limited(Limits {
        max_expanded: Some(full.stats.expanded + 1),
        max_nodes: Some(full.stats.peak_closed + 1),
    });
    assert_eq!(out.verdict, Verdict::Reachable);
    assert_eq!(out.stats, full.stats);
}

#[test]
fn a_searcher_gives_the_same_answer_when_reused() {
    let line = line_positions::<Shogi>();
    let mut reused = Searcher::<Shogi>::new(SearchConfig::default());
    for pos in line.iter().rev() {
        let a = reused.search(pos);
        let b = Searcher::<Shogi>::new(SearchConfig::default()).search(pos);
        assert_eq!(a.verdict, b.verdict);
        assert_eq!(a.stats, b.stats);
        assert_eq!(a.certificate, b.certificate);
    }
}

#[test]
fn the_heuristic_follows_spec_section_7() {
    // Shogi: a Black dragon on rank 9 (y = 8) is 6 ranks from Black's zone; a White horse
    // on rank 1 (y = 0) is 6 from White's; an unpromoted piece counts a only.
    let p = Position::<Shogi>::from_sfen("4k4/9/9/9/9/9/9/9/+R3K2+b1 b P 1").unwrap();
    let w = Weights::default();
    assert_eq!(heuristic(&p, w), (10 + 10 + 6) + (10 + 10));
    let p = Position::<Shogi>::from_sfen("+B3k4/9/9/9/9/9/9/9/4K3+r b P 1").unwrap();
    // Black horse on rank 1 is inside its zone (0); White dragon on rank 9 is in its zone.
    assert_eq!(heuristic(&p, w), 20 + 20);
    let p = Position::<Shogi>::from_sfen("4k4/9/9/+P8/9/9/9/9/4K4 b - 1").unwrap();
    assert_eq!(heuristic(&p, w), 10 + 10 + 1);
    let w2 = Weights { a: 3, b: 5, c: 7 };
    assert_eq!(heuristic(&p, w2), 3 + 5 + 7);
    // Mini Shogi: a Black promoted pawn on rank 5 (y = 4) is 4 ranks away; White's on rank
    // 1 is 4 away.
    let p = Position::<MiniShogi>::from_sfen("+p3k/5/5/5/K3+P b - 1").unwrap();
    assert_eq!(heuristic(&p, w), 2 * (10 + 10 + 4));
    let kk = Position::<MiniShogi>::from_sfen("4k/5/5/5/K4 b RBGSPrbgsp 1").unwrap();
    assert_eq!(heuristic(&kk, w), 0);
    assert!(is_kk(&kk));
}

/// A set cancel flag stops a search with `Unknown` before it expands anything, as a limit
/// would; cleared, the same searcher decides the position again.
#[test]
fn a_cancelled_search_is_unknown() {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let mut searcher = Searcher::<MiniShogi>::new(SearchConfig::default());
    searcher.set_cancel(Some(flag.clone()));
    let start = Position::<MiniShogi>::startpos();
    let out = searcher.search(&start);
    assert_eq!(out.verdict, Verdict::Unknown);
    assert_eq!(out.stats.expanded, 0);
    flag.store(false, std::sync::atomic::Ordering::Relaxed);
    assert_reachable(&mut searcher, &start);
    searcher.set_cancel(None);
    assert_reachable(&mut searcher, &start);
}
