//! `mate` and `pass-count`: the checkmate search and the possible pass count of
//! docs/METHOD.md §11–§13, for positions given as arguments or one a line on standard input.

use crate::check_cmd::{self, Checker};
use crate::inputs::{Format, Input};
use crate::problems::{game_of, on_solver_stack, one_problem, run_parallel, to_json, Plan, Worker};
use clap::{Args, Subcommand};
use shogi_cli::{MateRecord, MateSolvers, PassRecord, PassSolvers};
use shogi_core::GameKind;
use shogi_mate::{DefenderHand, Defense, MateOptions, PassOptions};
use std::path::{Path, PathBuf};

/// The subcommands over the mate search.
#[derive(Subcommand)]
pub enum MateCommand {
    /// Search each position for a checkmate by its side to move (docs/METHOD.md §11–§12).
    ///
    /// The attacker is the side to move and may only check; the defender's hand is, by
    /// default, everything neither on the board nor in the attacker's hand (the usual
    /// convention of mate problems; --defender-hand sfen keeps the SFEN's).
    ///
    /// Output, one line per position in input order: `<verdict> <plies> <nodes> <sfen>
    /// <moves...>`, separated by single spaces: the verdict `mate`, `no-mate`, `unknown`
    /// (a limit stopped the search) or `invalid` (no legal position), the length of the
    /// mating line in plies (`-` unless mate), the nodes searched, the input SFEN as
    /// given, and for a mate the line as USI moves: by default the proved shortest mate under
    /// the composers' conventions (the attacker shortest, the defender longest, futile
    /// interpositions not counted), with --first the attacker's checks and the defender's
    /// longest resistance found in the first proof. Every line printed has been replayed:
    /// each attacker move checks and the last position is checkmate (or, futile
    /// interpositions not counted, mated by that convention). With
    /// --json, one JSON object per line: sfen, verdict, plies (null unless mate), moves
    /// (USI list, empty unless mate), line_minimax (whether the line is planned by minimax
    /// over the proofs, so its length is at least the shortest mate's; null unless mate),
    /// shortest (the proved length; null with --first or when a limit cut the proof), cut,
    /// nodes, and game, pieces (the proof pieces of a
    /// mate, the disproof pieces of a no-mate), exact_hits, superior_hits, table_fill,
    /// replaced (entries the table's collections removed) and collections.
    ///
    /// A line that is no legal position is reported on standard error as well, the
    /// other positions are still searched, and the exit code is 1 at the end.
    Mate {
        /// Print one JSON object per position.
        #[arg(long)]
        json: bool,
        /// Give up on a position (verdict `unknown`) after N nodes, written as `1e6`,
        /// `5_000_000` or `5000000`; 0 for no limit, as USI's NodesLimit 0 (the default
        /// solves the long classics such as 寿, 611 plies, in seconds; a hard no-mate may
        /// take minutes: lower it for batches).
        #[arg(long, value_name = "N", default_value = "1e8",
              allow_negative_numbers = true,
              value_parser = crate::options::CountParser::ANY)]
        nodes: u64,
        #[command(flatten)]
        common: CommonArgs,
        /// Answer look-ups by exact hands only, without proof and disproof pieces (the
        /// ablation of docs/BENCHMARKS.md; slower, same verdicts).
        #[arg(long)]
        no_superiority: bool,
        /// Without the threshold controlling algorithm against cycles (the ablation of
        /// docs/BENCHMARKS.md; some positions with cycles of checks are then left unknown).
        #[arg(long)]
        no_tca: bool,
        /// Without delayed moves (the defender's drops on one square counted one by one,
        /// checks without promotion after the promotion): the ablation of
        /// docs/BENCHMARKS.md.
        #[arg(long)]
        no_delay: bool,
        /// New positions after a reply start with disproof number 1, not the attacker's
        /// number of checks: the ablation of docs/BENCHMARKS.md.
        #[arg(long)]
        no_dn_lookahead: bool,
        /// Answer the first mate the search proves, without proving the shortest: the fast
        /// search, for batch work. Its line is the defender's longest resistance found in
        /// the proof, at least as long as the shortest mate; `shortest` is then `null`. By
        /// default the shortest mate is proved (the attacker shortest, the defender longest
        /// over every reply, futile interpositions not counted: docs/METHOD.md §11.4–§11.5,
        /// as KomoringHeights' MinLength proves it), by searches within decreasing depth
        /// limits on one table; the JSON's `shortest` is the proved length and the line has
        /// it (unless a tiny table and node limit stop the walk that builds it: then it is
        /// longer), `null` when a search ran out of nodes (the line is then the shortest
        /// found). 寿 proves 611 and 煙詰 117 with the defaults.
        #[arg(long, conflicts_with = "shortest")]
        first: bool,
        /// Count every legal reply, futile interpositions (無駄合, docs/METHOD.md §11.5)
        /// included, as KomoringHeights' MinLength does: lengths can be longer. By default a
        /// defender whose every reply is a drop the checker takes into mate is mated.
        /// Verdicts are the same either way.
        #[arg(long, conflicts_with = "futile")]
        all_interpositions: bool,
        /// The default since `--first` exists: kept so that scripts that ask for it work.
        #[arg(long, hide = true)]
        shortest: bool,
        /// The default since `--all-interpositions` exists: kept so that scripts that ask for
        /// it work.
        #[arg(long, hide = true)]
        futile: bool,
        /// Write the solution as a KIF game from the problem to this file (Shift_JIS for
        /// a .kif name, UTF-8 otherwise, as KIF's convention has it): one Shogi problem
        /// only; exit code 1, and no file, when it has no mate. An existing file is
        /// refused before the search unless --force, and one of the --file inputs always.
        #[arg(long, value_name = "OUT")]
        kif: Option<PathBuf>,
        /// Let --kif replace an existing file (never one of the inputs).
        #[arg(long, requires = "kif")]
        force: bool,
        #[command(flatten)]
        files: FileArgs,
        /// The positions (the game of each follows from its number of ranks). Without
        /// any, and without --file, one SFEN per line is read from standard input, blank
        /// lines skipped. An empty argument is refused (exit code 1) before any search.
        #[arg(conflicts_with = "file")]
        sfens: Vec<String>,
    },
    /// Check each problem as a composer would (docs/METHOD.md §11.7): the mate's length under
    /// the composers' conventions (the attacker shortest, the defender longest, futile
    /// interpositions not counted), its main line (among equally long defences, one that
    /// leaves the attacker no pieces in hand), and the flaws: alternative-mate (余詰, another
    /// check mates within the plies left, at a ply other than the last), shorter-mate (早詰,
    /// shorter than declared), no-mate (不詰), pieces-left (駒余り), equal-variation (変同),
    /// longer-variation (the defender resists longer than declared). Another mating check at
    /// the last move (last-move-alternative) and a free choice of promotion (unlimited) are
    /// reported as tolerated, not as flaws.
    ///
    /// The declared length is --declared N, else the length of the solution a KIF or CSA
    /// file records, else none. A SFEN input may be followed by ` moves <usi...>`, its
    /// recorded solution; the main line follows a recorded solution wherever it keeps to
    /// the proved length.
    ///
    /// Output, one line per problem in input order: `<verdict> <length> <declared> <nodes>
    /// <sfen>`, the verdict `sound`, `flawed`, `no-mate`, `unknown` or `invalid`, `-` for a
    /// length not proved or not declared, then ` line <moves...>` and, per finding, ` flaw
    /// <kind>@<ply> <moves,...>` (` tolerated ...` for the tolerated kinds; ` pieces <hand>`
    /// for pieces-left). With --json, one object per problem: sfen, game, verdict, length,
    /// declared, main_line, flaws (each kind, flaw, ply, moves, pieces), undecided (questions
    /// a limit left open), nodes.
    CheckTsume {
        /// Print one JSON object per problem.
        #[arg(long)]
        json: bool,
        /// The declared length in plies (odd), for every problem; overrides the files'.
        #[arg(long, value_name = "N")]
        declared: Option<u32>,
        /// Stop a problem's check after this many seconds (what is left open counts as
        /// undecided); 0 for no limit.
        #[arg(long, value_name = "S", default_value_t = 0.0)]
        seconds: f64,
        /// Give up on one question of a check (is this position mated within m plies?)
        /// after N nodes (`1e6`, `5_000_000`; 0 for no limit).
        #[arg(long, value_name = "N", default_value = "1e8",
              allow_negative_numbers = true,
              value_parser = crate::options::CountParser::ANY)]
        nodes: u64,
        #[command(flatten)]
        common: CommonArgs,
        /// Write the main line, with each variation and alternative found as a KIF 変化, to
        /// this file (Shift_JIS for a .kif name, UTF-8 otherwise): one Shogi problem only.
        #[arg(long, value_name = "OUT")]
        kif: Option<PathBuf>,
        /// Let --kif replace an existing file (never one of the inputs).
        #[arg(long, requires = "kif")]
        force: bool,
        #[command(flatten)]
        files: FileArgs,
        /// The problems as SFEN (optionally followed by ` moves <usi...>`); without any,
        /// and without --file, one a line on standard input.
        #[arg(conflicts_with = "file")]
        sfens: Vec<String>,
    },
    /// Compute the possible pass count of each position for its side to move
    /// (docs/METHOD.md §13): how many free moves (passes) the defender can be given
    /// before the attacker forces mate. 0 is a mate; 1 with `--defense none` a
    /// threatmate (a quiet move after which a pass loses to mate).
    ///
    /// Counts 0, 1, … up to --max-passes are tried in turn. Output, one line per
    /// position in input order: `<verdict> <passes> <nodes> <sfen> <move>`: the verdict
    /// `proved`, `pass-limit` (every count up to the limit refuted), `unknown` (a limit
    /// stopped the search) or `invalid`, the count (`-` unless proved), the nodes
    /// searched, the SFEN as given, and the attacker's first move of the proof (`-`
    /// unless proved; a quiet move, the threat, whenever one proves the count). With
    /// --json, one JSON object per line: sfen, defense, verdict,
    /// passes (null unless proved), move (null unless proved), nodes, and game.
    PassCount {
        /// Print one JSON object per position.
        #[arg(long)]
        json: bool,
        /// The defender's moves considered besides the pass after a quiet attacker move:
        /// none (threatmate), takeback (recaptures of the piece just moved), all
        /// (brinkmate).
        #[arg(long, value_enum, default_value_t = Defense::None)]
        defense: Defense,
        /// The largest count tried.
        #[arg(long, value_name = "K", default_value_t = 3)]
        max_passes: u32,
        /// Give up on a position (verdict `unknown`) after N nodes, all counts together
        /// (`1e6`, `5_000_000`; 0 for no limit, as `mate --nodes 0`).
        #[arg(long, value_name = "N", default_value = "1e6",
              allow_negative_numbers = true,
              value_parser = crate::options::CountParser::ANY)]
        nodes: u64,
        #[command(flatten)]
        common: CommonArgs,
        #[command(flatten)]
        files: FileArgs,
        /// The positions; without any, and without --file, one SFEN per line from standard
        /// input, blank lines skipped. An empty argument is refused (exit code 1) before any
        /// search.
        #[arg(conflicts_with = "file")]
        sfens: Vec<String>,
    },
}

