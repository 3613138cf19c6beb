//! Legal moves handed out as sets: one origin (or one kind in hand) and all its
//! destinations as bitboards, for callers that count, test or filter moves without
//! building each one ([`Position::for_each_move_set`]).

use crate::movegen::{Expand, MoveSink};
use crate::{Bitboard, Game, Move, PieceKind, Position, Rules, Square};
use core::ops::ControlFlow;

/// Legal moves sharing an origin: the board moves of one piece, or the drops of one kind.
/// Never empty when handed out by [`Position::for_each_move_set`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveSet {
    /// Board moves of the piece of `kind` (the mover's) standing on `from`.
    ///
    /// `plain` and `promotions` overlap where promotion is optional; a square only in
    /// `promotions` is a compulsory promotion (the piece could not move on from there),
    /// one only in `plain` a move outside the zone or of a piece that cannot promote.
    Board {
        /// The square the piece stands on.
        from: Square,
        /// Its kind (promoted kinds as they stand: a dragon is a `Dragon`).
        kind: PieceKind,
        /// Destinations reached without promoting.
        plain: Bitboard,
        /// Destinations reached by promoting.
        promotions: Bitboard,
    },
    /// Drops of `kind` from the mover's hand.
    Drops {
        /// The kind dropped (a hand kind: never promoted, never a king).
        kind: PieceKind,
        /// The empty squares it may be dropped on.
        to: Bitboard,
    },
}

impl MoveSet {
    /// How many moves the set stands for (a promotion and a non-promotion to one square
    /// are two moves).
    #[inline(always)]
    pub fn len(&self) -> usize {
        match *self {
            MoveSet::Board {
                plain, promotions, ..
            } => (plain.count() + promotions.count()) as usize,
            MoveSet::Drops { to, .. } => to.count() as usize,
        }
    }

    /// Whether the set holds no move (never so for a set the generator hands out).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        match *self {
            MoveSet::Board {
                plain, promotions, ..
            } => (plain | promotions).is_empty(),
            MoveSet::Drops { to, .. } => to.is_empty(),
        }
    }

    /// The moves of the set, promotions first, each group in square order (the order of
    /// [`Position::legal_moves`]).
    pub fn moves(self) -> impl Iterator<Item = Move> {
        let (board, drops) = match self {
            MoveSet::Board {
                from,
                plain,
                promotions,
                ..
            } => (Some((from, plain, promotions)), None),
            MoveSet::Drops { kind, to } => (None, Some((kind, to))),
        };
        let board = board.into_iter().flat_map(|(from, plain, promotions)| {
            let promote = move |to| Move::Normal {
                from,
                to,
                promote: true,
            };
            let stay = move |to| Move::Normal {
                from,
                to,
                promote: false,
            };
            promotions.map(promote).chain(plain.map(stay))
        });
        let drops = drops
            .into_iter()
            .flat_map(|(kind, to)| to.map(move |to| Move::Drop { kind, to }));
        board.chain(drops)
    }
}

/// Hands every set to a caller's function, and keeps the value it breaks with.
struct SetSink<F, B> {
    f: F,
    stopped: Option<B>,
}

impl<F: FnMut(MoveSet) -> ControlFlow<B>, B> MoveSink for SetSink<F, B> {
    #[inline(always)]
    fn piece(&mut self, from: Square, kind: PieceKind, to: Bitboard, ex: &Expand) -> bool {
        let (plain, promotions) = ex.split(from, kind, to);
        if (plain | promotions).is_empty() {
            return false;
        }
        self.hand_out(MoveSet::Board {
            from,
            kind,
            plain,
            promotions,
        })
    }

    #[inline(always)]
    fn drops(&mut self, kind: PieceKind, to: Bitboard) -> bool {
        self.hand_out(MoveSet::Drops { kind, to })
    }
}

impl<F: FnMut(MoveSet) -> ControlFlow<B>, B> SetSink<F, B> {
    #[inline(always)]
    fn hand_out(&mut self, set: MoveSet) -> bool {
        match (self.f)(set) {
            ControlFlow::Continue(()) => false,
            ControlFlow::Break(b) => {
                self.stopped = Some(b);
                true
            }
        }
    }
}

impl<G: Game> Position<G> {
    /// Calls `f` with every legal move of the side to move under `rules`, grouped into
    /// [`MoveSet`]s (none empty), and stops as soon as `f` returns
    /// [`ControlFlow::Break`], handing back its value. Nothing is allocated and no
    /// [`Move`] is built: counting the moves is a popcount per set, which is how
    /// [`Position::perft`] counts its last ply.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use shogi_core::{MoveSet, PieceKind, Position, Rules, Shogi};
    ///
    /// let pos = Position::<Shogi>::startpos();
    /// let mut moves = 0;
    /// let _ = pos.for_each_move_set(Rules::default(), |set| {
    ///     moves += set.len();
    ///     ControlFlow::<()>::Continue(())
    /// });
    /// assert_eq!(moves, 30);
    ///
    /// // Early exit: the first rook move, found without generating the rest.
    /// let rook = pos.for_each_move_set(Rules::default(), |set| match set {
    ///     MoveSet::Board { kind: PieceKind::Rook, .. } => {
    ///         ControlFlow::Break(set.moves().next())
    ///     }
    ///     _ => ControlFlow::Continue(()),
    /// });
    /// let first = rook.break_value().flatten().expect("the rook can move");
    /// assert_eq!(first.to_usi::<Shogi>(), "2h7h");
    /// ```
    pub fn for_each_move_set<B>(
        &self,
        rules: Rules,
        f: impl FnMut(MoveSet) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let mut sink = SetSink { f, stopped: None };
        self.generate(rules, &mut sink);
        match sink.stopped {
            Some(b) => ControlFlow::Break(b),
            None => ControlFlow::Continue(()),
        }
    }
}
