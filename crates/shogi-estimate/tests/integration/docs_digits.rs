//! The digit rule of docs/METHOD.md §8.6 applied to the documents that state results
//! (README.md, docs/RESULTS.md, results/README.md, docs/CLUSTER.md): no figure of an
//! estimated count states a digit that its interval leaves open.
//!
//! Every number in e-notation whose value lies where one of the four estimated counts lies
//! (Shogi and Mini Shogi, mirror images identified or distinct) is one of:
//!
//! - a full statement, `value ± h` or `value [lo, hi]`: the value written at least to the
//!   place of the half-width's leading digit (so that its last digits are read with their
//!   uncertainty; `6.549e68 ± 1.5e64` is refused, `6.54864e68 ± 0.00015e68` is not);
//! - part of one (a half-width after `±`, an end inside `[...]`), or one of two candidates
//!   (`6.548e68 or 6.549e68`), or a rounding point (a last digit 5 on a line that speaks of
//!   rounding points or straddling), or the paper's own figures;
//! - a bare figure, whose every digit some committed result determines: an interval of a
//!   state file in results/ (or the pooled four-digit Shogi runs) that rounds, at the
//!   figure's number of digits, to the figure at both ends.

use num_bigint::BigUint;
use shogi_core::GameKind;
use shogi_estimate::{space_size, Estimate, Interval, RunState};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The counts the documents estimate, by where their values lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quantity {
    Shogi,
    ShogiDistinct,
    Mini,
    MiniDistinct,
}

fn quantity(v: f64) -> Option<Quantity> {
    [
        (Quantity::Shogi, 6.40e68, 6.70e68),
        (Quantity::ShogiDistinct, 1.28e69, 1.34e69),
        (Quantity::Mini, 2.35e18, 2.40e18),
        (Quantity::MiniDistinct, 4.70e18, 4.80e18),
    ]
    .into_iter()
    .find(|&(_, lo, hi)| (lo..=hi).contains(&v))
    .map(|(q, _, _)| q)
}

/// The intervals of the committed results, by quantity.
fn committed() -> Vec<(Quantity, Interval)> {
    let mut out = Vec::new();
    let mut add = |game: GameKind, e: &Estimate| {
        let (a, b) = match game {
            GameKind::Shogi => (Quantity::Shogi, Quantity::ShogiDistinct),
            GameKind::Mini => (Quantity::Mini, Quantity::MiniDistinct),
        };
        if let Some(i) = e.positions_interval {
            out.push((a, i));
        }
        if let Some(i) = e.positions_distinct_interval {
            out.push((b, i));
        }
    };
    let mut four: Vec<RunState> = Vec::new();
    for entry in std::fs::read_dir(root().join("results")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let s = RunState::load(&path).unwrap();
        let space: BigUint = space_size(&s.config).unwrap();
        add(s.config.game, &Estimate::new(&s.counters, &space));
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "shogi-seed2026.json" || name == "shogi-seed2027.json" {
            four.push(s);
        }
    }
    if four.len() == 2 {
        let mut pooled = four[0].counters.clone();
        pooled.merge(&four[1].counters).unwrap();
        let space = space_size(&four[0].config).unwrap();
        add(GameKind::Shogi, &Estimate::new(&pooled, &space));
    }
    out
}

/// A number in e-notation: its text, value, significant digits and the place of its last
/// digit (as a power of ten).
#[derive(Clone, Debug)]
struct Figure {
    text: String,
    value: f64,
    digits: i32,
    last_place: i32,
    start: usize,
    end: usize,
}

/// The e-notation numbers of a line (`6.549e68`, `0.00036e68`, `1.5e64`).
fn figures(line: &str) -> Vec<Figure> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
            j += 1;
        }
        if j + 1 < b.len() && b[j] == b'e' && b[j + 1].is_ascii_digit() {
            let mut k = j + 1;
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            let mantissa = &line[i..j];
            let exp: i32 = line[j + 1..k].parse().unwrap();
            if let Ok(m) = mantissa.parse::<f64>() {
                let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
                let sig: String = mantissa
                    .chars()
                    .filter(|c| c.is_ascii_digit())
                    .skip_while(|&c| c == '0')
                    .collect();
                out.push(Figure {
                    text: line[i..k].to_string(),
                    value: m * 10f64.powi(exp),
                    digits: sig.len() as i32,
                    last_place: exp - decimals,
                    start: i,
                    end: k,
                });
            }
            i = k;
        } else {
            i = j.max(i + 1);
        }
    }
    out
}

/// The place of the leading digit of `x > 0`.
fn leading_place(x: f64) -> i32 {
    x.log10().floor() as i32
}

/// `x` rounded to `digits` significant digits, half away from zero, at the exponent of
/// `reference` (so that both ends of an interval round at the same place).
fn rounded(x: f64, digits: i32, reference: f64) -> f64 {
    let place = leading_place(reference) - digits + 1;
    let unit = 10f64.powi(place);
    (x / unit + 0.5).floor() * unit
}

/// Whether `f` states only digits that the interval determines.
fn determined_by(f: &Figure, i: &Interval) -> bool {
    let (lo, hi) = (
        rounded(i.lo, f.digits, f.value),
        rounded(i.hi, f.digits, f.value),
    );
    let tol = 10f64.powi(f.last_place) * 1e-6;
    (lo - f.value).abs() < tol && (hi - f.value).abs() < tol
}

/// The paper's own figures, quoted as the paper gives them.
const PAPER: [&str; 6] = [
    "6.5500e68",
    "6.5506e68",
    "6.5469e68",
    "6.5531e68",
    "2.376e18",
    "2.379e18",
];

