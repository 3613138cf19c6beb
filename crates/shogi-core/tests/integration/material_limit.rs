//! Positions at the material limit, and setups beyond it, for both games.
//!
//! The generators distribute the game's whole material: both kings on random squares, every
//! other piece on a random empty square (random owner, promoted or not, dead pieces and two
//! pawns allowed) or in a random hand. The share on the board is random, so the cases run
//! from full hands to crowded boards; two more generators make exactly those extremes
//! (30 to 40 pieces on a Shogi board; all non-king material in one hand). Such setups are
//! positions of the candidate space: move generation must work on them within
//! [`MAX_MOVES`], agree with counting, with `is_legal`, with `play` and with the naive
//! generator of `common/mod.rs`. Adding pieces or kings beyond the material, or taking a
//! king away, must be refused whatever is relaxed, with the right flags and a reason.

use crate::common;

use common::naive_moves;
use proptest::prelude::*;
use shogi_core::{
    Color, Game, MiniShogi, Move, MoveList, PawnDropRule, Piece, PieceKind, Position,
    PositionErrors, Relax, Rules, Setup, Shogi, Square, MAX_MOVES,
};

/// Where one non-king piece goes: `priority` orders the pieces (the first `on_board` of
/// that order go on the board), `square` picks among the empty squares, `black` is the
/// owner (on the board, or whose hand), `promote` promotes it if its kind can.
#[derive(Clone, Debug)]
struct PieceSpot {
    priority: u16,
    square: usize,
    black: bool,
    promote: bool,
}

/// A distribution of a game's whole material.
#[derive(Clone, Debug)]
struct Layout {
    black_king: usize,
    white_king: usize,
    /// How many non-king pieces go on the board.
    on_board: usize,
    /// One per non-king piece, in the order of [`pieces`].
    spots: Vec<PieceSpot>,
    /// `Some(colour)`: every piece off the board goes to that hand.
    one_hand: Option<bool>,
    white_to_move: bool,
}

/// Every non-king piece of the game's material, by basic kind.
fn pieces<G: Game>() -> Vec<PieceKind> {
    PieceKind::HAND
        .into_iter()
        .flat_map(|k| std::iter::repeat_n(k, G::MATERIAL.get(k) as usize))
        .collect()
}

fn spot() -> impl Strategy<Value = PieceSpot> {
    (any::<u16>(), any::<usize>(), any::<bool>(), any::<bool>()).prop_map(
        |(priority, square, black, promote)| PieceSpot {
            priority,
            square,
            black,
            promote,
        },
    )
}

/// Layouts of `G` with `on_board` non-king pieces on the board and, with `one_hand`, every
/// other piece in one hand.
fn layout<G: Game>(
    on_board: impl Strategy<Value = usize>,
    one_hand: bool,
) -> impl Strategy<Value = Layout> {
    let n = pieces::<G>().len();
    (
        any::<usize>(),
        any::<usize>(),
        on_board,
        prop::collection::vec(spot(), n),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            move |(black_king, white_king, on_board, spots, hand_black, white_to_move)| Layout {
                black_king,
                white_king,
                on_board: on_board.min(n),
                spots,
                one_hand: one_hand.then_some(hand_black),
                white_to_move,
            },
        )
}

/// Any share of the material on the board, from none to all.
fn near_limit<G: Game>() -> impl Strategy<Value = Layout> {
    layout::<G>(0..=pieces::<G>().len(), false)
}

/// 30 to 40 pieces on a Shogi board, kings included.
fn crowded() -> impl Strategy<Value = Layout> {
    layout::<Shogi>(28usize..=38, false)
}

/// Only the kings on the board, everything else in one hand.
fn full_hand<G: Game>() -> impl Strategy<Value = Layout> {
    layout::<G>(Just(0), true)
}

fn color(black: bool) -> Color {
    if black {
        Color::Black
    } else {
        Color::White
    }
}

/// The empty squares of `setup`.
fn empties<G: Game>(setup: &Setup<G>) -> Vec<Square> {
    (0..G::SQUARES as u8)
        .filter_map(Square::from_index)
        .filter(|&s| setup.piece_at(s).is_none())
        .collect()
}