/// Problem files, instead of SFENs.
#[derive(Args, Clone, Debug)]
pub struct FileArgs {
    /// Read the problems from this file (repeatable): a KIF or CSA file is one problem,
    /// with the defender's hand as the file gives it (`後手の持駒：残り全部` and CSA's
    /// `P-00AL` give the defender every piece not on the board and not in the attacker's
    /// hand); a SFEN file has one position a line. The output names each problem by the
    /// SFEN of its position.
    #[arg(long, value_name = "PATH")]
    file: Vec<PathBuf>,
    /// The format of the --file files: by the name (.kif/.kifu KIF, .ki2 KI2's diagram,
    /// .csa CSA, anything else SFEN), or as given.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
}

impl FileArgs {
    /// The inputs, and the defender's hand to use unless --defender-hand says otherwise:
    /// the files' own when every input is a KIF, KI2 or CSA file, else the rest.
    fn inputs(
        &self,
        sfens: &[String],
        asked: Option<DefenderHand>,
    ) -> Result<(Vec<Input>, DefenderHand), String> {
        if self.file.is_empty() {
            let inputs = crate::inputs::collect(sfens)?;
            return Ok((inputs, asked.unwrap_or(DefenderHand::Rest)));
        }
        let formats: Vec<Format> = self.file.iter().map(|p| self.format.of(p)).collect();
        let own = formats.iter().filter(|f| f.gives_hands()).count();
        let hand = match asked {
            Some(h) => h,
            None if own == formats.len() => DefenderHand::Sfen,
            None if own == 0 => DefenderHand::Rest,
            None => {
                return Err(
                    "KIF or CSA files, which give the defender's hand, with SFEN files, \
                            which leave it to --defender-hand: say --defender-hand sfen (the \
                            hands as written) or rest"
                        .into(),
                )
            }
        };
        Ok((crate::inputs::from_files(&self.file, self.format)?, hand))
    }
}

