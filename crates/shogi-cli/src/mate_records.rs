//! `mate` and `pass-count` for one position: the solvers of either game and the records
//! they print.

use serde::Serialize;
use shogi_core::{AnyPosition, Game, GameKind, MiniShogi, Relax, Shogi};
use shogi_mate::{
    Defense, MateOptions, MateResult, PackedHand, PassOptions, PassResult, PassSolver, PassVerdict,
    SearchControl, Solver,
};

/// One line of `mate --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MateRecord {
    /// The input SFEN, as given.
    pub sfen: String,
    /// `shogi` or `mini`; empty for an invalid input.
    pub game: &'static str,
    /// `mate`, `no-mate`, `unknown`, or `invalid` for an input that is no position.
    pub verdict: &'static str,
    /// The length of the mating line in plies, for a mate.
    pub plies: Option<usize>,
    /// The mating line in USI: the attacker's checks and the defender's longest resistance
    /// found in the proof; empty unless mate.
    pub moves: Vec<String>,
    /// For a mate: `true` when the line was planned by minimax over the proofs (its length
    /// is at least the shortest mate's), `false` when it follows stored lengths (a legal
    /// mating line whose length bounds nothing); `null` otherwise.
    pub line_minimax: Option<bool>,
    /// With `--shortest`, the proved length of the shortest mate in plies; `null` without
    /// it, or when a search of the shortest ran out of nodes.
    pub shortest: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// The proof pieces of a mate, the disproof pieces of a no-mate, as a SFEN hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pieces: Option<String>,
    /// Why the input is no position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Table look-ups answered by the exact hand.
    pub exact_hits: u64,
    /// Table look-ups answered by a superior or inferior hand.
    pub superior_hits: u64,
    /// The share of the table in use at the end, to 6 decimals.
    pub table_fill: f64,
    /// Entries the table's garbage collections removed to make room.
    pub replaced: u64,
    /// Garbage collections of the table.
    pub collections: u64,
}

impl MateRecord {
    /// The record of a search of game `G` on `sfen`.
    pub fn new<G: Game>(sfen: &str, r: &MateResult) -> Self {
        MateRecord {
            sfen: sfen.to_string(),
            game: G::NAME,
            verdict: r.verdict.name(),
            plies: r.plies(),
            moves: r.moves.iter().map(|m| m.to_usi::<G>()).collect(),
            line_minimax: (r.verdict == shogi_mate::Verdict::Mate).then_some(r.line_minimax),
            shortest: r.shortest,
            nodes: r.stats.nodes,
            pieces: r.pieces.map(|h| PackedHand::new(&h).to_string()),
            error: None,
            exact_hits: r.stats.table.exact_hits,
            superior_hits: r.stats.table.superior_hits,
            table_fill: (r.stats.table_fill * 1e6).round() / 1e6,
            replaced: r.stats.table.replaced,
            collections: r.stats.table.collections,
        }
    }

    /// The record of an input that is no legal position.
    pub fn invalid(sfen: &str, error: &str) -> Self {
        MateRecord {
            sfen: sfen.to_string(),
            game: "",
            verdict: "invalid",
            plies: None,
            moves: Vec::new(),
            line_minimax: None,
            shortest: None,
            nodes: 0,
            pieces: None,
            error: Some(error.to_string()),
            exact_hits: 0,
            superior_hits: 0,
            table_fill: 0.0,
            replaced: 0,
            collections: 0,
        }
    }

    /// The text line: `<verdict> <plies> <nodes> <sfen> <moves...>`, `-` for no plies.
    pub fn text(&self) -> String {
        let plies = self.plies.map_or("-".to_string(), |p| p.to_string());
        let mut s = format!("{} {plies} {} {}", self.verdict, self.nodes, self.sfen);
        for m in &self.moves {
            s.push(' ');
            s.push_str(m);
        }
        s
    }
}

