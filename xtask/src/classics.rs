//! `cargo xtask classics`: the composer's check (docs/METHOD.md §11.7, the function
//! `check-tsume` runs) on the 200 problems of 将棋図巧 and 将棋無双
//! (testdata/mate/classics), one thread and one time limit a problem (`--jobs` of them at
//! once), and the Markdown table of docs/BENCHMARKS.md: problem, declared, proved,
//! verdict, flaws, time.

use clap::Args;
use shogi_core::{Move, Position, Relax, Shogi};
use shogi_mate::{check_with, CheckOptions, MateOptions, Problem, Report, Solver, Soundness};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A worker's stack: lines of hundreds of plies recurse deeply (the CLI gives as much).
const STACK: usize = 256 << 20;

/// The problems' table, from the workspace root.
const FILE: &str = "testdata/mate/classics/classics.tsv";

/// The markers of the table's section in docs/BENCHMARKS.md.
const START: &str = "<!-- classics:start -->";
const END: &str = "<!-- classics:end -->";

#[derive(Args)]
pub struct ClassicsArgs {
    /// The problems' table (tab-separated: id, sfen, declared_plies, solution, flags,
    /// line_ok).
    #[arg(long, default_value = FILE)]
    file: PathBuf,
    /// Seconds a problem (the measurement: 120).
    #[arg(long, default_value_t = 120.0)]
    seconds: f64,
    /// Table size in MiB (the measurement: 1024).
    #[arg(long, default_value_t = 1024)]
    table_mb: u64,
    /// Only the problems whose id starts with one of these (repeatable): `zukou-00`,
    /// `musou-031`.
    #[arg(long, value_name = "PREFIX")]
    only: Vec<String>,
    /// Replace the table between the classics markers of docs/BENCHMARKS.md with this run's.
    #[arg(long)]
    write: bool,
    /// Problems checked at once, each on one thread with a table of its own (`--table-mb`
    /// each): still one thread a problem, the run done sooner on a machine with cores to
    /// spare.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

/// One problem of the table.
struct Row {
    id: String,
    sfen: String,
    declared: u32,
    solution: String,
    flags: String,
}

fn rows(text: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [id, sfen, declared, solution, flags, ..] = f[..] else {
            return Err(format!("line {}: expected 6 tab-separated columns", i + 1));
        };
        rows.push(Row {
            id: id.to_string(),
            sfen: sfen.to_string(),
            declared: declared
                .parse()
                .map_err(|e| format!("line {}: declared_plies {declared:?}: {e}", i + 1))?,
            solution: solution.to_string(),
            flags: flags.to_string(),
        });
    }
    Ok(rows)
}

/// The check of one row, and how long it took.
fn check_row(
    solver: &mut Solver<Shogi>,
    row: &Row,
    opts: &CheckOptions,
) -> Result<(Report, Duration), String> {
    let position = Position::<Shogi>::from_sfen_with(&row.sfen, Relax::ATTACKER_WITHOUT_KING)
        .map_err(|e| format!("{}: {e}", row.id))?;
    let solution = row
        .solution
        .split_whitespace()
        .map(Move::from_usi::<Shogi>)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{}: {e}", row.id))?;
    let problem = Problem {
        position,
        declared: Some(row.declared),
        solution: Some(solution),
    };
    let start = Instant::now();
    let report = check_with(solver, &problem, opts).map_err(|e| format!("{}: {e}", row.id))?;
    Ok((report, start.elapsed()))
}

/// The checks of `rows` in their order, `jobs` problems at once, each on a thread with a
/// solver of its own.
fn check_rows(
    rows: &[Row],
    opts: &CheckOptions,
    table_mb: u64,
    jobs: usize,
) -> Result<Vec<(Report, Duration)>, String> {
    let next = AtomicUsize::new(0);
    let work = || -> Result<Vec<(usize, Report, Duration)>, String> {
        let mut solver = Solver::<Shogi>::try_new(opts.mate)
            .map_err(|e| format!("a table of {table_mb} MiB: {e}"))?;
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(row) = rows.get(i) else {
                return Ok(done);
            };
            let (report, took) = check_row(&mut solver, row, opts)?;
            eprintln!(
                "{} {} {:?} {:.1} s",
                row.id,
                report.verdict.name(),
                report.length,
                took.as_secs_f64()
            );
            done.push((i, report, took));
        }
    };
    let parts = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(s, work)
                    .map_err(|e| format!("starting a worker: {e}"))
            })
            .collect::<Result<_, _>>()?;
        workers
            .into_iter()
            .map(|w| w.join().map_err(|_| "a worker panicked".to_string())?)
            .collect::<Result<Vec<_>, String>>()
    })?;
    let mut all: Vec<(usize, Report, Duration)> = parts.into_iter().flatten().collect();
    all.sort_by_key(|(i, ..)| *i);
    Ok(all.into_iter().map(|(_, r, t)| (r, t)).collect())
}

