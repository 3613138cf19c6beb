//! Two measurements of the USI engine's stop (issue 24, docs/BENCHMARKS.md): `cargo xtask
//! usi-stop-latency`, the time from writing `stop` to an endless `go mate` to reading its
//! `checkmate` line, over a real engine process; and `cargo xtask mate-control-cost`, the
//! solver's node rate on fixed problems with and without a [`SearchControl`] attached.

use clap::Args;
use shogi_core::{Position, Relax, Shogi};
use shogi_mate::{MateOptions, SearchControl, Solver};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Two rooks and two bishops against a king whose side holds every other piece: under the
/// engine's default `DefenderHand sfen` the search runs for millions of nodes without a
/// verdict, so only `stop` ends it.
const HARD: &str = "4k4/9/9/9/9/9/9/9/8K b 2R2B4g4s4n4l18p 1";

/// Options of `usi-stop-latency`.
#[derive(Args)]
pub struct StopLatencyArgs {
    /// Searches stopped.
    #[arg(long, default_value_t = 50)]
    repeats: usize,
    /// The shogi-count binary (build it with `cargo build --release -p shogi-cli`).
    #[arg(long, default_value_os_t = crate::workspace_root().join("target/release/shogi-count"))]
    bin: PathBuf,
    /// Shortest wait between `go mate infinite` and `stop`, in milliseconds.
    #[arg(long, default_value_t = 50)]
    min_delay_ms: u64,
    /// Longest wait between `go mate infinite` and `stop`, in milliseconds.
    #[arg(long, default_value_t = 500)]
    max_delay_ms: u64,
}

/// The engine process, read line by line on this thread.
pub(crate) struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    /// Starts `bin` with `args` and its pipes.
    pub(crate) fn start(bin: &std::path::Path, args: &[&str]) -> Result<Engine, String> {
        let mut child = Command::new(bin)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", bin.display()))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the engine's pipes were not opened".into());
        };
        Ok(Engine {
            child,
            input,
            output: BufReader::new(output),
        })
    }

    /// Asks the engine to quit and waits for it.
    pub(crate) fn quit(mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }

    pub(crate) fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("writing `{line}` to the engine: {e}"))
    }

    /// Reads up to the first line that starts with `prefix`; returns it, and when it came.
    pub(crate) fn until(&mut self, prefix: &str) -> Result<(String, Instant), String> {
        self.until_seeing(prefix, |_| {})
    }

    /// [`Engine::until`], showing `seen` every line before it.
    pub(crate) fn until_seeing(
        &mut self,
        prefix: &str,
        mut seen: impl FnMut(&str),
    ) -> Result<(String, Instant), String> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("reading the engine: {e}"))?;
            let at = Instant::now();
            if n == 0 {
                return Err(format!("the engine ended before `{prefix}`"));
            }
            if line.starts_with(prefix) {
                return Ok((line.trim_end().to_string(), at));
            }
            seen(line.trim_end());
        }
    }
}

/// The waits before `stop`: evenly spread over the range, in a scrambled order so that a
/// drift of the machine's load does not line up with the wait.
fn delays(args: &StopLatencyArgs) -> Vec<Duration> {
    let n = args.repeats.max(1);
    let span = args.max_delay_ms.saturating_sub(args.min_delay_ms);
    let mut out: Vec<Duration> = (0..n)
        .map(|i| {
            let step = if n == 1 {
                0
            } else {
                span * i as u64 / (n as u64 - 1)
            };
            Duration::from_millis(args.min_delay_ms + step)
        })
        .collect();
    // A fixed permutation (multiplicative step coprime to n), the same in every run.
    let mut step = 37 % n;
    while step == 0 || gcd(step, n) != 1 {
        step += 1;
    }
    let copy = out.clone();
    for (i, d) in out.iter_mut().enumerate() {
        *d = copy[(i * step) % n];
    }
    out
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The `q`-quantile of sorted `v`, by the nearest rank.
fn quantile(v: &[Duration], q: f64) -> Duration {
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// `cargo xtask usi-stop-latency`.
pub fn stop_latency(args: StopLatencyArgs) -> Result<(), String> {
    if args.repeats == 0 {
        return Err("--repeats must be at least 1".into());
    }
    if args.min_delay_ms > args.max_delay_ms {
        return Err("--min-delay-ms is above --max-delay-ms".into());
    }
    let mut child = Command::new(&args.bin)
        .arg("usi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "{}: {e} (build it with `cargo build --release -p shogi-cli`, or pass --bin)",
                args.bin.display()
            )
        })?;
    let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("the engine's pipes were not opened".into());
    };
    let mut e = Engine {
        child,
        input,
        output: BufReader::new(output),
    };
    let result = measure(&mut e, &args);
    // Whatever happened, the engine is asked to quit and waited for.
    let _ = e.send("quit");
    let _ = e.child.wait();
    let mut latencies = result?;
    latencies.sort();
    println!(
        "stop latency over {} searches of `{HARD}` stopped after {} to {} ms \
         (engine {}):",
        latencies.len(),
        args.min_delay_ms,
        args.max_delay_ms,
        args.bin.display()
    );
    println!(
        "min {}  median {}  p99 {}  max {}",
        ms(latencies[0]),
        ms(quantile(&latencies, 0.5)),
        ms(quantile(&latencies, 0.99)),
        ms(latencies[latencies.len() - 1])
    );
    let over = latencies
        .iter()
        .filter(|d| **d > Duration::from_millis(100))
        .count();
    println!("over 100 ms: {over} of {}", latencies.len());
    Ok(())
}

