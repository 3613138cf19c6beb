//! The rank table: hand classes in the authors' order, their offsets, and the bijection
//! between `[0, |P_K|)` and the K-canonical positions (docs/METHOD.md §4.1).

use crate::combin::{
    binom, binom_u128, div_rem_recip, rank_set, unrank_set, BINOM_RECIP, SMALL_RECIP,
};
use crate::cumulative::Cumulative;
use crate::error::{MaterialError, RankError};
use crate::material::{king_placements, piece_types, PieceType};
use crate::u256::{Divisor64, U256};
use num_bigint::BigUint;
use shogi_core::{Color, Game, Material, Piece, PieceKind, Position, Relax, Setup, Square};
use std::collections::HashMap;
use std::marker::PhantomData;

/// The placements of `b` pieces of one type on `e` empty squares, split into the four
/// groups (Black promoted, White promoted, Black unpromoted, White unpromoted): the splits
/// in the nested-loop order of docs/METHOD.md §4.1 (which is lexicographic in `(n0, n1, n2)`), each
/// with its cumulative offset.
#[derive(Clone, Debug)]
pub(crate) struct SplitTable {
    /// `C_t`, the radix of the type's digit.
    pub(crate) total: u128,
    /// The offset of each split, then `total` (a sentinel for [`SplitTable::split_of`]).
    offsets: Vec<u128>,
    splits: Vec<[u8; 4]>,
    /// `total`, prepared for division, when it is below `2^64` (every type but the pawns).
    divisor: Option<Divisor64>,
    /// `d >> shift` is the bucket of a digit `d`.
    shift: u32,
    /// `first[b]`: the split holding the smallest digit of bucket `b`.
    first: Vec<u16>,
}

/// Which of the four groups of a type a [`SplitTable`] may fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Groups {
    /// All four (a type that can promote).
    All,
    /// The two unpromoted groups (gold).
    Unpromoted,
    /// The two promoted groups (the promoted pawns, lances and knights of the
    /// placement-legal subspace, whose unpromoted ones are placed apart).
    Promoted,
}

impl SplitTable {
    fn new(e: u32, b: u32, promotable: bool) -> SplitTable {
        let groups = if promotable {
            Groups::All
        } else {
            Groups::Unpromoted
        };
        Self::with_groups(e, b, groups)
    }

    /// The placements of `b` pieces on `e` empty squares in the allowed groups.
    pub(crate) fn with_groups(e: u32, b: u32, groups: Groups) -> SplitTable {
        let mut offsets = Vec::new();
        let mut splits = Vec::new();
        let mut total: u128 = 0;
        let pmax = if groups == Groups::Unpromoted { 0 } else { b };
        for n0 in 0..=pmax {
            for n1 in 0..=(pmax - n0) {
                let unpromoted = if groups == Groups::Promoted {
                    0
                } else {
                    b - n0 - n1
                };
                if n0 + n1 + unpromoted != b {
                    continue;
                }
                for n2 in 0..=unpromoted {
                    let n3 = b - n0 - n1 - n2;
                    let size = binom_u128(e, n0)
                        * binom_u128(e - n0, n1)
                        * binom_u128(e - n0 - n1, n2)
                        * binom_u128(e - n0 - n1 - n2, n3);
                    offsets.push(total);
                    splits.push([n0 as u8, n1 as u8, n2 as u8, n3 as u8]);
                    total += size;
                }
            }
        }
        offsets.push(total);
        // Two to four buckets per split: most buckets then lie inside one split, and the
        // walk in `split_of` ends at once.
        let bucket_bits = (usize::BITS - splits.len().leading_zeros()) + 1;
        let shift = (128 - (total - 1).leading_zeros()).saturating_sub(bucket_bits);
        let buckets = ((total - 1) >> shift) as usize + 1;
        let mut first = Vec::with_capacity(buckets);
        let mut i = 0;
        for b in 0..buckets {
            let start = (b as u128) << shift;
            while offsets[i + 1] <= start {
                i += 1;
            }
            first.push(u16::try_from(i).expect("at most 1330 splits"));
        }
        SplitTable {
            total,
            offsets,
            splits,
            divisor: u64::try_from(total).ok().map(Divisor64::new),
            shift,
            first,
        }
    }

    /// `(q / total, q mod total)`: the next digit of a mixed-radix number, this table's
    /// digit, and what is left of the number.
    #[inline(always)]
    pub(crate) fn take_digit(&self, q: U256) -> (U256, u128) {
        match self.divisor {
            Some(divisor) => {
                let (nq, d) = q.div_rem_u64(divisor);
                (nq, d as u128)
            }
            None => q.div_rem_u128(self.total),
        }
    }

