//! Proof and disproof number arithmetic (docs/METHOD.md §11.2): a node's numbers from its
//! children's, and the thresholds df-pn passes down.
//!
//! At an OR node (the attacker to move) the proof number is the least child's and the
//! disproof number the sum; at an AND node the other way round. Sums are taken in 64 bits
//! and clamped below [`INF`], so that a large sum is never read as a proof or a disproof.

/// An infinite proof or disproof number: proved nodes have `(0, INF)`, disproved `(INF, 0)`.
pub const INF: u32 = u32::MAX;

/// Children whose number is this large count by their maximum, not their sum. In cycles a
/// node's number is summed from its descendants' stored numbers, which were summed from
/// its own: summing grows them geometrically until they stick just under infinity, where
/// the thresholds stop telling the search anything (a position with a cycle of checks
/// then runs to the node limit in a few thousand positions). Counting the large ones by
/// their maximum grows them additively.
pub(crate) const SUM_LIMIT: u32 = INF / 1024;

/// A node's numbers as [`aggregate_numbers`] finds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Aggregate {
    /// The node's proof number.
    pub pn: u32,
    /// The node's disproof number.
    pub dn: u32,
    /// The index (among the children given) of the child to search: the least proof
    /// number at an OR node, the least disproof number at an AND node.
    pub best: usize,
    /// The second-least of those numbers ([`INF`] with one child).
    pub second: u32,
}

/// Proof and disproof numbers of a node from its children's `(pn, dn)` (`None`: a child
/// that waits, left out), with the child to search and the second-best number. At an OR
/// node the proof number is the least child's and the disproof number the sum (children
/// at or above [`SUM_LIMIT`] counted by their maximum), clamped below infinity; at an AND
/// node the other way round. Once a child decides the node (a least number of 0), the sum
/// is [`INF`].
pub(crate) fn aggregate_numbers(
    children: impl Iterator<Item = Option<(u32, u32)>>,
    or_node: bool,
) -> Aggregate {
    let mut least = INF;
    let mut second = INF;
    let mut best = 0;
    let mut sum: u64 = 0;
    let mut largest = 0;
    for (i, numbers) in children.enumerate() {
        let Some((pn, dn)) = numbers else {
            continue;
        };
        let (mine, other) = if or_node { (pn, dn) } else { (dn, pn) };
        if mine < least {
            second = least;
            least = mine;
            best = i;
        } else if mine < second {
            second = mine;
        }
        if other >= SUM_LIMIT {
            largest = largest.max(other);
        } else {
            sum += other as u64;
        }
    }
    let sum = if least == 0 {
        INF
    } else {
        (sum + largest as u64).min(INF as u64 - 1) as u32
    };
    let (pn, dn) = if or_node { (least, sum) } else { (sum, least) };
    Aggregate {
        pn,
        dn,
        best,
        second,
    }
}

/// The threshold for the second-best child plus a quarter: the widening (1 + ε with
/// ε = 1/4) that keeps df-pn from switching back and forth between two close children.
#[inline]
pub(crate) fn widen(second: u32) -> u32 {
    let w = second as u64 + second as u64 / 4 + 1;
    w.min(INF as u64 - 1) as u32
}

/// The second-best number `second` as a helper thread with spread `k` sees it
/// (docs/METHOD.md §11.8): `1 + 2^-k` times larger, so that the helper's thresholds are
/// wider than the first thread's; unchanged for `k = 0`.
#[inline]
pub(crate) fn spread(second: u32, k: u32) -> u32 {
    if k == 0 || k >= 32 {
        second
    } else {
        second.saturating_add(second >> k)
    }
}

/// The threshold passed to the child searched at a node whose own number is `own` against
/// threshold `th`: the child may grow until the node reaches its threshold.
#[inline]
pub(crate) fn sub_threshold(th: u32, own: u32, child: u32) -> u32 {
    if th == INF {
        return INF;
    }
    let t = th as u64 + child as u64 - own as u64;
    t.min(INF as u64 - 1) as u32
}

