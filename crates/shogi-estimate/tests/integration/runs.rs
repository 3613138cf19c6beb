//! Runs are reproducible: the counters depend on the configuration only, not on threads,
//! batches, interruptions or shards; bad state files are refused with a clear error.

use core::ops::ControlFlow;
use shogi_core::GameKind;
use shogi_estimate::{
    merge, phase2_selected, run, Estimate, EstimateError, RunConfig, RunEnd, RunOptions, RunState,
    Shard, Space,
};
use shogi_verify::rng::{below, test_rng};
use std::path::{Path, PathBuf};

fn config(game: GameKind, samples: u64, seed: u64) -> RunConfig {
    let mut c = RunConfig::new(game, samples);
    c.seed = seed;
    c.figure_samples = samples / 2;
    c
}

pub fn options(threads: usize, batch: u64) -> RunOptions {
    let mut o = RunOptions::new(threads);
    o.batch = batch;
    o
}

pub fn complete(config: RunConfig, opts: &RunOptions) -> RunState {
    let mut s = RunState::new(config);
    assert_eq!(
        run(&mut s, opts, |_| ControlFlow::Continue(())).unwrap(),
        RunEnd::Complete
    );
    s
}

pub fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shogi-estimate-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn counters_do_not_depend_on_threads_or_batches() {
    for game in [GameKind::Mini, GameKind::Shogi] {
        let n = if game == GameKind::Mini {
            30_000
        } else {
            60_000
        };
        let a = complete(config(game, n, 5), &options(1, 256));
        let b = complete(config(game, n, 5), &options(2, 4096));
        let c = complete(config(game, n, 5), &options(3, 1000));
        assert_eq!(a.counters, b.counters);
        assert_eq!(a.counters, c.counters);
        assert_eq!(a.counters.samples, n);
        assert!(a.counters.reachable > 0 && a.counters.unreachable > 0);
        assert!(!a.counters.figure.is_empty());
        a.counters.check().unwrap();
        // Another seed gives other samples.
        let d = complete(config(game, n, 6), &options(2, 4096));
        assert_ne!(a.counters, d.counters);
    }
}

#[test]
fn resume_after_a_kill_counts_every_sample_once() {
    let full = complete(config(GameKind::Mini, 40_000, 9), &options(2, 2048));
    // Kill after a pseudo-random number of batches, several times over, checkpointing after
    // every batch or only now and then.
    let mut rng = test_rng(12345);
    for every in [0, 3] {
        let path = tmp(&format!("resume-{every}.json"));
        let mut opts = options(2, 2048);
        opts.checkpoint = Some(path.clone());
        opts.checkpoint_every = std::time::Duration::from_millis(every);
        let cfg = config(GameKind::Mini, 40_000, 9);
        let mut state = RunState::new(cfg.clone());
        let mut kills = 0;
        loop {
            let mut left = below(&mut rng, 6);
            let end = run(&mut state, &opts, |_| {
                if left == 0 {
                    return ControlFlow::Break(());
                }
                left -= 1;
                ControlFlow::Continue(())
            })
            .unwrap();
            if end == RunEnd::Complete {
                break;
            }
            kills += 1;
            // What was not checkpointed is lost, as in a kill; continue from the file, or
            // from the start if no checkpoint was written yet.
            state = if path.exists() {
                RunState::resume(&path, &cfg).unwrap()
            } else {
                RunState::new(cfg.clone())
            };
        }
        assert!(kills >= 2, "the test interrupted the run");
        assert_eq!(state.counters, full.counters);
        let saved = RunState::load(&path).unwrap();
        assert!(saved.complete);
        assert_eq!(saved.counters, full.counters);
    }
}

