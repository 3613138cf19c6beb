//! The positions of a command: SFENs given as arguments, or one a line on standard input.

use std::io::{BufRead, IsTerminal};

/// One input SFEN and where it came from, for error messages.
pub struct Input {
    /// `argument` or `line`.
    pub what: &'static str,
    /// Its 1-based number among the arguments or the lines.
    pub n: usize,
    /// The text, trimmed.
    pub sfen: String,
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
            eprintln!("shogi-count: reading SFENs from the terminal, one a line (Ctrl-D ends)");
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
            eprintln!("shogi-count: no positions read from standard input");
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
            what,
            n,
            sfen: sfen.to_string(),
        });
        Ok(())
    })?;
    Ok(all)
}