    /// The index of the split holding digit `d < total`: the largest `i` with
    /// `offsets[i] <= d`. A jump table on the high bits of `d` replaces a binary search
    /// over up to 1330 splits (18 pawns), whose dependent loads were a sixth of an unrank.
    #[inline(always)]
    fn split_of(&self, d: u128) -> usize {
        let mut i = self.first[(d >> self.shift) as usize] as usize;
        while self.offsets[i + 1] <= d {
            i += 1;
        }
        i
    }
}

/// The sort key of a hand class: `(code(t), h_t)` for the types in hand, in `T` order.
type SortKey = Vec<(u8, u8)>;

/// One hand class: the pieces in hand per type (both hands together) and what follows.
#[derive(Clone, Copy, Debug)]
struct Class {
    /// Pieces in hand per type, indexed like `RankTable::types`.
    hand: [u8; 7],
    /// `Π (h_t + 1) · N_kings`, the radix of the hand digits and the king digit together,
    /// as an index into `RankTable::low_radices` (a few hundred distinct values).
    low: u16,
    /// Number of types with pieces on the board.
    n_board: u8,
    /// For each of them (in `T` order): the index of the type and of its split table.
    board: [(u8, u16); 7],
}

/// A hand class as the public API shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandClass {
    /// Pieces in hand (both hands together) per kind, in the type order `T`, only the
    /// kinds with at least one piece in hand.
    pub hand: Vec<(PieceKind, u8)>,
    /// The first rank of the class.
    pub offset: U256,
    /// The number of positions in the class.
    pub size: U256,
}

/// The ranking of the candidate space `P_K` of one material of game `G`.
///
/// Building it for full Shogi takes about 40 ms (106,875 hand classes); keep one and
/// reuse it (see [`crate::full_table`] for a shared one of the full material).
#[derive(Clone, Debug)]
pub struct RankTable<G: Game> {
    material: Material,
    types: Vec<PieceType>,
    king_radix: u32,
    classes: Vec<Class>,
    /// The distinct low radices of the classes, prepared for division.
    low_radices: Vec<Divisor64>,
    /// The first rank of each class, and `|P_K|`.
    offsets: Cumulative,
    class_of_hand: Vec<u32>,
    hand_stride: [u32; 7],
    splits: Vec<SplitTable>,
    _game: PhantomData<G>,
}

/// Number of squares left of the centre file: `H · ⌊W/2⌋` (36 in Shogi, 10 in Mini Shogi).
#[inline(always)]
fn left_squares<G: Game>() -> u32 {
    G::HEIGHT as u32 * (G::WIDTH as u32 / 2)
}

impl<G: Game> RankTable<G> {
    /// The table of the game's full material.
    pub fn full() -> RankTable<G> {
        Self::new(&G::MATERIAL).expect("the game's own material is valid")
    }

