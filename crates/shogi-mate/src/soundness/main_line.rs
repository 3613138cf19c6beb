//! The main line (docs/METHOD.md §11.7, "The main line" and rules 5, 6 and 8): the solver's
//! line of the proved length, following the recorded solution where it keeps to that
//! length; the other checks at each attacker move of it (余詰, and the alternatives
//! composers tolerate); and the findings on the whole line, pieces left (駒余り) and the
//! declared length against the proved one.

use super::checker::Checker;
use super::report::{Flaw, FlawKind};
use shogi_core::{Game, Move, Position};

impl<G: Game> Checker<'_, G> {
    /// The main line, from the solver's `line` of the proved length `len`, with the
    /// alternatives and variations of each ply examined on the way. It follows the recorded
    /// solution while that keeps to the proved length (the composer's line where it is one
    /// of the answers), then the solver's line.
    pub(super) fn main_line(&mut self, mut line: Vec<Move>, len: u32) -> Vec<Move> {
        let attacker = self.root.side_to_move();
        let recorded = self.problem.solution.clone().unwrap_or_default();
        let mut on_record = true;
        let mut pos = self.root.clone();
        let mut ply = 0usize;
        // A search for a line that leaves no pieces was left open: not asked again.
        let mut empty_open = false;
        while ply < line.len() {
            let left = len - ply as u32;
            let or_node = pos.side_to_move() == attacker;
            let record = recorded.get(ply).copied().filter(|_| on_record);
            if or_node {
                if let Some(mv) = record.filter(|&mv| mv != line[ply]) {
                    let mut next = pos.clone();
                    next.play_unchecked(mv);
                    let rest = if left == 1 {
                        crate::verify::mated(&next, true).then(Vec::new)
                    } else if self.within(&next, left - 1) == Some(true) {
                        self.recorded_rest(ply + 1, &next, left - 1)
                            .or_else(|| self.walk(&next, left - 1))
                    } else {
                        None
                    };
                    if let Some(rest) = rest {
                        line.truncate(ply);
                        line.push(mv);
                        line.extend(rest);
                    }
                }
                if !empty_open && !self.ends_empty(&pos, &line[ply..]) {
                    empty_open = !self.towards_empty(&pos, &mut line, ply, left);
                }
                on_record = record == Some(line[ply]);
                self.alternatives(&pos, line[ply], ply as u32 + 1, left);
            } else {
                if let Some(rest) = self.defence(&pos, line[ply], record, ply as u32 + 1, left) {
                    line.truncate(ply);
                    line.extend(rest);
                }
                on_record = record == Some(line[ply]);
            }
            pos.play_unchecked(line[ply]);
            ply += 1;
        }
        line
    }

    /// At the attacker node `pos` of the main `line`, `ply` plies in and `left` from the
    /// end, whose line leaves the attacker pieces: the line's rest after its check changed
    /// for one that leaves none, where one does (the defender chooses such lines, rule 3;
    /// a composer's solution is one, rule 5), and at the last move another mating check
    /// that leaves none taken instead (the one left is a tolerated alternative). False when
    /// a limit left the question open.
    fn towards_empty(
        &mut self,
        pos: &Position<G>,
        line: &mut Vec<Move>,
        ply: usize,
        left: u32,
    ) -> bool {
        // Before the last move the check stays and the lines after it are searched; at the
        // last move the search from this node chooses among the mating checks.
        let (from, keep, plies) = if left == 1 {
            (pos.clone(), ply, left)
        } else {
            let mut next = pos.clone();
            next.play_unchecked(line[ply]);
            (next, ply + 1, left - 1)
        };
        match self.empty_line(&from, plies) {
            Some(Some(rest)) => {
                line.truncate(keep);
                line.extend(rest);
                true
            }
            Some(None) => true,
            None => {
                self.undecided += 1;
                false
            }
        }
    }

    /// The other checks at an attacker node of the main line, with `left` plies left to
    /// the mate: those that also mate within them are 余詰, tolerated at the last move and
    /// as a choice of promotion.
    fn alternatives(&mut self, pos: &Position<G>, main: Move, ply: u32, left: u32) {
        for mv in self.moves(pos, true) {
            if mv == main {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let mates = if left == 1 {
                Some(crate::verify::mated(&next, true))
            } else {
                self.within(&next, left - 1)
            };
            match mates {
                Some(true) => {
                    let moves = if left == 1 {
                        vec![mv]
                    } else {
                        self.alternative_line(mv, &next, left - 1)
                    };
                    let kind = if left == 1 {
                        FlawKind::LastMoveAlternative
                    } else if promotion_choice(main, mv) {
                        FlawKind::Unlimited
                    } else {
                        FlawKind::AlternativeMate
                    };
                    self.flaws.push(Flaw {
                        kind,
                        ply,
                        moves,
                        pieces: None,
                    });
                }
                Some(false) => {}
                None => self.undecided += 1,
            }
        }
    }

    /// The alternative check `mv` and, after it, a shortest mate of the position `next` it
    /// leads to, which is mated within `most` plies: the shortest length found by searches
    /// within 0, 2, … plies, then its walk. Only `mv` when a limit stops that.
    fn alternative_line(&mut self, mv: Move, next: &Position<G>, most: u32) -> Vec<Move> {
        let mut line = vec![mv];
        for m in (0..=most).step_by(2) {
            match self.within(next, m) {
                Some(true) => {
                    if m > 0 {
                        line.extend(self.walk(next, m).unwrap_or_default());
                    }
                    break;
                }
                Some(false) => {}
                None => break,
            }
        }
        line
    }

    /// The findings on the whole line: pieces left, and the declared length against the
    /// proved one.
    pub(super) fn declared(&mut self, len: u32, line: &[Move]) {
        let attacker = self.root.side_to_move();
        let mut end = self.root.clone();
        for &mv in line {
            end.play_unchecked(mv);
        }
        let hand = *end.hand(attacker);
        if !hand.is_empty() {
            self.flaws.push(Flaw {
                kind: FlawKind::PiecesLeft,
                ply: len,
                moves: line.to_vec(),
                pieces: Some(hand),
            });
        }
        match self.problem.declared {
            Some(d) if d > len => self.flaws.push(Flaw {
                kind: FlawKind::ShorterMate,
                ply: 1,
                moves: line.to_vec(),
                pieces: None,
            }),
            Some(d) if d < len => {
                let found = self.longer_defence(len);
                self.flaws.push(found.unwrap_or(Flaw {
                    kind: FlawKind::LongerVariation,
                    ply: 0,
                    moves: line.to_vec(),
                    pieces: None,
                }));
            }
            _ => {}
        }
    }
}

/// Whether `a` and `b` are one board move, with and without promotion.
fn promotion_choice(a: Move, b: Move) -> bool {
    match (a, b) {
        (
            Move::Normal {
                from: f1,
                to: t1,
                promote: p1,
            },
            Move::Normal {
                from: f2,
                to: t2,
                promote: p2,
            },
        ) => f1 == f2 && t1 == t2 && p1 != p2,
        _ => false,
    }
}

#[cfg(test)]
mod tests;
