//! `classify` and `reach`: the stage verdict of docs/METHOD.md §5/§7 for positions, and the
//! certificate of a reachable one.

use crate::options::RuleArgs;
use crate::output;
use crate::output::note;
use clap::{Args, Subcommand};
use serde::Serialize;
use shogi_cli::{reach, Classifier, ClassifyRecord, ReachError};
use shogi_core::{AnyPosition, Game, Position, Relax};
use shogi_reach::{Limits, SearchConfig, Searcher, Stage, Weights};
use std::io::Write;

/// The subcommands over the backward search.
#[derive(Subcommand)]
pub enum ReachCommand {
    /// Print the stage verdict of each position (docs/METHOD.md §5 filters, then the §7 search).
    ///
    /// The verdict is the first filter the position fails (`non-canonical`,
    /// `illegal-placement`, `opponent-in-check`) or the search's answer (`reachable`,
    /// `unreachable`, or `unknown` when a limit stopped it).
    ///
    /// Output, one line per position in input order: `<verdict> <expanded> <sfen>`,
    /// separated by single spaces, where `<expanded>` is the number of nodes the search
    /// expanded (0 when a filter stopped the position) and `<sfen>` is the input as given.
    /// With --json, one JSON object per line instead.
    ///
    /// A line that is not a SFEN, or whose position lacks a king or has two of a side, is
    /// reported on standard error as `shogi-count: line N: ...` (`argument N` for SFENs
    /// given as arguments); the other positions are still classified, and the exit code
    /// is 1 at the end. A count of the verdicts goes to standard error.
    Classify {
        /// Print one JSON object per position: sfen, game, verdict, nodes (expanded),
        /// generated, predecessors, capture_expansions, peak_open, peak_closed, max_depth,
        /// and for `reachable` also kk (the KK position reached) and moves (the USI moves
        /// from kk to the position).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        search: SearchArgs,
        /// The positions (the game of each follows from its number of ranks). Without any,
        /// one SFEN per line is read from standard input, blank lines skipped. An empty
        /// argument is refused (exit code 1) before any search.
        sfens: Vec<String>,
    },
    /// Print a certificate that a position is reachable: a legal game leading to it.
    ///
    /// Output, two lines: the starting SFEN (the KK position the backward search reached,
    /// or the game's initial position with --from-start), then the USI moves from it to
    /// the position, separated by single spaces (an empty line when there are none).
    ///
    /// A position that is not reachable exits with code 1 and its verdict on standard
    /// error: `illegal-placement`, `opponent-in-check`, `unreachable` (proved), or
    /// `unknown` (a limit stopped the search: raise --max-expanded or --max-nodes).
    /// Unlike `classify`, a non-canonical position (White to move, or the larger of a
    /// mirror pair) is searched too: canonicity only picks the representative that is
    /// counted, it does not bear on reachability.
    Reach {
        /// Start the game from the game's initial position instead of the KK position (the
        /// position must then hold the game's full material, board and hands together).
        #[arg(long)]
        from_start: bool,
        #[command(flatten)]
        search: SearchArgs,
        /// The position (the game follows from its number of ranks).
        sfen: String,
    },
}

/// The search options shared by `classify` and `reach`.
#[derive(Args, Clone, Copy, Debug)]
pub struct SearchArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Give up (verdict `unknown`) after expanding N nodes (`1e5`, `100_000`). No limit by
    /// default.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
              value_parser = crate::options::CountParser::ANY)]
    max_expanded: Option<u64>,
    /// Give up (verdict `unknown`) once N nodes are stored, about 128 bytes each (`1e6`,
    /// `1_000_000`). No limit by default.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
              value_parser = crate::options::CountParser::ANY)]
    max_nodes: Option<u64>,
    /// The weights of the search heuristic H = a*N + b*P + c*D (docs/METHOD.md §7), each at most 1000.
    #[arg(long, value_name = "A,B,C", value_parser = parse_weights, default_value = "10,10,1")]
    weights: Weights,
}

impl SearchArgs {
    fn config(self) -> SearchConfig {
        SearchConfig {
            weights: self.weights,
            limits: Limits {
                max_expanded: self.max_expanded,
                // A count past the addresses of this machine is no limit at all.
                max_nodes: self
                    .max_nodes
                    .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            },
            rules: self.rules.rules(),
            // Anything the CLI does not expose keeps the library's default.
            ..SearchConfig::default()
        }
    }
}

