//! `classify` and `reach` for one position: the stage verdict with the search's statistics,
//! and the certificate of a reachable position.

use serde::Serialize;
use shogi_core::{AnyPosition, Game, MiniShogi, Position, PositionErrors, Relax, Shogi};
use shogi_reach::{
    classify, classify_legal, game_to, SearchConfig, SearchStats, Searcher, Stage, Verdict,
};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// One line of `classify --json`: where a position stops in the pipeline and what the
/// search did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClassifyRecord {
    /// The input SFEN, as given.
    pub sfen: String,
    /// `shogi` or `mini`.
    pub game: &'static str,
    /// The stage: the first filter failed, or the search's verdict; `verdict` in JSON,
    /// by its [`Stage::as_str`] name.
    #[serde(rename = "verdict", serialize_with = "stage_name")]
    pub stage: Stage,
    /// Nodes the search expanded (0 when a filter stopped the position).
    pub nodes: u64,
    /// Distinct predecessors stored.
    pub generated: u64,
    /// Predecessors produced, duplicates included.
    pub predecessors: u64,
    /// Expanded nodes whose un-captures were generated too.
    pub capture_expansions: u64,
    /// Largest size of the open queue.
    pub peak_open: usize,
    /// Nodes stored at the end.
    pub peak_closed: usize,
    /// The largest depth of a generated node.
    pub max_depth: u32,
    /// For a reachable position: the KK position reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kk: Option<String>,
    /// For a reachable position: the USI moves from `kk` to the position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<String>>,
}

fn stage_name<S: serde::Serializer>(stage: &Stage, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(stage.as_str())
}

impl ClassifyRecord {
    /// Runs the filters and, if they pass, the search on `pos`, read from `sfen`.
    pub fn new<G: Game>(sfen: &str, searcher: &mut Searcher<G>, pos: &Position<G>) -> Self {
        let c = classify(searcher, pos);
        let (stats, certificate) = match c.search {
            Some(o) => (o.stats, o.certificate),
            None => (SearchStats::default(), None),
        };
        ClassifyRecord {
            sfen: sfen.to_string(),
            game: G::NAME,
            stage: c.stage,
            nodes: stats.expanded,
            generated: stats.generated,
            predecessors: stats.predecessors,
            capture_expansions: stats.capture_expansions,
            peak_open: stats.peak_open,
            peak_closed: stats.peak_closed,
            max_depth: stats.max_depth,
            kk: certificate.as_ref().map(|cert| cert.kk.to_sfen()),
            moves: certificate.map(|cert| cert.usi_moves()),
        }
    }
}

/// Classifies positions of either game with one searcher per game, made on first use and
/// reused: a searcher keeps its buffers, so later searches do not reallocate.
pub struct Classifier {
    config: SearchConfig,
    cancel: Option<Arc<AtomicBool>>,
    shogi: Option<Searcher<Shogi>>,
    mini: Option<Searcher<MiniShogi>>,
}

impl Classifier {
    /// A classifier whose searches use `config`.
    pub fn new(config: SearchConfig) -> Self {
        Classifier {
            config,
            cancel: None,
            shogi: None,
            mini: None,
        }
    }

    /// A flag that, once set from another thread, stops the search under way with the
    /// verdict `unknown` ([`Searcher::set_cancel`]); the caller, which set it, knows the
    /// verdict is no answer.
    pub fn set_cancel(&mut self, cancel: Option<Arc<AtomicBool>>) {
        for s in self.shogi.iter_mut() {
            s.set_cancel(cancel.clone());
        }
        for s in self.mini.iter_mut() {
            s.set_cancel(cancel.clone());
        }
        self.cancel = cancel;
    }

    /// The searcher in `slot`, made on first use.
    fn searcher<'a, G: Game>(
        slot: &'a mut Option<Searcher<G>>,
        config: SearchConfig,
        cancel: &Option<Arc<AtomicBool>>,
    ) -> &'a mut Searcher<G> {
        slot.get_or_insert_with(|| {
            let mut s = Searcher::new(config);
            s.set_cancel(cancel.clone());
            s
        })
    }

    /// The record of one SFEN (the game follows from its number of ranks), or why it is
    /// no position. The filters judge the rules a candidate may break (docs/METHOD.md §4),
    /// so only a missing or extra king, too much material or bad SFEN text is an error.
    pub fn classify(&mut self, sfen: &str) -> Result<ClassifyRecord, String> {
        let config = self.config;
        Ok(
            match AnyPosition::from_sfen_with(sfen, Relax::CANDIDATE).map_err(|e| e.to_string())? {
                AnyPosition::Shogi(p) => ClassifyRecord::new(
                    sfen,
                    Self::searcher(&mut self.shogi, config, &self.cancel),
                    &p,
                ),
                AnyPosition::Mini(p) => ClassifyRecord::new(
                    sfen,
                    Self::searcher(&mut self.mini, config, &self.cancel),
                    &p,
                ),
            },
        )
    }
}

