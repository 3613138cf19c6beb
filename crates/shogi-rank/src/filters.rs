//! The cheap filters of docs/METHOD.md §5, in order: mirror, piece placement, check.

use core::cmp::Ordering;
use shogi_core::{Color, Game, PieceKind, Position};

/// Which filter of docs/METHOD.md §5 a position fails first, or that it passes all three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FilterOutcome {
    /// Dropped by the mirror filter: not canonical (White to move, or `Hflip(p) < p`).
    Mirror,
    /// Dropped by the piece-placement filter: two pawns on a file or a dead piece.
    Placement,
    /// Dropped by the check filter: the side not to move (White) is in check.
    Check,
    /// Passes the three filters (goes on to the reachability search).
    Pass,
}

/// Compares two boards by the tuple order of docs/METHOD.md §3: for each basic type in the order
/// King, Gold, Knight, Lance, Pawn, Silver, Rook, Bishop, the four sets (Black promoted,
/// White promoted, Black unpromoted, White unpromoted), each compared as its ascending list
/// of square indices (`x·H + y`), lexicographically, a proper prefix first. Hands and side to
/// move are not compared.
pub fn compare_boards<G: Game>(a: &Position<G>, b: &Position<G>) -> Ordering {
    for kind in PieceKind::PAPER_ORDER {
        for (color, promoted) in [
            (Color::Black, true),
            (Color::White, true),
            (Color::Black, false),
            (Color::White, false),
        ] {
            let k = if promoted {
                match kind.promoted() {
                    Some(k) => k,
                    None => continue,
                }
            } else {
                kind
            };
            let ord = Iterator::cmp(a.pieces(color, k), b.pieces(color, k));
            if ord != Ordering::Equal {
                return ord;
            }
        }
    }
    Ordering::Equal
}

/// Filter 1: whether the position is canonical: Black to move (a White-to-move position is
/// counted as its colour-flipped image) and `Hflip(p) >= p`. Samples of `P_K` are always
/// Black to move, so for them this is the mirror comparison alone.
pub fn mirror_ok<G: Game>(pos: &Position<G>) -> bool {
    if pos.side_to_move() != Color::Black {
        return false;
    }
    // The kings come first in the tuple order. If either is off the centre file, the
    // mirror's differ from the position's at the kings, and which is smaller is decided
    // there: the full comparison (with a mirrored copy) is needed only when both kings
    // stand on the centre file, about 1% of Shogi samples.
    let one = |c: Color| {
        (pos.pieces(c, PieceKind::King).count() == 1)
            .then(|| pos.king(c))
            .flatten()
    };
    if let (Some(b), Some(w)) = (one(Color::Black), one(Color::White)) {
        let centre = G::WIDTH / 2;
        if b.x::<G>() != centre || w.x::<G>() != centre {
            return (b.hflip::<G>(), w.hflip::<G>()) >= (b, w);
        }
    }
    compare_boards(&pos.hflip(), pos) != Ordering::Less
}

/// Filter 2: no two unpromoted pawns of a side on a file, no piece that can never move.
pub fn placement_ok<G: Game>(pos: &Position<G>) -> bool {
    pos.placement_errors().is_empty()
}

/// Filter 3: the side not to move is not in check.
pub fn check_ok<G: Game>(pos: &Position<G>) -> bool {
    !pos.in_check(!pos.side_to_move())
}

/// Runs the three filters in order and says where the position stops: the one filter
/// pipeline of the estimate, the search's `classify` and the command line.
pub fn classify<G: Game>(pos: &Position<G>) -> FilterOutcome {
    if mirror_ok(pos) {
        classify_legal(pos)
    } else {
        FilterOutcome::Mirror
    }
}

/// The filters after the mirror filter (placement, then check), for a question where
/// canonicity does not matter: it only picks which of a mirror pair is counted, and says
/// nothing about whether a position is reachable. Never [`FilterOutcome::Mirror`].
pub fn classify_legal<G: Game>(pos: &Position<G>) -> FilterOutcome {
    if !placement_ok(pos) {
        FilterOutcome::Placement
    } else if !check_ok(pos) {
        FilterOutcome::Check
    } else {
        FilterOutcome::Pass
    }
}

/// Survivor counts of the filter stages over a set of samples (Table 1 of the paper).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilterCounts {
    /// Samples seen.
    pub samples: u64,
    /// Samples that pass the mirror filter.
    pub mirror: u64,
    /// ... and the piece-placement filter.
    pub placement: u64,
    /// ... and the check filter.
    pub check: u64,
}

impl FilterCounts {
    /// Counts one position.
    pub fn add(&mut self, outcome: FilterOutcome) {
        self.samples += 1;
        if outcome > FilterOutcome::Mirror {
            self.mirror += 1;
        }
        if outcome > FilterOutcome::Placement {
            self.placement += 1;
        }
        if outcome > FilterOutcome::Check {
            self.check += 1;
        }
    }

    /// Adds another set of counts.
    pub fn merge(&mut self, other: &FilterCounts) {
        self.samples += other.samples;
        self.mirror += other.mirror;
        self.placement += other.placement;
        self.check += other.check;
    }
}
