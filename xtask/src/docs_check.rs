//! `cargo xtask docs-check`: every command that README.md and the guides of docs/guide/ show
//! with its output is run, and what it prints is compared with what the page shows, so that
//! an example cannot drift from the binary without failing CI.
//!
//! The examples are the fenced blocks marked `console`:
//!
//! ````text
//! ```console
//! $ shogi-count perft --game mini 3
//! 2512
//! ```
//! ````
//!
//! A line that starts with `$ ` is a command (a line ending in `\` goes on on the next); the
//! lines after it, up to the next command, are its standard output. In the output shown,
//! `[..]` stands for any text within a line and a line `...` for any number of lines: the
//! page marks that way what varies from run to run (times, rates, load) and nothing else. A
//! last line `[exit N]` says that the command exits with N; otherwise it must exit with 0.
//!
//! The commands of one page run one after the other with `bash -o pipefail -c`, in one
//! scratch folder that holds links to the repository's `testdata/` and `examples/` (so
//! that a page may write files, and read the committed ones by their usual paths), with
//! the binary under test first on `PATH` as `shogi-count`; `cargo run --release --bin
//! shogi-count --` is read as `shogi-count`, so the README's main command runs as it is written.
//! Standard error is not compared (a command shows it with `2>&1`).

use clap::Args;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Arguments of `docs-check`.
#[derive(Args, Debug)]
pub struct DocsCheckArgs {
    /// The `shogi-count` binary to run [default: built here with `cargo build --release
    /// --locked --bin shogi-count`].
    #[arg(long, value_name = "PATH")]
    bin: Option<PathBuf>,
    /// The pages to check [default: README.md and docs/guide/*.md].
    pages: Vec<PathBuf>,
}

/// One command of a page and the output the page shows for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The line of the page where the command starts.
    pub line: usize,
    /// The command, continuation lines joined.
    pub command: String,
    /// The output shown, one entry a line.
    pub output: Vec<String>,
    /// The exit code shown (`[exit N]`), 0 when none is.
    pub exit: i32,
}

/// The examples of `page`: the commands of its `console` blocks with their outputs.
pub fn examples(page: &str) -> Result<Vec<Example>, String> {
    let mut found = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    let mut continued = false;
    for (i, text) in page.lines().enumerate() {
        let line = i + 1;
        let fence = text.trim_start();
        if !in_block {
            if fence.starts_with("```") && fence.trim_start_matches('`').trim() == "console" {
                in_block = true;
            }
            continue;
        }
        if fence.starts_with("```") {
            in_block = false;
            found.extend(current.take());
            continue;
        }
        if continued {
            let cmd = &mut current.as_mut().expect("a command is being read").command;
            continued = text.ends_with('\\');
            cmd.push('\n');
            cmd.push_str(text);
            continue;
        }
        if let Some(command) = text.strip_prefix("$ ") {
            found.extend(current.take());
            continued = command.ends_with('\\');
            current = Some(Example {
                line,
                command: command.to_string(),
                output: Vec::new(),
                exit: 0,
            });
            continue;
        }
        let Some(example) = current.as_mut() else {
            return Err(format!(
                "line {line}: output before any command in a console block"
            ));
        };
        if let Some(code) = text
            .trim()
            .strip_prefix("[exit ")
            .and_then(|t| t.strip_suffix(']'))
        {
            example.exit = code
                .parse()
                .map_err(|_| format!("line {line}: `[exit {code}]` is no exit code"))?;
        } else {
            example.output.push(text.to_string());
        }
    }
    if in_block {
        return Err("a console block is not closed".into());
    }
    Ok(found)
}

/// Whether `line` matches `pattern`, in which `[..]` stands for any text.
pub fn line_matches(pattern: &str, line: &str) -> bool {
    let (pattern, line) = (pattern.trim_end(), line.trim_end());
    let parts: Vec<&str> = pattern.split("[..]").collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == line;
    };
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether the lines `actual` match the lines `shown`, in which a line `...` stands for
/// any number of lines and `[..]` for any text within a line.
pub fn output_matches(shown: &[String], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && output_matches(rest, more)),
    }
}

/// What a command did: its standard output, its standard error and its exit code.
pub struct Ran {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit code (-1 for a signal).
    pub code: i32,
}