/// The flaws of a report in the table's words: `kind@ply`, the tolerated kinds left out.
fn flaws(report: &Report) -> String {
    let mut seen: Vec<String> = Vec::new();
    for f in report.flaws.iter().filter(|f| f.kind.is_flaw()) {
        let s = format!("{}@{}", f.kind.name(), f.ply);
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    if report.undecided > 0 {
        seen.push(format!("{} undecided", report.undecided));
    }
    seen.join(", ")
}

pub fn run(args: ClassicsArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("reading {}: {e}", args.file.display()))?;
    let rows: Vec<Row> = rows(&text)?
        .into_iter()
        .filter(|r| args.only.is_empty() || args.only.iter().any(|p| r.id.starts_with(p)))
        .collect();
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        return Err("--seconds: a positive number".into());
    }
    let opts = CheckOptions {
        mate: MateOptions {
            max_nodes: u64::MAX,
            table_entries: ((args.table_mb << 20) / 32) as usize,
            shortest: true,
            futile_interpositions: true,
            ..MateOptions::default()
        },
        time_limit: Some(Duration::from_secs_f64(args.seconds)),
    };
    let load = |when: &str| {
        let avg = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        let avg: Vec<&str> = avg.split_whitespace().take(3).collect();
        format!("load average {} {when}", avg.join(" "))
    };
    let before = load("before");
    let jobs = args.jobs.clamp(1, rows.len().max(1));
    let checked = check_rows(&rows, &opts, args.table_mb, jobs)?;
    let mut lines = Vec::new();
    let mut tally = [0usize; 4];
    let (mut equal, mut clean, mut clean_equal) = (0, 0, 0);
    for (row, (report, took)) in rows.iter().zip(checked) {
        let proved = report.length.map_or("-".to_string(), |l| l.to_string());
        let i = match report.verdict {
            Soundness::Sound => 0,
            Soundness::Flawed => 1,
            Soundness::NoMate => 2,
            Soundness::Unknown => 3,
        };
        tally[i] += 1;
        // A record is clean when its notes name no flaw or doubt (every record is marked
        // for review).
        let noted = row
            .flags
            .split(';')
            .any(|f| f != "needs_review" && !f.is_empty());
        let same = report.length == Some(row.declared);
        equal += usize::from(same);
        if !noted {
            clean += 1;
            clean_equal += usize::from(same);
        }
        let line = format!(
            "| {} | {} | {} | {} | {} | {:.1} | {} |",
            row.id,
            row.declared,
            proved,
            report.verdict.name(),
            flaws(&report),
            took.as_secs_f64(),
            row.flags.replace(';', ", ")
        );
        lines.push(line);
    }
    let after = load("after");
    let mut table = String::new();
    table.push_str(&format!(
        "`cargo xtask classics --seconds {} --table-mb {}{}{}` on {} problem(s), one thread a problem{}; {before}, {after}.\n\n",
        args.seconds,
        args.table_mb,
        if jobs > 1 { format!(" --jobs {jobs}") } else { String::new() },
        args.only.iter().map(|p| format!(" --only {p}")).collect::<String>(),
        rows.len(),
        if jobs > 1 { format!(", {jobs} at once") } else { String::new() },
    ));
    table.push_str(&format!(
        "Verdicts: {} sound, {} flawed, {} no-mate, {} unknown. Proved length equal to the declared: {equal} of {}; of the {clean} records whose notes name no flaw or doubt, {clean_equal}.\n\n",
        tally[0], tally[1], tally[2], tally[3], rows.len()
    ));
    table.push_str("| problem | declared | proved | verdict | flaws | s | record's flags |\n");
    table.push_str("|---|---:|---:|---|---|---:|---|\n");
    for l in &lines {
        table.push_str(l);
        table.push('\n');
    }
    print!("{table}");
    if args.write {
        let path = "docs/BENCHMARKS.md";
        let doc = std::fs::read_to_string(path).map_err(|e| format!("reading {path}: {e}"))?;
        let (Some(a), Some(b)) = (doc.find(START), doc.find(END)) else {
            return Err(format!("{path} has no {START} … {END} section"));
        };
        let doc = format!("{}{START}\n{table}{}", &doc[..a], &doc[b..]);
        std::fs::write(path, doc).map_err(|e| format!("writing {path}: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed table has the 200 problems, each readable.
    #[test]
    fn the_committed_table_reads() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../");
        let text = std::fs::read_to_string(format!("{root}{FILE}")).unwrap();
        let rows = rows(&text).unwrap();
        assert_eq!(rows.len(), 200);
        assert_eq!(
            rows.iter().filter(|r| r.id.starts_with("zukou-")).count(),
            100
        );
        for r in &rows {
            Position::<Shogi>::from_sfen_with(&r.sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
            assert_eq!(
                r.solution.split_whitespace().count(),
                r.declared as usize,
                "{}",
                r.id
            );
        }
    }
}