/// The setup a layout describes. It holds exactly the game's material, one king each.
fn build<G: Game>(l: &Layout) -> Setup<G> {
    let mut setup = Setup::<G>::empty();
    let all: Vec<Square> = (0..G::SQUARES as u8)
        .filter_map(Square::from_index)
        .collect();
    let bk = all[l.black_king % all.len()];
    setup.put(bk, Piece::new(Color::Black, PieceKind::King));
    let rest = empties(&setup);
    let wk = rest[l.white_king % rest.len()];
    setup.put(wk, Piece::new(Color::White, PieceKind::King));
    let kinds = pieces::<G>();
    let mut order: Vec<usize> = (0..kinds.len()).collect();
    order.sort_by_key(|&i| (l.spots[i].priority, i));
    let mut hands = [[0u8; PieceKind::HAND_COUNT]; 2];
    for (rank, &i) in order.iter().enumerate() {
        let (kind, s) = (kinds[i], &l.spots[i]);
        if rank < l.on_board {
            let free = empties(&setup);
            let sq = free[s.square % free.len()];
            let kind = match kind.promoted() {
                Some(p) if s.promote => p,
                _ => kind,
            };
            setup.put(sq, Piece::new(color(s.black), kind));
        } else {
            let owner = color(l.one_hand.unwrap_or(s.black));
            hands[owner.index()][kind.index()] += 1;
        }
    }
    for c in [Color::Black, Color::White] {
        for kind in PieceKind::HAND {
            setup.set_hand(c, kind, hands[c.index()][kind.index()]);
        }
    }
    setup.set_side_to_move(color(!l.white_to_move));
    setup
}

/// The pieces of `setup` by basic kind (index of the unpromoted kind; kings at 7) over
/// board and hands, counted square by square.
fn count_material<G: Game>(setup: &Setup<G>) -> [u32; 8] {
    let mut m = [0u32; 8];
    for sq in (0..G::SQUARES as u8).filter_map(Square::from_index) {
        if let Some(p) = setup.piece_at(sq) {
            m[p.kind.unpromoted().index()] += 1;
        }
    }
    for c in [Color::Black, Color::White] {
        for kind in PieceKind::HAND {
            m[kind.index()] += setup.hand(c).count(kind) as u32;
        }
    }
    m
}

fn kings<G: Game>(setup: &Setup<G>, c: Color) -> usize {
    (0..G::SQUARES as u8)
        .filter_map(Square::from_index)
        .filter(|&s| setup.piece_at(s) == Some(Piece::new(c, PieceKind::King)))
        .count()
}

/// Everything a position at the material limit must satisfy.
fn check_position<G: Game>(pos: &Position<G>) -> Result<(), TestCaseError> {
    let sfen = pos.to_sfen();
    prop_assert!(
        !pos.validate().intersects(PositionErrors::ESSENTIAL),
        "{}: {:?}",
        sfen,
        pos.validate()
    );
    let material = pos.material();
    prop_assert_eq!(material, G::MATERIAL, "{}", sfen);
    prop_assert_eq!(pos.key(), pos.compute_key(), "{}", sfen);
    for rules in [
        Rules::default(),
        Rules {
            pawn_drop: PawnDropRule::NoLegalReply,
        },
    ] {
        let mut list = MoveList::new();
        pos.legal_moves_with(rules, &mut list);
        prop_assert!(list.len() <= MAX_MOVES);
        prop_assert_eq!(pos.count_moves_with(rules), list.len() as u64, "{}", sfen);
        prop_assert_eq!(pos.has_legal_move(rules), !list.is_empty(), "{}", sfen);
        let mut sorted = list.to_vec();
        sorted.sort();
        sorted.dedup();
        prop_assert_eq!(sorted.len(), list.len(), "duplicate moves in {}", sfen);
        if rules == Rules::default() {
            // (Under the other rule each call weighs every pawn drop: too slow for all.)
            for &m in &list {
                prop_assert!(pos.is_legal(m), "{} in {}", m.to_usi::<G>(), sfen);
            }
        }
    }
    let moves = pos.moves();
    for &m in &moves {
        let mut after = pos.clone();
        prop_assert!(after.play(m).is_ok(), "{} in {}", m.to_usi::<G>(), sfen);
        prop_assert_eq!(
            after.key(),
            after.compute_key(),
            "{} in {}",
            m.to_usi::<G>(),
            sfen
        );
        prop_assert_eq!(
            after.material(),
            material,
            "{} in {}",
            m.to_usi::<G>(),
            sfen
        );
        prop_assert_eq!(after.side_to_move(), !pos.side_to_move());
        prop_assert!(!after.validate().intersects(PositionErrors::ESSENTIAL));
        // The mover's king is safe after a legal move.
        let us = pos.side_to_move();
        let k = after.king(us).expect("a position has both kings");
        prop_assert!(
            !after.is_attacked(k, !us),
            "{} in {}",
            m.to_usi::<G>(),
            sfen
        );
    }
    let perft2 = pos.perft(2);
    let by_hand: u64 = moves
        .iter()
        .map(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.count_moves()
        })
        .sum();
    prop_assert_eq!(perft2, by_hand, "{}", sfen);
    Ok(())
}

