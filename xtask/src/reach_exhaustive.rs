//! `cargo xtask reach-exhaustive`: the exhaustive cross-check of docs/METHOD.md §9 (last bullet) on
//! materials too large for the test suite: every candidate of `P_K` through the backward
//! search, against a forward breadth-first search from every KK position.
//!
//! Each configuration runs on one thread and is deterministic; several run one after the
//! other. The default set (every pair of kinds in Mini Shogi, every single kind in Shogi:
//! 22 configurations, 33.5 million candidates) takes about five minutes of one core and
//! under 100 MB.

use clap::Args;
use shogi_core::{Game, GameKind, Material, MiniShogi, PieceKind, Rules, Shogi};
use shogi_reach::{SearchConfig, Stage};
use shogi_verify::exhaustive::{
    cross_check, forward_reachable_with, kk_connectivity, CrossCheckOptions, CrossCheckReport,
    ForwardOptions,
};
use std::time::Instant;

/// The options of `cargo xtask reach-exhaustive`.
#[derive(Args, Debug)]
pub struct ReachExhaustiveArgs {
    /// Which game: shogi, mini or both. Without --pieces, the default configurations of
    /// that game.
    #[arg(long, default_value = "both", value_parser = crate::parse_games)]
    game: crate::Games,
    /// The non-king pieces of one configuration as SFEN letters (`GP`, `PP`, `GSP`; `-` for
    /// the kings alone); repeat for several. Default: every pair of kinds in Mini Shogi and
    /// every single kind in Shogi.
    #[arg(long)]
    pieces: Vec<String>,
    /// Use the paper's reading of the drop-pawn-mate rule (no legal reply).
    #[arg(long)]
    no_reply: bool,
    /// Skip the check that the KK positions are mutually reachable.
    #[arg(long)]
    no_kk: bool,
    /// Skip the check that every expanded position's mirror and colour-flipped images have
    /// the images of its successors (it quadruples the forward search).
    #[arg(long)]
    no_symmetry: bool,
    /// Only the forward closure and the KK mutual-reachability check of docs/METHOD.md §7, without
    /// the rank sweep (several times faster, for larger material).
    #[arg(long)]
    kk_only: bool,
    /// Give up on a configuration whose forward closure stores more keys than this (a
    /// memory bound: about 16 to 32 bytes a key).
    #[arg(long)]
    max_forward: Option<usize>,
}

/// The default configurations of Mini Shogi: the kings and every pair of its kinds.
const MINI_DEFAULT: [&str; 15] = [
    "GG", "GP", "GS", "GR", "GB", "PP", "PS", "PR", "PB", "SS", "SR", "SB", "RR", "RB", "BB",
];
/// The default configurations of Shogi: the kings and one piece of each kind.
const SHOGI_DEFAULT: [&str; 7] = ["P", "L", "N", "S", "G", "B", "R"];

/// The material of the kings plus the pieces named by SFEN letters (`-` for none).
pub(crate) fn parse_pieces(text: &str) -> Result<Material, String> {
    let mut m = Material::default();
    m.set(PieceKind::King, 2);
    for c in text.chars().filter(|&c| c != '-') {
        let kind = PieceKind::from_letter(c)
            .filter(|&k| k != PieceKind::King)
            .ok_or_else(|| format!("{text:?}: {c:?} is not a piece letter (RBGSNLP)"))?;
        m.set(kind, m.get(kind) + 1);
    }
    Ok(m)
}

const HEADER: &str = "game  material      |P_K|       forward     keys        KK      depth  \
                      reachable  canonical  unreachable  KK-connected  mismatches  seconds";