/// Options shared by `mate` and `pass-count`.
#[derive(Args, Clone, Copy, Debug)]
pub struct CommonArgs {
    /// Spread the positions over T threads (default: every core this process may use).
    /// Never more threads than cores or positions. Each thread has its own table,
    /// cleared for every position, so the answer for a position does not depend on T.
    /// For `mate`, threads asked for beyond the positions search each position together
    /// (docs/METHOD.md §11.8): `--threads 2` on one position runs two threads on its one
    /// table, the second a helper; verdicts are the same, node counts (all threads') vary.
    ///
    /// The tables must fit: before any is made, threads × tables (one per game among the
    /// positions) is checked against the memory available (MemAvailable, and the
    /// cgroup's memory.max) and, with the threads' stacks, against the address-space
    /// limit (ulimit -v). Without --threads, fewer threads are run when they do not all
    /// fit (a note says so); with it, or when one thread does not fit, the run is
    /// refused with exit code 1.
    #[arg(long, value_name = "T", allow_negative_numbers = true,
          value_parser = crate::options::parse_threads)]
    threads: Option<usize>,
    /// Which hand the defender holds: rest (everything not on the board and not in the
    /// attacker's hand) or sfen (the SFEN's). Default: rest, except when every input is a
    /// KIF or CSA file, whose own hands are kept.
    #[arg(long, value_enum)]
    defender_hand: Option<DefenderHand>,
    /// Transposition table size per thread, in MiB (32-byte entries, as many as fit), at
    /// most 4096: each thread allocates its table up front, one per
    /// game when the positions are of both; the threads that search one position together
    /// share one.
    #[arg(long, value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=4096))]
    table_mb: u64,
    /// The longest line searched, in plies (the default is longer than any published mate
    /// problem).
    #[arg(long, value_name = "PLIES", default_value_t = shogi_mate::DEFAULT_MAX_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_depth: u32,
}

