//! The walk of a shortest mate (docs/METHOD.md §11.4): once the shortest length is proved,
//! a line of exactly that length with every move proved by a search, for when the plan
//! through the table's proofs falls short.

use crate::defender::with_defender_hand;
use crate::node::Node;
use crate::numbers::INF;
use crate::outcome::NO_REP;
use crate::search::Search;
use crate::verify::verify_line_with;
use shogi_core::{Game, Move, Position};

/// A line of exactly `len` plies from `root`, whose shortest mate is proved to be `len`,
/// with every move proved by a search under the depth limit: at attacker nodes a check
/// after which the defender is mated within the plies left, at defender nodes a reply
/// after which the attacker has no mate in two plies fewer (so the reply resists longest:
/// the shortest mate strictly falls along the line, and at each defender node some reply
/// keeps it). The searches use the table as the shortest-mate searches left it, which
/// usually holds these answers, and share one node limit. `None` when a search does not
/// decide.
pub(crate) fn walk_shortest<G: Game>(
    s: &mut Search<G>,
    root: &Position<G>,
    len: u32,
) -> Option<Vec<Move>> {
    let root = with_defender_hand(root, s.opts.defender_hand);
    let full = s.opts.max_depth;
    let mut pos = root.clone();
    let mut line = Vec::with_capacity(len as usize);
    let mut found = true;
    for r in (1..=len).rev() {
        let or_node = pos.side_to_move() == s.attacker;
        let start = s.children.len();
        s.expand(&pos, Node::mate(or_node));
        let mut moves: Vec<(u16, Move)> = s.children[start..]
            .iter()
            .map(|c| {
                (
                    s.table.shortest_proof(c.key, c.hand).unwrap_or(u16::MAX),
                    c.mv,
                )
            })
            .collect();
        s.children.truncate(start);
        // The likeliest first: the shortest stored mates after a check, the longest (or
        // unknown) after a reply.
        if or_node {
            moves.sort_by_key(|m| m.0);
        } else {
            moves.sort_by_key(|m| core::cmp::Reverse(m.0));
        }
        let mut pick = None;
        for (_, mv) in moves {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let keeps = if or_node {
                mates_within(s, &next, r - 1)
            } else if r < 3 {
                Some(false)
            } else {
                mates_within(s, &next, r - 3)
            };
            match (keeps, or_node) {
                (Some(true), true) | (Some(false), false) => {
                    pick = Some(mv);
                    break;
                }
                (None, _) => break,
                _ => {}
            }
        }
        let Some(mv) = pick else {
            found = false;
            break;
        };
        line.push(mv);
        pos.play_unchecked(mv);
    }
    s.opts.max_depth = full;
    (found && verify_line_with(&root, &line, s.opts.futile_interpositions).is_ok()).then_some(line)
}

/// Whether the position `pos` (attacker or defender to move) is mated within `m` plies: a
/// search with that depth limit, on the table as it is. `None` when it does not decide
/// (the node limit, or a disproof that rests on a repetition).
pub(crate) fn mates_within<G: Game>(s: &mut Search<G>, pos: &Position<G>, m: u32) -> Option<bool> {
    if s.aborted {
        return None;
    }
    s.opts.max_depth = m;
    s.history.clear();
    let node = s.mate_node(pos);
    let out = s.mid(pos, node, INF, INF, 1);
    if s.aborted {
        None
    } else if out.pn == 0 {
        Some(true)
    } else if out.dn == 0 && out.rep == NO_REP {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::MateOptions;
    use crate::table::Table;
    use crate::verify::verify_line;
    use shogi_core::{Relax, Shogi};

    fn search(sfen: &str) -> (Search<Shogi>, Position<Shogi>) {
        let pos = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING).unwrap();
        let opts = MateOptions::default();
        let mut s = Search::with_table(opts, Table::new(1 << 14, true));
        s.start(&with_defender_hand(&pos, opts.defender_hand));
        (s, pos)
    }

    const MATE5: &str =
        "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72";

    #[test]
    fn a_mate_within_m_plies_is_decided_both_ways() {
        let (mut s, pos) = search(MATE5);
        let root = with_defender_hand(&pos, s.opts.defender_hand);
        assert_eq!(mates_within(&mut s, &root, 3), Some(false));
        assert_eq!(mates_within(&mut s, &root, 5), Some(true));
        assert_eq!(mates_within(&mut s, &root, 9), Some(true));
    }

    /// On a fresh table the walk proves each move by its own searches: a line of exactly
    /// the shortest length, every reply the longest resistance.
    #[test]
    fn the_walk_finds_a_line_of_the_shortest_length() {
        let (mut s, pos) = search(MATE5);
        let line = walk_shortest(&mut s, &pos, 5).expect("a line");
        assert_eq!(line.len(), 5);
        verify_line(&with_defender_hand(&pos, s.opts.defender_hand), &line).expect("mates");
        assert_eq!(
            s.opts.max_depth,
            crate::DEFAULT_MAX_DEPTH,
            "the limit is restored"
        );
        // Asked for a length shorter than the shortest, it finds none.
        assert_eq!(walk_shortest(&mut s, &pos, 3), None);
    }
}
