//! KIF and CSA problem files made by another program (cshogi: testdata/mate/files) give the
//! verdicts of their SFENs, and `mate --kif` writes games that read back.

use crate::common::{run, run_with_stdin};

fn dir() -> String {
    format!("{}/../../testdata/mate/files", env!("CARGO_MANIFEST_DIR"))
}

/// `file`, the SFEN it was made from, cshogi's verdict.
fn index() -> Vec<(String, String, String)> {
    std::fs::read_to_string(format!("{}/index.tsv", dir()))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

/// The fields of a `mate` line but the SFEN (a file's SFEN has move number 1).
fn without_sfen(line: &str) -> Vec<String> {
    let w: Vec<&str> = line.split(' ').collect();
    w[..3]
        .iter()
        .chain(&w[7..])
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn files_give_the_verdicts_of_their_sfens() {
    let rows = index();
    assert_eq!(rows.len(), 60);
    let mut args = vec!["mate".to_string(), "--threads".into(), "2".into()];
    for (file, _, _) in &rows {
        args.push("--file".into());
        args.push(format!("{}/{file}", dir()));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, from_files, err) = run(&args);
    assert!(ok, "{err}");
    let sfens: String = rows.iter().map(|r| format!("{}\n", r.1)).collect();
    let (ok, from_sfens, err) = run_with_stdin(
        &["mate", "--threads", "2", "--defender-hand", "sfen"],
        &sfens,
    );
    assert!(ok, "{err}");
    let a: Vec<&str> = from_files.lines().collect();
    let b: Vec<&str> = from_sfens.lines().collect();
    assert_eq!(a.len(), rows.len());
    for ((x, y), (file, _, cshogi)) in a.iter().zip(&b).zip(&rows) {
        assert_eq!(without_sfen(x), without_sfen(y), "{file}");
        let want = if cshogi == "mate" { "mate" } else { "no-mate" };
        assert_eq!(x.split(' ').next(), Some(want), "{file}: {x}");
    }
}

#[test]
fn kif_output_reads_back() {
    let tmp = std::env::temp_dir().join(format!("shogi-count-kif-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for (i, (_, sfen, verdict)) in index().iter().enumerate().step_by(6) {
        // Shift_JIS for .kif, UTF-8 for .kifu.
        let out = tmp.join(if i % 4 == 0 { "a.kif" } else { "a.kifu" });
        let out = out.to_str().unwrap();
        // The same two names again and again: --force replaces the last one's.
        let (ok, line, err) = run(&[
            "mate",
            "--defender-hand",
            "sfen",
            "--force",
            "--kif",
            out,
            sfen,
        ]);
        if verdict != "mate" {
            assert!(!ok && err.contains("no mate found"), "{err}");
            continue;
        }
        assert!(ok, "{err}");
        let (ok, back, err) = run(&["mate", "--file", out]);
        assert!(ok, "{err}");
        assert_eq!(without_sfen(&back), without_sfen(&line));
    }
    // One game a file.
    let out = tmp.join("b.kif");
    let (ok, _, err) = run(&[
        "mate",
        "--kif",
        out.to_str().unwrap(),
        "4k4/9/4P4/9/9/9/9/9/8K b G 1",
        "4k4/9/4P4/9/9/9/9/9/8K b G 1",
    ]);
    assert!(!ok && err.contains("one problem"), "{err}");
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn bad_files_are_refused_with_the_line() {
    let tmp = std::env::temp_dir().join(format!("shogi-count-badkif-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for (name, text, want) in [
        ("x.kif", "後手の持駒：なし\n| ・|一\n", "line 2"),
        ("x.csa", "PI\n+\nT9999999999999999999999999\n", "line 3"),
        ("x.kif", "手合割：平手\n   1 ７五歩(77)\n", "line 2"),
    ] {
        let path = tmp.join(name);
        std::fs::write(&path, text).unwrap();
        let (ok, _, err) = run(&["mate", "--file", path.to_str().unwrap()]);
        assert!(!ok && err.contains(want), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Issue 35, D2: `mate --file p.csa --kif p.csa` replaced the problem with its solution,
/// and `--kif` any existing file, silently. An existing file is now refused before the
/// search unless `--force`, and an input always; links are followed, not replaced.
#[test]
fn kif_output_never_replaces_an_input_or_an_existing_file() {
    let tmp = std::env::temp_dir().join(format!("shogi-count-kif-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let problem = tmp.join("p.csa");
    let original = std::fs::read(format!("{}/public-mate5.csa", dir())).unwrap();
    std::fs::write(&problem, &original).unwrap();
    let p = problem.to_str().unwrap();
    // Its own input, with and without --force, by its name or through a link.
    let link = tmp.join("link.csa");
    std::os::unix::fs::symlink(&problem, &link).unwrap();
    for args in [
        vec!["mate", "--file", p, "--kif", p],
        vec!["mate", "--file", p, "--kif", p, "--force"],
        vec![
            "mate",
            "--file",
            p,
            "--force",
            "--kif",
            link.to_str().unwrap(),
        ],
    ] {
        let (ok, out, err) = run(&args);
        assert!(!ok && out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("is also an input"), "{args:?}: {err}");
        assert_eq!(std::fs::read(&problem).unwrap(), original, "{args:?}");
    }
    // Another existing file: refused before any search, then replaced with --force.
    let other = tmp.join("old.kif");
    std::fs::write(&other, "keep me").unwrap();
    let o = other.to_str().unwrap();
    let (ok, out, err) = run(&["mate", "--file", p, "--kif", o]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(err.contains("exists: give --force"), "{err}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep me");
    let (ok, _, err) = run(&["mate", "--file", p, "--kif", o, "--force"]);
    assert!(ok, "{err}");
    assert!(std::fs::read(&other).unwrap().len() > 100);
    // Through a link to a new name: the file is written where the link points.
    let target = tmp.join("target.kifu");
    let out_link = tmp.join("out-link.kifu");
    std::os::unix::fs::symlink(&target, &out_link).unwrap();
    let (ok, _, err) = run(&["mate", "--file", p, "--kif", out_link.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(std::fs::symlink_metadata(&out_link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target).unwrap().contains("手数"));
    let _ = std::fs::remove_dir_all(&tmp);
}
