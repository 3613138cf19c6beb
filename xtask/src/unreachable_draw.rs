//! `cargo xtask unreachable-draw`: the oracle of docs/METHOD.md §10.7 on far more unreachable
//! verdicts than a run gives.
//!
//! A run's unreachable samples are rare (about 1 in 75,000 searches in Shogi, 1 in 2,200 in
//! Mini Shogi), so drawing a million of them from the sample space would take 10^10 or more
//! searches. They are drawn here for the purpose instead, by random walks that start at the
//! unreachable samples of a run (`unreachable-audit --list`) and stay among positions the
//! search calls unreachable: each step edits the position at random, keeping its material,
//! its two kings and Black to move (a piece moved to an empty square, a piece put in or taken
//! from a hand, a piece handed to the other side, a promotion turned over); an edit that
//! passes the placement and check filters is searched with the run's own search settings,
//! and the walk moves to it when the verdict is unreachable and the position has a
//! predecessor (a run's phase 1 settles those without one: it never searches them). Every distinct unreachable
//! position met is handed to `shogi_verify::oracle::closure`, which must find its whole
//! backward closure finite and free of KK positions; every reachable verdict met on the way
//! has its certificate replayed by the oracle's move generator.
//!
//! The positions are not distributed as the run's samples are: they probe the search's
//! unreachable verdict where it is given, many times over, but the bound on the run's
//! error stays the one its own audited samples give (docs/RESULTS.md).
//!
//! Each walk has its own ChaCha8 stream (the seed, stream = the walk's number), and walks
//! are merged in their order, so the positions and every count are the same whatever the
//! thread count.

use crate::unreachable_audit::ClosureSizes;
use chacha20::ChaCha8Rng;
use clap::Args;
use rand_core::{Rng, SeedableRng};
use rayon::prelude::*;
use shogi_core::{Color, Game, GameKind, MiniShogi, Piece, PieceKind, Position, Relax, Setup};
use shogi_core::{Shogi, Square};
use shogi_estimate::parse_count;
use shogi_reach::{classify_legal, SearchConfig, Searcher, Stage};
use shogi_verify::oracle::{closure, replay_certificate};
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

/// The options of `cargo xtask unreachable-draw`.
#[derive(Args, Debug)]
pub struct UnreachableDrawArgs {
    /// A run's state file: its game, its drop-pawn-mate rule and its search limits are the
    /// ones tested.
    #[arg(long)]
    file: PathBuf,
    /// Where the walks start: a list written by `unreachable-audit --list` (the SFEN is the
    /// last column of each line; `#` lines are skipped). One walk a line.
    #[arg(long)]
    seeds: PathBuf,
    /// Distinct unreachable positions to check (`1e6` is accepted).
    #[arg(long, default_value = "1e6", value_parser = parse_count)]
    count: u64,
    /// Seed of the walks' edits.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Edits a walk tries in each round (the rounds end when `--count` are found).
    #[arg(long, default_value_t = 64)]
    steps: u32,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// The most positions a closure may hold before the oracle gives up on it (reported as
    /// undecided, never as agreement).
    #[arg(long, default_value_t = 1_000_000)]
    cap: usize,
}

pub fn run(args: UnreachableDrawArgs) -> Result<(), String> {
    let (state, threads) = crate::unreachable_audit::open_run(&args.file, args.threads)?;
    let search = state.config.search_config();
    match state.config.game {
        GameKind::Shogi => draw::<Shogi>(&args, search, threads),
        GameKind::Mini => draw::<MiniShogi>(&args, search, threads),
    }
}

/// Reads the walks' starting positions.
fn read_seeds<G: Game>(path: &PathBuf) -> Result<Vec<Position<G>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut seeds = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let sfen = line.rsplit('\t').next().unwrap_or(line);
        let pos = Position::<G>::from_sfen_with(sfen, Relax::CANDIDATE)
            .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
        if pos.material() != G::MATERIAL {
            return Err(format!(
                "{} line {}: {sfen} does not hold the game's whole material",
                path.display(),
                n + 1
            ));
        }
        seeds.push(pos);
    }
    if seeds.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(seeds)
}