/// One line of the results table.
fn row(r: &CrossCheckReport, secs: f64) -> String {
    let kk = match &r.kk {
        Some(kk) if kk.connected() => "yes",
        Some(_) => "NO",
        None => "-",
    };
    format!(
        "{:<5} {:<13} {:<11} {:<11} {:<11} {:<7} {:<6} {:<10} {:<10} {:<12} {:<13} {:<11} {:.1}",
        r.game,
        r.material.to_string(),
        r.candidates,
        r.forward,
        r.forward_stored,
        r.kk_positions,
        r.forward_depth,
        r.reachable,
        r.stage(Stage::Reachable),
        r.stage(Stage::Unreachable),
        kk,
        r.mismatch_count,
        secs,
    )
}

/// Runs one configuration; `Ok(true)` when every check passed.
fn run_one<G: Game>(
    material: &Material,
    args: &ReachExhaustiveArgs,
    rules: Rules,
) -> Result<bool, String> {
    let start = Instant::now();
    if args.kk_only {
        let options = ForwardOptions {
            rules,
            limit: args.max_forward,
            verify_symmetry: !args.no_symmetry,
        };
        let set = forward_reachable_with::<G>(material, &options).map_err(|e| e.to_string())?;
        let kk = kk_connectivity(&set, args.max_forward).map_err(|e| e.to_string())?;
        let (asymmetric, example) = set.asymmetric();
        let ok = kk.connected() && kk.unsound_predecessors == 0 && asymmetric == 0;
        println!(
            "{:<5} {:<13} forward {} ({} keys, {} KK, depth {}): KK positions reached from \
             the hub's orbit {}, reaching it {}, hub images reached {}, unsound predecessors \
             {}, asymmetric {}{}: {} ({:.1} s)",
            G::NAME,
            material.to_string(),
            set.len(),
            set.stored(),
            set.seeds(),
            set.depth(),
            kk.reached,
            kk.reaching,
            kk.images_reached,
            kk.unsound_predecessors,
            asymmetric,
            example.map(|e| format!(" (`{e}`)")).unwrap_or_default(),
            if ok { "connected" } else { "FAILED" },
            start.elapsed().as_secs_f64(),
        );
        return Ok(ok);
    }
    let options = CrossCheckOptions {
        search: SearchConfig {
            rules,
            ..SearchConfig::default()
        },
        kk_connectivity: !args.no_kk,
        verify_symmetry: !args.no_symmetry,
        max_examples: 10,
        max_forward: args.max_forward,
    };
    let report = cross_check::<G>(material, &options).map_err(|e| e.to_string())?;
    println!("{}", row(&report, start.elapsed().as_secs_f64()));
    if !report.passed() {
        println!("{report}");
    }
    Ok(report.passed())
}

/// Runs `cargo xtask reach-exhaustive`: fails if any configuration has a mismatch.
pub fn run(args: ReachExhaustiveArgs) -> Result<(), String> {
    let rules = crate::rules(args.no_reply);
    let pick = |defaults: &[&str]| -> Vec<String> {
        if args.pieces.is_empty() {
            defaults.iter().map(|s| s.to_string()).collect()
        } else {
            args.pieces.clone()
        }
    };
    let mut configs: Vec<(bool, Material)> = Vec::new();
    for &game in &args.game.0 {
        let (is_mini, defaults) = match game {
            GameKind::Mini => (true, &MINI_DEFAULT[..]),
            GameKind::Shogi => (false, &SHOGI_DEFAULT[..]),
        };
        for p in pick(defaults) {
            configs.push((is_mini, parse_pieces(&p)?));
        }
    }
    println!(
        "reach-exhaustive: {} configurations, drop-pawn rule {:?}",
        configs.len(),
        rules.pawn_drop
    );
    if !args.kk_only {
        println!("{HEADER}");
    }
    let start = Instant::now();
    let mut failed = Vec::new();
    for (is_mini, material) in &configs {
        let ok = if *is_mini {
            run_one::<MiniShogi>(material, &args, rules)?
        } else {
            run_one::<Shogi>(material, &args, rules)?
        };
        if !ok {
            failed.push(material.to_string());
        }
    }
    println!("total {:.1} s", start.elapsed().as_secs_f64());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("mismatches in: {}", failed.join(", ")))
    }
}
