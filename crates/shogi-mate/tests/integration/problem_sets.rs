//! The committed problem sets of testdata/mate (made with cshogi's `DfPn`; see its
//! README): every mate proved with a line that replays, no no-mate called mate, and every
//! threat position given a pass count of 1 with a threat move cshogi confirmed.

use crate::common::problem;
use shogi_core::Shogi;
use shogi_mate::{
    verify_line, with_defender_hand, DefenderHand, Defense, MateOptions, PassOptions, PassSolver,
    PassVerdict, Solver, Verdict,
};

fn data(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/../../testdata/mate/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn solver() -> Solver<Shogi> {
    Solver::new(MateOptions {
        max_nodes: 4_000_000,
        table_entries: 1 << 21,
        ..MateOptions::default()
    })
}

#[test]
fn every_committed_mate_is_proved_with_a_line_that_replays() {
    let rows = data("shogi_mates.tsv");
    assert!(rows.len() >= 500, "{} mates", rows.len());
    let mut solver = solver();
    let mut failures = Vec::new();
    let mut longest = 0;
    for row in &rows {
        let pos = problem::<Shogi>(&row[0]);
        let r = solver.solve(&pos);
        if r.verdict != Verdict::Mate {
            failures.push(format!("{} {}", r.verdict.name(), row[0]));
            continue;
        }
        let root = with_defender_hand(&pos, DefenderHand::Rest);
        verify_line(&root, &r.moves).unwrap_or_else(|e| panic!("{}: {e}", row[0]));
        longest = longest.max(r.moves.len());
    }
    assert!(
        failures.is_empty(),
        "{} not proved:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        longest >= 31,
        "the set reaches mates of {longest} plies only"
    );
}

/// Every other no-mate of the set (the odd rows too would double the longest test of the
/// suite; `cargo xtask mate-bench` solves all of them).
#[test]
fn no_committed_no_mate_is_called_mate() {
    let all = data("shogi_nomates.tsv");
    assert!(all.len() >= 200, "{} no-mates", all.len());
    let rows: Vec<_> = all.iter().step_by(2).collect();
    let mut solver = solver();
    let mut disproved = 0;
    for row in &rows {
        let r = solver.solve(&problem::<Shogi>(&row[0]));
        assert_ne!(r.verdict, Verdict::Mate, "{}: {:?}", row[0], r.moves);
        disproved += (r.verdict == Verdict::NoMate) as usize;
    }
    assert!(
        disproved * 10 >= rows.len() * 9,
        "only {disproved} of {} disproved",
        rows.len()
    );
}

/// Threat positions: no mate, and a quiet move after which a pass loses to mate. The
/// threatmate search must give 1, and report a quiet move that cshogi confirmed as a
/// threat (the data lists every such move of each position).
#[test]
fn quiet_threats_have_a_pass_count_of_one() {
    let rows = data("shogi_threats.tsv");
    assert!(rows.len() >= 100, "{} threats", rows.len());
    let mut pc = PassSolver::<Shogi>::new(PassOptions {
        defense: Defense::None,
        max_passes: 1,
        max_nodes: 2_000_000,
        table_entries: 1 << 20,
        ..PassOptions::default()
    });
    let mut unknown = 0;
    for row in &rows {
        let pos = problem::<Shogi>(&row[0]);
        let r = pc.solve(&pos);
        if r.verdict == PassVerdict::Unknown {
            unknown += 1;
            continue;
        }
        assert_eq!(r.passes, Some(1), "{}", row[0]);
        let mv = r.first_move.expect("a proved count names a move");
        let usi = mv.to_usi::<Shogi>();
        let threats: Vec<&str> = row[1].split(' ').collect();
        assert!(
            threats.contains(&usi.as_str()),
            "{}: {usi} is not among the threats cshogi confirmed: {threats:?}",
            row[0]
        );
    }
    assert!(
        unknown * 10 <= rows.len(),
        "{unknown} of {} unknown",
        rows.len()
    );
}

/// "pc ≤ 0" is the mate search itself (docs/METHOD.md §13): on every 8th mate and no-mate
/// of the sets, `pass-count --max-passes 0` answers as `mate` does with the same nodes, and
/// a proved count's first move is the mating line's.
#[test]
fn a_pass_count_of_zero_costs_what_the_mate_costs() {
    let mut rows = data("shogi_mates.tsv");
    rows.extend(data("shogi_nomates.tsv"));
    let opts = PassOptions {
        max_passes: 0,
        max_nodes: 300_000,
        table_entries: 1 << 18,
        ..PassOptions::default()
    };
    let mut mate = Solver::<Shogi>::new(opts.mate_options());
    let mut pc = PassSolver::<Shogi>::new(opts);
    let (mut decided, mut nodes) = (0, 0);
    for row in rows.iter().step_by(8) {
        let pos = problem::<Shogi>(&row[0]);
        let m = mate.solve(&pos);
        let p = pc.solve(&pos);
        let expected = match m.verdict {
            Verdict::Mate => PassVerdict::Proved,
            Verdict::NoMate => PassVerdict::PassLimit,
            Verdict::Unknown => PassVerdict::Unknown,
        };
        assert_eq!(
            (p.verdict, p.nodes),
            (expected, m.stats.nodes),
            "{}",
            row[0]
        );
        assert_eq!(p.first_move, m.moves.first().copied(), "{}", row[0]);
        decided += usize::from(m.verdict != Verdict::Unknown);
        nodes += m.stats.nodes;
    }
    assert!(
        decided >= 100 && nodes > 100_000,
        "{decided} decided, {nodes} nodes"
    );
}

/// A solver of shortest mates with the shortest set's hands (as in the SFEN) and
/// `entries` table entries.
fn shortest_solver(entries: usize) -> Solver<Shogi> {
    Solver::new(MateOptions {
        max_nodes: 5_000_000,
        table_entries: entries,
        defender_hand: DefenderHand::Sfen,
        shortest: true,
        ..MateOptions::default()
    })
}

/// `--shortest` against the lengths KomoringHeights' MinLength proved
/// (`shogi_shortest.tsv`, hands as in the SFEN): the mates of 13 plies or more, each proved
/// exactly that long, with a line of that length that replays. (All 631 are the
/// `cargo xtask mate-bench --shortest-set` run of docs/BENCHMARKS.md.)
#[test]
fn the_long_shortest_mates_are_proved_at_their_known_length() {
    let rows = data("shogi_shortest.tsv");
    assert!(rows.len() >= 600, "{} positions", rows.len());
    let mut solver = shortest_solver(1 << 20);
    let mut checked = 0;
    for row in &rows {
        let want: u32 = row[1].parse().expect("a length");
        if want < 13 {
            continue;
        }
        let pos = problem::<Shogi>(&row[0]);
        let r = solver.solve(&pos);
        assert_eq!(r.shortest, Some(want), "{}", row[0]);
        assert_eq!(r.moves.len(), want as usize, "{}: the line", row[0]);
        assert!(r.line_minimax, "{}", row[0]);
        verify_line(&pos, &r.moves).unwrap_or_else(|e| panic!("{}: {e}", row[0]));
        checked += 1;
    }
    assert!(checked >= 50, "{checked} long mates");
}

/// With a table far too small for the searches of the shortest mate, the proofs the plan
/// of the line needs are collected away: the line is then walked with a search for each
/// move, and still has exactly the proved length (a line planned over what is left can be
/// shorter than the shortest mate, its defence not the longest). In these two mates of the
/// shortest set, with 2^14 entries, the plan falls short and the walk is needed.
#[test]
fn a_shortest_mate_keeps_its_length_when_the_table_is_too_small_for_the_plan() {
    let mut solver = shortest_solver(1 << 14);
    for (sfen, want) in [
        (
            "1n1+N3ng/+N2s1G2l/3pkgppb/p2Sr2Pp/L1pKb1P2/1P1Pp2r1/8P/1S1+p5/L4GS1L w 5p 1",
            19,
        ),
        (
            "2rG5/4L4/LpLkP2+B1/P2N3G1/s3B3n/4K4/1Pp2P+l2/G8/1+s2+s4 b GSN4Prn8p 1",
            23,
        ),
    ] {
        let row: Vec<String> = data("shogi_shortest.tsv")
            .into_iter()
            .find(|r| r[0] == sfen)
            .unwrap_or_else(|| panic!("{sfen} is in the set"));
        assert_eq!(row[1], want.to_string());
        let pos = problem::<Shogi>(sfen);
        let r = solver.solve(&pos);
        assert_eq!(r.shortest, Some(want), "{sfen}");
        assert!(r.stats.table.replaced > 0, "{sfen}: the table held all");
        assert!(r.line_minimax, "{sfen}");
        assert_eq!(r.moves.len(), want as usize, "{sfen}: the line");
        verify_line(&pos, &r.moves).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    }
}

/// The defender's hand is handled one way: a SFEN whose defender holds the rest (as every
/// position of a game does) searches under `DefenderHand::Sfen` exactly as under `Rest`,
/// node for node, so that the USI engine (whose default is the SFEN's hands) and the
/// command line (the rest) search a position the same. Every 16th mate and no-mate.
#[test]
fn a_defender_holding_the_rest_searches_the_same_under_both_conventions() {
    let mut rows = data("shogi_mates.tsv");
    rows.extend(data("shogi_nomates.tsv"));
    let opts = MateOptions {
        max_nodes: 200_000,
        table_entries: 1 << 18,
        ..MateOptions::default()
    };
    let mut rest = Solver::<Shogi>::new(opts);
    let mut sfen = Solver::<Shogi>::new(MateOptions {
        defender_hand: DefenderHand::Sfen,
        ..opts
    });
    let mut nodes = 0;
    for row in rows.iter().step_by(16) {
        let pos = with_defender_hand(&problem::<Shogi>(&row[0]), DefenderHand::Rest);
        let (r, s) = (rest.solve(&pos), sfen.solve(&pos));
        assert_eq!(
            (s.verdict, s.stats.nodes, &s.moves),
            (r.verdict, r.stats.nodes, &r.moves),
            "{}",
            row[0]
        );
        nodes += r.stats.nodes;
    }
    assert!(nodes > 100_000, "{nodes} nodes");
}
