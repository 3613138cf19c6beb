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
//! the hand class, `k` and the unconstrained part exactly (each part by its own uniform
//! draw, weighted by the counts above) and the core given `k` by rejection: kings uniform
//! over their placements, each side's pawns on uniformly chosen distinct files and uniform
//! allowed ranks, each lance and knight on a uniform allowed square, drawn again until no
//! two pieces share a square. Each valid core is the same number of draws (`Π n_g!` for
//! the orders of the `n_g` lances or knights of each group), so the accepted core is
//! uniform among the `K(k)` valid ones, and the position is uniform on `S`.

// The six core groups index several parallel arrays (sizes, limits, strides, allowed
// squares); loops over the group number read more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

use crate::combin::binom;
use crate::cumulative::Cumulative;
use crate::error::MaterialError;
use crate::material::{king_placements, piece_types, PieceType};
use crate::sampler::key;
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
    cores: Vec<Core>,
    /// The ranges of core indices of the vectors, of sizes `K(k)`.
    index: Cumulative,
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
    /// The ranges of the entries' digits, of sizes `Σ K(k) · Prom`.
    offsets: Cumulative,
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
    splits: Vec<SplitTable>,
    /// Where the core's pieces may stand, as lists to draw from by index.
    squares: CoreSquares,
    _game: PhantomData<G>,
}

/// The squares the core's pieces may stand on, laid out so that a proposal draws each
/// piece's square by one small uniform index and a table lookup.
#[derive(Clone, Debug)]
struct CoreSquares {
    /// The (Black, White) king squares of each king placement of the space.
    kings: Vec<(u8, u8)>,
    /// Per number `n` of files: every set of `n` distinct files, as a bit mask.
    file_sets: Vec<Vec<u16>>,
    /// Per colour and file: the squares an unpromoted pawn may stand on.
    pawn: [[[u8; 16]; 16]; 2],
    /// Per colour: how many squares of a file an unpromoted pawn may stand on (the same on
    /// every file).
    pawn_ranks: [u8; 2],
    /// Per lance and knight group (groups 2 to 5): the squares it may stand on.
    group: [[u8; 128]; 6],
    /// Per group: the number of those squares.
    group_len: [u8; 6],
}

impl CoreSquares {
    fn new<G: Game>(kings: &[u32]) -> CoreSquares {
        let t = G::tables();
        let width = G::WIDTH as usize;
        let mut file_sets = vec![Vec::new(); width + 1];
        for mask in 0u16..1 << width {
            file_sets[mask.count_ones() as usize].push(mask);
        }
        let mut pawn = [[[0u8; 16]; 16]; 2];
        let mut pawn_ranks = [0u8; 2];
        for c in Color::ALL {
            let dead = t.dead[c.index()][PieceKind::Pawn.index()].0;
            for x in 0..width {
                let n = fill(&mut pawn[c.index()][x], t.files[x].0 & !dead);
                debug_assert!(x == 0 || n == pawn_ranks[c.index()]);
                pawn_ranks[c.index()] = n;
            }
        }
        let mut group = [[0u8; 128]; 6];
        let mut group_len = [0u8; 6];
        for g in 2..6 {
            let dead = t.dead[group_color(g).index()][CORE_KINDS[g / 2].index()].0;
            group_len[g] = fill(&mut group[g], t.board.0 & !dead);
        }
        CoreSquares {
            kings: kings
                .iter()
                .map(|&d| {
                    let (b, w) = king_squares::<G>(d);
                    (b as u8, w as u8)
                })
                .collect(),
            file_sets,
            pawn,
            pawn_ranks,
            group,
            group_len,
        }
    }
}

/// Writes the squares of `set` in ascending order into `out`; returns their number.
fn fill(out: &mut [u8], mut set: u128) -> u8 {
    let mut n = 0;
    while set != 0 {
        out[n] = set.trailing_zeros() as u8;
        set &= set - 1;
        n += 1;
    }
    n as u8
}

/// The draws of one sample, from one generator stream read eight words at a time, with a
/// buffer of bits for the many small draws of the core: a proposal draws a dozen or more
/// indices below 128 from a few words (3 bits for a pawn's rank, 32 for a lance's square).
/// Every draw is exact: powers of two take bits, other bounds multiply and reject.
struct Draws<'r> {
    rng: &'r mut ChaCha8Rng,
    words: [u64; 8],
    next: usize,
    bits: u64,
    left: u32,
}

