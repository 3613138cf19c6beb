//! `cargo xtask <command>`: long correctness sweeps and reproduction runs that do not belong
//! in the normal test suite (which must stay fast on a 2-core CI machine).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod classics;
mod cost;
mod docs_check;
mod fuzz;
mod fuzz_stable;
mod mate_bench;
mod mate_data;
#[cfg(test)]
mod msrv;
mod pawn_drop;
mod perft;
mod reach_exhaustive;
mod reproduce;
mod unreachable_audit;
mod unreachable_draw;
mod usi_bench;
mod validate;
mod verdict_sweep;
mod verify_kk;

use shogi_core::{GameKind, MiniShogi, PawnDropRule, Rules, Shogi};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Long sweeps and reproduction runs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Deep perft: Shogi from the initial position to depth 6 and every depth of the
    /// independent-library suites in testdata/perft.
    Perft {
        /// Skip the initial-position depth-6 run (about 6 s).
        #[arg(long)]
        suites_only: bool,
    },
    /// Forward moves against unmoves on positions from random legal games: every legal move's
    /// origin position is among the predecessors (completeness) and every predecessor has a
    /// legal move back (soundness).
    UnmoveSweep {
        /// Positions per game.
        #[arg(long, default_value_t = 1_000_000)]
        positions: usize,
        /// Seed of the random games.
        #[arg(long, default_value_t = 11)]
        seed: u64,
        /// Which game: shogi, mini or both.
        #[arg(long, default_value = "both", value_parser = parse_games)]
        game: Games,
        /// Use the paper's reading of the drop-pawn-mate rule (no legal reply).
        #[arg(long)]
        no_reply: bool,
    },
    /// Both games at a scale that finishes in under 30 minutes on 2 cores (or the paper's,
    /// with flags), then regenerate docs/RESULTS.md and the Figure 18 plots
    /// (docs/figure18-*.svg) from the measured counts.
    ReproducePaper(reproduce::ReproduceArgs),
    /// Exhaustive cross-check on reduced material (docs/METHOD.md §9): every candidate of `P_K`
    /// through the backward search against a forward search from every KK position, plus
    /// the KK mutual-reachability check of docs/METHOD.md §7.
    ReachExhaustive(reach_exhaustive::ReachExhaustiveArgs),
    /// The libFuzzer targets of fuzz/ (SFEN, USI, unmoves, rank, KIF and CSA records, ...),
    /// one after the other, with the executions of each: needs cargo-fuzz and a nightly or
    /// RUSTC_BOOTSTRAP=1 (see fuzz/README.md). Not part of CI.
    Fuzz(fuzz::FuzzArgs),
    /// The mate solver on testdata/mate's Shogi sets, one thread, side by side with
    /// cshogi's DfPn (if `python3 -c "import cshogi"` works), the ablation without proof
    /// pieces and superiority, and the pass-count cost of each defence set. Prints the
    /// Markdown tables of docs/BENCHMARKS.md.
    MateBench(mate_bench::MateBenchArgs),
    /// The composer's check (`check-tsume`, docs/METHOD.md §11.7) on the 200 problems of
    /// 将棋図巧 and 将棋無双 in testdata/mate/classics, one thread, a time limit a problem:
    /// the Markdown table of docs/BENCHMARKS.md (problem, declared, proved, verdict, flaws,
    /// time), written there with --write. Fetches nothing.
    Classics(classics::ClassicsArgs),
    /// The estimator against exact answers (docs/METHOD.md §10.4): on reduced materials
    /// small enough to enumerate, both methods over many seeds; the 3σ intervals must
    /// contain the exact count at the nominal rate (binomial test) and the mean error must
    /// be zero within noise. Prints the Markdown table of docs/RESULTS.md.
    ValidateEstimator(validate::ValidateArgs),
    /// The KK lemma of docs/METHOD.md §7 by computation: every KK position reaches every
    /// other (king walks, then one transfer per kind and direction), and the initial
    /// position reaches them; or a counterexample.
    VerifyKk(verify_kk::VerifyKkArgs),
    /// The fast pipeline's phase-1 verdicts against an independent oracle (docs/METHOD.md
    /// §10.7): on the samples `estimate` draws, each filter and has-a-legal-predecessor
    /// recomputed by brute force over the forward move generator; a share of the samples
    /// with a predecessor searched and its certificate replayed forward. Prints the counts,
    /// any disagreement, the rate and the resulting bound on the misclassification rate.
    /// With --against-unmoves N: the oracle against shogi_retro::unmoves on random games.
    VerdictSweep(verdict_sweep::VerdictSweepArgs),
    /// The estimate's verdicts under both readings of the drop-pawn-mate rule (the usual
    /// one and the paper's "no legal reply"), sample by sample, every sample with a
    /// predecessor searched under both: the count of verdicts that differ and the bound it
    /// puts on the reading's effect on the estimate.
    PawnDropSensitivity(pawn_drop::PawnDropArgs),
    /// Every sample a run's searches called unreachable (its state file's, all of them),
    /// found again by index, with the file's counters as the check that the set is
    /// complete, and each proved unreachable by the independent oracle's enumeration of its
    /// whole backward closure (docs/METHOD.md §10.7). Prints the closure sizes.
    UnreachableAudit(unreachable_audit::UnreachableAuditArgs),
    /// The oracle of `unreachable-audit` on many more unreachable verdicts than a run has:
    /// random walks from a run's unreachable samples (`unreachable-audit --list`) through
    /// positions the search calls unreachable, each distinct one proved by the oracle's
    /// closure and each reachable verdict met on the way replayed (docs/METHOD.md §10.7).
    UnreachableDraw(unreachable_draw::UnreachableDrawArgs),
    /// Estimate methods side by side by the cost of precision (core-seconds × relative 3σ
    /// half-width²), in alternating rounds with shared seeds: the figure of
    /// docs/BENCHMARKS.md, "The cost of precision".
    CostOfPrecision(cost::CostArgs),
    /// The USI engine's `stop`: starts `shogi-count usi`, stops endless `go mate` searches
    /// after varying waits and prints the time from writing `stop` to reading `checkmate`
    /// (min, median, p99, max). Needs a built binary (`--bin`, default the release one).
    UsiStopLatency(usi_bench::StopLatencyArgs),
    /// The cost of the solver's stop check: node rates on testdata/mate's problems with and
    /// without a SearchControl attached, each position solved both ways in turn.
    MateControlCost(usi_bench::ControlCostArgs),
    /// Runs every command that README.md and docs/guide/*.md show in a `console` block and
    /// compares what it prints with the output shown (`[..]` and `...` mark what varies):
    /// the examples of the pages cannot drift from the binary. Run by .ci/run.
    DocsCheck(docs_check::DocsCheckArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Perft { suites_only } => perft::run(suites_only),
        Command::UnmoveSweep {
            positions,
            seed,
            game,
            no_reply,
        } => unmove_sweep(positions, seed, &game, no_reply),
        Command::ReproducePaper(args) => reproduce::run_reproduce(args),
        Command::ReachExhaustive(args) => reach_exhaustive::run(args),
        Command::Fuzz(args) => fuzz::run(args),
        Command::MateBench(args) => mate_bench::run(args),
        Command::Classics(args) => classics::run(args),
        Command::ValidateEstimator(args) => validate::run_validate(args),
        Command::VerifyKk(args) => verify_kk::run(args),
        Command::VerdictSweep(args) => verdict_sweep::run(args),
        Command::CostOfPrecision(args) => cost::run_cost(args),
        Command::UnreachableAudit(args) => unreachable_audit::run(args),
        Command::UnreachableDraw(args) => unreachable_draw::run(args),
        Command::PawnDropSensitivity(args) => pawn_drop::run(args),
        Command::UsiStopLatency(args) => usi_bench::stop_latency(args),
        Command::MateControlCost(args) => usi_bench::control_cost(args),
        Command::DocsCheck(args) => docs_check::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (xtask lives one level below it).
pub fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}