fn parse_weights(s: &str) -> Result<Weights, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let bad = || {
        format!(
            "expected three integers A,B,C from 0 to 1000, got {}",
            crate::quote::quoted(s)
        )
    };
    let [a, b, c] = parts[..] else {
        return Err(bad());
    };
    // The search keeps a queue bucket per value of H, so H must stay small.
    let n = |t: &str| t.parse::<u16>().ok().filter(|&w| w <= 1000).ok_or_else(bad);
    Ok(Weights {
        a: n(a)?,
        b: n(b)?,
        c: n(c)?,
    })
}

/// Runs one of the subcommands; the error text goes to standard error.
pub fn run(cmd: ReachCommand) -> Result<(), String> {
    match cmd {
        ReachCommand::Classify {
            json,
            search,
            sfens,
        } => run_classify(json, search.config(), sfens),
        ReachCommand::Reach {
            from_start,
            search,
            sfen,
        } => {
            let config = search.config();
            let relaxed = AnyPosition::from_sfen_with(sfen.trim(), Relax::CANDIDATE);
            match relaxed.map_err(|e| e.to_string())? {
                AnyPosition::Shogi(p) => print_reach(&mut Searcher::new(config), &p, from_start),
                AnyPosition::Mini(p) => print_reach(&mut Searcher::new(config), &p, from_start),
            }
        }
    }
}

fn run_classify(json: bool, config: SearchConfig, sfens: Vec<String>) -> Result<(), String> {
    let mut classifier = Classifier::new(config);
    let mut counts = [0u64; Stage::ALL.len()];
    let mut invalid = 0u64;
    let mut out = output::stdout();
    let mut one = |what: &str, n: usize, sfen: &str| -> Result<(), String> {
        match classifier.classify(sfen) {
            Ok(r) => {
                if let Some(i) = Stage::ALL.iter().position(|&s| s == r.stage) {
                    counts[i] += 1;
                }
                write_record(&mut out, json, &r)
            }
            Err(e) => {
                // One bad line should not throw away the searches of the others, which can
                // be long: report it in the stream, go on, and fail at the end.
                invalid += 1;
                note!("shogi-count: {what} {n}: {e}");
                write_invalid(&mut out, json, sfen, &e)
            }
        }
        .map_err(output::error)
    };
    crate::inputs::for_each(&sfens, |what, n, line| one(what, n, line))?;
    let summary: Vec<String> = Stage::ALL
        .iter()
        .zip(counts)
        .filter(|&(_, n)| n > 0)
        .map(|(s, n)| format!("{n} {s}"))
        .collect();
    let total: u64 = counts.iter().sum();
    let plural = if total == 1 { "" } else { "s" };
    if summary.is_empty() {
        note!("classified {total} position{plural}");
    } else {
        note!(
            "classified {total} position{plural}: {}",
            summary.join(", ")
        );
    }
    if invalid > 0 {
        return Err(format!("{invalid} invalid input(s)"));
    }
    Ok(())
}

/// The line of an input that is no position: `invalid 0 <sfen>`, or JSON with the reason.
fn write_invalid(out: &mut impl Write, json: bool, sfen: &str, error: &str) -> std::io::Result<()> {
    if !json {
        return writeln!(out, "invalid 0 {sfen}");
    }
    #[derive(Serialize)]
    struct InvalidLine<'a> {
        sfen: &'a str,
        verdict: &'static str,
        error: &'a str,
    }
    let line = InvalidLine {
        sfen,
        verdict: "invalid",
        error,
    };
    serde_json::to_writer(&mut *out, &line)?;
    writeln!(out)
}

fn write_record(out: &mut impl Write, json: bool, r: &ClassifyRecord) -> std::io::Result<()> {
    if !json {
        return writeln!(out, "{} {} {}", r.stage, r.nodes, r.sfen);
    }
    serde_json::to_writer(&mut *out, r)?;
    writeln!(out)
}

fn print_reach<G: Game>(
    searcher: &mut Searcher<G>,
    pos: &Position<G>,
    from_start: bool,
) -> Result<(), String> {
    let r = reach(searcher, pos, from_start).map_err(|e| match e {
        ReachError::Unknown { .. } => format!("{e}; raise --max-expanded or --max-nodes"),
        e => e.to_string(),
    })?;
    output::print(&format!("{}\n{}\n", r.start, r.moves.join(" ")))?;
    note!(
        "reachable (moves: {}, expanded: {})",
        r.moves.len(),
        r.expanded
    );
    Ok(())
}