/// What the walks met, counted.
#[derive(Default, Clone, Debug)]
struct Tally {
    edits: u64,
    /// Edits that fail a filter (two pawns on a file, a piece that can never move, the side
    /// not to move in check): not searched.
    filtered: u64,
    /// Searched and found to have no predecessor: not counted among the unreachable, and
    /// not walked to.
    no_predecessor: u64,
    reachable: u64,
    unreachable: u64,
    unknown: u64,
    certificate_failures: Vec<String>,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.edits += o.edits;
        self.filtered += o.filtered;
        self.no_predecessor += o.no_predecessor;
        self.reachable += o.reachable;
        self.unreachable += o.unreachable;
        self.unknown += o.unknown;
        self.certificate_failures.extend(o.certificate_failures);
    }
}

/// One random walk among unreachable positions.
struct Walk<G: Game> {
    at: Position<G>,
    rng: ChaCha8Rng,
}

/// A position the search called unreachable, with the depth it traced back.
struct Met<G: Game> {
    position: Position<G>,
    depth: u32,
}

fn draw<G: Game>(
    args: &UnreachableDrawArgs,
    search: SearchConfig,
    threads: usize,
) -> Result<(), String> {
    let rules = search.rules;
    let seeds = read_seeds::<G>(&args.seeds)?;
    println!(
        "unreachable-draw {}: {} walks from {}, seed {}, {} edits a walk a round, until {} distinct unreachable positions; {threads} threads",
        G::NAME,
        seeds.len(),
        args.seeds.display(),
        args.seed,
        args.steps,
        args.count
    );
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&args.seed.to_le_bytes());
    let mut walks: Vec<Walk<G>> = seeds
        .into_iter()
        .enumerate()
        .map(|(i, at)| {
            let mut rng = ChaCha8Rng::from_seed(key);
            rng.set_stream(i as u64);
            Walk { at, rng }
        })
        .collect();

    let t0 = Instant::now();
    let mut seen: HashSet<Position<G>> = HashSet::new();
    let mut tally = Tally::default();
    let mut proved = 0u64;
    let mut kk: Vec<String> = Vec::new();
    let mut undecided: Vec<String> = Vec::new();
    let mut sizes = ClosureSizes::default();
    let mut rounds = 0u32;
    while (seen.len() as u64) < args.count {
        rounds += 1;
        let results: Vec<(Tally, Vec<Met<G>>)> = walks
            .par_iter_mut()
            .map_init(
                || Searcher::<G>::new(search),
                |searcher, walk| step(walk, searcher, args.steps, rules),
            )
            .collect();
        let mut fresh: Vec<Met<G>> = Vec::new();
        for (t, met) in results {
            tally.add(t);
            for m in met {
                if seen.insert(m.position.clone()) {
                    fresh.push(m);
                }
            }
        }
        let closures: Vec<_> = fresh
            .par_iter()
            .map(|m| closure(&m.position, rules, args.cap))
            .collect();
        for (m, c) in fresh.iter().zip(&closures) {
            if c.proves_unreachable() {
                proved += 1;
            } else if c.found_kk {
                kk.push(m.position.to_sfen());
            } else {
                undecided.push(m.position.to_sfen());
            }
            sizes.add(m.depth, c);
        }
        eprintln!(
            "  round {rounds}: {} distinct unreachable of {} edits, {:.0} edits/s",
            seen.len(),
            tally.edits,
            tally.edits as f64 / t0.elapsed().as_secs_f64()
        );
    }
    let searched = tally.no_predecessor + tally.reachable + tally.unreachable + tally.unknown;
    println!(
        "{rounds} rounds in {:.0} s: {} edits, {} stopped by a filter, {searched} searched: {} without a predecessor (not counted), {} reachable, {} unreachable with a predecessor ({} distinct), {} unknown",
        t0.elapsed().as_secs_f64(),
        tally.edits,
        tally.filtered,
        tally.no_predecessor,
        tally.reachable,
        tally.unreachable,
        seen.len(),
        tally.unknown
    );
    println!(
        "certificates of the reachable verdicts replayed by the oracle: {} of {}",
        tally.reachable - tally.certificate_failures.len() as u64,
        tally.reachable
    );
    println!(
        "oracle closures of the {} distinct unreachable positions: {proved} proved unreachable, {} reached a KK position, {} undecided (cap {})",
        seen.len(),
        kk.len(),
        undecided.len(),
        args.cap
    );
    sizes.print();
    for s in &kk {
        println!(
            "DISAGREEMENT: {s} is unreachable by the search, reaches a KK position by the oracle"
        );
    }
    for s in &tally.certificate_failures {
        println!("CERTIFICATE FAILED: {s}");
    }
    if !kk.is_empty() || !undecided.is_empty() || !tally.certificate_failures.is_empty() {
        return Err(format!(
            "{} disagreements, {} undecided closures, {} certificates that do not replay",
            kk.len(),
            undecided.len(),
            tally.certificate_failures.len()
        ));
    }
    Ok(())
}

