//! `sample`: the samples `estimate` draws, one a line, with the verdict it counted, so that
//! a run can be audited with other tools (docs/METHOD.md §10.6).

use clap::{Args, Subcommand};
use core::ops::ControlFlow;
use shogi_core::{GameKind, PawnDropRule};
use shogi_estimate::{parse_sample_count, samples, Estimator, Method, RunConfig, Space};
use std::io::Write;

/// The audit command.
#[derive(Subcommand)]
pub enum SampleCommand {
    /// Print samples of an estimate with the verdicts the estimate counts (docs/METHOD.md
    /// §10.6): for each, `<index> <verdict> <expanded> <rank> <sfen>`, and for a reachable
    /// sample the KK position reached and the USI moves from it, `<kk sfen> <moves...>`.
    /// The verdict is `non-canonical`, `illegal-placement`, `opponent-in-check`,
    /// `no-predecessor` or `not-searched` (two-phase sampling), or the search's
    /// `reachable`, `unreachable` or `unknown`; the rank is the position's in the
    /// candidate space (`shogi-count unrank` gives it back). With --json, one object a
    /// line: index, rank, sfen, verdict, expanded, and kk and moves when reachable.
    /// Sample i of a seed is the same position whatever the run's sample count or shard.
    ///
    /// With `--method conditional` (docs/METHOD.md §10.8) the verdict is that of the
    /// sample with White's king moved to the safe square chosen for it, and each line
    /// has, after the sample's SFEN, its weight `k/g` (the safe squares of White's king
    /// and all of them) and the chosen position's SFEN (`no-safe-square` when k is 0: no
    /// position is chosen); in JSON, `safe_squares`, `king_squares` and `chosen`.
    Sample(SampleArgs),
}

/// Arguments of `sample`.
#[derive(Args)]
pub struct SampleArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "shogi")]
    game: GameKind,
    /// How many samples to print.
    #[arg(long, value_parser = parse_sample_count)]
    samples: u64,
    /// The seed of the run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The index of the first sample printed.
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// The method of the run: its space, phase-2 rate and estimator, as `estimate
    /// --method`, whose default it shares, so that the verdicts are those a default
    /// `estimate` counts (`fast` prints each sample's own verdict).
    #[arg(long, default_value = "conditional", value_parser = |s: &str| s.parse::<Method>())]
    method: Method,
    /// The space sampled, overriding the method's: `candidate` (P_K, also `pk`) or
    /// `placement-legal` (S).
    #[arg(long, value_parser = parse_space)]
    space: Option<Space>,
    /// The phase-2 rate, overriding the method's: a share in (0, 1], or `none`.
    #[arg(long)]
    phase2_rate: Option<String>,
    /// The estimator, overriding the method's: `indicator` or `conditional`.
    #[arg(long, value_parser = |s: &str| s.parse::<Estimator>())]
    estimator: Option<Estimator>,
    /// Which pawn drops that leave no legal reply are illegal.
    #[arg(long, value_enum, default_value = "mate")]
    pawn_drop: PawnDropRule,
    /// The search's node limit, as `estimate --max-expanded` (`1e6`, `1_000_000`).
    #[arg(long, allow_negative_numbers = true,
          value_parser = crate::options::CountParser::ANY)]
    max_expanded: Option<u64>,
    /// One JSON object a line.
    #[arg(long)]
    json: bool,
}

fn parse_space(s: &str) -> Result<Space, String> {
    match s {
        "pk" => Ok(Space::Candidate),
        _ => s.parse(),
    }
}

/// Runs `sample`.
pub fn run(cmd: SampleCommand) -> Result<(), String> {
    let SampleCommand::Sample(a) = cmd;
    let mut config =
        RunConfig::new(a.game, a.first.saturating_add(a.samples)).with_method(a.method);
    config.seed = a.seed;
    if let Some(space) = a.space {
        config.space = space;
    }
    if let Some(rate) = &a.phase2_rate {
        config.phase2_rate = match rate.as_str() {
            "none" => None,
            r => {
                let f: f64 = r
                    .parse()
                    .map_err(|_| format!("--phase2-rate: `{r}` is not a number or `none`"))?;
                shogi_estimate::check_phase2_rate(f)?;
                Some(f)
            }
        };
    }
    config.pawn_drop = a.pawn_drop;
    config.max_expanded = a.max_expanded;
    if let Some(e) = a.estimator {
        config.estimator = e;
    }
    config.check_estimator()?;
    let mut out = crate::output::stdout();
    let mut failed = None;
    samples(&config, a.first, a.samples, |r| {
        let line = if a.json {
            serde_json::to_string(&r).expect("a record serialises")
        } else {
            let mut l = format!(
                "{} {} {} {} {}",
                r.index, r.verdict, r.expanded, r.rank, r.sfen
            );
            if let (Some(k), Some(g)) = (r.safe_squares, r.king_squares) {
                l.push_str(&format!(" {k}/{g}"));
                if let Some(chosen) = &r.chosen {
                    l.push(' ');
                    l.push_str(chosen);
                }
            }
            if let (Some(kk), Some(moves)) = (&r.kk, &r.moves) {
                l.push(' ');
                l.push_str(kk);
                for m in moves {
                    l.push(' ');
                    l.push_str(m);
                }
            }
            l
        };
        match writeln!(out, "{line}") {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        }
    })
    .map_err(|e| e.to_string())?;
    match failed {
        Some(e) => Err(crate::output::error(e)),
        None => out.flush().map_err(crate::output::error),
    }
}
