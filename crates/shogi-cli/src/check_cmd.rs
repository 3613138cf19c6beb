//! `check-tsume`: the composer's check of docs/METHOD.md §11.7 on each problem, as a text
//! line, a JSON object, or a KIF with the variations as 変化.

use crate::inputs::Input;
use crate::problems::{on_solver_stack, one_problem, to_json, Worker};
use shogi_cli::TsumeRecord;
use shogi_core::{AnyPosition, Game, GameKind, MiniShogi, Move, Position, Relax, Shogi};
use shogi_mate::{check_with, CheckOptions, Problem, Report, Solver};
use std::path::Path;

/// A solver thread's state: a solver per game, made when its table is reserved.
pub struct Checker {
    opts: CheckOptions,
    declared: Option<u32>,
    shogi: Option<Solver<Shogi>>,
    mini: Option<Solver<MiniShogi>>,
}

impl Checker {
    /// A checker with `opts`, every problem declared `declared` long when given.
    pub fn new(opts: CheckOptions, declared: Option<u32>) -> Self {
        Checker {
            opts,
            declared,
            shogi: None,
            mini: None,
        }
    }

    /// The report on `input`, with its problem's position, or why it is no problem.
    fn report(&mut self, input: &Input) -> Result<(TsumeRecord, AnyPosition, Report), String> {
        let (sfen, recorded) = match input.sfen.split_once(" moves ") {
            Some((sfen, moves)) => (
                sfen.trim(),
                moves.split_whitespace().map(str::to_string).collect(),
            ),
            None => (input.sfen.as_str(), input.moves.clone()),
        };
        let pos = AnyPosition::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
            .map_err(|e| e.to_string())?;
        let declared = match self.declared {
            Some(d) => Some(d),
            None if recorded.is_empty() => None,
            None => {
                Some(u32::try_from(recorded.len()).map_err(|_| "a recorded solution too long")?)
            }
        };
        let opts = self.opts;
        let (record, report) = match &pos {
            AnyPosition::Shogi(p) => {
                let solver = solver(&mut self.shogi, opts)?;
                run::<Shogi>(solver, p, sfen, &recorded, declared, &opts)?
            }
            AnyPosition::Mini(p) => {
                let solver = solver(&mut self.mini, opts)?;
                run::<MiniShogi>(solver, p, sfen, &recorded, declared, &opts)?
            }
        };
        Ok((record, pos, report))
    }
}

/// The solver in `slot`, made now if there is none.
fn solver<G: Game>(
    slot: &mut Option<Solver<G>>,
    opts: CheckOptions,
) -> Result<&mut Solver<G>, String> {
    if slot.is_none() {
        let made = Solver::try_new(opts.mate).map_err(|e| {
            format!(
                "a table of {} entries cannot be allocated ({e}): lower --table-mb",
                opts.mate.table_entries
            )
        })?;
        *slot = Some(made);
    }
    slot.as_mut().ok_or_else(|| "no solver".to_string())
}

/// Checks the problem `pos` (given as `sfen`) with its recorded solution `recorded` (USI).
fn run<G: Game>(
    solver: &mut Solver<G>,
    pos: &Position<G>,
    sfen: &str,
    recorded: &[String],
    declared: Option<u32>,
    opts: &CheckOptions,
) -> Result<(TsumeRecord, Report), String> {
    let mut solution = Vec::with_capacity(recorded.len());
    for (i, usi) in recorded.iter().enumerate() {
        let mv = Move::from_usi::<G>(usi)
            .map_err(|e| format!("the recorded solution's ply {}: {e}", i + 1))?;
        solution.push(mv);
    }
    let problem = Problem {
        position: pos.clone(),
        declared,
        solution: (!solution.is_empty()).then_some(solution),
    };
    let report = check_with(solver, &problem, opts).map_err(|e| e.to_string())?;
    Ok((TsumeRecord::new::<G>(sfen, &report), report))
}

impl Worker for Checker {
    fn reserve(&mut self, game: GameKind) -> Result<(), String> {
        let opts = self.opts;
        match game {
            GameKind::Shogi => solver(&mut self.shogi, opts).map(|_| ()),
            GameKind::Mini => solver(&mut self.mini, opts).map(|_| ()),
        }
    }

    fn line(&mut self, input: &Input, json: bool) -> Result<String, String> {
        let (record, _, _) = self.report(input)?;
        Ok(if json {
            to_json(&record)
        } else {
            record.text()
        })
    }

    fn invalid(&self, sfen: &str, error: &str, json: bool) -> String {
        if json {
            to_json(&TsumeRecord::invalid(sfen, error))
        } else {
            format!("invalid - - 0 {sfen}")
        }
    }
}

/// `check-tsume --kif OUT`: checks the one problem, prints its line as without --kif, and
/// writes the main line with the variations and alternatives found as KIF 変化.
pub fn write_kif(
    inputs: &[Input],
    opts: CheckOptions,
    declared: Option<u32>,
    json: bool,
    out: &Path,
    force: bool,
) -> Result<(), String> {
    let input = one_problem(inputs)?.clone();
    let place = input.place.clone();
    let checked = on_solver_stack(move || Checker::new(opts, declared).report(&input))?;
    let (record, pos, report) = checked.map_err(|e| format!("{place}: {e}"))?;
    let text = if json {
        to_json(&record)
    } else {
        record.text()
    };
    crate::output::print(&format!("{text}\n"))?;
    let AnyPosition::Shogi(problem) = pos else {
        return Err(format!(
            "--kif: {place} is no Shogi position (KIF has no Mini Shogi board)"
        ));
    };
    if report.main_line.is_empty() {
        return Err(format!(
            "--kif: no mate proved ({}), so {} was not written",
            record.verdict,
            out.display()
        ));
    }
    let problem = shogi_mate::with_defender_hand(&problem, opts.mate.defender_hand);
    // A variation is written when it plays from a ply of the main line to a mate (a
    // flaw whose line a limit cut short would end in a 詰み it does not reach).
    let mates = |ply: usize, moves: &[Move]| {
        let mut line = report.main_line[..ply - 1].to_vec();
        line.extend_from_slice(moves);
        shogi_mate::verify_line_with(&problem, &line, true).is_ok()
    };
    let variations: Vec<(usize, Vec<Move>)> = report
        .flaws
        .iter()
        .map(|f| (f.ply as usize, f.moves.clone()))
        .filter(|(ply, moves)| (1..=report.main_line.len()).contains(ply) && !moves.is_empty())
        .filter(|(ply, moves)| moves.first() != report.main_line.get(ply - 1))
        .filter(|(ply, moves)| mates(*ply, moves))
        .collect();
    let text = shogi_record::kif::write_with_variations(&problem, &report.main_line, &variations);
    crate::files::write_output(out, "--kif", force, &shogi_record::encode_for(out, &text))
}
