//! The `rust-version` the published crates declare must be true of the locked dependencies:
//! no package they need, to build or to run their tests, may ask for a newer rustc. A
//! `cargo update` that pulls in a dependency with a higher `rust_version` makes this fail, so
//! the README's minimum and the crates.io metadata cannot drift into fiction again.
//!
//! Reads `cargo metadata --locked`: offline when the registry cache already holds every
//! locked package (the usual case after a build), else online, because a fresh machine has
//! only downloaded its own platform's packages and the check covers every platform's.
//!
//! A unit test of xtask's binary, not an integration test under `xtask/tests/`: a package
//! with integration tests has its binary built besides its test harness, and xtask's binary
//! was the single longest compilation of the first `cargo test` (174 s of 939 on a busy
//! 2-core machine: docs/BENCHMARKS.md, "The first `cargo test`").

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

type Version = (u64, u64, u64);

fn parse_version(text: &str) -> Version {
    let mut parts = text.split('.').map(|p| {
        p.parse::<u64>()
            .unwrap_or_else(|_| panic!("rust-version {text:?} is not of the form 1.85 or 1.85.0"))
    });
    let major = parts.next().unwrap_or(0);
    let minor = parts.next().unwrap_or(0);
    let patch = parts.next().unwrap_or(0);
    (major, minor, patch)
}

fn metadata() -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let run = |offline: bool| {
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(root)
            .args(["metadata", "--locked", "--format-version", "1"]);
        if offline {
            cmd.arg("--offline");
        }
        cmd.output().expect("cargo metadata runs")
    };
    let mut out = run(true);
    if !out.status.success() {
        let offline_err = String::from_utf8_lossy(&out.stderr).into_owned();
        out = run(false);
        assert!(
            out.status.success(),
            "cargo metadata --locked failed offline:\n{offline_err}\nand online:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn published_crates_declare_a_true_rust_version() {
    let meta = metadata();
    let packages: HashMap<&str, &Value> = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| (p["id"].as_str().expect("package id"), p))
        .collect();
    let nodes: HashMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .expect("resolve.nodes")
        .iter()
        .map(|n| (n["id"].as_str().expect("node id"), n))
        .collect();
    let rust_version = |id: &str| {
        packages[id]["rust_version"]
            .as_str()
            .map(|v| (parse_version(v), v.to_string()))
    };
    let label = |id: &str| {
        let p = packages[id];
        format!(
            "{} {}",
            p["name"].as_str().unwrap(),
            p["version"].as_str().unwrap()
        )
    };

    // `publish = false` shows as an empty list; absent means crates.io.
    let published: Vec<&str> = meta["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .map(|id| id.as_str().expect("member id"))
        .filter(|id| packages[id]["publish"].is_null())
        .collect();
    let names: BTreeSet<String> = published.iter().map(|id| label(id)).collect();
    for expected in [
        "shogi-core",
        "shogi-rank",
        "shogi-retro",
        "shogi-reach",
        "shogi-estimate",
    ] {
        assert!(
            names.iter().any(|n| n.starts_with(&format!("{expected} "))),
            "{expected} is no longer published: update this test ({names:?})"
        );
    }

    let mut declared = BTreeSet::new();
    let mut problems = Vec::new();
    let mut highest: Option<(Version, String)> = None;
    for &krate in &published {
        let (msrv, msrv_text) = rust_version(krate)
            .unwrap_or_else(|| panic!("{} declares no rust-version", label(krate)));
        declared.insert(msrv_text.clone());
        // A crate's own dev-dependencies are built by its tests; a dependency's are not.
        let mut stack: Vec<(&str, String)> = nodes[krate]["deps"]
            .as_array()
            .expect("deps")
            .iter()
            .map(|d| {
                let id = d["pkg"].as_str().expect("dep id");
                (id, format!("{} > {}", label(krate), label(id)))
            })
            .collect();
        let mut seen = BTreeSet::new();
        while let Some((id, path)) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            if let Some((v, text)) = rust_version(id) {
                if v > msrv {
                    problems.push(format!("{path} needs rustc {text} > {msrv_text}"));
                }
                if highest.as_ref().is_none_or(|(h, _)| v > *h) {
                    highest = Some((v, format!("{text} ({path})")));
                }
            }
            for d in nodes[id]["deps"].as_array().expect("deps") {
                let built = d["dep_kinds"]
                    .as_array()
                    .expect("dep_kinds")
                    .iter()
                    .any(|k| k["kind"].is_null() || k["kind"] == "build");
                if built {
                    let dep = d["pkg"].as_str().expect("dep id");
                    stack.push((dep, format!("{path} > {}", label(dep))));
                }
            }
        }
    }
    assert_eq!(
        declared.len(),
        1,
        "the published crates declare different rust-versions {declared:?}: use rust-version.workspace"
    );
    assert!(
        problems.is_empty(),
        "rust-version in Cargo.toml is {declared:?}, but the locked dependencies need more \
         (raise it, and the README's minimum, or keep the older dependency):\n{}",
        problems.join("\n")
    );
    println!(
        "rust-version {declared:?}; the highest any dependency asks for: {}",
        highest.map_or("none".into(), |(_, t)| t)
    );
}
