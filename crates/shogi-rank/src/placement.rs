//! The placement-legal subspace `S` of `P_K` (docs/METHOD.md §10.2): the positions of `P_K`
//! that pass the piece-placement filter, their exact number, and a sampler proved uniform
//! on them.
//!
//! Only the unpromoted pawns, lances and knights are constrained (a pawn or lance not on its
//! last rank, a knight not on its last two, one unpromoted pawn per side and file). Call
//! those pieces and the two kings the *core*, and count it by its six group sizes
//! `k = (Black pawns, White pawns, Black lances, White lances, Black knights, White knights)`:
//!
//! - `K(k)`, the number of ways to place the kings (K-canonically) and the core groups, is
//!   a polynomial product over the files: each file contributes the ways its squares can
//!   hold core pieces, and a file holding a king contributes fewer. Computed once per
//!   material by [`CoreTable`].
//! - Every other piece (the promoted pawns, lances and knights, and all the other types)
//!   goes anywhere on the squares left, so the rest counts as in `P_K` (docs/METHOD.md §4),
//!   with the number of empty squares fixed by the counts alone.
//!
//! So `|S| = Σ_u N_hand(u) · F(u) · Σ_k K(k) · Prom(u, k)`, where `F(u)` places the
//! unconstrained types and `Prom` the promoted pawns, lances and knights. The sampler draws
//! the hand class, `k` and the unconstrained part exactly (a uniform rank in `[0, |S|)`
//! decoded digit by digit) and the core given `k` by rejection: kings uniform over their
//! placements, each side's pawns on uniformly chosen distinct files and uniform allowed
//! ranks, each lance and knight group on a uniform set of allowed squares, redrawn until no
//! two pieces share a square. Each valid core is exactly one draw, so the accepted core is
//! uniform among the `K(k)` valid ones, and the position is uniform on `S`.

// The six core groups index several parallel arrays (sizes, limits, strides, allowed
// squares); loops over the group number read more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

use crate::combin::{binom, unrank_set};
use crate::cumulative::Cumulative;
use crate::error::MaterialError;
use crate::material::{king_placements, piece_types, PieceType};
use crate::sampler::{draw, key};
use crate::table::{king_squares, place_type, set_hands, Groups, SplitTable};
use crate::u256::U256;
use chacha20::ChaCha8Rng;
use num_bigint::BigUint;
use rand_core::{Rng, SeedableRng};
use shogi_core::{Color, Game, Material, Piece, PieceKind, Position, Relax, Setup, Square};
use std::collections::HashMap;
use std::marker::PhantomData;

/// The kinds whose unpromoted pieces the placement filter constrains, in core order.
const CORE_KINDS: [PieceKind; 3] = [PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight];

/// Pieces per core group: group `2t + c` holds the unpromoted pieces of `CORE_KINDS[t]` of
/// colour `c` (0 Black, 1 White).
pub type Core = [u8; 6];