#[test]
fn merged_shards_equal_the_single_run() {
    let single = complete(config(GameKind::Mini, 50_000, 3), &options(2, 4096));
    let mut files = Vec::new();
    for k in [2, 0, 3, 1] {
        let mut c = config(GameKind::Mini, 50_000, 3);
        c.shard = Shard { index: k, count: 4 };
        let s = complete(c, &options(1, 1024));
        let path = tmp(&format!("shard-{k}.json"));
        s.save(&path).unwrap();
        files.push((path.clone(), RunState::load(&path).unwrap()));
    }
    let merged = merge(&files, false).unwrap();
    let shards: Vec<u64> = merged.shards.iter().map(|s| s.index).collect();
    assert_eq!(shards, vec![0, 1, 2, 3]);
    assert!(merged.is_complete());
    assert_eq!(merged.threads, vec![1; 4]);
    assert_eq!(merged.counters, single.counters);
    assert_eq!(merged.config, single.config);
    // Duplicated, incomplete and foreign shards are refused.
    let twice = vec![files[0].clone(), files[1].clone(), files[0].clone()];
    let err = merge(&twice, true).unwrap_err().to_string();
    assert!(err.contains("appears twice"), "{err}");
    let mut other = config(GameKind::Mini, 50_000, 4);
    other.shard = Shard { index: 0, count: 4 };
    let foreign = (tmp("foreign.json"), complete(other, &options(1, 1024)));
    let err = merge(&[files[1].clone(), foreign], true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("seed"), "{err}");
    let mut partial = files[1].clone();
    partial.1 = RunState::new(partial.1.config.clone());
    let err = merge(&[files[0].clone(), partial.clone()], false)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("incomplete") && err.contains("--partial"),
        "{err}"
    );
    // With `partial`, an unfinished shard counts what it has done (here nothing) and the
    // rest of its range is missing, as is every shard not given.
    let m = merge(&[files[0].clone(), partial.clone()], true).unwrap();
    assert_eq!(m.counters, files[0].1.counters);
    let (r0, r1) = (files[0].1.config.range(), partial.1.config.range());
    assert!(m.missing.contains(&r1), "{:?}", m.missing);
    assert!(m
        .missing
        .iter()
        .all(|g| g.end <= r0.start || g.start >= r0.end));
    let missing: u64 = m.missing.iter().map(|g| g.end - g.start).sum();
    assert_eq!(missing, 50_000 - (r0.end - r0.start));
    // Shards of another split that share samples with these overlap.
    let shard = |k: u64| {
        files
            .iter()
            .find(|(_, s)| s.config.shard.index == k)
            .unwrap()
            .clone()
    };
    let mut half = config(GameKind::Mini, 50_000, 3);
    half.shard = Shard { index: 0, count: 2 };
    let half = (tmp("half.json"), complete(half, &options(1, 1024)));
    let err = merge(&[shard(0), shard(2), half.clone()], true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("overlaps shard"), "{err}");
    // ... while disjoint shards of different splits tile the run.
    let tiled = merge(&[half.clone(), shard(2)], true).unwrap();
    assert!(!tiled.is_complete());
    let all = merge(&[shard(3), half, shard(2)], false).unwrap();
    assert_eq!(all.counters, single.counters);
    // A gap is refused unless the merge is partial, and then named.
    let err = merge(&[shard(0), shard(3)], false).unwrap_err().to_string();
    assert!(err.contains("shard 1/4, shard 2/4"), "{err}");
    assert!(err.contains("--partial"), "{err}");
    let some = merge(&[shard(3), shard(1)], true).unwrap();
    assert_eq!(
        shogi_estimate::missing_text(&some.missing, 4, 50_000),
        "shard 0/4, shard 2/4"
    );
    assert_eq!(some.counters.samples, 25_000);
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

/// The file `text` edited by `edit` and given the checksum of its new content, as someone
/// editing it by hand with the checksum recomputed would: what is left to refuse it is the
/// schema and the checks of the counters.
fn resealed(text: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    edit(&mut v["content"]);
    v["sha256"] = shogi_estimate::checksum_of(&v["content"]).into();
    v.to_string()
}