/// Checks the examples of one page with `run`; the text of each mismatch, naming the page's
/// line.
pub fn check_page(
    name: &str,
    page: &str,
    mut run: impl FnMut(&str) -> Result<Ran, String>,
) -> Result<(usize, Vec<String>), String> {
    let found = examples(page).map_err(|e| format!("{name}: {e}"))?;
    let mut failures = Vec::new();
    for example in &found {
        let ran = run(&example.command).map_err(|e| format!("{name}:{}: {e}", example.line))?;
        // A trailing blank line is no difference.
        let lines: Vec<&str> = ran.stdout.trim_end_matches('\n').lines().collect();
        let lines = if ran.stdout.trim().is_empty() {
            Vec::new()
        } else {
            lines
        };
        if ran.code != example.exit || !output_matches(&example.output, &lines) {
            failures.push(format!(
                "{name}:{}: `{}`\n--- shown (exit {}):\n{}\n--- printed (exit {}):\n{}\n--- standard error:\n{}",
                example.line,
                example.command,
                example.exit,
                example.output.join("\n"),
                ran.code,
                ran.stdout.trim_end(),
                ran.stderr.trim_end()
            ));
        }
    }
    Ok((found.len(), failures))
}

/// The command as the shell runs it: the README's `cargo run` form read as the binary.
fn as_run(command: &str) -> String {
    command.replace("cargo run --release --bin shogi-count --", "shogi-count")
}

/// Runs `cargo xtask docs-check`.
pub fn run(args: DocsCheckArgs) -> Result<(), String> {
    let root = crate::workspace_root();
    let bin = match args.bin {
        Some(bin) => std::fs::canonicalize(&bin).map_err(|e| format!("{}: {e}", bin.display()))?,
        None => build(&root)?,
    };
    let pages = if args.pages.is_empty() {
        default_pages(&root)?
    } else {
        args.pages
    };
    let scratch = std::env::temp_dir().join(format!("shogi-docs-check-{}", std::process::id()));
    let mut total = 0;
    let mut failures = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).map_err(|e| format!("{}: {e}", page.display()))?;
        let dir = fresh_scratch(&scratch, &root, &bin)?;
        let name = page
            .strip_prefix(&root)
            .unwrap_or(page)
            .display()
            .to_string();
        let (n, failed) = check_page(&name, &text, |command| shell(command, &dir))?;
        println!("{name}: {n} example(s), {} differ", failed.len());
        total += n;
        failures.extend(failed);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    if failures.is_empty() {
        println!(
            "docs-check: {total} examples in {} pages print what they show",
            pages.len()
        );
        Ok(())
    } else {
        for f in &failures {
            println!("\n{f}");
        }
        Err(format!(
            "{} of {total} examples print something else than their page shows (above): \
             correct the page, or mark what varies with `[..]` or `...`",
            failures.len()
        ))
    }
}

/// README.md and the guides.
fn default_pages(root: &Path) -> Result<Vec<PathBuf>, String> {
    let guides = root.join("docs/guide");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&guides)
        .map_err(|e| format!("{}: {e}", guides.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root.join("README.md"));
    Ok(pages)
}

/// The release binary, built now (a no-op when it is up to date).
fn build(root: &Path) -> Result<PathBuf, String> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "--locked", "--bin", "shogi-count"])
        .current_dir(root)
        .status()
        .map_err(|e| format!("running cargo: {e}"))?;
    if !status.success() {
        return Err("cargo build --release --bin shogi-count failed".into());
    }
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    Ok(target.join("release/shogi-count"))
}

/// An empty scratch folder for one page: links to the committed data, and `bin/shogi-count`.
fn fresh_scratch(scratch: &Path, root: &Path, bin: &Path) -> Result<PathBuf, String> {
    let failed = |e: std::io::Error| format!("{}: {e}", scratch.display());
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch.join("bin")).map_err(failed)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(bin, scratch.join("bin/shogi-count")).map_err(failed)?;
        for data in ["testdata", "examples"] {
            symlink(root.join(data), scratch.join(data)).map_err(failed)?;
        }
    }
    #[cfg(not(unix))]
    return Err(format!(
        "docs-check runs the pages' shell commands, which needs a Unix system ({})",
        bin.display()
    ));
    #[cfg(unix)]
    Ok(scratch.to_path_buf())
}

