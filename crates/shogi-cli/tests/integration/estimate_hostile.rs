//! Hostile input for `estimate` and `merge`: garbage, truncated and edited state files,
//! counters near `u64::MAX`, negative and huge numbers, a 100 kB argument. Each must give a
//! clear error and a non-zero exit: never a panic (exit 101), never a hang, never a report.

use crate::common;

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Runs `shogi-count` with `args`, killing it past [`common::HANG_GUARD`]: (exit code, stdout, stderr).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let dir = std::env::temp_dir();
    let tag = format!("{}-{:?}", std::process::id(), std::thread::current().id());
    let tag: String = tag.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    // Files rather than pipes: nothing to drain while waiting.
    let (o, e) = (
        dir.join(format!("hostile-{tag}.out")),
        dir.join(format!("hostile-{tag}.err")),
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_shogi-count"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&o).unwrap())
        .stderr(std::fs::File::create(&e).unwrap())
        .spawn()
        .expect("the binary runs");
    let status = common::wait_or_fail(&mut child, &format!("{:?}", short(args)));
    let out = std::fs::read_to_string(&o).unwrap_or_default();
    let err = String::from_utf8_lossy(&std::fs::read(&e).unwrap()).into_owned();
    let _ = (std::fs::remove_file(&o), std::fs::remove_file(&e));
    (status.code(), out, err)
}

fn short(args: &[&str]) -> Vec<String> {
    args.iter()
        .map(|a| a.chars().take(60).collect::<String>())
        .collect()
}

