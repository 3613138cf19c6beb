//! Reader for perft suites (`testdata/perft/*.perft`): blocks of `id`, `sfen` and
//! `perft DEPTH COUNT` lines separated by blank lines; `#` starts a comment line.
//! Shared by the test suite and `cargo xtask perft`.

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
