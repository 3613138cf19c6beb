//! The committed problem sets of testdata/mate (made with cshogi's `DfPn`; see its
//! README): every mate proved with a line that replays, no no-mate called mate, and every
//! threat position given a pass count of 1 with a threat move cshogi confirmed.

use shogi_core::{Position, Relax, Shogi};
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

fn read(sfen: &str) -> Position<Shogi> {
    Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
        .unwrap_or_else(|e| panic!("{sfen}: {e}"))
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
        let pos = read(&row[0]);
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
        let r = solver.solve(&read(&row[0]));
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
        let pos = read(&row[0]);
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
