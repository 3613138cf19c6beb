//! `classify` and `reach`: the stage verdict of docs/METHOD.md §5/§7 for positions, and the
//! certificate of a reachable one.

use crate::options::RuleArgs;
use clap::{Args, Subcommand};
use serde::Serialize;
use shogi_core::{AnyPosition, Game, MiniShogi, Position, PositionErrors, Relax, Shogi};
use shogi_reach::{
    classify, classify_legal, game_to, Certificate, Limits, SearchConfig, SearchStats, Searcher,
    Stage, Verdict, Weights,
};
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
        /// one SFEN per line is read from standard input, blank lines skipped.
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
    /// Give up (verdict `unknown`) after expanding N nodes. No limit by default.
    #[arg(long, value_name = "N")]
    max_expanded: Option<u64>,
    /// Give up (verdict `unknown`) once N nodes are stored, about 128 bytes each. No limit
    /// by default.
    #[arg(long, value_name = "N")]
    max_nodes: Option<usize>,
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
                max_nodes: self.max_nodes,
            },
            rules: self.rules.rules(),
            // Anything the CLI does not expose keeps the library's default.
            ..SearchConfig::default()
        }
    }
}

fn parse_weights(s: &str) -> Result<Weights, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let bad = || format!("expected three integers A,B,C from 0 to 1000, got {s:?}");
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
                AnyPosition::Shogi(p) => reach(&mut Searcher::new(config), &p, from_start),
                AnyPosition::Mini(p) => reach(&mut Searcher::new(config), &p, from_start),
            }
        }
    }
}

/// One searcher per game, made on first use and reused across positions: a searcher keeps
/// its buffers, so later searches do not reallocate.
struct Searchers {
    config: SearchConfig,
    shogi: Option<Searcher<Shogi>>,
    mini: Option<Searcher<MiniShogi>>,
}

/// The outcome of one position, with the game erased.
struct Report {
    game: &'static str,
    stage: Stage,
    stats: SearchStats,
    /// The KK position's SFEN and the USI moves from it, for a reachable position.
    certificate: Option<(String, Vec<String>)>,
}

/// One line of `classify --json`.
#[derive(Serialize)]
struct JsonLine<'a> {
    sfen: &'a str,
    game: &'static str,
    verdict: &'static str,
    nodes: u64,
    generated: u64,
    predecessors: u64,
    capture_expansions: u64,
    peak_open: usize,
    peak_closed: usize,
    max_depth: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    kk: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<&'a [String]>,
}

impl Searchers {
    fn classify(&mut self, sfen: &str) -> Result<Report, String> {
        let config = self.config;
        match AnyPosition::from_sfen_with(sfen, Relax::CANDIDATE).map_err(|e| e.to_string())? {
            AnyPosition::Shogi(p) => report(
                "shogi",
                self.shogi.get_or_insert_with(|| Searcher::new(config)),
                &p,
            ),
            AnyPosition::Mini(p) => report(
                "mini",
                self.mini.get_or_insert_with(|| Searcher::new(config)),
                &p,
            ),
        }
    }
}

fn report<G: Game>(
    game: &'static str,
    searcher: &mut Searcher<G>,
    pos: &Position<G>,
) -> Result<Report, String> {
    let c = classify(searcher, pos);
    let (stats, certificate) = match c.search {
        Some(o) => (
            o.stats,
            o.certificate
                .map(|cert| (cert.kk.to_sfen(), cert.usi_moves())),
        ),
        None => (SearchStats::default(), None),
    };
    Ok(Report {
        game,
        stage: c.stage,
        stats,
        certificate,
    })
}

fn run_classify(json: bool, config: SearchConfig, sfens: Vec<String>) -> Result<(), String> {
    let mut searchers = Searchers {
        config,
        shogi: None,
        mini: None,
    };
    let mut counts = [0u64; Stage::ALL.len()];
    let mut invalid = 0u64;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut one = |what: &str, n: usize, sfen: &str| -> Result<(), String> {
        match searchers.classify(sfen) {
            Ok(r) => {
                if let Some(i) = Stage::ALL.iter().position(|&s| s == r.stage) {
                    counts[i] += 1;
                }
                write_report(&mut out, json, sfen, &r)
            }
            Err(e) => {
                // One bad line should not throw away the searches of the others, which can
                // be long: report it in the stream, go on, and fail at the end.
                invalid += 1;
                eprintln!("shogi-count: {what} {n}: {e}");
                write_invalid(&mut out, json, sfen, &e)
            }
        }
        .map_err(|e| format!("writing the output: {e}"))
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
        eprintln!("classified {total} position{plural}");
    } else {
        eprintln!(
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

fn write_report(out: &mut impl Write, json: bool, sfen: &str, r: &Report) -> std::io::Result<()> {
    if !json {
        return writeln!(out, "{} {} {sfen}", r.stage, r.stats.expanded);
    }
    let line = JsonLine {
        sfen,
        game: r.game,
        verdict: r.stage.as_str(),
        nodes: r.stats.expanded,
        generated: r.stats.generated,
        predecessors: r.stats.predecessors,
        capture_expansions: r.stats.capture_expansions,
        peak_open: r.stats.peak_open,
        peak_closed: r.stats.peak_closed,
        max_depth: r.stats.max_depth,
        kk: r.certificate.as_ref().map(|(kk, _)| kk.as_str()),
        moves: r.certificate.as_ref().map(|(_, m)| m.as_slice()),
    };
    serde_json::to_writer(&mut *out, &line)?;
    writeln!(out)
}

fn reach<G: Game>(
    searcher: &mut Searcher<G>,
    pos: &Position<G>,
    from_start: bool,
) -> Result<(), String> {
    let c = classify_legal(searcher, pos);
    let Some(outcome) = c.search else {
        // What the placement and check filters object to, to say why the position fails.
        let filter_errors =
            pos.validate() & (PositionErrors::PLACEMENT | PositionErrors::OPPONENT_IN_CHECK);
        return Err(format!("{}: {filter_errors}", c.stage));
    };
    let expanded = outcome.stats.expanded;
    let cert: Certificate<G> = match outcome.verdict {
        Verdict::Reachable => outcome
            .certificate
            .ok_or("internal error: a reachable verdict without a certificate")?,
        Verdict::Unreachable => {
            return Err(format!(
                "unreachable: the search exhausted every predecessor (expanded: {expanded})"
            ))
        }
        Verdict::Unknown => {
            return Err(format!(
                "unknown: a search limit stopped the search (expanded: {expanded}); \
                 raise --max-expanded or --max-nodes"
            ))
        }
    };
    // The output is a certificate, so check it before printing: a wrong one would be worse
    // than none.
    if cert.replay().ok().as_ref() != Some(pos) {
        return Err("internal error: the certificate does not replay to the position".into());
    }
    let (start, moves) = if from_start {
        let game = game_to(&cert).map_err(|e| format!("no game from the initial position: {e}"))?;
        let usi = game.iter().map(|m| m.to_usi::<G>()).collect();
        (Position::<G>::startpos().to_sfen(), usi)
    } else {
        (cert.kk.to_sfen(), cert.usi_moves())
    };
    println!("{start}\n{}", moves.join(" "));
    eprintln!("reachable (moves: {}, expanded: {expanded})", moves.len());
    Ok(())
}
