//! Exhaustive cross-check of the backward search against a forward breadth-first search, on
//! reduced material (SPEC §9, last bullet).
//!
//! For a small material (the two kings and a few other pieces) the set of reachable
//! positions can be computed outright: start from every KK position of that material (both
//! kings on the board, not adjacent, every other piece in either hand in every split, either
//! side to move) and play every legal move until nothing new appears. Moves never change the
//! material (a capture only moves a piece to a hand), so the closure stays inside it.
//!
//! [`cross_check`] then walks the whole candidate space `P_K` of the material rank by rank
//! and demands that the backward search ([`classify`], or [`Searcher::search`] for the
//! positions the mirror filter drops) calls a position reachable exactly when the forward
//! closure holds it, that every certificate replays, and, the other way round, that every
//! K-canonical Black-to-move position of the closure has a rank. Everything runs on one
//! thread in a fixed order, so two runs print the same report (timings aside).
//!
//! Positions are stored as exact keys, not hashes: each non-king piece has a *state* (in
//! Black's or White's hand, or on a square with an owner and a promotion flag), the states of
//! the pieces of one kind are sorted (pieces of a kind are interchangeable), and the key
//! concatenates the side to move, the two king squares and these sorted states. That is an
//! injection from the positions of one material into `u128`; for up to seven non-king pieces
//! in Mini Shogi (five in Shogi) it fits in a `u64`, which the set then uses. The closure of
//! all KK positions is symmetric under the mirror and the colour flip, so it keeps one key
//! per orbit: about a quarter of the positions, and a quarter of the moves to generate.

use crate::classify::{classify, Stage};
use crate::heuristic::is_kk;
use crate::search::{SearchConfig, SearchOutcome, Searcher, Verdict};
use core::cmp::Ordering;
use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use shogi_core::{
    Color, Game, Material, MoveList, Piece, PieceKind, Position, Relax, Rules, Setup, Square,
};
use shogi_rank::filters::compare_boards;
use shogi_rank::{material_text, piece_types, MaterialError, RankTable, U256};
use std::time::{Duration, Instant};

/// Why an exhaustive run could not be carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExhaustiveError {
    /// The material is not one of the game (wrong number of kings, too many of a kind).
    Material(MaterialError),
    /// The exact key of a position of this material needs more than 128 bits.
    KeyTooWide {
        /// The bits it would need.
        bits: u32,
    },
    /// `|P_K|` does not fit in a `u64`: far too large to sweep anyway.
    TooManyCandidates,
    /// The forward closure grew past the limit given in [`CrossCheckOptions::max_forward`].
    ForwardLimit {
        /// The limit.
        limit: usize,
    },
}

impl core::fmt::Display for ExhaustiveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ExhaustiveError::Material(e) => write!(f, "{e}"),
            ExhaustiveError::KeyTooWide { bits } => write!(
                f,
                "a position of this material needs a {bits}-bit key; at most 128 are supported"
            ),
            ExhaustiveError::TooManyCandidates => {
                f.write_str("|P_K| of this material does not fit in 64 bits")
            }
            ExhaustiveError::ForwardLimit { limit } => {
                write!(f, "the forward closure has more than {limit} positions")
            }
        }
    }
}

impl std::error::Error for ExhaustiveError {}

impl From<MaterialError> for ExhaustiveError {
    fn from(e: MaterialError) -> Self {
        ExhaustiveError::Material(e)
    }
}

/// The most non-king pieces of any material (all of Shogi's).
const MAX_PIECES: usize = 38;

/// A position of one material taken apart: side to move, king squares, and the state of
/// every other piece (0 and 1: in Black's or White's hand; `2 + 4*square + 2*colour +
/// promoted`: on the board), the pieces of each kind in one sorted segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unpacked {
    white_to_move: bool,
    kings: [u8; 2],
    states: [u16; MAX_PIECES],
}

/// The symmetries of the rules: the mirror (`x -> W-1-x`) and the colour flip (board turned
/// by 180 degrees, colours and hands swapped, the other side to move), and both.
const SYMMETRIES: [(bool, bool); 3] = [(true, false), (false, true), (true, true)];

/// Reads and writes the exact key of a position of one material (see the module docs).
#[derive(Clone, Debug)]
struct Codec<G: Game> {
    material: Material,
    /// The present non-king kinds with their counts, in the order of their segments.
    kinds: Vec<(PieceKind, u8)>,
    /// Number of non-king pieces.
    pieces: usize,
    sq_bits: u32,
    state_bits: u32,
    bits: u32,
    _game: core::marker::PhantomData<G>,
}

/// Bits needed to write every value below `n`.
fn bits_for(n: u32) -> u32 {
    32 - (n.max(2) - 1).leading_zeros()
}

impl<G: Game> Codec<G> {
    fn new(material: &Material) -> Result<Self, ExhaustiveError> {
        // Validates the material the same way the rank table does (two kings, no more of a
        // kind than the game has), so both sides of the check agree on what is allowed.
        let types = piece_types::<G>(material)?;
        let kinds: Vec<(PieceKind, u8)> = types.iter().map(|t| (t.kind, t.count)).collect();
        let pieces: usize = kinds.iter().map(|&(_, n)| usize::from(n)).sum();
        let sq_bits = bits_for(G::SQUARES as u32);
        let state_bits = bits_for(2 + 4 * G::SQUARES as u32);
        let bits = 1 + 2 * sq_bits + pieces as u32 * state_bits;
        if bits > 128 {
            return Err(ExhaustiveError::KeyTooWide { bits });
        }
        Ok(Codec {
            material: *material,
            kinds,
            pieces,
            sq_bits,
            state_bits,
            bits,
            _game: core::marker::PhantomData,
        })
    }

    /// Sorts every kind's segment: pieces of one kind are interchangeable, so sorting makes
    /// the key independent of the order they were found in.
    fn sort_segments(&self, u: &mut Unpacked) {
        let mut at = 0;
        for &(_, n) in &self.kinds {
            let n = usize::from(n);
            u.states[at..at + n].sort_unstable();
            at += n;
        }
    }

