//! `cargo xtask mate-bench`: the mate solver on the committed Shogi problem sets, side by
//! side with cshogi's `DfPn` in the same run, one thread each; the ablation without proof
//! pieces and superiority; and the pass-count cost of the three defence sets.

mod blind;

use crate::mate_data::{column, sfens, testdata};
use clap::Args;
use shogi_core::{Position, Relax, Shogi};
use shogi_mate::{Defense, MateOptions, PassOptions, PassSolver, PassVerdict, Solver, Verdict};
use std::path::PathBuf;
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
    /// A USI mate engine to run on the same sets, repeatable (KomoringHeights, YaneuraOu's
    /// mate engine, another `shogi-count usi`...): each position as `position sfen` and `go
    /// mate MS`, timed from `go` to `checkmate`; its mates are replayed. An outside program
    /// run as one: never linked or vendored.
    #[arg(long, value_name = "PATH")]
    usi_engine: Vec<PathBuf>,
    /// Arguments for each --usi-engine (split on spaces).
    #[arg(long, value_name = "ARGS", default_value = "")]
    usi_args: String,
    /// `setoption name NAME value VALUE` for each --usi-engine, repeatable: for
    /// KomoringHeights `Threads=1` (it defaults to 4) and `PostSearchLevel=None` (stop at the
    /// first mate, as shogi-mate does without --shortest).
    #[arg(long, value_name = "NAME=VALUE")]
    usi_option: Vec<String>,
    /// The time cap of each `go mate`, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    usi_ms: u64,
    /// `setoption name USI_Hash value MB` for every USI engine.
    #[arg(long, default_value_t = 256)]
    usi_hash_mb: u64,
    /// Without the pass-count table (its brinkmate rows take minutes).
    #[arg(long)]
    no_pass_count: bool,
    /// Only the USI rows (no in-process shogi-mate, ablation, cshogi or pass-count runs).
    #[arg(long)]
    usi_only: bool,
    /// Without the ablation rows: shogi-mate with its defaults beside cshogi only (a quick
    /// comparison to repeat; machines are noisy).
    #[arg(long)]
    no_ablations: bool,
    /// Run `testdata/mate/shogi_random.tsv` (1,500 positions from random games, picked
    /// blind) over USI with the --usi-ms cap: `shogi-count usi` and every --usi-engine,
    /// one after the other, and count what each decides that another does not.
    #[arg(long)]
    random_set: bool,
    /// Run `testdata/mate/shogi_shortest.tsv` (mates whose shortest length
    /// KomoringHeights' MinLength proved) with `--shortest`, hands as in the SFEN, --nodes
    /// for each search: a proved length that differs from the file's is an error.
    #[arg(long)]
    shortest_set: bool,
    /// The shogi-count binary whose `usi` engine is the shogi-mate row of --random-set.
    #[arg(long, default_value_os_t = crate::workspace_root().join("target/release/shogi-count"))]
    ours: PathBuf,
    /// shogi-mate against cshogi's `DfPn` on every set, committed and blind (or the
    /// `--set`s), position by position in one run at the same --nodes limit, each set cut
    /// into its `tune` and `test` halves: time and nodes on the mates and on the no-mates,
    /// and what each leaves unknown that the other decides (docs/BENCHMARKS.md, "Blind sets").
    #[arg(long)]
    blind: bool,
    /// A set of --blind (a file of testdata/mate, SFEN in the first column), repeatable;
    /// without it every committed and blind set.
    #[arg(long, value_name = "FILE")]
    set: Vec<String>,
    /// Only the first N positions of --random-set, --shortest-set or each --blind set (a
    /// smoke run).
    #[arg(long, value_name = "N")]
    first: Option<usize>,
    /// Also write every engine's answer per position of --random-set or --blind to this TSV.
    #[arg(long, value_name = "FILE")]
    per_position: Option<PathBuf>,
}

/// An engine to drive over USI: its program, arguments and options.
struct UsiSpec {
    bin: PathBuf,
    args: Vec<String>,
    options: Vec<(String, String)>,
}

