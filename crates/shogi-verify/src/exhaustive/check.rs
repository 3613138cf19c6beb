//! The rank sweep of the cross-check: every candidate of `P_K` through the backward search,
//! compared with the forward closure.

use super::forward::{forward_reachable_with, ForwardOptions, ReachableSet};
use super::kk::kk_connectivity;
use super::report::{CrossCheckOptions, CrossCheckReport, Mismatch, MismatchKind};
use super::ExhaustiveError;
use core::cmp::Ordering;
use shogi_core::{Color, Game, Material, Position};
use shogi_rank::filters::compare_boards;
use shogi_rank::{kings_k_canonical, RankTable, U256};
use shogi_reach::{classify, is_kk, SearchOutcome, Searcher, Stage, Verdict};
use std::time::{Duration, Instant};

/// Checks a certificate: a legal KK position of the material that is in the closure, legal
/// moves, and the target at the end. `None` when it is sound.
fn certificate_fault<G: Game>(
    set: &ReachableSet<G>,
    outcome: &SearchOutcome<G>,
    target: &Position<G>,
) -> Option<String> {
    let Some(cert) = &outcome.certificate else {
        return Some("no certificate for a reachable verdict".into());
    };
    if !is_kk(&cert.kk) || !cert.kk.validate().is_empty() {
        return Some(format!("start `{}` is not a legal KK position", cert.kk));
    }
    if !set.contains(&cert.kk) {
        return Some(format!(
            "start `{}` is not a KK position of the material",
            cert.kk
        ));
    }
    match cert.replay() {
        Err(e) => Some(format!("illegal move {e} from `{}`", cert.kk)),
        Ok(end) if end != *target => Some(format!("the moves from `{}` end at `{end}`", cert.kk)),
        Ok(_) => None,
    }
}

