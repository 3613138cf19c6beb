//! `cargo xtask fuzz`: runs the libFuzzer targets of `fuzz/` one after the other (one fuzz
//! process at a time) and reports how many inputs each executed. See fuzz/README.md.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// The targets, and whether each is built with libFuzzer's comparison tracing. Tracing lets
/// the fuzzer learn the tokens of SFEN text and of numbers, but makes every comparison a
/// call: the targets that mostly play on positions from the seeds or a fixed list (usi,
/// whose `#N` lines pick legal moves, unmoves, rank) or read their input as raw bytes
/// (sampler_s, mate_small) run 2 to 4 times faster without it.
const TARGETS: &[(&str, bool)] = &[
    ("sfen", true),
    ("usi", false),
    ("unmoves", false),
    ("rank", false),
    ("parsers", true),
    ("sampler_s", false),
    ("mate_small", false),
    ("state", true),
    ("kif", true),
    ("csa", true),
];

/// Options of `cargo xtask fuzz`.
#[derive(clap::Args)]
pub struct FuzzArgs {
    /// The target to run (sfen, usi, unmoves, rank, parsers, sampler_s, mate_small, state, kif,
    /// csa); every
    /// target when absent.
    #[arg(long)]
    target: Option<String>,
    /// Seconds per target (libFuzzer's -max_total_time).
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Stop a target after this many executions (libFuzzer's -runs; unlimited by default).
    #[arg(long)]
    runs: Option<u64>,
    /// The sanitizer: `none` (the default: the crates forbid unsafe code, and none needs
    /// no sanitizer runtime) or `address`.
    #[arg(long, default_value = "none")]
    sanitizer: String,
    /// Run the `kif` and `csa` targets in this process, on the stable toolchain without
    /// cargo-fuzz: mutations of their seeds from a fixed seed (src/fuzz_stable.rs). Chosen
    /// by itself for `--target kif` or `csa` when cargo-fuzz or a toolchain for it is
    /// missing.
    #[arg(long)]
    in_process: bool,
}

/// How to call a toolchain that accepts `-Z` flags: nightly through rustup, or the default
/// (stable) one with `RUSTC_BOOTSTRAP=1`.
enum Toolchain {
    Nightly,
    Bootstrap,
}

pub fn run(args: FuzzArgs) -> Result<(), String> {
    let targets: Vec<(&str, bool)> = match &args.target {
        None => TARGETS.to_vec(),
        Some(t) => vec![*TARGETS.iter().find(|(name, _)| name == t).ok_or_else(|| {
            let names: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
            format!("unknown fuzz target {t:?}: one of {}", names.join(", "))
        })?],
    };
    let fuzz_dir = crate::workspace_root().join("fuzz");
    let stable = |name: &str| crate::fuzz_stable::TARGETS.iter().any(|(n, _)| *n == name);
    if args.in_process {
        return run_in_process(&fuzz_dir, &args);
    }
    let toolchain = match check_cargo_fuzz().and_then(|()| find_toolchain(&fuzz_dir)) {
        Ok(t) => t,
        Err(e) if args.target.as_deref().is_some_and(stable) => {
            println!("xtask fuzz: {e}; running the target in this process instead");
            return run_in_process(&fuzz_dir, &args);
        }
        Err(e) => {
            return Err(format!(
                "{e} (or `--in-process` for the kif and csa targets on any toolchain)"
            ))
        }
    };
    let mut rows = Vec::new();
    for (target, trace_compares) in targets {
        let start = Instant::now();
        let (execs, corpus, failed) =
            run_target(&fuzz_dir, &toolchain, target, trace_compares, &args)?;
        let secs = start.elapsed().as_secs();
        println!(
            "xtask fuzz: {target}: {} executions, {secs} s (with the build), corpus {corpus} inputs{}",
            execs.map_or("unknown".to_string(), |n| n.to_string()),
            if failed { ", FAILED" } else { "" }
        );
        rows.push((target, execs, secs, corpus, failed));
    }
    println!("\ntarget    executions   seconds  corpus  result");
    for (target, execs, secs, corpus, failed) in &rows {
        println!(
            "{target:<9} {:>11} {secs:>9} {corpus:>7}  {}",
            execs.map_or("?".to_string(), |n| n.to_string()),
            if *failed {
                "crash (see fuzz/artifacts/)"
            } else {
                "ok"
            }
        );
    }
    if rows.iter().any(|r| r.4) {
        Err(
            "a fuzz target failed: minimise the input with `cargo fuzz tmin` (see fuzz/README.md)"
                .into(),
        )
    } else {
        Ok(())
    }
}

/// `--in-process`: the targets of [`crate::fuzz_stable`] (all, or `--target`), each for
/// `--seconds` or `--runs`.
fn run_in_process(fuzz_dir: &Path, args: &FuzzArgs) -> Result<(), String> {
    let targets: Vec<_> = crate::fuzz_stable::TARGETS
        .iter()
        .filter(|(name, _)| args.target.as_deref().is_none_or(|t| t == *name))
        .collect();
    if targets.is_empty() {
        let names: Vec<&str> = crate::fuzz_stable::TARGETS.iter().map(|t| t.0).collect();
        return Err(format!(
            "--in-process runs only the targets {}: not {:?}",
            names.join(" and "),
            args.target.as_deref().unwrap_or("")
        ));
    }
    let mut failed = false;
    for (target, check) in targets {
        let start = Instant::now();
        let out = crate::fuzz_stable::run(
            *check,
            &fuzz_dir.join("seeds").join(target),
            &fuzz_dir.join("artifacts").join(target),
            args.seconds,
            args.runs,
        )?;
        println!(
            "xtask fuzz: {target} in process: {} executions, {} s, {}",
            out.runs,
            start.elapsed().as_secs(),
            match &out.crash {
                Some(path) => format!("FAILED, the input in {}", path.display()),
                None => "ok".to_string(),
            }
        );
        failed |= out.crash.is_some();
    }
    if failed {
        Err("a fuzz target failed: add its input as a regression test, then fix".into())
    } else {
        Ok(())
    }
}

fn check_cargo_fuzz() -> Result<(), String> {
    let ok = Command::new("cargo")
        .args(["fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Ok(())
    } else {
        Err(
            "cargo-fuzz is not installed: `cargo install cargo-fuzz --locked` (see fuzz/README.md)"
                .into(),
        )
    }
}

/// A toolchain that can build the targets: `cargo +nightly` if rustup has a nightly,
/// otherwise the default toolchain with `RUSTC_BOOTSTRAP=1` (a stable rustc then accepts the
/// `-Z` flags cargo-fuzz passes), checked by asking it for an unstable option.
fn find_toolchain(fuzz_dir: &Path) -> Result<Toolchain, String> {
    let works = |nightly: bool| {
        let mut c = Command::new("rustc");
        if nightly {
            c.env("RUSTUP_TOOLCHAIN", "nightly");
        } else {
            c.env("RUSTC_BOOTSTRAP", "1");
        }
        c.args(["-Z", "unstable-options", "--print", "sysroot"])
            .current_dir(fuzz_dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if works(true) {
        Ok(Toolchain::Nightly)
    } else if works(false) {
        Ok(Toolchain::Bootstrap)
    } else {
        Err("no toolchain accepts -Z flags: install a nightly (`rustup toolchain install nightly`) \
             or use a rustc that honours RUSTC_BOOTSTRAP=1 (see fuzz/README.md)"
            .into())
    }
}

/// Runs one target; returns libFuzzer's count of executed inputs (if it printed one), the
/// size of the working corpus afterwards and whether the run failed.
fn run_target(
    fuzz_dir: &Path,
    toolchain: &Toolchain,
    target: &str,
    trace_compares: bool,
    args: &FuzzArgs,
) -> Result<(Option<u64>, usize, bool), String> {
    let corpus = fuzz_dir.join("corpus").join(target);
    let seeds = fuzz_dir.join("seeds").join(target);
    std::fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    let mut cmd = Command::new("cargo");
    match toolchain {
        Toolchain::Nightly => {
            cmd.env("RUSTUP_TOOLCHAIN", "nightly");
        }
        Toolchain::Bootstrap => {
            cmd.env("RUSTC_BOOTSTRAP", "1");
        }
    }
    cmd.current_dir(fuzz_dir)
        .args(["fuzz", "run", "--debug-assertions", "--sanitizer"])
        .arg(&args.sanitizer);
    if !trace_compares {
        cmd.arg("--no-trace-compares");
    }
    // The first directory is the working corpus libFuzzer adds to; the seeds are only read.
    cmd.arg(target).arg(&corpus).arg(&seeds).arg("--");
    cmd.arg(format!("-max_total_time={}", args.seconds))
        .arg("-print_final_stats=1");
    if let Some(runs) = args.runs {
        cmd.arg(format!("-runs={runs}"));
    }
    println!("xtask fuzz: {target} for {} s", args.seconds);
    // libFuzzer reports on stderr: pass it through line by line, keeping the final stats.
    let mut child = cmd
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cargo fuzz: {e}"))?;
    let mut execs = None;
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("{line}");
            if let Some(n) = executions(&line) {
                execs = Some(n);
            }
        }
    }
    let status = child.wait().map_err(|e| format!("cargo fuzz: {e}"))?;
    let size = std::fs::read_dir(&corpus).map_or(0, |d| d.count());
    Ok((execs, size, !status.success()))
}

/// The count of a line `stat::number_of_executed_units: N` of libFuzzer's final statistics
/// (printed with `-print_final_stats=1`).
fn executions(line: &str) -> Option<u64> {
    line.trim()
        .strip_prefix("stat::number_of_executed_units:")
        .and_then(|n| n.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_final_stats() {
        let line = "stat::number_of_executed_units: 10500000";
        assert_eq!(super::executions(line), Some(10_500_000));
        assert_eq!(
            super::executions("stat::average_exec_per_sec:     11666"),
            None
        );
        assert_eq!(super::executions("#1000 DONE"), None);
    }
}
