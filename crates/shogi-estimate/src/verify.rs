//! Recounting a run's segments with the binary at hand (docs/METHOD.md §10.5): a segment
//! whole, its counters compared field by field, or blocks chosen at random by sample index,
//! their digests compared. `shogi-count verify-run` reports every recount; `estimate
//! --resume` with a binary whose counting code differs from the last segment's recounts a
//! slice of that segment first and refuses to continue on any difference.

use crate::counters::Counters;
use crate::error::EstimateError;
use crate::pipeline::SampleSource;
use crate::run::{with_source, Engine, WithSource};
use crate::segment::{blocks, Binary, Segment};
use crate::state::RunState;
use crate::stream::mix;
use serde::Serialize;
use shogi_core::{Game, GameKind, MiniShogi, Shogi};

/// The least a resume recounts of the last segment when its binary counted with other code:
/// 10^7 samples hold some 4,000 searched samples in Shogi and 40,000 in Mini Shogi, so the
/// search is recounted too, not only phase 1.
pub const RESUME_RECOUNT: u64 = 10_000_000;

/// One recount: which samples, of which segment, and whether they came out the same.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recount {
    /// The segment's index in the file.
    pub segment: usize,
    /// The first sample recounted.
    pub start: u64,
    /// One past the last.
    pub end: u64,
    /// `segment` (the whole segment, counters compared) or `block` (a block, digest
    /// compared).
    pub unit: &'static str,
    /// The binary that counted the segment.
    pub counted_by: String,
    /// `None` when the recount gave what the file holds, else what differs.
    pub difference: Option<String>,
}

/// What to recount.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// These segments.
    Segments(Vec<usize>),
    /// This many segments, drawn at random.
    RandomSegments(usize),
    /// Every segment.
    All,
}

/// Chooses, for a random spot check, blocks of `segments` that together hold at least
/// `samples` samples (or all of their blocks): sample indices are drawn uniformly over the
/// segments' ranges and each brings its block in. Segments without digests are passed
/// over. Returns `(segment, start, end)` in sample order.
pub fn choose_blocks(
    segments: &[(usize, &Segment)],
    samples: u64,
    seed: u64,
) -> Vec<(usize, u64, u64)> {
    let usable: Vec<(usize, &Segment)> = segments
        .iter()
        .copied()
        .filter(|(_, s)| s.digests.is_some() && s.samples() > 0)
        .collect();
    let total: u64 = usable.iter().map(|(_, s)| s.samples()).sum();
    let mut chosen: Vec<(usize, u64, u64)> = Vec::new();
    let mut got = 0u64;
    let mut h = mix(seed ^ 0x7665_7269_6679_0000);
    let all_blocks: usize = usable
        .iter()
        .map(|(_, s)| blocks(s.start, s.end).count())
        .sum();
    while got < samples && chosen.len() < all_blocks {
        h = mix(h);
        // A uniform index below `total`; the bias of the modulo is below 2^-20 for any
        // run of fewer than 2^44 samples, and this choice needs no exactness.
        let mut at = h % total;
        let mut pick = None;
        for (i, s) in &usable {
            if at < s.samples() {
                let x = s.start + at;
                let r = blocks(s.start, s.end)
                    .find(|r| r.contains(&x))
                    .expect("a sample of the segment lies in one of its blocks");
                pick = Some((*i, r.start, r.end));
                break;
            }
            at -= s.samples();
        }
        let pick = pick.expect("the index lies in some segment");
        if !chosen.contains(&pick) {
            got += pick.2 - pick.1;
            chosen.push(pick);
        }
    }
    chosen.sort_by_key(|c| c.1);
    chosen
}

/// The segments a choice names, checked against the file.
pub fn chosen_segments(
    state: &RunState,
    choice: &Choice,
    seed: u64,
) -> Result<Vec<usize>, EstimateError> {
    let n = state.segments.len();
    Ok(match choice {
        Choice::All => (0..n).collect(),
        Choice::Segments(v) => {
            for &i in v {
                if i >= n {
                    return Err(EstimateError::Config(format!(
                        "segment {i} does not exist: the file has {n} segment{} (0 to {})",
                        if n == 1 { "" } else { "s" },
                        n.saturating_sub(1)
                    )));
                }
            }
            let mut v = v.clone();
            v.sort_unstable();
            v.dedup();
            v
        }
        Choice::RandomSegments(k) => {
            let mut order: Vec<usize> = (0..n).collect();
            let mut h = mix(seed ^ 0x7365_676d_656e_7400);
            // Fisher–Yates with the stream above; the first k are the choice.
            for i in (1..n).rev() {
                h = mix(h);
                order.swap(i, (h % (i as u64 + 1)) as usize);
            }
            let mut v: Vec<usize> = order.into_iter().take(*k).collect();
            v.sort_unstable();
            v
        }
    })
}

/// Recounts the ranges `(a, b)` of the run `state`, in order, each with its counters and the
/// digests of the blocks it meets. `progress` sees the samples done over all ranges.
pub fn recount(
    state: &RunState,
    ranges: &[(u64, u64)],
    threads: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<(Counters, Vec<u64>)>, EstimateError> {
    struct Work<'a> {
        state: &'a RunState,
        ranges: &'a [(u64, u64)],
        threads: usize,
        progress: &'a mut dyn FnMut(u64),
    }
    impl<G: Game> WithSource<G> for Work<'_> {
        type Out = Result<Vec<(Counters, Vec<u64>)>, EstimateError>;
        fn with<S: SampleSource<G>>(self, source: &S) -> Self::Out {
            let engine = Engine::new(&self.state.config, source, self.threads)?;
            let origin = self.state.config.range().start;
            let mut done = 0;
            let mut out = Vec::with_capacity(self.ranges.len());
            for &(a, b) in self.ranges {
                let progress = &mut *self.progress;
                out.push(engine.recount(origin, a, b, &mut |n| progress(done + n))?);
                done += b - a;
            }
            Ok(out)
        }
    }
    let work = Work {
        state,
        ranges,
        threads,
        progress,
    };
    match state.config.game {
        GameKind::Shogi => with_source::<Shogi, _>(&state.config, work)?,
        GameKind::Mini => with_source::<MiniShogi, _>(&state.config, work)?,
    }
}

