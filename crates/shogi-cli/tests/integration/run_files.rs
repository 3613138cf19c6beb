//! `verify-run`, `upgrade-run` and the recount before a resume with other counting code
//! (docs/METHOD.md §10.5), through the binary.

use crate::common::{run, sealed, state_content};
use serde_json::Value;
use shogi_estimate::RunState;
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "shogi-count-runfiles-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A Mini Shogi run of 200,000 samples stopped after about half, saved to `path`.
fn half_done(path: &Path) -> RunState {
    crate::common::unfinished_run(path, 200_000, 100_000, 21)
}

/// Rewrites the state file at `path` with `edit` applied to its content, sealed again as a
/// hand-editor would (checksum and identity recomputed).
fn edit(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut c = state_content(path).unwrap();
    edit(&mut c);
    std::fs::write(path, serde_json::to_string_pretty(&sealed(&c)).unwrap()).unwrap();
}

#[test]
fn verify_run_recounts_exactly_and_names_a_planted_difference() {
    let d = dir("verify");
    let f = d.join("run.json");
    half_done(&f);
    let f = f.to_str().unwrap();
    let (ok, out, err) = run(&["verify-run", f, "--segment", "0", "--threads", "2"]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("segment   0, segment 0.."), "{out}");
    assert!(out.contains("all 1 recounts equal the file"), "{out}");
    assert!(out.contains("systematic errors"), "{out}");
    let (ok, out, _) = run(&["verify-run", f, "--samples", "1", "--json", "-q"]);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["equal"], true);
    assert_eq!(v["recounts"][0]["unit"], "block");
    assert!(v["estimate"]["systematic_bounds"].as_array().is_some());

    // One digest changed, the file sealed again: the recount of the block finds it.
    edit(Path::new(f), |c| {
        let d = &mut c["segments"][0]["digests"][0];
        let flipped = u64::from_str_radix(d.as_str().unwrap(), 16).unwrap() ^ 1;
        *d = format!("{flipped:016x}").into();
    });
    let (ok, _, err) = run(&["verify-run", f, "-q"]);
    assert!(!ok);
    assert!(err.contains("segment 0 differs at samples 0.."), "{err}");
    assert!(err.contains("digest"), "{err}");
    let (ok, _, err) = run(&["verify-run", f, "--segment", "3"]);
    assert!(!ok);
    assert!(err.contains("segment 3 does not exist"), "{err}");
}

#[test]
fn a_resume_with_other_counting_code_recounts_and_refuses_a_planted_difference() {
    let d = dir("resume");
    let f = d.join("run.json");
    let first = half_done(&f);
    let fs = f.to_str().unwrap();
    // The last segment claims other counting code: the resume recounts it, then goes on.
    edit(&f, |c| {
        c["segments"][0]["binary"]["fingerprint"] = "0".repeat(64).into()
    });
    let (ok, _, err) = run(&["estimate", "--out", fs, "--resume", "--json"]);
    assert!(ok, "{err}");
    // About 10^5 samples, below the slice of 10^7: the whole segment.
    let whole = format!(
        "recounting that whole segment first ({} samples)",
        first.next
    );
    assert!(err.contains(&whole), "{err}");
    assert!(err.contains("all equal: continuing"), "{err}");
    let done = RunState::load(&f).unwrap();
    assert!(done.complete);
    assert_eq!(done.segments.len(), 2);

    // The same, with one counter of that segment changed as a run that counts differently
    // would have it: refused, the file untouched.
    let f2 = d.join("planted.json");
    half_done(&f2);
    edit(&f2, |c| {
        c["segments"][0]["binary"]["fingerprint"] = "0".repeat(64).into();
        let e = c["counters"]["expanded"].as_u64().unwrap();
        c["counters"]["expanded"] = (e + 1).into();
        c["segments"][0]["counters"]["expanded"] = (e + 1).into();
    });
    let before = std::fs::read(&f2).unwrap();
    let (ok, _, err) = run(&["estimate", "--out", f2.to_str().unwrap(), "--resume"]);
    assert!(!ok);
    assert!(err.contains("counts differently"), "{err}");
    assert!(err.contains("`expanded`"), "{err}");
    assert_eq!(std::fs::read(&f2).unwrap(), before);
}

#[test]
fn files_of_format_2_are_converted_before_a_run_continues_in_them() {
    let d = dir("upgrade");
    let f = d.join("old.json");
    let state = half_done(&f);
    // The same state as format 2 wrote it: no segments, sealed under the old tag.
    let mut c = state_content(&f).unwrap();
    let o = c.as_object_mut().unwrap();
    o.remove("segments");
    o.remove("block_samples");
    let sha = shogi_estimate::checksum_with(shogi_estimate::FORMAT_2, &c);
    let old = serde_json::json!({"format": shogi_estimate::FORMAT_2, "content": c, "sha256": sha});
    std::fs::write(&f, old.to_string()).unwrap();
    let fs = f.to_str().unwrap();
    let (ok, _, err) = run(&["estimate", "--out", fs, "--resume"]);
    assert!(!ok);
    assert!(err.contains("upgrade-run"), "{err}");
    let new = d.join("new.json");
    let ns = new.to_str().unwrap();
    let (ok, _, err) = run(&[
        "upgrade-run",
        fs,
        "--out",
        ns,
        "--segment-binary",
        "0=abcdef0",
    ]);
    assert!(ok, "{err}");
    let up = RunState::load(&new).unwrap();
    assert_eq!(up.segments.len(), 1);
    assert_eq!(up.counters, state.counters);
    assert_eq!(up.segments[0].binary.commit.as_deref(), Some("abcdef0"));
    assert!(up.segments[0].note.as_deref().unwrap().contains(&sha));
    // It never overwrites: not the new file, not the old one.
    let (ok, _, err) = run(&["upgrade-run", fs, "--out", ns]);
    assert!(!ok && err.contains("exists"), "{err}");
    let (ok, _, _) = run(&["upgrade-run", fs, "--out", fs]);
    assert!(!ok);
    // The converted run continues (its segment has no fingerprint: recounted whole first).
    let (ok, _, err) = run(&["estimate", "--out", ns, "--resume"]);
    assert!(ok, "{err}");
    assert!(err.contains("recounting that whole segment first"), "{err}");
    assert!(err.contains("no block digests"), "{err}");
    let done = RunState::load(&new).unwrap();
    assert!(done.complete);
    assert_eq!(done.segments.len(), 2);
}

#[test]
fn merge_partial_reports_the_samples_an_unfinished_run_has_done() {
    let d = dir("partial");
    let f = d.join("run.json");
    let state = half_done(&f);
    let fs = f.to_str().unwrap();
    // A plain merge wants every sample, and says how to get a report of the ones done.
    let (ok, _, err) = run(&["merge", fs]);
    assert!(
        !ok && err.contains("incomplete") && err.contains("--partial"),
        "{err}"
    );
    let (ok, out, err) = run(&["merge", "--partial", "--json", fs]);
    assert!(ok, "{err}");
    // The rest of the run's range is named as missing, not silently dropped.
    let missing = format!("{}..200000", state.next);
    assert!(
        err.contains("partial merge") && err.contains(&missing),
        "{err}"
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["samples"].as_u64(), Some(state.counters.samples));
    assert_eq!(v["samples"].as_u64(), Some(state.next));
    // A partial report is never a file that could pass for the run's result.
    let o = d.join("merged.json");
    let (ok, _, err) = run(&["merge", "--partial", fs, "--out", o.to_str().unwrap()]);
    assert!(!ok && err.contains("partial"), "{err}");
    assert!(!o.exists());
}