#[test]
fn corrupt_and_mismatched_state_files_are_refused() {
    let cfg = config(GameKind::Mini, 5_000, 1);
    let s = complete(cfg.clone(), &options(1, 1024));
    let path = tmp("good.json");
    s.save(&path).unwrap();
    let good = std::fs::read_to_string(&path).unwrap();
    let expect = |text: &str, needle: &str| {
        let p = tmp("bad.json");
        write(&p, text);
        let err = RunState::load(&p).unwrap_err();
        assert!(matches!(err, EstimateError::Corrupt { .. }), "{err}");
        assert!(err.to_string().contains("bad.json"), "{err}");
        assert!(err.to_string().contains(needle), "{err} lacks {needle}");
    };
    expect("", "EOF");
    expect(&good[..good.len() / 2], "EOF");
    expect("{\"format\": 1}", "expected a string at line 1");
    expect(
        &good.replace(shogi_estimate::FORMAT, "shogi-count-estimate/0"),
        "format",
    );
    // An edit of any value breaks the checksum.
    let samples = format!("\"samples\": {}", s.counters.samples);
    // The counters come after the configuration, which also has a `samples`.
    let at = good.rfind(&samples).unwrap();
    let edited = format!(
        "{}\"samples\": 4999{}",
        &good[..at],
        &good[at + samples.len()..]
    );
    expect(&edited, "checksum");
    let reach = format!("\"reachable\": {}", s.counters.reachable);
    expect(&good.replace(&reach, "\"reachable\": 1"), "checksum");
    expect(
        &good.replace("\"complete\": true", "\"complete\": false"),
        "checksum",
    );
    expect(&good.replace("\"space\"", "\"spacE\""), "checksum");
    // A missing or an unknown field is an error, never a default, whatever the checksum.
    let config = |v: &mut serde_json::Value| v["config"].as_object_mut().unwrap().clone();
    expect(
        &resealed(&good, |v| {
            let mut c = config(v);
            c.remove("phase2_rate");
            v["config"] = c.into();
        }),
        "missing field `phase2_rate`",
    );
    expect(
        &resealed(&good, |v| v["counters"]["extra"] = 1.into()),
        "unknown field `extra`",
    );
    expect(
        &resealed(&good, |v| {
            let mut c = config(v);
            let space = c.remove("space").unwrap();
            c.insert("spacE".into(), space);
            v["config"] = c.into();
        }),
        "spacE",
    );
    // A file whose checksum was made anew over inconsistent content is still refused,
    // naming the counter.
    let mut bad = s.clone();
    bad.counters.samples -= 1;
    expect(&bad.to_file_text(), "samples counted");
    let mut bad = s.clone();
    bad.counters.reachable = 1;
    expect(&bad.to_file_text(), "reachable");
    let mut bad = s.clone();
    bad.complete = false;
    expect(&bad.to_file_text(), "completion");
    // A file from another configuration is refused by resume, naming the setting.
    let mut other = cfg.clone();
    other.seed = 2;
    let err = RunState::resume(&path, &other).unwrap_err();
    assert!(matches!(err, EstimateError::Mismatch { .. }));
    assert!(err.to_string().contains("seed"), "{err}");
    let mut other = cfg.clone();
    other.game = GameKind::Shogi;
    other.material = GameKind::Shogi.material().0;
    let err = RunState::resume(&path, &other).unwrap_err().to_string();
    assert!(err.contains("game"), "{err}");
    // A missing file is an I/O error naming the file.
    let err = RunState::load(&tmp("missing.json"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("missing.json"), "{err}");
}

/// Every one-byte change of a result file, finished or not, anywhere in it, is refused or
/// leaves the state (and so every report and every resumed run) exactly as it was.
#[test]
fn every_one_byte_mutation_is_refused_or_harmless() {
    let mut cfg = two_phase(GameKind::Mini, 3_000, 2, Space::PlacementLegal, 0.5);
    cfg.figure_samples = 40;
    let finished = complete(cfg.clone(), &options(1, 1024));
    let mut unfinished = RunState::new(cfg.clone());
    let mut left = 1;
    run(&mut unfinished, &options(1, 1024), |_| {
        left -= 1;
        if left < 0 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert!(!unfinished.complete && unfinished.next > 0);
    let space = shogi_estimate::space_size(&cfg).unwrap();
    for state in [finished, unfinished] {
        let text = state.to_file_text().into_bytes();
        let report = shogi_estimate::report_text(&state.config, &state.counters, 1.0, 1).unwrap();
        let (refused, accepted) = one_byte_changes(
            &text,
            |_| true,
            |s| {
                let r = shogi_estimate::report_text(&s.config, &s.counters, 1.0, 1).unwrap();
                assert_eq!(s, &state);
                assert_eq!(r, report);
            },
        );
        // The harmless ones are white space for white space.
        assert!(
            accepted < refused / 100,
            "{accepted} accepted, {refused} refused"
        );
        let _ = &space;
    }
}

/// Reads `text` with each of the bytes `which` selects set to each of its 255 other values;
/// `accepted` sees every state read. Returns the changes refused and accepted.
pub fn one_byte_changes(
    text: &[u8],
    which: impl Fn(usize) -> bool,
    mut accepted: impl FnMut(&RunState),
) -> (u64, u64) {
    let (mut refused, mut taken) = (0u64, 0u64);
    let mut bytes = text.to_vec();
    for i in (0..text.len()).filter(|&i| which(i)) {
        for b in (0..=255u8).filter(|&b| b != text[i]) {
            bytes[i] = b;
            match RunState::from_file_bytes(&bytes) {
                Err(_) => refused += 1,
                Ok(s) => {
                    taken += 1;
                    // Only white space for white space can leave every value as it was.
                    assert!(
                        text[i].is_ascii_whitespace() && b.is_ascii_whitespace(),
                        "byte {i} set to {b:#04x} was accepted:\n{}",
                        String::from_utf8_lossy(&bytes)
                    );
                    accepted(&s);
                }
            }
        }
        bytes[i] = text[i];
    }
    (refused, taken)
}

#[test]
fn shards_partition_the_indices() {
    for n in [0u64, 1, 7, 1000, 1001] {
        for count in 1..6 {
            let mut next = 0;
            for index in 0..count {
                let r = Shard { index, count }.range(n);
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, n);
        }
    }
    assert!(Shard::parse("4/4").is_err());
    assert!(Shard::parse("1/0").is_err());
    assert!(Shard::parse("a/2").is_err());
    assert_eq!(Shard::parse("3/4").unwrap(), Shard { index: 3, count: 4 });
}

#[test]
fn cancelling_checkpoints_and_resuming_counts_every_sample_once() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let cfg = config(GameKind::Mini, 40_000, 12);
    let full = complete(cfg.clone(), &options(2, 2048));
    let path = tmp("cancel.json");
    let cancel = Arc::new(AtomicBool::new(false));
    let mut opts = options(2, 2048);
    opts.checkpoint = Some(path.clone());
    // Only the final checkpoint of a cancellation is written.
    opts.checkpoint_every = std::time::Duration::from_secs(3600);
    opts.cancel = Some(Arc::clone(&cancel));
    let mut state = RunState::new(cfg.clone());
    let mut sessions = 0;
    loop {
        sessions += 1;
        let mut batches = 0;
        let end = run(&mut state, &opts, |_| {
            batches += 1;
            if batches == 2 {
                cancel.store(true, Ordering::SeqCst);
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        cancel.store(false, Ordering::SeqCst);
        if end == RunEnd::Complete {
            break;
        }
        assert_eq!(end, RunEnd::Cancelled);
        // What was counted is exactly what was saved.
        let saved = RunState::load(&path).unwrap();
        assert_eq!(saved.next, state.next);
        assert_eq!(saved.counters, state.counters);
        assert!(!saved.complete);
        state = RunState::resume(&path, &cfg).unwrap();
    }
    assert!(sessions >= 3, "the run was cancelled");
    assert_eq!(state.counters, full.counters);
    // Cancelled before it starts: nothing done, a checkpoint all the same.
    let path = tmp("cancel-early.json");
    opts.checkpoint = Some(path.clone());
    cancel.store(true, Ordering::SeqCst);
    let mut state = RunState::new(cfg.clone());
    let end = run(&mut state, &opts, |_| ControlFlow::Continue(())).unwrap();
    assert_eq!(end, RunEnd::Cancelled);
    assert_eq!(state.next, 0);
    assert_eq!(RunState::load(&path).unwrap().next, 0);
}

#[test]
fn empty_ranges_and_ranges_at_the_end_of_u64() {
    // A shard with no samples is complete from the start (it used to contradict itself).
    let mut c = config(GameKind::Mini, 2, 1);
    c.shard = Shard { index: 0, count: 4 };
    let s = RunState::new(c.clone());
    assert!(s.complete);
    let done = complete(c, &options(1, 256));
    assert_eq!(done.counters.samples, 0);
    let s = complete(config(GameKind::Mini, 0, 1), &options(1, 256));
    assert!(s.complete);
    // The very last sample index: batch and chunk ends saturate instead of wrapping.
    let mut c = config(GameKind::Mini, u64::MAX, 1);
    c.shard = Shard {
        index: u64::MAX - 1,
        count: u64::MAX,
    };
    assert_eq!(c.range(), u64::MAX - 1..u64::MAX);
    let mut o = options(2, 256);
    o.batch = u64::MAX;
    let s = complete(c, &o);
    assert_eq!(s.counters.samples, 1);
}

#[test]
fn hostile_files_are_refused_naming_the_field() {
    let cfg = config(GameKind::Mini, 3_000, 1);
    let s = complete(cfg, &options(1, 1024));
    let good: serde_json::Value = serde_json::from_str(&s.to_file_text()).unwrap();
    let expect = |text: &str, needle: &str| {
        let p = tmp("hostile.json");
        write(&p, text);
        let err = RunState::load(&p).unwrap_err().to_string();
        assert!(
            err.contains("hostile.json") && err.contains(needle),
            "{err}"
        );
    };
    expect(
        &resealed(&good.to_string(), |v| {
            v["counters"]["unknown"] = (-1).into()
        }),
        "field `counters.unknown`",
    );
    // The same document with its keys in another order is the same content.
    let p = tmp("reordered.json");
    write(&p, &good.to_string());
    assert_eq!(RunState::load(&p).unwrap(), s);
    // Content made consistent with the checksum but not with itself, as by hand.
    let mut bad = s.clone();
    bad.counters.reachable_expanded_log2 = vec![u64::MAX, u64::MAX];
    expect(&bad.to_file_text(), "reachable_expanded_log2");
    let mut bad = s.clone();
    bad.counters.figure = vec![shogi_estimate::FigurePoint {
        index: 5000,
        plies: 1,
        expanded: 1,
    }];
    expect(&bad.to_file_text(), "counters.figure");
    let p = tmp("hostile-bytes.json");
    std::fs::write(&p, [0xff, 0xfe, 0x00, 0x7b]).unwrap();
    let err = RunState::load(&p).unwrap_err();
    assert!(matches!(err, EstimateError::Corrupt { .. }), "{err}");
    // A megabyte in a field is not quoted back whole.
    let mut v = good.clone();
    v["content"]["run_id"] = serde_json::json!(7);
    v["format"] = serde_json::json!("x".repeat(1 << 20));
    let p = tmp("hostile.json");
    write(&p, &v.to_string());
    let err = RunState::load(&p).unwrap_err().to_string();
    assert!(err.len() < 400, "{} bytes of error", err.len());
    // Two states that claim nearly u64::MAX nodes cannot be merged (nor is either
    // consistent with its shard's range, which merge checks first).
    let mut a = s.clone();
    a.config.shard = Shard { index: 0, count: 2 };
    a.counters.expanded = u64::MAX;
    let mut b = a.clone();
    b.config.shard = Shard { index: 1, count: 2 };
    let err = merge(&[(tmp("a.json"), a), (tmp("b.json"), b)], false)
        .unwrap_err()
        .to_string();
    assert!(err.contains("a.json"), "{err}");
}

/// The configurations of the two-phase tests: `space` and `rate` on top of [`config`].
fn two_phase(game: GameKind, samples: u64, seed: u64, space: Space, rate: f64) -> RunConfig {
    let mut c = config(game, samples, seed);
    c.space = space;
    c.phase2_rate = Some(rate);
    c
}

/// Two-phase sampling at rate 1 is the paper's pipeline counter for counter: the samples
/// without a predecessor are the unreachable ones of depth 0, and the estimate and its
/// interval are the same numbers.
#[test]
fn two_phase_at_rate_one_reproduces_the_paper_counters() {
    for (game, n) in [(GameKind::Mini, 40_000), (GameKind::Shogi, 60_000)] {
        let paper = complete(config(game, n, 8), &options(2, 4096)).counters;
        let tp = complete(
            two_phase(game, n, 8, Space::Candidate, 1.0),
            &options(2, 4096),
        )
        .counters;
        let phase = tp.two_phase.expect("two-phase counters");
        let no_predecessor = tp.passed_check - phase.with_predecessor;
        assert_eq!(phase.searched, phase.with_predecessor);
        assert!(
            no_predecessor > 0,
            "{game}: some samples have no predecessor"
        );
        assert_eq!(tp.samples, paper.samples);
        assert_eq!(tp.passed_mirror, paper.passed_mirror);
        assert_eq!(tp.passed_placement, paper.passed_placement);
        assert_eq!(tp.passed_check, paper.passed_check);
        assert_eq!(tp.reachable, paper.reachable);
        assert_eq!(tp.symmetric_reachable, paper.symmetric_reachable);
        assert_eq!(tp.unknown, paper.unknown);
        assert_eq!(tp.unreachable + no_predecessor, paper.unreachable);
        assert_eq!(
            tp.unreachable_depths.first().copied().unwrap_or(0),
            0,
            "a searched sample has a predecessor"
        );
        assert_eq!(paper.unreachable_depths[0], no_predecessor);
        let bin = |v: &[u64], d: usize| v.get(d).copied().unwrap_or(0);
        for d in 1..paper
            .unreachable_depths
            .len()
            .max(tp.unreachable_depths.len())
        {
            assert_eq!(
                bin(&tp.unreachable_depths, d),
                bin(&paper.unreachable_depths, d)
            );
        }
        assert_eq!(tp.reachable_plies, paper.reachable_plies);
        assert_eq!(tp.figure, paper.figure);
        let space = shogi_estimate::space_size(&config(game, n, 8)).unwrap();
        let (a, b) = (Estimate::new(&paper, &space), Estimate::new(&tp, &space));
        assert_eq!(a.positions_exact, b.positions_exact);
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(y.abs());
        assert!(close(a.p, b.p) && close(a.sigma, b.sigma), "{a:?}\n{b:?}");
        assert!(close(a.positions_normal.lo, b.positions_normal.lo));
        assert!(close(a.positions_normal.hi, b.positions_normal.hi));
        assert!(close(
            a.positions_distinct_normal.hi,
            b.positions_distinct_normal.hi
        ));
    }
}

/// Phase 2 searches a share of the phase-1 survivors close to the rate, chosen by the
/// sample index alone: a run at a smaller rate searches a subset of the same samples,
/// with the same verdicts.
#[test]
fn phase_two_selects_by_index_at_the_rate() {
    let mut hits = 0u64;
    for i in 0..200_000 {
        hits += phase2_selected(3, i, 0.1) as u64;
        assert!(phase2_selected(3, i, 1.0));
        assert_eq!(phase2_selected(3, i, 0.1), phase2_selected(3, i, 0.1));
    }
    // Binomial(200000, 0.1): standard deviation 134.
    assert!((hits as f64 - 20_000.0).abs() < 700.0, "{hits}");
    let all = complete(
        two_phase(GameKind::Mini, 30_000, 2, Space::PlacementLegal, 1.0),
        &options(2, 4096),
    );
    let some = complete(
        two_phase(GameKind::Mini, 30_000, 2, Space::PlacementLegal, 0.3),
        &options(2, 4096),
    );
    let (a, s) = (
        all.counters.two_phase.unwrap(),
        some.counters.two_phase.unwrap(),
    );
    assert_eq!(a.with_predecessor, s.with_predecessor);
    assert!(s.searched < a.searched && s.searched > 0);
    let z = (s.searched as f64 - 0.3 * a.searched as f64) / (0.3 * 0.7 * a.searched as f64).sqrt();
    assert!(z.abs() < 5.0, "searched {} of {}", s.searched, a.searched);
    assert!(some.counters.reachable <= all.counters.reachable);
}

/// The placement-legal space with two-phase sampling: independent of threads and batches,
/// the shards add up to the single run, an interrupted run resumes to the same counters,
/// and every sample passes the placement filter.
#[test]
fn fast_runs_are_reproducible_and_mergeable() {
    let cfg = two_phase(GameKind::Shogi, 40_000, 4, Space::PlacementLegal, 0.05);
    let a = complete(cfg.clone(), &options(1, 256));
    let b = complete(cfg.clone(), &options(3, 1000));
    assert_eq!(a.counters, b.counters);
    assert_eq!(a.counters.passed_placement, a.counters.passed_mirror);
    let t = a.counters.two_phase.unwrap();
    assert!(t.searched > 0 && a.counters.reachable > 0);
    let mut files = Vec::new();
    for k in 0..3 {
        let mut c = cfg.clone();
        c.shard = Shard { index: k, count: 3 };
        let s = complete(c, &options(2, 2048));
        let path = tmp(&format!("fast-shard-{k}.json"));
        s.save(&path).unwrap();
        files.push((path.clone(), RunState::load(&path).unwrap()));
    }
    let merged = merge(&files, false).unwrap();
    assert_eq!(merged.counters, a.counters);
    // A paper-method shard does not merge with these.
    let mut paper = config(GameKind::Shogi, 40_000, 4);
    paper.shard = Shard { index: 1, count: 3 };
    let p = (tmp("paper-shard.json"), complete(paper, &options(1, 1024)));
    let err = merge(&[files[0].clone(), p], true).unwrap_err().to_string();
    assert!(
        err.contains("space") || err.contains("phase2_rate"),
        "{err}"
    );
    assert_eq!(
        stopped_and_resumed(&cfg, &tmp("fast-resume.json")).counters,
        a.counters
    );
}

/// `cfg` stopped after two batches of 4,096 samples (a checkpoint after each), then resumed
/// from its checkpoint file `path` to the end.
pub fn stopped_and_resumed(cfg: &RunConfig, path: &Path) -> RunState {
    let mut opts = options(2, 4096);
    opts.checkpoint = Some(path.to_path_buf());
    opts.checkpoint_every = std::time::Duration::from_millis(0);
    let mut state = RunState::new(cfg.clone());
    let mut left = 2;
    let end = run(&mut state, &opts, |_| {
        left -= 1;
        if left == 0 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!(end, RunEnd::Stopped);
    let mut resumed = RunState::resume(path, cfg).unwrap();
    assert!(!resumed.complete);
    run(&mut resumed, &opts, |_| ControlFlow::Continue(())).unwrap();
    resumed
}

/// Two-phase counters that break their relations, or that do not match the run's method,
/// are refused with the field named.
#[test]
fn inconsistent_two_phase_state_is_refused() {
    let cfg = two_phase(GameKind::Mini, 5_000, 1, Space::PlacementLegal, 0.5);
    let good = complete(cfg.clone(), &options(1, 1024));
    good.check().unwrap();
    let mut bad = good.clone();
    bad.counters.two_phase.as_mut().unwrap().searched += 1;
    assert!(bad.check().unwrap_err().0.contains("searched"));
    let mut bad = good.clone();
    bad.counters.two_phase.as_mut().unwrap().with_predecessor = bad.counters.passed_check + 1;
    assert!(bad.check().unwrap_err().0.contains("with_predecessor"));
    let mut bad = good.clone();
    bad.counters.two_phase = None;
    assert!(bad.check().unwrap_err().0.contains("two_phase"));
    let mut bad = good.clone();
    bad.config.phase2_rate = Some(1.5);
    assert!(bad.check().unwrap_err().0.contains("phase2_rate"));
    let mut bad = good.clone();
    bad.config.phase2_rate = Some(f64::NAN);
    assert!(bad.check().is_err());
    // A file of the first format (no checksum) is refused with a word on why.
    let old = serde_json::json!({
        "format": "shogi-count-estimate/1",
        "config": serde_json::to_value(&good.config).unwrap(),
        "next": good.next,
    });
    let path = tmp("old-format.json");
    write(&path, &old.to_string());
    let err = RunState::load(&path).unwrap_err().to_string();
    assert!(err.contains("earlier shogi-count"), "{err}");
}

/// A run with a precision target stops at the first multiple of TARGET_STEP samples whose
/// counters meet it, whatever the threads and batches; a run interrupted and resumed from
/// its checkpoints stops at the same sample with the same counters, and the saved run is
/// cut to it.
#[test]
fn a_target_stops_at_the_same_sample_however_the_run_is_interrupted() {
    use shogi_estimate::{Target, TARGET_STEP};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let mut cfg = config(GameKind::Mini, 10_000_000, 21);
    cfg.figure_samples = 1000;
    cfg.target = Some(Target::HalfWidth(0.03));
    let mut whole = RunState::new(cfg.clone());
    let end = run(&mut whole, &options(2, 50_000), |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(end, RunEnd::TargetReached);
    assert!(whole.complete);
    assert_eq!(whole.next % TARGET_STEP, 0);
    assert_eq!(whole.config.samples, whole.next);
    assert!(
        whole.next >= 2 * TARGET_STEP,
        "the target takes a few steps"
    );
    // Not met one step earlier: the stop is the first step that meets it.
    let space = shogi_estimate::space_size(&cfg).unwrap();
    let mut shorter = cfg.clone();
    shorter.samples = whole.next - TARGET_STEP;
    shorter.target = None;
    let earlier = complete(shorter, &options(2, 4096));
    assert!(!Target::HalfWidth(0.03).reached(&earlier.counters, &space));
    assert!(Target::HalfWidth(0.03).reached(&whole.counters, &space));
    // Other threads and batches.
    let mut other = RunState::new(cfg.clone());
    run(&mut other, &options(3, 1000), |_| ControlFlow::Continue(())).unwrap();
    assert_eq!(other.counters, whole.counters);
    // Cancelled at odd points (between chunks, not on steps), resumed from the file.
    let path = tmp("target-resume.json");
    let cancel = Arc::new(AtomicBool::new(false));
    let mut opts = options(2, 3000);
    opts.checkpoint = Some(path.clone());
    opts.checkpoint_every = std::time::Duration::from_secs(3600);
    opts.cancel = Some(Arc::clone(&cancel));
    let mut state = RunState::new(cfg.clone());
    let mut sessions = 0;
    let end = loop {
        sessions += 1;
        let mut batches = 0;
        let end = run(&mut state, &opts, |_| {
            batches += 1;
            if batches == 3 {
                cancel.store(true, Ordering::SeqCst);
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        cancel.store(false, Ordering::SeqCst);
        if end != RunEnd::Cancelled {
            break end;
        }
        state = RunState::load(&path).unwrap();
        assert_eq!(state.config.target, cfg.target, "the target is saved");
    };
    assert!(sessions >= 3, "the run was interrupted");
    assert_eq!(end, RunEnd::TargetReached);
    assert_eq!(state.next, whole.next);
    assert_eq!(state.counters, whole.counters);
    let saved = RunState::load(&path).unwrap();
    assert!(saved.complete);
    assert_eq!(saved.config, whole.config);
    assert_eq!(saved.counters, whole.counters);
}
