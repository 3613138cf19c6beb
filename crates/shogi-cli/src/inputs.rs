//! The positions of a command: SFENs given as arguments, or one a line on standard input.

use std::io::BufRead;

/// One input SFEN and where it came from, for error messages.
pub struct Input {
    /// `argument` or `line`.
    pub what: &'static str,
    /// Its 1-based number among the arguments or the lines.
    pub n: usize,
    /// The text, trimmed.
    pub sfen: String,
}

/// Calls `f` on every non-blank input in order: the arguments, or without any the lines
/// of standard input. Stdin is read as bytes, so a line that is not UTF-8 is one (invalid)
/// input, not the end of the stream.
pub fn for_each(
    sfens: &[String],
    mut f: impl FnMut(&'static str, usize, &str) -> Result<(), String>,
) -> Result<(), String> {
    if sfens.is_empty() {
        let mut input = std::io::stdin().lock();
        let mut buf = Vec::new();
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
                f("line", n, line.trim())?;
            }
        }
    } else {
        for (i, s) in sfens.iter().enumerate() {
            if !s.trim().is_empty() {
                f("argument", i + 1, s.trim())?;
            }
        }
    }
    Ok(())
}

/// Every non-blank input, read up front.
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
