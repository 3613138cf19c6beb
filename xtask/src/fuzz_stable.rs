//! `cargo xtask fuzz --in-process`: the `kif` and `csa` targets without libFuzzer, on any
//! stable toolchain and without cargo-fuzz, for a machine that cannot install them. The
//! checks are the targets' own (fuzz/src/records.rs, compiled in here); the inputs are
//! mutations of the seed corpus and random bytes, drawn from a fixed seed, so that a run is
//! reproducible: the same `--runs` give the same inputs. Much slower to find anything than
//! libFuzzer, which is guided by coverage: a smoke test, not a replacement.

#[path = "../../fuzz/src/records.rs"]
#[allow(dead_code)]
mod records;

use std::path::Path;
use std::time::{Duration, Instant};

/// A target's check of one input: it panics when the input shows a bug.
pub type Check = fn(&[u8]);

/// The targets this runner has, and their check.
pub const TARGETS: &[(&str, Check)] = &[("kif", records::kif), ("csa", records::csa)];

/// Words of the formats, spliced into inputs so that mutations reach the readers' branches
/// (libFuzzer learns them by comparison tracing; this runner is told).
const TOKENS: &[&str] = &[
    "先手の持駒：",
    "後手の持駒：",
    "残り全部",
    "なし",
    "手合割：平手",
    "手合割：香落ち",
    "後手番",
    "先手番",
    "手番：後手",
    "変化：1手",
    "まで",
    "詰み",
    "投了",
    "同　",
    "打",
    "成",
    "不成",
    "+",
    "|",
    " ・",
    "v玉",
    " 歩",
    "v飛",
    " と",
    "十八",
    "(77)",
    "(00)",
    "   1 ",
    "\n",
    "\r\n",
    "P1",
    "P+00HI",
    "P-00AL",
    "PI",
    "+\n",
    "-\n",
    "+7776FU",
    "-0055KA",
    "%TSUMI",
    "$EVENT:",
    "N+",
    "T9999999999999",
    "'",
    ",",
    "V2.2",
    " * ",
    "-OU",
    "+RY",
    "00AL",
    "\u{feff}",
];

/// A xorshift64* generator: enough for picking mutations, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (at least 1).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// What one run did.
pub struct Outcome {
    /// Inputs checked.
    pub runs: u64,
    /// Where the first input that failed was written, if one did.
    pub crash: Option<std::path::PathBuf>,
}

/// Runs `check` on mutations of the files of `seeds` until `seconds` or `runs` is spent;
/// the first input that panics is written to `artifacts` and ends the run.
pub fn run(
    check: Check,
    seeds: &Path,
    artifacts: &Path,
    seconds: u64,
    runs: Option<u64>,
) -> Result<Outcome, String> {
    let mut corpus: Vec<Vec<u8>> = Vec::new();
    let dir = std::fs::read_dir(seeds).map_err(|e| format!("{}: {e}", seeds.display()))?;
    let mut names: Vec<_> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
    names.sort();
    for path in names {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        // Shift_JIS seeds in UTF-8 too: the tokens spliced in are UTF-8, and a Shift_JIS
        // file with UTF-8 in it is neither, which the readers never see.
        if let Ok(text) = shogi_record::decode(&bytes) {
            if text.as_bytes() != bytes {
                corpus.push(text.into_bytes());
            }
        }
        corpus.push(bytes);
    }
    if corpus.is_empty() {
        return Err(format!("{}: no seeds", seeds.display()));
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let quiet = std::panic::take_hook();
    // A failing input is reported once, with its file; the panic message is kept for it.
    let message = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let kept = message.clone();
    std::panic::set_hook(Box::new(move |info| {
        if let Ok(mut m) = kept.lock() {
            *m = info.to_string();
        }
    }));
    let mut done = 0u64;
    let mut crash = None;
    // Every seed as it is first, then mutations.
    while runs.is_none_or(|r| done < r) && (!done.is_multiple_of(256) || Instant::now() < deadline)
    {
        let input = if (done as usize) < corpus.len() {
            corpus[done as usize].clone()
        } else {
            mutated(&corpus, &mut rng)
        };
        done += 1;
        if std::panic::catch_unwind(|| check(&input)).is_err() {
            std::fs::create_dir_all(artifacts)
                .map_err(|e| format!("{}: {e}", artifacts.display()))?;
            let path = artifacts.join(format!("crash-in-process-{done}"));
            std::fs::write(&path, &input).map_err(|e| format!("{}: {e}", path.display()))?;
            let m = message.lock().map(|m| m.clone()).unwrap_or_default();
            eprintln!("xtask fuzz: input {done} failed: {m}");
            crash = Some(path);
            break;
        }
        // Inputs that read keep being mutated, as a coverage-blind stand-in for a corpus.
        if done.is_multiple_of(64) && corpus.len() < 4096 {
            corpus.push(input);
        }
    }
    std::panic::set_hook(quiet);
    Ok(Outcome { runs: done, crash })
}

/// A mutation of a corpus input: one to four edits of bytes, tokens or a splice, or, one
/// time in sixteen, random bytes.
fn mutated(corpus: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    if rng.below(16) == 0 {
        let n = rng.below(256);
        return (0..n).map(|_| rng.next() as u8).collect();
    }
    let mut data = corpus[rng.below(corpus.len())].clone();
    for _ in 0..=rng.below(4) {
        let at = rng.below(data.len() + 1);
        match rng.below(7) {
            0 if !data.is_empty() => {
                let i = rng.below(data.len());
                data[i] ^= 1 << rng.below(8);
            }
            1 => data.insert(at, rng.next() as u8),
            2 if at < data.len() => {
                let end = (at + 1 + rng.below(16)).min(data.len());
                data.drain(at..end);
            }
            3 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                data.splice(at..at, token.iter().copied());
            }
            4 if at < data.len() => {
                // A line repeated or moved: the readers care about the order of lines.
                let end = (at + 1 + rng.below(64)).min(data.len());
                let piece = data[at..end].to_vec();
                let to = rng.below(data.len() + 1);
                data.splice(to..to, piece);
            }
            5 => {
                let other = &corpus[rng.below(corpus.len())];
                let from = rng.below(other.len() + 1);
                data.truncate(at);
                data.extend_from_slice(&other[from..]);
            }
            _ => data.truncate(at),
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A check that fails on some inputs is caught, its input written, and the run ends;
    /// the same budget draws the same inputs.
    #[test]
    fn a_failing_input_is_kept_and_runs_repeat() {
        let dir = std::env::temp_dir().join(format!("xtask-fuzz-stable-{}", std::process::id()));
        let seeds = dir.join("seeds");
        std::fs::create_dir_all(&seeds).unwrap();
        std::fs::write(seeds.join("a"), b"PI\n+\n+7776FU\n").unwrap();
        fn fails_on_x(data: &[u8]) {
            assert!(!data.contains(&b'X'), "an X");
        }
        let artifacts = dir.join("artifacts");
        let first = || run(fails_on_x, &seeds, &artifacts, 600, Some(1_000_000)).unwrap();
        let out = first();
        let crash = out.crash.expect("random bytes hold an X before long");
        assert!(std::fs::read(&crash).unwrap().contains(&b'X'));
        assert_eq!(first().runs, out.runs);
        let clean = run(|_| {}, &seeds, &artifacts, 600, Some(500)).unwrap();
        assert_eq!((clean.runs, clean.crash), (500, None));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