    /// The table of a material: two kings and at most the game's count of every kind.
    pub fn new(material: &Material) -> Result<RankTable<G>, MaterialError> {
        // Checked when the table is compiled for a game, not when it is built.
        const {
            assert!(
                G::WIDTH % 2 == 1,
                "the king scheme of docs/METHOD.md §4.1 needs an odd board width"
            )
        };
        let types = piece_types::<G>(material)?;
        let king_radix = king_placements::<G>();
        let n = types.len();
        let mut hand_stride = [0u32; 7];
        let mut vectors = 1u32;
        for (i, t) in types.iter().enumerate() {
            hand_stride[i] = vectors;
            vectors *= t.count as u32 + 1;
        }
        // Every hand vector, with its sort key.
        let mut all: Vec<(SortKey, [u8; 7])> = Vec::with_capacity(vectors as usize);
        for v in 0..vectors {
            let mut hand = [0u8; 7];
            let mut key = Vec::new();
            for (i, t) in types.iter().enumerate() {
                let h = (v / hand_stride[i] % (t.count as u32 + 1)) as u8;
                hand[i] = h;
                if h > 0 {
                    key.push((t.code, h));
                }
            }
            all.push((key, hand));
        }
        all.sort();

        let mut split_ids: HashMap<(u32, u32, bool), u16> = HashMap::new();
        let mut low_ids: HashMap<u64, u16> = HashMap::new();
        let mut low_radices = Vec::new();
        let mut splits = Vec::new();
        let mut classes = Vec::with_capacity(all.len());
        let mut sizes = Vec::with_capacity(all.len());
        let mut class_of_hand = vec![0u32; vectors as usize];
        for (ci, (_, hand)) in all.iter().enumerate() {
            let mut low_radix = king_radix as u64;
            let mut index = 0;
            for i in 0..n {
                low_radix *= hand[i] as u64 + 1;
                index += hand[i] as u32 * hand_stride[i];
            }
            class_of_hand[index as usize] = ci as u32;
            let mut size = U256::from(low_radix);
            let mut board = [(0u8, 0u16); 7];
            let mut n_board = 0;
            let mut e = G::SQUARES as u32 - 2;
            for (i, t) in types.iter().enumerate() {
                let b = (t.count - hand[i]) as u32;
                if b == 0 {
                    continue;
                }
                let id = *split_ids.entry((e, b, t.promotable)).or_insert_with(|| {
                    splits.push(SplitTable::new(e, b, t.promotable));
                    (splits.len() - 1) as u16
                });
                size = size
                    .checked_mul_u128(splits[id as usize].total)
                    .expect("class sizes fit in 256 bits");
                board[n_board] = (i as u8, id);
                n_board += 1;
                e -= b;
            }
            sizes.push(size);
            let low = *low_ids.entry(low_radix).or_insert_with(|| {
                low_radices.push(Divisor64::new(low_radix));
                u16::try_from(low_radices.len() - 1).expect("fewer than 2^16 low radices")
            });
            classes.push(Class {
                hand: *hand,
                low,
                n_board: n_board as u8,
                board,
            });
        }
        let offsets = Cumulative::new(sizes, "|P_K|");
        Ok(RankTable {
            material: *material,
            types,
            king_radix,
            classes,
            low_radices,
            offsets,
            class_of_hand,
            hand_stride,
            splits,
            _game: PhantomData,
        })
    }

    /// The material of the table.
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// The present non-king types, in the order `T` of the rank.
    pub fn types(&self) -> &[PieceType] {
        &self.types
    }

    /// `|P_K|`, the number of ranks.
    pub fn count(&self) -> BigUint {
        self.offsets.total().to_biguint()
    }

    /// `|P_K|` as a fixed-width integer.
    pub fn count_u256(&self) -> U256 {
        self.offsets.total()
    }

    /// The number of K-canonical king placements (the radix of the king digit).
    pub fn king_placements(&self) -> u32 {
        self.king_radix
    }

    /// The number of hand classes.
    pub fn class_count(&self) -> usize {
        self.classes.len()
    }

    /// Hand class `i` (in rank order): its pieces in hand, first rank and size.
    pub fn class(&self, i: usize) -> HandClass {
        let c = &self.classes[i];
        let next = self.offsets.offset(i + 1);
        HandClass {
            hand: self
                .types
                .iter()
                .zip(c.hand)
                .filter(|&(_, h)| h > 0)
                .map(|(t, h)| (t.kind, h))
                .collect(),
            offset: self.offsets.offset(i),
            size: next
                .checked_sub(self.offsets.offset(i))
                .unwrap_or(U256::ZERO),
        }
    }

    /// The index of the hand class holding rank `r` (`r < |P_K|`; the last class for
    /// larger `r`).
    #[inline]
    pub fn class_of(&self, r: U256) -> usize {
        self.offsets.find(r)
    }

    /// The rank of a position of `P_K`.
    pub fn rank(&self, pos: &Position<G>) -> Result<BigUint, RankError> {
        self.rank_u256(pos).map(U256::to_biguint)
    }

    /// The position of a rank.
    pub fn unrank(&self, r: &BigUint) -> Result<Position<G>, RankError> {
        match U256::from_biguint(r) {
            Some(r) => self.unrank_u256(r),
            None => Err(self.out_of_range(&r.to_string())),
        }
    }

    fn out_of_range(&self, rank: &str) -> RankError {
        RankError::OutOfRange {
            rank: rank.to_string(),
            count: self.offsets.total().to_string(),
        }
    }

    /// The king squares of a king digit.
    #[inline]
    fn king_squares(&self, d: u32) -> (u32, u32) {
        king_squares::<G>(d)
    }

