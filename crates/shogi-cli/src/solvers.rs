//! The one place where solvers are made, for `mate`, `pass-count`, the USI engine and the
//! Python module: the table of the size asked for (`--table-mb N`, `USI_Hash N` and
//! Python's table are all `N` MiB, see [`table_entries`]), with an error that names the
//! size it could not get.

use crate::mate_records::{MateRecord, PassRecord};
use shogi_core::{AnyPosition, Game, GameKind, MiniShogi, Relax, SfenError, Shogi};
use shogi_mate::{MateOptions, PassOptions, PassSolver, SearchControl, Solver, Table};
use std::fmt;

/// The entries of a table of `mib` MiB: what every front end gives the solver for its
/// size in MiB, so that the table allocates exactly that.
pub fn table_entries(mib: u64) -> usize {
    Table::entries_in(
        usize::try_from(mib)
            .unwrap_or(usize::MAX)
            .saturating_mul(1 << 20),
    )
}

/// Which mate a front end answers: the one rule for `mate`, USI's `go mate` and Python's
/// `mate()`, so that they cannot differ in what they answer by default.
///
/// The default is what a tsume user expects and KomoringHeights answers: the proved
/// shortest mate under the composers' conventions (docs/METHOD.md §11.4, §11.5, §11.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateMode {
    /// Answer the first mate proved, without proving the shortest: the fast search, for
    /// batch work (`mate --first`, USI `ShortestMate false`, Python `first=True`).
    pub first: bool,
    /// Count every legal reply, futile interpositions (無駄合) included
    /// (`mate --all-interpositions`, USI `FutileInterpositions false`, Python
    /// `all_interpositions=True`).
    pub all_interpositions: bool,
}

impl MateMode {
    /// `opts` searching this mode's mate; its limits, table and refinements kept.
    pub fn options(self, opts: MateOptions) -> MateOptions {
        MateOptions {
            shortest: !self.first,
            futile_interpositions: !self.all_interpositions,
            ..opts
        }
    }
}

/// A transposition table that could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The entries asked for.
    pub entries: usize,
    /// Why the allocation failed: the system's refusal, as it words it.
    pub source: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Table::bytes_for(self.entries) {
            Some(bytes) => write!(
                f,
                "cannot allocate a transposition table of {} MiB: {}",
                bytes >> 20,
                self.source
            ),
            None => write!(
                f,
                "cannot allocate a transposition table of {} entries: {}",
                self.entries, self.source
            ),
        }
    }
}

impl std::error::Error for TableError {}

/// Why a position was not searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The SFEN is no legal position.
    Position(SfenError),
    /// The table of its game could not be allocated.
    Table(TableError),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Position(e) => e.fmt(f),
            SolveError::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<TableError> for SolveError {
    fn from(e: TableError) -> Self {
        SolveError::Table(e)
    }
}

/// A search that [`Solvers`] make: the mate search or the pass count.
pub trait Search {
    /// Its options.
    type Options: Copy + PartialEq + fmt::Debug;
    /// Its solver for game `G`.
    type Solver<G: Game>;
    /// What it prints for one position.
    type Record;
    /// The table entries and whether the table answers by superiority.
    fn table(opts: &Self::Options) -> (usize, bool);
    /// A solver on `table`.
    fn make<G: Game>(opts: Self::Options, table: Table) -> Self::Solver<G>;
    /// [`Solver::set_control`].
    fn set_control<G: Game>(solver: &mut Self::Solver<G>, control: Option<SearchControl>);
    /// Searches `pos`, given as `sfen`.
    fn solve<G: Game>(
        solver: &mut Self::Solver<G>,
        opts: &Self::Options,
        pos: &shogi_core::Position<G>,
        sfen: &str,
    ) -> Self::Record;
}

/// The mate search ([`Solver`]).
#[derive(Debug)]
pub struct Mate;

