//! The defender's side of the main line (docs/METHOD.md §11.7, rules 3, 4, 7 and 8): at each
//! defender node the longest defences, the one the main line takes (one that leaves the
//! attacker no pieces in hand, where one does) and the others as long, which are 変同; and,
//! when the declared length is shorter than the proved one, the first defence of the
//! recorded solution that is not a longest one.

use super::checker::Checker;
use super::report::{Flaw, FlawKind};
use shogi_core::{Game, Move, Position};

/// The most longest defences of one defender node whose lines are walked to their end to
/// find the one that leaves the attacker no pieces in hand: each costs a walk, and more
/// than a handful of different longest defences at one node is a problem with bigger
/// faults than a choice among them.
const MOST_DEFENCES_WALKED: usize = 8;

impl<G: Game> Checker<'_, G> {
    /// The defender node `pos` of the main line, `left` plies from the end, where the
    /// solver's line plays `main` and the recorded solution `record`: the longest defences,
    /// the one the main line takes (one that leaves the attacker no pieces in hand, where
    /// one does; the recorded one first, then the solver's), and the others as long that
    /// are 変同. Returns the main line's rest from here when it changes.
    pub(super) fn defence(
        &mut self,
        pos: &Position<G>,
        main: Move,
        record: Option<Move>,
        ply: u32,
        left: u32,
    ) -> Option<Vec<Move>> {
        // The longest defences, drops of other kinds on one square counted as one (the
        // choice of the interposed piece is free where it changes nothing).
        let mut all: Vec<Move> = Vec::new();
        for mv in self.moves(pos, false) {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let keeps = if left < 4 {
                Some(true)
            } else {
                self.within(&next, left - 3).map(|m| !m)
            };
            match keeps {
                Some(true) => all.push(mv),
                Some(false) => {}
                None => self.undecided += 1,
            }
        }
        // The recorded defence first, the solver's next, then one a square for the drops.
        all.sort_by_key(|&mv| (Some(mv) != record, mv != main));
        let mut longest: Vec<Move> = Vec::new();
        for mv in all {
            let same_square = |m: &Move| is_drop(*m) && m.to() == mv.to();
            if !(is_drop(mv) && longest.iter().any(same_square)) {
                longest.push(mv);
            }
        }
        if longest.is_empty() || longest == [main] {
            return None;
        }
        // Each longest defence's line to the end, and the attacker's hand there.
        let mut lines: Vec<(Move, Vec<Move>, bool)> = Vec::new();
        for &mv in longest.iter().take(MOST_DEFENCES_WALKED) {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            // The recorded continuation, where this is the recorded defence, is the line
            // the composer meant; else the walk's.
            let recorded = (Some(mv) == record)
                .then(|| self.recorded_rest(ply as usize, &next, left - 1))
                .flatten();
            let Some(rest) = recorded.or_else(|| self.walk(&next, left - 1)) else {
                self.undecided += 1;
                continue;
            };
            // Whether some line after this defence leaves no pieces, not only the one
            // walked: a search of the lines of the proved length when the walk's does not.
            if self.ends_empty(&next, &rest) {
                lines.push((mv, rest, true));
                continue;
            }
            match self.empty_line(&next, left - 1) {
                Some(Some(empty)) => lines.push((mv, empty, true)),
                Some(None) => lines.push((mv, rest, false)),
                None => {
                    self.undecided += 1;
                    lines.push((mv, rest, false));
                }
            }
        }
        let chosen = lines
            .iter()
            .position(|l| l.2)
            .or_else(|| lines.iter().position(|l| Some(l.0) == record))
            .or_else(|| lines.iter().position(|l| l.0 == main))
            // The line's own defence is not a longest one (a recorded line followed so far
            // whose defender errs here): the first longest.
            .or_else(|| (!lines.is_empty()).then_some(0))?;
        let (mv, rest, empty) = lines[chosen].clone();
        // 変同: another defence as long that leaves no pieces either (or, where every
        // longest line leaves some, any other); composers do not call the last two plies
        // one.
        if left > 2 {
            for (i, (other, line, other_empty)) in lines.iter().enumerate() {
                if i != chosen && (*other_empty || !empty) {
                    let mut moves = vec![*other];
                    moves.extend(line.iter().copied());
                    self.flaws.push(Flaw {
                        kind: FlawKind::EqualVariation,
                        ply,
                        moves,
                        pieces: None,
                    });
                }
            }
        }
        (mv != main || empty).then(|| {
            let mut line = vec![mv];
            line.extend(rest);
            line
        })
    }

    /// The first defender move of the recorded solution that is not a longest defence,
    /// with a longest one and its line, while the recorded attacker moves keep the mate
    /// within the proved length.
    pub(super) fn longer_defence(&mut self, len: u32) -> Option<Flaw> {
        let solution = self.problem.solution.clone()?;
        let attacker = self.root.side_to_move();
        let mut pos = self.root.clone();
        for (i, &mv) in solution.iter().enumerate() {
            let left = len.checked_sub(i as u32)?;
            let mut next = pos.clone();
            next.play_unchecked(mv);
            if pos.side_to_move() == attacker {
                if left < 2 || self.within(&next, left - 1) != Some(true) {
                    return None;
                }
            } else if left >= 4 && self.within(&next, left - 3) == Some(true) {
                // The recorded reply is mated sooner: find a reply that is not.
                for other in self.moves(&pos, false) {
                    let mut after = pos.clone();
                    after.play_unchecked(other);
                    if self.within(&after, left - 3) == Some(false) {
                        let mut moves = vec![other];
                        moves.extend(self.walk(&after, left - 1).unwrap_or_default());
                        return Some(Flaw {
                            kind: FlawKind::LongerVariation,
                            ply: i as u32 + 1,
                            moves,
                            pieces: None,
                        });
                    }
                }
                return None;
            }
            pos = next;
        }
        None
    }
}

fn is_drop(mv: Move) -> bool {
    matches!(mv, Move::Drop { .. })
}

#[cfg(test)]
mod tests;
