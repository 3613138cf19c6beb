//! What a cross-check found: the counts, the mismatches and their text.

use super::kk::KkConnectivity;
use shogi_core::{Material, Rules};
use shogi_reach::{SearchConfig, Stage};
use std::time::Duration;

/// What went wrong in one position of a cross-check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MismatchKind {
    /// The search says reachable but the forward closure does not hold the position.
    SearchReachableNotForward,
    /// The search says unreachable but the forward closure holds the position.
    SearchUnreachableButForward,
    /// A filter dropped the position (placement or check) but it is reachable.
    FilteredButForward,
    /// The search hit a limit (no verdict); with the default configuration it never should.
    Unknown,
    /// A certificate does not start at a legal KK position of the material, has an illegal
    /// move, or does not end at the position.
    BadCertificate,
    /// A K-canonical Black-to-move position of the forward closure has no rank, or its rank
    /// unranks to another position.
    ForwardNotRanked,
    /// A position's symmetric image (mirror, colour flip) has successors that are not the
    /// images of its own (with [`CrossCheckOptions::verify_symmetry`]).
    ForwardAsymmetric,
    /// Two counts that must agree do not (detail in the message).
    CountMismatch,
    /// The KK positions are not mutually reachable for this material, or a predecessor
    /// used by the check had no legal move to its successor.
    KkNotConnected,
}

/// One failed check, with the position in SFEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// What failed.
    pub kind: MismatchKind,
    /// The rank of the position in `P_K`, when it came from the rank sweep.
    pub rank: Option<u64>,
    /// The position (empty for count mismatches).
    pub sfen: String,
    /// Details.
    pub detail: String,
}

impl core::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?}", self.kind)?;
        if let Some(r) = self.rank {
            write!(f, " rank {r}")?;
        }
        if !self.sfen.is_empty() {
            write!(f, " `{}`", self.sfen)?;
        }
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

/// How to run [`cross_check`](super::cross_check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrossCheckOptions {
    /// The search configuration; its rules also drive the forward closure.
    pub search: SearchConfig,
    /// Also check that the KK positions are mutually reachable ([`kk_connectivity`](super::kk_connectivity): a
    /// forward and a backward search from one KK position, each about four times the work
    /// of the symmetric forward closure).
    pub kk_connectivity: bool,
    /// Check that the rules are symmetric while building the forward closure (see
    /// [`ForwardOptions::verify_symmetry`](super::ForwardOptions::verify_symmetry); four times the work of the closure).
    pub verify_symmetry: bool,
    /// Most mismatches kept as examples (all are counted).
    pub max_examples: usize,
    /// Give up if the forward closure grows past this many positions (a memory bound).
    pub max_forward: Option<usize>,
}

impl Default for CrossCheckOptions {
    fn default() -> Self {
        CrossCheckOptions {
            search: SearchConfig::default(),
            kk_connectivity: true,
            verify_symmetry: true,
            max_examples: 10,
            max_forward: None,
        }
    }
}

