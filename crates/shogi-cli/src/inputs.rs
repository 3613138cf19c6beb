//! The positions of a command: SFENs given as arguments, or one a line on standard input.

use crate::output::note;
use std::io::{BufRead, IsTerminal};

/// One input SFEN and where it came from, for error messages.
#[derive(Clone)]
pub struct Input {
    /// Where it came from: `argument 2`, `line 7`, `file p.kif`, `file p.sfen line 3`.
    pub place: String,
    /// The text, trimmed; for a KIF or CSA problem, the SFEN of its position.
    pub sfen: String,
    /// For a KIF or CSA problem, the moves the file records after the position (its
    /// solution), in USI; empty otherwise.
    pub moves: Vec<String>,
}

/// The formats of problem files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// By the file name: .kif/.kifu KIF, .ki2/.ki2u KI2, .csa CSA, anything else SFEN.
    Auto,
    /// A KIF board diagram (Shift_JIS or UTF-8), one problem a file.
    Kif,
    /// The board diagram of a KI2 file (its moves are not read).
    Ki2,
    /// A CSA file, one problem a file.
    Csa,
    /// One SFEN a line, blank lines skipped.
    Sfen,
}

impl Format {
    /// The format of `path` when this one is `Auto`.
    pub fn of(self, path: &std::path::Path) -> Format {
        if self != Format::Auto {
            return self;
        }
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("kif" | "kifu") => Format::Kif,
            Some("ki2" | "ki2u") => Format::Ki2,
            Some("csa") => Format::Csa,
            _ => Format::Sfen,
        }
    }

    /// Whether the files of this format say the defender's hand themselves (KIF, KI2, CSA),
    /// rather than leave it to `--defender-hand` (SFEN).
    pub fn gives_hands(self) -> bool {
        matches!(self, Format::Kif | Format::Ki2 | Format::Csa)
    }
}

/// A KIF, KI2 or CSA problem file read into its record.
pub fn read_problem(
    path: &std::path::Path,
    format: Format,
) -> Result<shogi_record::Record, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let text = shogi_record::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    match format {
        Format::Csa => shogi_record::csa::read(&text),
        Format::Ki2 => shogi_record::kif::read(&text, true),
        _ => shogi_record::kif::read(&text, false),
    }
    .map_err(|e| format!("{}: {e}", path.display()))
}

/// The inputs of problem files, in order: one a KIF, KI2 or CSA file, one a line of a SFEN
/// file (blank lines skipped).
pub fn from_files(paths: &[std::path::PathBuf], format: Format) -> Result<Vec<Input>, String> {
    let mut all = Vec::new();
    for path in paths {
        let place = format!("file {}", path.display());
        match format.of(path) {
            Format::Sfen => {
                let bytes =
                    std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
                for (i, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
                    if !line.trim().is_empty() {
                        all.push(Input {
                            place: format!("{place} line {}", i + 1),
                            sfen: line.trim().to_string(),
                            moves: Vec::new(),
                        });
                    }
                }
            }
            f => {
                let problem = read_problem(path, f)?;
                all.push(Input {
                    place,
                    sfen: problem.position.to_sfen(),
                    moves: problem
                        .moves
                        .iter()
                        .map(|m| m.to_usi::<shogi_core::Shogi>())
                        .collect(),
                });
            }
        }
    }
    Ok(all)
}

/// Calls `f` on every input in order: the arguments, or without any the lines of standard
/// input. Stdin is read as bytes, so a line that is not UTF-8 is one (invalid) input, not
/// the end of the stream.
///
/// Blank lines of standard input are skipped (a file may end with one, or separate groups
/// of positions), and a note on standard error says so when there was no position at all.
/// A blank argument is refused before `f` sees any input: it is a mistake (an unset shell
/// variable, an empty field), not a position, and no search should start before it shows.
pub fn for_each(
    sfens: &[String],
    mut f: impl FnMut(&'static str, usize, &str) -> Result<(), String>,
) -> Result<(), String> {
    if sfens.is_empty() {
        let mut input = std::io::stdin().lock();
        if input.is_terminal() {
            note!("shogi-count: reading SFENs from the terminal, one a line (Ctrl-D ends)");
        }
        let mut buf = Vec::new();
        let mut positions = 0u64;
        for n in 1.. {
            buf.clear();
            let read = input
                .read_until(b'\n', &mut buf)
                .map_err(|e| format!("reading standard input: {e}"))?;
            if read == 0 {
                break;
            }
            let line = String::from_utf8_lossy(&buf);
            if !line.trim().is_empty() {
                positions += 1;
                f("line", n, line.trim())?;
            }
        }
        if positions == 0 {
            note!("shogi-count: no positions read from standard input");
        }
    } else {
        if let Some(i) = sfens.iter().position(|s| s.trim().is_empty()) {
            return Err(format!("argument {} is empty: no position", i + 1));
        }
        for (i, s) in sfens.iter().enumerate() {
            f("argument", i + 1, s.trim())?;
        }
    }
    Ok(())
}

/// Every input, read up front, as [`for_each`] reads them.
pub fn collect(sfens: &[String]) -> Result<Vec<Input>, String> {
    let mut all = Vec::new();
    for_each(sfens, |what, n, sfen| {
        all.push(Input {
            place: format!("{what} {n}"),
            sfen: sfen.to_string(),
            moves: Vec::new(),
        });
        Ok(())
    })?;
    Ok(all)
}
