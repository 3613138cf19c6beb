//! docs/RESULTS.md's table of systematic errors ("Systematic errors") against the checks
//! kept as data (`CHECKS`) and the committed state files: each row states the bounds that
//! `assess` computes for its file, each with its share of the half-width, so a new check, a
//! continued run or an edited row that disagrees fails here.

use shogi_estimate::{assess, RunState, Scope};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The row of the table that names `file`.
fn row<'a>(results: &'a str, file: &str) -> &'a str {
    let start = results
        .find("### Systematic errors")
        .expect("RESULTS has the section");
    results[start..]
        .lines()
        .find(|l| l.starts_with('|') && l.contains(&format!("`{file}`")))
        .unwrap_or_else(|| panic!("no row names {file}"))
}

#[test]
fn each_row_states_the_bounds_of_its_file() {
    let results = std::fs::read_to_string(root().join("docs/RESULTS.md")).unwrap();
    for file in [
        "results/mini-5digits.json",
        "results/shogi-5digits.json",
        "results/shogi-seed2027.json",
    ] {
        let state = RunState::load(&root().join(file)).unwrap_or_else(|e| panic!("{e}"));
        let a = assess(&state.config, &state.counters).unwrap();
        let r = row(&results, file);
        // A running file: the row holds while RESULTS is updated with each committed segment.
        assert!(
            r.contains(&format!("{:.3e}", a.relative_half_width)),
            "{file}: half-width {:.3e} not in {r}",
            a.relative_half_width
        );
        // Every scope has a check in both games.
        assert_eq!(a.bounds.len(), 3, "{file}");
        for b in &a.bounds {
            let text = format!(
                "{:.2e} ({:.3})",
                b.relative,
                b.relative / a.relative_half_width
            );
            assert!(
                r.contains(&text),
                "{file}, {:?}: {text} not in {r}",
                b.check.scope
            );
        }
        let pawn = a
            .bounds
            .iter()
            .find(|b| b.check.scope == Scope::PawnDropReading);
        assert!(
            pawn.is_some(),
            "{file}: the drop-pawn-mate reading is checked"
        );
    }
}
