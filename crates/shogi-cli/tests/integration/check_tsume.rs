//! `shogi-count check-tsume` end to end: problems whose flaws were planted and are known
//! (docs/METHOD.md §11.7), the text and JSON contracts, KIF and CSA files with their recorded
//! solutions, the KIF 変化 written, and bad inputs refused without a panic.

use crate::common::{run, run_with_stdin};
use serde_json::Value;

/// A mate in 3 with one answer: N*8d, the silver takes, the horse mates.
const SOUND3: &str = "1+L7/k1+B6/s8/9/9/9/9/9/9 b N 1";
const SOLUTION3: &str = "N*8d 9c8d 7b8b";
/// SOUND3 with a gold on 7a: 8a9a also mates in 3 (余詰 at ply 1).
const ALTERNATIVE: &str = "1+LG6/k1+B6/s8/9/9/9/9/9/9 b N 1";
/// SOUND3 with a pawn in hand, left over (駒余り).
const PIECE_LEFT: &str = "1+L7/k1+B6/s8/9/9/9/9/9/9 b NP 1";
/// SOUND3 with a silver in hand: S*8c mates at once (早詰 against the declared 3).
const EARLY: &str = "1+L7/k1+B6/s8/9/9/9/9/9/9 b NS 1";

/// A fresh directory of this test process for `name`.
fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("shogi-count-check-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

fn flaws(v: &Value) -> Vec<(String, u64)> {
    v["flaws"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["flaw"] == true)
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_string(),
                f["ply"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn planted_flaws_are_reported_with_their_kind_and_ply() {
    let with_solution = |sfen: &str| format!("{sfen} moves {SOLUTION3}");
    let (ok, out, err) = run(&[
        "check-tsume",
        "--json",
        "--threads",
        "1",
        &with_solution(SOUND3),
        &with_solution(ALTERNATIVE),
        &with_solution(PIECE_LEFT),
        &with_solution(EARLY),
    ]);
    assert!(ok, "{err}");
    let v = json_lines(&out);
    assert_eq!(v.len(), 4);
    assert_eq!(v[0]["verdict"], "sound");
    assert_eq!(
        (v[0]["length"].as_u64(), v[0]["declared"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(
        v[0]["main_line"],
        serde_json::json!(["N*8d", "9c8d", "7b8b"])
    );
    assert!(flaws(&v[0]).is_empty());
    assert_eq!(v[1]["verdict"], "flawed");
    assert_eq!(flaws(&v[1]), [("alternative-mate".to_string(), 1)]);
    assert_eq!(
        v[1]["flaws"][0]["moves"],
        serde_json::json!(["8a9a", "9b9a", "7b8a"])
    );
    assert_eq!(flaws(&v[2]), [("pieces-left".to_string(), 3)]);
    assert_eq!(v[2]["flaws"][0]["pieces"], "P");
    assert_eq!(v[3]["length"].as_u64(), Some(1));
    assert!(flaws(&v[3]).contains(&("shorter-mate".to_string(), 1)));
}

#[test]
fn the_text_line_and_declared_override() {
    let (ok, out, _) = run(&["check-tsume", "--declared", "5", SOUND3]);
    assert!(ok);
    assert_eq!(
        out.trim_end()
            .split(" line ")
            .next()
            .unwrap()
            .split(' ')
            .collect::<Vec<_>>()[..3],
        ["flawed", "3", "5"]
    );
    assert!(
        out.contains(" line N*8d 9c8d 7b8b flaw shorter-mate@1 "),
        "{out}"
    );
    let (ok, out, _) = run_with_stdin(&["check-tsume", "--declared", "3"], &format!("{SOUND3}\n"));
    assert!(ok);
    assert!(out.starts_with("sound 3 3 "), "{out}");
}

#[test]
fn kif_and_csa_files_give_their_recorded_solution_as_declared() {
    let dir = scratch("files");
    let kif = dir.join("p.kif");
    let (ok, _, err) = run(&["mate", SOUND3, "--kif", kif.to_str().unwrap()]);
    assert!(ok, "{err}");
    let csa = dir.join("p.csa");
    std::fs::write(
        &csa,
        "V2.2\nP1 * +NY *  *  *  *  *  *  * \nP2-OU * +UM *  *  *  *  *  * \n\
         P3-GI *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \n\
         P6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \n\
         P9 *  *  *  *  *  *  *  *  * \nP+00KE\nP-00AL\n+\n+0084KE\n-9384GI\n+7282UM\n",
    )
    .unwrap();
    for file in [&kif, &csa] {
        let (ok, out, err) = run(&["check-tsume", "--json", "--file", file.to_str().unwrap()]);
        assert!(ok, "{}: {err}", file.display());
        let v = &json_lines(&out)[0];
        assert_eq!(v["verdict"], "sound", "{}: {out}", file.display());
        assert_eq!(v["declared"].as_u64(), Some(3));
    }
}

#[test]
fn the_kif_holds_the_alternative_as_a_variation() {
    let out_path = scratch("kif").join("alt.kifu");
    let problem = format!("{ALTERNATIVE} moves {SOLUTION3}");
    let (ok, out, err) = run(&["check-tsume", &problem, "--kif", out_path.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.starts_with("flawed 3 3 "), "{out}");
    let kif = std::fs::read_to_string(&out_path).unwrap();
    assert!(kif.contains("まで3手で詰み"), "{kif}");
    assert!(
        kif.contains(
            "\n変化：1手\n   1 ９一成香(81)\n   2 同　玉(92)\n   3 ８一馬(72)\n   4 詰み\n"
        ),
        "{kif}"
    );
    assert!(
        kif.contains("   1 ８四桂打+\n"),
        "the branch is marked: {kif}"
    );
}

#[test]
fn bad_inputs_are_refused_without_a_panic() {
    let (ok, out, err) = run(&["check-tsume", "not a sfen", SOUND3]);
    assert!(!ok);
    assert!(out.starts_with("invalid - - 0 not a sfen\n"), "{out}");
    assert!(
        out.contains("\nsound 3 - "),
        "the other problem is still checked: {out}"
    );
    assert!(err.contains("argument 1"), "{err}");
    let (ok, out, err) = run(&["check-tsume", "--declared", "4", SOUND3]);
    assert!(!ok);
    assert!(out.starts_with("invalid"), "{out}");
    assert!(err.contains("odd number of plies, not 4"), "{err}");
    let (ok, _, err) = run(&["check-tsume", &format!("{SOUND3} moves N*8d 7b8b")]);
    assert!(!ok);
    assert!(err.contains("ply 2, 7b8b, is not legal"), "{err}");
    let (ok, _, err) = run(&["check-tsume", &format!("{SOUND3} moves Z*9z")]);
    assert!(!ok);
    assert!(err.contains("ply 1"), "{err}");
    let (ok, _, err) = run(&["check-tsume", "--seconds", "-1", SOUND3]);
    assert!(!ok);
    assert!(!err.contains("panicked"), "{err}");
}