    /// `pos` taken apart, or `None` if it does not have exactly this material with one
    /// king a side.
    fn unpack_position(&self, pos: &Position<G>) -> Option<Unpacked> {
        let (b, w) = (
            pos.pieces(Color::Black, PieceKind::King),
            pos.pieces(Color::White, PieceKind::King),
        );
        if b.count() != 1 || w.count() != 1 {
            return None;
        }
        let mut u = Unpacked {
            white_to_move: pos.side_to_move() == Color::White,
            kings: [b.first()?.index() as u8, w.first()?.index() as u8],
            states: [0; MAX_PIECES],
        };
        let mut at = 0;
        let mut on_board = 2;
        let mut in_hand = 0u32;
        for &(kind, count) in &self.kinds {
            let end = at + usize::from(count);
            let mut push = |s: u16| {
                if at < end {
                    u.states[at] = s;
                }
                at += 1;
            };
            for c in Color::ALL {
                let held = pos.hand(c).count(kind);
                in_hand += u32::from(held);
                for _ in 0..held {
                    push(c.index() as u16);
                }
                for (promoted, form) in [Some(kind), kind.promoted()].into_iter().enumerate() {
                    let Some(form) = form else { continue };
                    for sq in pos.pieces(c, form) {
                        on_board += 1;
                        push(2 + 4 * sq.index() as u16 + 2 * c.index() as u16 + promoted as u16);
                    }
                }
            }
            if at != end {
                return None;
            }
        }
        // Anything not accounted for (a kind outside the material) would make the key
        // ambiguous.
        let hand_total = pos.hand(Color::Black).total() + pos.hand(Color::White).total();
        if pos.occupied().count() != on_board || hand_total != in_hand {
            return None;
        }
        self.sort_segments(&mut u);
        Some(u)
    }

    /// The position of an unpacked key.
    fn position(&self, u: &Unpacked) -> Position<G> {
        let mut pos = Setup::<G>::empty();
        let square = |s: usize| Square::from_index(s as u8).expect("keys hold board squares");
        for (c, &k) in Color::ALL.iter().zip(&u.kings) {
            pos.put(square(usize::from(k)), Piece::new(*c, PieceKind::King));
        }
        let mut at = 0;
        for &(kind, count) in &self.kinds {
            let mut held = [0u8; 2];
            for &s in &u.states[at..at + usize::from(count)] {
                let s = usize::from(s);
                if s < 2 {
                    held[s] += 1;
                } else {
                    let (sq, attr) = ((s - 2) / 4, (s - 2) % 4);
                    let form = if attr % 2 == 1 {
                        kind.promoted()
                            .expect("only promotable kinds are stored promoted")
                    } else {
                        kind
                    };
                    let color = if attr < 2 { Color::Black } else { Color::White };
                    pos.put(square(sq), Piece::new(color, form));
                }
            }
            at += usize::from(count);
            for c in Color::ALL {
                pos.set_hand(c, kind, held[c.index()]);
            }
        }
        pos.set_side_to_move(if u.white_to_move {
            Color::White
        } else {
            Color::Black
        });
        // Keys are made from positions of the codec's material only.
        pos.into_position(Relax::CANDIDATE)
            .expect("a key decodes to a position")
    }

    /// The key: side, the two king squares, then every state, least significant first.
    fn pack(&self, u: &Unpacked) -> u128 {
        let mut key = u128::from(u.white_to_move);
        let mut shift = 1;
        for &k in &u.kings {
            key |= u128::from(k) << shift;
            shift += self.sq_bits;
        }
        for &s in &u.states[..self.pieces] {
            key |= u128::from(s) << shift;
            shift += self.state_bits;
        }
        key
    }

    fn unpack(&self, key: u128) -> Unpacked {
        let mut shift = 0;
        let mut read = |width: u32| {
            let v = (key >> shift) & ((1u128 << width) - 1);
            shift += width;
            v
        };
        let white_to_move = read(1) == 1;
        let kings = [read(self.sq_bits) as u8, read(self.sq_bits) as u8];
        let mut states = [0; MAX_PIECES];
        for s in &mut states[..self.pieces] {
            *s = read(self.state_bits) as u16;
        }
        Unpacked {
            white_to_move,
            kings,
            states,
        }
    }

    /// The image of `u` under the mirror and/or the colour flip.
    fn transform(&self, u: &Unpacked, mirror: bool, flip: bool) -> Unpacked {
        let map = |sq: usize| {
            let sq = Square::from_index(sq as u8).expect("keys hold board squares");
            let sq = if mirror { sq.hflip::<G>() } else { sq };
            let sq = if flip { sq.rotate::<G>() } else { sq };
            sq.index()
        };
        let kings = if flip {
            [u.kings[1], u.kings[0]]
        } else {
            u.kings
        };
        let mut t = Unpacked {
            white_to_move: u.white_to_move ^ flip,
            kings: kings.map(|k| map(usize::from(k)) as u8),
            states: u.states,
        };
        for s in &mut t.states[..self.pieces] {
            let v = usize::from(*s);
            *s = if v < 2 {
                (v ^ usize::from(flip)) as u16
            } else {
                let (sq, attr) = ((v - 2) / 4, (v - 2) % 4);
                (2 + 4 * map(sq) + (attr ^ (2 * usize::from(flip)))) as u16
            };
        }
        self.sort_segments(&mut t);
        t
    }

    /// The distinct keys of the orbit of `u` under the symmetries, sorted (the first is the
    /// orbit's representative), and how many there are.
    fn orbit(&self, u: &Unpacked) -> ([u128; 4], usize) {
        let mut keys = [self.pack(u); 4];
        for (i, &(m, f)) in SYMMETRIES.iter().enumerate() {
            keys[i + 1] = self.pack(&self.transform(u, m, f));
        }
        keys.sort_unstable();
        let mut n = 1;
        for i in 1..4 {
            if keys[i] != keys[n - 1] {
                keys[n] = keys[i];
                n += 1;
            }
        }
        (keys, n)
    }

    /// Whether only the kings are on the board.
    fn is_kk(&self, u: &Unpacked) -> bool {
        u.states[..self.pieces].iter().all(|&s| s < 2)
    }
}