/// What `reach` prints: a legal game from `start` to the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reached {
    /// The starting SFEN: the KK position the search reached, or the initial position.
    pub start: String,
    /// The USI moves from `start` to the position.
    pub moves: Vec<String>,
    /// Nodes the search expanded.
    #[serde(skip)]
    pub expanded: u64,
}

/// Why [`reach`] has no certificate. The messages name no option: each front end adds how
/// to raise its limits to [`ReachError::Unknown`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReachError {
    /// A filter of docs/METHOD.md §5 rejects the position, for these reasons.
    Filtered(Stage, PositionErrors),
    /// The search exhausted every predecessor: the position is unreachable.
    Unreachable {
        /// Nodes expanded.
        expanded: u64,
    },
    /// A search limit stopped the search before it decided.
    Unknown {
        /// Nodes expanded.
        expanded: u64,
    },
    /// No game leads from the initial position to the KK position reached (reduced
    /// material).
    NoGame(String),
    /// A bug: the certificate does not hold up.
    Internal(&'static str),
}

impl core::fmt::Display for ReachError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ReachError::Filtered(stage, errors) => write!(f, "{stage}: {errors}"),
            ReachError::Unreachable { expanded } => write!(
                f,
                "unreachable: the search exhausted every predecessor (expanded: {expanded})"
            ),
            ReachError::Unknown { expanded } => write!(
                f,
                "unknown: a search limit stopped the search (expanded: {expanded})"
            ),
            ReachError::NoGame(e) => write!(f, "no game from the initial position: {e}"),
            ReachError::Internal(e) => write!(f, "internal error: {e}"),
        }
    }
}

impl std::error::Error for ReachError {}

/// A certificate that `pos` is reachable: the moves from the KK position the backward
/// search reaches, or with `from_start` from the game's initial position. Unlike
/// `classify`, a non-canonical position is searched too: canonicity only picks which of a
/// mirror pair is counted, it does not bear on reachability. The certificate is replayed
/// before it is returned: a wrong one would be worse than none.
pub fn reach<G: Game>(
    searcher: &mut Searcher<G>,
    pos: &Position<G>,
    from_start: bool,
) -> Result<Reached, ReachError> {
    let c = classify_legal(searcher, pos);
    let Some(outcome) = c.search else {
        // What the placement and check filters object to, to say why the position fails.
        let errors =
            pos.validate() & (PositionErrors::PLACEMENT | PositionErrors::OPPONENT_IN_CHECK);
        return Err(ReachError::Filtered(c.stage, errors));
    };
    let expanded = outcome.stats.expanded;
    let cert = match outcome.verdict {
        Verdict::Reachable => outcome.certificate.ok_or(ReachError::Internal(
            "a reachable verdict without a certificate",
        ))?,
        Verdict::Unreachable => return Err(ReachError::Unreachable { expanded }),
        Verdict::Unknown => return Err(ReachError::Unknown { expanded }),
    };
    if cert.replay().ok().as_ref() != Some(pos) {
        return Err(ReachError::Internal(
            "the certificate does not replay to the position",
        ));
    }
    let (start, moves) = if from_start {
        let game = game_to(&cert).map_err(|e| ReachError::NoGame(e.to_string()))?;
        let usi = game.iter().map(|m| m.to_usi::<G>()).collect();
        (Position::<G>::startpos().to_sfen(), usi)
    } else {
        (cert.kk.to_sfen(), cert.usi_moves())
    };
    Ok(Reached {
        start,
        moves,
        expanded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    /// A set cancel flag reaches the searchers made before and after it is given.
    #[test]
    fn a_cancelled_classifier_answers_unknown() {
        let start = "rbsgk/4p/5/P4/KGSBR b - 1";
        let mut c = Classifier::new(SearchConfig::default());
        assert_eq!(c.classify(start).unwrap().stage, Stage::Reachable);
        let flag = Arc::new(AtomicBool::new(true));
        c.set_cancel(Some(flag.clone()));
        assert_eq!(c.classify(start).unwrap().stage, Stage::Unknown);
        // The mirror image of the initial position: the canonical one of the pair.
        let shogi = "lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1";
        assert_eq!(c.classify(shogi).unwrap().stage, Stage::Unknown);
        flag.store(false, Ordering::Relaxed);
        assert_eq!(c.classify(shogi).unwrap().stage, Stage::Reachable);
    }
}
