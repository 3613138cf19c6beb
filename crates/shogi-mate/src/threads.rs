//! Several threads on one problem (docs/METHOD.md §11.8): the search's own thread finds the
//! answer while helper threads search the same root on the same table, each with its own
//! path and wider thresholds; what any of them proves or disproves, all find. The helpers
//! stop when the first thread's search ends.

use crate::control::SearchControl;
use crate::node::Node;
use crate::numbers::INF;
use crate::outcome::Outcome;
use crate::search::Search;
use shogi_core::{Game, Position};

/// The stack of a helper thread: as much as the binary gives the first (lines of thousands
/// of plies recurse deeply); reserved, not committed, until used.
const HELPER_STACK: usize = 256 << 20;

/// Searches the root `root` with `s` and `s.opts.threads - 1` helpers: the outcome of
/// `s`'s search, and the nodes the helpers searched. One thread searches alone, as if there
/// were no helpers at all, and so does a search stopped before it starts; a helper that
/// cannot be started is left out.
pub(crate) fn search_root<G: Game>(s: &mut Search<G>, root: &Position<G>) -> (Outcome, u64) {
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

    fn search(sfen: &str, threads: usize) -> (Outcome, u64) {
        let pos = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
        let opts = MateOptions {
            table_entries: 1 << 12,
            threads,
            ..MateOptions::default()
        };
        let mut s = Search::<Shogi>::with_table(opts, Table::new(1 << 12, true));
        s.start(&pos);
        let (out, helpers) = search_root(&mut s, &pos);
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
}
