//! The mate solver: a search from the root, its line checked before a mate is answered,
//! and the shortest mate by decreasing depth limits (docs/METHOD.md §11.3–§11.4).

use crate::control::SearchControl;
use crate::defender::with_defender_hand;
use crate::line;
use crate::options::{MateOptions, MateResult, SearchStats, Verdict};
use crate::outcome::{Outcome, ANY_DEPTH, NO_REP};
use crate::search::Search;
use crate::shortest;
use crate::table::Table;
use crate::threads;
use crate::verify::verify_line_with;
use shogi_core::{Game, Move, Position};
use std::collections::TryReserveError;

/// A mate solver for game `G`, with its transposition table. Reusing one solver for many
/// positions reuses the table's memory, not its contents: every search starts afresh, so
/// a position's answer does not depend on what was solved before.
pub struct Solver<G: Game> {
    search: Search<G>,
}

impl<G: Game> Solver<G> {
    /// A solver with the given options (the table is allocated here, once).
    pub fn new(opts: MateOptions) -> Solver<G> {
        Solver::with_table(opts, Table::new(opts.table_entries, opts.superiority))
    }

    /// [`Solver::new`], but a table the process cannot allocate is an error, not an abort.
    pub fn try_new(opts: MateOptions) -> Result<Solver<G>, TryReserveError> {
        let table = Table::try_new_on(opts.table_entries, opts.superiority, opts.threads.max(1))?;
        Ok(Solver::with_table(opts, table))
    }

    /// A solver on `table`, which takes the place of the one `opts.table_entries` and
    /// `opts.superiority` would make: for a table made by a [`crate::TableBuilder`], a step
    /// at a time.
    pub fn with_table(opts: MateOptions, table: Table) -> Solver<G> {
        Solver {
            search: Search::with_table(opts, table),
        }
    }

    /// The options.
    pub fn options(&self) -> &MateOptions {
        &self.search.opts
    }

    /// Lets `control` stop the searches of this solver from another thread and read their
    /// progress (`None`: no one can). A search that finds the flag raised (at its start too)
    /// returns [`Verdict::Unknown`] within [`crate::CHECK_INTERVAL`] nodes. The flag stays
    /// raised until the caller gives a fresh control: one control serves one search.
    pub fn set_control(&mut self, control: Option<SearchControl>) {
        self.search.control = control;
    }

    /// Searches `pos` for a mate by its side to move. `pos` is read with the defender-hand
    /// convention of the options.
    pub fn solve(&mut self, pos: &Position<G>) -> MateResult {
        if self.search.opts.shortest {
            self.solve_shortest(pos)
        } else {
            let (mut r, _, aborted) = self.solve_root(pos);
            r.cut = aborted;
            r
        }
    }

    /// [`Solver::solve`], then the shortest mate by the depth limit (docs/METHOD.md §11.4):
    /// a search with depth limit `M` proves a mate within `M` plies or, when it ends with a
    /// disproof, that there is none; `M` goes down from the length of the first proof, two
    /// plies below each mate found, all the searches on one table whose entries answer by
    /// length. When every search decides, the length is proved the shortest (the attacker
    /// shortest, the defender longest over every reply) and [`MateResult::shortest`] holds
    /// it, with a line of exactly that length: planned through the proofs, or, when the
    /// plan falls short (a table too small), walked with a search for each move (if the
    /// walk runs out of nodes, the planned line, which is never shorter). When one
    /// runs out of nodes, the result is the shortest mate found, `shortest` is `None`, and
    /// the line's length is only an upper bound.
    pub fn solve_shortest(&mut self, pos: &Position<G>) -> MateResult {
        let full = self.search.opts.max_depth;
        let (mut best, out, aborted) = self.solve_root(pos);
        if best.verdict != Verdict::Mate {
            best.cut = aborted;
            return best;
        }
        let mut cut = false;
        let mut nodes = best.stats.nodes;
        // Mate lengths are odd; `hi` is a length within which a mate is proved (the
        // proof's longest line, or the minimax line through the proved positions when it
        // is shorter), `lo` one within which none is: none within `lo - 2`.
        let bound = |r: &MateResult, out: &Outcome| {
            let line = if r.line_minimax {
                r.moves.len() as u32
            } else {
                u32::MAX
            };
            u32::from(out.len).min(line)
        };
        let (mut lo, mut hi) = (1u32, bound(&best, &out).min(full));
        let mut decided = true;
        while lo < hi {
            // Down from the mate found, not by halving: a search for a mate well below the
            // shortest must refute every line of checks to that depth, which in a long
            // problem costs more than the proofs above it. The table is kept: its proofs
            // answer wherever their mates are short enough and its disproofs wherever
            // their depth bounds reach (docs/METHOD.md §11.4).
            let m = hi - 2;
            self.search.opts.max_depth = m;
            let (r, out, aborted) = self.search_root(pos, &best.moves);
            nodes += r.stats.nodes;
            if r.verdict == Verdict::Mate {
                hi = bound(&r, &out).min(m);
                best = r;
            } else if !aborted && out.dn == 0 && out.rep == NO_REP {
                lo = m + 2;
            } else {
                decided = false;
                cut = aborted;
                break;
            }
        }
        self.search.opts.max_depth = full;
        best.shortest = (decided && lo == hi).then_some(hi);
        if best.shortest.is_some() && !(best.line_minimax && best.moves.len() == hi as usize) {
            // The plan through the table's proofs fell short (entries a full table
            // replaced): the line is walked instead, each move proved by a search.
            self.search.nodes = 0;
            if let Some(line) = shortest::walk_shortest(&mut self.search, pos, hi) {
                best.moves = line;
                best.line_minimax = true;
            } else {
                cut |= self.search.aborted;
            }
            nodes += self.search.nodes;
        }
        // The counters of every search of the loop, and the table as the last left it; the
        // mate's own search may be the first, whose counters were those of a few nodes.
        best.stats = SearchStats {
            nodes,
            table: self.search.table.stats(),
            table_fill: self.search.table.fill(),
        };
        best.cut = cut;
        if let Some(c) = &self.search.control {
            // The nodes of every search, not the last one's.
            c.publish(nodes, best.stats.table_fill);
        }
        best
    }

