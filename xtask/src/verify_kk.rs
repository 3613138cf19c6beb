//! `cargo xtask verify-kk`: the KK lemma of docs/METHOD.md §7 checked by computation for a
//! game and material: every KK position (the two kings on the board, every other piece in
//! a hand, either side to move) is reachable from every other, and, with the game's full
//! material, from the initial position. On failure it prints a counterexample.
//!
//! The check is a proof in three computed parts (docs/METHOD.md §7.1):
//!
//! 1. **King walks.** With only the kings on the board, the legal moves are king moves, and
//!    their legality does not depend on the hands (no drop is needed, no piece pins or
//!    checks). The graph of king placements and side to move, with the move generator's
//!    legal king moves as edges, must be strongly connected: a breadth-first search from a
//!    hub state forwards and one backwards must each reach every state.
//! 2. **Transfers.** For each kind and each direction, one piece passes from one hand to the
//!    other by a drop beside the receiving king and its capture, starting and ending at the
//!    hub state ([`kk_to_kk`]), every move played with the legality-checked `play`. These
//!    moves involve the dropped piece and the kings only, so their legality is the same
//!    whatever else the hands hold: one check per kind and direction covers every hand.
//! 3. **The opening.** With the full material, the fixed line from the initial position to
//!    a KK position (docs/METHOD.md §9) is replayed.
//!
//! So any KK position walks its kings to the hub state, transfers pieces one at a time to
//! any other split of the hands, and walks to any other king placement and side to move.
//! With `--exhaustive` (small material only), the forward closure of all KK positions also
//! checks mutual reachability directly ([`kk_connectivity`]), independently of the above.

use clap::Args;
use shogi_core::{
    Color, Game, GameKind, Material, MiniShogi, MoveList, Piece, PieceKind, Position, Relax, Setup,
    Shogi, Square,
};
use shogi_reach::{kk_to_kk, opening_line};
use shogi_verify::exhaustive::{forward_reachable_with, kk_connectivity, ForwardOptions};
use std::collections::{HashMap, VecDeque};
use std::time::Instant;

/// The options of `cargo xtask verify-kk`.
#[derive(Args, Debug)]
pub struct VerifyKkArgs {
    /// The game: shogi, mini or both.
    #[arg(long, default_value = "both", value_parser = crate::parse_games)]
    game: crate::Games,
    /// The non-king pieces as SFEN letters (`GP`, `-` for none) [default: the game's full
    /// material].
    #[arg(long)]
    material: Option<String>,
    /// Also check mutual reachability directly on the forward closure of every KK position
    /// (small material only: the closure holds every reachable position).
    #[arg(long)]
    exhaustive: bool,
}

/// A king placement and side to move.
type State = (Square, Square, Color);

/// The KK position of `state` with `hands` (Black's counts per kind; White holds the rest
/// of `material`).
fn kk<G: Game>(
    state: State,
    material: &Material,
    black: &[(PieceKind, u8)],
) -> Option<Position<G>> {
    let (b, w, side) = state;
    let mut s = Setup::<G>::empty();
    s.put(b, Piece::new(Color::Black, PieceKind::King));
    s.put(w, Piece::new(Color::White, PieceKind::King));
    for kind in PieceKind::HAND {
        let total = material.get(kind);
        let mine = black.iter().find(|(k, _)| *k == kind).map_or(0, |x| x.1);
        s.set_hand(Color::Black, kind, mine);
        s.set_hand(Color::White, kind, total - mine);
    }
    s.set_side_to_move(side);
    s.into_position(Relax::empty()).ok()
}

/// Part 1: the king-walk graph from the move generator, and its strong connectivity from
/// `hub`. Returns the number of states and edges, or a state not reached.
fn king_walks<G: Game>(hub: State) -> Result<(usize, usize), String> {
    let squares: Vec<Square> = (0..G::SQUARES as u8)
        .filter_map(Square::from_index)
        .collect();
    let empty = Material::default();
    let mut edges: HashMap<State, Vec<State>> = HashMap::new();
    let mut n_edges = 0;
    let mut list = MoveList::new();
    for &b in &squares {
        for &w in &squares {
            for side in Color::ALL {
                let state = (b, w, side);
                // Distinct, non-adjacent kings: the other placements are no positions.
                let Some(pos) = kk::<G>(state, &empty, &[]) else {
                    continue;
                };
                list.clear();
                pos.legal_moves(&mut list);
                let mut next = Vec::new();
                for &mv in list.iter() {
                    let mut p = pos.clone();
                    p.play(mv).map_err(|e| format!("{}: {e}", pos.to_sfen()))?;
                    let (nb, nw) = (
                        p.king(Color::Black).expect("a king"),
                        p.king(Color::White).expect("a king"),
                    );
                    next.push((nb, nw, p.side_to_move()));
                }
                n_edges += next.len();
                edges.insert(state, next);
            }
        }
    }
    let mut reverse: HashMap<State, Vec<State>> = HashMap::new();
    for (&from, tos) in &edges {
        for &to in tos {
            reverse.entry(to).or_default().push(from);
        }
    }
    for (graph, direction) in [(&edges, "from"), (&reverse, "to")] {
        let mut seen = std::collections::HashSet::from([hub]);
        let mut queue = VecDeque::from([hub]);
        while let Some(s) = queue.pop_front() {
            for &t in graph.get(&s).map_or(&[][..], |v| &v[..]) {
                if seen.insert(t) {
                    queue.push_back(t);
                }
            }
        }
        if let Some(missed) = edges.keys().find(|s| !seen.contains(s)) {
            let sfen = kk::<G>(*missed, &empty, &[])
                .map(|p| p.to_sfen())
                .unwrap_or_default();
            return Err(format!(
                "counterexample: the king placement `{sfen}` is not reached by king moves {direction} the hub"
            ));
        }
    }
    Ok((edges.len(), n_edges))
}