/// The colour of core group `g`.
fn group_color(g: usize) -> Color {
    if g.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// The core vectors a material allows, laid out densely.
#[derive(Clone, Debug)]
struct CoreBox {
    /// Largest size per group.
    max: Core,
    /// The material's count per core kind (both colours together).
    kind_max: [u8; 3],
    strides: [usize; 6],
    size: usize,
}

impl CoreBox {
    fn new(kind_max: [u8; 3], width: u8) -> CoreBox {
        let mut max = [0u8; 6];
        for t in 0..3 {
            // At most one unpromoted pawn per side and file.
            let m = if t == 0 {
                kind_max[0].min(width)
            } else {
                kind_max[t]
            };
            max[2 * t] = m;
            max[2 * t + 1] = m;
        }
        let mut strides = [0usize; 6];
        let mut size = 1;
        for g in 0..6 {
            strides[g] = size;
            size *= max[g] as usize + 1;
        }
        CoreBox {
            max,
            kind_max,
            strides,
            size,
        }
    }

    fn index(&self, k: &Core) -> usize {
        (0..6).map(|g| k[g] as usize * self.strides[g]).sum()
    }

    fn vector(&self, mut i: usize) -> Core {
        let mut k = [0u8; 6];
        for g in 0..6 {
            let r = self.max[g] as usize + 1;
            k[g] = (i % r) as u8;
            i /= r;
        }
        k
    }

    fn fits(&self, k: &Core) -> bool {
        (0..6).all(|g| k[g] <= self.max[g])
            && (0..3).all(|t| k[2 * t] as u32 + k[2 * t + 1] as u32 <= self.kind_max[t] as u32)
    }
}

/// A polynomial in the six group sizes, as its non-zero terms.
type Sparse = Vec<(Core, u128)>;

fn checked_term(a: u128, b: u128) -> u128 {
    a.checked_mul(b)
        .expect("core placement counts fit in 128 bits")
}

/// `acc += a · b` for a dense `a` and a sparse `b`, terms outside the box dropped.
fn add_product_dense(bx: &CoreBox, acc: &mut [u128], a: &[u128], b: &[(Core, u128)]) {
    for (i, &va) in a.iter().enumerate() {
        if va == 0 {
            continue;
        }
        let ka = bx.vector(i);
        for (kb, vb) in b {
            let mut k = ka;
            for g in 0..6 {
                k[g] += kb[g];
            }
            if bx.fits(&k) {
                let j = bx.index(&k);
                acc[j] = acc[j]
                    .checked_add(checked_term(va, *vb))
                    .expect("core placement counts fit in 128 bits");
            }
        }
    }
}

/// The ways the squares of file `x` not in `kings` can hold core pieces, by group sizes.
fn file_poly<G: Game>(bx: &CoreBox, x: usize, kings: u128) -> Sparse {
    let t = G::tables();
    let mut cur: HashMap<Core, u128> = HashMap::from([([0u8; 6], 1u128)]);
    let mut squares = t.files[x].0 & !kings;
    while squares != 0 {
        let sq = squares.trailing_zeros();
        squares &= squares - 1;
        let mut next = cur.clone();
        for g in 0..6 {
            let kind = CORE_KINDS[g / 2];
            if bx.max[g] == 0 || t.dead[group_color(g).index()][kind.index()].0 >> sq & 1 != 0 {
                continue;
            }
            for (k, v) in &cur {
                let mut k2 = *k;
                k2[g] += 1;
                if (g < 2 && k2[g] > 1) || !bx.fits(&k2) {
                    continue;
                }
                let e = next.entry(k2).or_default();
                *e = e.checked_add(*v).expect("file counts fit in 128 bits");
            }
        }
        cur = next;
    }
    let mut v: Sparse = cur.into_iter().filter(|&(_, n)| n > 0).collect();
    v.sort_unstable();
    v
}

/// Whether the placement rules depend on the rank alone (true of Shogi and Mini Shogi):
/// then every file is alike and a file's count depends only on the ranks its kings stand on.
fn rank_only_rules<G: Game>() -> bool {
    let t = G::tables();
    let h = G::HEIGHT as u32;
    Color::ALL.into_iter().all(|c| {
        CORE_KINDS.into_iter().all(|kind| {
            let dead = t.dead[c.index()][kind.index()].0;
            (0..G::WIDTH as u32)
                .all(|x| (0..h).all(|y| (dead >> (x * h + y) & 1) == (dead >> y & 1)))
        })
    })
}

/// `K(k)` for every core vector `k` of a material: the placements of the two kings
/// (K-canonical) and the unpromoted pawns, lances and knights.
#[derive(Clone, Debug)]
pub struct CoreTable {
    bx: CoreBox,
    weights: Vec<u128>,
}

impl CoreTable {
    /// The core counts of a material of game `G`, with `kind_max` the material's pawns,
    /// lances and knights.
    fn new<G: Game>(kind_max: [u8; 3], kings: &[u32]) -> CoreTable {
        assert!(
            rank_only_rules::<G>(),
            "the placement rules of this game depend on the file"
        );
        let bx = CoreBox::new(kind_max, G::WIDTH);
        let h = G::HEIGHT as u32;
        let plain = file_poly::<G>(&bx, 0, 0);
        // King placements grouped by the ranks of the kings: on two files, or on one.
        let mut two_files: HashMap<(u32, u32), u128> = HashMap::new();
        let mut one_file: HashMap<(u32, u32), u128> = HashMap::new();
        for &d in kings {
            let (b, w) = king_squares::<G>(d);
            let (yb, yw) = (b % h, w % h);
            let key = (yb.min(yw), yb.max(yw));
            let map = if b / h == w / h {
                &mut one_file
            } else {
                &mut two_files
            };
            *map.entry(key).or_default() += 1;
        }
        let mut b2 = vec![0u128; bx.size];
        for (&(y1, y2), &mult) in &two_files {
            let f1 = file_poly::<G>(&bx, 0, 1u128 << y1);
            let f2 = file_poly::<G>(&bx, 0, 1u128 << y2);
            let mut dense = vec![0u128; bx.size];
            for (k, v) in &f1 {
                dense[bx.index(k)] = checked_term(*v, mult);
            }
            add_product_dense(&bx, &mut b2, &dense, &f2);
        }
        let mut b1 = vec![0u128; bx.size];
        for (&(y1, y2), &mult) in &one_file {
            for (k, v) in file_poly::<G>(&bx, 0, 1u128 << y1 | 1u128 << y2) {
                let j = bx.index(&k);
                b1[j] = b1[j]
                    .checked_add(checked_term(v, mult))
                    .expect("core placement counts fit in 128 bits");
            }
        }
        let times_plain = |mut t: Vec<u128>, files: usize| {
            for _ in 0..files {
                let mut next = vec![0u128; bx.size];
                add_product_dense(&bx, &mut next, &t, &plain);
                t = next;
            }
            t
        };
        // K = B2 · P^(W-2) + B1 · P^(W-1) = (B2 + B1 · P) · P^(W-2).
        let mut both = b2;
        add_product_dense(&bx, &mut both, &b1, &plain);
        let weights = times_plain(both, G::WIDTH as usize - 2);
        CoreTable { bx, weights }
    }

    /// `K(k)`, or 0 for a vector outside the material.
    pub fn weight(&self, k: &Core) -> u128 {
        if self.bx.fits(k) {
            self.weights[self.bx.index(k)]
        } else {
            0
        }
    }

    /// Every core vector of the material with its `K(k)`.
    pub fn iter(&self) -> impl Iterator<Item = (Core, u128)> + '_ {
        (0..self.bx.size)
            .map(|i| (self.bx.vector(i), self.weights[i]))
            .filter(|(k, _)| self.bx.fits(k))
    }
}

