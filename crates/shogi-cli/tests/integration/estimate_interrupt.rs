//! SIGTERM and SIGINT during `shogi-count estimate --out F`: a final checkpoint, the shell's
//! exit code (143, 130), a message saying how to continue; then `estimate --out F --resume`
//! alone finishes the run with counters identical to an uninterrupted one.
//!
//! No timing is asserted: the test waits for checkpoints to appear, with generous deadlines
//! only against hangs, and starts over with a longer run if one finishes before it could be
//! interrupted.
#![cfg(unix)]

use crate::common;
use common::run;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for anything; reached only if something hangs.
const GUARD: Duration = Duration::from_secs(300);

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "shogi-count-interrupt-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_shogi-count"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// The content of the state file, if it is there (it is replaced atomically, so never
/// half-written).
fn state(path: &Path) -> Option<Value> {
    common::state_content(path)
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args(["-s", name, &child.id().to_string()])
        .status()
        .expect("kill runs")
        .success();
    assert!(ok, "kill -s {name} failed");
}

/// Waits until `path` holds a checkpoint of an unfinished run past sample `past`, then
/// sends `sig`. `None` if the child finished first (the run was too short to interrupt).
fn interrupt(mut child: Child, path: &Path, past: u64, sig: &str) -> Option<Output> {
    let start = Instant::now();
    loop {
        if let Some(s) = state(path) {
            if s["complete"] == false && s["next"].as_u64().unwrap() > past {
                signal(&child, sig);
                break;
            }
        }
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            return None;
        }
        if start.elapsed() > GUARD {
            let _ = child.kill();
            panic!("no checkpoint in {}", path.display());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // The guard against a child that ignores the signal.
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > GUARD {
            let _ = child.kill();
            panic!("the run did not stop after {sig}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Some(child.wait_with_output().unwrap())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Starts `estimate --out f` with `settings`, checkpointing at every batch, and sends
/// SIGTERM after the first checkpoint: the output and standard error of the run, which
/// exited 143; `None` if it finished first.
fn terminated(f: &Path, settings: &[&str]) -> Option<(Output, String)> {
    let file = f.to_str().unwrap();
    let child = spawn(
        &[
            &["estimate", "--out", file, "--checkpoint-every", "0"][..],
            settings,
        ]
        .concat(),
    );
    let out = interrupt(child, f, 0, "TERM")?;
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(143), "{err}");
    Some((out, err))
}

/// One attempt with `samples` samples; `false` if a run finished before it was interrupted.
fn attempt(samples: u64) -> bool {
    let d = dir(&samples.to_string());
    let f = d.join("run.json");
    let file = f.to_str().unwrap();
    let n = samples.to_string();
    let settings = ["--game", "mini", "--samples", &n, "--seed", "11"];

    // 1. SIGTERM after the first checkpoint.
    let Some((out, err)) = terminated(&f, &settings) else {
        return false;
    };
    assert!(err.contains("interrupted by SIGTERM at "), "{err}");
    assert!(
        err.contains(&format!("checkpoint written to {file}")),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "continue with: shogi-count estimate --out {file} --resume"
        )),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no report after an interruption");
    let s = state(&f).expect("a checkpoint");
    assert_eq!(s["complete"], false);
    let after_term = s["next"].as_u64().unwrap();
    assert!(
        err.contains(&format!("at {after_term} of {samples} samples")),
        "{err}"
    );

    // 2. Resume with nothing but the file (and how often to checkpoint, which is not a
    //    setting of the run), then SIGINT once it has got further.
    let child = spawn(&[
        "estimate",
        "--out",
        file,
        "--resume",
        "--checkpoint-every",
        "0",
    ]);
    let Some(out) = interrupt(child, &f, after_term, "INT") else {
        return false;
    };
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(
        err.contains(&format!("resuming at {after_term} of {samples} samples")),
        "{err}"
    );
    assert!(err.contains("interrupted by SIGINT"), "{err}");
    let after_int = state(&f).unwrap()["next"].as_u64().unwrap();
    assert!(after_int > after_term);

    // 3. `--out F --resume` alone finishes it.
    let (ok, report, err) = run(&["estimate", "--out", file, "--resume"]);
    assert!(ok, "{err}");
    assert!(
        err.contains(&format!("resuming at {after_int} of {samples} samples")),
        "{err}"
    );
    assert!(report.contains("Table 1"), "{report}");
    let resumed = state(&f).unwrap();
    assert_eq!(resumed["complete"], true);

    // The same run without interruption: counter for counter the same.
    let g = d.join("reference.json");
    let (ok, _, err) = run(&[
        &["estimate", "-q", "--out", g.to_str().unwrap()][..],
        &settings,
    ]
    .concat());
    assert!(ok, "{err}");
    let reference = state(&g).unwrap();
    assert_eq!(resumed["config"], reference["config"]);
    assert_eq!(resumed["counters"], reference["counters"]);
    assert_eq!(resumed["counters"]["samples"], samples);

    // Resuming a complete run says so and prints the result again.
    let (ok, again, err) = run(&["estimate", "--out", file, "--resume", "--json"]);
    assert!(ok, "{err}");
    assert!(err.contains("complete run"), "{err}");
    let v: Value = serde_json::from_str(&again).unwrap();
    assert_eq!(v["samples"], samples);
    let _ = std::fs::remove_dir_all(&d);
    true
}

#[test]
fn sigterm_and_sigint_checkpoint_and_resume_alone_finishes_the_run() {
    // Long enough to be interrupted twice on any machine seen so far (about 2 s on two
    // cores); a faster machine gets a longer run rather than a failure.
    for samples in [400_000, 1_600_000, 6_400_000, 25_600_000] {
        if attempt(samples) {
            return;
        }
    }
    panic!("every run finished before it could be interrupted");
}

#[test]
fn sigterm_without_out_says_nothing_was_saved() {
    for samples in [400_000u64, 1_600_000, 6_400_000, 25_600_000] {
        let n = samples.to_string();
        let mut child = spawn(&["estimate", "--game", "mini", "--samples", &n]);
        // No file to watch: give it time to install its handlers and start. If it has not,
        // SIGTERM's default action kills it (no exit code), and the loop tries again.
        std::thread::sleep(Duration::from_millis(700));
        if child.try_wait().unwrap().is_some() {
            continue;
        }
        signal(&child, "TERM");
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > GUARD {
                let _ = child.kill();
                panic!("the run did not stop after SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let out = child.wait_with_output().unwrap();
        // Killed before its handlers were in place, or finished its last samples before
        // it looked at the flag (seen on a loaded machine): try a longer run.
        if matches!(out.status.code(), None | Some(0)) {
            continue;
        }
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(143), "{err}");
        assert!(err.contains("interrupted by SIGTERM"), "{err}");
        assert!(err.contains("nothing was saved"), "{err}");
        return;
    }
    panic!("no run could be interrupted");
}

/// One attempt with a precision target: SIGTERM after the first checkpoint, then the
/// printed command alone; `false` if the run met its target before it could be
/// interrupted.
fn attempt_with_target(half_width: &str) -> bool {
    let d = dir(&format!("target-{half_width}"));
    let f = d.join("run.json");
    let file = f.to_str().unwrap();
    let settings = [
        "--game",
        "mini",
        "--method",
        "paper",
        "--seed",
        "5",
        "--target-half-width",
        half_width,
    ];
    let Some((_, err)) = terminated(&f, &settings) else {
        return false;
    };
    let printed = format!("continue with: shogi-count estimate --out {file} --resume");
    assert!(err.contains(&printed), "{err}");
    let stopped_at = state(&f).unwrap()["next"].as_u64().unwrap();
    // The printed command, and nothing else.
    let (ok, report, err) = run(&["estimate", "--out", file, "--resume"]);
    assert!(ok, "{err}");
    assert!(err.contains("precision target"), "{err}");
    assert!(report.contains("Table 1"), "{report}");
    let resumed = state(&f).unwrap();
    assert_eq!(resumed["complete"], true);
    assert!(resumed["next"].as_u64().unwrap() > stopped_at);
    // The run without interruption stops at the same sample with the same counters.
    let g = d.join("reference.json");
    let (ok, _, err) = run(&[
        &["estimate", "-q", "--out", g.to_str().unwrap()][..],
        &settings,
    ]
    .concat());
    assert!(ok, "{err}");
    let reference = state(&g).unwrap();
    assert_eq!(resumed["next"], reference["next"]);
    assert_eq!(resumed["config"], reference["config"]);
    assert_eq!(resumed["counters"], reference["counters"]);
    let _ = std::fs::remove_dir_all(&d);
    true
}

#[test]
fn sigterm_then_the_printed_resume_stops_where_the_uninterrupted_run_stops() {
    // About a second of Mini Shogi on two cores at the first target; a faster machine gets
    // a narrower target (four times the samples) rather than a failure.
    for half_width in ["0.006", "0.003", "0.0015", "0.00075"] {
        if attempt_with_target(half_width) {
            return;
        }
    }
    panic!("every run met its target before it could be interrupted");
}

/// D3 and SIGHUP: while a run holds its `--out` file, a second run on the same file is
/// refused, naming the holder; a SIGHUP (a closed terminal) checkpoints like SIGTERM and
/// exits 129; the resume alone then finishes the run.
#[test]
fn a_file_in_use_is_refused_and_sighup_checkpoints() {
    for samples in [50_000_000u64, 500_000_000, 5_000_000_000] {
        let d = dir(&format!("claim-{samples}"));
        let f = d.join("run.json");
        let file = f.to_str().unwrap();
        let n = samples.to_string();
        let mut child = spawn(&[
            "estimate",
            "--out",
            file,
            "--checkpoint-every",
            "0",
            "--game",
            "mini",
            "--samples",
            &n,
            "--seed",
            "13",
        ]);
        let start = Instant::now();
        while state(&f).is_none() && child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < GUARD, "no checkpoint");
            std::thread::sleep(Duration::from_millis(5));
        }
        let (ok, _, err) = run(&["estimate", "--out", file, "--resume"]);
        if child.try_wait().unwrap().is_some() {
            // Finished before the second run could be tried: again with a longer run.
            let _ = child.wait_with_output();
            continue;
        }
        assert!(!ok, "a second run on a file in use must be refused");
        assert!(
            err.contains(&format!("in use by another run (process {}", child.id())),
            "{err}"
        );
        let Some(out) = interrupt(child, &f, 0, "HUP") else {
            continue;
        };
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(129), "{err}");
        assert!(err.contains("interrupted by SIGHUP"), "{err}");
        assert_eq!(state(&f).unwrap()["complete"], false);
        // The claim went with the process: the resume goes on (stopped again at once).
        let child = spawn(&[
            "estimate",
            "--out",
            file,
            "--resume",
            "--checkpoint-every",
            "0",
        ]);
        let next = state(&f).unwrap()["next"].as_u64().unwrap();
        let out = interrupt(child, &f, next, "INT").expect("a long run is still running");
        assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
        let _ = std::fs::remove_dir_all(&d);
        return;
    }
    panic!("every run finished before it could be interrupted");
}