fn measure(e: &mut Engine, args: &StopLatencyArgs) -> Result<Vec<Duration>, String> {
    e.send("usi")?;
    e.until("usiok")?;
    e.send("isready")?;
    e.until("readyok")?;
    e.send("usinewgame")?;
    let mut latencies = Vec::with_capacity(args.repeats);
    for delay in delays(args) {
        e.send(&format!("position sfen {HARD}"))?;
        e.send("go mate infinite")?;
        std::thread::sleep(delay);
        e.send("stop")?;
        let sent = Instant::now();
        let (answer, at) = e.until("checkmate")?;
        if answer != "checkmate timeout" {
            return Err(format!(
                "the search ended by itself ({answer}): not a stop; choose another position"
            ));
        }
        latencies.push(at.duration_since(sent));
    }
    Ok(latencies)
}

/// Options of `mate-control-cost`.
#[derive(Args)]
pub struct ControlCostArgs {
    /// Rounds: passes over the positions, each solving every position without and with a
    /// control.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Node limit per position.
    #[arg(long, default_value_t = 2_000_000)]
    nodes: u64,
    /// Every this-many-th no-mate of testdata/mate/shogi_nomates.tsv is added to the 640
    /// mates (the set is sorted by the number of checks, so a spread sample holds trivial
    /// and hard ones; 0: none).
    #[arg(long, default_value_t = 10)]
    nomates_every: usize,
    /// Attach no control in either variant: what the two columns differ by when nothing
    /// differs (the measurement's own bias and noise).
    #[arg(long)]
    null: bool,
}

/// `cargo xtask mate-control-cost`.
pub fn control_cost(args: ControlCostArgs) -> Result<(), String> {
    if args.rounds == 0 {
        return Err("--rounds must be at least 1".into());
    }
    let read = |file: &str| -> Result<Vec<Position<Shogi>>, String> {
        crate::mate_data::sfens(file)?
            .iter()
            .map(|s| {
                Position::from_sfen_with(s, Relax::ATTACKER_WITHOUT_KING)
                    .map_err(|e| format!("{file}: {s}: {e}"))
            })
            .collect()
    };
    let mut positions = read("shogi_mates.tsv")?;
    if args.nomates_every > 0 {
        positions.extend(
            read("shogi_nomates.tsv")?
                .into_iter()
                .step_by(args.nomates_every),
        );
    }
    let opts = MateOptions {
        max_nodes: args.nodes,
        ..MateOptions::default()
    };
    let mut solver = Solver::<Shogi>::new(opts);
    println!(
        "{} positions, {} rounds, node limit {}; each position solved without and with a \
         control, in alternating order",
        positions.len(),
        args.rounds,
        args.nodes
    );
    if args.null {
        println!("--null: no control attached in either column");
    }
    println!("| round | nodes/s without | nodes/s with | with/without |");
    println!("|---|---|---|---|");
    let mut ratios = Vec::with_capacity(args.rounds);
    let mut counted = 0;
    for round in 1..=args.rounds {
        // Per variant: nodes and seconds. Each position is solved by both, one right after
        // the other, the first of the two alternating: a machine whose speed drifts (a
        // shared one) then slows both alike, which whole passes one after the other do not
        // ensure.
        let mut nodes = [0u64; 2];
        let mut time = [Duration::ZERO; 2];
        for (k, pos) in positions.iter().enumerate() {
            let order = if k % 2 == 0 { [0, 1] } else { [1, 0] };
            for variant in order {
                // A fresh control per search, as the engine gives one.
                solver.set_control((variant == 1 && !args.null).then(SearchControl::new));
                let t = Instant::now();
                let r = solver.solve(pos);
                time[variant] += t.elapsed();
                nodes[variant] += r.stats.nodes;
            }
        }
        if nodes[0] != nodes[1] {
            return Err(format!(
                "the searches differ with a control ({} against {} nodes)",
                nodes[1], nodes[0]
            ));
        }
        let rate = |v: usize| nodes[v] as f64 / time[v].as_secs_f64();
        let ratio = rate(1) / rate(0);
        println!("| {round} | {:.0} | {:.0} | {ratio:.4} |", rate(0), rate(1));
        ratios.push(ratio);
        counted = nodes[0];
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "nodes per round and variant {counted}; with/without: median {:.4}, min {:.4}, \
         max {:.4}",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1]
    );
    Ok(())
}