/// Which king placements a [`PlacementTable`] covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingSet {
    /// Every K-canonical placement: the whole of `S`.
    All,
    /// Both kings on the centre file: the positions of `S` whose mirror image is also in
    /// `S` (for the other placements, K-canonicity keeps one of each mirror pair). With
    /// them, `S` with mirror images counted as distinct has `2|S| − |S_centre|` positions.
    CentreFile,
}

/// The core vectors with given totals of unpromoted pawns, lances and knights.
#[derive(Clone, Debug)]
struct Totals {
    /// Their summed `K(k)`.
    sum: u128,
    /// The first core index of each vector, cumulating `K(k)`.
    starts: Vec<u128>,
    cores: Vec<Core>,
}

/// One choice of totals inside a block, with the placements of the promoted pieces.
#[derive(Clone, Debug)]
struct BlockEntry {
    totals: u32,
    /// The split tables of the promoted pawns, lances and knights, by kind.
    prom_tables: [(PieceKind, u16); 3],
    n_prom: u8,
}

/// The placements of the kings and of all pawns, lances and knights of given board counts.
#[derive(Clone, Debug)]
struct Block {
    /// The first digit of each entry, then the block's size.
    offsets: Vec<U256>,
    entries: Vec<BlockEntry>,
}

/// One hand class of `S`.
#[derive(Clone, Copy, Debug)]
struct Class {
    hand: [u8; 7],
    /// `Π (h_t + 1)`: the ways to split the hands between the players.
    hand_radix: u64,
    n_other: u8,
    /// The unconstrained types on the board (type index, split table), in `T` order.
    other: [(u8, u16); 7],
    block: u16,
}

