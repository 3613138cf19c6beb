//! The harnesses of the independent oracle ([`crate::oracle`], docs/METHOD.md §10.7):
//!
//! - [`compare_predecessors`]: the oracle's predecessor set against a predecessor generator
//!   (normally `shogi_retro::unmoves`, through [`retro_predecessors`]) on positions from
//!   random legal games;
//! - [`verdict_sweep`]: the phase-1 verdict of a pipeline against the oracle's on samples,
//!   and a share of the samples with a predecessor searched and their certificates replayed
//!   forward.
//!
//! Both take the code under test as a parameter, so that the tests can hand them a broken
//! one and see it caught.

use crate::oracle::{
    brute_has_predecessor, brute_predecessors, oracle_phase1, replay_certificate, Phase1,
};
use crate::rng::test_rng;
use crate::sweep::{pick_move, random_start};
use core::ops::Range;
use rayon::prelude::*;
use shogi_core::{Game, MoveList, Position, Rules};
use shogi_reach::{SearchConfig, Searcher, Verdict};
use std::collections::HashSet;
use std::time::Instant;

/// How many examples of each kind of failure a report keeps.
const EXAMPLES: usize = 20;

/// A predecessor generator under test: every legal predecessor of a position.
pub type Generator<'a, G> = &'a dyn Fn(&Position<G>, Rules) -> Vec<Position<G>>;

/// The predecessors `shogi_retro::unmoves` lists, taken back with `shogi_retro::undo`.
pub fn retro_predecessors<G: Game>(pos: &Position<G>, rules: Rules) -> Vec<Position<G>> {
    shogi_retro::predecessors(pos, rules)
        .into_iter()
        .map(|(_, q)| q)
        .collect()
}

/// What [`compare_predecessors`] found.
#[derive(Clone, Debug, Default)]
pub struct PredecessorReport {
    /// The game's name.
    pub game: &'static str,
    /// Positions compared.
    pub positions: u64,
    /// Predecessors the oracle found, all positions together.
    pub oracle_predecessors: u64,
    /// Predecessors the generator listed.
    pub generator_predecessors: u64,
    /// Positions without any predecessor (by the oracle).
    pub no_predecessor: u64,
    /// The most predecessors of one position (by the oracle).
    pub max_predecessors: usize,
    /// Predecessors the generator listed that the oracle did not find.
    pub missed_by_oracle: u64,
    /// Predecessors the oracle found that the generator did not list.
    pub missed_by_generator: u64,
    /// Positions for which either list holds a position twice.
    pub duplicates: u64,
    /// Positions where the oracle's stop-at-the-first test disagrees with its full set.
    pub has_mismatch: u64,
    /// The first differences, described.
    pub examples: Vec<String>,
    /// Wall time in seconds.
    pub seconds: f64,
}

impl PredecessorReport {
    /// Whether the two agree on every position.
    pub fn passed(&self) -> bool {
        self.missed_by_oracle == 0
            && self.missed_by_generator == 0
            && self.duplicates == 0
            && self.has_mismatch == 0
    }
}