/// A deterministic 64-bit mix of a key (no random state: runs must repeat exactly).
#[inline]
fn hash_key(k: u128) -> u64 {
    let mut x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Exact keys in a hash table, stored inline (a probe touches the table only, not a table
/// slot and then a separate key array), in 8 bytes when the material allows.
enum Keys {
    Narrow(HashTable<u64>),
    Wide(HashTable<u128>),
}

impl Keys {
    fn new(bits: u32) -> Self {
        if bits <= 64 {
            Keys::Narrow(HashTable::new())
        } else {
            Keys::Wide(HashTable::new())
        }
    }

    fn contains(&self, key: u128) -> bool {
        match self {
            Keys::Narrow(t) => t.find(hash_key(key), |&k| u128::from(k) == key).is_some(),
            Keys::Wide(t) => t.find(hash_key(key), |&k| k == key).is_some(),
        }
    }

    /// Adds a key; `false` if it was already there.
    fn insert(&mut self, key: u128) -> bool {
        let hash = hash_key(key);
        match self {
            Keys::Narrow(t) => {
                let rehash = |&k: &u64| hash_key(u128::from(k));
                match t.entry(hash, |&k| u128::from(k) == key, rehash) {
                    Entry::Occupied(_) => false,
                    Entry::Vacant(v) => {
                        v.insert(key as u64);
                        true
                    }
                }
            }
            Keys::Wide(t) => match t.entry(hash, |&k| k == key, |&k| hash_key(k)) {
                Entry::Occupied(_) => false,
                Entry::Vacant(v) => {
                    v.insert(key);
                    true
                }
            },
        }
    }

    fn len(&self) -> usize {
        match self {
            Keys::Narrow(t) => t.len(),
            Keys::Wide(t) => t.len(),
        }
    }

    /// Every key, in the table's order (fixed by the insertion sequence, since the hash
    /// has no random state).
    fn iter(&self) -> impl Iterator<Item = u128> + '_ {
        let (narrow, wide) = match self {
            Keys::Narrow(t) => (Some(t.iter().map(|&k| u128::from(k))), None),
            Keys::Wide(t) => (None, Some(t.iter().copied())),
        };
        narrow
            .into_iter()
            .flatten()
            .chain(wide.into_iter().flatten())
    }
}

/// The forward closure of a set of start positions of one material under legal moves,
/// stored by exact key.
///
/// The closure of all KK positions ([`forward_reachable`]) is symmetric under the mirror and
/// the colour flip (the rules are, and so is the set of KK positions), so it is stored one
/// key per orbit (up to four positions): a quarter of the memory and of the moves to
/// generate. A closure from a single position is stored one key per position.
pub struct ReachableSet<G: Game> {
    codec: Codec<G>,
    keys: Keys,
    /// Whether a key stands for its whole orbit.
    orbits: bool,
    /// Positions (orbits expanded).
    positions: u64,
    /// Start positions.
    seeds: u64,
    /// KK positions (only the kings on the board).
    kk: u64,
    /// Number of breadth-first layers after the seeds (the longest shortest path).
    depth: u32,
    rules: Rules,
    /// Expanded positions whose symmetric images had other successors (when verified).
    asymmetric: u64,
    /// The first of them, in SFEN.
    asymmetric_example: Option<String>,
}

impl<G: Game> ReachableSet<G> {
    /// Number of positions (both sides to move, mirror images distinct).
    pub fn len(&self) -> u64 {
        self.positions
    }

    /// Whether the set is empty (never, for a valid material).
    pub fn is_empty(&self) -> bool {
        self.positions == 0
    }

    /// Number of keys stored (one per orbit for a symmetric closure).
    pub fn stored(&self) -> usize {
        self.keys.len()
    }

    fn key_of(&self, pos: &Position<G>) -> Option<u128> {
        let u = self.codec.unpack_position(pos)?;
        Some(if self.orbits {
            self.codec.orbit(&u).0[0]
        } else {
            self.codec.pack(&u)
        })
    }

    /// Whether `pos` is in the closure. Positions of another material never are.
    pub fn contains(&self, pos: &Position<G>) -> bool {
        self.key_of(pos).is_some_and(|k| self.keys.contains(k))
    }

    /// Every position, in a fixed order (the same in every run), each once.
    pub fn iter(&self) -> impl Iterator<Item = Position<G>> + '_ {
        self.keys.iter().flat_map(move |k| {
            let u = self.codec.unpack(k);
            let (keys, n) = if self.orbits {
                self.codec.orbit(&u)
            } else {
                ([k; 4], 1)
            };
            (0..n).map(move |i| self.codec.position(&self.codec.unpack(keys[i])))
        })
    }

    /// The material of every position.
    pub fn material(&self) -> &Material {
        &self.codec.material
    }

    /// The number of start positions.
    pub fn seeds(&self) -> u64 {
        self.seeds
    }

    /// How many positions of the set are KK positions.
    pub fn kk_count(&self) -> u64 {
        self.kk
    }

    /// The number of breadth-first layers after the start positions: every position is at
    /// most this many plies from a start position.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The rules the moves were generated under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The bits of an exact key of this material (at most 64 means 8 bytes a key).
    pub fn key_bits(&self) -> u32 {
        self.codec.bits
    }

    /// With [`ForwardOptions::verify_symmetry`]: how many expanded positions had a
    /// symmetric image whose successors were not the images of its own, and the first such
    /// position. The rules are symmetric, so this must be zero.
    pub fn asymmetric(&self) -> (u64, Option<&str>) {
        (self.asymmetric, self.asymmetric_example.as_deref())
    }
}

/// Every KK position of `material`: both kings on the board at Chebyshev distance at least
/// 2, every other piece in either hand in every split, either side to move. These are exactly
/// the legal positions with only the kings on the board.
pub fn kk_positions<G: Game>(material: &Material) -> Result<Vec<Position<G>>, ExhaustiveError> {
    let kinds: Vec<(PieceKind, u8)> = piece_types::<G>(material)?
        .iter()
        .map(|t| (t.kind, t.count))
        .collect();
    let splits: usize = kinds.iter().map(|&(_, n)| usize::from(n) + 1).product();
    let mut out = Vec::new();
    for bk in 0..G::SQUARES as u8 {
        for wk in 0..G::SQUARES as u8 {
            let square = |s: u8| Square::from_index_in::<G>(s).expect("s < SQUARES");
            let (b, w) = (square(bk), square(wk));
            let dx = b.x::<G>().abs_diff(w.x::<G>());
            let dy = b.y::<G>().abs_diff(w.y::<G>());
            if dx.max(dy) < 2 {
                continue;
            }
            for split in 0..splits {
                let mut pos = Setup::<G>::empty();
                pos.put(b, Piece::new(Color::Black, PieceKind::King));
                pos.put(w, Piece::new(Color::White, PieceKind::King));
                // `split` as a mixed-radix number: Black's count of each kind.
                let mut rest = split;
                for &(kind, n) in &kinds {
                    let radix = usize::from(n) + 1;
                    let black = (rest % radix) as u8;
                    rest /= radix;
                    pos.set_hand(Color::Black, kind, black);
                    pos.set_hand(Color::White, kind, n - black);
                }
                for side in Color::ALL {
                    pos.set_side_to_move(side);
                    // Two kings two squares apart and a material checked above: legal.
                    let kk = pos.clone().into_position(Relax::empty());
                    out.push(kk.expect("a KK position is legal"));
                }
            }
        }
    }
    Ok(out)
}

