//! `cargo xtask mate-bench`: the mate solver on the committed Shogi problem sets, side by
//! side with cshogi's `DfPn` in the same run, one thread each; the ablation without proof
//! pieces and superiority; and the pass-count cost of the three defence sets.

use clap::Args;
use shogi_core::{Position, Relax, Shogi};
use shogi_mate::{Defense, MateOptions, PassOptions, PassSolver, PassVerdict, Solver, Verdict};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Options of `mate-bench`.
#[derive(Args)]
pub struct MateBenchArgs {
    /// Node limit per position, for both solvers.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// cshogi's depth limit in plies (cshogi needs one; ours is 255).
    #[arg(long, default_value_t = 63)]
    depth: u32,
    /// The Python interpreter with cshogi installed (`pip install cshogi`); the cshogi
    /// column is skipped with a message when it cannot run.
    #[arg(long, default_value = "python3")]
    python: String,
    /// Passes tried by the pass-count runs.
    #[arg(long, default_value_t = 1)]
    max_passes: u32,
    /// Node limit per position of the pass-count runs (brinkmate search with every
    /// defence move rarely finishes, so each position is capped lower than the mates).
    #[arg(long, default_value_t = 200_000)]
    pass_nodes: u64,
}

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/mate")
}

pub(crate) fn sfens(file: &str) -> Result<Vec<String>, String> {
    let path = testdata().join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('\t').next().map(str::to_string))
        .collect())
}

/// Verdict counts, nodes and solving time of one solver over one set.
#[derive(Default)]
struct Run {
    mate: usize,
    no_mate: usize,
    unknown: usize,
    nodes: u64,
    time: Duration,
}

fn ours(positions: &[Position<Shogi>], opts: MateOptions) -> Run {
    let mut solver = Solver::<Shogi>::new(opts);
    let mut run = Run::default();
    for pos in positions {
        let t = Instant::now();
        let r = solver.solve(pos);
        run.time += t.elapsed();
        run.nodes += r.stats.nodes;
        match r.verdict {
            Verdict::Mate => run.mate += 1,
            Verdict::NoMate => run.no_mate += 1,
            Verdict::Unknown => run.unknown += 1,
        }
    }
    run
}

fn cshogi(args: &MateBenchArgs, file: &str) -> Result<Run, String> {
    let script = testdata().join("time_cshogi.py");
    let out = Command::new(&args.python)
        .arg(&script)
        .arg(testdata().join(file))
        .args([
            "--depth",
            &args.depth.to_string(),
            "--nodes",
            &args.nodes.to_string(),
        ])
        .output()
        .map_err(|e| format!("{}: {e}", args.python))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("reading time_cshogi.py's output: {e}"))?;
    let n = |k: &str| v.get(k).and_then(|x| x.as_f64()).unwrap_or(0.0);
    Ok(Run {
        mate: n("mate") as usize,
        no_mate: n("nomate") as usize,
        unknown: n("unknown") as usize,
        nodes: n("nodes") as u64,
        time: Duration::from_secs_f64(n("wall_s")),
    })
}

fn row(name: &str, set: &str, r: &Run) {
    println!(
        "| {set} | {name} | {:.3} s | {} | {} / {} / {} |",
        r.time.as_secs_f64(),
        r.nodes,
        r.mate,
        r.no_mate,
        r.unknown
    );
}

pub fn run(args: MateBenchArgs) -> Result<(), String> {
    let read = |file: &str| -> Result<Vec<Position<Shogi>>, String> {
        sfens(file)?
            .iter()
            .map(|s| {
                Position::from_sfen_with(s, Relax::ATTACKER_WITHOUT_KING)
                    .map_err(|e| format!("{file}: {s}: {e}"))
            })
            .collect()
    };
    let opts = MateOptions {
        max_nodes: args.nodes,
        ..MateOptions::default()
    };
    println!("| set | solver | time | nodes | mate / no-mate / unknown |");
    println!("|---|---|---|---|---|");
    for file in ["shogi_mates.tsv", "shogi_nomates.tsv"] {
        let positions = read(file)?;
        row("shogi-mate", file, &ours(&positions, opts));
        row(
            "shogi-mate, no proof pieces or superiority",
            file,
            &ours(
                &positions,
                MateOptions {
                    superiority: false,
                    ..opts
                },
            ),
        );
        match cshogi(&args, file) {
            Ok(r) => row("cshogi DfPn", file, &r),
            Err(e) => println!("| {file} | cshogi DfPn | skipped: {e} | | |"),
        }
    }
    println!();
    println!("| set | defence | time | nodes | proved / pass-limit / unknown |");
    println!("|---|---|---|---|---|");
    let threats = read("shogi_threats.tsv")?;
    for defense in Defense::ALL {
        let mut solver = PassSolver::<Shogi>::new(PassOptions {
            defense,
            max_passes: args.max_passes,
            max_nodes: args.pass_nodes,
            ..PassOptions::default()
        });
        let (mut proved, mut limit, mut unknown, mut nodes) = (0, 0, 0, 0);
        let t = Instant::now();
        for pos in &threats {
            let r = solver.solve(pos);
            nodes += r.nodes;
            match r.verdict {
                PassVerdict::Proved => proved += 1,
                PassVerdict::PassLimit => limit += 1,
                PassVerdict::Unknown => unknown += 1,
            }
        }
        println!(
            "| shogi_threats.tsv | {} | {:.3} s | {nodes} | {proved} / {limit} / {unknown} |",
            defense.name(),
            t.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