impl Search for Mate {
    type Options = MateOptions;
    type Solver<G: Game> = Solver<G>;
    type Record = MateRecord;
    fn table(opts: &MateOptions) -> (usize, bool) {
        (opts.table_entries, opts.superiority)
    }
    fn make<G: Game>(opts: MateOptions, table: Table) -> Solver<G> {
        Solver::with_table(opts, table)
    }
    fn set_control<G: Game>(solver: &mut Solver<G>, control: Option<SearchControl>) {
        solver.set_control(control);
    }
    fn solve<G: Game>(
        solver: &mut Solver<G>,
        _: &MateOptions,
        pos: &shogi_core::Position<G>,
        sfen: &str,
    ) -> MateRecord {
        MateRecord::new::<G>(sfen, &solver.solve(pos))
    }
}

/// The possible pass count ([`PassSolver`]).
#[derive(Debug)]
pub struct PassCount;

impl Search for PassCount {
    type Options = PassOptions;
    type Solver<G: Game> = PassSolver<G>;
    type Record = PassRecord;
    fn table(opts: &PassOptions) -> (usize, bool) {
        (opts.table_entries, true)
    }
    fn make<G: Game>(opts: PassOptions, table: Table) -> PassSolver<G> {
        PassSolver::with_table(opts, table)
    }
    fn set_control<G: Game>(solver: &mut PassSolver<G>, control: Option<SearchControl>) {
        solver.set_control(control);
    }
    fn solve<G: Game>(
        solver: &mut PassSolver<G>,
        opts: &PassOptions,
        pos: &shogi_core::Position<G>,
        sfen: &str,
    ) -> PassRecord {
        PassRecord::new::<G>(sfen, opts.defense, &solver.solve(pos))
    }
}

/// The solvers of a search for positions of either game, one per game, each made (its
/// table allocated) on first need and reused, table cleared, for every position after.
pub struct Solvers<K: Search> {
    opts: K::Options,
    control: Option<SearchControl>,
    shogi: Option<K::Solver<Shogi>>,
    mini: Option<K::Solver<MiniShogi>>,
}

/// The mate search for positions of either game.
pub type MateSolvers = Solvers<Mate>;
/// The possible pass count for positions of either game.
pub type PassSolvers = Solvers<PassCount>;

impl<K: Search> Solvers<K> {
    /// Solvers with these options; no table is allocated yet.
    pub fn new(opts: K::Options) -> Self {
        Solvers {
            opts,
            control: None,
            shogi: None,
            mini: None,
        }
    }

    /// The options.
    pub fn options(&self) -> &K::Options {
        &self.opts
    }

    /// Lets `control` stop the searches from another thread (a Python caller's Ctrl-C,
    /// USI's `stop` and time limit) and read their progress, for the solvers of both
    /// games, made or to be made.
    pub fn set_control(&mut self, control: Option<SearchControl>) {
        if let Some(s) = self.shogi.as_mut() {
            K::set_control(s, control.clone());
        }
        if let Some(s) = self.mini.as_mut() {
            K::set_control(s, control.clone());
        }
        self.control = control;
    }

    /// Makes the solver of `game` now, if it is not made yet: an allocation that fails is
    /// an error before any search. The table's memory is reserved here and committed as
    /// searches touch it, so making even a 4 GiB table is immediate.
    pub fn reserve(&mut self, game: GameKind) -> Result<(), TableError> {
        let (opts, control) = (self.opts, &self.control);
        match game {
            GameKind::Shogi => made::<K, Shogi>(&mut self.shogi, opts, control).map(|_| ()),
            GameKind::Mini => made::<K, MiniShogi>(&mut self.mini, opts, control).map(|_| ()),
        }
    }

    /// Searches one SFEN (the game follows from its number of ranks; the side to move
    /// attacks and may have no king). Deep lines recurse deeply: run it on a thread with a
    /// large stack (the binary gives 256 MiB).
    pub fn solve(&mut self, sfen: &str) -> Result<K::Record, SolveError> {
        let pos = AnyPosition::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
            .map_err(SolveError::Position)?;
        Ok(self.solve_position(&pos, sfen)?)
    }

    /// Searches `pos` (given as `sfen`), making its game's solver first if need be.
    pub fn solve_position(
        &mut self,
        pos: &AnyPosition,
        sfen: &str,
    ) -> Result<K::Record, TableError> {
        let (opts, control) = (self.opts, &self.control);
        Ok(match pos {
            AnyPosition::Shogi(p) => K::solve(
                made::<K, Shogi>(&mut self.shogi, opts, control)?,
                &opts,
                p,
                sfen,
            ),
            AnyPosition::Mini(p) => K::solve(
                made::<K, MiniShogi>(&mut self.mini, opts, control)?,
                &opts,
                p,
                sfen,
            ),
        })
    }
}