/// The result of [`cross_check`](super::cross_check) for one game and material.
#[derive(Clone, Debug)]
pub struct CrossCheckReport {
    /// The game's name (`shogi`, `mini`).
    pub game: &'static str,
    /// The material.
    pub material: Material,
    /// The rules both searches ran under.
    pub rules: Rules,
    /// `|P_K|`: every rank was checked.
    pub candidates: u64,
    /// Positions in the forward closure (both sides to move, mirror images distinct).
    pub forward: u64,
    /// Keys the forward closure stored (one per orbit under the mirror and colour flip).
    pub forward_stored: u64,
    /// KK positions of the material (the seeds of the forward closure).
    pub kk_positions: u64,
    /// Breadth-first depth of the forward closure.
    pub forward_depth: u32,
    /// Forward positions that are Black to move with K-canonical kings: they must be
    /// exactly the ranks found in the closure.
    pub forward_k_canonical: u64,
    /// Forward positions that are canonical (Black to move, `p <= Hflip(p)`): they must be
    /// exactly the ranks `classify` calls reachable.
    pub forward_canonical: u64,
    /// Ranks whose position is in the forward closure.
    pub ranks_in_forward: u64,
    /// The number of ranks stopping at each stage of [`classify`](shogi_reach::classify), indexed like
    /// [`Stage::ALL`].
    pub stages: [u64; 6],
    /// Ranks the search (through `classify`, or directly for the mirror-dropped ones) calls
    /// reachable.
    pub reachable: u64,
    /// Ranks the search calls unreachable, or that a filter dropped without a mirror
    /// image being the reason.
    pub unreachable: u64,
    /// Ranks where a search limit stopped the search.
    pub unknown: u64,
    /// Certificates replayed (one per reachable rank).
    pub certificates: u64,
    /// Nodes expanded by all searches together.
    pub expanded: u64,
    /// Largest number of nodes a single search expanded.
    pub max_expanded: u64,
    /// For the ranks `classify` proves unreachable: how many traced back at most `d` plies
    /// (index `d`), the paper's Table 2.
    pub unreachable_depths: Vec<u64>,
    /// The KK connectivity check, when asked for.
    pub kk: Option<KkConnectivity>,
    /// Every failed check is counted here ...
    pub mismatch_count: u64,
    /// ... and the first few are kept.
    pub mismatches: Vec<Mismatch>,
    /// Time spent in the forward closure (and the KK connectivity check).
    pub forward_time: Duration,
    /// Time spent in the rank sweep and the reverse check.
    pub check_time: Duration,
}

impl CrossCheckReport {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.mismatch_count == 0
    }

    /// The number of ranks that stopped at `stage`.
    pub fn stage(&self, stage: Stage) -> u64 {
        let i = Stage::ALL
            .iter()
            .position(|&s| s == stage)
            .expect("every stage is listed");
        self.stages[i]
    }

    pub(crate) fn record(&mut self, max: usize, m: Mismatch) {
        self.mismatch_count += 1;
        if self.mismatches.len() < max {
            self.mismatches.push(m);
        }
    }
}

impl core::fmt::Display for CrossCheckReport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(
            f,
            "{} {} ({:?}): |P_K| {}, forward {} ({} KK, depth {}, {} keys), reachable {}, unreachable {}, unknown {}",
            self.game,
            self.material,
            self.rules.pawn_drop,
            self.candidates,
            self.forward,
            self.kk_positions,
            self.forward_depth,
            self.forward_stored,
            self.reachable,
            self.unreachable,
            self.unknown,
        )?;
        let stages: Vec<String> = Stage::ALL
            .iter()
            .zip(self.stages)
            .map(|(s, n)| format!("{s} {n}"))
            .collect();
        writeln!(f, "  stages: {}", stages.join(", "))?;
        writeln!(
            f,
            "  forward: K-canonical {}, canonical {}; ranks in forward {}; certificates {}; expanded {} (max {})",
            self.forward_k_canonical,
            self.forward_canonical,
            self.ranks_in_forward,
            self.certificates,
            self.expanded,
            self.max_expanded,
        )?;
        if let Some(kk) = &self.kk {
            writeln!(
                f,
                "  KK connectivity: of {} KK positions, {} reached from `{}`'s orbit and {} \
                 reaching it, its images reached: {} (closure {}, unsound predecessors {})",
                kk.kk_positions,
                kk.reached,
                kk.hub,
                kk.reaching,
                kk.images_reached,
                kk.closure,
                kk.unsound_predecessors
            )?;
        }
        write!(
            f,
            "  time: forward {:.2} s, check {:.2} s; mismatches {}",
            self.forward_time.as_secs_f64(),
            self.check_time.as_secs_f64(),
            self.mismatch_count
        )?;
        for m in &self.mismatches {
            write!(f, "\n  {m}")?;
        }
        Ok(())
    }
}
