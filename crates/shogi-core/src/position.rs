//! The position: board, hands, side to move, and an incrementally kept Zobrist key.

use crate::attacks::{bishop_attacks, lance_attacks, rook_attacks, step_attacks};
use crate::geometry::MAX_SQUARES;
use crate::{Bitboard, Color, Game, Hand, Material, Move, Piece, PieceKind, Square};
use core::marker::PhantomData;

/// A position of game `G`: the triple (side to move, board, hands) of docs/METHOD.md §2, plus the SFEN
/// move number, which takes no part in equality or hashing.
///
/// A `Position` is valid by construction: each side has exactly one king and no kind has
/// more pieces (board and hands together) than the game has; the one exception, asked for
/// with [`crate::Relax::ATTACKER_WITHOUT_KING`], is a mate problem whose attacker has no
/// king (it never gets one, and is never in check). Positions come from
/// [`crate::Setup::into_position`] (SFEN text goes through it too), from
/// [`Position::startpos`], and from moves and unmoves, which keep both rules. A position
/// may still break the rules its setup was allowed to ([`crate::Relax`]: two pawns, dead
/// pieces, the side not to move in check); [`Position::validate`] says which.
#[derive(Clone)]
pub struct Position<G: Game> {
    board: [Option<Piece>; MAX_SQUARES],
    colors: [Bitboard; 2],
    kinds: [Bitboard; PieceKind::COUNT],
    hands: [Hand; 2],
    side: Color,
    key: u64,
    move_number: u32,
    _game: PhantomData<G>,
}

impl<G: Game> PartialEq for Position<G> {
    fn eq(&self, other: &Self) -> bool {
        self.side == other.side
            && self.hands == other.hands
            && self.board[..G::SQUARES] == other.board[..G::SQUARES]
    }
}
impl<G: Game> Eq for Position<G> {}

impl<G: Game> core::hash::Hash for Position<G> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.key);
    }
}

impl<G: Game> core::fmt::Debug for Position<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Position(")?;
        self.write_sfen(f)?;
        f.write_str(")")
    }
}

impl<G: Game> core::fmt::Display for Position<G> {
    /// The SFEN of the position.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.write_sfen(f)
    }
}

impl<G: Game> Default for Position<G> {
    fn default() -> Self {
        Self::startpos()
    }
}

impl<G: Game> Position<G> {
    /// An empty board, empty hands, Black to move, move number 1: no position (it has no
    /// kings), the starting point of a [`crate::Setup`].
    pub(crate) fn empty() -> Self {
        Position {
            board: [None; MAX_SQUARES],
            colors: [Bitboard::EMPTY; 2],
            kinds: [Bitboard::EMPTY; PieceKind::COUNT],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            key: 0,
            move_number: 1,
            _game: PhantomData,
        }
    }

    /// The initial position of the game.
    pub fn startpos() -> Self {
        // The board field of the start SFEN holds only piece letters, digits and slashes
        // (Black to move, empty hands): read here without the SFEN parser, whose error
        // texts need `std`. A test checks the result against the parser's.
        let mut pos = Self::empty();
        let board = G::START_SFEN.split(' ').next().unwrap_or_default();
        for (y, rank) in board.split('/').enumerate() {
            let mut x = 0;
            for ch in rank.chars() {
                if let Some(empty) = ch.to_digit(10) {
                    x += empty;
                    continue;
                }
                let kind = PieceKind::from_letter(ch).expect("a piece letter");
                let color = Color::of_letter(ch);
                pos.put(Square::at::<G>(x as u8, y as u8), Piece::new(color, kind));
                x += 1;
            }
        }
        pos
    }

    /// The unchecked position of a whole board, both hands and the side to move (move
    /// number 1), or `None` if `board.len()` is not `G::SQUARES`: the colour and kind
    /// bitboards and the key are computed in one pass instead of piece by piece as
    /// [`Position::put`] and [`Position::set_hand`] do, with the same result. See
    /// [`crate::Setup::from_board`].
    pub(crate) fn from_board_unchecked(
        board: &[Option<Piece>],
        hands: [Hand; 2],
        side: Color,
    ) -> Option<Self> {
        if board.len() != G::SQUARES {
            return None;
        }
        let t = G::tables();
        let mut pos = Self::empty();
        let mut key = 0u64;
        // First the occupied squares, without a branch (the occupancy of a square is
        // unpredictable), then only those (measured faster than a branch on every square).
        let mut occupied = 0u128;
        for (i, p) in board.iter().enumerate() {
            occupied |= (p.is_some() as u128) << i;
        }
        for sq in Bitboard(occupied) {
            if let Some(p) = board[sq.index()] {
                let b = Bitboard::from_square(sq);
                pos.colors[p.color.index()] |= b;
                pos.kinds[p.kind.index()] |= b;
                key = key.wrapping_add(t.zobrist_board[p.index()][sq.index()]);
            }
        }
        pos.board[..G::SQUARES].copy_from_slice(board);
        for c in Color::ALL {
            for (k, &n) in hands[c.index()].0.iter().enumerate() {
                key = key.wrapping_add(t.zobrist_hand[c.index()][k].wrapping_mul(n as u64));
            }
        }
        if side == Color::White {
            key = key.wrapping_add(t.zobrist_side);
        }
        pos.hands = hands;
        pos.side = side;
        pos.key = key;
        Some(pos)
    }