impl CommonArgs {
    fn table_entries(self) -> usize {
        shogi_cli::table_entries(self.table_mb)
    }
}

/// Runs one of the subcommands; the error text goes to standard error.
pub fn run(cmd: MateCommand) -> Result<(), String> {
    match cmd {
        MateCommand::Mate {
            json,
            nodes,
            common,
            no_superiority,
            no_tca,
            no_delay,
            no_dn_lookahead,
            first,
            all_interpositions,
            shortest: _,
            futile: _,
            kif,
            force,
            files,
            sfens,
        } => {
            if let Some(out) = &kif {
                let inputs: Vec<&Path> = files.file.iter().map(PathBuf::as_path).collect();
                crate::files::check_output(out, "--kif", force, &inputs)?;
            }
            let (inputs, defender_hand) = files.inputs(&sfens, common.defender_hand)?;
            let mode = shogi_cli::MateMode {
                first,
                all_interpositions,
            };
            let opts = mode.options(MateOptions {
                max_nodes: shogi_cli::node_limit(nodes),
                table_entries: common.table_entries(),
                max_depth: common.max_depth,
                defender_hand,
                superiority: !no_superiority,
                tca: !no_tca,
                delay: !no_delay,
                dn_lookahead: !no_dn_lookahead,
                ..MateOptions::default()
            });
            let plan = crate::problems::plan(&inputs, common.threads, common.table_entries())?;
            let opts = MateOptions {
                threads: plan.per_position,
                ..opts
            };
            match kif {
                Some(out) => write_kif(&inputs, &plan, opts, json, &out, force),
                None => {
                    let worker = move || MateSolvers::new(opts);
                    run_parallel(&inputs, &plan, worker, json)
                }
            }
        }
        MateCommand::CheckTsume {
            json,
            declared,
            seconds,
            nodes,
            common,
            kif,
            force,
            files,
            sfens,
        } => {
            if let Some(out) = &kif {
                let inputs: Vec<&Path> = files.file.iter().map(PathBuf::as_path).collect();
                crate::files::check_output(out, "--kif", force, &inputs)?;
            }
            if !(seconds.is_finite() && seconds >= 0.0) {
                return Err(format!(
                    "--seconds {seconds}: a number of seconds, 0 or more"
                ));
            }
            let (inputs, defender_hand) = files.inputs(&sfens, common.defender_hand)?;
            let opts = shogi_mate::CheckOptions {
                mate: MateOptions {
                    max_nodes: shogi_cli::node_limit(nodes),
                    table_entries: common.table_entries(),
                    max_depth: common.max_depth,
                    defender_hand,
                    shortest: true,
                    futile_interpositions: true,
                    ..MateOptions::default()
                },
                time_limit: (seconds > 0.0).then(|| std::time::Duration::from_secs_f64(seconds)),
            };
            let plan = crate::problems::plan(&inputs, common.threads, common.table_entries())?;
            match kif {
                Some(out) => check_cmd::write_kif(&inputs, opts, declared, json, &out, force),
                None => {
                    let worker = move || Checker::new(opts, declared);
                    run_parallel(&inputs, &plan, worker, json)
                }
            }
        }
        MateCommand::PassCount {
            json,
            defense,
            max_passes,
            nodes,
            common,
            files,
            sfens,
        } => {
            let (inputs, defender_hand) = files.inputs(&sfens, common.defender_hand)?;
            let opts = PassOptions {
                defense,
                max_passes,
                max_nodes: shogi_cli::node_limit(nodes),
                table_entries: common.table_entries(),
                max_depth: common.max_depth,
                defender_hand,
            };
            let plan = crate::problems::plan(&inputs, common.threads, common.table_entries())?;
            let worker = move || PassSolvers::new(opts);
            run_parallel(&inputs, &plan, worker, json)
        }
    }
}