    /// The search under this solver, for the pass count, which is the same search with
    /// passes allowed.
    pub(crate) fn search_mut(&mut self) -> &mut Search<G> {
        &mut self.search
    }

    /// [`Solver::solve`], with the root's outcome and whether the search was cut short
    /// (node limit or stop).
    pub(crate) fn solve_root(&mut self, pos: &Position<G>) -> (MateResult, Outcome, bool) {
        self.search.clear();
        self.search_root(pos, &[])
    }

    /// [`Solver::solve_root`] on the table as it is: what earlier searches of the same
    /// position stored answers under this search's depth limit as the table allows.
    /// `line`, a mate found by an earlier search, gives a helper thread the positions to
    /// decide from the bottom up ([`threads::search_root`]).
    fn search_root(&mut self, pos: &Position<G>, line: &[Move]) -> (MateResult, Outcome, bool) {
        let s = &mut self.search;
        let root = with_defender_hand(pos, s.opts.defender_hand);
        s.start(&root);
        let (out, helpers) = threads::search_root(s, &root, line);
        // The nodes of every thread (the first thread's node limit stops them all).
        s.nodes += helpers;
        let mut result = MateResult {
            verdict: Verdict::Unknown,
            moves: Vec::new(),
            line_minimax: false,
            shortest: None,
            cut: false,
            pieces: None,
            stats: SearchStats::default(),
        };
        if out.pn == 0 {
            if let Some((line, minimax)) = line::extract_line(s, &root) {
                if verify_line_with(&root, &line, s.opts.futile_interpositions).is_ok() {
                    result.verdict = Verdict::Mate;
                    result.moves = line;
                    result.line_minimax = minimax;
                    result.pieces = Some(out.pieces.to_hand());
                }
            }
        } else if out.is_unconditional_disproof() {
            result.verdict = Verdict::NoMate;
            result.pieces = Some(out.pieces.to_hand());
        }
        result.stats = SearchStats {
            nodes: s.nodes,
            table: s.table.stats(),
            table_fill: s.table.fill(),
        };
        if let Some(c) = &s.control {
            c.publish(s.nodes, result.stats.table_fill);
        }
        (result, out, s.aborted)
    }