/// The placement-legal subspace `S` of one material of game `G`: its exact size and a
/// sampler proved uniform on it (see the module documentation and docs/METHOD.md §10.2).
///
/// Building it for full Shogi takes under a second; keep one and reuse it
/// ([`crate::full_placement_table`] shares one of the full material).
#[derive(Clone, Debug)]
pub struct PlacementTable<G: Game> {
    material: Material,
    types: Vec<PieceType>,
    core: CoreTable,
    totals: Vec<Totals>,
    blocks: Vec<Block>,
    classes: Vec<Class>,
    offsets: Cumulative,
    bits: u32,
    splits: Vec<SplitTable>,
    /// The digits (docs/METHOD.md §4.1) of the king placements of the space.
    kings: Vec<u32>,
    /// Per colour and file: the squares an unpromoted pawn may stand on, and their number.
    pawn_squares: [[(u128, u8); 16]; 2],
    /// Per lance and knight group (groups 2 to 5): the squares it may stand on and their
    /// number.
    allowed: [(u128, u8); 6],
    _game: PhantomData<G>,
}

/// The split tables of a space, each built once.
#[derive(Default)]
struct Splits {
    tables: Vec<SplitTable>,
    ids: HashMap<(u32, u32, Groups), u16>,
}

impl Splits {
    /// The table of `b` pieces on `e` squares in `groups`.
    fn id(&mut self, e: u32, b: u32, groups: Groups) -> u16 {
        let tables = &mut self.tables;
        *self.ids.entry((e, b, groups)).or_insert_with(|| {
            tables.push(SplitTable::with_groups(e, b, groups));
            u16::try_from(tables.len() - 1).expect("fewer than 2^16 split tables")
        })
    }
}

/// The layout of the totals (unpromoted pawns, lances, knights) of a material.
#[derive(Clone, Copy)]
struct TotalsShape {
    kind_max: [u8; 3],
    squares: u32,
}

impl TotalsShape {
    fn len(self) -> usize {
        self.kind_max.iter().map(|&m| m as usize + 1).product()
    }

    fn index(self, t: [u8; 3]) -> usize {
        let d = |i: usize| self.kind_max[i] as usize + 1;
        (t[0] as usize * d(1) + t[1] as usize) * d(2) + t[2] as usize
    }
}

/// The block of the board counts `b` of pawns, lances and knights: for each totals of
/// unpromoted ones, `Σ K(k)` times the placements of the promoted rest.
fn build_block(b: [u8; 3], totals: &[Totals], shape: TotalsShape, splits: &mut Splits) -> Block {
    let mut offsets = Vec::new();
    let mut entries = Vec::new();
    let mut size = U256::ZERO;
    for p in 0..=b[0] {
        for l in 0..=b[1] {
            for n in 0..=b[2] {
                let ti = shape.index([p, l, n]);
                if totals[ti].sum == 0 {
                    continue;
                }
                let q = [b[0] - p, b[1] - l, b[2] - n].map(u32::from);
                let mut e = shape.squares - 2 - u32::from(p + l + n);
                if q.iter().sum::<u32>() > e {
                    continue;
                }
                let mut prom: u128 = 1;
                let mut prom_tables = [(PieceKind::Pawn, 0u16); 3];
                let mut n_prom = 0;
                for (t, &qt) in q.iter().enumerate() {
                    if qt == 0 {
                        continue;
                    }
                    let id = splits.id(e, qt, Groups::Promoted);
                    prom = prom
                        .checked_mul(splits.tables[id as usize].total)
                        .expect("promoted placements fit in 128 bits");
                    prom_tables[n_prom] = (CORE_KINDS[t], id);
                    n_prom += 1;
                    e -= qt;
                }
                let w = U256::from(totals[ti].sum)
                    .checked_mul_u128(prom)
                    .expect("block sizes fit in 256 bits");
                offsets.push(size);
                size = size.checked_add(w).expect("block sizes fit in 256 bits");
                entries.push(BlockEntry {
                    totals: ti as u32,
                    prom_tables,
                    n_prom: n_prom as u8,
                });
            }
        }
    }
    offsets.push(size);
    Block { offsets, entries }
}