/// The paragraphs of a document (lines joined by spaces, split at blank lines, table rows
/// and code fences each on their own), with the number of the line each starts on: a
/// statement broken across lines is read whole.
fn paragraphs(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        let alone = t.starts_with('|') || t.starts_with("```");
        if t.is_empty() || alone {
            open = false;
            if alone {
                out.push((n + 1, line.to_string()));
            }
            continue;
        }
        match out.last_mut() {
            Some((_, p)) if open => {
                p.push(' ');
                p.push_str(t);
            }
            _ => {
                out.push((n + 1, t.to_string()));
                open = true;
            }
        }
    }
    out
}

/// Words that say a figure is a rounding point or a distance to one, not a value.
const ROUNDING: [&str; 3] = ["rounding point", "straddl", "distance from the estimate to"];

/// The problems of one document, as `file:line: text`.
fn problems(name: &str, text: &str, results: &[(Quantity, Interval)]) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in paragraphs(text) {
        let line = line.as_str();
        let figs = figures(line);
        for (k, f) in figs.iter().enumerate() {
            let Some(q) = quantity(f.value) else {
                continue;
            };
            let before = line[..f.start].trim_end();
            let after = line[f.end..].trim_start();
            let inside_brackets =
                line[..f.start].matches('[').count() > line[..f.start].matches(']').count();
            let is_rounding_point = f
                .text
                .trim_end_matches(|c: char| c != 'e')
                .trim_end_matches('e')
                .ends_with('5')
                && ROUNDING.iter().any(|w| line.contains(w));
            let candidate = after.starts_with("or ") || before.ends_with(" or");
            if before.ends_with('±')
                || inside_brackets
                || candidate
                || is_rounding_point
                || PAPER.contains(&f.text.as_str())
            {
                continue;
            }
            let at = format!("{name}:{n}: `{}`", f.text);
            if let Some(rest) = after.strip_prefix('±').or_else(|| after.strip_prefix("(±")) {
                // `value ± h`: h in e-notation, or a percentage of the value.
                let rest = rest.trim_start();
                let h = match figs
                    .get(k + 1)
                    .filter(|g| line[f.end..g.start].contains('±'))
                {
                    Some(g) if rest.starts_with(&g.text) => Some(g.value),
                    _ => rest
                        .split('%')
                        .next()
                        .filter(|_| rest.contains('%'))
                        .and_then(|p| p.trim().parse::<f64>().ok())
                        .map(|p| p / 100.0 * f.value),
                };
                match h {
                    Some(h) if f.last_place <= leading_place(h) => {}
                    Some(h) => out.push(format!(
                        "{at} ± {h:.2e}: the value's last digit lies below the half-width's leading digit; state it as value ± h (3σ) with the value to h's second digit (METHOD §8.6)"
                    )),
                    None => out.push(format!("{at}: the half-width after ± is not readable")),
                }
                continue;
            }
            if after.starts_with('[') {
                let inner: Vec<&Figure> = figs[k + 1..].iter().take(2).collect();
                if inner.len() == 2 {
                    let half = (inner[1].value - inner[0].value) / 2.0;
                    if f.last_place <= leading_place(half) {
                        continue;
                    }
                }
                out.push(format!(
                    "{at} [..]: the value's last digit lies below the interval's half-width"
                ));
                continue;
            }
            let ok = results
                .iter()
                .filter(|(r, _)| *r == q)
                .any(|(_, i)| determined_by(f, i));
            if !ok {
                out.push(format!(
                    "{at}: no committed result determines {} significant digits of this count",
                    f.digits
                ));
            }
        }
    }
    out
}

#[test]
fn no_document_states_a_digit_its_interval_leaves_open() {
    let results = committed();
    assert!(results.iter().any(|(q, _)| *q == Quantity::Shogi));
    assert!(results.iter().any(|(q, _)| *q == Quantity::Mini));
    let mut all = Vec::new();
    for doc in [
        "README.md",
        "docs/RESULTS.md",
        "results/README.md",
        "docs/CLUSTER.md",
    ] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        all.extend(problems(doc, &text, &results));
    }
    assert!(
        all.is_empty(),
        "figures with digits their intervals leave open:\n{}",
        all.join("\n")
    );
}

/// The rule catches what it is for: the sentences an audit found, and the forms it allows.
#[test]
fn the_rule_refuses_what_an_interval_leaves_open() {
    // A Shogi interval straddling 6.5485e68, and a Mini Shogi one straddling 2.3785e18.
    let shogi = Interval {
        lo: 6.54849e68,
        hi: 6.54879e68,
    };
    let mini = Interval {
        lo: 2.378440e18,
        hi: 2.378541e18,
    };
    let results = [(Quantity::Shogi, shogi), (Quantity::Mini, mini)];
    let bad = [
        "at that point 6.549e68 ± 0.0023% (3σ) against the target's 0.0008%",
        "half-width of at most 7.64e-6 at 6.549e68, 43 core-hours",
        "Mini Shogi is 2.3785e18 to five digits",
        "estimate 6.549e68 ± 1.5e64 (3σ, 0.0023%)",
    ];
    for line in bad {
        assert!(!problems("t", line, &results).is_empty(), "{line}");
    }
    let good = [
        "about 6.55e68 positions",
        "6.54864e68 ± 0.00015e68 (3σ), [6.54849e68, 6.54879e68]",
        "the fourth digit is 8 or 9 (6.548e68 or 6.549e68)",
        "the interval straddles the rounding point 6.5485e68",
        "the paper's 6.5506e68 is a slip",
        "2.38e18 reachable positions",
        "6.5478e68 [6.4992e68, 6.5964e68]",
        "|S| = 3.0619e69, an upper bound",
    ];
    for line in good {
        assert!(
            problems("t", line, &results).is_empty(),
            "{line}: {:?}",
            problems("t", line, &results)
        );
    }
}
