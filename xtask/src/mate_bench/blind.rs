//! `mate-bench --blind`: shogi-mate against cshogi's `DfPn` on every set, committed and
//! blind, position by position in one run, each set cut into the halves defaults may be
//! tuned on (`tune`) and are judged on (`test`).
//!
//! A position is a mate when either solver proves one (every line replayed), a no-mate when
//! either disproves it, and unknown when neither decides; the two disagreeing is an error.
//! Each solver's time on the mates and on the no-mates counts every position of the class,
//! those it left unknown at the node limit included, so that giving up is not cheaper than
//! deciding.

use super::{Answer, MateBenchArgs};
use crate::mate_data::{sfens, testdata};
use shogi_core::{Move, Position, Relax, Shogi};
use shogi_mate::{verify_line, DefenderHand, MateOptions, Solver, Verdict};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// The sets of `--blind` when no `--set` is given: the committed ones the defaults were
/// chosen on, then the blind ones of `make_blind_sets.py`.
pub(super) const SETS: [&str; 5] = [
    "shogi_mates.tsv",
    "shogi_nomates.tsv",
    "shogi_random.tsv",
    "blind_greedy.tsv",
    "blind_classics.tsv",
];

/// The half of a position: `tune` or `test` by the top bit of the 64-bit FNV-1a hash of
/// its board, side to move and hands (the SFEN's first three fields, space-separated), as
/// `make_blind_sets.py` writes it. Fixed by the position alone, so no choice of rows can
/// lean towards what a default does well.
pub(super) fn half(sfen: &str) -> &'static str {
    let body = sfen
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ");
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in body.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    if h >> 63 == 0 {
        "tune"
    } else {
        "test"
    }
}

/// cshogi's `DfPn`, one fresh search a position, in a Python process kept open
/// (`time_cshogi.py --serve`), timed by Python around `search()` alone.
struct Cshogi {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Cshogi {
    fn start(args: &MateBenchArgs) -> Result<Cshogi, String> {
        let mut child = Command::new(&args.python)
            .arg(testdata().join("time_cshogi.py"))
            .args(["--serve", "--depth", &args.depth.to_string()])
            .args(["--nodes", &args.nodes.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", args.python))?;
        let input = child.stdin.take().ok_or("no stdin for cshogi")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout for cshogi")?);
        let mut c = Cshogi {
            child,
            input,
            output,
        };
        // The greeting says cshogi imported; without it Python's error is on stderr.
        c.reply()
            .map_err(|e| format!("cshogi did not start ({e})"))?;
        Ok(c)
    }

    fn reply(&mut self) -> Result<serde_json::Value, String> {
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) => Err("cshogi's process ended".into()),
            Ok(_) => serde_json::from_str(&line).map_err(|e| format!("`{}`: {e}", line.trim())),
            Err(e) => Err(e.to_string()),
        }
    }

    /// cshogi's answer on `sfen`; a mate whose PV does not replay is an error.
    fn solve(&mut self, pos: &Position<Shogi>, sfen: &str) -> Result<Answer, String> {
        writeln!(self.input, "{sfen}").map_err(|e| format!("to cshogi: {e}"))?;
        let v = self.reply()?;
        let verdict = match v["verdict"].as_str() {
            Some("mate") => Verdict::Mate,
            Some("nomate") => Verdict::NoMate,
            _ => Verdict::Unknown,
        };
        if verdict == Verdict::Mate {
            let pv: Vec<Move> = v["pv"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|m| Move::from_usi::<Shogi>(m.as_str().unwrap_or("")))
                .collect::<Result<_, _>>()
                .map_err(|e| format!("cshogi's PV on {sfen}: {e}"))?;
            let root = shogi_mate::with_defender_hand(pos, DefenderHand::Sfen);
            verify_line(&root, &pv)
                .map_err(|e| format!("cshogi's PV on {sfen} does not mate: {e}"))?;
        }
        Ok(Answer {
            verdict,
            plies: v["pv"].as_array().map_or(0, Vec::len),
            nodes: v["nodes"].as_u64().unwrap_or(0),
            time: Duration::from_secs_f64(v["s"].as_f64().unwrap_or(0.0)),
        })
    }
}

impl Drop for Cshogi {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Both solvers' totals over one class of positions (mates, or no-mates) of one half.
#[derive(Default, Clone, Copy)]
struct Class {
    positions: usize,
    ours: Duration,
    theirs: Duration,
    ours_nodes: u64,
    theirs_nodes: u64,
    /// Decided by cshogi, not by shogi-mate.
    ours_missed: usize,
    /// Decided by shogi-mate, not by cshogi.
    theirs_missed: usize,
}

impl Class {
    fn add(&mut self, ours: Answer, theirs: Answer) {
        self.merge(&Class {
            positions: 1,
            ours: ours.time,
            theirs: theirs.time,
            ours_nodes: ours.nodes,
            theirs_nodes: theirs.nodes,
            ours_missed: usize::from(ours.verdict == Verdict::Unknown),
            theirs_missed: usize::from(theirs.verdict == Verdict::Unknown),
        });
    }

