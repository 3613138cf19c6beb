//! Checkmate search for Shogi and Mini Shogi: df-pn with proof and disproof pieces and a
//! transposition table that answers by superiority, and the possible pass count of
//! threatmate and brinkmate search. One generic code path serves both games.
//!
//! The method is written up in docs/METHOD.md §11–§13 of the repository. [`check`] reads a
//! composed problem as a composer would (§11.7): its length under the composers'
//! conventions, its main line, and its flaws (余詰, 早詰, 不詰, 駒余り, 変同).
//!
//! ```
//! use shogi_core::{Position, Shogi};
//! use shogi_mate::{MateOptions, Solver, Verdict};
//!
//! // A mate in 3 from YaneuraOu's published problem sets; White is the attacker.
//! let pos = Position::<Shogi>::from_sfen(
//!     "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
//! )
//! .unwrap();
//! let mut solver = Solver::new(MateOptions::default());
//! let result = solver.solve(&pos);
//! assert_eq!(result.verdict, Verdict::Mate);
//! // The line: White's checks and Black's longest resistance found in the proof (the
//! // shortest mate is 3 plies; the proof found need not be the shortest).
//! let plies = result.plies().unwrap();
//! assert!(plies >= 3 && plies % 2 == 1);
//! shogi_mate::verify_line(&pos, &result.moves).unwrap();
//! ```
#![deny(missing_docs)]

// The modules, from the search's parts up to the solvers. Each holds one idea of
// docs/METHOD.md §11–§13 with the unit tests of its rules; none imports one that imports it
// back.

// Values and rules the search is made of.
mod control;
mod defender;
pub mod futile;
mod hand;
mod keys;
mod node;
mod numbers;
mod options;
mod outcome;
pub mod pieces;
mod verify;

// The table and the path.
mod history;
mod slots;
mod table;

// A node: its children, their first estimates, its outcome once decided.
mod children;
mod estimate;
mod proof;

// The search loop, the line it proves, the shortest mate, and the solvers.
mod line;
mod pass;
mod search;
mod shortest;
mod solver;
mod threads;

// A composed problem checked against the composers' conventions.
mod soundness;

pub use control::{SearchControl, CHECK_INTERVAL};
pub use defender::{with_defender_hand, DefenderHand};
pub use hand::PackedHand;
pub use node::Defense;
pub use numbers::INF;
pub use options::{
    MateOptions, MateResult, PassOptions, PassResult, PassVerdict, SearchStats, Verdict,
    DEFAULT_MAX_DEPTH,
};
pub use pass::PassSolver;
pub use solver::Solver;
pub use soundness::{
    check, check_with, CheckError, CheckOptions, Flaw, FlawKind, Problem, Report, Soundness,
};
pub use table::{Hit, Probe, Table, TableBuilder, TableStats};
pub use verify::{verify_line, verify_line_with, LineError};

#[cfg(test)]
mod tests {
    /// The module map of docs/METHOD.md §11.6 names every module declared above, and no
    /// other, so that the map a reader follows is the code; a module whose parts have rows
    /// (`soundness/`) has one for every part it declares outside its tests.
    #[test]
    fn the_module_map_of_the_method_matches_the_modules() {
        let method = include_str!("../../../docs/METHOD.md");
        let start = method.find("### 11.6").expect("METHOD §11.6");
        let map = &method[start..start + method[start..].find("\n## ").expect("§12")];
        let rows: Vec<&str> = map
            .lines()
            .filter_map(|l| l.strip_prefix("| `")?.split_once(".rs`").map(|(m, _)| m))
            .collect();
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let read = |m: &str| std::fs::read_to_string(src.join(format!("{m}.rs"))).expect(m);
        // The modules a file declares, but for those of its tests.
        let declared_in = |code: &str| -> Vec<String> {
            let mut out = Vec::new();
            let mut test_only = false;
            for l in code.lines() {
                let l = l.strip_prefix("pub ").unwrap_or(l);
                if let Some(m) = l.strip_prefix("mod ").and_then(|l| l.strip_suffix(';')) {
                    if !test_only {
                        out.push(m.to_string());
                    }
                }
                test_only = l == "#[cfg(test)]";
            }
            out.sort_unstable();
            out
        };
        // Each file uses only those above it in the map: the map is an order of floors. A
        // part names the module's other parts through `super::`.
        let name = |used: &str| -> String {
            used.chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect()
        };
        for (i, m) in rows.iter().enumerate() {
            let code = read(m);
            let mut uses: Vec<String> = code.split("crate::").skip(1).map(name).collect();
            if let Some((dir, _)) = m.rsplit_once('/') {
                let parts = code.split("super::").skip(1).map(name);
                uses.extend(parts.map(|p| format!("{dir}/{p}")));
            }
            for used in uses {
                if let Some(j) = rows.iter().position(|n| *n == used) {
                    assert!(j < i, "{m}.rs uses {used}.rs, which the map puts below it");
                }
            }
        }
        let (parts, mut modules): (Vec<&str>, Vec<&str>) =
            rows.iter().partition(|m| m.contains('/'));
        modules.sort_unstable();
        assert_eq!(modules, declared_in(include_str!("lib.rs")));
        for m in modules {
            let mut mapped: Vec<&str> = parts
                .iter()
                .filter_map(|p| p.strip_prefix(m)?.strip_prefix('/'))
                .collect();
            if !mapped.is_empty() {
                mapped.sort_unstable();
                assert_eq!(mapped, declared_in(&read(m)), "the parts of {m}.rs");
            }
        }
    }
}