/// A uniform integer in `[0, bound)` (`bound > 0`) from `rng`, without modulo bias
/// (Lemire's multiply-and-reject).
#[inline]
fn below(rng: &mut ChaCha8Rng, bound: u64) -> u64 {
    let mut m = rng.next_u64() as u128 * bound as u128;
    if (m as u64) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (m as u64) < threshold {
            m = rng.next_u64() as u128 * bound as u128;
        }
    }
    (m >> 64) as u64
}

/// The square of the `i`-th set bit of `set`.
#[inline]
fn nth_square(mut set: u128, i: u64) -> u32 {
    for _ in 0..i {
        set &= set - 1;
    }
    set.trailing_zeros()
}

/// The core pieces placed by one proposal: at most 2 kings, 2·9 pawns, 4 lances, 4 knights.
type Placed = ([(u8, Piece); 32], usize);

impl<G: Game> PlacementTable<G> {
    /// The table of the game's full material.
    pub fn full() -> PlacementTable<G> {
        Self::new(&G::MATERIAL).expect("the game's own material is valid")
    }

    /// The table of a material: two kings and at most the game's count of every kind.
    pub fn new(material: &Material) -> Result<PlacementTable<G>, MaterialError> {
        Self::with_kings(material, KingSet::All)
    }

    /// The table of the positions of `S` whose kings are in `kings`.
    pub fn with_kings(
        material: &Material,
        kings: KingSet,
    ) -> Result<PlacementTable<G>, MaterialError> {
        let types = piece_types::<G>(material)?;
        let centre = G::WIDTH as u32 / 2;
        let h = G::HEIGHT as u32;
        let kings: Vec<u32> = (0..king_placements::<G>())
            .filter(|&d| {
                let (b, w) = king_squares::<G>(d);
                kings == KingSet::All || (b / h == centre && w / h == centre)
            })
            .collect();
        let core_index = |kind: PieceKind| CORE_KINDS.iter().position(|&k| k == kind);
        let mut kind_max = [0u8; 3];
        for t in &types {
            if let Some(c) = core_index(t.kind) {
                kind_max[c] = t.count;
            }
        }
        let core = CoreTable::new::<G>(kind_max, &kings);
        let squares = G::SQUARES as u32;

        // The vectors of each totals, cumulated.
        let shape = TotalsShape { kind_max, squares };
        let mut totals: Vec<Totals> = (0..shape.len())
            .map(|_| Totals {
                sum: 0,
                starts: Vec::new(),
                cores: Vec::new(),
            })
            .collect();
        for (k, w) in core.iter() {
            if w == 0 {
                continue;
            }
            let i = shape.index([k[0] + k[1], k[2] + k[3], k[4] + k[5]]);
            let t = &mut totals[i];
            t.starts.push(t.sum);
            t.cores.push(k);
            t.sum = t.sum.checked_add(w).expect("core sums fit in 128 bits");
        }

        let mut splits = Splits::default();
        let mut blocks: Vec<Block> = Vec::new();
        let mut block_ids: HashMap<[u8; 3], u16> = HashMap::new();

        // Every hand vector.
        let n = types.len();
        let vectors: u32 = types.iter().map(|t| t.count as u32 + 1).product();
        let mut classes = Vec::new();
        let mut sizes = Vec::new();
        for v in 0..vectors {
            let mut hand = [0u8; 7];
            let mut rest = v;
            for (i, t) in types.iter().enumerate() {
                hand[i] = (rest % (t.count as u32 + 1)) as u8;
                rest /= t.count as u32 + 1;
            }
            let mut on_board = [0u8; 3];
            let mut constrained = 0u32;
            for (i, t) in types.iter().enumerate() {
                if let Some(c) = core_index(t.kind) {
                    on_board[c] = t.count - hand[i];
                    constrained += on_board[c] as u32;
                }
            }
            if constrained + 2 > squares {
                continue;
            }
            let block = match block_ids.get(&on_board) {
                Some(&id) => id,
                None => {
                    let shape = TotalsShape { kind_max, squares };
                    blocks.push(build_block(on_board, &totals, shape, &mut splits));
                    let id = u16::try_from(blocks.len() - 1).expect("fewer than 2^16 blocks");
                    block_ids.insert(on_board, id);
                    id
                }
            };
            let block_size = *blocks[block as usize].offsets.last().expect("a sentinel");
            let hand_radix: u64 = (0..n).map(|i| hand[i] as u64 + 1).product();
            let mut size = block_size
                .checked_mul_u128(hand_radix as u128)
                .expect("class sizes fit in 256 bits");
            let mut e = squares - 2 - constrained;
            let mut other = [(0u8, 0u16); 7];
            let mut n_other = 0;
            for (i, t) in types.iter().enumerate() {
                let b = (t.count - hand[i]) as u32;
                if core_index(t.kind).is_some() || b == 0 {
                    continue;
                }
                if b > e {
                    size = U256::ZERO;
                    break;
                }
                let groups = if t.promotable {
                    Groups::All
                } else {
                    Groups::Unpromoted
                };
                let id = splits.id(e, b, groups);
                size = size
                    .checked_mul_u128(splits.tables[id as usize].total)
                    .expect("class sizes fit in 256 bits");
                other[n_other] = (i as u8, id);
                n_other += 1;
                e -= b;
            }
            if size.is_zero() {
                continue;
            }
            sizes.push(size);
            classes.push(Class {
                hand,
                hand_radix,
                n_other: n_other as u8,
                other,
                block,
            });
        }
        let offsets = Cumulative::new(sizes, "|S|");
        let bits = offsets
            .total()
            .checked_sub(U256::ONE)
            .unwrap_or(U256::ZERO)
            .bits();

        let t = G::tables();
        let mut pawn_squares = [[(0u128, 0u8); 16]; 2];
        for c in Color::ALL {
            let dead = t.dead[c.index()][PieceKind::Pawn.index()].0;
            for x in 0..G::WIDTH as usize {
                let set = t.files[x].0 & !dead;
                pawn_squares[c.index()][x] = (set, set.count_ones() as u8);
            }
        }
        let mut allowed = [(0u128, 0u8); 6];
        for (g, a) in allowed.iter_mut().enumerate().skip(2) {
            let dead = t.dead[group_color(g).index()][CORE_KINDS[g / 2].index()].0;
            let set = t.board.0 & !dead;
            *a = (set, set.count_ones() as u8);
        }
        Ok(PlacementTable {
            material: *material,
            types,
            core,
            totals,
            blocks,
            classes,
            offsets,
            bits,
            splits: splits.tables,
            kings,
            pawn_squares,
            allowed,
            _game: PhantomData,
        })
    }