/// The setup must be a position of the candidate space (and strictly one exactly when it
/// breaks no relaxable rule); then [`check_position`].
fn check_layout<G: Game>(l: &Layout) -> Result<(), TestCaseError> {
    let setup = build::<G>(l);
    let m = count_material(&setup);
    prop_assert_eq!(&m[..], &G::MATERIAL.0.map(u32::from)[..]);
    prop_assert!(!setup.validate().intersects(PositionErrors::ESSENTIAL));
    let strict = setup.clone().into_position(Relax::empty());
    prop_assert_eq!(strict.is_ok(), setup.validate().is_empty(), "{:?}", setup);
    let pos = setup
        .clone()
        .into_position(Relax::CANDIDATE)
        .map_err(|e| TestCaseError::fail(format!("{setup:?}: {e}")))?;
    // The SFEN path gives the same position.
    let again = Position::<G>::from_sfen_with(&pos.to_sfen(), Relax::CANDIDATE)
        .map_err(|e| TestCaseError::fail(format!("{setup:?}: {e}")))?;
    prop_assert_eq!(&again, &pos);
    check_position(&pos)
}

/// The naive generator (minus king captures, which are no moves: the library leaves them
/// out when the side not to move is in check) must give the same set of moves.
///
/// One difference is expected, and only when the side not to move is already in check (a
/// candidate position, never a legal one): the naive generator forbids a pawn drop after
/// which the opponent is in check and has no reply even when the check is not the pawn's,
/// while the library's drop-pawn-mate rule (like the usual one) is about the pawn giving
/// mate. In a legal position a drop cannot uncover a check, so the two readings agree.
fn check_naive<G: Game>(l: &Layout, rules: Rules) -> Result<(), TestCaseError> {
    let pos = build::<G>(l)
        .into_position(Relax::CANDIDATE)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let them = !pos.side_to_move();
    let mut naive: Vec<Move> = naive_moves(&pos, rules)
        .into_iter()
        .filter(|m| match *m {
            Move::Normal { to, .. } => pos.piece_at(to) != Some(Piece::new(them, PieceKind::King)),
            Move::Drop { .. } => true,
        })
        .collect();
    naive.sort();
    let mut list = MoveList::new();
    pos.legal_moves_with(rules, &mut list);
    let mut fast = list.to_vec();
    fast.sort();
    let only_fast: Vec<Move> = fast
        .iter()
        .filter(|m| naive.binary_search(m).is_err())
        .copied()
        .collect();
    let only_naive: Vec<Move> = naive
        .iter()
        .filter(|m| fast.binary_search(m).is_err())
        .copied()
        .collect();
    let opponent_in_check = pos.validate().contains(PositionErrors::OPPONENT_IN_CHECK);
    let their_king = pos.king(them).expect("a position has both kings");
    let explained = |m: &Move| match *m {
        Move::Drop {
            kind: PieceKind::Pawn,
            to,
        } => {
            // The square the dropped pawn attacks: it must not be their king's.
            let ahead = match pos.side_to_move() {
                Color::Black => to.y::<G>().checked_sub(1),
                Color::White => Some(to.y::<G>() + 1),
            };
            let checks = ahead.and_then(|y| Square::new::<G>(to.x::<G>(), y)) == Some(their_king);
            opponent_in_check && !checks
        }
        _ => false,
    };
    if !only_naive.is_empty() || !only_fast.iter().all(explained) {
        let usi = |v: &[Move]| -> Vec<String> { v.iter().map(|m| m.to_usi::<G>()).collect() };
        return Err(TestCaseError::fail(format!(
            "{} ({rules:?}): only the library: {:?}; only naive: {:?}",
            pos.to_sfen(),
            usi(&only_fast),
            usi(&only_naive)
        )));
    }
    Ok(())
}