/// `args` fails cleanly: exit code 1 or 2 (clap), an error on stderr containing every
/// needle, nothing on stdout.
fn refused(args: &[&str], needles: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert!(
        matches!(code, Some(1 | 2)),
        "{:?}: exit {code:?}\n{err}",
        short(args)
    );
    assert!(!err.contains("panicked"), "{:?}: {err}", short(args));
    assert!(out.is_empty(), "{:?} printed {out}", short(args));
    assert!(
        err.starts_with("shogi-count: ") || err.starts_with("error: "),
        "{:?}: {err}",
        short(args)
    );
    for n in needles {
        assert!(err.contains(n), "{:?}: no `{n}` in {err}", short(args));
    }
    err
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("shogi-count-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A complete run of the paper's method of `samples` Mini Shogi samples in shard `shard`,
/// saved in `name` (the edits below assume its single-phase counters), and the content of
/// the file as JSON.
fn good(name: &str, samples: &str, shard: &str) -> (PathBuf, Value) {
    good_with(name, samples, shard, "paper")
}

fn good_with(name: &str, samples: &str, shard: &str, method: &str) -> (PathBuf, Value) {
    let f = dir().join(name);
    let _ = std::fs::remove_file(&f);
    let (code, _, err) = run(&[
        "estimate",
        "--game",
        "mini",
        "--samples",
        samples,
        "--shard",
        shard,
        "--method",
        method,
        "-q",
        "--out",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let v = common::state_content(&f).expect("a state file");
    (f, v)
}

fn write(name: &str, bytes: &[u8]) -> String {
    let f = dir().join(name);
    std::fs::write(&f, bytes).unwrap();
    f.to_str().unwrap().to_string()
}

/// Writes the state file of `content`, checksum and identity recomputed ([`common::sealed`]).
fn write_json(name: &str, content: &Value) -> String {
    write(
        name,
        serde_json::to_string_pretty(&common::sealed(content))
            .unwrap()
            .as_bytes(),
    )
}

/// Both ways a state file is read: `merge F` and `estimate --out F --resume`.
fn both_refuse(file: &str, needles: &[&str]) {
    refused(&["merge", file], needles);
    refused(&["estimate", "--out", file, "--resume", "-q"], needles);
}

#[test]
fn garbage_and_truncated_files() {
    let mut garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    garbage[0] = 0xff;
    let f = write("garbage.json", &garbage);
    both_refuse(&f, &["garbage.json", "not a valid estimate state file"]);
    let f = write("empty.json", b"");
    both_refuse(&f, &["empty.json", "EOF"]);
    let (_, v) = good("whole.json", "3000", "0/1");
    let text = serde_json::to_string_pretty(&common::sealed(&v)).unwrap();
    for cut in [1, text.len() / 3, text.len() / 2, text.len() - 3] {
        let f = write("truncated.json", &text.as_bytes()[..cut]);
        both_refuse(&f, &["truncated.json", "not a valid estimate state file"]);
    }
    let f = write("trailing.json", format!("{text} {{}}").as_bytes());
    both_refuse(&f, &["trailing.json", "trailing"]);
    // Deep nesting in a field that is not read, then in one that is.
    let deep = format!("{{\"x\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    let f = write("deep.json", deep.as_bytes());
    both_refuse(&f, &["deep.json", "unknown field `x`"]);
    let deep = format!(
        "{{\"config\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let f = write("deep.json", deep.as_bytes());
    both_refuse(&f, &["deep.json", "not a valid estimate state file"]);
    // Not regular files: a device that never ends, a directory.
    both_refuse("/dev/zero", &["/dev/zero", "not a regular file"]);
    let d = dir();
    both_refuse(d.to_str().unwrap(), &["not a regular file"]);
}

#[test]
fn edited_numbers_name_the_field() {
    let (_, v) = good("base.json", "3000", "0/1");
    let edit = |path: &[&str], value: Value| {
        let mut w = v.clone();
        let mut at = &mut w;
        for k in path {
            at = &mut at[*k];
        }
        *at = value;
        w
    };
    for (path, value, needles) in [
        (
            &["config", "seed"][..],
            serde_json::json!(-1),
            &["config.seed", "-1"][..],
        ),
        (
            &["counters", "reachable"],
            serde_json::json!(-5),
            &["counters.reachable"],
        ),
        (
            &["counters", "expanded"],
            serde_json::json!(1e30),
            &["counters.expanded"],
        ),
        (&["next"], serde_json::json!("many"), &["field `next`"]),
        (
            &["config", "game"],
            serde_json::json!("go"),
            &["config.game"],
        ),
        (
            &["counters", "passed_mirror"],
            serde_json::json!(u64::MAX),
            &["passed_mirror", "exceeds samples"],
        ),
        (
            &["counters", "unreachable_depths"],
            serde_json::json!([u64::MAX, u64::MAX]),
            &["unreachable_depths"],
        ),
        (
            &["counters", "reachable_plies"],
            serde_json::json!([u64::MAX, 1]),
            &["reachable_plies"],
        ),
        (
            &["counters", "symmetric_reachable"],
            serde_json::json!(u64::MAX),
            &["symmetric_reachable"],
        ),
        (
            &["counters", "expanded_reachable"],
            serde_json::json!(u64::MAX),
            &["expanded_reachable"],
        ),
        (&["next"], serde_json::json!(u64::MAX), &["field `next`"]),
        (
            &["config", "shard"],
            serde_json::json!({"index": 5, "count": 2}),
            &["config.shard"],
        ),
        (
            &["config", "shard"],
            serde_json::json!({"index": 0, "count": 0}),
            &["config.shard"],
        ),
        (
            &["complete"],
            serde_json::json!(false),
            &["field `complete`"],
        ),
        (
            &["elapsed_seconds"],
            serde_json::json!(-3.0),
            &["elapsed_seconds"],
        ),
        (
            &["config", "material"],
            serde_json::json!([255, 255, 255, 255, 255, 255, 255, 255]),
            &["material", "kings"],
        ),
    ] {
        let f = write_json("edited.json", &edit(path, value));
        both_refuse(&f, needles);
    }
    // A state whose counters are consistent but claim u64::MAX samples: whole, valid,
    // and reported without overflow; two such shards cannot be added.
    let mut huge = v.clone();
    let max = serde_json::json!(u64::MAX);
    huge["config"]["samples"] = max.clone();
    huge["next"] = max.clone();
    for k in [
        "samples",
        "passed_mirror",
        "passed_placement",
        "passed_check",
        "reachable",
    ] {
        huge["counters"][k] = max.clone();
    }
    for k in ["unreachable", "unknown", "symmetric_reachable"] {
        huge["counters"][k] = serde_json::json!(0);
    }
    huge["counters"]["unreachable_depths"] = serde_json::json!([]);
    huge["counters"]["reachable_plies"] = serde_json::json!([u64::MAX]);
    huge["counters"]["reachable_expanded_log2"] = serde_json::json!([u64::MAX]);
    huge["counters"]["expanded"] = max.clone();
    huge["counters"]["expanded_reachable"] = max.clone();
    huge["counters"]["generated"] = max.clone();
    // One segment holds it all (without digests: a run that long has too many blocks).
    huge["segments"][0]["end"] = max.clone();
    huge["segments"][0]["counters"] = huge["counters"].clone();
    huge["segments"][0]["digests"] = Value::Null;
    let f = write_json("huge.json", &huge);
    let (code, out, err) = run(&["merge", "--json", &f]);
    assert_eq!(code, Some(0), "{err}");
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["samples"], max);
    assert_eq!(r["p_hat"], "1.00000e0");
    refused(&["merge", &f, &f], &["appears twice"]);
}

#[test]
fn merging_shards_whose_sums_overflow_is_refused() {
    let (_, a) = good("s0.json", "2000", "0/2");
    let (_, b) = good("s1.json", "2000", "1/2");
    let mut a2 = a.clone();
    let mut b2 = b.clone();
    for (s, v) in [(&mut a2, u64::MAX - 10), (&mut b2, 11)] {
        // Keep each file consistent: expanded_reachable <= expanded, and the one segment's
        // counters the run's.
        s["counters"]["expanded"] = serde_json::json!(v);
        s["counters"]["expanded_reachable"] = serde_json::json!(0);
        s["segments"][0]["counters"] = s["counters"].clone();
    }
    let fa = write_json("o0.json", &a2);
    let fb = write_json("o1.json", &b2);
    let err = refused(&["merge", &fa, &fb], &["expanded", "overflow", "o1.json"]);
    assert!(!err.contains("expanded_reachable"), "{err}");
    refused(
        &[
            "merge",
            "--out",
            dir().join("m.json").to_str().unwrap(),
            &fa,
            &fb,
        ],
        &["overflow"],
    );
    // And the untouched shards still merge.
    let fa = write_json("g0.json", &a);
    let fb = write_json("g1.json", &b);
    let (code, _, err) = run(&["merge", &fa, &fb]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn bad_numbers_on_the_command_line() {
    let est = |extra: &[&str], needles: &[&str]| {
        refused(
            &[&["estimate", "--game", "mini", "-q"][..], extra].concat(),
            needles,
        )
    };
    est(&["--samples", "0"], &["--samples", "at least 1"]);
    est(&["--samples", "-5"], &["--samples", "negative"]);
    est(&["--samples", "1.5"], &["--samples", "not a whole number"]);
    est(&["--samples", "1e-3"], &["not a whole number"]);
    est(&["--samples", "1e30"], &["too large"]);
    est(&["--samples", "18446744073709551616"], &["too large"]);
    est(&["--samples", "ten"], &["not a number"]);
    est(&["--max-expanded", "-1"], &["--max-expanded", "negative"]);
    est(&["--max-nodes", "1e99"], &["--max-nodes", "too large"]);
    est(&["--seed", "-1"], &["--seed"]);
    est(&["--seed", "99999999999999999999999"], &["--seed"]);
    est(&["--threads", "99999999999999999999999"], &["--threads"]);
    est(&["--checkpoint-every", "-1"], &["--checkpoint-every"]);
    est(&["--shard", "99999999999999999999999/2"], &["shard index"]);
    est(&["--shard", "1/99999999999999999999999"], &["shard count"]);
    est(&["--shard", "-1/2"], &["shard index"]);
    // 100 kB arguments: refused, and the error does not repeat them.
    let long = "9".repeat(100_000);
    let err = est(&["--samples", &long], &["too large"]);
    assert!(err.len() < 1000, "{} bytes of error", err.len());
    let long_path = format!("/tmp/{}", "a".repeat(100_000));
    est(&["--samples", "1000", "--out", &long_path], &[]);
    refused(&["merge", &long_path], &[]);
    refused(&["estimate", "--out", &long_path, "--resume"], &[]);
}

#[test]
fn counts_near_u64_max_run_without_overflow() {
    // The last sample index of the largest run: every sum and range end is at u64::MAX.
    let max = u64::MAX.to_string();
    let shard = format!("{}/{max}", u64::MAX - 1);
    let (code, out, err) = run(&[
        "estimate",
        "--game",
        "mini",
        "--samples",
        &max,
        "--shard",
        &shard,
        "--json",
        "-q",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["samples"], 1);
    // Scientific notation reaches the same runs as plain digits.
    let (code, out, err) = run(&[
        "estimate",
        "--game",
        "mini",
        "--samples",
        "1.8446744073709551615e19",
        "--shard",
        &shard,
        "--json",
        "-q",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let w: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["reachable"], w["reachable"]);
}

/// The two-phase counters of a fast run, edited out of their relations or out of step with
/// the run's settings, are refused naming the field; a fast shard does not merge with a
/// paper one.
#[test]
fn edited_two_phase_counters_name_the_field() {
    let (f, v) = good_with("fast.json", "3000", "0/1", "fast");
    let (code, _, err) = run(&["merge", "--json", f.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let searched = v["counters"]["two_phase"]["searched"].as_u64().unwrap();
    let check = v["counters"]["passed_check"].as_u64().unwrap();
    for (edit_at, value, needle) in [
        ("searched", serde_json::json!(searched + 1), "searched"),
        (
            "with_predecessor",
            serde_json::json!(check + 1),
            "with_predecessor",
        ),
        (
            "with_predecessor",
            serde_json::json!(-1),
            "with_predecessor",
        ),
    ] {
        let mut e = v.clone();
        e["counters"]["two_phase"][edit_at] = value;
        let f = write_json("edited-fast.json", &e);
        both_refuse(&f, &[needle]);
    }
    let mut e = v.clone();
    e["counters"].as_object_mut().unwrap().remove("two_phase");
    both_refuse(&write_json("no-phase.json", &e), &["two_phase"]);
    let mut e = v.clone();
    e["config"]["phase2_rate"] = serde_json::json!(0.0);
    both_refuse(&write_json("rate.json", &e), &["phase2_rate"]);
    let mut e = v.clone();
    e["config"]["space"] = serde_json::json!("everything");
    both_refuse(&write_json("space.json", &e), &["space"]);
    let (p0, _) = good("paper-half.json", "3000", "0/2");
    let (f1, _) = good_with("fast-half.json", "3000", "1/2", "fast");
    refused(
        &["merge", p0.to_str().unwrap(), f1.to_str().unwrap()],
        &["different runs"],
    );
}

/// Shard files as merge must take them: a relabelled copy (its checksum no longer holds),
/// a duplicate, a foreign run, an overlapping split and a gap are refused with the reason;
/// `--partial` reports the shards present and names the missing ones; `--out` never
/// writes over an existing file, an input least of all, and is checked before any work.
#[test]
fn merge_refuses_what_would_fake_a_result() {
    let paths: Vec<(PathBuf, Value)> = (0..4)
        .map(|k| good(&format!("m{k}of4.json"), "4000", &format!("{k}/4")))
        .collect();
    let p = |k: usize| paths[k].0.to_str().unwrap().to_string();
    // A copy of shard 0 relabelled 1/4, by hand: the checksum catches it.
    let text = std::fs::read_to_string(&paths[0].0).unwrap();
    let relabelled = text.replacen("\"index\": 0", "\"index\": 1", 1);
    assert_ne!(relabelled, text);
    let f = write("relabelled.json", relabelled.as_bytes());
    refused(
        &["merge", &p(0), &f, &p(2), &p(3)],
        &["relabelled.json", "checksum"],
    );
    // The same, with the progress, the checksum and the identity made to fit: shard 0's
    // Figure 18 points lie outside shard 1's samples.
    let mut c = paths[0].1.clone();
    c["config"]["shard"]["index"] = 1.into();
    c["next"] = 2000.into();
    let f = write_json("relabelled-sealed.json", &c);
    refused(&["merge", &p(0), &f, &p(2), &p(3)], &["counters.figure"]);
    refused(&["merge", &p(0), &p(1), &p(1), &p(3)], &["appears twice"]);
    let (half, _) = good("half0of2.json", "4000", "0/2");
    refused(
        &["merge", &p(0), half.to_str().unwrap(), &p(2), &p(3)],
        &["overlaps shard"],
    );
    let err = refused(&["merge", &p(0), &p(1), &p(3)], &["--partial"]);
    assert!(err.contains("shard 2/4"), "{err}");
    let (code, out, err) = run(&["merge", "--partial", &p(0), &p(3), "--json"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("shard 1/4, shard 2/4"), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["samples"], 2000);
    // --out: never an existing file (an input among them), and checked before reading.
    let before = std::fs::read(&paths[0].0).unwrap();
    refused(
        &["merge", "--out", &p(0), &p(0), &p(1), &p(2), &p(3)],
        &["is also an input"],
    );
    assert_eq!(std::fs::read(&paths[0].0).unwrap(), before);
    refused(
        &[
            "merge",
            "--out",
            "/proc/no-such-dir/m.json",
            &p(0),
            &p(1),
            &p(2),
            &p(3),
        ],
        &["/proc/no-such-dir/m.json"],
    );
    refused(
        &[
            "merge",
            "--partial",
            "--out",
            dir().join("partial-out.json").to_str().unwrap(),
            &p(0),
        ],
        &["every shard"],
    );
    let whole = dir().join("merged-whole.json");
    let _ = std::fs::remove_file(&whole);
    let (code, _, err) = run(&[
        "merge",
        "--out",
        whole.to_str().unwrap(),
        &p(3),
        &p(1),
        &p(0),
        &p(2),
    ]);
    assert_eq!(code, Some(0), "{err}");
    // The merged file is a valid state of the whole run.
    let (code, out, err) = run(&["merge", "--json", whole.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["samples"],
        4000
    );
}

/// An `--out` that cannot be written is found before the first sample: the run below would
/// take hours if it started.
#[test]
fn unwritable_out_is_refused_before_the_run() {
    for out in ["/proc/shogi-count-test.json", "/no-such-dir/run.json"] {
        refused(
            &["estimate", "--samples", "1e12", "-q", "--out", out],
            &[out],
        );
    }
    refused(
        &[
            "estimate",
            "--samples",
            "1e12",
            "-q",
            "--out",
            dir().to_str().unwrap(),
        ],
        &["exists"],
    );
}
