//! The mate sets of `testdata/mate`, read as columns of their tab-separated lines, for the
//! benchmarks that run them (`mate-bench`, `usi-bench`).

use std::path::{Path, PathBuf};

/// The folder of the mate sets, `testdata/mate`.
pub(crate) fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/mate")
}

/// The SFENs (first column) of a set in `testdata/mate`.
pub(crate) fn sfens(file: &str) -> Result<Vec<String>, String> {
    column(file, 0)
}

/// Column `k` (tab-separated) of a data file's lines.
pub(crate) fn column(file: &str, k: usize) -> Result<Vec<String>, String> {
    let path = testdata().join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split('\t')
                .nth(k)
                .map(str::to_string)
                .ok_or_else(|| format!("{}: `{l}` has no column {}", path.display(), k + 1))
        })
        .collect()
}