/// The exhaustive cross-check of docs/METHOD.md §9 for one material of game `G`; see the module docs.
///
/// Every rank of `P_K` is unranked and classified: a position the mirror filter drops is
/// searched directly (the search does not care about canonicity), so every candidate gets a
/// verdict that is compared with the forward closure.
pub fn cross_check<G: Game>(
    material: &Material,
    options: &CrossCheckOptions,
) -> Result<CrossCheckReport, ExhaustiveError> {
    let start = Instant::now();
    let rules = options.search.rules;
    let table = RankTable::<G>::new(material)?;
    let candidates = table
        .count_u256()
        .to_u128()
        .and_then(|n| u64::try_from(n).ok())
        .ok_or(ExhaustiveError::TooManyCandidates)?;
    let forward_options = ForwardOptions {
        rules,
        limit: options.max_forward,
        verify_symmetry: options.verify_symmetry,
    };
    let set = forward_reachable_with::<G>(material, &forward_options)?;
    let kk = if options.kk_connectivity {
        Some(kk_connectivity::<G>(&set, options.max_forward)?)
    } else {
        None
    };
    let forward_time = start.elapsed();
    let start = Instant::now();
    let max = options.max_examples;
    let mut report = CrossCheckReport {
        game: G::NAME,
        material: *material,
        rules,
        candidates,
        forward: set.len(),
        forward_stored: set.stored() as u64,
        kk_positions: set.seeds(),
        forward_depth: set.depth(),
        forward_k_canonical: 0,
        forward_canonical: 0,
        ranks_in_forward: 0,
        stages: [0; 6],
        reachable: 0,
        unreachable: 0,
        unknown: 0,
        certificates: 0,
        expanded: 0,
        max_expanded: 0,
        unreachable_depths: Vec::new(),
        kk: kk.clone(),
        mismatch_count: 0,
        mismatches: Vec::new(),
        forward_time,
        check_time: Duration::ZERO,
    };
    if let Some(kk) = kk {
        if !kk.connected() || kk.closure != set.len() || kk.unsound_predecessors > 0 {
            report.record(
                max,
                Mismatch {
                    kind: MismatchKind::KkNotConnected,
                    rank: None,
                    sfen: kk.hub.clone(),
                    detail: format!(
                        "of {} KK positions the hub's orbit reaches {} and {} reach it; its \
                         images reached: {}; its closure has {} of {} positions; {} unsound \
                         predecessors",
                        kk.kk_positions,
                        kk.reached,
                        kk.reaching,
                        kk.images_reached,
                        kk.closure,
                        set.len(),
                        kk.unsound_predecessors
                    ),
                },
            );
        }
    }
    let (asymmetric, example) = set.asymmetric();
    if asymmetric > 0 {
        report.mismatch_count += asymmetric - 1;
        report.record(
            max,
            Mismatch {
                kind: MismatchKind::ForwardAsymmetric,
                rank: None,
                sfen: example.unwrap_or_default().to_string(),
                detail: format!("{asymmetric} positions in all"),
            },
        );
    }

    // The forward side against the ranking: every K-canonical Black-to-move position of the
    // closure has a rank that unranks back to it.
    for pos in set.iter() {
        if pos.side_to_move() != Color::Black {
            continue;
        }
        if compare_boards(&pos, &pos.hflip()) != Ordering::Greater {
            report.forward_canonical += 1;
        }
        let kings = (pos.king(Color::Black), pos.king(Color::White));
        if !matches!(kings, (Some(b), Some(w)) if kings_k_canonical::<G>(b, w)) {
            continue;
        }
        report.forward_k_canonical += 1;
        let back = table
            .rank_u256(&pos)
            .map_err(|e| e.to_string())
            .and_then(|r| table.unrank_u256(r).map_err(|e| e.to_string()));
        match back {
            Ok(p) if p == pos => {}
            Ok(p) => report.record(
                max,
                Mismatch {
                    kind: MismatchKind::ForwardNotRanked,
                    rank: None,
                    sfen: pos.to_sfen(),
                    detail: format!("its rank unranks to `{p}`"),
                },
            ),
            Err(e) => report.record(
                max,
                Mismatch {
                    kind: MismatchKind::ForwardNotRanked,
                    rank: None,
                    sfen: pos.to_sfen(),
                    detail: e,
                },
            ),
        }
    }

    // The rank sweep: every candidate, in rank order.
    let mut searcher = Searcher::<G>::new(options.search);
    for r in 0..candidates {
        let pos = table
            .unrank_u256(U256::from(r))
            .expect("every rank below |P_K| unranks");
        let in_forward = set.contains(&pos);
        report.ranks_in_forward += u64::from(in_forward);
        let class = classify(&mut searcher, &pos);
        let si = Stage::ALL
            .iter()
            .position(|&s| s == class.stage)
            .expect("every stage is listed");
        report.stages[si] += 1;
        let outcome = match (class.stage, class.search) {
            (_, Some(outcome)) => outcome,
            // A position the mirror filter drops is still a position: search it directly.
            (Stage::NonCanonical, None) => searcher.search(&pos),
            (stage, None) => {
                report.unreachable += 1;
                if in_forward {
                    report.record(
                        max,
                        Mismatch {
                            kind: MismatchKind::FilteredButForward,
                            rank: Some(r),
                            sfen: pos.to_sfen(),
                            detail: format!("dropped at stage {stage}"),
                        },
                    );
                }
                continue;
            }
        };
        report.expanded += outcome.stats.expanded;
        report.max_expanded = report.max_expanded.max(outcome.stats.expanded);
        let mismatch = |kind, detail: String| Mismatch {
            kind,
            rank: Some(r),
            sfen: pos.to_sfen(),
            detail,
        };
        match outcome.verdict {
            Verdict::Reachable => {
                report.reachable += 1;
                report.certificates += 1;
                if !in_forward {
                    let m = mismatch(
                        MismatchKind::SearchReachableNotForward,
                        format!("stage {}", class.stage),
                    );
                    report.record(max, m);
                }
                if let Some(fault) = certificate_fault(&set, &outcome, &pos) {
                    report.record(max, mismatch(MismatchKind::BadCertificate, fault));
                }
            }
            Verdict::Unreachable => {
                report.unreachable += 1;
                if class.stage == Stage::Unreachable {
                    let d = outcome.stats.max_depth as usize;
                    if report.unreachable_depths.len() <= d {
                        report.unreachable_depths.resize(d + 1, 0);
                    }
                    report.unreachable_depths[d] += 1;
                }
                if in_forward {
                    let m = mismatch(
                        MismatchKind::SearchUnreachableButForward,
                        format!(
                            "stage {}, {} nodes expanded",
                            class.stage, outcome.stats.expanded
                        ),
                    );
                    report.record(max, m);
                }
            }
            Verdict::Unknown => {
                report.unknown += 1;
                let m = mismatch(
                    MismatchKind::Unknown,
                    format!(
                        "{} nodes expanded; in the forward closure: {in_forward}",
                        outcome.stats.expanded
                    ),
                );
                report.record(max, m);
            }
        }
    }

    // The counts tie the two directions together: the ranks in the closure are exactly
    // its K-canonical Black-to-move positions (ranking is a bijection, and each of those
    // was ranked above), and `classify` finds exactly its canonical ones reachable.
    let counts = [
        (
            "ranks in the forward closure",
            report.ranks_in_forward,
            "K-canonical Black-to-move forward positions",
            report.forward_k_canonical,
        ),
        (
            "ranks the search finds reachable",
            report.reachable,
            "ranks in the forward closure",
            report.ranks_in_forward,
        ),
        (
            "ranks classified reachable",
            report.stage(Stage::Reachable),
            "canonical Black-to-move forward positions",
            report.forward_canonical,
        ),
    ];
    for (a, x, b, y) in counts {
        if x != y {
            report.record(
                max,
                Mismatch {
                    kind: MismatchKind::CountMismatch,
                    rank: None,
                    sfen: String::new(),
                    detail: format!("{a}: {x}, {b}: {y}"),
                },
            );
        }
    }
    report.check_time = start.elapsed();
    Ok(report)
}
