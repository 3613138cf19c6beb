//! One sample through the pipeline of docs/METHOD.md §5, §7 and §10: draw, mirror,
//! placement, check, then the search, or with two-phase sampling the predecessor test on
//! every sample and the search on a subsample.

use crate::conditional::{self, KingGroup, KingWeight};
use crate::counters::SampleOutcome;
use crate::stream::phase2_selected;
use core::cmp::Ordering;
use shogi_core::{Color, Game, Position};
use shogi_rank::filters::{self, compare_boards};
use shogi_rank::{PlacementSampler, Sampler};
use shogi_reach::{is_kk, Certificate, Searcher, Verdict};

/// A space the estimate samples: sample `index` of a seed, the same on every machine.
pub trait SampleSource<G: Game>: Sync {
    /// Sample `index`.
    fn sample(&self, index: u64) -> Position<G>;

    /// Whether every sample passes the piece-placement filter by construction (samples of
    /// `S`), so that the pipeline need not test it.
    fn placement_legal(&self) -> bool {
        false
    }
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

    fn placement_legal(&self) -> bool {
        true
    }
}

/// The filters a position is known to pass without testing them.
#[derive(Clone, Copy, Debug, Default)]
struct Known {
    /// The piece-placement filter (samples of `S`, and the positions of their king groups).
    placement: bool,
    /// The check filter (the safe squares of a king group).
    check: bool,
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
    let pos = sampler.sample(index);
    outcome_of(&pos, searcher, index, phase2, known_of(sampler)).0
}

fn known_of<G: Game, S: SampleSource<G>>(sampler: &S) -> Known {
    Known {
        placement: sampler.placement_legal(),
        check: false,
    }
}

/// One sample as [`evaluate`] sees it, with what an audit needs besides the outcome.
pub struct Evaluated<G: Game> {
    /// The position drawn.
    pub position: Position<G>,
    /// With the conditional estimator: the weight of the sample (the size of its king
    /// group and the safe squares in it) and the position the rest of the pipeline ran
    /// on (the drawn one with White's king on the chosen safe square; `None` when no
    /// square is safe).
    pub conditional: Option<(KingWeight, Option<Position<G>>)>,
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
    let (outcome, certificate) = outcome_of(&pos, searcher, index, phase2, known_of(sampler));
    Evaluated {
        position: pos,
        conditional: None,
        outcome,
        certificate,
    }
}

/// The conditional estimator's [`evaluate_sample`] (docs/METHOD.md §10.8): the sample's
/// king group and its weight, then the filters, the predecessor test and (if selected in
/// proportion to the weight) the search, on the group's position with White's king on a
/// safe square chosen uniformly by a hash of `(seed, index)`.
pub fn evaluate_conditional<G: Game, S: SampleSource<G>>(
    sampler: &S,
    searcher: &mut Searcher<G>,
    index: u64,
    phase2: Phase2,
) -> Evaluated<G> {
    let pos = sampler.sample(index);
    let (weight, chosen, outcome, certificate) =
        conditional_of(&pos, searcher, index, phase2, known_of(sampler));
    Evaluated {
        position: pos,
        conditional: Some((weight, chosen)),
        outcome,
        certificate,
    }
}

/// [`evaluate_conditional`] for the run: the outcome and the weight only.
pub(crate) fn evaluate_conditional_outcome<G: Game, S: SampleSource<G>>(
    sampler: &S,
    searcher: &mut Searcher<G>,
    index: u64,
    phase2: Phase2,
) -> (SampleOutcome, KingWeight) {
    let pos = sampler.sample(index);
    let (weight, _, outcome, _) = conditional_of(&pos, searcher, index, phase2, known_of(sampler));
    (outcome, weight)
}

/// The king group of `pos`, its weight, the chosen position and its outcome.
#[inline(always)]
fn conditional_of<G: Game>(
    pos: &Position<G>,
    searcher: &mut Searcher<G>,
    index: u64,
    phase2: Phase2,
    known: Known,
) -> (
    KingWeight,
    Option<Position<G>>,
    SampleOutcome,
    Option<Certificate<G>>,
) {
    let Some(group) = KingGroup::of(pos) else {
        // Samples of a candidate space always have both kings.
        unreachable!("a sample without both kings: {pos:?}");
    };
    let weight = group.weight();
    let chosen = conditional::chosen_square(group.safe, phase2.seed, index)
        .and_then(|sq| pos.with_king_on(Color::White, sq));
    let (outcome, certificate) = match &chosen {
        None => (SampleOutcome::NoSafeSquare, None),
        Some(y) => {
            let selected =
                |i| conditional::phase2_selected_weighted(phase2.seed, i, phase2.rate, weight);
            // The chosen square is safe: the check filter holds by construction.
            let known = Known {
                check: true,
                ..known
            };
            outcome_with(y, searcher, index, Some(&selected), known)
        }
    };
    (weight, chosen, outcome, certificate)
}

fn outcome_of<G: Game>(
    pos: &Position<G>,
    searcher: &mut Searcher<G>,
    index: u64,
    phase2: Option<Phase2>,
    known: Known,
) -> (SampleOutcome, Option<Certificate<G>>) {
    match phase2 {
        Some(p) => {
            let selected = |i| phase2_selected(p.seed, i, p.rate);
            outcome_with(pos, searcher, index, Some(&selected), known)
        }
        None => outcome_with(pos, searcher, index, None, known),
    }
}

/// The filters, then with two-phase sampling (`selected` decides phase 2) the predecessor
/// test, then the search.
fn outcome_with<G: Game>(
    pos: &Position<G>,
    searcher: &mut Searcher<G>,
    index: u64,
    selected: Option<&dyn Fn(u64) -> bool>,
    known: Known,
) -> (SampleOutcome, Option<Certificate<G>>) {
    // The filters in order (docs/METHOD.md §5), those known to pass left out.
    if !filters::mirror_ok(pos) {
        return (SampleOutcome::Mirror, None);
    }
    debug_assert!(!known.placement || filters::placement_ok(pos), "{pos:?}");
    if !known.placement && !filters::placement_ok(pos) {
        return (SampleOutcome::Placement, None);
    }
    debug_assert!(!known.check || filters::check_ok(pos), "{pos:?}");
    if !known.check && !filters::check_ok(pos) {
        return (SampleOutcome::Check, None);
    }
    if let Some(selected) = selected {
        let rules = searcher.config().rules;
        if !is_kk(pos) && !shogi_retro::has_predecessor(pos, rules) {
            return (SampleOutcome::NoPredecessor, None);
        }
        if !selected(index) {
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