    // ---- queries ----------------------------------------------------------------------

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The squares holding pieces of `color`.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The squares holding pieces of `kind` (both colours).
    #[inline(always)]
    pub fn by_kind(&self, kind: PieceKind) -> Bitboard {
        self.kinds[kind.index()]
    }

    /// The squares holding pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.colors[color.index()] & self.kinds[kind.index()]
    }

    /// The hand of `color`.
    #[inline(always)]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key of (side to move, board, hands); equal positions have equal keys.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The SFEN move number (informational only).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The square of `color`'s king (the lowest one if, illegally, there are several).
    #[inline(always)]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces(color, PieceKind::King).first()
    }

    /// The pieces of both sides, counted per basic kind over board and hands.
    pub fn material(&self) -> Material {
        let mut m = Material::default();
        for kind in PieceKind::ALL {
            let base = kind.unpromoted().index();
            m.0[base] = m.0[base].saturating_add(self.kinds[kind.index()].count() as u8);
        }
        for hand in &self.hands {
            for (i, &n) in hand.0.iter().enumerate() {
                m.0[i] = m.0[i].saturating_add(n);
            }
        }
        m
    }

    // ---- edits (keep every derived field and the key in step) ---------------------------
    // Crate-private: they can break the invariants, so only `Setup` (checked on the way
    // out), the parser and the move makers below use them.

    /// Puts `piece` on `sq`, returning what stood there before.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        let old = self.take(sq);
        self.add_piece(sq, piece);
        old
    }

    /// Removes and returns the piece on `sq`, if any.
    pub(crate) fn take(&mut self, sq: Square) -> Option<Piece> {
        let old = self.board[sq.index()]?;
        self.remove_piece(sq, old);
        Some(old)
    }

    /// Sets the number of `kind` (a hand kind) in `color`'s hand. Kings cannot be held:
    /// other kinds are mapped to their unpromoted form.
    pub(crate) fn set_hand(&mut self, color: Color, kind: PieceKind, count: u8) {
        let kind = kind.unpromoted();
        if kind == PieceKind::King {
            return;
        }
        let old = self.hands[color.index()].0[kind.index()];
        let z = G::tables().zobrist_hand[color.index()][kind.index()];
        self.key = self
            .key
            .wrapping_sub(z.wrapping_mul(old as u64))
            .wrapping_add(z.wrapping_mul(count as u64));
        self.hands[color.index()].0[kind.index()] = count;
    }

    /// Sets the side to move.
    pub(crate) fn set_side_to_move(&mut self, color: Color) {
        if color != self.side {
            self.flip_side();
        }
    }

    /// Sets the SFEN move number.
    pub fn set_move_number(&mut self, n: u32) {
        self.move_number = n;
    }

    #[inline(always)]
    fn add_piece(&mut self, sq: Square, piece: Piece) {
        let b = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.colors[piece.color.index()] |= b;
        self.kinds[piece.kind.index()] |= b;
        self.key = self
            .key
            .wrapping_add(G::tables().zobrist_board[piece.index()][sq.index()]);
    }

    #[inline(always)]
    fn remove_piece(&mut self, sq: Square, piece: Piece) {
        let b = Bitboard::from_square(sq);
        self.board[sq.index()] = None;
        self.colors[piece.color.index()] ^= b;
        self.kinds[piece.kind.index()] ^= b;
        self.key = self
            .key
            .wrapping_sub(G::tables().zobrist_board[piece.index()][sq.index()]);
    }

    /// Hands the move to the other side. The key is additive (a sum of per-feature keys
    /// modulo 2^64) so that a hand holding `n` pieces of a kind can add its key `n` times.
    #[inline(always)]
    fn flip_side(&mut self) {
        let z = G::tables().zobrist_side;
        self.side = !self.side;
        self.key = match self.side {
            Color::White => self.key.wrapping_add(z),
            Color::Black => self.key.wrapping_sub(z),
        };
    }

    #[inline(always)]
    fn add_to_hand(&mut self, color: Color, kind: PieceKind) {
        self.hands[color.index()].0[kind.index()] += 1;
        self.key = self
            .key
            .wrapping_add(G::tables().zobrist_hand[color.index()][kind.index()]);
    }

    #[inline(always)]
    fn remove_from_hand(&mut self, color: Color, kind: PieceKind) {
        self.hands[color.index()].0[kind.index()] -= 1;
        self.key = self
            .key
            .wrapping_sub(G::tables().zobrist_hand[color.index()][kind.index()]);
    }

    /// The Zobrist key of the board and side to move alone, leaving both hands out: the
    /// key under which a mate search stores positions that differ only in the hands, so
    /// that it can compare hands by superiority (`shogi-mate`).
    #[inline]
    pub fn board_key(&self) -> u64 {
        let t = G::tables();
        let mut key = self.key;
        for c in Color::ALL {
            for (k, &n) in self.hands[c.index()].0.iter().enumerate() {
                key = key.wrapping_sub(t.zobrist_hand[c.index()][k].wrapping_mul(n as u64));
            }
        }
        key
    }

    /// Passes: the other side is to move and nothing else changes. A pass is no move of
    /// Shogi; the possible pass count of a threat search (`shogi-mate`) assumes one. Refused
    /// (returns `false`, changing nothing) when the side to move is in check, since passing
    /// would leave its king en prise.
    pub fn play_pass(&mut self) -> bool {
        if self.in_check(self.side) {
            return false;
        }
        self.flip_side();
        self.move_number = self.move_number.saturating_add(1);
        true
    }

    /// The Zobrist key computed from scratch (the incremental one must always equal it).
    pub fn compute_key(&self) -> u64 {
        let t = G::tables();
        let mut key = 0u64;
        for sq in self.occupied() {
            let p = self.board[sq.index()].expect("occupied square holds a piece");
            key = key.wrapping_add(t.zobrist_board[p.index()][sq.index()]);
        }
        for c in Color::ALL {
            for (k, &n) in self.hands[c.index()].0.iter().enumerate() {
                key = key.wrapping_add(t.zobrist_hand[c.index()][k].wrapping_mul(n as u64));
            }
        }
        if self.side == Color::White {
            key = key.wrapping_add(t.zobrist_side);
        }
        key
    }

    // ---- attacks -----------------------------------------------------------------------

    /// The pieces of `by` that attack `sq` when the board occupancy is `occ` (pieces of
    /// `by` outside `occ` still count as attackers if they stand on the board; pass the
    /// real occupancy minus a moving king to look through it).
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let k = |kind: PieceKind| self.kinds[kind.index()];
        let rooks = k(PieceKind::Rook) | k(PieceKind::Dragon);
        let bishops = k(PieceKind::Bishop) | k(PieceKind::Horse);
        let sliders = (lance_attacks::<G>(!by, sq, occ) & k(PieceKind::Lance))
            | (rook_attacks::<G>(sq, occ) & rooks)
            | (bishop_attacks::<G>(sq, occ) & bishops);
        self.step_attackers_to(sq, by) | (sliders & self.colors[by.index()])
    }

    /// The golds and the promoted pieces that move as golds, of both colours.
    #[inline(always)]
    pub(crate) fn gold_movers(&self) -> Bitboard {
        let k = |kind: PieceKind| self.kinds[kind.index()];
        k(PieceKind::Gold)
            | k(PieceKind::ProPawn)
            | k(PieceKind::ProLance)
            | k(PieceKind::ProKnight)
            | k(PieceKind::ProSilver)
    }

    /// The pieces of `by` attacking `sq` with a step: every attacker except along the
    /// slides of lances, bishops, rooks, horses and dragons (their one-square steps count).
    #[inline(always)]
    pub(crate) fn step_attackers_to(&self, sq: Square, by: Color) -> Bitboard {
        let them = !by;
        let k = |kind: PieceKind| self.kinds[kind.index()];
        let golds = self.gold_movers();
        // A piece of `by` attacks `sq` exactly when a piece of the other colour standing on
        // `sq` would attack it with the same movement (the tables are mirror images).
        let steps = (step_attacks::<G>(them, PieceKind::Pawn, sq) & k(PieceKind::Pawn))
            | (step_attacks::<G>(them, PieceKind::Knight, sq) & k(PieceKind::Knight))
            | (step_attacks::<G>(them, PieceKind::Silver, sq) & k(PieceKind::Silver))
            | (step_attacks::<G>(them, PieceKind::Gold, sq) & golds)
            | (step_attacks::<G>(them, PieceKind::King, sq)
                & (k(PieceKind::King) | k(PieceKind::Horse) | k(PieceKind::Dragon)));
        steps & self.colors[by.index()]
    }

    /// The squares of `area`, squares next to `center`, attacked with a step by a piece of
    /// `by`: the same squares as those of `area` with [`Position::step_attackers_to`], found
    /// from the few pieces near `center` instead of square by square.
    #[inline(always)]
    pub(crate) fn step_attacks_on(&self, center: Square, area: Bitboard, by: Color) -> Bitboard {
        let t = G::tables();
        let near = t.near[center.index()] & self.colors[by.index()];
        let k = |kind: PieceKind| self.kinds[kind.index()];
        let golds = self.gold_movers();
        let kings = k(PieceKind::King) | k(PieceKind::Horse) | k(PieceKind::Dragon);
        let mut att = Bitboard::EMPTY;
        for (pieces, kind) in [
            (k(PieceKind::Pawn), PieceKind::Pawn),
            (k(PieceKind::Knight), PieceKind::Knight),
            (k(PieceKind::Silver), PieceKind::Silver),
            (golds, PieceKind::Gold),
            (kings, PieceKind::King),
        ] {
            for s in pieces & near {
                att |= step_attacks::<G>(by, kind, s);
            }
        }
        att & area
    }

    /// The squares of `area` attacked along a slide by a lance, bishop, rook, horse or
    /// dragon of `by`, with occupancy `occ`. Only sliders that could reach `area` on an empty
    /// board are looked at, so for a small area this is much cheaper than asking
    /// [`Position::attackers_to`] square by square.
    #[inline(always)]
    pub(crate) fn slider_attacks_on(&self, area: Bitboard, by: Color, occ: Bitboard) -> Bitboard {
        let t = G::tables();
        let k = |kind: PieceKind| self.kinds[kind.index()] & self.colors[by.index()];
        let mut att = Bitboard::EMPTY;
        for s in k(PieceKind::Rook) | k(PieceKind::Dragon) {
            if (t.pseudo(by, PieceKind::Rook, s) & area).is_nonempty() {
                att |= rook_attacks::<G>(s, occ);
            }
        }
        for s in k(PieceKind::Bishop) | k(PieceKind::Horse) {
            if (t.pseudo(by, PieceKind::Bishop, s) & area).is_nonempty() {
                att |= bishop_attacks::<G>(s, occ);
            }
        }
        for s in k(PieceKind::Lance) {
            if (t.pseudo(by, PieceKind::Lance, s) & area).is_nonempty() {
                att |= lance_attacks::<G>(by, s, occ);
            }
        }
        att & area
    }

    /// Whether `sq` is attacked by a piece of `by`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers_to(sq, by, self.occupied()).is_nonempty()
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        match self.king(self.side) {
            Some(k) => self.attackers_to(k, !self.side, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether `color`'s king is attacked (false when it has no king).
    #[inline]
    pub fn in_check(&self, color: Color) -> bool {
        match self.king(color) {
            Some(k) => self.is_attacked(k, !color),
            None => false,
        }
    }

    /// The pieces of `color` pinned to its own king (none when it has no king).
    pub fn pinned(&self, color: Color) -> Bitboard {
        self.king_blockers(color) & self.colors[color.index()]
    }

    /// The pieces of either colour that are the only piece between `color`'s king and an
    /// enemy lance, bishop, rook, horse or dragon aligned with it: taking one away would
    /// open a line onto the king. Those of `color` are pinned; for the unmove generator,
    /// emptying such a square in a predecessor uncovers a check. Empty without a king.
    pub fn king_blockers(&self, color: Color) -> Bitboard {
        match self.king(color) {
            Some(k) => self.blockers_to(k, color),
            None => Bitboard::EMPTY,
        }
    }

    #[inline(always)]
    pub(crate) fn blockers_to(&self, king: Square, color: Color) -> Bitboard {
        self.slider_lines(king, color).1
    }

    /// The enemy sliders (lance, bishop, rook, horse, dragon) checking `color`'s king on
    /// `king` along a slide, and the pieces of either colour that alone block such a
    /// slider ([`Position::king_blockers`]). One pass over the sliders aligned with the
    /// king gives both, which is cheaper than scanning the nine rays from the king for the
    /// checks and then the lines again for the pins.
    #[inline(always)]
    pub(crate) fn slider_lines(&self, king: Square, color: Color) -> (Bitboard, Bitboard) {
        let t = G::tables();
        let theirs = self.colors[(!color).index()];
        let k = |kind: PieceKind| self.kinds[kind.index()];
        let snipers = ((t.pseudo(color, PieceKind::Rook, king)
            & (k(PieceKind::Rook) | k(PieceKind::Dragon)))
            | (t.pseudo(color, PieceKind::Bishop, king)
                & (k(PieceKind::Bishop) | k(PieceKind::Horse)))
            | (t.pseudo(color, PieceKind::Lance, king) & k(PieceKind::Lance)))
            & theirs;
        let occ = self.occupied();
        let mut checkers = Bitboard::EMPTY;
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let between = t.between[king.index()][s.index()] & occ;
            if between.is_empty() {
                checkers |= Bitboard::from_square(s);
            } else if !between.more_than_one() {
                blockers |= between;
            }
        }
        (checkers, blockers)
    }

    // ---- moves -------------------------------------------------------------------------

    /// Plays `mv`, which should be legal in this position (see [`Position::play`] for a
    /// checked version). The key, hands and side to move are updated incrementally.
    ///
    /// Legality is not checked, but the position stays a position: a move that does not
    /// even fit it (no piece of the mover on the origin, a capture of the mover's own piece
    /// or of a king, a drop from an empty hand or onto a piece) leaves it unchanged.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        match mv {
            Move::Normal { from, to, promote } => {
                let Some(piece) = self.board[from.index()] else {
                    return;
                };
                let target = self.board[to.index()];
                if piece.color != us
                    || from == to
                    || to.index() >= G::SQUARES
                    || target.is_some_and(|t| t.color == us || t.kind == PieceKind::King)
                {
                    return;
                }
                self.remove_piece(from, piece);
                if let Some(captured) = target {
                    self.remove_piece(to, captured);
                    self.add_to_hand(us, captured.kind.unpromoted());
                }
                let kind = if promote {
                    piece.kind.promoted().unwrap_or(piece.kind)
                } else {
                    piece.kind
                };
                self.add_piece(to, Piece::new(us, kind));
            }
            Move::Drop { kind, to } => {
                if self.hands[us.index()].count(kind) == 0
                    || to.index() >= G::SQUARES
                    || self.board[to.index()].is_some()
                {
                    return;
                }
                self.remove_from_hand(us, kind);
                self.add_piece(to, Piece::new(us, kind));
            }
        }
        self.flip_side();
        self.move_number = self.move_number.saturating_add(1);
    }

    /// Takes back `mv`, the last move, which captured `captured` (its kind on the board, so
    /// promoted if it was): afterwards the position is the one `mv` was played in, with the
    /// other side to move and the move number one lower (not below 1). `mv` is read as the
    /// mover played it: the piece on `to` belongs to the side not to move, and was unpromoted
    /// before the move if `promote` is set.
    ///
    /// Only whether the move fits the position is checked, not whether the result is legal
    /// (that is the predecessor generator's work): the moved piece of the side not to move on
    /// `to`, promoted if the move promoted; `from` empty; a captured piece, never a king, in
    /// the mover's hand; a dropped piece of a hand kind. A move that does not fit is an
    /// error and changes nothing. The key stays incremental.
    #[cfg(feature = "std")]
    pub fn unplay(
        &mut self,
        mv: Move,
        captured: Option<PieceKind>,
    ) -> Result<(), crate::IllegalMove> {
        let mover = !self.side;
        let misfit = || Err(crate::IllegalMove(mv.to_usi::<G>()));
        match mv {
            Move::Normal { from, to, promote } => {
                let Some(piece) = self.board[to.index()] else {
                    return misfit();
                };
                let before = if promote {
                    if !piece.kind.is_promoted() {
                        return misfit();
                    }
                    piece.kind.unpromoted()
                } else {
                    piece.kind
                };
                let held = captured.map(|c| c.unpromoted());
                if piece.color != mover
                    || from == to
                    || from.index() >= G::SQUARES
                    || self.board[from.index()].is_some()
                    || held == Some(PieceKind::King)
                    || held.is_some_and(|k| self.hands[mover.index()].count(k) == 0)
                {
                    return misfit();
                }
                self.remove_piece(to, piece);
                self.add_piece(from, Piece::new(mover, before));
                if let (Some(c), Some(base)) = (captured, held) {
                    self.remove_from_hand(mover, base);
                    self.add_piece(to, Piece::new(!mover, c));
                }
            }
            Move::Drop { kind, to } => {
                if kind == PieceKind::King
                    || kind.is_promoted()
                    || self.board[to.index()] != Some(Piece::new(mover, kind))
                {
                    return misfit();
                }
                self.remove_piece(to, Piece::new(mover, kind));
                self.add_to_hand(mover, kind);
            }
        }
        self.flip_side();
        self.move_number = self.move_number.saturating_sub(1).max(1);
        Ok(())
    }

    /// Plays `mv` after checking that it is legal here.
    #[cfg(feature = "std")]
    pub fn play(&mut self, mv: Move) -> Result<(), crate::IllegalMove> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(crate::IllegalMove(mv.to_usi::<G>()))
        }
    }

    /// Parses a USI move and plays it if it is legal here.
    #[cfg(feature = "std")]
    pub fn play_usi(&mut self, usi: &str) -> Result<Move, crate::UsiError> {
        let mv = Move::from_usi::<G>(usi)?;
        if !self.is_legal(mv) {
            return Err(crate::UsiError::Illegal(usi.to_string()));
        }
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// The position with `color`'s king moved to `to`, everything else as it is; `None` if
    /// `color` has no king or another piece stands on `to` (`to` may be the king's own
    /// square). Moving a king keeps every invariant of a `Position` (one king a side, the
    /// same material); like any edit of a candidate it may leave a side in check. The
    /// estimate's conditional sampler (docs/METHOD.md §10.8) averages over the squares of
    /// the side-not-to-move's king with it.
    pub fn with_king_on(&self, color: Color, to: Square) -> Option<Self> {
        let from = self.king(color)?;
        if from == to {
            return Some(self.clone());
        }
        if self.board[to.index()].is_some() {
            return None;
        }
        let mut p = self.clone();
        let king = Piece::new(color, PieceKind::King);
        p.remove_piece(from, king);
        p.add_piece(to, king);
        Some(p)
    }

    /// The position with the piece on `from` moved to the empty square `to`, promoted if
    /// `promote` (and its kind promotes), the side to move, the hands and the move number
    /// as they are; `None` if `from` is empty, `to` is not, or `from == to`. Like
    /// [`Position::with_king_on`] it keeps the material and one king a side, and may leave
    /// either side in check; whether the piece could get there is not asked. The mate
    /// search's convention on futile interpositions (`shogi-mate`) reads a capture as if
    /// the captured piece had stayed in its owner's hand with it.
    pub fn with_piece_moved(&self, from: Square, to: Square, promote: bool) -> Option<Self> {
        let piece = self.board[from.index()]?;
        if from == to || self.board[to.index()].is_some() {
            return None;
        }
        let kind = match piece.kind.promoted() {
            Some(promoted) if promote => promoted,
            _ => piece.kind,
        };
        let mut p = self.clone();
        p.remove_piece(from, piece);
        p.add_piece(to, Piece::new(piece.color, kind));
        Some(p)
    }

    /// The squares attacked by the pieces of `by`, sliders seeing through the squares
    /// outside `occ` (pass the occupancy without a king to find the squares that king
    /// could not stand on).
    pub fn attacks_by(&self, by: Color, occ: Bitboard) -> Bitboard {
        let mut att = Bitboard::EMPTY;
        for sq in self.colors[by.index()] {
            let kind = self.board[sq.index()]
                .expect("a coloured square holds a piece")
                .kind;
            att |= crate::attacks::<G>(by, kind, sq, occ);
        }
        att
    }

    // ---- symmetry ----------------------------------------------------------------------

    /// The position mirrored left-right (`x -> W-1-x`); hands and side to move unchanged.
    pub fn hflip(&self) -> Self {
        let mut p = Self::empty();
        for sq in self.occupied() {
            p.add_piece(sq.hflip::<G>(), self.board[sq.index()].expect("occupied"));
        }
        p.copy_hands_and_side(self, false);
        p
    }

    /// The colour-flipped twin: the board rotated by 180 degrees, colours and hands swapped,
    /// the other side to move. It has exactly the same game tree.
    pub fn flip_colors(&self) -> Self {
        let mut p = Self::empty();
        for sq in self.occupied() {
            let pc = self.board[sq.index()].expect("occupied");
            p.add_piece(sq.rotate::<G>(), Piece::new(!pc.color, pc.kind));
        }
        p.copy_hands_and_side(self, true);
        p
    }

    fn copy_hands_and_side(&mut self, from: &Self, swap: bool) {
        for c in Color::ALL {
            let src = if swap { !c } else { c };
            for kind in PieceKind::HAND {
                self.set_hand(c, kind, from.hands[src.index()].count(kind));
            }
        }
        self.set_side_to_move(if swap { !from.side } else { from.side });
        self.move_number = from.move_number;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MiniShogi, Setup, Shogi};
    // The tests' one generator (see shogi-verify's rng module; a unit test cannot use that
    // crate, which depends on this one).
    use chacha20::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    #[test]
    fn a_moved_piece_keeps_the_key_and_the_material() {
        let pos = Position::<Shogi>::startpos();
        let sq = |s: &str| Square::from_usi::<Shogi>(s).unwrap();
        // The bishop on 8h to 4d, promoted: the key is recomputed the same, the material
        // and the hands unchanged, the side to move too.
        let moved = pos.with_piece_moved(sq("8h"), sq("4d"), true).unwrap();
        assert_eq!(moved.key(), moved.compute_key());
        assert_eq!(moved.material(), pos.material());
        assert_eq!(moved.side_to_move(), pos.side_to_move());
        assert_eq!(
            moved.piece_at(sq("4d")),
            Some(Piece::new(Color::Black, PieceKind::Horse))
        );
        assert_eq!(moved.piece_at(sq("8h")), None);
        // A gold does not promote; an empty origin, an occupied target or no move at all
        // is refused.
        let gold = pos.with_piece_moved(sq("6i"), sq("6h"), true).unwrap();
        assert_eq!(
            gold.piece_at(sq("6h")),
            Some(Piece::new(Color::Black, PieceKind::Gold))
        );
        assert!(pos.with_piece_moved(sq("5e"), sq("5f"), false).is_none());
        assert!(pos.with_piece_moved(sq("8h"), sq("7g"), false).is_none());
        assert!(pos.with_piece_moved(sq("8h"), sq("8h"), false).is_none());
    }

    /// Random boards (any piece on any square, about half of them occupied), random hands
    /// and side: `from_board` must equal the same position built by `put`, with every
    /// bitboard and the key the same, and the key equal to `compute_key`.
    fn from_board_equals_put<G: Game>() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut next = move || rng.next_u64();
        for _ in 0..2000 {
            let mut board = [None; MAX_SQUARES];
            let mut by_put = Position::<G>::empty();
            for (i, cell) in board.iter_mut().enumerate().take(G::SQUARES) {
                let r = next();
                if r % 2 == 0 {
                    let color = if r >> 8 & 1 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let kind = PieceKind::ALL[(r >> 16) as usize % PieceKind::COUNT];
                    let piece = Piece::new(color, kind);
                    *cell = Some(piece);
                    by_put.put(Square::from_index(i as u8).expect("i < SQUARES"), piece);
                }
            }
            let mut hands = [Hand::EMPTY; 2];
            for c in Color::ALL {
                for kind in PieceKind::HAND {
                    let n = (next() % 4) as u8;
                    hands[c.index()].0[kind.index()] = n;
                    by_put.set_hand(c, kind, n);
                }
            }
            let side = if next() % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            by_put.set_side_to_move(side);
            let built = Position::<G>::from_board_unchecked(&board[..G::SQUARES], hands, side)
                .expect("the board has G::SQUARES squares");
            assert_eq!(built, by_put);
            assert_eq!(built.key(), by_put.key());
            assert_eq!(built.key(), built.compute_key());
            assert_eq!(built.colors, by_put.colors);
            assert_eq!(built.kinds, by_put.kinds);
            assert_eq!(built.move_number(), by_put.move_number());
            assert_eq!(built.to_sfen(), by_put.to_sfen());
        }
    }

    /// The step attacks on the squares next to a square, found from the pieces near it,
    /// equal the step attackers looked up square by square: random boards (any piece on
    /// any square, about half of them occupied), every square as the centre, both colours.
    fn step_attacks_on_equals_step_attackers_to<G: Game>() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut next = move || rng.next_u64();
        for _ in 0..500 {
            let mut pos = Position::<G>::empty();
            for i in 0..G::SQUARES {
                let r = next();
                if r % 2 == 0 {
                    let color = Color::ALL[(r >> 8) as usize % 2];
                    let kind = PieceKind::ALL[(r >> 16) as usize % PieceKind::COUNT];
                    pos.put(
                        Square::from_index(i as u8).expect("i < SQUARES"),
                        Piece::new(color, kind),
                    );
                }
            }
            for center in (0..G::SQUARES as u8).filter_map(Square::from_index) {
                let area = G::tables().pseudo(Color::Black, PieceKind::King, center);
                for by in Color::ALL {
                    let by_square = area
                        .filter(|&s| pos.step_attackers_to(s, by).is_nonempty())
                        .fold(Bitboard::EMPTY, |b, s| b.with(s));
                    assert_eq!(
                        pos.step_attacks_on(center, area, by),
                        by_square,
                        "{pos:?} {center:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn step_attacks_on_equals_step_attackers_to_both_games() {
        step_attacks_on_equals_step_attackers_to::<Shogi>();
        step_attacks_on_equals_step_attackers_to::<MiniShogi>();
    }

    /// The start position read without the SFEN parser (which `no_std` builds lack)
    /// equals the parser's, key and move number included.
    fn startpos_equals_the_parsed_start<G: Game>() {
        let parsed = Position::<G>::from_sfen(G::START_SFEN).expect("legal");
        let start = Position::<G>::startpos();
        assert_eq!(start, parsed);
        assert_eq!(start.key(), parsed.key());
        assert_eq!(start.move_number(), parsed.move_number());
        assert!(start.validate().is_empty());
    }

    #[test]
    fn startpos_equals_the_parsed_start_both_games() {
        startpos_equals_the_parsed_start::<Shogi>();
        startpos_equals_the_parsed_start::<MiniShogi>();
    }

    #[test]
    fn from_board_equals_put_shogi() {
        from_board_equals_put::<Shogi>();
    }

    #[test]
    fn from_board_equals_put_mini() {
        from_board_equals_put::<MiniShogi>();
    }

    /// The board key ignores the hands and nothing else: positions that differ only in
    /// their hands share it, a move or the side to move changes it.
    #[test]
    fn board_key_leaves_out_the_hands_only() {
        let a = Position::<Shogi>::from_sfen(
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
        )
        .expect("legal");
        let b = Position::<Shogi>::from_sfen(
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w Rbg3p 42",
        )
        .expect("legal");
        assert_ne!(a.key(), b.key());
        assert_eq!(a.board_key(), b.board_key());
        let mut c = a.clone();
        c.play_usi("B*5g").expect("legal drop");
        assert_ne!(c.board_key(), a.board_key());
        let mut empty_hands = Setup::from(a.clone());
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                empty_hands.set_hand(color, kind, 0);
            }
        }
        let bare = Position::<Shogi>::from_board_unchecked(
            &(0..81)
                .map(|i| empty_hands.piece_at(Square::from_index(i).expect("on the board")))
                .collect::<Vec<_>>(),
            [Hand::EMPTY; 2],
            Color::White,
        )
        .expect("81 squares");
        assert_eq!(a.board_key(), bare.key());
    }

    /// A pass flips the side to move and nothing else, and is refused in check.
    #[test]
    fn pass_flips_the_side_and_is_refused_in_check() {
        let mut p = Position::<Shogi>::startpos();
        let before = p.clone();
        assert!(p.play_pass());
        assert_eq!(p.side_to_move(), Color::White);
        assert_eq!(
            p.board_key(),
            before
                .board_key()
                .wrapping_add(Shogi::tables().zobrist_side)
        );
        assert_eq!(p.key(), p.compute_key());
        assert!(p.play_pass());
        assert_eq!(p, before);
        let mut checked = Position::<Shogi>::from_sfen("4k4/4R4/9/9/9/9/9/9/4K4 w - 1")
            .expect("legal: White to move in check");
        let snapshot = checked.clone();
        assert!(!checked.play_pass());
        assert_eq!(checked, snapshot);
    }

    #[test]
    fn from_board_rejects_a_wrong_length() {
        let board = [None; MAX_SQUARES];
        let hands = [Hand::EMPTY; 2];
        assert!(Position::<MiniShogi>::from_board_unchecked(&board, hands, Color::Black).is_none());
        assert!(
            Position::<Shogi>::from_board_unchecked(&board[..80], hands, Color::Black).is_none()
        );
        let empty =
            Position::<Shogi>::from_board_unchecked(&board, hands, Color::Black).expect("81");
        assert_eq!(empty, Position::empty());
        assert_eq!(empty.key(), Position::<Shogi>::empty().key());
    }
}