/// `steps` edits of one walk: the unreachable verdicts met, and the tally of all.
fn step<G: Game>(
    walk: &mut Walk<G>,
    searcher: &mut Searcher<G>,
    steps: u32,
    rules: shogi_core::Rules,
) -> (Tally, Vec<Met<G>>) {
    let mut tally = Tally::default();
    let mut met = Vec::new();
    for _ in 0..steps {
        let Some(next) = edit(&walk.at, &mut walk.rng) else {
            continue;
        };
        tally.edits += 1;
        let c = classify_legal(searcher, &next);
        match c.stage {
            Stage::Reachable => {
                tally.reachable += 1;
                let cert = c
                    .search
                    .as_ref()
                    .and_then(|s| s.certificate.as_ref())
                    .expect("a reachable verdict has a certificate");
                if let Err(e) = replay_certificate(&cert.kk, &cert.moves, &next, rules) {
                    tally
                        .certificate_failures
                        .push(format!("{}: {e}", next.to_sfen()));
                }
            }
            Stage::Unreachable => {
                let depth = c.search.as_ref().map_or(0, |s| s.stats.max_depth);
                if depth == 0 {
                    // No predecessor at all: phase 1 settles such a position, a run never
                    // searches it, and the walk would drift into them.
                    tally.no_predecessor += 1;
                    continue;
                }
                tally.unreachable += 1;
                met.push(Met {
                    position: next.clone(),
                    depth,
                });
                walk.at = next;
            }
            Stage::Unknown => tally.unknown += 1,
            Stage::NonCanonical | Stage::IllegalPlacement | Stage::OpponentInCheck => {
                tally.filtered += 1
            }
        }
    }
    (tally, met)
}