/// One line of `pass-count --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PassRecord {
    /// The input SFEN, as given.
    pub sfen: String,
    /// `shogi` or `mini`; empty for an invalid input.
    pub game: &'static str,
    /// The defence set ([`Defense::name`]).
    pub defense: &'static str,
    /// `proved`, `pass-limit`, `unknown`, or `invalid` for an input that is no position.
    pub verdict: &'static str,
    /// The possible pass count, when proved.
    pub passes: Option<u32>,
    /// The attacker's first move of the proof in USI, when proved.
    #[serde(rename = "move")]
    pub first_move: Option<String>,
    /// Nodes searched, all counts together.
    pub nodes: u64,
    /// Why the input is no position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl PassRecord {
    /// The record of a search of game `G` on `sfen` with the defence set `defense`.
    pub fn new<G: Game>(sfen: &str, defense: Defense, r: &PassResult) -> Self {
        let proved = r.verdict == PassVerdict::Proved;
        PassRecord {
            sfen: sfen.to_string(),
            game: G::NAME,
            defense: defense.name(),
            verdict: r.verdict.name(),
            passes: r.passes.filter(|_| proved),
            first_move: r.first_move.filter(|_| proved).map(|m| m.to_usi::<G>()),
            nodes: r.nodes,
            error: None,
        }
    }

    /// The record of an input that is no legal position.
    pub fn invalid(sfen: &str, defense: Defense, error: &str) -> Self {
        PassRecord {
            sfen: sfen.to_string(),
            game: "",
            defense: defense.name(),
            verdict: "invalid",
            passes: None,
            first_move: None,
            nodes: 0,
            error: Some(error.to_string()),
        }
    }

    /// The text line: `<verdict> <passes> <nodes> <sfen> <move>`, `-` for no count or move.
    pub fn text(&self) -> String {
        let passes = self.passes.map_or("-".into(), |n| n.to_string());
        let mv = self.first_move.as_deref().unwrap_or("-");
        format!(
            "{} {passes} {} {} {mv}",
            self.verdict, self.nodes, self.sfen
        )
    }
}

/// The mate search for positions of either game, with one solver per game made on first
/// use (its table is allocated once and cleared for every position).
pub struct MateSolvers {
    opts: MateOptions,
    control: Option<SearchControl>,
    shogi: Option<Solver<Shogi>>,
    mini: Option<Solver<MiniShogi>>,
}

impl MateSolvers {
    /// Solvers with these options.
    pub fn new(opts: MateOptions) -> Self {
        MateSolvers {
            opts,
            control: None,
            shogi: None,
            mini: None,
        }
    }

    /// Lets `control` stop the searches from another thread (a Python caller's Ctrl-C):
    /// [`Solver::set_control`] for the solvers of both games, made or to be made.
    pub fn set_control(&mut self, control: Option<SearchControl>) {
        self.shogi = self.shogi.take().map(|s| controlled(s, &control));
        self.mini = self.mini.take().map(|s| controlled(s, &control));
        self.control = control;
    }

    /// Makes the solver of `game` now, if it is not made yet, so that its table is
    /// allocated here: an allocation that fails is an error, where [`MateSolvers::solve`]
    /// would abort.
    pub fn reserve(&mut self, game: GameKind) -> Result<(), String> {
        let opts = self.opts;
        match game {
            GameKind::Shogi if self.shogi.is_none() => {
                let solver =
                    Solver::try_new(opts).map_err(|e| table_error(opts.table_entries, e))?;
                self.shogi = Some(controlled(solver, &self.control));
            }
            GameKind::Mini if self.mini.is_none() => {
                let solver =
                    Solver::try_new(opts).map_err(|e| table_error(opts.table_entries, e))?;
                self.mini = Some(controlled(solver, &self.control));
            }
            _ => {}
        }
        Ok(())
    }

    /// Searches one SFEN (the game follows from its number of ranks; the side to move
    /// attacks and may have no king), or says why it is no legal position. Deep lines
    /// recurse deeply: run it on a thread with a large stack (the binary gives 256 MiB).
    pub fn solve(&mut self, sfen: &str) -> Result<MateRecord, String> {
        let (opts, control) = (self.opts, &self.control);
        let pos = AnyPosition::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
            .map_err(|e| e.to_string())?;
        Ok(match pos {
            AnyPosition::Shogi(p) => {
                let solver = self
                    .shogi
                    .get_or_insert_with(|| controlled(Solver::new(opts), control));
                MateRecord::new::<Shogi>(sfen, &solver.solve(&p))
            }
            AnyPosition::Mini(p) => {
                let solver = self
                    .mini
                    .get_or_insert_with(|| controlled(Solver::new(opts), control));
                MateRecord::new::<MiniShogi>(sfen, &solver.solve(&p))
            }
        })
    }
}

/// The possible pass count for positions of either game, with one solver per game made on
/// first use.
pub struct PassSolvers {
    opts: PassOptions,
    control: Option<SearchControl>,
    shogi: Option<PassSolver<Shogi>>,
    mini: Option<PassSolver<MiniShogi>>,
}

