//! The files of `estimate`: a symbolic link stays a link, a shard with no sample is refused,
//! a closed standard error does not end a run (issue D1, D6, D7 of the newcomer's trial).

use crate::common::run;
use shogi_estimate::RunState;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shogi-count-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn unfinished(path: &Path) {
    crate::common::unfinished_run(path, 100_000, 40_000, 4);
}

#[cfg(unix)]
#[test]
fn a_resume_through_a_symlink_keeps_the_link() {
    let d = dir("link");
    let real = d.join("real.json");
    unfinished(&real);
    let link = d.join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let (ok, _, err) = run(&[
        "estimate",
        "--out",
        link.to_str().unwrap(),
        "--resume",
        "-q",
    ]);
    assert!(ok, "{err}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(RunState::load(&real).unwrap().complete);
}

#[test]
fn a_shard_without_samples_is_refused() {
    let (ok, out, err) = run(&[
        "estimate",
        "--game",
        "mini",
        "--shard",
        "5/1000000",
        "--samples",
        "1000",
        "--json",
    ]);
    assert!(!ok, "{out}");
    assert!(err.contains("holds no sample"), "{err}");
    assert!(out.is_empty());
}

/// Standard error a pipe whose reader has gone: the notes of a resumed run (printed at once)
/// must not make it panic; it saves its state and stops, exit 141, as for a closed standard
/// output, and a resume goes on from there.
#[cfg(unix)]
#[test]
fn a_closed_standard_error_does_not_end_a_run() {
    let d = dir("stderr");
    let f = d.join("run.json");
    unfinished(&f);
    // The reader is gone before the child starts: closing it after the spawn would race
    // with the child's first note, which a pipe's buffer takes while a reader remains.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_shogi-count"))
        .args([
            "estimate",
            "--out",
            f.to_str().unwrap(),
            "--resume",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(writer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(141));
    let saved = RunState::load(&f).unwrap();
    assert!(
        saved.next > 40_000,
        "the checkpoint holds the samples counted"
    );
    let (ok, report, err) = run(&[
        "estimate",
        "--out",
        f.to_str().unwrap(),
        "--resume",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert!(report.contains("\"samples\":100000"));
}

/// `--force`: `estimate` starts a new run over an existing `--out`, `merge --out` replaces an
/// existing file, but never one of its own inputs.
#[test]
fn force_replaces_an_existing_file_but_never_an_input() {
    let d = dir("force");
    let s = |name: &str| d.join(name).to_str().unwrap().to_string();
    for k in 0..2 {
        let shard = format!("{k}/2");
        let (ok, _, err) = run(&[
            "estimate",
            "--game",
            "mini",
            "--samples",
            "2e4",
            "--seed",
            "9",
            "--shard",
            &shard,
            "--out",
            &s(&format!("s{k}.json")),
            "-q",
        ]);
        assert!(ok, "{err}");
    }
    std::fs::write(d.join("taken.json"), "something else").unwrap();
    let (ok, _, err) = run(&[
        "merge",
        "--out",
        &s("taken.json"),
        &s("s0.json"),
        &s("s1.json"),
    ]);
    assert!(!ok && err.contains("exists: give --force"), "{err}");
    let (ok, _, err) = run(&[
        "merge",
        "--force",
        "--out",
        &s("s0.json"),
        &s("s0.json"),
        &s("s1.json"),
    ]);
    assert!(!ok && err.contains("is also an input"), "{err}");
    assert!(RunState::load(&d.join("s0.json")).unwrap().complete);
    let (ok, _, err) = run(&[
        "merge",
        "--force",
        "--out",
        &s("taken.json"),
        &s("s0.json"),
        &s("s1.json"),
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        RunState::load(&d.join("taken.json"))
            .unwrap()
            .counters
            .samples,
        20_000
    );

    let (ok, _, err) = run(&[
        "estimate",
        "--game",
        "mini",
        "--samples",
        "1e4",
        "--out",
        &s("taken.json"),
        "-q",
    ]);
    assert!(!ok && err.contains("--force to start a new one"), "{err}");
    let (ok, _, err) = run(&[
        "estimate",
        "--game",
        "mini",
        "--samples",
        "1e4",
        "--out",
        &s("taken.json"),
        "--force",
        "-q",
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        RunState::load(&d.join("taken.json"))
            .unwrap()
            .counters
            .samples,
        10_000
    );
}