    /// The king digit of a placement, or `None` if it is not K-canonical.
    #[inline]
    fn king_digit(&self, bk: u32, wk: u32) -> Option<u32> {
        let hl = left_squares::<G>();
        let h = G::HEIGHT as u32;
        let j = if wk < bk { wk } else { wk - 1 };
        if bk < hl {
            Some(bk + hl * j)
        } else if bk < hl + h && j < h * (G::WIDTH as u32).div_ceil(2) - 1 {
            Some(hl * (G::SQUARES as u32 - 1) + (bk - hl) + h * j)
        } else {
            None
        }
    }

    /// The position of a rank given as a fixed-width integer: the fast path (no
    /// allocation).
    pub fn unrank_u256(&self, r: U256) -> Result<Position<G>, RankError> {
        if r >= self.offsets.total() {
            return Err(self.out_of_range(&r.to_string()));
        }
        let ci = self.class_of(r);
        let class = &self.classes[ci];
        let x = r.checked_sub(self.offsets.offset(ci)).unwrap_or(U256::ZERO);
        let (mut q, mut low) = x.div_rem_u64(self.low_radices[class.low as usize]);
        // A setup until every piece is placed; the check on the way out costs a few popcounts.
        let mut pos = Setup::<G>::empty();
        low = set_hands(&mut pos, &self.types, &class.hand, low);
        let (bk, wk) = self.king_squares(low as u32);
        for (sq, color) in [(bk, Color::Black), (wk, Color::White)] {
            if let Some(sq) = Square::from_index_in::<G>(sq as u8) {
                pos.put(sq, Piece::new(color, PieceKind::King));
            }
        }
        let board_mask: u128 = if G::SQUARES >= 128 {
            u128::MAX
        } else {
            (1u128 << G::SQUARES) - 1
        };
        let mut empty = board_mask & !(1u128 << bk) & !(1u128 << wk);
        let mut m = G::SQUARES - 2;
        for &(ti, id) in &class.board[..class.n_board as usize] {
            let table = &self.splits[id as usize];
            let (nq, d) = table.take_digit(q);
            q = nq;
            (empty, m) = place_type(&mut pos, empty, m, table, d, self.types[ti as usize].kind);
        }
        // Every rank describes a position of `P_K`, so this never fails; were it to (a bug),
        // the error names the broken rule instead of handing out a corrupt position.
        pos.into_position(Relax::CANDIDATE)
            .map_err(RankError::Illegal)
    }

    /// The rank of a position as a fixed-width integer.
    pub fn rank_u256(&self, pos: &Position<G>) -> Result<U256, RankError> {
        if pos.side_to_move() != Color::Black {
            return Err(RankError::WhiteToMove);
        }
        let found = pos.material();
        if found != self.material {
            return Err(RankError::WrongMaterial {
                expected: self.material,
                found,
            });
        }
        let bk = pos.king(Color::Black).map_or(0, |s| s.index() as u32);
        let wk = pos.king(Color::White).map_or(0, |s| s.index() as u32);
        let kd = self.king_digit(bk, wk).ok_or(RankError::NotKCanonical)?;

        let mut index = 0;
        for (i, t) in self.types.iter().enumerate() {
            let h = pos.hand(Color::Black).count(t.kind) + pos.hand(Color::White).count(t.kind);
            index += h as u32 * self.hand_stride[i];
        }
        let ci = self.class_of_hand[index as usize] as usize;
        let class = &self.classes[ci];

        let mut low: u64 = 0;
        let mut base: u64 = 1;
        for (i, t) in self.types.iter().enumerate() {
            let h = class.hand[i];
            if h == 0 {
                continue;
            }
            low += base * pos.hand(Color::Black).count(t.kind) as u64;
            base *= h as u64 + 1;
        }
        low += base * kd as u64;

        let board_mask: u128 = if G::SQUARES >= 128 {
            u128::MAX
        } else {
            (1u128 << G::SQUARES) - 1
        };
        let mut empty = board_mask & !(1u128 << bk) & !(1u128 << wk);
        let mut digits = [0u128; 7];
        for (k, &(ti, id)) in class.board[..class.n_board as usize].iter().enumerate() {
            let table = &self.splits[id as usize];
            let kind = self.types[ti as usize].kind;
            let (d, rest) = rank_type(pos, empty, table, kind);
            digits[k] = d;
            empty = rest;
        }
        let mut acc = U256::ZERO;
        for k in (0..class.n_board as usize).rev() {
            let table = &self.splits[class.board[k].1 as usize];
            acc = acc
                .checked_mul_add(table.total, digits[k])
                .expect("a rank inside its class fits in 256 bits");
        }
        let acc = acc
            .checked_mul_add(
                self.low_radices[class.low as usize].get() as u128,
                low as u128,
            )
            .and_then(|a| a.checked_add(self.offsets.offset(ci)))
            .expect("a rank fits in 256 bits");
        Ok(acc)
    }
}