/// The difference of [`check_naive`], found by it: White's tokin on 9h already checks
/// Black's king on 8h (Black is not to move), and after P*9g Black has no reply, but the
/// pawn gives no check, so the drop is no drop-pawn-mate and is legal.
#[test]
fn a_pawn_drop_that_does_not_check_is_no_drop_pawn_mate() {
    let sfen =
        "3+R+p+L3/+P3G4/1p2+B4/1l+b6/5+p2+n/2s+P1n2l/4k1+P1G/+pK2+pPG+n1/2+p+lg1p+pN w SPr2s5p 1";
    let pos = Position::<Shogi>::from_sfen_with(sfen, Relax::CANDIDATE).unwrap();
    assert!(pos.validate().contains(PositionErrors::OPPONENT_IN_CHECK));
    let drop = Move::from_usi::<Shogi>("P*9g").unwrap();
    assert!(pos.is_legal(drop));
    let mut after = pos.clone();
    after.play_unchecked(drop);
    assert!(after.checkers().is_nonempty());
    assert!(!after.has_legal_move(Rules::default()));
    let pawn = Square::from_usi::<Shogi>("9g").unwrap();
    assert!(!after.checkers().has(pawn));
}

/// What goes beyond the material or breaks the kings.
#[derive(Clone, Debug)]
enum Extra {
    /// `count` more pieces of `HAND[kind % 7]`, on empty squares or in a hand.
    Piece {
        kind: usize,
        count: u8,
        square: usize,
        black: bool,
        promote: bool,
        in_hand: bool,
    },
    /// The other side's king becomes this side's.
    StealKing { black: bool },
    /// One more king for this side, on an empty square.
    King { black: bool, square: usize },
    /// Every king of this side taken away.
    NoKing { black: bool },
}

fn extra() -> impl Strategy<Value = Extra> {
    prop_oneof![
        3 => (any::<usize>(), 1u8..=3, any::<usize>(), any::<bool>(), any::<bool>(), any::<bool>())
            .prop_map(|(kind, count, square, black, promote, in_hand)| Extra::Piece {
                kind, count, square, black, promote, in_hand,
            }),
        1 => any::<bool>().prop_map(|black| Extra::StealKing { black }),
        1 => (any::<bool>(), any::<usize>()).prop_map(|(black, square)| Extra::King { black, square }),
        1 => any::<bool>().prop_map(|black| Extra::NoKing { black }),
    ]
}

/// `extras` applied to `setup`: pieces first, then the kings (steal, add, take away), so
/// that at least one essential rule is always broken.
fn apply<G: Game>(setup: &mut Setup<G>, extras: &[Extra]) {
    let order = |e: &Extra| match e {
        Extra::Piece { .. } => 0,
        Extra::StealKing { .. } => 1,
        Extra::King { .. } => 2,
        Extra::NoKing { .. } => 3,
    };
    let mut extras = extras.to_vec();
    extras.sort_by_key(order);
    let all = || (0..G::SQUARES as u8).filter_map(Square::from_index);
    for e in extras {
        match e {
            Extra::Piece {
                kind,
                count,
                square,
                black,
                promote,
                in_hand,
            } => {
                // Mini Shogi has no lances or knights: one is already too many.
                let kind = PieceKind::HAND[kind % PieceKind::HAND.len()];
                for i in 0..count {
                    let free = empties(setup);
                    if in_hand || free.is_empty() {
                        let c = color(black);
                        let n = setup.hand(c).count(kind);
                        setup.set_hand(c, kind, n + 1);
                    } else {
                        let sq = free[(square + i as usize) % free.len()];
                        let k = match kind.promoted() {
                            Some(p) if promote => p,
                            _ => kind,
                        };
                        setup.put(sq, Piece::new(color(black), k));
                    }
                }
            }
            Extra::StealKing { black } => {
                let victim = Piece::new(!color(black), PieceKind::King);
                let squares: Vec<Square> = all()
                    .filter(|&s| setup.piece_at(s) == Some(victim))
                    .collect();
                for sq in squares {
                    setup.put(sq, Piece::new(color(black), PieceKind::King));
                }
            }
            Extra::King { black, square } => {
                let free = empties(setup);
                let sq = free[square % free.len()];
                setup.put(sq, Piece::new(color(black), PieceKind::King));
            }
            Extra::NoKing { black } => {
                let king = Piece::new(color(black), PieceKind::King);
                let squares: Vec<Square> =
                    all().filter(|&s| setup.piece_at(s) == Some(king)).collect();
                for sq in squares {
                    setup.take(sq);
                }
            }
        }
    }
}

