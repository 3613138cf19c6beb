//! Reader for perft suites (`testdata/perft/*.perft`): blocks of `id`, `sfen` and
//! `perft DEPTH COUNT` lines separated by blank lines; `#` starts a comment line.
//! Shared by the test suite and `cargo xtask perft`.

use shogi_core::{Game, Position};
use std::path::PathBuf;

/// Asserts `pos.perft(depth)` for every count of `case` of at most `budget` leaves (a
/// test's time bound); returns how many depths ran.
pub fn assert_counts<G: Game>(case: &PerftCase, pos: &Position<G>, budget: u64) -> usize {
    let mut ran = 0;
    for &(depth, expected) in case.counts.iter().filter(|&&(_, n)| n <= budget) {
        assert_eq!(
            pos.perft(depth),
            expected,
            "{} depth {depth}: {}",
            case.id,
            case.sfen
        );
        ran += 1;
    }
    ran
}

/// The path of `testdata/perft/<name>` in the workspace.
pub fn testdata_path(name: &str) -> PathBuf {
    [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "testdata",
        "perft",
        name,
    ]
    .iter()
    .collect()
}

/// The text of `testdata/perft/<name>`; the error names the path.
pub fn read_testdata(name: &str) -> Result<String, String> {
    let path = testdata_path(name);
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The suite `testdata/perft/<name>`, read and parsed; the error names the file.
pub fn read_suite(name: &str) -> Result<Vec<PerftCase>, String> {
    parse_perft_file(&read_testdata(name)?).map_err(|e| format!("{name}: {e}"))
}

/// One position of a suite with its expected counts.
#[derive(Debug, Clone)]
pub struct PerftCase {
    /// The name of the entry.
    pub id: String,
    /// The position.
    pub sfen: String,
    /// `(depth, count)` pairs.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a suite, reporting the line of the first malformed entry.
pub fn parse_perft_file(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    let mut cur: Option<PerftCase> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            cases.extend(cur.take());
            continue;
        }
        let (key, rest) = line
            .split_once(' ')
            .ok_or(format!("line {}: {line:?}", i + 1))?;
        let case = cur.get_or_insert_with(|| PerftCase {
            id: String::new(),
            sfen: String::new(),
            counts: Vec::new(),
        });
        match key {
            "id" => case.id = rest.to_string(),
            "sfen" => case.sfen = rest.to_string(),
            "perft" => {
                let (d, n) = rest
                    .split_once(' ')
                    .ok_or(format!("line {}: {line:?}", i + 1))?;
                let d = d
                    .parse()
                    .map_err(|_| format!("line {}: bad depth", i + 1))?;
                let n = n
                    .parse()
                    .map_err(|_| format!("line {}: bad count", i + 1))?;
                case.counts.push((d, n));
            }
            _ => return Err(format!("line {}: unknown key {key:?}", i + 1)),
        }
    }
    cases.extend(cur);
    if let Some(c) = cases
        .iter()
        .find(|c| c.sfen.is_empty() || c.counts.is_empty())
    {
        return Err(format!("entry {:?} lacks a sfen or a perft line", c.id));
    }
    Ok(cases)
}