fn verify<G: Game>(material: &Material, exhaustive: bool) -> Result<(), String> {
    let start = Instant::now();
    let full = *material == G::MATERIAL;
    let x = G::WIDTH / 2;
    let hub: State = (
        Square::new::<G>(x, G::HEIGHT - 1).expect("on the board"),
        Square::new::<G>(x, 0).expect("on the board"),
        Color::Black,
    );
    let (states, edges) = king_walks::<G>(hub)?;
    println!(
        "{} {material}: 1. king walks: {states} king placements x side to move, {edges} legal king moves, strongly connected",
        G::NAME
    );
    let kinds: Vec<(PieceKind, u8)> = PieceKind::HAND
        .into_iter()
        .map(|k| (k, material.get(k)))
        .filter(|&(_, n)| n > 0)
        .collect();
    let mut gadgets = 0;
    for &(kind, _) in &kinds {
        for giver in Color::ALL {
            // The giver holds every piece of the kind (any split would do: see the module
            // documentation), the receiver one fewer after the transfer.
            let all: Vec<(PieceKind, u8)> = kinds.clone();
            let (before, after): (Vec<_>, Vec<_>) = match giver {
                Color::Black => (
                    all.clone(),
                    all.iter()
                        .map(|&(k, n)| (k, if k == kind { n - 1 } else { n }))
                        .collect(),
                ),
                Color::White => (
                    all.iter()
                        .map(|&(k, n)| (k, if k == kind { 0 } else { n }))
                        .collect(),
                    all.iter()
                        .map(|&(k, n)| (k, if k == kind { 1 } else { n }))
                        .collect(),
                ),
            };
            let from = kk::<G>(hub, material, &before).expect("the hub is a position");
            let to = kk::<G>(hub, material, &after).expect("the hub is a position");
            let moves = kk_to_kk(&from, &to).map_err(|e| {
                format!(
                    "counterexample: no transfer of a {kind:?} from {giver:?} from `{}` to `{}`: {e}",
                    from.to_sfen(),
                    to.to_sfen()
                )
            })?;
            let mut p = from.clone();
            for &mv in &moves {
                p.play(mv)
                    .map_err(|e| format!("transfer {kind:?} {giver:?}: {e}"))?;
            }
            if p.to_sfen()
                .split(' ')
                .take(3)
                .ne(to.to_sfen().split(' ').take(3))
            {
                return Err(format!(
                    "counterexample: the transfer of a {kind:?} from {giver:?} ended at `{}`, not `{}`",
                    p.to_sfen(),
                    to.to_sfen()
                ));
            }
            gadgets += 1;
        }
    }
    println!(
        "{} {material}: 2. transfers: {gadgets} (each kind, each direction) from and back to the hub, every move legal",
        G::NAME
    );
    if full {
        let line = opening_line::<G>().map_err(|e| format!("the opening line: {e}"))?;
        let mut p = Position::<G>::startpos();
        for &mv in &line {
            p.play(mv).map_err(|e| format!("the opening line: {e}"))?;
        }
        println!(
            "{} {material}: 3. opening: the initial position reaches the KK position `{}` in {} plies",
            G::NAME,
            p.to_sfen(),
            line.len()
        );
    } else {
        println!(
            "{} {material}: 3. opening: reduced material has no initial position (KK positions are the start)",
            G::NAME
        );
    }
    if exhaustive {
        let set = forward_reachable_with::<G>(material, &ForwardOptions::default())
            .map_err(|e| e.to_string())?;
        let c = kk_connectivity(&set, None).map_err(|e| e.to_string())?;
        if !c.connected() || c.unsound_predecessors > 0 {
            return Err(format!(
                "counterexample (exhaustive): from the hub {} reached {} and reaching {} of {} KK positions",
                c.hub, c.reached, c.reaching, c.kk_positions
            ));
        }
        println!(
            "{} {material}: exhaustive: all {} KK positions reach the hub and are reached from it (closure of {} positions)",
            G::NAME,
            c.kk_positions,
            set.len()
        );
    }
    println!(
        "{} {material}: every KK position reaches every other{} ({:.1} s)",
        G::NAME,
        if full {
            ", and the initial position reaches them all"
        } else {
            ""
        },
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Runs `cargo xtask verify-kk`.
pub fn run(args: VerifyKkArgs) -> Result<(), String> {
    for &game in &args.game.0 {
        let material = match &args.material {
            Some(p) => crate::reach_exhaustive::parse_pieces(p)?,
            None => game.material(),
        };
        match game {
            GameKind::Mini => verify::<MiniShogi>(&material, args.exhaustive)?,
            GameKind::Shogi => verify::<Shogi>(&material, args.exhaustive)?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kk_lemma_holds_for_both_full_games_and_a_small_material() {
        run(VerifyKkArgs {
            game: crate::Games(vec![GameKind::Mini, GameKind::Shogi]),
            material: None,
            exhaustive: false,
        })
        .unwrap();
        run(VerifyKkArgs {
            game: crate::Games(vec![GameKind::Mini]),
            material: Some("S".into()),
            exhaustive: true,
        })
        .unwrap();
    }
}
