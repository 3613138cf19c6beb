//! `shogi-count estimate` and `merge`: the JSON report's contract, thread-count
//! independence, shards and merge, resume and the refusal of bad files.

use crate::common;
use common::run;
use serde_json::Value;
use std::path::PathBuf;

/// The counter fields of the JSON report (everything but timings).
const COUNTERS: [&str; 9] = [
    "samples",
    "passed_mirror",
    "passed_placement",
    "passed_check",
    "reachable",
    "unreachable",
    "unknown",
    "symmetric_reachable",
    "unreachable_depths",
];

fn json(args: &[&str]) -> Value {
    let (ok, out, err) = run(args);
    assert!(ok, "{args:?} failed: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// `estimate --game mini --samples N --seed S -q` followed by `extra`.
fn mini(samples: u64, seed: u64, extra: &[&str]) -> (bool, String, String) {
    let (n, s) = (samples.to_string(), seed.to_string());
    let args = [
        &[
            "estimate",
            "--game",
            "mini",
            "--samples",
            &n,
            "--seed",
            &s,
            "-q",
        ][..],
        extra,
    ]
    .concat();
    run(&args)
}

/// [`mini`] with `--json`, parsed.
fn mini_json(samples: u64, seed: u64, extra: &[&str]) -> Value {
    let (ok, out, err) = mini(samples, seed, &[extra, &["--json"]].concat());
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

fn counters(v: &Value) -> Vec<Value> {
    COUNTERS.iter().map(|k| v[k].clone()).collect()
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("shogi-count-estimate-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn json_report_has_the_contract_fields() {
    for method in ["paper", "fast"] {
        let v = mini_json(20_000, 1, &["--method", method]);
        for k in COUNTERS {
            assert!(!v[k].is_null(), "{method}: missing {k}");
        }
        // The first seven are the integer fields of the contract.
        for k in &COUNTERS[..7] {
            assert!(v[*k].is_u64(), "{method}: {k} is an integer");
        }
        assert_eq!(v["samples"], 20000);
        assert_eq!(v["method"], method);
        let mut intervals = vec!["estimate", "estimate_lo", "estimate_hi"];
        if method == "paper" {
            // The Wilson interval is for a binomial proportion: the paper's method only.
            intervals.extend(["wilson_lo", "wilson_hi"]);
            assert_eq!(v["sampled_space"], "candidate");
            assert!(v["phase2_rate"].is_null() && v["searched"].is_null());
        } else {
            assert!(v["wilson_lo"].is_null() && v["wilson_hi"].is_null());
            assert_eq!(v["sampled_space"], "placement-legal");
            assert_eq!(v["phase2_rate"], 0.02);
            assert_eq!(v["passed_placement"], v["passed_mirror"]);
            for k in ["pi_hat", "rho_hat", "var_phase1", "var_phase2"] {
                let x: f64 = v[k].as_str().unwrap().parse().unwrap();
                assert!(x.is_finite() && x >= 0.0, "{k} = {x}");
            }
        }
        for k in intervals {
            let s = v[k].as_str().unwrap_or_else(|| panic!("{k} is a string"));
            let x: f64 = s
                .parse()
                .unwrap_or_else(|_| panic!("{k} = {s} is a number"));
            assert!(x > 1e17 && x < 1e19, "{method}: {k} = {s}");
        }
        let lo: f64 = v["estimate_lo"].as_str().unwrap().parse().unwrap();
        let hi: f64 = v["estimate_hi"].as_str().unwrap().parse().unwrap();
        let mid: f64 = v["estimate"].as_str().unwrap().parse().unwrap();
        assert!(lo < mid && mid < hi);
        let sum = ["reachable", "unreachable", "unknown"]
            .iter()
            .map(|k| v[k].as_u64().unwrap())
            .sum::<u64>();
        let searched = if method == "paper" {
            v["passed_check"].as_u64().unwrap()
        } else {
            let a = v["with_predecessor"].as_u64().unwrap();
            let m = v["searched"].as_u64().unwrap();
            assert!(m <= a && a <= v["passed_check"].as_u64().unwrap());
            m
        };
        assert_eq!(sum, searched);
    }
}

#[test]
fn text_report_sets_tables_beside_the_paper() {
    let (ok, out, err) = run(&[
        "estimate",
        "--samples",
        "30000",
        "--threads",
        "1",
        "--method",
        "paper",
    ]);
    assert!(ok, "{err}");
    for needle in [
        "Table 1",
        "pass mirror",
        "pass piece placement",
        "pass opponent king not in check",
        "reachable (search succeeded)",
        "5,000,000,000",
        "mirror images identified",
        "mirror images distinct",
        "Table 2",
        "18,488,938",
        "|P_K| = 80880932079767835177773204009328769812438521503800714936366945233084532",
    ] {
        assert!(out.contains(needle), "no `{needle}` in\n{out}");
    }
    // The two-phase methods: the placement-legal space, each with its own Table 1 (shares of
    // the samples of S, then phase 2 with ρ̂, no paper columns and no placement row, which
    // every sample of S passes), the estimate still set beside the paper's interval. The
    // default is the conditional estimator, whose rows are of the chosen positions.
    for (args, rows) in [
        (
            &["--method", "fast"][..],
            &[
                "method fast: placement-legal space, two-phase sampling, phase-2 rate 0.002\n",
                "have a legal predecessor (phase 1)",
            ][..],
        ),
        (
            &[][..],
            &[
                "method conditional: placement-legal space, two-phase sampling, phase-2 rate 0.002, conditional estimator",
                "squares of White's king not attacked (mean)",
                "with a square not attacked",
                "chosen position canonical",
                "chosen position has a legal predecessor",
                "drawn by their weights",
            ][..],
        ),
    ] {
        let mut all = vec!["estimate", "--samples", "60000", "--threads", "1"];
        all.extend_from_slice(args);
        let (ok, out, err) = run(&all);
        assert!(ok, "{err}");
        for needle in rows.iter().chain(&[
            "|S| = 3061946014629782898209609153148603825516405472791147447142577969020272",
            "Table 1 (two-phase sampling)",
            "samples of S drawn",
            "π̂ = ",
            "searched (",
            "ρ̂ = ",
            "variance of p̂: phase 1",
            "paper [6.5469e68, 6.5531e68]",
        ]) {
            assert!(out.contains(needle), "no `{needle}` in\n{out}");
        }
        let table1: String = out
            .lines()
            .skip_while(|l| !l.starts_with("Table 1"))
            .take_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        for absent in ["pass piece placement", "paper", " z"] {
            assert!(!table1.contains(absent), "`{absent}` in\n{table1}");
        }
    }
}

#[test]
fn threads_do_not_change_the_counters() {
    let one = mini_json(30_000, 4, &["--threads", "1"]);
    let two = mini_json(30_000, 4, &["--threads", "2"]);
    assert_eq!(counters(&one), counters(&two));
    let other = mini_json(30_000, 5, &[]);
    assert_ne!(counters(&one), counters(&other));
}

#[test]
fn merged_shards_equal_the_single_run() {
    let d = dir().join("shards");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let single = mini_json(25_000, 8, &[]);
    let mut files = Vec::new();
    for k in 0..3 {
        let f = d
            .join(format!("shard-{k}.json"))
            .to_str()
            .unwrap()
            .to_string();
        let (ok, _, err) = mini(25_000, 8, &["--shard", &format!("{k}/3"), "--out", &f]);
        assert!(ok, "{err}");
        files.push(f);
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args);
    assert_eq!(counters(&merged), counters(&single));
    assert_eq!(merged["shard"], "0/1");
    // The same shard twice is refused.
    let (ok, _, err) = run(&["merge", &files[0], &files[1], &files[0]]);
    assert!(!ok);
    assert!(err.contains("appears twice"), "{err}");
    // An existing --out is not overwritten without --resume.
    let (ok, _, err) = mini(25_000, 8, &["--shard", "0/3", "--out", &files[0]]);
    assert!(!ok);
    assert!(err.contains("--resume"), "{err}");
    // Resuming a complete run with other settings is refused, naming the setting.
    let (ok, _, err) = mini(
        25_000,
        9,
        &["--shard", "0/3", "--out", &files[0], "--resume"],
    );
    assert!(!ok);
    assert!(err.contains("seed"), "{err}");
    // Resuming a complete run with the same settings just reports it again.
    let again = mini_json(
        25_000,
        8,
        &["--shard", "0/3", "--out", &files[0], "--resume"],
    );
    assert_eq!(again["samples"], 25000 / 3);
}

#[test]
fn corrupt_files_and_bad_arguments_are_clear_errors() {
    let d = dir();
    let bad = d.join("corrupt.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let (ok, _, err) = run(&["merge", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.starts_with("shogi-count: ") && err.contains("corrupt.json"),
        "{err}"
    );
    let (ok, _, err) = run(&[
        "estimate",
        "--samples",
        "10",
        "--out",
        bad.to_str().unwrap(),
        "--resume",
    ]);
    assert!(!ok);
    assert!(err.contains("not a valid estimate state file"), "{err}");
    let (ok, _, err) = run(&["estimate", "--shard", "4/4", "--samples", "10"]);
    assert!(!ok);
    assert!(err.contains("0 to 3"), "{err}");
    let (ok, _, err) = run(&["estimate", "--threads", "0", "--samples", "10"]);
    assert!(!ok);
    assert!(err.contains("a thread count is 1 or more"), "{err}");
    let (ok, _, err) = run(&["merge", d.join("nope.json").to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("nope.json"), "{err}");
}

#[test]
fn slurm_cpus_per_task_sets_the_threads_capped_by_the_cores() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = |value: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_shogi-count"))
            .args([
                "estimate",
                "--game",
                "mini",
                "--samples",
                "1000",
                "--json",
                "-q",
            ])
            .env("SLURM_CPUS_PER_TASK", value)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["threads"].as_u64().unwrap() as usize
    };
    assert_eq!(threads("1"), 1);
    assert_eq!(threads("4096"), cores);
}

#[test]
fn sample_counts_in_scientific_notation() {
    let plain = json(&[
        "estimate",
        "--game",
        "mini",
        "--samples",
        "20000",
        "--json",
        "-q",
    ]);
    for form in ["2e4", "2.0e4", "20_000", "0.2e5"] {
        let v = json(&[
            "estimate",
            "--game",
            "mini",
            "--samples",
            form,
            "--json",
            "-q",
        ]);
        assert_eq!(counters(&v), counters(&plain), "{form}");
    }
    for (form, why) in [
        ("0", "at least 1"),
        ("1.5", "not a whole number"),
        ("1e-3", "not a whole number"),
        ("-3", "negative"),
        ("1e20", "too large"),
    ] {
        let (ok, _, err) = run(&["estimate", "--game", "mini", "--samples", form]);
        assert!(!ok);
        assert!(
            err.contains("--samples") && err.contains(why),
            "{form}: {err}"
        );
    }
}

#[test]
fn resume_takes_the_settings_from_the_file_and_checks_those_given() {
    let d = dir().join("resume-settings");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("run.json");
    let file = f.to_str().unwrap();
    let first = json(&[
        "estimate",
        "--game",
        "mini",
        "--samples",
        "6000",
        "--seed",
        "3",
        "--shard",
        "1/2",
        "--max-expanded",
        "1e6",
        "--pawn-drop",
        "no-reply",
        "--out",
        file,
        "--json",
        "-q",
    ]);
    // --resume alone: the report of the saved run.
    let (ok, out, err) = run(&["estimate", "--out", file, "--resume", "--json"]);
    assert!(ok, "{err}");
    assert!(err.contains("resuming at 3000 of 3000 samples"), "{err}");
    let again: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(counters(&again), counters(&first));
    assert_eq!(again["seed"], 3);
    // The settings given again agree (the Slurm scripts pass them all).
    let (ok, _, err) = run(&[
        "estimate",
        "--game",
        "mini",
        "--samples",
        "6e3",
        "--seed",
        "3",
        "--shard",
        "1/2",
        "--max-expanded",
        "1000000",
        "--pawn-drop",
        "no-reply",
        "--out",
        file,
        "--resume",
    ]);
    assert!(ok, "{err}");
    // One that does not is named with both values.
    for (flag, value, saved) in [
        ("--game", "shogi", "game mini"),
        ("--samples", "7000", "samples 6000"),
        ("--seed", "4", "seed 3"),
        ("--shard", "0/2", "shard 1/2"),
        ("--max-expanded", "5", "max-expanded 1000000"),
        ("--max-nodes", "5", "max-nodes none"),
        ("--pawn-drop", "mate", "pawn-drop no-reply"),
    ] {
        let (ok, _, err) = run(&["estimate", flag, value, "--out", file, "--resume"]);
        assert!(!ok, "{flag} {value}");
        assert!(
            err.contains(&format!("{flag} {value} disagrees")) && err.contains(saved),
            "{flag}: {err}"
        );
    }
}

/// `--target-half-width` stops the run once the interval is that narrow: the report and
/// the saved file cover the samples done, the file is a complete run, and the interval
/// meets the target; a shard cannot have a target.
#[test]
fn a_precision_target_stops_the_run() {
    let out = dir().join("target.json");
    let _ = std::fs::remove_file(&out);
    let v = mini_json(
        5_000_000,
        3,
        &[
            "--target-half-width",
            "0.03",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let n = v["samples"].as_u64().unwrap();
    assert!(n < 5_000_000, "stopped early: {n}");
    let half: f64 = v["relative_half_width"].as_str().unwrap().parse().unwrap();
    assert!(half <= 0.03, "{half}");
    let saved = common::state_content(&out).unwrap();
    assert_eq!(saved["complete"], true);
    assert_eq!(saved["config"]["samples"].as_u64(), Some(n));
    assert_eq!(saved["counters"]["samples"].as_u64(), Some(n));
    // The saved run merges and reports the same counters.
    let m = json(&["merge", "--json", out.to_str().unwrap()]);
    assert_eq!(counters(&m), counters(&v));
    let (ok, _, err) = mini(1000, 1, &["--target-digits", "2", "--shard", "0/2"]);
    assert!(!ok && err.contains("--shard"), "{err}");
    // --method must agree with a saved run.
    let (ok, _, err) = mini(
        n,
        3,
        &[
            "--method",
            "paper",
            "--out",
            out.to_str().unwrap(),
            "--resume",
        ],
    );
    assert!(!ok && err.contains("--method paper disagrees"), "{err}");
}

/// Small runs state no confident interval: with nothing searched there is no estimate and
/// no interval (and the report says why); otherwise the interval has width, its ends lie
/// outside the normal interval's where counts are few, and the text never prints a
/// zero-width interval.
#[test]
fn small_runs_give_no_zero_width_interval() {
    for (game, samples, rate) in [
        ("shogi", "100", None),
        ("shogi", "1e4", Some("1e-9")),
        ("mini", "100", None),
        ("mini", "1000", None),
        ("mini", "1e4", None),
        ("shogi", "1e4", None),
        ("mini", "1e3", Some("1")),
    ] {
        let mut args = vec!["estimate", "--game", game, "--samples", samples, "-q"];
        if let Some(r) = rate {
            args.extend(["--phase2-rate", r]);
        }
        let v = json(&[&args[..], &["--json"]].concat());
        let searched = v["searched"]
            .as_u64()
            .unwrap_or(v["passed_check"].as_u64().unwrap());
        if searched == 0 {
            assert!(v["estimate"].is_null() && v["estimate_lo"].is_null(), "{v}");
            assert!(
                v["no_interval"].as_str().unwrap().contains("searched"),
                "{v}"
            );
            let (ok, text, _) = run(&args);
            assert!(ok);
            assert!(
                text.contains("no estimate: no sample was searched"),
                "{text}"
            );
            assert!(
                !text.contains("[0, 0]") && !text.contains("0e0, 0"),
                "{text}"
            );
            continue;
        }
        let lo: f64 = v["estimate_lo"].as_str().unwrap().parse().unwrap();
        let hi: f64 = v["estimate_hi"].as_str().unwrap().parse().unwrap();
        assert!(hi > lo && hi > 0.0, "{game} {samples}: [{lo}, {hi}]");
        assert_eq!(v["exact_binomial"], true, "{v}");
        let st = &v["statement"];
        assert!(st["half_width"].as_str().is_some(), "{v}");
    }
}

/// The text report states the estimate as value ± 3σ half-width, the interval rounded
/// outward, and how many significant digits the interval determines.
#[test]
fn the_report_says_which_digits_are_determined() {
    let (ok, text, err) = mini(2_000_000, 4, &[]);
    assert!(ok, "{err}");
    let line = text
        .lines()
        .skip_while(|l| !l.starts_with("reachable positions, mirror images identified"))
        .nth(1)
        .unwrap();
    assert!(line.contains(" ± ") && line.contains("(3σ), ["), "{line}");
    assert!(text.contains("significant digit"), "{text}");
    let v = mini_json(2_000_000, 4, &[]);
    let st = &v["statement"];
    let (lo, hi): (f64, f64) = (
        st["lo"].as_str().unwrap().parse().unwrap(),
        st["hi"].as_str().unwrap().parse().unwrap(),
    );
    let (jlo, jhi): (f64, f64) = (
        v["estimate_lo"].as_str().unwrap().parse().unwrap(),
        v["estimate_hi"].as_str().unwrap().parse().unwrap(),
    );
    // Both roundings are outward of the same interval: each contains the other's ends'
    // true values, so the coarser one contains the finer one.
    assert!(lo <= jlo && hi >= jhi, "{st} vs [{jlo}, {jhi}]");
    let digits = st["digits"].as_u64().unwrap();
    assert!((1..=4).contains(&digits), "{st}");
}

/// `sample` prints the samples `estimate` counts: over the same seed and samples, its
/// verdicts add up to the estimate's counters, each rank unranks to its SFEN, and each
/// certificate replays to its sample.
#[test]
fn sample_prints_what_estimate_counts() {
    for (game, n, method) in [
        ("mini", 3000u64, "fast"),
        ("mini", 2000, "paper"),
        ("shogi", 3000, "paper"),
    ] {
        let ns = n.to_string();
        let (ok, out, err) = run(&[
            "sample",
            "--game",
            game,
            "--samples",
            &ns,
            "--seed",
            "9",
            "--method",
            method,
            "--json",
        ]);
        assert!(ok, "{err}");
        let records: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len() as u64, n);
        let count = |v: &str| records.iter().filter(|r| r["verdict"] == v).count() as u64;
        let e = json(&[
            "estimate",
            "--game",
            game,
            "--samples",
            &ns,
            "--seed",
            "9",
            "--method",
            method,
            "--json",
            "-q",
        ]);
        let passed_mirror = n - count("non-canonical");
        assert_eq!(e["passed_mirror"].as_u64(), Some(passed_mirror));
        assert_eq!(
            e["passed_placement"].as_u64(),
            Some(passed_mirror - count("illegal-placement"))
        );
        assert_eq!(
            e["passed_check"].as_u64(),
            Some(passed_mirror - count("illegal-placement") - count("opponent-in-check"))
        );
        assert_eq!(e["reachable"].as_u64(), Some(count("reachable")));
        assert_eq!(e["unreachable"].as_u64(), Some(count("unreachable")));
        if method == "fast" {
            assert_eq!(
                e["with_predecessor"].as_u64(),
                Some(
                    count("reachable")
                        + count("unreachable")
                        + count("unknown")
                        + count("not-searched")
                )
            );
        }
        assert!(count("reachable") > 0, "{game} {method}");
        for r in records
            .iter()
            .filter(|r| r["verdict"] == "reachable")
            .take(5)
        {
            let (ok, sfen, err) = run(&["unrank", "--game", game, r["rank"].as_str().unwrap()]);
            assert!(ok, "{err}");
            assert_eq!(sfen, r["sfen"].as_str().unwrap());
            // The certificate: legal moves from a KK position to the sample.
            let kk = r["kk"].as_str().unwrap();
            let replayed = match shogi_core::AnyPosition::from_sfen(kk).unwrap() {
                shogi_core::AnyPosition::Shogi(mut p) => {
                    for m in r["moves"].as_array().unwrap() {
                        p.play_usi(m.as_str().unwrap()).unwrap();
                    }
                    p.to_sfen()
                }
                shogi_core::AnyPosition::Mini(mut p) => {
                    for m in r["moves"].as_array().unwrap() {
                        p.play_usi(m.as_str().unwrap()).unwrap();
                    }
                    p.to_sfen()
                }
            };
            let board_and_hands = |s: &str| s.split(' ').take(3).collect::<Vec<_>>().join(" ");
            assert_eq!(
                board_and_hands(&replayed),
                board_and_hands(r["sfen"].as_str().unwrap())
            );
        }
    }
    // The text form: the same verdicts, index first.
    let (ok, text, err) = run(&[
        "sample",
        "--game",
        "mini",
        "--samples",
        "50",
        "--first",
        "7",
    ]);
    assert!(ok, "{err}");
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("7 "), "{first}");
    assert_eq!(text.lines().count(), 50);
}

/// The conditional estimator's samples: the weights and verdicts add up to the estimate's
/// counters and `π̂`, each chosen position is its sample with White's king moved, and each
/// certificate replays to the chosen position.
#[test]
fn conditional_samples_add_up_to_the_estimate() {
    for game in ["mini", "shogi"] {
        let args = [
            "--game",
            game,
            "--samples",
            "3000",
            "--seed",
            "9",
            "--method",
            "conditional",
        ];
        let (ok, out, err) = run(&[&["sample", "--json"][..], &args[..]].concat());
        assert!(ok, "{err}");
        let records: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let count = |v: &str| records.iter().filter(|r| r["verdict"] == v).count() as u64;
        let e = json(&[&["estimate", "--json", "-q"][..], &args[..]].concat());
        assert_eq!(
            e["passed_mirror"].as_u64(),
            Some(3000 - count("non-canonical") - count("no-safe-square"))
        );
        let with_predecessor =
            count("reachable") + count("unreachable") + count("unknown") + count("not-searched");
        assert_eq!(e["with_predecessor"].as_u64(), Some(with_predecessor));
        assert_eq!(e["reachable"].as_u64(), Some(count("reachable")));
        // π̂: the mean weight k/g of the samples with a predecessor.
        let sum: f64 = records
            .iter()
            .filter(|r| {
                ["reachable", "unreachable", "unknown", "not-searched"]
                    .contains(&r["verdict"].as_str().unwrap())
            })
            .map(|r| r["safe_squares"].as_f64().unwrap() / r["king_squares"].as_f64().unwrap())
            .sum();
        let pi: f64 = e["pi_hat"].as_str().unwrap().parse().unwrap();
        assert!(
            (pi - sum / 3000.0).abs() < 1e-5 * pi,
            "{pi} {}",
            sum / 3000.0
        );
        for r in &records {
            let (k, g) = (
                r["safe_squares"].as_u64().unwrap(),
                r["king_squares"].as_u64().unwrap(),
            );
            assert!(k <= g && g > 0);
            assert_eq!(r.get("chosen").is_some(), k > 0, "{r}");
            if let Some(chosen) = r["chosen"].as_str() {
                // The same board but White's king, the same hands and side to move.
                let (a, b) = (r["sfen"].as_str().unwrap(), chosen);
                let strip = |s: &str| s.replace('k', "1");
                let (ta, tb): (Vec<&str>, Vec<&str>) =
                    (a.split(' ').collect(), b.split(' ').collect());
                assert_eq!(ta[1..], tb[1..], "{a} / {b}");
                assert_eq!(
                    strip(ta[0]).chars().filter(|c| c.is_alphabetic()).count(),
                    strip(tb[0]).chars().filter(|c| c.is_alphabetic()).count()
                );
            }
        }
        for r in records
            .iter()
            .filter(|r| r["verdict"] == "reachable")
            .take(5)
        {
            let chosen = r["chosen"].as_str().unwrap();
            let mut p = shogi_core::AnyPosition::from_sfen(r["kk"].as_str().unwrap()).unwrap();
            for m in r["moves"].as_array().unwrap() {
                match &mut p {
                    shogi_core::AnyPosition::Shogi(p) => {
                        p.play_usi(m.as_str().unwrap()).unwrap();
                    }
                    shogi_core::AnyPosition::Mini(p) => {
                        p.play_usi(m.as_str().unwrap()).unwrap();
                    }
                }
            }
            let end = match &p {
                shogi_core::AnyPosition::Shogi(p) => p.to_sfen(),
                shogi_core::AnyPosition::Mini(p) => p.to_sfen(),
            };
            assert_eq!(
                end.split(' ').take(3).collect::<Vec<_>>(),
                chosen.split(' ').take(3).collect::<Vec<_>>()
            );
        }
        assert!(
            count("reachable") > 0 && count("no-predecessor") > 0,
            "{game}"
        );
    }
}