/// The king squares (Black, White) of a king digit (docs/METHOD.md §4.1).
#[inline]
pub(crate) fn king_squares<G: Game>(d: u32) -> (u32, u32) {
    let hl = left_squares::<G>();
    let h = G::HEIGHT as u32;
    let first = hl * (G::SQUARES as u32 - 1);
    let (bk, j) = if d < first {
        (d % hl, d / hl)
    } else {
        let d = d - first;
        (hl + d % h, d / h)
    };
    (bk, if j < bk { j } else { j + 1 })
}

/// Splits the pieces in hand of each type between the players from the hand digits in
/// `low` (least significant first, radix `h_t + 1`, the number of Black's pieces); returns
/// what is left of `low`.
#[inline(always)]
pub(crate) fn set_hands<G: Game>(
    pos: &mut Setup<G>,
    types: &[PieceType],
    hand: &[u8; 7],
    mut low: u64,
) -> u64 {
    for (i, t) in types.iter().enumerate() {
        let h = hand[i];
        if h == 0 {
            continue;
        }
        let radix = h as u64 + 1;
        let (q, black) = div_rem_recip(low, radix, SMALL_RECIP[radix as usize]);
        let black = black as u8;
        low = q;
        pos.set_hand(Color::Black, t.kind, black);
        pos.set_hand(Color::White, t.kind, h - black);
    }
    low
}

/// The four groups of a type: (colour, promoted) in the order of docs/METHOD.md §4.1.
const GROUPS: [(Color, bool); 4] = [
    (Color::Black, true),
    (Color::White, true),
    (Color::Black, false),
    (Color::White, false),
];

/// Places the pieces of one type from its digit `d`, `m` squares being empty; returns the
/// squares still empty and their number.
#[inline]
pub(crate) fn place_type<G: Game>(
    pos: &mut Setup<G>,
    mut empty: u128,
    mut m: usize,
    table: &SplitTable,
    d: u128,
    kind: PieceKind,
) -> (u128, usize) {
    let idx = table.split_of(d);
    let mut sub = d - table.offsets[idx];
    let split = table.splits[idx];
    for (g, &(color, promoted)) in GROUPS.iter().enumerate() {
        let n = split[g] as usize;
        if n == 0 {
            continue;
        }
        let radix = binom(m, n);
        let gd = if sub <= u64::MAX as u128 {
            let (q, r) = div_rem_recip(sub as u64, radix, BINOM_RECIP[m][n]);
            sub = q as u128;
            r
        } else {
            let gd = (sub % radix as u128) as u64;
            sub /= radix as u128;
            gd
        };
        let k = if promoted {
            kind.promoted().unwrap_or(kind)
        } else {
            kind
        };
        let piece = Piece::new(color, k);
        let mut set = 0u128;
        unrank_set(empty, m, n, gd, |sq| {
            set |= 1u128 << sq;
            if let Some(sq) = Square::from_index_in::<G>(sq as u8) {
                pos.put(sq, piece);
            }
        });
        empty &= !set;
        m -= n;
    }
    (empty, m)
}

/// The digit of one type, and the squares still empty after it.
#[inline]
fn rank_type<G: Game>(
    pos: &Position<G>,
    mut empty: u128,
    table: &SplitTable,
    kind: PieceKind,
) -> (u128, u128) {
    let mut sets = [0u128; 4];
    let mut split = [0u8; 4];
    for (g, &(color, promoted)) in GROUPS.iter().enumerate() {
        let k = if promoted {
            kind.promoted()
        } else {
            Some(kind)
        };
        if let Some(k) = k {
            sets[g] = pos.pieces(color, k).0;
            split[g] = sets[g].count_ones() as u8;
        }
    }
    let idx = table
        .splits
        .binary_search(&split)
        .expect("the material check guarantees the split exists");
    let mut sub: u128 = 0;
    let mut mult: u128 = 1;
    for set in sets {
        let n = set.count_ones() as usize;
        if n == 0 {
            continue;
        }
        let m = empty.count_ones() as usize;
        sub += mult * rank_set(empty, set) as u128;
        mult *= binom(m, n) as u128;
        empty &= !set;
    }
    (table.offsets[idx] + sub, empty)
}