/// How to run [`forward_reachable_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ForwardOptions {
    /// The rules to generate moves under.
    pub rules: Rules,
    /// Give up with [`ExhaustiveError::ForwardLimit`] once more than this many keys are
    /// stored (a memory bound: 8 or 16 bytes a key, plus the table's slack).
    pub limit: Option<usize>,
    /// Also generate the moves of the symmetric images of every expanded position and check
    /// that their successors are the images of its own (four times the work).
    pub verify_symmetry: bool,
}

/// The forward closure of the KK positions of `material` under the usual rules.
pub fn forward_reachable<G: Game>(material: &Material) -> Result<ReachableSet<G>, ExhaustiveError> {
    forward_reachable_with(material, &ForwardOptions::default())
}

/// The forward closure of the KK positions of `material`, with options.
pub fn forward_reachable_with<G: Game>(
    material: &Material,
    options: &ForwardOptions,
) -> Result<ReachableSet<G>, ExhaustiveError> {
    let codec = Codec::<G>::new(material)?;
    let seeds = kk_positions::<G>(material)?;
    closure(codec, &seeds, options, true)
}

/// The canonical keys of the successors of `pos`, sorted.
fn successor_keys<G: Game>(
    codec: &Codec<G>,
    pos: &Position<G>,
    rules: Rules,
    moves: &mut MoveList,
) -> Vec<u128> {
    moves.clear();
    pos.legal_moves_with(rules, moves);
    let mut keys: Vec<u128> = moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let u = codec
                .unpack_position(&child)
                .expect("moves keep the material and the kings");
            codec.orbit(&u).0[0]
        })
        .collect();
    keys.sort_unstable();
    keys
}

/// Breadth-first closure of `seeds` under legal moves, layer by layer (only the current and
/// the next layer are kept besides the set). With `orbits`, the seeds must form a union of
/// orbits, and one key stands for each orbit.
fn closure<G: Game>(
    codec: Codec<G>,
    seeds: &[Position<G>],
    options: &ForwardOptions,
    orbits: bool,
) -> Result<ReachableSet<G>, ExhaustiveError> {
    let rules = options.rules;
    let mut set = ReachableSet {
        keys: Keys::new(codec.bits),
        codec,
        orbits,
        positions: 0,
        seeds: 0,
        kk: 0,
        depth: 0,
        rules,
        asymmetric: 0,
        asymmetric_example: None,
    };
    // Adds the position (its orbit) unless present; the key to expand if it was new.
    let add = |set: &mut ReachableSet<G>, u: &Unpacked| -> Result<Option<u128>, ExhaustiveError> {
        let (key, n) = if set.orbits {
            let (keys, n) = set.codec.orbit(u);
            (keys[0], n)
        } else {
            (set.codec.pack(u), 1)
        };
        if !set.keys.insert(key) {
            return Ok(None);
        }
        set.positions += n as u64;
        if set.codec.is_kk(u) {
            set.kk += n as u64;
        }
        match options.limit {
            Some(limit) if set.keys.len() > limit => Err(ExhaustiveError::ForwardLimit { limit }),
            _ => Ok(Some(key)),
        }
    };
    let mut layer = Vec::new();
    for p in seeds {
        let u = set
            .codec
            .unpack_position(p)
            .expect("a seed has the set's material");
        layer.extend(add(&mut set, &u)?);
    }
    set.seeds = set.positions;
    let mut next = Vec::new();
    let mut moves = MoveList::new();
    while !layer.is_empty() {
        for &key in &layer {
            let u = set.codec.unpack(key);
            let pos = set.codec.position(&u);
            moves.clear();
            pos.legal_moves_with(rules, &mut moves);
            for &mv in &moves {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let cu = set
                    .codec
                    .unpack_position(&child)
                    .expect("moves keep the material and the kings");
                next.extend(add(&mut set, &cu)?);
            }
            if orbits && options.verify_symmetry {
                let own = successor_keys(&set.codec, &pos, rules, &mut moves);
                for (m, f) in SYMMETRIES {
                    let image = set.codec.position(&set.codec.transform(&u, m, f));
                    if successor_keys(&set.codec, &image, rules, &mut moves) != own {
                        set.asymmetric += 1;
                        if set.asymmetric_example.is_none() {
                            set.asymmetric_example = Some(pos.to_sfen());
                        }
                        break;
                    }
                }
            }
        }
        if !next.is_empty() {
            set.depth += 1;
        }
        core::mem::swap(&mut layer, &mut next);
        next.clear();
    }
    Ok(set)
}

/// Whether the KK positions of a material are mutually reachable (SPEC §7), as checked by
/// [`kk_connectivity`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KkConnectivity {
    /// The KK position everything is compared with: both kings on the centre file, the
    /// hands as even as the counts allow, Black to move.
    pub hub: String,
    /// The number of KK positions of the material.
    pub kk_positions: u64,
    /// KK positions in the orbits reached forwards from the hub's orbit.
    pub reached: u64,
    /// KK positions in the orbits that reach the hub's orbit (backward search).
    pub reaching: u64,
    /// Whether the hub reaches each of its images under the mirror and the colour flip.
    pub images_reached: bool,
    /// The size of the forward closure of the hub's orbit (positions, orbits expanded).
    pub closure: u64,
    /// Predecessors from `shogi-retro` that had no legal move to their successor (must be
    /// zero; such edges are not used).
    pub unsound_predecessors: u64,
}

