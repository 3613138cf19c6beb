//! The one place where solvers are made, for `mate`, `pass-count`, the USI engine and the
//! Python module: the table of the size asked for (`--table-mb N`, `USI_Hash N` and
//! Python's table are all `N` MiB, see [`table_entries`]), allocated up front or a step at
//! a time under a search's control, with an error that names the size it could not get.

use crate::mate_records::{MateRecord, PassRecord};
use shogi_core::{AnyPosition, Game, GameKind, MiniShogi, Relax, SfenError, Shogi};
use shogi_mate::{
    MateOptions, PassOptions, PassSolver, SearchControl, Solver, Table, TableBuilder,
};
use std::collections::TryReserveError;
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
    /// Why the allocation failed.
    pub source: TryReserveError,
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
    /// The table entries, whether the table answers by superiority, and the threads that
    /// search one problem (they write the table too).
    fn table(opts: &Self::Options) -> (usize, bool, usize);
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
    fn table(opts: &MateOptions) -> (usize, bool, usize) {
        (opts.table_entries, opts.superiority, opts.threads)
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
    fn table(opts: &PassOptions) -> (usize, bool, usize) {
        (opts.table_entries, true, 1)
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

/// The solver made, or how far its allocation went.
type Made<'a, S> = Result<&'a mut S, Allocation>;

/// One game's solver, or its table while it is being allocated.
struct Slot<S> {
    solver: Option<S>,
    building: Option<TableBuilder>,
}

impl<S> Default for Slot<S> {
    fn default() -> Self {
        Slot {
            solver: None,
            building: None,
        }
    }
}

/// How far the table of a game is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// The table is whole and the solver made.
    Done,
    /// The allocation was stopped: these bytes of the whole are written, and the next
    /// call goes on from there.
    Stopped {
        /// Bytes written.
        done: usize,
        /// Bytes of the whole table.
        whole: usize,
    },
}

/// The solvers of a search for positions of either game, one per game, each made (its
/// table allocated) on first need and reused, table cleared, for every position after.
pub struct Solvers<K: Search> {
    opts: K::Options,
    control: Option<SearchControl>,
    shogi: Slot<K::Solver<Shogi>>,
    mini: Slot<K::Solver<MiniShogi>>,
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
            shogi: Slot::default(),
            mini: Slot::default(),
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
        if let Some(s) = self.shogi.solver.as_mut() {
            K::set_control(s, control.clone());
        }
        if let Some(s) = self.mini.solver.as_mut() {
            K::set_control(s, control.clone());
        }
        self.control = control;
    }

    /// Makes the solver of `game` now, if it is not made yet, so that its table is
    /// allocated here: an allocation that fails is an error before any search.
    pub fn reserve(&mut self, game: GameKind) -> Result<(), TableError> {
        self.reserve_while(game, || true).map(|_| ())
    }

    /// [`Solvers::reserve`] a step at a time while `go_on` answers `true`; what was
    /// allocated when it answered `false` is kept for the next call.
    pub fn reserve_while(
        &mut self,
        game: GameKind,
        go_on: impl FnMut() -> bool,
    ) -> Result<Allocation, TableError> {
        let (opts, control) = (self.opts, &self.control);
        Ok(match game {
            GameKind::Shogi => match made::<K, Shogi>(&mut self.shogi, opts, control, go_on)? {
                Ok(_) => Allocation::Done,
                Err(stopped) => stopped,
            },
            GameKind::Mini => match made::<K, MiniShogi>(&mut self.mini, opts, control, go_on)? {
                Ok(_) => Allocation::Done,
                Err(stopped) => stopped,
            },
        })
    }

    /// Finishes the tables whose allocation a stopped [`Solvers::reserve_while`] or
    /// [`Solvers::solve_position`] left half done, so that the next search does not wait
    /// for them.
    pub fn finish_allocations(&mut self) -> Result<(), TableError> {
        if self.shogi.building.is_some() {
            self.reserve(GameKind::Shogi)?;
        }
        if self.mini.building.is_some() {
            self.reserve(GameKind::Mini)?;
        }
        Ok(())
    }

    /// Searches one SFEN (the game follows from its number of ranks; the side to move
    /// attacks and may have no king). Deep lines recurse deeply: run it on a thread with a
    /// large stack (the binary gives 256 MiB).
    pub fn solve(&mut self, sfen: &str) -> Result<K::Record, SolveError> {
        let pos = AnyPosition::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
            .map_err(SolveError::Position)?;
        match self.solve_position(&pos, sfen, || true)? {
            Ok(record) => Ok(record),
            Err(_) => unreachable!("an allocation that always goes on is never stopped"),
        }
    }

    /// Searches `pos` (given as `sfen`), making its game's table first if need be a step at
    /// a time while `go_on` answers `true`: `Ok(Err(..))` when it stopped the allocation.
    pub fn solve_position(
        &mut self,
        pos: &AnyPosition,
        sfen: &str,
        go_on: impl FnMut() -> bool,
    ) -> Result<Result<K::Record, Allocation>, TableError> {
        let (opts, control) = (self.opts, &self.control);
        Ok(match pos {
            AnyPosition::Shogi(p) => made::<K, Shogi>(&mut self.shogi, opts, control, go_on)?
                .map(|s| K::solve(s, &opts, p, sfen)),
            AnyPosition::Mini(p) => made::<K, MiniShogi>(&mut self.mini, opts, control, go_on)?
                .map(|s| K::solve(s, &opts, p, sfen)),
        })
    }
}

