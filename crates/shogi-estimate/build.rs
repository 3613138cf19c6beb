//! The identity of the counting code, for the segments of a state file (docs/METHOD.md §10.5):
//! a SHA-256 over the sources that decide what a run counts (the sample stream, the filters,
//! the predecessor test, the search and the counters), the external crates they use at the
//! versions locked, the compiler and the target. Two binaries with the same fingerprint
//! count alike; a binary with another one must show it by a recount before it continues a
//! run (`estimate --resume`). The fingerprint errs on the side of changing: a reworded
//! comment in shogi-core changes it, and costs one recount of 10^7 samples.
//!
//! Also the commit of the checkout the binary is built from, when git can tell.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates on the counting path whose whole `src/` counts.
const WHOLE_CRATES: [&str; 4] = ["shogi-core", "shogi-rank", "shogi-retro", "shogi-reach"];

/// The modules of this crate that decide the counters; the others (reports, files,
/// verification) only read them. A test (`segment::tests`) keeps the classification
/// complete, so that a new module cannot join the counting path unseen.
const COUNTING_MODULES: [&str; 7] = [
    "conditional.rs",
    "config.rs",
    "counters.rs",
    "pipeline.rs",
    "run.rs",
    "stream.rs",
    "target.rs",
];

/// The external crates of the counting path, whose locked versions count.
const LOCKED: [&str; 9] = [
    "arrayvec",
    "bitflags",
    "chacha20",
    "hashbrown",
    "num-bigint",
    "num-integer",
    "num-traits",
    "rand_core",
    "rayon",
];

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let crates = here.parent().expect("crates/").to_path_buf();
    let root = crates.parent().expect("the workspace").to_path_buf();
    let mut h = Sha256::new();
    let mut feed = |label: &str, bytes: &[u8]| {
        h.update(label.as_bytes());
        h.update(b"\n");
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };

    let mut files = Vec::new();
    for c in WHOLE_CRATES {
        let dir = crates.join(c);
        files_under(&dir.join("src"), &mut files);
        files.push(dir.join("Cargo.toml"));
        println!("cargo:rerun-if-changed={}", dir.join("src").display());
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("Cargo.toml").display()
        );
    }
    for m in COUNTING_MODULES {
        files.push(here.join("src").join(m));
    }
    files.push(here.join("Cargo.toml"));
    println!("cargo:rerun-if-changed={}", here.join("src").display());
    println!(
        "cargo:rerun-if-changed={}",
        here.join("Cargo.toml").display()
    );
    files.sort();
    for f in &files {
        // A published crate has no sibling sources: their absence is part of the identity.
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        match std::fs::read(f) {
            Ok(bytes) => feed(&rel, &bytes),
            Err(_) => feed(&rel, b"<absent>"),
        }
    }

    let lock = root.join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    for package in text.split("[[package]]") {
        let field = |name: &str| {
            package
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name} = \"")))
                .and_then(|v| v.strip_suffix('"'))
                .map(str::to_string)
        };
        if let (Some(name), Some(version)) = (field("name"), field("version")) {
            if LOCKED.contains(&name.as_str()) {
                feed("locked", format!("{name} {version}").as_bytes());
            }
        }
    }

    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("-vV")
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    feed("rustc", &version);
    feed(
        "target",
        std::env::var("TARGET").unwrap_or_default().as_bytes(),
    );
    feed(
        "features",
        std::env::var("CARGO_CFG_TARGET_FEATURE")
            .unwrap_or_default()
            .as_bytes(),
    );

    let fingerprint: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=SHOGI_ESTIMATE_FINGERPRINT={fingerprint}");

    // The commit, with `-modified` when the counting sources differ from it.
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(&root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "HEAD"]).map(|c| {
        let mut paths: Vec<String> = WHOLE_CRATES.iter().map(|c| format!("crates/{c}")).collect();
        paths.extend(
            COUNTING_MODULES
                .iter()
                .map(|m| format!("crates/shogi-estimate/src/{m}")),
        );
        let mut args = vec!["status", "--porcelain", "--"];
        args.extend(paths.iter().map(String::as_str));
        match git(&args) {
            Some(s) if s.is_empty() => c,
            _ => format!("{c}-modified"),
        }
    });
    println!(
        "cargo:rustc-env=SHOGI_COUNT_COMMIT={}",
        commit.unwrap_or_default()
    );
    println!(
        "cargo:rustc-env=SHOGI_ESTIMATE_COUNTING_MODULES={}",
        COUNTING_MODULES.join(",")
    );
    // A new commit changes HEAD or the branch it points to (wherever a worktree keeps them).
    let mut watched = vec![git(&["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) = git(&["rev-parse", "--symbolic-full-name", "HEAD"]) {
        watched.push(git(&["rev-parse", "--git-path", &branch]));
    }
    for p in watched.into_iter().flatten() {
        let p = root.join(p);
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
}
