//! One sample through the pipeline of docs/METHOD.md §5, §7 and §10: draw, mirror,
//! placement, check, then the search, or with two-phase sampling the predecessor test on
//! every sample and the search on a subsample.

use crate::counters::SampleOutcome;
use core::cmp::Ordering;
use shogi_core::{Game, Position};
use shogi_rank::filters::{self, compare_boards, FilterOutcome};
use shogi_rank::{PlacementSampler, Sampler};
use shogi_reach::{is_kk, Certificate, Searcher, Verdict};

/// A space the estimate samples: sample `index` of a seed, the same on every machine.
pub trait SampleSource<G: Game>: Sync {
    /// Sample `index`.
    fn sample(&self, index: u64) -> Position<G>;
}

impl<G: Game> SampleSource<G> for Sampler<'_, G> {
    fn sample(&self, index: u64) -> Position<G> {
        Sampler::sample(self, index)
    }
}

impl<G: Game> SampleSource<G> for PlacementSampler<'_, G> {
    fn sample(&self, index: u64) -> Position<G> {
        PlacementSampler::sample(self, index)
    }
}

/// SplitMix64's finaliser: a bijection of `u64` whose outputs look independent.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Whether two-phase sampling searches sample `index` of `seed` when it passes phase 1
/// (docs/METHOD.md §10.1): a hash of `(seed, index)` below `rate · 2^64`. It depends on
/// nothing else (not the position, the thread or the shard), so every machine selects the
/// same samples; `rate >= 1` selects all of them.
pub fn phase2_selected(seed: u64, index: u64, rate: f64) -> bool {
    if rate >= 1.0 {
        return true;
    }
    // The float-to-integer cast rounds down and saturates: exact for any rate in (0, 1).
    let threshold = (rate * 18_446_744_073_709_551_616.0) as u64;
    mix(mix(seed ^ 0x7068_6173_6532_0000) ^ index) < threshold
}

/// Two-phase sampling: the seed and the rate of phase 2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phase2 {
    /// The run's seed.
    pub seed: u64,
    /// The share of phase-1 survivors searched, in `(0, 1]`.
    pub rate: f64,
}

/// Draws sample `index` and takes it as far through the pipeline as it goes. With
/// `phase2`, a sample that passes the filters is searched only if it has a legal
/// predecessor (or is a KK position) and is selected by [`phase2_selected`].
pub fn evaluate<G: Game, S: SampleSource<G>>(
    sampler: &S,
    searcher: &mut Searcher<G>,
    index: u64,
    phase2: Option<Phase2>,
) -> SampleOutcome {
    evaluate_sample(sampler, searcher, index, phase2).outcome
}

/// One sample as [`evaluate`] sees it, with what an audit needs besides the outcome.
pub struct Evaluated<G: Game> {
    /// The position drawn.
    pub position: Position<G>,
    /// What happened to it (exactly what the estimate counts).
    pub outcome: SampleOutcome,
    /// For a reachable sample, the certificate the search found.
    pub certificate: Option<Certificate<G>>,
}

/// [`evaluate`] with the position and the certificate: the one code path of both, so that
/// what `shogi-count sample` prints is what `estimate` counted.
pub fn evaluate_sample<G: Game, S: SampleSource<G>>(
    sampler: &S,
    searcher: &mut Searcher<G>,
    index: u64,
    phase2: Option<Phase2>,
) -> Evaluated<G> {
    let pos = sampler.sample(index);
    let (outcome, certificate) = outcome_of(&pos, searcher, index, phase2);
    Evaluated {
        position: pos,
        outcome,
        certificate,
    }
}

fn outcome_of<G: Game>(
    pos: &Position<G>,
    searcher: &mut Searcher<G>,
    index: u64,
    phase2: Option<Phase2>,
) -> (SampleOutcome, Option<Certificate<G>>) {
    match filters::classify(pos) {
        FilterOutcome::Mirror => return (SampleOutcome::Mirror, None),
        FilterOutcome::Placement => return (SampleOutcome::Placement, None),
        FilterOutcome::Check => return (SampleOutcome::Check, None),
        FilterOutcome::Pass => {}
    }
    if let Some(p) = phase2 {
        let rules = searcher.config().rules;
        if !is_kk(pos) && !shogi_retro::has_predecessor(pos, rules) {
            return (SampleOutcome::NoPredecessor, None);
        }
        if !phase2_selected(p.seed, index, p.rate) {
            return (SampleOutcome::NotSearched, None);
        }
    }
    let out = searcher.search(pos);
    let (expanded, generated) = (out.stats.expanded, out.stats.generated);
    let certificate = out.certificate;
    let outcome = match out.verdict {
        Verdict::Reachable => SampleOutcome::Reachable {
            plies: certificate.as_ref().map_or(0, |c| c.moves.len() as u32),
            expanded,
            generated,
            symmetric: compare_boards(&pos.hflip(), pos) == Ordering::Equal,
        },
        Verdict::Unreachable => SampleOutcome::Unreachable {
            depth: out.stats.max_depth,
            expanded,
            generated,
        },
        Verdict::Unknown => SampleOutcome::Unknown {
            expanded,
            generated,
        },
    };
    (outcome, certificate)
}