/// Runs `command` in `dir` with bash, `dir/bin` first on `PATH`.
fn shell(command: &str, dir: &Path) -> Result<Ran, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![dir.join("bin")];
    paths.extend(std::env::split_paths(&path));
    let out = Command::new("bash")
        .args(["-o", "pipefail", "-c", &as_run(command)])
        .current_dir(dir)
        .env(
            "PATH",
            std::env::join_paths(paths).map_err(|e| e.to_string())?,
        )
        .output()
        .map_err(|e| format!("running bash: {e}"))?;
    Ok(Ran {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "\
Some text.

```sh
not checked
```

```console
$ printf 'a\\nb 12 ms\\nc\\n'
a
b [..] ms
c
$ printf 'x\\n'; exit 3
x
[exit 3]
$ printf '%s %s\\n' one \\
two
one two
$ seq 1 100
1
...
100
```
";

    /// Runs with bash in the current folder, as the real check does in its scratch folder.
    fn bash(command: &str) -> Result<Ran, String> {
        shell(command, &std::env::temp_dir())
    }

    #[test]
    fn the_examples_are_read_from_console_blocks_only() {
        let found = examples(PAGE).unwrap();
        assert_eq!(found.len(), 4);
        assert_eq!(found[0].line, 8);
        assert_eq!(found[0].output, ["a", "b [..] ms", "c"]);
        assert_eq!(found[1].exit, 3);
        assert_eq!(found[2].command, "printf '%s %s\\n' one \\\ntwo");
    }

    #[test]
    fn a_page_that_shows_what_is_printed_passes() {
        let (n, failures) = check_page("page.md", PAGE, bash).unwrap();
        assert_eq!(n, 4);
        assert!(failures.is_empty(), "{failures:?}");
    }

    /// The point of the check: an output that changed fails it, naming the page's line.
    #[test]
    fn a_changed_output_fails() {
        for (page, why) in [
            (PAGE.replace("\nc\n$", "\nd\n$"), "a changed line"),
            (PAGE.replace("[exit 3]", "[exit 0]"), "a changed exit code"),
            (PAGE.replace("\n100\n", "\n101\n"), "a changed last line"),
            (PAGE.replace("b [..] ms", "b [..] s!"), "a changed unit"),
            (PAGE.replace("\nc\n$", "\n$"), "a line left out"),
        ] {
            let (_, failures) = check_page("page.md", &page, bash).unwrap();
            assert_eq!(failures.len(), 1, "{why}: {failures:?}");
            assert!(
                failures[0].starts_with("page.md:"),
                "{why}: {}",
                failures[0]
            );
        }
    }

    #[test]
    fn masks_match_only_what_they_stand_for() {
        assert!(line_matches(
            "info time [..] nodes 40",
            "info time 3 nodes 40"
        ));
        assert!(!line_matches(
            "info time [..] nodes 40",
            "info time 3 nodes 41"
        ));
        assert!(line_matches("[..]", ""));
        assert!(!line_matches("a[..]a", "a"));
        let shown = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(output_matches(&shown(&["...", "z"]), &["x", "y", "z"]));
        assert!(output_matches(&shown(&["...", "z"]), &["z"]));
        assert!(!output_matches(&shown(&["...", "z"]), &["z", "y"]));
    }

    /// README.md is a front page (issue 35): its first command within its first 40 lines,
    /// and about 200 lines in all; the reference belongs in docs/guide/.
    #[test]
    fn the_readme_stays_a_front_page() {
        let readme = std::fs::read_to_string(crate::workspace_root().join("README.md")).unwrap();
        let first = examples(&readme).unwrap()[0].line;
        assert!(first <= 40, "README.md's first command is on line {first}");
        let lines = readme.lines().count();
        assert!(
            lines <= 200,
            "README.md has {lines} lines: move reference to docs/guide/"
        );
    }

    #[test]
    fn the_quick_start_runs_the_binary() {
        assert_eq!(
            as_run("cargo run --release --bin shogi-count -- perft 5"),
            "shogi-count perft 5"
        );
    }
}