/// The solver in `slot`, made with `opts` under `control` if there is none yet: its table
/// allocated, or its allocation resumed, a step at a time while `go_on` answers `true`;
/// `Ok(Err(..))` when `go_on` stopped it.
fn made<'a, K: Search, G: Game>(
    slot: &'a mut Slot<K::Solver<G>>,
    opts: K::Options,
    control: &Option<SearchControl>,
    go_on: impl FnMut() -> bool,
) -> Result<Made<'a, K::Solver<G>>, TableError> {
    if slot.solver.is_none() {
        let (entries, superiority, threads) = K::table(&opts);
        let mut building = match slot.building.take() {
            Some(b) => b,
            None => Table::builder(entries, superiority)
                .map_err(|source| TableError { entries, source })?
                .writers(threads),
        };
        let grown = building.grow(go_on);
        let (done, whole) = building.progress();
        match building.finish() {
            Ok(table) => {
                let mut solver = K::make::<G>(opts, table);
                K::set_control(&mut solver, control.clone());
                slot.solver = Some(solver);
            }
            Err(building) => {
                debug_assert!(!grown, "a grown table is whole");
                slot.building = Some(building);
                return Ok(Err(Allocation::Stopped { done, whole }));
            }
        }
    }
    Ok(slot.solver.as_mut().ok_or(Allocation::Done))
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
            source: Vec::<u8>::new().try_reserve(usize::MAX).unwrap_err(),
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

    /// An allocation stopped half way is kept and finished by the next call.
    #[test]
    fn a_stopped_allocation_goes_on_where_it_stopped() {
        let mut solvers = MateSolvers::new(MateOptions {
            table_entries: 1 << 18,
            ..MateOptions::default()
        });
        let mut steps = 0;
        let a = solvers
            .reserve_while(GameKind::Shogi, || {
                steps += 1;
                steps < 2
            })
            .unwrap();
        assert!(matches!(a, Allocation::Stopped { done, whole } if done > 0 && done < whole));
        let pos =
            AnyPosition::from_sfen_with("4k4/9/4P4/9/9/9/9/9/K8 b G 1", Relax::empty()).unwrap();
        assert_eq!(
            solvers.solve_position(&pos, "-", || false).unwrap().err(),
            Some(a),
            "stopped before any more was written"
        );
        let r = solvers.solve_position(&pos, "-", || true).unwrap().unwrap();
        assert_eq!(r.verdict, "mate");
    }
}