/// A uniform integer below `n` (`n` > 0; the bias of the modulus is below 2^-50 for the
/// small `n` used here, and only the walk's path depends on it).
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A random edit of `pos` that keeps its material, its two kings and the side to move, or
/// `None` when the edit drawn does not apply (no such piece, or the result is outside the
/// candidate space).
fn edit<G: Game>(pos: &Position<G>, rng: &mut ChaCha8Rng) -> Option<Position<G>> {
    let squares = || (0..G::SQUARES as u8).filter_map(Square::from_index_in::<G>);
    let occupied: Vec<Square> = squares().filter(|&s| pos.piece_at(s).is_some()).collect();
    let empty: Vec<Square> = squares().filter(|&s| pos.piece_at(s).is_none()).collect();
    let pieces: Vec<Square> = occupied
        .iter()
        .copied()
        .filter(|&s| pos.piece_at(s).is_some_and(|p| p.kind != PieceKind::King))
        .collect();
    let color = if rng.next_u64() & 1 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let mut s = Setup::from(pos.clone());
    match below(rng, 6) {
        // A piece (a king too) to an empty square.
        0 => {
            let from = occupied[below(rng, occupied.len())];
            let to = *empty.get(below(rng, empty.len().max(1)))?;
            let p = s.take(from)?;
            s.put(to, p);
        }
        // A piece from the board to a hand.
        1 => {
            let from = *pieces.get(below(rng, pieces.len().max(1)))?;
            let p = s.take(from)?;
            let k = p.kind.unpromoted();
            let n = s.hand(color).count(k);
            s.set_hand(color, k, n + 1);
        }
        // A piece from a hand to an empty square, promoted or not.
        2 => {
            let held: Vec<PieceKind> = s.hand(color).kinds().collect();
            let k = *held.get(below(rng, held.len().max(1)))?;
            let to = *empty.get(below(rng, empty.len().max(1)))?;
            let n = s.hand(color).count(k);
            s.set_hand(color, k, n - 1);
            let kind = match k.promoted() {
                Some(p) if rng.next_u64() & 1 == 0 => p,
                _ => k,
            };
            s.put(to, Piece::new(color, kind));
        }
        // A piece handed to the other side where it stands.
        3 => {
            let at = *pieces.get(below(rng, pieces.len().max(1)))?;
            let p = s.take(at)?;
            s.put(at, Piece::new(!p.color, p.kind));
        }
        // A promotion turned over.
        4 => {
            let at = *pieces.get(below(rng, pieces.len().max(1)))?;
            let p = s.take(at)?;
            let kind = if p.kind.is_promoted() {
                p.kind.unpromoted()
            } else {
                p.kind.promoted()?
            };
            s.put(at, Piece::new(p.color, kind));
        }
        // A hand piece given to the other hand.
        _ => {
            let held: Vec<PieceKind> = s.hand(color).kinds().collect();
            let k = *held.get(below(rng, held.len().max(1)))?;
            let n = s.hand(color).count(k);
            s.set_hand(color, k, n - 1);
            let m = s.hand(!color).count(k);
            s.set_hand(!color, k, m + 1);
        }
    }
    s.into_position(Relax::CANDIDATE).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every edit keeps what makes a position a sample of the run's space: the whole
    /// material, one king a side, Black to move.
    fn edits_keep_the_space<G: Game>(sfen: &str) {
        let start = Position::<G>::from_sfen_with(sfen, Relax::CANDIDATE).unwrap();
        let mut rng = ChaCha8Rng::from_seed([7; 32]);
        let mut at = start.clone();
        let mut applied = 0;
        for _ in 0..2000 {
            let Some(next) = edit(&at, &mut rng) else {
                continue;
            };
            applied += 1;
            assert_eq!(next.material(), G::MATERIAL, "{next}");
            assert!(next.king(Color::Black).is_some() && next.king(Color::White).is_some());
            assert_eq!(next.side_to_move(), Color::Black);
            assert_ne!(next, at, "an edit changes the position");
            at = next;
        }
        // Most draws apply (the others find no piece of the kind asked, or leave the
        // candidate space): a walk does move.
        assert!(applied > 1000, "{applied} of 2000 edits applied");
    }

    #[test]
    fn edits_keep_material_kings_and_the_side_to_move() {
        edits_keep_the_space::<MiniShogi>("G+S3/+B+RBR1/4+S/K2GP/2kP1 b - 1");
        edits_keep_the_space::<Shogi>(
            "1+s+l1+p1g2/2+n2+P2+P/pb+P1p2N+P/+P+p1p+Pn2p/1s+N+p+P+p3/5+L1sl/G1p3gP1/1P2Ks2G/2kb+R1r1L b - 1",
        );
    }

    #[test]
    fn seeds_are_read_from_an_audit_list() {
        let dir = std::env::temp_dir().join(format!("unreachable-draw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("list.tsv");
        std::fs::write(
            &path,
            "# index\tsearch_depth\tclosure_positions\tclosure_depth\tverdict\tsfen\n822162\t1\t2\t1\tunreachable\tG+S3/+B+RBR1/4+S/K2GP/2kP1 b - 1\n",
        )
        .unwrap();
        let seeds = read_seeds::<MiniShogi>(&path).unwrap();
        assert_eq!(seeds.len(), 1);
        std::fs::write(&path, "1\tunreachable\tk4/5/5/5/4K b - 1\n").unwrap();
        let e = read_seeds::<MiniShogi>(&path).unwrap_err();
        assert!(e.contains("line 1") && e.contains("whole material"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
