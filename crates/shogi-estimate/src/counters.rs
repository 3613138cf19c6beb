//! The counters of a run: sums over samples, so that any split of the samples (threads,
//! batches, shards) adds up to the same numbers.

use serde::{Deserialize, Serialize};

/// One reachable sample for the paper's Figure 18.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FigurePoint {
    /// The sample index.
    pub index: u64,
    /// Plies from the KK position found to the sample.
    pub plies: u32,
    /// Nodes the search expanded.
    pub expanded: u64,
}

/// What happened to one sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleOutcome {
    /// Dropped by the mirror filter.
    Mirror,
    /// Dropped by the piece-placement filter.
    Placement,
    /// Dropped by the check filter.
    Check,
    /// Searched and reachable.
    Reachable {
        /// Plies of the certificate.
        plies: u32,
        /// Nodes expanded.
        expanded: u64,
        /// Nodes generated.
        generated: u64,
        /// Whether the board equals its mirror image.
        symmetric: bool,
    },
    /// Searched and proved unreachable.
    Unreachable {
        /// The deepest ply traced back (Table 2).
        depth: u32,
        /// Nodes expanded.
        expanded: u64,
        /// Nodes generated.
        generated: u64,
    },
    /// The search hit a limit.
    Unknown {
        /// Nodes expanded.
        expanded: u64,
        /// Nodes generated.
        generated: u64,
    },
}

/// The counters of Table 1 and Table 2 and the search statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Samples drawn.
    pub samples: u64,
    /// Samples that passed the mirror filter.
    pub passed_mirror: u64,
    /// ... and the piece-placement filter.
    pub passed_placement: u64,
    /// ... and the check filter (these were searched).
    pub passed_check: u64,
    /// Searched samples found reachable.
    pub reachable: u64,
    /// Searched samples proved unreachable.
    pub unreachable: u64,
    /// Searched samples left undecided by a limit.
    pub unknown: u64,
    /// Reachable samples whose board equals its mirror image (they count once, not twice,
    /// when mirror images are counted as distinct).
    pub symmetric_reachable: u64,
    /// Table 2: unreachable samples by the deepest ply traced back.
    pub unreachable_depths: Vec<u64>,
    /// Reachable samples by the length in plies of the path found.
    pub reachable_plies: Vec<u64>,
    /// Reachable samples by `floor(log2(expanded + 1))`.
    pub reachable_expanded_log2: Vec<u64>,
    /// Nodes expanded over all searches.
    pub expanded: u64,
    /// Nodes expanded by the searches that found their sample reachable.
    pub expanded_reachable: u64,
    /// Nodes generated over all searches.
    pub generated: u64,
    /// Figure 18 points: reachable samples below the configured index, by index.
    pub figure: Vec<FigurePoint>,
}

fn bump(v: &mut Vec<u64>, i: usize) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}

fn add_into(v: &mut Vec<u64>, w: &[u64]) {
    if v.len() < w.len() {
        v.resize(w.len(), 0);
    }
    for (a, b) in v.iter_mut().zip(w) {
        *a += b;
    }
}

impl Counters {
    /// Counts sample `index`.
    pub fn add(&mut self, index: u64, outcome: SampleOutcome, figure_samples: u64) {
        use SampleOutcome::*;
        self.samples += 1;
        if outcome == Mirror {
            return;
        }
        self.passed_mirror += 1;
        if outcome == Placement {
            return;
        }
        self.passed_placement += 1;
        if outcome == Check {
            return;
        }
        self.passed_check += 1;
        match outcome {
            Reachable {
                plies,
                expanded,
                generated,
                symmetric,
            } => {
                self.reachable += 1;
                self.symmetric_reachable += u64::from(symmetric);
                bump(&mut self.reachable_plies, plies as usize);
                bump(
                    &mut self.reachable_expanded_log2,
                    (64 - (expanded + 1).leading_zeros() - 1) as usize,
                );
                self.expanded += expanded;
                self.expanded_reachable += expanded;
                self.generated += generated;
                if index < figure_samples {
                    self.figure.push(FigurePoint {
                        index,
                        plies,
                        expanded,
                    });
                }
            }
            Unreachable {
                depth,
                expanded,
                generated,
            } => {
                self.unreachable += 1;
                bump(&mut self.unreachable_depths, depth as usize);
                self.expanded += expanded;
                self.generated += generated;
            }
            Unknown {
                expanded,
                generated,
            } => {
                self.unknown += 1;
                self.expanded += expanded;
                self.generated += generated;
            }
            Mirror | Placement | Check => unreachable!("handled above"),
        }
    }

    /// Adds the counters of a disjoint set of samples.
    pub fn merge(&mut self, other: &Counters) {
        self.samples += other.samples;
        self.passed_mirror += other.passed_mirror;
        self.passed_placement += other.passed_placement;
        self.passed_check += other.passed_check;
        self.reachable += other.reachable;
        self.unreachable += other.unreachable;
        self.unknown += other.unknown;
        self.symmetric_reachable += other.symmetric_reachable;
        add_into(&mut self.unreachable_depths, &other.unreachable_depths);
        add_into(&mut self.reachable_plies, &other.reachable_plies);
        add_into(
            &mut self.reachable_expanded_log2,
            &other.reachable_expanded_log2,
        );
        self.expanded += other.expanded;
        self.expanded_reachable += other.expanded_reachable;
        self.generated += other.generated;
        // Keep the points ordered by index whatever the order of the merges.
        let sorted = self
            .figure
            .last()
            .zip(other.figure.first())
            .is_none_or(|(a, b)| a.index < b.index);
        self.figure.extend_from_slice(&other.figure);
        if !sorted {
            self.figure.sort_by_key(|p| p.index);
        }
    }

    /// Checks the relations every honest set of counters satisfies; a file that breaks one
    /// is corrupt or was edited.
    pub fn check(&self) -> Result<(), String> {
        let chain = [
            ("samples", self.samples),
            ("passed_mirror", self.passed_mirror),
            ("passed_placement", self.passed_placement),
            ("passed_check", self.passed_check),
        ];
        for w in chain.windows(2) {
            if w[1].1 > w[0].1 {
                return Err(format!(
                    "{} ({}) exceeds {} ({})",
                    w[1].0, w[1].1, w[0].0, w[0].1
                ));
            }
        }
        let decided = self.reachable + self.unreachable + self.unknown;
        if decided != self.passed_check {
            return Err(format!(
                "reachable + unreachable + unknown = {decided} but passed_check = {}",
                self.passed_check
            ));
        }
        let sum = |v: &[u64]| v.iter().sum::<u64>();
        if sum(&self.unreachable_depths) != self.unreachable {
            return Err("the Table 2 histogram does not add up to unreachable".into());
        }
        if sum(&self.reachable_plies) != self.reachable
            || sum(&self.reachable_expanded_log2) != self.reachable
        {
            return Err("the reachable histograms do not add up to reachable".into());
        }
        if self.symmetric_reachable > self.reachable {
            return Err("symmetric_reachable exceeds reachable".into());
        }
        if self.figure.len() as u64 > self.reachable
            || self.figure.windows(2).any(|w| w[0].index >= w[1].index)
        {
            return Err("the figure points are not distinct reachable samples in order".into());
        }
        Ok(())
    }
}