impl UsiSpec {
    /// The --usi-engine engines, with --usi-args and --usi-option.
    fn outside(args: &MateBenchArgs) -> Result<Vec<UsiSpec>, String> {
        let options = args
            .usi_option
            .iter()
            .map(|o| {
                o.split_once('=')
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .ok_or_else(|| format!("--usi-option `{o}`: expected NAME=VALUE"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(args
            .usi_engine
            .iter()
            .map(|bin| UsiSpec {
                bin: bin.clone(),
                args: args.usi_args.split_whitespace().map(String::from).collect(),
                options: options.clone(),
            })
            .collect())
    }

    /// `shogi-count usi` (one thread, its defaults otherwise).
    fn ours(args: &MateBenchArgs) -> UsiSpec {
        UsiSpec {
            bin: args.ours.clone(),
            args: vec!["usi".into()],
            options: Vec::new(),
        }
    }
}

/// One engine's answer on one position.
#[derive(Clone, Copy)]
struct Answer {
    verdict: Verdict,
    /// The length of the mate line (0 unless a mate).
    plies: usize,
    nodes: u64,
    time: Duration,
}

impl Answer {
    /// shogi-mate's answer on `pos` (`Solver::solve`, the any-mate search), timed.
    fn solved(solver: &mut Solver<Shogi>, pos: &Position<Shogi>) -> Answer {
        let t = Instant::now();
        let r = solver.solve(pos);
        Answer {
            verdict: r.verdict,
            plies: r.moves.len(),
            nodes: r.stats.nodes,
            time: t.elapsed(),
        }
    }

    /// The verdict as the per-position files write it.
    fn verdict_name(&self) -> &'static str {
        match self.verdict {
            Verdict::Mate => "mate",
            Verdict::NoMate => "nomate",
            Verdict::Unknown => "unknown",
        }
    }
}

/// One USI engine over a set, one `go mate ms` per position, with `USI_Hash hash_mb`; the
/// engine's name and its answers. A mate whose line does not replay is an error: a false
/// verdict is never counted as a decision.
fn usi_answers(
    spec: &UsiSpec,
    hash_mb: u64,
    ms: u64,
    positions: &[Position<Shogi>],
    sfens: &[String],
) -> Result<(String, Vec<Answer>), String> {
    let extra: Vec<&str> = spec.args.iter().map(String::as_str).collect();
    let mut e = crate::usi_bench::Engine::start(&spec.bin, &extra)?;
    let mut name = spec.bin.display().to_string();
    let result = (|| {
        e.send("usi")?;
        e.until_seeing("usiok", |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                name = n.to_string();
            }
        })?;
        e.send(&format!("setoption name USI_Hash value {hash_mb}"))?;
        for (n, v) in &spec.options {
            e.send(&format!("setoption name {n} value {v}"))?;
        }
        e.send("isready")?;
        e.until("readyok")?;
        let mut answers = Vec::with_capacity(positions.len());
        for (pos, sfen) in positions.iter().zip(sfens) {
            e.send("usinewgame")?;
            e.send(&format!("position sfen {sfen}"))?;
            let start = Instant::now();
            e.send(&format!("go mate {ms}"))?;
            let mut nodes = 0u64;
            let (line, at) = e.until_seeing("checkmate", |l| {
                let mut words = l.split_whitespace();
                while let Some(w) = words.next() {
                    if w == "nodes" {
                        if let Some(n) = words.next().and_then(|n| n.parse().ok()) {
                            nodes = n;
                        }
                    }
                }
            })?;
            let mut answer = Answer {
                verdict: Verdict::Unknown,
                plies: 0,
                nodes,
                time: at - start,
            };
            match line.split_whitespace().nth(1) {
                Some("nomate") => answer.verdict = Verdict::NoMate,
                Some("timeout") | Some("notimplemented") | None => {}
                Some(_) => {
                    let root = shogi_mate::with_defender_hand(pos, shogi_mate::DefenderHand::Sfen);
                    let moves = line
                        .split_whitespace()
                        .skip(1)
                        .map(shogi_core::Move::from_usi::<Shogi>)
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|err| format!("{name} on {sfen}: `{line}`: {err}"))?;
                    shogi_mate::verify_line(&root, &moves).map_err(|err| {
                        format!("{name} on {sfen}: `{line}` does not mate: {err}")
                    })?;
                    answer.verdict = Verdict::Mate;
                    answer.plies = moves.len();
                }
            }
            answers.push(answer);
        }
        Ok(answers)
    })();
    e.quit();
    result.map(|a| (name, a))
}

