//! The mutual reachability of the KK positions of a material (docs/METHOD.md §7), on orbits.

use super::codec::Codec;
use super::forward::{closure, kk_positions, ForwardOptions, ReachableSet};
use super::keys::Keys;
use super::ExhaustiveError;
use shogi_core::{Color, Game, MoveList, Piece, PieceKind, Position, Relax, Setup, Square};

/// Whether the KK positions of a material are mutually reachable (docs/METHOD.md §7), as checked by
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

/// Re-checks docs/METHOD.md §7 for any game and material: the KK positions of `set`'s material are
/// mutually reachable. `set` must be the forward closure of all of them
/// ([`forward_reachable_with`](super::forward_reachable_with)); `limit` bounds the keys each of the searches below stores.
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
            for cu in codec.successors(&pos, rules, &mut moves) {
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