impl Worker for MateSolvers {
    fn reserve(&mut self, game: GameKind) -> Result<(), String> {
        MateSolvers::reserve(self, game).map_err(|e| e.to_string())
    }

    fn line(&mut self, input: &Input, json: bool) -> Result<String, String> {
        let r = self.solve(&input.sfen).map_err(|e| e.to_string())?;
        Ok(if json { to_json(&r) } else { r.text() })
    }

    fn invalid(&self, sfen: &str, error: &str, json: bool) -> String {
        if !json {
            return format!("invalid - 0 {sfen}");
        }
        to_json(&MateRecord::invalid(sfen, error))
    }
}

impl Worker for PassSolvers {
    fn reserve(&mut self, game: GameKind) -> Result<(), String> {
        PassSolvers::reserve(self, game).map_err(|e| e.to_string())
    }

    fn line(&mut self, input: &Input, json: bool) -> Result<String, String> {
        let r = self.solve(&input.sfen).map_err(|e| e.to_string())?;
        Ok(if json { to_json(&r) } else { r.text() })
    }

    fn invalid(&self, sfen: &str, error: &str, json: bool) -> String {
        if !json {
            return format!("invalid - 0 {sfen} -");
        }
        to_json(&PassRecord::invalid(sfen, self.options().defense, error))
    }
}

/// `mate --kif OUT`: solves the one problem, prints its line as `mate` does, and writes the
/// mating line as a KIF game from the problem.
fn write_kif(
    inputs: &[Input],
    plan: &Plan,
    opts: MateOptions,
    json: bool,
    out: &Path,
    force: bool,
) -> Result<(), String> {
    let input = one_problem(inputs)?;
    if game_of(&input.sfen) != Some(GameKind::Shogi) {
        return Err(format!(
            "--kif: {} is no Shogi position (KIF has no Mini Shogi board)",
            input.place
        ));
    }
    let mut worker = MateSolvers::new(opts);
    for &game in &plan.games {
        worker.reserve(game).map_err(|e| e.to_string())?;
    }
    let sfen = input.sfen.clone();
    let solved = on_solver_stack(move || worker.solve(&sfen))?;
    let record = solved.map_err(|e| format!("{}: {e}", input.place))?;
    let text = if json {
        to_json(&record)
    } else {
        record.text()
    };
    crate::output::print(&format!("{text}\n"))?;
    if record.verdict != "mate" {
        return Err(format!(
            "--kif: no mate found ({}), so {} was not written",
            record.verdict,
            out.display()
        ));
    }
    let problem = shogi_core::Position::<shogi_core::Shogi>::from_sfen_with(
        &input.sfen,
        shogi_core::Relax::ATTACKER_WITHOUT_KING,
    )
    .map_err(|e| e.to_string())?;
    // The solver searched the position under the defender-hand convention: the KIF's
    // diagram shows the hands the search gave the defender.
    let problem = shogi_mate::with_defender_hand(&problem, opts.defender_hand);
    let mut line = Vec::new();
    for m in &record.moves {
        line.push(shogi_core::Move::from_usi::<shogi_core::Shogi>(m).map_err(|e| e.to_string())?);
    }
    let text = shogi_record::kif::write(&problem, &line);
    crate::files::write_output(out, "--kif", force, &shogi_record::encode_for(out, &text))
}