impl<'r> Draws<'r> {
    fn new(rng: &'r mut ChaCha8Rng) -> Self {
        Draws {
            rng,
            words: [0; 8],
            next: 8,
            bits: 0,
            left: 0,
        }
    }

    /// The next uniform 64-bit word.
    #[inline]
    fn word(&mut self) -> u64 {
        if self.next == self.words.len() {
            self.refill();
        }
        let w = self.words[self.next];
        self.next += 1;
        w
    }

    #[inline(never)]
    fn refill(&mut self) {
        let mut bytes = [0u8; 64];
        self.rng.fill_bytes(&mut bytes);
        for (w, b) in self.words.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(b.try_into().expect("8 bytes"));
        }
        self.next = 0;
    }

    /// The next `n` bits (`1 <= n <= 32`) as a number.
    #[inline]
    fn take(&mut self, n: u32) -> u32 {
        if self.left < n {
            self.bits = self.word();
            self.left = 64;
        }
        let v = (self.bits & ((1u64 << n) - 1)) as u32;
        self.bits >>= n;
        self.left -= n;
        v
    }

    /// A uniform integer in `[0, bound)` (`0 < bound < 2^32`): the bits themselves when
    /// `bound` is a power of two, else Lemire's multiply-and-reject on 32 bits.
    #[inline]
    fn below32(&mut self, bound: u32) -> u32 {
        if bound.is_power_of_two() {
            return self.take(bound.trailing_zeros().max(1)) & (bound - 1);
        }
        let mut m = self.take(32) as u64 * bound as u64;
        if (m as u32) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u32) < threshold {
                m = self.take(32) as u64 * bound as u64;
            }
        }
        (m >> 32) as u32
    }

    /// A uniform integer in `[0, bound)` (`bound > 0`): Lemire's multiply-and-reject on
    /// 64 bits.
    #[inline]
    fn below64(&mut self, bound: u64) -> u64 {
        let mut m = self.word() as u128 * bound as u128;
        if (m as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u64) < threshold {
                m = self.word() as u128 * bound as u128;
            }
        }
        (m >> 64) as u64
    }

    /// A uniform integer in `[0, bound)` (`bound > 0`): [`Self::below64`] when it fits
    /// in 64 bits, else masked 128-bit draws, redrawn until below (fewer than two on
    /// average).
    #[inline]
    fn below128(&mut self, bound: u128) -> u128 {
        if let Ok(b) = u64::try_from(bound) {
            return self.below64(b) as u128;
        }
        let mask = u128::MAX >> (bound - 1).leading_zeros();
        loop {
            let x = ((self.word() as u128) << 64 | self.word() as u128) & mask;
            if x < bound {
                return x;
            }
        }
    }

    /// A uniform number in `[0, bound)` (`bound > 0`): masked draws of as many words as
    /// `bound − 1` needs, redrawn until below (fewer than two on average).
    fn below256(&mut self, bound: U256) -> U256 {
        let bits = bound.checked_sub(U256::ONE).unwrap_or(U256::ZERO).bits();
        loop {
            let mut l = [0u64; 4];
            for (i, limb) in l.iter_mut().enumerate() {
                let lo = 64 * i as u32;
                if bits <= lo {
                    break;
                }
                *limb = self.word();
                if bits < lo + 64 {
                    *limb &= (1u64 << (bits - lo)) - 1;
                }
            }
            let x = U256::from_limbs(l);
            if x < bound {
                return x;
            }
        }
    }
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
    let mut sizes = Vec::new();
    let mut entries = Vec::new();
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
                sizes.push(
                    U256::from(totals[ti].sum)
                        .checked_mul_u128(prom)
                        .expect("block sizes fit in 256 bits"),
                );
                entries.push(BlockEntry {
                    totals: ti as u32,
                    prom_tables,
                    n_prom: n_prom as u8,
                });
            }
        }
    }
    Block {
        offsets: Cumulative::new(sizes, "a block's size"),
        entries,
    }
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
        let mut weights: Vec<Vec<(Core, u128)>> = vec![Vec::new(); shape.len()];
        for (k, w) in core.iter() {
            if w != 0 {
                weights[shape.index([k[0] + k[1], k[2] + k[3], k[4] + k[5]])].push((k, w));
            }
        }
        let totals: Vec<Totals> = weights
            .into_iter()
            .map(|ws| Totals {
                sum: ws
                    .iter()
                    .try_fold(0u128, |acc, &(_, w)| acc.checked_add(w))
                    .expect("core sums fit in 128 bits"),
                cores: ws.iter().map(|&(k, _)| k).collect(),
                index: Cumulative::new(ws.iter().map(|&(_, w)| U256::from(w)), "a core sum"),
            })
            .collect();

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
            let block_size = blocks[block as usize].offsets.total();
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

        let core_squares = CoreSquares::new::<G>(&kings);
        Ok(PlacementTable {
            material: *material,
            types,
            core,
            totals,
            blocks,
            classes,
            offsets,
            splits: splits.tables,
            squares: core_squares,
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
    /// draws per valid core's share (about 2.37 in Shogi, 1.08 in Mini Shogi). The
    /// sampler's cost beyond an unrank grows with it.
    pub fn expected_draws(&self) -> f64 {
        let total = self.offsets.total().to_biguint();
        let total = num_traits::ToPrimitive::to_f64(&total).unwrap_or(f64::INFINITY);
        let mut sum = 0.0;
        for (ci, class) in self.classes.iter().enumerate() {
            let size = self.offsets.size(ci);
            let block = &self.blocks[class.block as usize];
            let block_size = u256_f64(block.offsets.total());
            let class_share = u256_f64(size) / total;
            for (ei, entry) in block.entries.iter().enumerate() {
                let entry_size = u256_f64(block.offsets.size(ei));
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

    /// The number of possible core draws for core vector `k`, per valid core's share: a
    /// group of `n` lances or knights is drawn in order, and each set of its squares is
    /// `n!` of the draws.
    fn draws(&self, k: &Core) -> f64 {
        let sq = &self.squares;
        let mut d = sq.kings.len() as f64;
        for c in 0..2 {
            let n = k[c] as usize;
            if n > 0 {
                d *= binom(G::WIDTH as usize, n) as f64;
                d *= (sq.pawn_ranks[c] as f64).powi(n as i32);
            }
        }
        for g in 2..6 {
            let n = k[g] as i32;
            let orders: f64 = (1..=n).map(f64::from).product();
            d *= (sq.group_len[g] as f64).powi(n) / orders;
        }
        d
    }

    /// One proposal for the core `k`: the pieces and the squares they cover, or `None` if
    /// two of them fell on one square.
    ///
    /// Every draw is independent and uniform: the kings among their placements, each side's
    /// pawn files among the sets of `k[c]` files, each pawn's rank, and each lance and
    /// knight among its group's allowed squares, in order. A valid core with `n_g` pieces in
    /// group `g` is therefore `Π n_g!` equally likely draws, the same for every valid core.
    #[inline]
    fn propose(&self, draws: &mut Draws, k: &Core, placed: &mut Placed) -> Option<u128> {
        let sq = &self.squares;
        let (list, len) = placed;
        *len = 0;
        let mut occ = 0u128;
        let mut push = |s: u8, piece: Piece, occ: &mut u128| -> bool {
            let bit = 1u128 << s;
            if *occ & bit != 0 {
                return false;
            }
            *occ |= bit;
            list[*len] = (s, piece);
            *len += 1;
            true
        };
        let (bk, wk) = sq.kings[draws.below32(sq.kings.len() as u32) as usize];
        push(bk, Piece::new(Color::Black, PieceKind::King), &mut occ);
        push(wk, Piece::new(Color::White, PieceKind::King), &mut occ);
        for c in 0..2 {
            let n = k[c] as usize;
            if n == 0 {
                continue;
            }
            let piece = Piece::new(group_color(c), PieceKind::Pawn);
            let sets = &sq.file_sets[n];
            let mut files = sets[draws.below32(sets.len() as u32) as usize];
            let ranks = sq.pawn_ranks[c] as u32;
            while files != 0 {
                let x = files.trailing_zeros() as usize;
                files &= files - 1;
                let s = sq.pawn[c][x][draws.below32(ranks) as usize];
                if !push(s, piece, &mut occ) {
                    return None;
                }
            }
        }
        for g in 2..6 {
            let piece = Piece::new(group_color(g), CORE_KINDS[g / 2]);
            let m = sq.group_len[g] as u32;
            for _ in 0..k[g] {
                let s = sq.group[g][draws.below32(m) as usize];
                if !push(s, piece, &mut occ) {
                    return None;
                }
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
        let mut draws = Draws::new(rng);
        let r = draws.below256(self.offsets.total());
        let class = &self.classes[self.offsets.find(r)];
        let block = &self.blocks[class.block as usize];
        let entry = match block.entries.len() {
            1 => &block.entries[0],
            _ => {
                let z = draws.below256(block.offsets.total());
                &block.entries[block.offsets.find(z)]
            }
        };
        let totals = &self.totals[entry.totals as usize];
        let core_index = draws.below128(totals.sum);
        let core = totals.cores[totals.index.find(U256::from(core_index))];

        let mut placed: Placed = ([(0, Piece::new(Color::Black, PieceKind::King)); 32], 0);
        let occ = loop {
            if let Some(occ) = self.propose(&mut draws, &core, &mut placed) {
                break occ;
            }
        };
        let mut pos = Setup::<G>::empty();
        set_hands(
            &mut pos,
            &self.types,
            &class.hand,
            draws.below64(class.hand_radix),
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
            let d = draws.below128(table.total);
            (empty, m) = place_type(&mut pos, empty, m, table, d, kind);
        }
        for &(ti, id) in &class.other[..class.n_other as usize] {
            let table = &self.splits[id as usize];
            let d = draws.below128(table.total);
            (empty, m) = place_type(&mut pos, empty, m, table, d, self.types[ti as usize].kind);
        }
        // Every draw is a position of `S`; were it not (a bug), say so rather than hand
        // out a corrupt position.
        pos.into_position(Relax::CANDIDATE)
            .expect("a sample of S is a position of P_K")
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Pearson's chi-square of `n` draws below `bound` against the uniform distribution,
    /// with its degrees of freedom.
    fn chi_square(bound: u32, n: u32, mut draw: impl FnMut() -> u32) -> (f64, f64) {
        let mut counts = vec![0u32; bound as usize];
        for _ in 0..n {
            let x = draw();
            assert!(x < bound, "{x} drawn below {bound}");
            counts[x as usize] += 1;
        }
        let e = n as f64 / bound as f64;
        let stat = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
        (stat, bound as f64 - 1.0)
    }

    fn assert_uniform(what: &str, (stat, df): (f64, f64)) {
        let limit = df + 7.0 * (2.0 * df).sqrt() + 10.0;
        assert!(stat < limit, "{what}: chi2 = {stat:.0} with {df} df");
    }

    #[test]
    fn small_draws_are_uniform() {
        let mut rng = ChaCha8Rng::from_seed([7; 32]);
        let mut draws = Draws::new(&mut rng);
        // Powers of two take bits; the others multiply and reject.
        for bound in [1, 2, 3, 5, 8, 57, 63, 72, 126, 3276] {
            let stat = chi_square(bound, 100 * bound, || draws.below32(bound));
            assert_uniform(&format!("below32({bound})"), stat);
        }
        for bound in [1u64, 6, 3 << 40, u64::MAX] {
            // The top 5 bits of draws below a bound, against their exact shares.
            let n = 64_000;
            let shift = (64 - bound.leading_zeros()).saturating_sub(5);
            let cells = ((bound - 1) >> shift) as usize + 1;
            let mut counts = vec![0f64; cells];
            for _ in 0..n {
                let x = draws.below64(bound);
                assert!(x < bound);
                counts[(x >> shift) as usize] += 1.0;
            }
            let mut stat = 0.0;
            for (c, &o) in counts.iter().enumerate() {
                let lo = (c as u64) << shift;
                let width = (bound - 1 - lo).min((1u64 << shift) - 1) as f64 + 1.0;
                let e = n as f64 * width / bound as f64;
                stat += (o - e).powi(2) / e;
            }
            assert_uniform(&format!("below64({bound})"), (stat, cells as f64 - 1.0));
        }
    }

    #[test]
    fn wide_draws_stay_below_their_bound() {
        let mut rng = ChaCha8Rng::from_seed([8; 32]);
        let mut draws = Draws::new(&mut rng);
        // Just above a power of two, half the draws are redrawn; the high part must still
        // be uniform over what the bound allows.
        let b128 = (1u128 << 100) + 12345;
        let b256 = U256::ONE.shl(200).checked_add(U256::from(99u64)).unwrap();
        let mut low = [0u32; 2];
        for _ in 0..20_000 {
            let x = draws.below128(b128);
            assert!(x < b128);
            low[(x >> 99) as usize & 1] += 1;
            let y = draws.below256(b256);
            assert!(y < b256);
        }
        // Below 2^100 + 12345, bit 99 is set for half of the numbers (within noise).
        let d = low[0] as f64 - low[1] as f64;
        assert!(d.abs() < 6.0 * 20_000f64.sqrt(), "{low:?}");
    }
}
