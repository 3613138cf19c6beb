//! Several threads on one problem (docs/METHOD.md §11.8): the search's own thread finds the
//! answer while helper threads search the same root on the same table, each with its own
//! path and wider thresholds; what any of them proves or disproves, all find. When an
//! earlier search found a mate, the first helper decides that line's positions from the
//! bottom up before it turns to the root. The helpers stop when the first thread's search
//! ends.

use crate::control::SearchControl;
use crate::node::Node;
use crate::numbers::INF;
use crate::outcome::Outcome;
use crate::search::Search;
use shogi_core::{Game, Move, Position};

/// The stack of a helper thread: as much as the binary gives the first (lines of thousands
/// of plies recurse deeply); reserved, not committed, until used.
const HELPER_STACK: usize = 256 << 20;

/// Searches the root `root` with `s` and `s.opts.threads - 1` helpers: the outcome of
/// `s`'s search, and the nodes the helpers searched. One thread searches alone, as if there
/// were no helpers at all, and so does a search stopped before it starts; a helper that
/// cannot be started is left out. `line`, a mate from `root` that an earlier search found
/// (or nothing), is the first helper's to decide from the bottom up ([`decide_line`]).
pub(crate) fn search_root<G: Game>(
    s: &mut Search<G>,
    root: &Position<G>,
    line: &[Move],
) -> (Outcome, u64) {
    let helpers = s.opts.threads.saturating_sub(1);
    // A search stopped before it starts starts no helper either.
    if helpers == 0 || s.aborted {
        return (s.mid(root, Node::mate(true), INF, INF, 1), 0);
    }
    let stop = SearchControl::new();
    s.shared = true;
    let mut nodes = 0;
    let out = std::thread::scope(|scope| {
        let mut running = Vec::new();
        for k in 0..helpers {
            let mut h = Search::<G>::with_table(s.opts, s.table.share());
            h.opts.max_nodes = u64::MAX;
            h.defense = s.defense;
            h.shared = true;
            h.spread = spread_of(k);
            h.control = Some(stop.clone());
            let root = root.clone();
            let spawned = std::thread::Builder::new()
                .stack_size(HELPER_STACK)
                .spawn_scoped(scope, move || {
                    h.start(&root);
                    if k == 0 {
                        decide_line(&mut h, &root, line);
                        h.restart();
                    }
                    h.mid(&root, Node::mate(true), INF, INF, 1);
                    h.nodes
                });
            // A helper not started drops its search (and its share of the table) here.
            running.extend(spawned.ok());
        }
        let out = s.mid(root, Node::mate(true), INF, INF, 1);
        stop.stop();
        // Collections no longer wait for this thread while it waits for the helpers.
        s.table.step_out();
        for h in running {
            nodes += h.join().unwrap_or(0);
        }
        out
    });
    s.table.step_in();
    s.shared = false;
    (out, nodes)
}

/// Decides the positions of `line`, a mate from `root`, from the last up (the root left
/// out), each under the depth limit it has on the line in this search: `d` plies down,
/// `max_depth - d` plies left.
///
/// Proving that a long mate is the shortest is a search for a mate two plies shorter,
/// which must refute the attacker all the way down the line it found; on a table that
/// holds that line's proofs, most of the work is one forced position after another, where
/// a helper starting from the root only follows the first thread. Started at the bottom,
/// the helper stores the refutations of the line's lower positions (each a search of its
/// subtree, the ones below it already known) before the first thread gets there, and the
/// two meet in the middle (docs/METHOD.md §11.8). Should a position have a shorter mate,
/// the helper stores that proof instead, which the first thread needs as much.
pub(crate) fn decide_line<G: Game>(h: &mut Search<G>, root: &Position<G>, line: &[Move]) {
    let full = h.opts.max_depth;
    let mut positions = Vec::with_capacity(line.len());
    let mut pos = root.clone();
    for &mv in line {
        pos.play_unchecked(mv);
        positions.push(pos.clone());
    }
    // The last position is the mate itself: no move to search.
    positions.pop();
    for (i, p) in positions.iter().enumerate().rev() {
        let d = i as u32 + 1;
        if h.aborted {
            break;
        }
        if full <= d {
            continue;
        }
        h.opts.max_depth = full - d;
        h.restart();
        let node = h.mate_node(p);
        h.mid(p, node, INF, INF, 1);
    }
    h.opts.max_depth = full;
}