impl PassSolvers {
    /// Solvers with these options.
    pub fn new(opts: PassOptions) -> Self {
        PassSolvers {
            opts,
            control: None,
            shogi: None,
            mini: None,
        }
    }

    /// [`MateSolvers::set_control`] for the pass count.
    pub fn set_control(&mut self, control: Option<SearchControl>) {
        self.shogi = self.shogi.take().map(|s| controlled(s, &control));
        self.mini = self.mini.take().map(|s| controlled(s, &control));
        self.control = control;
    }

    /// The defence set searched.
    pub fn defense(&self) -> Defense {
        self.opts.defense
    }

    /// [`MateSolvers::reserve`] for the pass count.
    pub fn reserve(&mut self, game: GameKind) -> Result<(), String> {
        let opts = self.opts;
        match game {
            GameKind::Shogi if self.shogi.is_none() => {
                let solver =
                    PassSolver::try_new(opts).map_err(|e| table_error(opts.table_entries, e))?;
                self.shogi = Some(controlled(solver, &self.control));
            }
            GameKind::Mini if self.mini.is_none() => {
                let solver =
                    PassSolver::try_new(opts).map_err(|e| table_error(opts.table_entries, e))?;
                self.mini = Some(controlled(solver, &self.control));
            }
            _ => {}
        }
        Ok(())
    }

    /// The pass count of one SFEN, as [`MateSolvers::solve`] (a large stack too).
    pub fn solve(&mut self, sfen: &str) -> Result<PassRecord, String> {
        let (opts, control) = (self.opts, &self.control);
        let pos = AnyPosition::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
            .map_err(|e| e.to_string())?;
        Ok(match pos {
            AnyPosition::Shogi(p) => {
                let solver = self
                    .shogi
                    .get_or_insert_with(|| controlled(PassSolver::new(opts), control));
                PassRecord::new::<Shogi>(sfen, opts.defense, &solver.solve(&p))
            }
            AnyPosition::Mini(p) => {
                let solver = self
                    .mini
                    .get_or_insert_with(|| controlled(PassSolver::new(opts), control));
                PassRecord::new::<MiniShogi>(sfen, opts.defense, &solver.solve(&p))
            }
        })
    }
}

/// The solvers that a [`SearchControl`] can stop, of both searches.
trait Controlled {
    fn set_control(&mut self, control: Option<SearchControl>);
}

impl<G: Game> Controlled for Solver<G> {
    fn set_control(&mut self, control: Option<SearchControl>) {
        Solver::set_control(self, control);
    }
}

impl<G: Game> Controlled for PassSolver<G> {
    fn set_control(&mut self, control: Option<SearchControl>) {
        PassSolver::set_control(self, control);
    }
}

/// `solver` under `control`, the control of the solvers it joins.
fn controlled<S: Controlled>(mut solver: S, control: &Option<SearchControl>) -> S {
    solver.set_control(control.clone());
    solver
}

/// Why a table of `entries` entries could not be made.
fn table_error(entries: usize, e: std::collections::TryReserveError) -> String {
    match shogi_mate::Table::bytes_for(entries) {
        Some(bytes) => format!(
            "cannot allocate a transposition table of {} MiB: {e}",
            bytes >> 20
        ),
        None => format!("cannot allocate a transposition table of {entries} entries: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table the process cannot have is an error from `reserve`, not an abort.
    #[test]
    fn a_table_that_cannot_be_allocated_is_an_error() {
        let mate = MateOptions {
            table_entries: usize::MAX / 2,
            ..MateOptions::default()
        };
        let e = MateSolvers::new(mate).reserve(GameKind::Mini).unwrap_err();
        assert!(e.contains("cannot allocate a transposition table"), "{e}");
        let pass = PassOptions {
            table_entries: usize::MAX / 64,
            ..PassOptions::default()
        };
        let e = PassSolvers::new(pass).reserve(GameKind::Shogi).unwrap_err();
        assert!(e.contains("cannot allocate"), "{e}");
        let mut small = MateSolvers::new(MateOptions {
            table_entries: 1024,
            ..MateOptions::default()
        });
        small.reserve(GameKind::Shogi).expect("a small table");
        let r = small.solve("2k2/5/2G2/5/4K b G 1").expect("a position");
        assert_eq!(r.verdict, "mate");
    }
}
