//! What the user typed, quoted in an error message: in full when short, else its first
//! characters and its length, so that a pasted megabyte does not come back on the terminal.

/// Characters of a field shown before it is cut.
const SHOWN: usize = 40;

/// `text` between backquotes, cut to its first [`SHOWN`] characters with an ellipsis and
/// its length in bytes when longer: `` `abc` `` or `` `abcd…` (1048576 bytes) ``.
pub fn quoted(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(SHOWN).collect();
    if chars.next().is_some() {
        format!("`{head}…` ({} bytes)", text.len())
    } else {
        format!("`{head}`")
    }
}

/// Arguments at least this long are cut where a message repeats them. Longer than any
/// SFEN (about 100 bytes) and most paths, which a message should show whole.
const LONG: usize = 256;

/// `message` with every occurrence of a command-line argument of [`LONG`] bytes or more cut
/// to its first [`SHOWN`] characters, an ellipsis and its length. Clap quotes the whole
/// value it refuses, and library errors may too (a path, a rank): this is the last guard
/// before standard error, whatever wrote the message.
pub fn clip_arguments(message: &str, args: &[String]) -> String {
    let mut out = message.to_string();
    for arg in args {
        if arg.len() >= LONG && out.contains(arg.as_str()) {
            let head: String = arg.chars().take(SHOWN).collect();
            out = out.replace(arg.as_str(), &format!("{head}… ({} bytes)", arg.len()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_long_text_cut() {
        assert_eq!(quoted("abc"), "`abc`");
        assert_eq!(
            quoted(&"x".repeat(SHOWN)),
            format!("`{}`", "x".repeat(SHOWN))
        );
        let long = "é".repeat(1 << 19);
        let q = quoted(&long);
        assert_eq!(q, format!("`{}…` (1048576 bytes)", "é".repeat(SHOWN)));
    }

    #[test]
    fn long_arguments_are_cut_in_messages() {
        let long = "9".repeat(100_000);
        let args = vec!["perft".to_string(), long.clone()];
        let message = format!("invalid value '{long}' for '<DEPTH>': {long} is too large");
        let clipped = clip_arguments(&message, &args);
        assert!(clipped.len() < 200, "{clipped}");
        assert!(clipped.contains("100000 bytes") && clipped.contains("<DEPTH>"));
        assert_eq!(clip_arguments("perft: fine", &args), "perft: fine");
    }
}