    /// The material of the table.
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// `|S|`, the number of placement-legal positions of `P_K`.
    pub fn count(&self) -> BigUint {
        self.offsets.total().to_biguint()
    }

    /// `|S|` as a fixed-width integer.
    pub fn count_u256(&self) -> U256 {
        self.offsets.total()
    }

    /// The core counts `K(k)` of the material.
    pub fn core(&self) -> &CoreTable {
        &self.core
    }

    /// The number of hand classes with at least one placement-legal position.
    pub fn class_count(&self) -> usize {
        self.classes.len()
    }

    /// The expected number of core draws per sample: `Σ_k P(k) · D(k) / K(k)`, where
    /// `P(k)` is the share of `S` with core vector `k` and `D(k)` the number of possible
    /// draws. The sampler's cost beyond an unrank grows with it.
    pub fn expected_draws(&self) -> f64 {
        let total = self.offsets.total().to_biguint();
        let total = num_traits::ToPrimitive::to_f64(&total).unwrap_or(f64::INFINITY);
        let mut sum = 0.0;
        for (ci, class) in self.classes.iter().enumerate() {
            let size = self
                .offsets
                .offset(ci + 1)
                .checked_sub(self.offsets.offset(ci))
                .unwrap_or(U256::ZERO);
            let block = &self.blocks[class.block as usize];
            let block_size = u256_f64(*block.offsets.last().expect("a sentinel"));
            let class_share = u256_f64(size) / total;
            for (ei, entry) in block.entries.iter().enumerate() {
                let entry_size = u256_f64(
                    block.offsets[ei + 1]
                        .checked_sub(block.offsets[ei])
                        .unwrap_or(U256::ZERO),
                );
                let totals = &self.totals[entry.totals as usize];
                for &k in &totals.cores {
                    let w = self.core.weight(&k) as f64;
                    let share = class_share * entry_size / block_size * w / totals.sum as f64;
                    sum += share * self.draws(&k) / w;
                }
            }
        }
        sum
    }