impl KkConnectivity {
    /// Whether every KK position reaches the hub and the hub reaches every KK position: then
    /// any KK position reaches any other through the hub.
    pub fn connected(&self) -> bool {
        self.reached == self.kk_positions
            && self.reaching == self.kk_positions
            && self.images_reached
    }
}

/// The hub of [`kk_connectivity`]: kings on the centre file, on the first and last ranks
/// (so the mirror fixes the board), Black holding half of each kind (rounded down).
fn hub<G: Game>(codec: &Codec<G>) -> Position<G> {
    let mut pos = Setup::<G>::empty();
    let x = G::WIDTH / 2;
    for (y, color) in [(G::HEIGHT - 1, Color::Black), (0, Color::White)] {
        let sq = Square::new::<G>(x, y).expect("on the board");
        pos.put(sq, Piece::new(color, PieceKind::King));
    }
    for &(kind, n) in &codec.kinds {
        pos.set_hand(Color::Black, kind, n / 2);
        pos.set_hand(Color::White, kind, n - n / 2);
    }
    pos.into_position(Relax::empty())
        .expect("kings on opposite edges and the codec's material are a legal position")
}

/// Re-checks SPEC §7 for any game and material: the KK positions of `set`'s material are
/// mutually reachable. `set` must be the forward closure of all of them
/// ([`forward_reachable_with`]); `limit` bounds the keys each of the searches below stores.
///
/// Everything runs on orbits under the mirror and the colour flip (a quarter of the work),
/// which needs one more fact to lift back to positions. With `hub` a fixed KK position and
/// `[p]` the orbit of `p`, it checks:
///
/// 1. forwards from `[hub]`, every KK orbit is reached;
/// 2. backwards from `[hub]` (through the predecessors of `shogi-retro`, kept inside `set`,
///    since a path from a KK position stays in its closure; an edge is used only after
///    checking that the forward move is legal, so a wrong predecessor cannot make the
///    answer look better than it is), every KK orbit is reached;
/// 3. forwards from `hub` alone, each of its images `σ(hub)` is reached.
///
/// A path between orbits lifts to a path between positions: if `a` moves to `b`, then
/// `σ(a)` moves to `σ(b)`. So by 1, for a KK position `q` the hub reaches some `σ(q)`; then
/// `σ(hub)` reaches `q` (the symmetries are involutions), and the hub reaches `σ(hub)` by 3.
/// By 2, `q` reaches some `σ(hub)`, which reaches `σ(σ(hub)) = hub` by 3. So every KK
/// position reaches the hub and the hub reaches every KK position.
pub fn kk_connectivity<G: Game>(
    set: &ReachableSet<G>,
    limit: Option<usize>,
) -> Result<KkConnectivity, ExhaustiveError> {
    let codec = set.codec.clone();
    let rules = set.rules;
    let all = kk_positions::<G>(&codec.material)?.len() as u64;
    let hub = hub(&codec);
    let hub_u = codec
        .unpack_position(&hub)
        .expect("the hub has the material");
    let (images, n_images) = codec.orbit(&hub_u);
    let images = &images[..n_images];
    let seeds: Vec<Position<G>> = images
        .iter()
        .map(|&k| codec.position(&codec.unpack(k)))
        .collect();
    let options = ForwardOptions {
        rules,
        limit,
        verify_symmetry: false,
    };

    // 1. Forwards, on orbits.
    let forward = closure(codec.clone(), &seeds, &options, true)?;

    // 2. Backwards, on orbits: a stack of representatives (depth-first order is as good as
    // any for a reachability question).
    let mut seen = Keys::new(codec.bits);
    seen.insert(images[0]);
    let (mut reaching, mut unsound) = (n_images as u64, 0u64);
    let mut stack = vec![images[0]];
    while let Some(key) = stack.pop() {
        let pos = codec.position(&codec.unpack(key));
        for (u, pred) in shogi_retro::predecessors(&pos, rules) {
            let Some(pu) = codec.unpack_position(&pred) else {
                unsound += 1;
                continue;
            };
            let (keys, n) = codec.orbit(&pu);
            if seen.contains(keys[0]) || !set.keys.contains(keys[0]) {
                continue;
            }
            let mv = u.forward();
            let mut after = pred.clone();
            if !pred.is_legal_with(rules, mv) || {
                after.play_unchecked(mv);
                after != pos
            } {
                unsound += 1;
                continue;
            }
            seen.insert(keys[0]);
            if codec.is_kk(&pu) {
                reaching += n as u64;
            }
            if limit.is_some_and(|l| seen.len() > l) {
                return Err(ExhaustiveError::ForwardLimit {
                    limit: limit.unwrap_or(0),
                });
            }
            stack.push(keys[0]);
        }
    }

    // 3. Forwards from the hub alone, until its images are found.
    let mut plain = Keys::new(codec.bits);
    let mut missing: Vec<u128> = images
        .iter()
        .copied()
        .filter(|&k| k != codec.pack(&hub_u))
        .collect();
    let mut layer = vec![codec.pack(&hub_u)];
    let mut next = Vec::new();
    let mut moves = MoveList::new();
    plain.insert(layer[0]);
    while !missing.is_empty() && !layer.is_empty() {
        for &key in &layer {
            let pos = codec.position(&codec.unpack(key));
            moves.clear();
            pos.legal_moves_with(rules, &mut moves);
            for &mv in &moves {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let cu = codec
                    .unpack_position(&child)
                    .expect("moves keep the material and the kings");
                let ck = codec.pack(&cu);
                if plain.insert(ck) {
                    missing.retain(|&k| k != ck);
                    next.push(ck);
                    if limit.is_some_and(|l| plain.len() > l) {
                        return Err(ExhaustiveError::ForwardLimit {
                            limit: limit.unwrap_or(0),
                        });
                    }
                }
            }
        }
        core::mem::swap(&mut layer, &mut next);
        next.clear();
    }

    Ok(KkConnectivity {
        hub: hub.to_sfen(),
        kk_positions: all,
        reached: forward.kk_count(),
        reaching,
        images_reached: missing.is_empty(),
        closure: forward.len(),
        unsound_predecessors: unsound,
    })
}