/// The thresholds `(pn, dn)` of the child `child` (its numbers) searched at a node with
/// numbers `node` and thresholds `th`, `second` the second-best number: the child's own
/// number may reach the widened second-best, the other may grow with the node's.
#[inline]
pub(crate) fn child_thresholds(
    or_node: bool,
    th: (u32, u32),
    node: (u32, u32),
    child: (u32, u32),
    second: u32,
) -> (u32, u32) {
    if or_node {
        (
            th.0.min(widen(second)),
            sub_threshold(th.1, node.1, child.1),
        )
    } else {
        (
            sub_threshold(th.0, node.0, child.0),
            th.1.min(widen(second)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agg(children: &[Option<(u32, u32)>], or_node: bool) -> Aggregate {
        aggregate_numbers(children.iter().copied(), or_node)
    }

    #[test]
    fn an_or_node_takes_the_least_proof_number_and_sums_disproof_numbers() {
        let a = agg(&[Some((3, 2)), Some((1, 5)), Some((2, 1))], true);
        assert_eq!(
            a,
            Aggregate {
                pn: 1,
                dn: 8,
                best: 1,
                second: 2
            }
        );
        // An AND node is the mirror image.
        let a = agg(&[Some((2, 3)), Some((5, 1)), Some((1, 2))], false);
        assert_eq!(
            a,
            Aggregate {
                pn: 8,
                dn: 1,
                best: 1,
                second: 2
            }
        );
    }

    #[test]
    fn a_waiting_child_counts_for_nothing_but_keeps_its_index() {
        let a = agg(&[None, Some((4, 4)), None, Some((2, 3))], true);
        assert_eq!((a.pn, a.dn, a.best, a.second), (2, 7, 3, 4));
        let none = agg(&[None, None], true);
        assert_eq!((none.pn, none.dn, none.second), (INF, 0, INF));
    }

    #[test]
    fn a_decided_child_decides_the_node() {
        let a = agg(&[Some((5, 5)), Some((0, INF))], true);
        assert_eq!((a.pn, a.dn, a.best), (0, INF, 1));
        // Every child disproved: the OR node is disproved.
        let a = agg(&[Some((INF, 0)), Some((INF, 0))], true);
        assert_eq!((a.pn, a.dn), (INF, 0));
        let a = agg(&[Some((3, 0)), Some((1, 1))], false);
        assert_eq!((a.pn, a.dn), (INF, 0));
    }

    #[test]
    fn sums_stay_below_infinity_and_large_numbers_count_by_their_maximum() {
        let big = SUM_LIMIT + 7;
        let a = agg(&[Some((1, big)), Some((2, big)), Some((3, 10))], true);
        assert_eq!(a.dn, big + 10, "the large ones by their maximum");
        let a = agg(&[Some((1, SUM_LIMIT - 1)); 2000], true);
        assert_eq!(
            a.dn,
            INF - 1,
            "a sum that overflows is clamped, not infinite"
        );
        let a = agg(&[Some((1, INF - 1)), Some((1, INF - 1))], true);
        assert_eq!(a.dn, INF - 1);
    }

    #[test]
    fn thresholds_widen_by_a_quarter_and_never_reach_infinity() {
        assert_eq!(widen(0), 1);
        assert_eq!(widen(8), 11);
        assert_eq!(widen(INF), INF - 1);
        assert_eq!(sub_threshold(INF, 5, 3), INF);
        assert_eq!(sub_threshold(10, 6, 2), 6);
        assert_eq!(sub_threshold(INF - 1, 0, INF - 1), INF - 1);
        // At an OR node the child's proof number is bounded by the second-best widened and
        // its disproof number grows with the node's.
        assert_eq!(child_thresholds(true, (10, 20), (2, 9), (2, 4), 4), (6, 15));
        assert_eq!(
            child_thresholds(false, (20, 10), (9, 2), (4, 2), 4),
            (15, 6)
        );
    }

    /// A helper's spread widens the second-best number, never past infinity; no spread is
    /// the first thread's number.
    #[test]
    fn the_spread_widens_the_second_best_number() {
        assert_eq!(spread(100, 0), 100);
        assert_eq!(spread(100, 1), 150);
        assert_eq!(spread(100, 2), 125);
        assert_eq!(spread(INF, 1), INF);
        assert_eq!(spread(7, 40), 7);
    }
}