impl core::fmt::Display for PredecessorReport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(
            f,
            "{}: {} positions, {} predecessors by the oracle, {} by the generator, {} positions \
             without predecessor, at most {} predecessors, {:.1} s: {} listed but not found by \
             the oracle, {} found but not listed, {} with duplicates, {} has-predecessor \
             mismatches",
            self.game,
            self.positions,
            self.oracle_predecessors,
            self.generator_predecessors,
            self.no_predecessor,
            self.max_predecessors,
            self.seconds,
            self.missed_by_oracle,
            self.missed_by_generator,
            self.duplicates,
            self.has_mismatch
        )?;
        for e in &self.examples {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

/// Compares the oracle's predecessors with `generator`'s, as sets of positions, on
/// `positions` positions of random legal games of `G` (the games of [`crate::sweep`]: from
/// the initial position, reduced material and KK positions with full hands; both sides to
/// move, promoted pieces, checks, crowded hands).
pub fn compare_predecessors<G: Game>(
    positions: usize,
    seed: u64,
    rules: Rules,
    generator: Generator<'_, G>,
) -> PredecessorReport {
    let start = Instant::now();
    let mut rng = test_rng(seed ^ 0x0AC1_E000_0000_0107);
    let mut report = PredecessorReport {
        game: G::NAME,
        ..PredecessorReport::default()
    };
    let mut moves = MoveList::new();
    while (report.positions as usize) < positions {
        let mut pos = random_start::<G>(&mut rng);
        let len = 20 + crate::rng::below(&mut rng, 380);
        for _ in 0..len {
            if (report.positions as usize) >= positions {
                break;
            }
            compare_one(&pos, rules, generator, &mut report);
            moves.clear();
            pos.legal_moves_with(rules, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = pick_move(&pos, &moves, &mut rng);
            pos.play_unchecked(mv);
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    report
}

/// Compares the two on one position, adding to `report`.
pub fn compare_one<G: Game>(
    pos: &Position<G>,
    rules: Rules,
    generator: Generator<'_, G>,
    report: &mut PredecessorReport,
) {
    let example = |report: &mut PredecessorReport, what: String| {
        if report.examples.len() < EXAMPLES {
            report.examples.push(format!("{pos}: {what}"));
        }
    };
    report.positions += 1;
    let oracle: Vec<Position<G>> = brute_predecessors(pos, rules)
        .into_iter()
        .map(|(q, _)| q)
        .collect();
    let listed = generator(pos, rules);
    report.oracle_predecessors += oracle.len() as u64;
    report.generator_predecessors += listed.len() as u64;
    report.max_predecessors = report.max_predecessors.max(oracle.len());
    if oracle.is_empty() {
        report.no_predecessor += 1;
    }
    if brute_has_predecessor(pos, rules) == oracle.is_empty() {
        report.has_mismatch += 1;
        example(
            report,
            "the oracle's has-predecessor test disagrees with its set".into(),
        );
    }
    let a: HashSet<&Position<G>> = oracle.iter().collect();
    let b: HashSet<&Position<G>> = listed.iter().collect();
    if a.len() != oracle.len() || b.len() != listed.len() {
        report.duplicates += 1;
        example(report, "a predecessor listed twice".into());
    }
    for q in listed.iter().filter(|q| !a.contains(q)) {
        report.missed_by_oracle += 1;
        example(report, format!("listed, not found by the oracle: {q}"));
    }
    for q in oracle.iter().filter(|q| !b.contains(q)) {
        report.missed_by_generator += 1;
        example(report, format!("found by the oracle, not listed: {q}"));
    }
}

/// A sample on which the pipeline and the oracle disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The sample index.
    pub index: u64,
    /// The sample.
    pub sfen: String,
    /// The pipeline's verdict.
    pub pipeline: Phase1,
    /// The oracle's verdict.
    pub oracle: Phase1,
}

/// What [`verdict_sweep`] found: sums over samples, so the same whatever the threads.
#[derive(Clone, Debug, Default)]
pub struct VerdictReport {
    /// Samples compared.
    pub samples: u64,
    /// `counts[pipeline][oracle]`, by [`Phase1::index`].
    pub counts: [[u64; 5]; 5],
    /// The first disagreements, in sample order.
    pub disagreements: Vec<Disagreement>,
    /// Samples with a predecessor (by the pipeline) searched for a certificate.
    pub searched: u64,
    /// ... found reachable, with a certificate that replays forward to the sample.
    pub certified: u64,
    /// ... found unreachable.
    pub unreachable: u64,
    /// ... left unknown (a node limit).
    pub unknown: u64,
    /// Certificates that do not replay (or a reachable verdict without one).
    pub certificate_failures: u64,
    /// The first certificate failures, described.
    pub certificate_examples: Vec<String>,
}

impl VerdictReport {
    /// The number of samples whose verdicts differ.
    pub fn disagreement_count(&self) -> u64 {
        let mut n = 0;
        for (i, row) in self.counts.iter().enumerate() {
            for (j, &c) in row.iter().enumerate() {
                if i != j {
                    n += c;
                }
            }
        }
        n
    }

    /// Samples on which the two agree with verdict `v`.
    pub fn agreed(&self, v: Phase1) -> u64 {
        self.counts[v.index()][v.index()]
    }

    /// Whether there is no disagreement and every certificate replays.
    pub fn passed(&self) -> bool {
        self.disagreement_count() == 0 && self.certificate_failures == 0
    }

    /// Adds the report of the samples that follow.
    pub fn merge(&mut self, other: &VerdictReport) {
        self.samples += other.samples;
        for (row, orow) in self.counts.iter_mut().zip(&other.counts) {
            for (c, o) in row.iter_mut().zip(orow) {
                *c += o;
            }
        }
        for d in &other.disagreements {
            if self.disagreements.len() < EXAMPLES {
                self.disagreements.push(d.clone());
            }
        }
        self.searched += other.searched;
        self.certified += other.certified;
        self.unreachable += other.unreachable;
        self.unknown += other.unknown;
        self.certificate_failures += other.certificate_failures;
        for e in &other.certificate_examples {
            if self.certificate_examples.len() < EXAMPLES {
                self.certificate_examples.push(e.clone());
            }
        }
    }
}

/// The pipeline under test: given a worker's searcher and a sample index, the sample and the
/// pipeline's phase-1 verdict of it.
pub type Pipeline<'a, G> = &'a (dyn Fn(&mut Searcher<G>, u64) -> (Position<G>, Phase1) + Sync);

/// Samples a worker takes at a time.
const CHUNK: u64 = 1024;

/// Compares `pipeline`'s phase-1 verdict with the oracle's ([`oracle_phase1`]) on the
/// samples `range`, on `threads` threads; for the samples the pipeline finds a predecessor
/// for and `certify` selects, runs the search of `search` and replays its certificate
/// forward ([`replay_certificate`]). `progress` is called after each batch with the report
/// of the samples so far (a prefix of `range`); the final report is returned.
pub fn verdict_sweep<G: Game>(
    range: Range<u64>,
    threads: usize,
    search: SearchConfig,
    pipeline: Pipeline<'_, G>,
    certify: &(dyn Fn(u64) -> bool + Sync),
    progress: &mut dyn FnMut(&VerdictReport),
) -> Result<VerdictReport, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let rules = search.rules;
    let batch = CHUNK * 256;
    let mut total = VerdictReport::default();
    let mut next = range.start;
    while next < range.end {
        let stop = next.saturating_add(batch).min(range.end);
        let chunks: Vec<(u64, u64)> = (next..stop)
            .step_by(CHUNK as usize)
            .map(|a| (a, (a + CHUNK).min(stop)))
            .collect();
        let parts: Vec<VerdictReport> = pool.install(|| {
            chunks
                .par_iter()
                .map_init(
                    || Searcher::<G>::new(search),
                    |searcher, &(a, b)| {
                        let mut r = VerdictReport::default();
                        for i in a..b {
                            one_sample(i, searcher, rules, pipeline, certify, &mut r);
                        }
                        r
                    },
                )
                .collect()
        });
        for p in &parts {
            total.merge(p);
        }
        next = stop;
        progress(&total);
    }
    Ok(total)
}

fn one_sample<G: Game>(
    index: u64,
    searcher: &mut Searcher<G>,
    rules: Rules,
    pipeline: Pipeline<'_, G>,
    certify: &(dyn Fn(u64) -> bool + Sync),
    r: &mut VerdictReport,
) {
    let (pos, fast) = pipeline(searcher, index);
    let oracle = oracle_phase1(&pos, rules);
    r.samples += 1;
    r.counts[fast.index()][oracle.index()] += 1;
    if fast != oracle && r.disagreements.len() < EXAMPLES {
        r.disagreements.push(Disagreement {
            index,
            sfen: pos.to_sfen(),
            pipeline: fast,
            oracle,
        });
    }
    if fast != Phase1::Predecessor || !certify(index) {
        return;
    }
    r.searched += 1;
    let out = searcher.search(&pos);
    match out.verdict {
        Verdict::Unreachable => r.unreachable += 1,
        Verdict::Unknown => r.unknown += 1,
        Verdict::Reachable => {
            let checked = match &out.certificate {
                Some(c) => replay_certificate(&c.kk, &c.moves, &pos, rules),
                None => Err("reachable without a certificate".to_string()),
            };
            match checked {
                Ok(()) => r.certified += 1,
                Err(e) => {
                    r.certificate_failures += 1;
                    if r.certificate_examples.len() < EXAMPLES {
                        r.certificate_examples
                            .push(format!("sample {index} ({pos}): {e}"));
                    }
                }
            }
        }
    }
}