const KIND_NAMES: [&str; 7] = [
    "pawn", "lance", "knight", "silver", "gold", "bishop", "rook",
];

fn check_over<G: Game>(l: &Layout, extras: &[Extra]) -> Result<(), TestCaseError> {
    let mut setup = build::<G>(l);
    apply(&mut setup, extras);
    // The essential flags, worked out independently of the library.
    let mut expected = PositionErrors::empty();
    let mut king_words = Vec::new();
    for c in [Color::Black, Color::White] {
        match kings(&setup, c) {
            0 => {
                expected |= PositionErrors::MISSING_KING;
                king_words.push(format!("{c:?} has no king"));
            }
            1 => {}
            n => {
                expected |= PositionErrors::TOO_MANY_KINGS;
                king_words.push(format!("{c:?} has {n} kings"));
            }
        }
    }
    let m = count_material(&setup);
    let mut material_words = Vec::new();
    for (i, &n) in m.iter().enumerate() {
        let max = G::MATERIAL.0[i] as u32;
        if n > max {
            expected |= PositionErrors::TOO_MUCH_MATERIAL;
            if i < 7 {
                material_words.push(format!(
                    "{n} {}s on the board and in hand, this game has {max}",
                    KIND_NAMES[i]
                ));
            }
        }
    }
    prop_assert!(!expected.is_empty(), "{:?} after {:?}", setup, extras);
    let validate = setup.validate();
    prop_assert_eq!(
        validate & PositionErrors::ESSENTIAL,
        expected,
        "{:?}",
        setup
    );
    for relax in [
        Relax::empty(),
        Relax::TWO_PAWNS,
        Relax::DEAD_PIECES,
        Relax::OPPONENT_IN_CHECK,
        Relax::PLACEMENT,
        Relax::CANDIDATE,
        // The attacker's missing king (mate problems) has its own tests in validate.rs.
        Relax::all().difference(Relax::ATTACKER_WITHOUT_KING),
    ] {
        let err = match setup.clone().into_position(relax) {
            Ok(p) => {
                return Err(TestCaseError::fail(format!(
                    "{setup:?} accepted with {relax:?} as {p:?}"
                )))
            }
            Err(e) => e,
        };
        prop_assert_eq!(err.errors() & PositionErrors::ESSENTIAL, expected);
        // Exactly what validate finds, minus what was relaxed.
        prop_assert_eq!(err.errors(), validate & !relax.errors(), "{:?}", relax);
        prop_assert!(!err.reason().is_empty());
        prop_assert_eq!(err.to_string(), err.reason());
        for w in king_words.iter().chain(material_words.iter()) {
            prop_assert!(err.reason().contains(w.as_str()), "no `{}` in {}", w, err);
        }
    }
    // The same through SFEN text, strict or relaxed.
    let sfen = setup.to_sfen();
    for relax in [Relax::empty(), Relax::CANDIDATE] {
        match Position::<G>::from_sfen_with(&sfen, relax) {
            Err(shogi_core::SfenError::Illegal(e)) => {
                prop_assert_eq!(e.errors() & PositionErrors::ESSENTIAL, expected, "{}", sfen)
            }
            other => {
                return Err(TestCaseError::fail(format!(
                    "{sfen}: {:?}",
                    other.map(|p| p.to_sfen())
                )))
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn shogi_full_material_anywhere(l in near_limit::<Shogi>()) {
        check_layout::<Shogi>(&l)?;
    }

    #[test]
    fn mini_full_material_anywhere(l in near_limit::<MiniShogi>()) {
        check_layout::<MiniShogi>(&l)?;
    }

    #[test]
    fn shogi_crowded_boards(l in crowded()) {
        let setup = build::<Shogi>(&l);
        let on_board = (0..81u8).filter_map(Square::from_index).filter(|&s| setup.piece_at(s).is_some()).count();
        prop_assert!((30..=40).contains(&on_board), "{}", on_board);
        check_layout::<Shogi>(&l)?;
    }

    #[test]
    fn shogi_full_hands(l in full_hand::<Shogi>()) {
        let setup = build::<Shogi>(&l);
        let holder = color(l.one_hand.unwrap());
        prop_assert_eq!(setup.hand(holder).total(), 38);
        prop_assert!(setup.hand(!holder).is_empty());
        check_layout::<Shogi>(&l)?;
    }

    #[test]
    fn mini_full_hands(l in full_hand::<MiniShogi>()) {
        prop_assert_eq!(build::<MiniShogi>(&l).hand(color(l.one_hand.unwrap())).total(), 10);
        check_layout::<MiniShogi>(&l)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn shogi_near_limit_agrees_with_the_naive_generator(l in near_limit::<Shogi>()) {
        check_naive::<Shogi>(&l, Rules::default())?;
    }

    #[test]
    fn shogi_crowded_agrees_with_the_naive_generator(l in crowded()) {
        check_naive::<Shogi>(&l, Rules::default())?;
    }

    #[test]
    fn shogi_full_hands_agree_with_the_naive_generator(l in full_hand::<Shogi>()) {
        check_naive::<Shogi>(&l, Rules::default())?;
    }

    #[test]
    fn mini_agrees_with_the_naive_generator_under_both_rules(
        l in prop_oneof![near_limit::<MiniShogi>(), full_hand::<MiniShogi>()]
    ) {
        check_naive::<MiniShogi>(&l, Rules::default())?;
        check_naive::<MiniShogi>(&l, Rules { pawn_drop: PawnDropRule::NoLegalReply })?;
    }
}

proptest! {
    // Each pawn drop costs the naive generator a search of the replies: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn shogi_agrees_with_the_naive_generator_when_any_pawn_drop_must_leave_a_reply(
        l in prop_oneof![near_limit::<Shogi>(), full_hand::<Shogi>()]
    ) {
        check_naive::<Shogi>(&l, Rules { pawn_drop: PawnDropRule::NoLegalReply })?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn shogi_beyond_the_material_is_refused(
        l in near_limit::<Shogi>(),
        extras in prop::collection::vec(extra(), 1..4),
    ) {
        check_over::<Shogi>(&l, &extras)?;
    }

    #[test]
    fn mini_beyond_the_material_is_refused(
        l in near_limit::<MiniShogi>(),
        extras in prop::collection::vec(extra(), 1..4),
    ) {
        check_over::<MiniShogi>(&l, &extras)?;
    }
}

/// Hands far beyond any material (the most a SFEN hand may say, for every kind and both
/// sides) on a full board: refused, never a panic or an overflow.
#[test]
fn the_largest_hands_are_refused() {
    fn check<G: Game>() {
        let mut setup = Setup::<G>::empty();
        let squares: Vec<Square> = (0..G::SQUARES as u8)
            .filter_map(Square::from_index)
            .collect();
        setup.put(squares[0], Piece::new(Color::Black, PieceKind::King));
        setup.put(
            squares[G::SQUARES - 1],
            Piece::new(Color::White, PieceKind::King),
        );
        for (i, &sq) in squares[1..G::SQUARES - 1].iter().enumerate() {
            let kind = PieceKind::ALL[i % PieceKind::ALL.len()];
            let kind = if kind == PieceKind::King {
                PieceKind::Dragon
            } else {
                kind
            };
            setup.put(sq, Piece::new(color(i % 2 == 0), kind));
        }
        for c in [Color::Black, Color::White] {
            for kind in PieceKind::HAND {
                setup.set_hand(c, kind, 127);
            }
        }
        let err = setup
            .clone()
            .into_position(Relax::all())
            .expect_err("far too much material");
        assert_eq!(err.errors(), PositionErrors::TOO_MUCH_MATERIAL);
        assert_eq!(setup.validate() & PositionErrors::ESSENTIAL, err.errors());
        for name in KIND_NAMES {
            assert!(
                err.reason().contains(&format!("{name}s on the board")),
                "{err}"
            );
        }
        let sfen = setup.to_sfen();
        assert!(
            Position::<G>::from_sfen_with(&sfen, Relax::CANDIDATE).is_err(),
            "{sfen}"
        );
    }
    check::<Shogi>();
    check::<MiniShogi>();
}