    /// Looks `pos` up in the table as the last search left it: `Some(true)` for a stored
    /// proof (by superiority too), `Some(false)` for a stored disproof, `None` otherwise.
    /// For tests and tools that check what the table knows.
    pub fn lookup(&mut self, pos: &Position<G>) -> Option<bool> {
        let s = &mut self.search;
        let p = s
            .table
            .probe(s.node_key(pos), s.attacker_hand(pos), ANY_DEPTH);
        if p.pn == 0 {
            Some(true)
        } else if p.dn == 0 {
            Some(false)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::{Relax, Shogi};

    fn pos(sfen: &str) -> Position<Shogi> {
        Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap()
    }

    /// The mate in 5 of YaneuraOu's set: the shortest is proved, with a line that long, and
    /// the nodes of every search are counted.
    #[test]
    fn the_shortest_mate_is_proved_with_a_line_of_its_length() {
        let p =
            pos("l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72");
        let mut solver = Solver::<Shogi>::new(MateOptions {
            table_entries: 1 << 14,
            ..MateOptions::default()
        });
        let first = solver.solve(&p);
        assert_eq!(first.verdict, Verdict::Mate);
        assert_eq!(first.shortest, None);
        let r = solver.solve_shortest(&p);
        assert_eq!((r.shortest, r.plies()), (Some(5), Some(5)));
        assert!(r.line_minimax);
        assert!(r.stats.nodes > first.stats.nodes, "every search counts");
        // The table's counters too, the last search's (no mate within 3) included, and
        // its fill as that search left it.
        assert_eq!(r.stats.table, solver.search.table.stats());
        assert_eq!(r.stats.table_fill, solver.search.table.fill());
        assert_eq!(solver.options().max_depth, crate::DEFAULT_MAX_DEPTH);
    }

    /// The table answers what the last search stored, and a new search forgets it.
    #[test]
    fn look_ups_see_the_last_search_only() {
        let mate = pos("4k4/9/4P4/9/9/9/9/9/K8 b G 1");
        let none = pos("4k4/9/9/9/9/9/9/9/K8 b - 1");
        let mut solver = Solver::<Shogi>::new(MateOptions {
            table_entries: 1 << 10,
            ..MateOptions::default()
        });
        let rest = with_defender_hand(&mate, crate::DefenderHand::Rest);
        assert_eq!(solver.solve(&mate).verdict, Verdict::Mate);
        assert_eq!(solver.lookup(&rest), Some(true));
        assert_eq!(solver.solve(&none).verdict, Verdict::NoMate);
        assert_eq!(solver.lookup(&rest), None);
    }

    /// A stop raised before the search begins answers unknown at once.
    #[test]
    fn a_stopped_control_stops_before_the_first_node() {
        let mut solver = Solver::<Shogi>::new(MateOptions {
            table_entries: 1 << 10,
            ..MateOptions::default()
        });
        let control = SearchControl::new();
        control.stop();
        solver.set_control(Some(control.clone()));
        let p =
            pos("l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72");
        let r = solver.solve(&p);
        assert_eq!((r.verdict, r.stats.nodes), (Verdict::Unknown, 1));
        assert_eq!(control.nodes(), 1);
    }

    /// Mates, one with a cycle of checks, and a no-mate: with two threads and with three,
    /// the verdicts and the shortest lengths of one thread, and the lines are mates.
    #[test]
    fn more_threads_answer_as_one_does() {
        let sfens = [
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
            "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
            "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL w GN2Ps 36",
            "7+P1/5R1s1/6ks1/9/5L1p1/9/9/9/9 b R2b4g2s4n3l16p 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ];
        for shortest in [false, true] {
            let opts = |threads| MateOptions {
                table_entries: 1 << 14,
                max_nodes: 2_000_000,
                shortest,
                threads,
                ..MateOptions::default()
            };
            let mut one = Solver::<Shogi>::new(opts(1));
            let mut many = [Solver::<Shogi>::new(opts(2)), Solver::new(opts(3))];
            for sfen in sfens {
                let pos = Position::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
                let a = one.solve(&pos);
                for solver in &mut many {
                    let b = solver.solve(&pos);
                    assert_eq!(a.verdict, b.verdict, "{sfen}");
                    assert_eq!(a.shortest, b.shortest, "{sfen}");
                    if b.verdict == Verdict::Mate {
                        crate::verify_line(&pos, &b.moves).unwrap();
                    }
                }
            }
        }
    }

    /// A stop raised from outside ends the first thread, which stops the helpers.
    #[test]
    fn a_stop_ends_every_thread() {
        let mut solver = Solver::<Shogi>::new(MateOptions {
            table_entries: 1 << 12,
            threads: 2,
            ..MateOptions::default()
        });
        let control = SearchControl::new();
        control.stop();
        solver.set_control(Some(control));
        let pos = Position::<Shogi>::from_sfen(
            "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
        )
        .unwrap();
        let r = solver.solve(&pos);
        assert_eq!(r.verdict, Verdict::Unknown);
        assert!(r.cut);
    }
}