    fn merge(&mut self, c: &Class) {
        self.positions += c.positions;
        self.ours += c.ours;
        self.theirs += c.theirs;
        self.ours_nodes += c.ours_nodes;
        self.theirs_nodes += c.theirs_nodes;
        self.ours_missed += c.ours_missed;
        self.theirs_missed += c.theirs_missed;
    }

    fn row(&self, set: &str, half: &str, what: &str) {
        if self.positions == 0 {
            return;
        }
        let ratio = self.ours.as_secs_f64() / self.theirs.as_secs_f64().max(1e-9);
        println!(
            "| {set} | {half} | {what} | {} | {:.3} s | {:.3} s | {ratio:.2} | {} / {} | {} | {} |",
            self.positions,
            self.ours.as_secs_f64(),
            self.theirs.as_secs_f64(),
            self.ours_nodes,
            self.theirs_nodes,
            self.ours_missed,
            self.theirs_missed,
        );
    }
}

/// `--blind`: every set of `--set` (or [`SETS`]) with both solvers, one table.
pub(super) fn run(args: &MateBenchArgs) -> Result<(), String> {
    let files: Vec<String> = if args.set.is_empty() {
        SETS.iter().map(|s| s.to_string()).collect()
    } else {
        args.set.clone()
    };
    let mut ours = Solver::<Shogi>::new(MateOptions {
        max_nodes: args.nodes,
        ..MateOptions::default()
    });
    let mut theirs = Cshogi::start(args)?;
    let mut per_position = match &args.per_position {
        Some(path) => {
            let mut f =
                std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            writeln!(
                f,
                "set\thalf\tsfen\tours\tours_nodes\tours_s\tcshogi\tcshogi_nodes\tcshogi_s"
            )
            .map_err(|e| e.to_string())?;
            Some(f)
        }
        None => None,
    };
    println!(
        "| set | half | class | positions | shogi-mate | cshogi | ratio | nodes (ours / cshogi) | left unknown by shogi-mate | left unknown by cshogi |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
    let (mut mates_all, mut nomates_all) = ([Class::default(); 2], [Class::default(); 2]);
    for file in &files {
        let mut sfen_list = sfens(file)?;
        if let Some(n) = args.first {
            sfen_list.truncate(n);
        }
        // Index 0 `tune`, 1 `test`.
        let (mut mates, mut nomates, mut neither) =
            ([Class::default(); 2], [Class::default(); 2], [0usize; 2]);
        for (i, sfen) in sfen_list.iter().enumerate() {
            let pos = Position::<Shogi>::from_sfen_with(sfen, Relax::ATTACKER_WITHOUT_KING)
                .map_err(|e| format!("{file}: {sfen}: {e}"))?;
            // Alternate who goes first, so that neither always meets a cold cache.
            let (a, b) = if i % 2 == 0 {
                let a = Answer::solved(&mut ours, &pos);
                (a, theirs.solve(&pos, sfen)?)
            } else {
                let b = theirs.solve(&pos, sfen)?;
                (Answer::solved(&mut ours, &pos), b)
            };
            let name = half(sfen);
            let h = usize::from(name == "test");
            if let Some(f) = &mut per_position {
                writeln!(
                    f,
                    "{file}\t{name}\t{sfen}\t{}\t{}\t{:.6}\t{}\t{}\t{:.6}",
                    a.verdict_name(),
                    a.nodes,
                    a.time.as_secs_f64(),
                    b.verdict_name(),
                    b.nodes,
                    b.time.as_secs_f64()
                )
                .map_err(|e| e.to_string())?;
            }
            match (a.verdict, b.verdict) {
                (Verdict::Mate, Verdict::NoMate) | (Verdict::NoMate, Verdict::Mate) => {
                    return Err(format!("{file}: {sfen}: shogi-mate and cshogi disagree"));
                }
                (Verdict::Mate, _) | (_, Verdict::Mate) => mates[h].add(a, b),
                (Verdict::NoMate, _) | (_, Verdict::NoMate) => nomates[h].add(a, b),
                _ => neither[h] += 1,
            }
        }
        for (h, name) in ["tune", "test"].iter().enumerate() {
            mates[h].row(file, name, "mates");
            nomates[h].row(file, name, "no-mates");
            if neither[h] > 0 {
                println!(
                    "| {file} | {name} | undecided by both | {} | | | | | | |",
                    neither[h]
                );
            }
            mates_all[h].merge(&mates[h]);
            nomates_all[h].merge(&nomates[h]);
        }
    }
    for (h, name) in ["tune", "test"].iter().enumerate() {
        mates_all[h].row("all sets", name, "mates");
        nomates_all[h].row("all sets", name, "no-mates");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The halves depend on the board, side and hands only, and cut a set about in two.
    #[test]
    fn halves_are_fixed_by_the_position_and_even() {
        let a = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        assert_eq!(half(a), half(&a.replace(" 1", " 77")));
        let rows = sfens("shogi_random.tsv").unwrap();
        let test = rows.iter().filter(|s| half(s) == "test").count();
        assert!((600..900).contains(&test), "{test} of {}", rows.len());
    }
}