/// The first field in which two sets of counters differ, with both values.
pub fn counters_difference(file: &Counters, recount: &Counters) -> Option<String> {
    if file == recount {
        return None;
    }
    let a = serde_json::to_value(file).expect("counters serialise");
    let b = serde_json::to_value(recount).expect("counters serialise");
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return Some("the counters differ".into());
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        let (x, y) = (a.get(k), b.get(k));
        if x != y {
            let show = |v: Option<&serde_json::Value>| {
                let t = v.map_or_else(|| "absent".to_string(), |v| v.to_string());
                if t.len() > 120 {
                    format!(
                        "{}…",
                        &t[..t.char_indices().nth(120).map_or(t.len(), |c| c.0)]
                    )
                } else {
                    t
                }
            };
            return Some(format!(
                "counter `{k}`: the file has {}, the recount {}",
                show(x),
                show(y)
            ));
        }
    }
    Some("the counters differ".into())
}

/// Recounts what `plan` names: `(segment, start, end, whole)` (a whole segment, or a block
/// of one), comparing with the file.
pub fn run_plan(
    state: &RunState,
    plan: &[(usize, u64, u64, bool)],
    threads: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<Recount>, EstimateError> {
    let ranges: Vec<(u64, u64)> = plan.iter().map(|p| (p.1, p.2)).collect();
    let results = recount(state, &ranges, threads, progress)?;
    let mut out = Vec::with_capacity(plan.len());
    for (&(i, a, b, whole), (counters, digests)) in plan.iter().zip(results) {
        let seg = &state.segments[i];
        let difference = if whole {
            let mut d = counters_difference(&seg.counters, &counters);
            if d.is_none() {
                if let Some(file) = &seg.digests {
                    if let Some(k) = file.iter().zip(&digests).position(|(x, y)| x != y) {
                        let r = blocks(seg.start, seg.end)
                            .nth(k)
                            .expect("a block per digest");
                        d = Some(format!(
                            "the digest of block {}..{}: the file has {:016x}, the recount {:016x}",
                            r.start, r.end, file[k], digests[k]
                        ));
                    }
                }
            }
            d
        } else {
            let k = blocks(seg.start, seg.end)
                .position(|r| r.start == a && r.end == b)
                .expect("a chosen block is a block of its segment");
            let file = seg
                .digests
                .as_ref()
                .expect("blocks are chosen with digests")[k];
            let got = digests.first().copied().unwrap_or(0);
            (file != got)
                .then(|| format!("the digest: the file has {file:016x}, the recount {got:016x}"))
        };
        out.push(Recount {
            segment: i,
            start: a,
            end: b,
            unit: if whole { "segment" } else { "block" },
            counted_by: seg.binary.short(),
            difference,
        });
    }
    Ok(out)
}

/// What a resume checked before continuing with a binary whose counting code differs from the
/// last segment's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResumeCheck {
    /// The recounts, all equal (a difference is an error).
    pub recounts: Vec<Recount>,
    /// The samples recounted.
    pub samples: u64,
}

/// Whether a resume with other counting code recounts segment `last` whole rather than a
/// random slice of its blocks: when it has no block digests to compare a slice with (a
/// converted segment), or is no larger than the slice would be.
pub fn resume_recounts_whole(last: &Segment) -> bool {
    last.digests.is_none() || last.samples() <= RESUME_RECOUNT
}

/// Before a run continues: if this binary's counting code differs from the last segment's
/// (or the last segment's is unknown), recount a random slice of that segment (at least
/// [`RESUME_RECOUNT`] samples in whole blocks, or the whole segment when it has no digests or
/// is smaller) and refuse on any difference. `None` when nothing needed checking.
pub fn check_resume(
    state: &RunState,
    threads: usize,
    seed: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Option<ResumeCheck>, EstimateError> {
    let Some(last) = state.segments.last() else {
        return Ok(None);
    };
    if Binary::this().counts_as(&last.binary) {
        return Ok(None);
    }
    let i = state.segments.len() - 1;
    let plan: Vec<(usize, u64, u64, bool)> = if resume_recounts_whole(last) {
        vec![(i, last.start, last.end, true)]
    } else {
        choose_blocks(&[(i, last)], RESUME_RECOUNT, seed)
            .into_iter()
            .map(|(i, a, b)| (i, a, b, false))
            .collect()
    };
    let total: u64 = plan.iter().map(|p| p.2 - p.1).sum();
    let recounts = run_plan(state, &plan, threads, &mut |n| progress(n, total))?;
    if let Some(bad) = recounts.iter().find(|r| r.difference.is_some()) {
        return Err(EstimateError::Recount(format!(
            "this binary, {}, counts differently from the one that counted the run's last \
             segment, {}: recounting samples {}..{} gave another result ({}); the run cannot \
             continue with it (use the binary of that segment, or start a new run)",
            Binary::this().short(),
            bad.counted_by,
            bad.start,
            bad.end,
            bad.difference.as_deref().unwrap_or("")
        )));
    }
    Ok(Some(ResumeCheck {
        recounts,
        samples: total,
    }))
}