/// What went wrong in one position of a cross-check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MismatchKind {
    /// The search says reachable but the forward closure does not hold the position.
    SearchReachableNotForward,
    /// The search says unreachable but the forward closure holds the position.
    SearchUnreachableButForward,
    /// A filter dropped the position (placement or check) but it is reachable.
    FilteredButForward,
    /// The search hit a limit (no verdict); with the default configuration it never should.
    Unknown,
    /// A certificate does not start at a legal KK position of the material, has an illegal
    /// move, or does not end at the position.
    BadCertificate,
    /// A K-canonical Black-to-move position of the forward closure has no rank, or its rank
    /// unranks to another position.
    ForwardNotRanked,
    /// A position's symmetric image (mirror, colour flip) has successors that are not the
    /// images of its own (with [`CrossCheckOptions::verify_symmetry`]).
    ForwardAsymmetric,
    /// Two counts that must agree do not (detail in the message).
    CountMismatch,
    /// The KK positions are not mutually reachable for this material, or a predecessor
    /// used by the check had no legal move to its successor.
    KkNotConnected,
}

/// One failed check, with the position in SFEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// What failed.
    pub kind: MismatchKind,
    /// The rank of the position in `P_K`, when it came from the rank sweep.
    pub rank: Option<u64>,
    /// The position (empty for count mismatches).
    pub sfen: String,
    /// Details.
    pub detail: String,
}

impl core::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?}", self.kind)?;
        if let Some(r) = self.rank {
            write!(f, " rank {r}")?;
        }
        if !self.sfen.is_empty() {
            write!(f, " `{}`", self.sfen)?;
        }
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

/// How to run [`cross_check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrossCheckOptions {
    /// The search configuration; its rules also drive the forward closure.
    pub search: SearchConfig,
    /// Also check that the KK positions are mutually reachable ([`kk_connectivity`]: a
    /// forward and a backward search from one KK position, each about four times the work
    /// of the symmetric forward closure).
    pub kk_connectivity: bool,
    /// Check that the rules are symmetric while building the forward closure (see
    /// [`ForwardOptions::verify_symmetry`]; four times the work of the closure).
    pub verify_symmetry: bool,
    /// Most mismatches kept as examples (all are counted).
    pub max_examples: usize,
    /// Give up if the forward closure grows past this many positions (a memory bound).
    pub max_forward: Option<usize>,
}

impl Default for CrossCheckOptions {
    fn default() -> Self {
        CrossCheckOptions {
            search: SearchConfig::default(),
            kk_connectivity: true,
            verify_symmetry: true,
            max_examples: 10,
            max_forward: None,
        }
    }
}

/// The result of [`cross_check`] for one game and material.
#[derive(Clone, Debug)]
pub struct CrossCheckReport {
    /// The game's name (`shogi`, `mini`).
    pub game: &'static str,
    /// The material.
    pub material: Material,
    /// The rules both searches ran under.
    pub rules: Rules,
    /// `|P_K|`: every rank was checked.
    pub candidates: u64,
    /// Positions in the forward closure (both sides to move, mirror images distinct).
    pub forward: u64,
    /// Keys the forward closure stored (one per orbit under the mirror and colour flip).
    pub forward_stored: u64,
    /// KK positions of the material (the seeds of the forward closure).
    pub kk_positions: u64,
    /// Breadth-first depth of the forward closure.
    pub forward_depth: u32,
    /// Forward positions that are Black to move with K-canonical kings: they must be
    /// exactly the ranks found in the closure.
    pub forward_k_canonical: u64,
    /// Forward positions that are canonical (Black to move, `p <= Hflip(p)`): they must be
    /// exactly the ranks `classify` calls reachable.
    pub forward_canonical: u64,
    /// Ranks whose position is in the forward closure.
    pub ranks_in_forward: u64,
    /// The number of ranks stopping at each stage of [`classify`], indexed like
    /// [`Stage::ALL`].
    pub stages: [u64; 6],
    /// Ranks the search (through `classify`, or directly for the mirror-dropped ones) calls
    /// reachable.
    pub reachable: u64,
    /// Ranks the search calls unreachable, or that a filter dropped without a mirror
    /// image being the reason.
    pub unreachable: u64,
    /// Ranks where a search limit stopped the search.
    pub unknown: u64,
    /// Certificates replayed (one per reachable rank).
    pub certificates: u64,
    /// Nodes expanded by all searches together.
    pub expanded: u64,
    /// Largest number of nodes a single search expanded.
    pub max_expanded: u64,
    /// For the ranks `classify` proves unreachable: how many traced back at most `d` plies
    /// (index `d`), the paper's Table 2.
    pub unreachable_depths: Vec<u64>,
    /// The KK connectivity check, when asked for.
    pub kk: Option<KkConnectivity>,
    /// Every failed check is counted here ...
    pub mismatch_count: u64,
    /// ... and the first few are kept.
    pub mismatches: Vec<Mismatch>,
    /// Time spent in the forward closure (and the KK connectivity check).
    pub forward_time: Duration,
    /// Time spent in the rank sweep and the reverse check.
    pub check_time: Duration,
}

impl CrossCheckReport {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.mismatch_count == 0
    }

    /// The number of ranks that stopped at `stage`.
    pub fn stage(&self, stage: Stage) -> u64 {
        let i = Stage::ALL
            .iter()
            .position(|&s| s == stage)
            .expect("every stage is listed");
        self.stages[i]
    }

    fn record(&mut self, max: usize, m: Mismatch) {
        self.mismatch_count += 1;
        if self.mismatches.len() < max {
            self.mismatches.push(m);
        }
    }
}