/// The games of a `--game` option: one game, or both.
#[derive(Clone, Debug)]
pub struct Games(pub Vec<GameKind>);

/// Reads `--game`: a game's name, or `both` (Mini Shogi first: it is the faster).
pub fn parse_games(s: &str) -> Result<Games, String> {
    match s {
        "both" => Ok(Games(vec![GameKind::Mini, GameKind::Shogi])),
        _ => s
            .parse()
            .map(|g| Games(vec![g]))
            .map_err(|_| format!("unknown game `{s}`: shogi, mini or both")),
    }
}

/// The rules of a `--no-reply` flag: the paper's reading of the drop-pawn-mate rule.
pub fn rules(no_reply: bool) -> Rules {
    Rules {
        pawn_drop: if no_reply {
            PawnDropRule::NoLegalReply
        } else {
            PawnDropRule::MateOnly
        },
    }
}

fn unmove_sweep(positions: usize, seed: u64, games: &Games, no_reply: bool) -> Result<(), String> {
    let rules = rules(no_reply);
    let reports: Vec<_> = games
        .0
        .iter()
        .map(|g| match g {
            GameKind::Mini => shogi_verify::sweep::sweep_with::<MiniShogi>(positions, seed, rules),
            GameKind::Shogi => shogi_verify::sweep::sweep_with::<Shogi>(positions, seed, rules),
        })
        .collect();
    let mut ok = true;
    for r in &reports {
        println!("{r}");
        ok &= r.passed();
    }
    if ok {
        Ok(())
    } else {
        Err("the unmove sweep found failures (see above)".into())
    }
}