/// The spread of helper `k` (from 0): 1, 2, 3, ... ([`crate::numbers::spread`]), so that
/// helpers part ways with each other too.
fn spread_of(k: usize) -> u32 {
    u32::try_from(k + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::MateOptions;
    use crate::table::Table;
    use shogi_core::{Relax, Shogi};

    /// A mate in 19 of testdata/mate/shogi_shortest.tsv (KomoringHeights' MinLength).
    const LONG: &str = "3g1gs1l/lr2k4/npppB2+Pp/5pp2/p6B1/2P6/PP1PPPP1L/3G1K3/LNS2GSN1 b RSN2Pp 1";

    fn search(sfen: &str, threads: usize) -> (Outcome, u64) {
        let pos = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
        let opts = MateOptions {
            table_entries: 1 << 12,
            threads,
            ..MateOptions::default()
        };
        let mut s = Search::<Shogi>::with_table(opts, Table::new(1 << 12, true));
        s.start(&pos);
        let (out, helpers) = search_root(&mut s, &pos, &[]);
        assert!(!s.shared, "the search is left alone again");
        (out, helpers)
    }

    /// With helpers the root is decided as alone; alone, no helper counts a node.
    #[test]
    fn helpers_decide_the_root_as_one_thread_does() {
        let mate = "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72";
        let (one, none) = search(mate, 1);
        assert_eq!((one.pn, none), (0, 0));
        for threads in [2, 3] {
            assert_eq!(search(mate, threads).0.pn, 0);
        }
        let no_mate = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        assert_eq!(search(no_mate, 2).0.dn, 0);
    }

    /// [`LONG`], the options of a shortest-mate search with a small table, its solution and
    /// its length.
    fn long_mate() -> (Position<Shogi>, MateOptions, crate::MateResult, u32) {
        let pos = Position::<Shogi>::from_sfen_with(LONG, Relax::ATTACKER_WITHOUT_KING).unwrap();
        let opts = MateOptions {
            table_entries: 1 << 14,
            shortest: true,
            ..MateOptions::default()
        };
        let found = crate::Solver::<Shogi>::new(opts).solve(&pos);
        let len = found.shortest.expect("a proved length");
        (pos, opts, found, len)
    }

    /// Decided from the bottom up, the positions of a line leave the refutation of a mate
    /// two plies shorter in the table: the search from the root then needs fewer nodes and
    /// answers the same.
    #[test]
    fn a_line_decided_from_the_bottom_up_shortens_the_search_from_the_root() {
        let (pos, opts, found, len) = long_mate();
        assert_eq!(found.moves.len() as u32, len);
        let bounded = MateOptions {
            max_depth: len - 2,
            shortest: false,
            ..opts
        };
        let mut alone = Search::<Shogi>::with_table(bounded, Table::new(1 << 14, true));
        alone.start(&pos);
        let out = alone.mid(&pos, Node::mate(true), INF, INF, 1);
        assert!(out.dn == 0 && out.pn != 0, "no mate two plies shorter");
        let mut helped = Search::<Shogi>::with_table(bounded, Table::new(1 << 14, true));
        helped.start(&pos);
        decide_line(&mut helped, &pos, &found.moves);
        assert_eq!(helped.opts.max_depth, len - 2, "the limit is restored");
        let below = helped.nodes;
        assert!(below > 0);
        helped.restart();
        let again = helped.mid(&pos, Node::mate(true), INF, INF, 1);
        assert_eq!((again.pn, again.dn), (out.pn, out.dn));
        let above = helped.nodes - below;
        assert!(
            above < alone.nodes,
            "{above} nodes from the root after the line, {} alone",
            alone.nodes
        );
    }

    /// With a line for the first helper, two threads answer as one.
    #[test]
    fn a_helper_given_a_line_leaves_the_answer_as_it_was() {
        let (pos, opts, found, len) = long_mate();
        for (max_depth, mate) in [(len - 2, false), (len, true)] {
            let o = MateOptions {
                max_depth,
                threads: 2,
                ..opts
            };
            let mut s = Search::<Shogi>::with_table(o, Table::new(1 << 14, true));
            s.start(&pos);
            let (out, _) = search_root(&mut s, &pos, &found.moves);
            assert_eq!(out.pn == 0, mate, "within {max_depth}");
            assert_eq!(out.dn == 0, !mate, "within {max_depth}");
        }
    }
}