impl core::fmt::Display for CrossCheckReport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(
            f,
            "{} {} ({:?}): |P_K| {}, forward {} ({} KK, depth {}, {} keys), reachable {}, unreachable {}, unknown {}",
            self.game,
            material_text(&self.material),
            self.rules.pawn_drop,
            self.candidates,
            self.forward,
            self.kk_positions,
            self.forward_depth,
            self.forward_stored,
            self.reachable,
            self.unreachable,
            self.unknown,
        )?;
        let stages: Vec<String> = Stage::ALL
            .iter()
            .zip(self.stages)
            .map(|(s, n)| format!("{s} {n}"))
            .collect();
        writeln!(f, "  stages: {}", stages.join(", "))?;
        writeln!(
            f,
            "  forward: K-canonical {}, canonical {}; ranks in forward {}; certificates {}; expanded {} (max {})",
            self.forward_k_canonical,
            self.forward_canonical,
            self.ranks_in_forward,
            self.certificates,
            self.expanded,
            self.max_expanded,
        )?;
        if let Some(kk) = &self.kk {
            writeln!(
                f,
                "  KK connectivity: of {} KK positions, {} reached from `{}`'s orbit and {} \
                 reaching it, its images reached: {} (closure {}, unsound predecessors {})",
                kk.kk_positions,
                kk.reached,
                kk.hub,
                kk.reaching,
                kk.images_reached,
                kk.closure,
                kk.unsound_predecessors
            )?;
        }
        write!(
            f,
            "  time: forward {:.2} s, check {:.2} s; mismatches {}",
            self.forward_time.as_secs_f64(),
            self.check_time.as_secs_f64(),
            self.mismatch_count
        )?;
        for m in &self.mismatches {
            write!(f, "\n  {m}")?;
        }
        Ok(())
    }
}

/// Whether the king placement is K-canonical (SPEC §3): `κ(p) <= κ(Hflip(p))`, compared by
/// square index.
fn kings_k_canonical<G: Game>(pos: &Position<G>) -> bool {
    match (pos.king(Color::Black), pos.king(Color::White)) {
        (Some(b), Some(w)) => (b, w) <= (b.hflip::<G>(), w.hflip::<G>()),
        _ => false,
    }
}

/// Checks a certificate: a legal KK position of the material that is in the closure, legal
/// moves, and the target at the end. `None` when it is sound.
fn certificate_fault<G: Game>(
    set: &ReachableSet<G>,
    outcome: &SearchOutcome<G>,
    target: &Position<G>,
) -> Option<String> {
    let Some(cert) = &outcome.certificate else {
        return Some("no certificate for a reachable verdict".into());
    };
    if !is_kk(&cert.kk) || !cert.kk.validate().is_empty() {
        return Some(format!("start `{}` is not a legal KK position", cert.kk));
    }
    if !set.contains(&cert.kk) {
        return Some(format!(
            "start `{}` is not a KK position of the material",
            cert.kk
        ));
    }
    match cert.replay() {
        Err(e) => Some(format!("illegal move {e} from `{}`", cert.kk)),
        Ok(end) if end != *target => Some(format!("the moves from `{}` end at `{end}`", cert.kk)),
        Ok(_) => None,
    }
}

