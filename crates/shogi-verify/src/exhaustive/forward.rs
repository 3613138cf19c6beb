//! The forward closure: every position reachable by legal moves from the KK positions of a
//! material, stored one key per orbit.

use super::codec::{Codec, Unpacked, SYMMETRIES};
use super::keys::Keys;
use super::ExhaustiveError;
use shogi_core::{
    Color, Game, Material, MoveList, Piece, PieceKind, Position, Relax, Rules, Setup, Square,
};
use shogi_rank::piece_types;

/// The forward closure of a set of start positions of one material under legal moves,
/// stored by exact key.
///
/// The closure of all KK positions ([`forward_reachable`]) is symmetric under the mirror and
/// the colour flip (the rules are, and so is the set of KK positions), so it is stored one
/// key per orbit (up to four positions): a quarter of the memory and of the moves to
/// generate. A closure from a single position is stored one key per position.
pub struct ReachableSet<G: Game> {
    pub(crate) codec: Codec<G>,
    pub(crate) keys: Keys,
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
    pub(crate) rules: Rules,
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
    let mut keys: Vec<u128> = codec
        .successors(pos, rules, moves)
        .map(|u| codec.orbit(&u).0[0])
        .collect();
    keys.sort_unstable();
    keys
}

/// Breadth-first closure of `seeds` under legal moves, layer by layer (only the current and
/// the next layer are kept besides the set). With `orbits`, the seeds must form a union of
/// orbits, and one key stands for each orbit.
pub(crate) fn closure<G: Game>(
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
    // A copy of the codec, so that adding to the set can borrow the set mutably.
    let codec = set.codec.clone();
    let mut next = Vec::new();
    let mut moves = MoveList::new();
    while !layer.is_empty() {
        for &key in &layer {
            let u = set.codec.unpack(key);
            let pos = set.codec.position(&u);
            for cu in codec.successors(&pos, rules, &mut moves) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::MiniShogi;
    use shogi_reach::is_kk;

    #[test]
    fn kk_count_of_full_mini_shogi() {
        // docs/METHOD.md §7: 221,616 KK positions in Mini Shogi.
        let kk = kk_positions::<MiniShogi>(&MiniShogi::MATERIAL).unwrap();
        assert_eq!(kk.len(), 221_616);
        assert!(kk.iter().all(|p| p.is_valid() && is_kk(p)));
    }
}
