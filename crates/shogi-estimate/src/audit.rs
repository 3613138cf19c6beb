//! The samples of a run, one by one, as the estimate counts them: so that anyone can audit
//! a run's verdicts with their own tools (`shogi-count sample`, `testdata/samples/`).

use crate::config::{Estimator, RunConfig};
use crate::counters::SampleOutcome;
use crate::error::EstimateError;
use crate::pipeline::{evaluate_conditional, evaluate_sample, Phase2, SampleSource};
use crate::run::{with_source, WithSource};
use core::ops::ControlFlow;
use serde::Serialize;
use shogi_core::{Game, GameKind, MiniShogi, Shogi};
use shogi_rank::{full_table, RankTable};
use shogi_reach::Searcher;

/// One sample of a run: where it is in the sample sequence, what it is and what the
/// pipeline made of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SampleRecord {
    /// The sample index (sample `i` of a seed is the same position on every machine).
    pub index: u64,
    /// Its rank in the candidate space `P_K` of the run's material (docs/METHOD.md §4), in
    /// decimal: `shogi-count unrank` gives the position back.
    pub rank: String,
    /// The position.
    pub sfen: String,
    /// The verdict the estimate counted: `non-canonical`, `illegal-placement`,
    /// `opponent-in-check` (the filters), `no-safe-square` (the conditional estimator: every
    /// square of White's king attacked), `no-predecessor` (two-phase sampling: no legal
    /// predecessor, so unreachable without a search), `not-searched` (two-phase sampling:
    /// has a legal predecessor, not selected for phase 2), or the search's `reachable`,
    /// `unreachable`, `unknown`.
    pub verdict: &'static str,
    /// Nodes the search expanded (0 without a search).
    pub expanded: u64,
    /// The conditional estimator (docs/METHOD.md §10.8): the squares of White's king in the
    /// sample's group (`g`) ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub king_squares: Option<u8>,
    /// ... those of them Black does not attack (`k`; the sample's weight is `k / g`) ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safe_squares: Option<u8>,
    /// ... and the position the verdict is of: the sample with White's king moved to the
    /// safe square chosen for it (absent when no square is safe).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    /// For a reachable sample, the KK position the search reached ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kk: Option<String>,
    /// ... and the USI moves that lead from it to the sample.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<String>>,
}

/// The name of an outcome in [`SampleRecord::verdict`].
pub fn verdict_name(outcome: &SampleOutcome) -> &'static str {
    match outcome {
        SampleOutcome::Mirror => "non-canonical",
        SampleOutcome::Placement => "illegal-placement",
        SampleOutcome::Check => "opponent-in-check",
        SampleOutcome::NoSafeSquare => "no-safe-square",
        SampleOutcome::NoPredecessor => "no-predecessor",
        SampleOutcome::NotSearched => "not-searched",
        SampleOutcome::Reachable { .. } => "reachable",
        SampleOutcome::Unreachable { .. } => "unreachable",
        SampleOutcome::Unknown { .. } => "unknown",
    }
}

/// Calls `each` on the records of samples `first .. first + count` of the run `config`
/// (its game, material, space, seed, phase-2 rate and search settings; its sample count
/// and shard play no part), in order, until it breaks.
pub fn samples(
    config: &RunConfig,
    first: u64,
    count: u64,
    each: impl FnMut(SampleRecord) -> ControlFlow<()>,
) -> Result<(), EstimateError> {
    match config.game {
        GameKind::Shogi => samples_of::<Shogi>(config, first, count, each),
        GameKind::Mini => samples_of::<MiniShogi>(config, first, count, each),
    }
}

fn samples_of<G: Game>(
    config: &RunConfig,
    first: u64,
    count: u64,
    each: impl FnMut(SampleRecord) -> ControlFlow<()>,
) -> Result<(), EstimateError> {
    let material = config.material();
    let owned;
    let ranks: &RankTable<G> = if material == G::MATERIAL {
        full_table::<G>()
    } else {
        owned = RankTable::<G>::new(&material)
            .map_err(|e| EstimateError::Config(format!("material {:?}: {e}", material.0)))?;
        &owned
    };
    struct Audit<'a, G: Game, F> {
        config: &'a RunConfig,
        ranks: &'a RankTable<G>,
        first: u64,
        count: u64,
        each: F,
    }
    impl<G: Game, F: FnMut(SampleRecord) -> ControlFlow<()>> WithSource<G> for Audit<'_, G, F> {
        type Out = Result<(), EstimateError>;
        fn with<S: SampleSource<G>>(mut self, source: &S) -> Self::Out {
            let mut searcher = Searcher::<G>::new(self.config.search_config());
            let phase2 = self.config.phase2_rate.map(|rate| Phase2 {
                seed: self.config.seed,
                rate,
            });
            let end = self.first.saturating_add(self.count);
            let conditional = self.config.estimator == Estimator::Conditional;
            if conditional && phase2.is_none() {
                return Err(EstimateError::Config(
                    self.config.check_estimator().unwrap_err(),
                ));
            }
            for index in self.first..end {
                let e = match phase2 {
                    Some(p) if conditional => evaluate_conditional(source, &mut searcher, index, p),
                    _ => evaluate_sample(source, &mut searcher, index, phase2),
                };
                let rank = self.ranks.rank(&e.position).map_err(|err| {
                    EstimateError::Config(format!("sample {index} has no rank: {err}"))
                })?;
                let expanded = match e.outcome {
                    SampleOutcome::Reachable { expanded, .. }
                    | SampleOutcome::Unreachable { expanded, .. }
                    | SampleOutcome::Unknown { expanded, .. } => expanded,
                    _ => 0,
                };
                let record = SampleRecord {
                    index,
                    rank: rank.to_string(),
                    sfen: e.position.to_sfen(),
                    verdict: verdict_name(&e.outcome),
                    expanded,
                    king_squares: e.conditional.as_ref().map(|(w, _)| w.squares),
                    safe_squares: e.conditional.as_ref().map(|(w, _)| w.safe),
                    chosen: e
                        .conditional
                        .as_ref()
                        .and_then(|(_, y)| y.as_ref().map(|y| y.to_sfen())),
                    kk: e.certificate.as_ref().map(|c| c.kk.to_sfen()),
                    moves: e.certificate.as_ref().map(|c| c.usi_moves()),
                };
                if (self.each)(record).is_break() {
                    break;
                }
            }
            Ok(())
        }
    }
    with_source::<G, _>(
        config,
        Audit {
            config,
            ranks,
            first,
            count,
            each,
        },
    )?
}