/// The solver in `slot`, made with `opts` under `control` if there is none yet.
fn made<'a, K: Search, G: Game>(
    slot: &'a mut Option<K::Solver<G>>,
    opts: K::Options,
    control: &Option<SearchControl>,
) -> Result<&'a mut K::Solver<G>, TableError> {
    if let Some(solver) = slot {
        return Ok(solver);
    }
    let (entries, superiority) = K::table(&opts);
    let table = Table::try_new(entries, superiority).map_err(|e| TableError {
        entries,
        source: e.to_string(),
    })?;
    let mut solver = K::make::<G>(opts, table);
    K::set_control(&mut solver, control.clone());
    Ok(slot.insert(solver))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table the process cannot have is an error from `reserve`, not an abort, and names
    /// the size asked for; a table of N MiB allocates N MiB.
    #[test]
    fn a_table_that_cannot_be_allocated_is_an_error() {
        let mate = MateOptions {
            table_entries: usize::MAX / 64,
            ..MateOptions::default()
        };
        let e = MateSolvers::new(mate).reserve(GameKind::Mini).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot allocate a transposition table of "),
            "{e}"
        );
        let pass = PassOptions {
            table_entries: usize::MAX / 64,
            ..PassOptions::default()
        };
        let e = PassSolvers::new(pass).reserve(GameKind::Shogi).unwrap_err();
        assert!(e.to_string().contains("cannot allocate"), "{e}");
        assert_eq!(Table::bytes_for(table_entries(100)), Some(100 << 20));
        let e = TableError {
            entries: table_entries(100),
            source: "out of memory".into(),
        };
        assert!(e.to_string().contains(" 100 MiB"), "{e}");
        let mut small = MateSolvers::new(MateOptions {
            table_entries: 1024,
            ..MateOptions::default()
        });
        small.reserve(GameKind::Shogi).expect("a small table");
        let r = small.solve("2k2/5/2G2/5/4K b G 1").expect("a position");
        assert_eq!(r.verdict, "mate");
        assert!(matches!(
            small.solve("9/9 b - 1"),
            Err(SolveError::Position(_))
        ));
    }

    /// Every front end's default is the proved shortest mate under the composers'
    /// conventions, and each option turns off one of the two, the limits kept.
    #[test]
    fn the_default_mate_is_the_proved_shortest_under_the_conventions() {
        let limits = MateOptions {
            max_nodes: 77,
            table_entries: 1 << 12,
            shortest: false,
            ..MateOptions::default()
        };
        let o = MateMode::default().options(limits);
        assert!(o.shortest && o.futile_interpositions);
        assert_eq!((o.max_nodes, o.table_entries), (77, 1 << 12));
        let first = MateMode {
            first: true,
            ..MateMode::default()
        }
        .options(limits);
        assert!(!first.shortest && first.futile_interpositions);
        let every = MateMode {
            all_interpositions: true,
            ..MateMode::default()
        }
        .options(limits);
        assert!(every.shortest && !every.futile_interpositions);
    }

    /// A table of 4 GiB, the largest `USI_Hash` and `--table-mb`, is made at once: its
    /// memory is reserved, not written, and committed as the search touches it, so that a
    /// `go` that has to make it is not held from its time limit or `stop`. A search on it
    /// finds its mate as on a small one.
    #[test]
    fn the_largest_table_is_made_without_writing_its_memory() {
        let mut solvers = MateSolvers::new(MateOptions {
            table_entries: table_entries(4096),
            ..MateOptions::default()
        });
        solvers
            .reserve(GameKind::Shogi)
            .expect("4 GiB of address space");
        let pos =
            AnyPosition::from_sfen_with("4k4/9/4P4/9/9/9/9/9/K8 b G 1", Relax::empty()).unwrap();
        let r = solvers.solve_position(&pos, "-").unwrap();
        assert_eq!(r.verdict, "mate");
        assert_eq!(r.moves, ["G*5b"]);
    }
}