    /// The number of possible core draws for core vector `k`.
    fn draws(&self, k: &Core) -> f64 {
        let mut d = self.kings.len() as f64;
        for c in 0..2 {
            let n = k[c] as usize;
            if n > 0 {
                d *= binom(G::WIDTH as usize, n) as f64;
                d *= (self.pawn_squares[c][0].1 as f64).powi(n as i32);
            }
        }
        for (g, &(_, m)) in self.allowed.iter().enumerate().skip(2) {
            d *= binom(m as usize, k[g] as usize) as f64;
        }
        d
    }

    /// One proposal for the core `k`: the pieces and the squares they cover, or `None` if
    /// two of them fell on one square.
    #[inline]
    fn propose(&self, rng: &mut ChaCha8Rng, k: &Core, placed: &mut Placed) -> Option<u128> {
        let (list, len) = placed;
        *len = 0;
        let mut occ = 0u128;
        let mut push = |sq: u32, piece: Piece, occ: &mut u128| -> bool {
            let bit = 1u128 << sq;
            if *occ & bit != 0 {
                return false;
            }
            *occ |= bit;
            list[*len] = (sq as u8, piece);
            *len += 1;
            true
        };
        let (bk, wk) = king_squares::<G>(self.kings[below(rng, self.kings.len() as u64) as usize]);
        push(bk, Piece::new(Color::Black, PieceKind::King), &mut occ);
        push(wk, Piece::new(Color::White, PieceKind::King), &mut occ);
        let width = G::WIDTH as usize;
        for c in 0..2 {
            let n = k[c] as usize;
            if n == 0 {
                continue;
            }
            let piece = Piece::new(group_color(c), PieceKind::Pawn);
            let mut files = [0u32; 16];
            let mut nf = 0;
            let r = below(rng, binom(width, n));
            unrank_set((1u128 << width) - 1, width, n, r, |x| {
                files[nf] = x;
                nf += 1;
            });
            for &x in &files[..nf] {
                let (set, m) = self.pawn_squares[c][x as usize];
                let sq = nth_square(set, below(rng, m as u64));
                if !push(sq, piece, &mut occ) {
                    return None;
                }
            }
        }
        for g in 2..6 {
            let n = k[g] as usize;
            if n == 0 {
                continue;
            }
            let piece = Piece::new(group_color(g), CORE_KINDS[g / 2]);
            let (set, m) = self.allowed[g];
            let r = below(rng, binom(m as usize, n));
            let mut ok = true;
            unrank_set(set, m as usize, n, r, |sq| {
                ok &= push(sq, piece, &mut occ);
            });
            if !ok {
                return None;
            }
        }
        Some(occ)
    }