/// The exhaustive cross-check of SPEC §9 for one material of game `G`; see the module docs.
///
/// Every rank of `P_K` is unranked and classified: a position the mirror filter drops is
/// searched directly (the search does not care about canonicity), so every candidate gets a
/// verdict that is compared with the forward closure.
pub fn cross_check<G: Game>(
    material: &Material,
    options: &CrossCheckOptions,
) -> Result<CrossCheckReport, ExhaustiveError> {
    let start = Instant::now();
    let rules = options.search.rules;
    let table = RankTable::<G>::new(material)?;
    let candidates = table
        .count_u256()
        .to_u128()
        .and_then(|n| u64::try_from(n).ok())
        .ok_or(ExhaustiveError::TooManyCandidates)?;
    let forward_options = ForwardOptions {
        rules,
        limit: options.max_forward,
        verify_symmetry: options.verify_symmetry,
    };
    let set = forward_reachable_with::<G>(material, &forward_options)?;
    let kk = if options.kk_connectivity {
        Some(kk_connectivity::<G>(&set, options.max_forward)?)
    } else {
        None
    };
    let forward_time = start.elapsed();
    let start = Instant::now();
    let max = options.max_examples;
    let mut report = CrossCheckReport {
        game: G::NAME,
        material: *material,
        rules,
        candidates,
        forward: set.len(),
        forward_stored: set.stored() as u64,
        kk_positions: set.seeds(),
        forward_depth: set.depth(),
        forward_k_canonical: 0,
        forward_canonical: 0,
        ranks_in_forward: 0,
        stages: [0; 6],
        reachable: 0,
        unreachable: 0,
        unknown: 0,
        certificates: 0,
        expanded: 0,
        max_expanded: 0,
        unreachable_depths: Vec::new(),
        kk: kk.clone(),
        mismatch_count: 0,
        mismatches: Vec::new(),
        forward_time,
        check_time: Duration::ZERO,
    };
    if let Some(kk) = kk {
        if !kk.connected() || kk.closure != set.len() || kk.unsound_predecessors > 0 {
            report.record(
                max,
                Mismatch {
                    kind: MismatchKind::KkNotConnected,
                    rank: None,
                    sfen: kk.hub.clone(),
                    detail: format!(
                        "of {} KK positions the hub's orbit reaches {} and {} reach it; its \
                         images reached: {}; its closure has {} of {} positions; {} unsound \
                         predecessors",
                        kk.kk_positions,
                        kk.reached,
                        kk.reaching,
                        kk.images_reached,
                        kk.closure,
                        set.len(),
                        kk.unsound_predecessors
                    ),
                },
            );
        }
    }
    let (asymmetric, example) = set.asymmetric();
    if asymmetric > 0 {
        report.mismatch_count += asymmetric - 1;
        report.record(
            max,
            Mismatch {
                kind: MismatchKind::ForwardAsymmetric,
                rank: None,
                sfen: example.unwrap_or_default().to_string(),
                detail: format!("{asymmetric} positions in all"),
            },
        );
    }

    // The forward side against the ranking: every K-canonical Black-to-move position of the
    // closure has a rank that unranks back to it.
    for pos in set.iter() {
        if pos.side_to_move() != Color::Black {
            continue;
        }
        if compare_boards(&pos, &pos.hflip()) != Ordering::Greater {
            report.forward_canonical += 1;
        }
        if !kings_k_canonical(&pos) {
            continue;
        }
        report.forward_k_canonical += 1;
        let back = table
            .rank_u256(&pos)
            .map_err(|e| e.to_string())
            .and_then(|r| table.unrank_u256(r).map_err(|e| e.to_string()));
        match back {
            Ok(p) if p == pos => {}
            Ok(p) => report.record(
                max,
                Mismatch {
                    kind: MismatchKind::ForwardNotRanked,
                    rank: None,
                    sfen: pos.to_sfen(),
                    detail: format!("its rank unranks to `{p}`"),
                },
            ),
            Err(e) => report.record(
                max,
                Mismatch {
                    kind: MismatchKind::ForwardNotRanked,
                    rank: None,
                    sfen: pos.to_sfen(),
                    detail: e,
                },
            ),
        }
    }

    // The rank sweep: every candidate, in rank order.
    let mut searcher = Searcher::<G>::new(options.search);
    for r in 0..candidates {
        let pos = table
            .unrank_u256(U256::from(r))
            .expect("every rank below |P_K| unranks");
        let in_forward = set.contains(&pos);
        report.ranks_in_forward += u64::from(in_forward);
        let class = classify(&mut searcher, &pos).expect("unranked positions have one king a side");
        let si = Stage::ALL
            .iter()
            .position(|&s| s == class.stage)
            .expect("every stage is listed");
        report.stages[si] += 1;
        let outcome = match (class.stage, class.search) {
            (_, Some(outcome)) => outcome,
            // A position the mirror filter drops is still a position: search it directly.
            (Stage::NonCanonical, None) => searcher.search(&pos),
            (stage, None) => {
                report.unreachable += 1;
                if in_forward {
                    report.record(
                        max,
                        Mismatch {
                            kind: MismatchKind::FilteredButForward,
                            rank: Some(r),
                            sfen: pos.to_sfen(),
                            detail: format!("dropped at stage {stage}"),
                        },
                    );
                }
                continue;
            }
        };
        report.expanded += outcome.stats.expanded;
        report.max_expanded = report.max_expanded.max(outcome.stats.expanded);
        let mismatch = |kind, detail: String| Mismatch {
            kind,
            rank: Some(r),
            sfen: pos.to_sfen(),
            detail,
        };
        match outcome.verdict {
            Verdict::Reachable => {
                report.reachable += 1;
                report.certificates += 1;
                if !in_forward {
                    let m = mismatch(
                        MismatchKind::SearchReachableNotForward,
                        format!("stage {}", class.stage),
                    );
                    report.record(max, m);
                }
                if let Some(fault) = certificate_fault(&set, &outcome, &pos) {
                    report.record(max, mismatch(MismatchKind::BadCertificate, fault));
                }
            }
            Verdict::Unreachable => {
                report.unreachable += 1;
                if class.stage == Stage::Unreachable {
                    let d = outcome.stats.max_depth as usize;
                    if report.unreachable_depths.len() <= d {
                        report.unreachable_depths.resize(d + 1, 0);
                    }
                    report.unreachable_depths[d] += 1;
                }
                if in_forward {
                    let m = mismatch(
                        MismatchKind::SearchUnreachableButForward,
                        format!(
                            "stage {}, {} nodes expanded",
                            class.stage, outcome.stats.expanded
                        ),
                    );
                    report.record(max, m);
                }
            }
            Verdict::Unknown => {
                report.unknown += 1;
                let m = mismatch(
                    MismatchKind::Unknown,
                    format!(
                        "{} nodes expanded; in the forward closure: {in_forward}",
                        outcome.stats.expanded
                    ),
                );
                report.record(max, m);
            }
        }
    }

    // The counts tie the two directions together: the ranks in the closure are exactly
    // its K-canonical Black-to-move positions (ranking is a bijection, and each of those
    // was ranked above), and `classify` finds exactly its canonical ones reachable.
    let counts = [
        (
            "ranks in the forward closure",
            report.ranks_in_forward,
            "K-canonical Black-to-move forward positions",
            report.forward_k_canonical,
        ),
        (
            "ranks the search finds reachable",
            report.reachable,
            "ranks in the forward closure",
            report.ranks_in_forward,
        ),
        (
            "ranks classified reachable",
            report.stage(Stage::Reachable),
            "canonical Black-to-move forward positions",
            report.forward_canonical,
        ),
    ];
    for (a, x, b, y) in counts {
        if x != y {
            report.record(
                max,
                Mismatch {
                    kind: MismatchKind::CountMismatch,
                    rank: None,
                    sfen: String::new(),
                    detail: format!("{a}: {x}, {b}: {y}"),
                },
            );
        }
    }
    report.check_time = start.elapsed();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::MiniShogi;
    use shogi_rank::material_from_spec;

    #[test]
    fn keys_round_trip_and_are_exact() {
        // Kings, a gold, two pawns, a silver: a bit of every kind of state.
        let m = material_from_spec([2, 1, 0, 0, 2, 1, 0, 0]);
        let codec = Codec::<MiniShogi>::new(&m).unwrap();
        assert!(codec.bits <= 64);
        let table = RankTable::<MiniShogi>::new(&m).unwrap();
        let n = table.count_u256().to_u128().unwrap() as u64;
        let mut keys = std::collections::HashSet::new();
        // About 3000 ranks spread over the whole space.
        for r in (0..n).step_by((n / 3000) as usize | 1) {
            let unranked = table.unrank_u256(U256::from(r)).unwrap();
            for side in Color::ALL {
                let mut p = Setup::from(unranked.clone());
                p.set_side_to_move(side);
                let p = p.into_position(Relax::CANDIDATE).unwrap();
                let u = codec.unpack_position(&p).unwrap();
                let k = codec.pack(&u);
                assert_eq!(codec.unpack(k), u);
                assert_eq!(codec.position(&u), p);
                assert!(keys.insert(k), "two positions share a key");
                // The images computed on keys are the images of the positions.
                let images = [(true, false, p.hflip()), (false, true, p.flip_colors())];
                for (m, f, image) in images {
                    let t = codec.transform(&u, m, f);
                    assert_eq!(codec.position(&t), image);
                    assert_eq!(Some(t), codec.unpack_position(&image));
                }
            }
        }
        // Another material is refused, not mis-keyed.
        let other = Position::<MiniShogi>::from_sfen("4k/5/5/5/K4 b G 1").unwrap();
        assert_eq!(codec.unpack_position(&other), None);
    }

    #[test]
    fn kk_count_of_full_mini_shogi() {
        // SPEC §7: 221,616 KK positions in Mini Shogi.
        let kk = kk_positions::<MiniShogi>(&MiniShogi::MATERIAL).unwrap();
        assert_eq!(kk.len(), 221_616);
        assert!(kk.iter().all(|p| p.is_valid() && is_kk(p)));
    }
}
