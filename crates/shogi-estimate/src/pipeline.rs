//! One sample through the pipeline of docs/METHOD.md §5 and §7: unrank, mirror, placement, check,
//! search.

use crate::counters::SampleOutcome;
use core::cmp::Ordering;
use shogi_core::Game;
use shogi_rank::filters::compare_boards;
use shogi_rank::Sampler;
use shogi_reach::{classify, Searcher, Stage, Verdict};

/// Draws sample `index` and takes it as far through the pipeline as it goes.
pub fn evaluate<G: Game>(
    sampler: &Sampler<'_, G>,
    searcher: &mut Searcher<G>,
    index: u64,
) -> SampleOutcome {
    let pos = sampler.sample(index);
    let class = classify(searcher, &pos);
    let Some(out) = class.search else {
        return match class.stage {
            Stage::NonCanonical => SampleOutcome::Mirror,
            Stage::IllegalPlacement => SampleOutcome::Placement,
            _ => SampleOutcome::Check,
        };
    };
    let (expanded, generated) = (out.stats.expanded, out.stats.generated);
    match out.verdict {
        Verdict::Reachable => SampleOutcome::Reachable {
            plies: out.certificate.map_or(0, |c| c.moves.len() as u32),
            expanded,
            generated,
            symmetric: compare_boards(&pos.hflip(), &pos) == Ordering::Equal,
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
    }
}
