//! One sample through the pipeline of SPEC §5 and §7: unrank, mirror, placement, check,
//! search.

use crate::counters::SampleOutcome;
use core::cmp::Ordering;
use shogi_core::Game;
use shogi_rank::filters::{self, compare_boards, FilterOutcome};
use shogi_rank::Sampler;
use shogi_reach::{Searcher, Verdict};

/// Draws sample `index` and takes it as far through the pipeline as it goes.
pub fn evaluate<G: Game>(
    sampler: &Sampler<'_, G>,
    searcher: &mut Searcher<G>,
    index: u64,
) -> SampleOutcome {
    let pos = sampler.sample(index);
    match filters::classify(&pos) {
        FilterOutcome::Mirror => return SampleOutcome::Mirror,
        FilterOutcome::Placement => return SampleOutcome::Placement,
        FilterOutcome::Check => return SampleOutcome::Check,
        FilterOutcome::Pass => {}
    }
    let out = searcher.search(&pos);
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