    /// A uniform position of `S` from `rng` (see the module documentation).
    ///
    /// The hand class is drawn by its size, from a uniform number below `|S|`. Within it
    /// every part is drawn independently and uniformly, each from its own draw: the totals
    /// of unpromoted pawns, lances and knights by their weight, the core vector by `K(k)`,
    /// the core by rejection, then the hands and the placements of the other pieces. Fresh
    /// draws cost a few generator words each, less than dividing one 256-bit number into
    /// all these digits.
    pub fn sample_from(&self, rng: &mut ChaCha8Rng) -> Position<G> {
        let r = draw(rng, self.offsets.total(), self.bits);
        let class = &self.classes[self.offsets.find(r)];
        let block = &self.blocks[class.block as usize];
        let entry = match block.entries.len() {
            1 => &block.entries[0],
            _ => {
                let size = block.offsets[block.entries.len()];
                let z = draw(
                    rng,
                    size,
                    size.checked_sub(U256::ONE).unwrap_or(U256::ZERO).bits(),
                );
                &block.entries[block.offsets.partition_point(|&o| o <= z) - 1]
            }
        };
        let totals = &self.totals[entry.totals as usize];
        let core_index = below_u128(rng, totals.sum);
        let core = totals.cores[totals.starts.partition_point(|&s| s <= core_index) - 1];

        let mut placed: Placed = ([(0, Piece::new(Color::Black, PieceKind::King)); 32], 0);
        let occ = loop {
            if let Some(occ) = self.propose(rng, &core, &mut placed) {
                break occ;
            }
        };
        let mut pos = Setup::<G>::empty();
        set_hands(
            &mut pos,
            &self.types,
            &class.hand,
            below(rng, class.hand_radix),
        );
        for &(sq, piece) in &placed.0[..placed.1] {
            if let Some(sq) = Square::from_index_in::<G>(sq) {
                pos.put(sq, piece);
            }
        }
        let board = G::tables().board.0;
        let mut empty = board & !occ;
        let mut m = empty.count_ones() as usize;
        for &(kind, id) in &entry.prom_tables[..entry.n_prom as usize] {
            let table = &self.splits[id as usize];
            let d = below_u128(rng, table.total);
            (empty, m) = place_type(&mut pos, empty, m, table, d, kind);
        }
        for &(ti, id) in &class.other[..class.n_other as usize] {
            let table = &self.splits[id as usize];
            let d = below_u128(rng, table.total);
            (empty, m) = place_type(&mut pos, empty, m, table, d, self.types[ti as usize].kind);
        }
        // Every draw is a position of `S`; were it not (a bug), say so rather than hand
        // out a corrupt position.
        pos.into_position(Relax::CANDIDATE)
            .expect("a sample of S is a position of P_K")
    }
}

/// A uniform integer in `[0, bound)` (`bound > 0`): [`below`] when it fits in 64 bits,
/// else masked 128-bit draws, redrawn until below (fewer than two on average).
#[inline]
fn below_u128(rng: &mut ChaCha8Rng, bound: u128) -> u128 {
    if let Ok(b) = u64::try_from(bound) {
        return below(rng, b) as u128;
    }
    let mask = u128::MAX >> (bound - 1).leading_zeros();
    loop {
        let x = ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) & mask;
        if x < bound {
            return x;
        }
    }
}

fn u256_f64(x: U256) -> f64 {
    num_traits::ToPrimitive::to_f64(&x.to_biguint()).unwrap_or(f64::INFINITY)
}

/// Draws uniform samples of `S` reproducibly: sample `i` of seed `s` is the same on any
/// machine, thread count or order of drawing. It uses ChaCha8 stream `i` of seed `s` as
/// [`crate::Sampler`] does: first a uniform number below `|S|` (four words a draw, redrawn
/// when too large), then the core draws of [`PlacementTable::sample_from`] from the same
/// stream.
#[derive(Clone, Debug)]
pub struct PlacementSampler<'a, G: Game> {
    table: &'a PlacementTable<G>,
    seed: u64,
}

impl<'a, G: Game> PlacementSampler<'a, G> {
    /// A sampler of the table's space with this seed.
    pub fn new(table: &'a PlacementTable<G>, seed: u64) -> Self {
        PlacementSampler { table, seed }
    }

    /// Sample `index`.
    pub fn sample(&self, index: u64) -> Position<G> {
        let mut rng = ChaCha8Rng::from_seed(key(self.seed));
        rng.set_stream(index);
        self.table.sample_from(&mut rng)
    }
}
