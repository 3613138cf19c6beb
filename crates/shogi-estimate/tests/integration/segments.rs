//! Runs made of segments (docs/METHOD.md §10.5): every session of a run is a segment with its
//! own counters, binary and block digests; recounts compare them exactly, a resume with other
//! counting code recounts first, and files of format 2 convert into segments.

use super::runs::{options, tmp};
use core::ops::ControlFlow;
use shogi_core::GameKind;
use shogi_estimate::{
    blocks, check_resume, choose_blocks, run, run_plan, upgrade, Binary, EstimateError, Method,
    RunConfig, RunEnd, RunState, SegmentFacts, Shard, BLOCK, FORMAT_2,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A shard of about 12,000 Mini Shogi samples that straddles the block boundary at 2^24, so
/// that small runs exercise blocks cut by segments and by the grid.
fn straddling() -> RunConfig {
    let mut c = RunConfig::new(GameKind::Mini, 2 * BLOCK).with_method(Method::Conditional);
    c.seed = 11;
    // Phase 2 at 0.2: some hundreds of searches, a few unreachable.
    c.phase2_rate = Some(0.2);
    c.shard = Shard {
        index: 1397,
        count: 2795,
    };
    let r = c.range();
    assert!(r.start < BLOCK && BLOCK < r.end, "{r:?}");
    c
}

/// Runs `state` in sessions that stop after `stops[k]` batches each (the last runs to the
/// end), as kills would, each resuming the previous one's state.
fn in_sessions(config: RunConfig, batch: u64, stops: &[usize]) -> RunState {
    let mut state = RunState::new(config);
    for &n in stops {
        let cancel = Arc::new(AtomicBool::new(false));
        let mut o = options(2, batch);
        o.cancel = Some(Arc::clone(&cancel));
        let mut left = n;
        let end = run(&mut state, &o, |_| {
            left = left.saturating_sub(1);
            if left == 0 {
                cancel.store(true, Ordering::SeqCst);
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(end, RunEnd::Cancelled);
    }
    let end = run(
        &mut state,
        &options(2, batch),
        |_| ControlFlow::Continue(()),
    )
    .unwrap();
    assert_eq!(end, RunEnd::Complete);
    state
}

/// The digest of every grid block of a run, its segments' partial blocks added up.
fn grid_digests(s: &RunState) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for seg in &s.segments {
        for (r, d) in blocks(seg.start, seg.end).zip(seg.digests.as_ref().unwrap()) {
            let key = r.start / BLOCK;
            match out.last_mut() {
                Some((k, sum)) if *k == key => *sum = sum.wrapping_add(*d),
                _ => out.push((key, *d)),
            }
        }
    }
    out
}

#[test]
fn the_segments_of_a_run_add_up_to_an_uninterrupted_run() {
    let whole = in_sessions(straddling(), 2048, &[]);
    assert_eq!(whole.segments.len(), 1);
    assert_eq!(whole.segments[0].digests.as_ref().unwrap().len(), 2);
    let split = in_sessions(straddling(), 1024, &[2, 3]);
    assert_eq!(split.segments.len(), 3);
    split.check().unwrap();
    assert_eq!(split.counters, whole.counters);
    assert_eq!(grid_digests(&split), grid_digests(&whole));
    let mut sum = shogi_estimate::Counters::new_conditional();
    for s in &split.segments {
        sum.merge(&s.counters).unwrap();
        assert_eq!(s.binary, Binary::this());
        assert!(s.started.is_some() && s.ended.is_some());
    }
    assert_eq!(sum, split.counters);
    // Through the file and back, the segments are what was written.
    let path = tmp("segments-roundtrip.json");
    split.save(&path).unwrap();
    assert_eq!(RunState::load(&path).unwrap(), split);
}

#[test]
fn recounts_find_every_planted_difference() {
    let state = in_sessions(straddling(), 1024, &[3]);
    assert!(
        state.counters.unreachable > 0,
        "no unreachable sample to plant on"
    );
    let whole: Vec<_> = (0..state.segments.len())
        .map(|i| (i, state.segments[i].start, state.segments[i].end, true))
        .collect();
    let ok = run_plan(&state, &whole, 2, &mut |_| ()).unwrap();
    assert!(ok.iter().all(|r| r.difference.is_none()), "{ok:?}");
    let pool: Vec<_> = state.segments.iter().enumerate().collect();
    let chosen = choose_blocks(&pool, 1, 7);
    assert_eq!(chosen.len(), 1);
    let plan: Vec<_> = choose_blocks(&pool, u64::MAX, 7)
        .into_iter()
        .map(|(i, a, b)| (i, a, b, false))
        .collect();
    assert_eq!(plan.len(), 3, "two segments, one cut by the grid: {plan:?}");
    let ok = run_plan(&state, &plan, 1, &mut |_| ()).unwrap();
    assert!(ok.iter().all(|r| r.difference.is_none()), "{ok:?}");

    // A digest changed: the block recount and the whole recount both name it.
    let mut bad = state.clone();
    bad.segments[1].digests.as_mut().unwrap()[0] ^= 1;
    let r = run_plan(&bad, &plan, 2, &mut |_| ()).unwrap();
    let d: Vec<_> = r.iter().filter(|r| r.difference.is_some()).collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].segment, 1);
    assert!(d[0].difference.as_ref().unwrap().contains("digest"));
    let r = run_plan(&bad, &whole, 2, &mut |_| ()).unwrap();
    assert!(
        r[1].difference.as_ref().unwrap().contains("digest"),
        "{r:?}"
    );

    // A counter changed (consistently, in the segment and the run): the whole recount says
    // which.
    let mut bad = state.clone();
    bad.segments[0].counters.expanded += 1;
    bad.counters.expanded += 1;
    bad.check().unwrap();
    let r = run_plan(&bad, &whole, 2, &mut |_| ()).unwrap();
    let diff = r[0].difference.as_deref().unwrap();
    assert!(diff.contains("`expanded`"), "{diff}");
    assert!(r[1].difference.is_none());
}

#[test]
fn a_resume_with_other_counting_code_recounts_and_refuses_a_planted_difference() {
    let state = in_sessions(straddling(), 1024, &[3]);
    // The same code: nothing to check.
    assert_eq!(check_resume(&state, 2, 1, &mut |_, _| ()).unwrap(), None);
    // Another fingerprint: the last segment is recounted (whole, being small), and passes.
    let mut other = state.clone();
    other.segments.last_mut().unwrap().binary.fingerprint = Some("0".repeat(64));
    let check = check_resume(&other, 2, 1, &mut |_, _| ()).unwrap().unwrap();
    assert_eq!(check.samples, state.segments.last().unwrap().samples());
    // A planted difference in the last segment: refused, naming the samples.
    let mut planted = other.clone();
    planted
        .segments
        .last_mut()
        .unwrap()
        .digests
        .as_mut()
        .unwrap()[0] ^= 1 << 40;
    let err = check_resume(&planted, 2, 1, &mut |_, _| ()).unwrap_err();
    assert!(matches!(err, EstimateError::Recount(_)), "{err}");
    assert!(err.to_string().contains("counts differently"), "{err}");
    // A segment without digests (converted from format 2) is recounted whole.
    let mut legacy = other.clone();
    let last = legacy.segments.last_mut().unwrap();
    last.digests = None;
    last.binary.fingerprint = None;
    last.counters.generated += 1;
    legacy.counters.generated += 1;
    legacy.check().unwrap();
    let err = check_resume(&legacy, 2, 1, &mut |_, _| ()).unwrap_err();
    assert!(err.to_string().contains("`generated`"), "{err}");
}

/// The text of `state` as a file of format 2: the content without the segments, sealed
/// under the old tag.
fn as_format_2(state: &RunState) -> String {
    let v: serde_json::Value = serde_json::from_str(&state.to_file_text()).unwrap();
    let mut content = v["content"].clone();
    let o = content.as_object_mut().unwrap();
    o.remove("segments");
    o.remove("block_samples");
    let sha = shogi_estimate::checksum_with(FORMAT_2, &content);
    serde_json::json!({"format": FORMAT_2, "content": content, "sha256": sha}).to_string()
}

#[test]
fn files_of_format_2_convert_into_segments_that_keep_their_checksums() {
    // Checkpoints of one run at three points, written as format 2 would have them.
    let config = straddling();
    let r = config.range();
    let mut points = Vec::new();
    let mut state = RunState::new(config.clone());
    for stop in [r.start + 3_000, r.start + 7_000, r.end] {
        // Run to `stop` by cancelling at the first batch past it.
        let cancel = Arc::new(AtomicBool::new(false));
        let mut o2 = options(2, 512);
        o2.cancel = Some(Arc::clone(&cancel));
        run(&mut state, &o2, |s| {
            if s.next >= stop {
                cancel.store(true, Ordering::SeqCst);
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        let text = as_format_2(&state);
        let read = RunState::from_file_bytes(text.as_bytes()).unwrap();
        assert!(read.format_2_sha256.is_some());
        assert_eq!(read.segments.len(), 1);
        assert_eq!(read.counters, state.counters);
        points.push(read);
    }
    let last = points.pop().unwrap();
    assert!(last.complete);
    let facts = vec![
        SegmentFacts {
            commit: Some("aaaaaaa".into()),
            note: None,
        },
        SegmentFacts::default(),
        SegmentFacts {
            commit: Some("bbbbbbb".into()),
            note: Some("checked on 2e6 samples".into()),
        },
    ];
    let up = upgrade(&last, &points, &facts).unwrap();
    assert_eq!(up.segments.len(), 3);
    assert_eq!(up.counters, last.counters);
    assert_eq!(up.format_2_sha256, None);
    assert_eq!(up.segments[0].binary.commit.as_deref(), Some("aaaaaaa"));
    let note = up.segments[2].note.as_deref().unwrap();
    assert!(
        note.contains(points[1].format_2_sha256.as_deref().unwrap()),
        "{note}"
    );
    assert!(
        note.contains(last.format_2_sha256.as_deref().unwrap()),
        "{note}"
    );
    assert!(note.contains("checked on 2e6 samples"));
    // Each converted segment recounts exactly.
    let whole: Vec<_> = (0..3)
        .map(|i| (i, up.segments[i].start, up.segments[i].end, true))
        .collect();
    let r = run_plan(&up, &whole, 2, &mut |_| ()).unwrap();
    assert!(r.iter().all(|r| r.difference.is_none()), "{r:?}");
    // Through a file of the current format, unchanged.
    let path = tmp("upgraded.json");
    up.save(&path).unwrap();
    assert_eq!(RunState::load(&path).unwrap(), up);
    // Checkpoints out of place, or of another run, are refused.
    let twice = vec![points[0].clone(), points[0].clone()];
    assert!(upgrade(&last, &twice, &[]).is_err());
    let mut other = points[0].clone();
    other.config.seed += 1;
    assert!(upgrade(&last, &[other], &[]).is_err());
    assert!(
        upgrade(&up, &[], &[]).is_err(),
        "a file of format 3 needs no conversion"
    );
}
