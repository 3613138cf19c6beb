//! The exact key of a position of one material (see the module docs of
//! [`crate::exhaustive`]), and its images under the mirror and the colour flip.

use super::ExhaustiveError;
use shogi_core::{
    Color, Game, Material, MoveList, Piece, PieceKind, Position, Relax, Rules, Setup, Square,
};
use shogi_rank::piece_types;

/// The most non-king pieces of any material (all of Shogi's).
const MAX_PIECES: usize = 38;

/// A position of one material taken apart: side to move, king squares, and the state of
/// every other piece (0 and 1: in Black's or White's hand; `2 + 4*square + 2*colour +
/// promoted`: on the board), the pieces of each kind in one sorted segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unpacked {
    pub(crate) white_to_move: bool,
    pub(crate) kings: [u8; 2],
    pub(crate) states: [u16; MAX_PIECES],
}

/// The symmetries of the rules: the mirror (`x -> W-1-x`) and the colour flip (board turned
/// by 180 degrees, colours and hands swapped, the other side to move), and both.
pub(crate) const SYMMETRIES: [(bool, bool); 3] = [(true, false), (false, true), (true, true)];

/// Reads and writes the exact key of a position of one material (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Codec<G: Game> {
    pub(crate) material: Material,
    /// The present non-king kinds with their counts, in the order of their segments.
    pub(crate) kinds: Vec<(PieceKind, u8)>,
    /// Number of non-king pieces.
    pub(crate) pieces: usize,
    pub(crate) sq_bits: u32,
    pub(crate) state_bits: u32,
    pub(crate) bits: u32,
    _game: core::marker::PhantomData<G>,
}

/// Bits needed to write every value below `n`.
fn bits_for(n: u32) -> u32 {
    32 - (n.max(2) - 1).leading_zeros()
}

impl<G: Game> Codec<G> {
    pub(crate) fn new(material: &Material) -> Result<Self, ExhaustiveError> {
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
    pub(crate) fn sort_segments(&self, u: &mut Unpacked) {
        let mut at = 0;
        for &(_, n) in &self.kinds {
            let n = usize::from(n);
            u.states[at..at + n].sort_unstable();
            at += n;
        }
    }

    /// `pos` taken apart, or `None` if it does not have exactly this material with one
    /// king a side.
    pub(crate) fn unpack_position(&self, pos: &Position<G>) -> Option<Unpacked> {
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
    pub(crate) fn position(&self, u: &Unpacked) -> Position<G> {
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
    pub(crate) fn pack(&self, u: &Unpacked) -> u128 {
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

    pub(crate) fn unpack(&self, key: u128) -> Unpacked {
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
    pub(crate) fn transform(&self, u: &Unpacked, mirror: bool, flip: bool) -> Unpacked {
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
    pub(crate) fn orbit(&self, u: &Unpacked) -> ([u128; 4], usize) {
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

    /// The successors of `pos` (of this material), taken apart, after each of its legal
    /// moves under `rules` in the generator's order; `moves` is scratch space.
    pub(crate) fn successors<'a>(
        &'a self,
        pos: &'a Position<G>,
        rules: Rules,
        moves: &'a mut MoveList,
    ) -> impl Iterator<Item = Unpacked> + 'a {
        moves.clear();
        pos.legal_moves_with(rules, moves);
        moves.iter().map(move |&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            self.unpack_position(&child)
                .expect("moves keep the material and the kings")
        })
    }

    /// Whether only the kings are on the board.
    pub(crate) fn is_kk(&self, u: &Unpacked) -> bool {
        u.states[..self.pieces].iter().all(|&s| s < 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::MiniShogi;
    use shogi_rank::{material_from_spec, RankTable, U256};

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
}