impl Run {
    fn of(answers: &[Answer]) -> Run {
        let mut run = Run::default();
        for a in answers {
            run.time += a.time;
            run.nodes += a.nodes;
            match a.verdict {
                Verdict::Mate => run.mate += 1,
                Verdict::NoMate => run.no_mate += 1,
                Verdict::Unknown => run.unknown += 1,
            }
        }
        run
    }
}

/// `--random-set`: every engine over shogi_random.tsv, the decisions one makes and another
/// does not, contradictions (an error), and cshogi's mates (the file's column) left unproved.
fn random_set(args: &MateBenchArgs, positions: &[Position<Shogi>]) -> Result<(), String> {
    const FILE: &str = "shogi_random.tsv";
    let n = args.first.unwrap_or(positions.len()).min(positions.len());
    let positions = &positions[..n];
    let sfens = &sfens(FILE)?[..n];
    let cshogi_mates: Vec<bool> = column(FILE, 1)?[..n].iter().map(|v| v == "mate").collect();
    let mut specs = vec![UsiSpec::ours(args)];
    specs.extend(UsiSpec::outside(args)?);
    let mut runs = Vec::new();
    for spec in &specs {
        runs.push(usi_answers(
            spec,
            args.usi_hash_mb,
            args.usi_ms,
            positions,
            sfens,
        )?);
    }
    println!(
        "| engine ({FILE}, go mate {} ms) | time | nodes | mate / no-mate / unknown | cshogi's {} mates not proved |",
        args.usi_ms,
        cshogi_mates.iter().filter(|&&m| m).count()
    );
    println!("|---|---|---|---|---|");
    for (name, answers) in &runs {
        let r = Run::of(answers);
        let missed = answers
            .iter()
            .zip(&cshogi_mates)
            .filter(|(a, &m)| m && a.verdict != Verdict::Mate)
            .count();
        println!(
            "| {name} | {:.3} s | {} | {} / {} / {} | {missed} |",
            r.time.as_secs_f64(),
            r.nodes,
            r.mate,
            r.no_mate,
            r.unknown
        );
    }
    println!();
    println!("| decided by | and not by | mates | no-mates |");
    println!("|---|---|---|---|");
    for (a_name, a) in &runs {
        for (b_name, b) in &runs {
            if std::ptr::eq(a, b) {
                continue;
            }
            let (mut mates, mut no_mates) = (0, 0);
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                match (x.verdict, y.verdict) {
                    (Verdict::Mate, Verdict::NoMate) | (Verdict::NoMate, Verdict::Mate) => {
                        return Err(format!(
                            "{a_name} and {b_name} contradict each other on {}",
                            sfens[i]
                        ))
                    }
                    (Verdict::Mate, Verdict::Unknown) => mates += 1,
                    (Verdict::NoMate, Verdict::Unknown) => no_mates += 1,
                    _ => {}
                }
            }
            println!("| {a_name} | {b_name} | {mates} | {no_mates} |");
        }
    }
    if let Some(path) = &args.per_position {
        let mut out = String::from("sfen");
        for (name, _) in &runs {
            out += &format!("\t{name}: verdict\tplies\tnodes\tms");
        }
        out.push('\n');
        for (i, sfen) in sfens.iter().enumerate() {
            out += sfen;
            for (_, answers) in &runs {
                let a = answers[i];
                let v = a.verdict_name();
                out += &format!(
                    "\t{v}\t{}\t{}\t{:.1}",
                    a.plies,
                    a.nodes,
                    a.time.as_secs_f64() * 1e3
                );
            }
            out.push('\n');
        }
        std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// `--shortest-set`: shogi-mate's proved shortest lengths against KomoringHeights'.
fn shortest_set(args: &MateBenchArgs, positions: &[Position<Shogi>]) -> Result<(), String> {
    const FILE: &str = "shogi_shortest.tsv";
    let lengths = column(FILE, 1)?;
    let sfens = sfens(FILE)?;
    let mut solver = Solver::<Shogi>::new(MateOptions {
        max_nodes: args.nodes,
        defender_hand: shogi_mate::DefenderHand::Sfen,
        shortest: true,
        ..MateOptions::default()
    });
    let (mut agree, mut unproved, mut nodes, mut plies) = (0, 0, 0u64, 0u64);
    let n = args.first.unwrap_or(positions.len()).min(positions.len());
    let positions = &positions[..n];
    let start = Instant::now();
    for ((pos, sfen), want) in positions.iter().zip(&sfens).zip(&lengths) {
        let want: u32 = want.parse().map_err(|e| format!("{FILE}: `{want}`: {e}"))?;
        let r = solver.solve(pos);
        nodes += r.stats.nodes;
        match r.shortest {
            Some(n) if n == want => {
                if r.moves.len() != n as usize {
                    return Err(format!(
                        "{sfen}: shortest {n} proved, but the line has {} plies",
                        r.moves.len()
                    ));
                }
                agree += 1;
                plies += u64::from(n);
            }
            Some(n) => {
                return Err(format!(
                    "{sfen}: shogi-mate proves the shortest mate {n} plies, KomoringHeights {want}"
                ))
            }
            None => {
                unproved += 1;
                eprintln!(
                    "not proved shortest: {sfen} (KomoringHeights {want}, found {})",
                    r.moves.len()
                );
            }
        }
    }
    println!("| set | solver | time | nodes | proved equal / not proved | plies of the proved |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| {FILE} ({} positions) | shogi-mate --shortest, {} nodes a search | {:.3} s | {nodes} | {agree} / {unproved} | {plies} |",
        positions.len(),
        args.nodes,
        start.elapsed().as_secs_f64()
    );
    Ok(())
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
    let answers: Vec<Answer> = positions
        .iter()
        .map(|pos| Answer::solved(&mut solver, pos))
        .collect();
    Run::of(&answers)
}

/// The rows of shogi-mate with one refinement off at a time (docs/BENCHMARKS.md).
fn ablations(file: &str, positions: &[Position<Shogi>], opts: MateOptions) {
    row(
        "shogi-mate, no proof pieces or superiority",
        file,
        &ours(
            positions,
            MateOptions {
                superiority: false,
                ..opts
            },
        ),
    );
    row(
        "shogi-mate, no threshold control (TCA)",
        file,
        &ours(positions, MateOptions { tca: false, ..opts }),
    );
    row(
        "shogi-mate, no disproof-number look-ahead",
        file,
        &ours(
            positions,
            MateOptions {
                dn_lookahead: false,
                ..opts
            },
        ),
    );
    row(
        "shogi-mate, no delayed moves",
        file,
        &ours(
            positions,
            MateOptions {
                delay: false,
                ..opts
            },
        ),
    );
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
    if args.blind {
        return blind::run(&args);
    }
    if args.random_set {
        return random_set(&args, &read("shogi_random.tsv")?);
    }
    if args.shortest_set {
        return shortest_set(&args, &read("shogi_shortest.tsv")?);
    }
    let outside = UsiSpec::outside(&args)?;
    println!("| set | solver | time | nodes | mate / no-mate / unknown |");
    println!("|---|---|---|---|---|");
    for file in ["shogi_mates.tsv", "shogi_nomates.tsv"] {
        let positions = read(file)?;
        for spec in &outside {
            let (name, answers) = usi_answers(
                spec,
                args.usi_hash_mb,
                args.usi_ms,
                &positions,
                &sfens(file)?,
            )?;
            row(
                &format!("{name} (USI, go mate {} ms)", args.usi_ms),
                file,
                &Run::of(&answers),
            );
        }
        if args.usi_only {
            continue;
        }
        row("shogi-mate", file, &ours(&positions, opts));
        if !args.no_ablations {
            ablations(file, &positions, opts);
        }
        match cshogi(&args, file) {
            Ok(r) => row("cshogi DfPn", file, &r),
            Err(e) => println!("| {file} | cshogi DfPn | skipped: {e} | | |"),
        }
    }
    if args.no_pass_count {
        return Ok(());
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
