//! The counters of a run: sums over samples, so that any split of the samples (threads,
//! batches, shards) adds up to the same numbers.

use crate::conditional::KingWeight;
use crate::error::CountersError;
use crate::stream::{mix, word, SALT_DIGEST};
use serde::{Deserialize, Serialize};

/// One reachable sample for the paper's Figure 18.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// The conditional estimator: Black attacks every square of the sample's king group, so
    /// no position of the group passes the check filter (its weight is 0).
    NoSafeSquare,
    /// Two-phase sampling: passes the filters but has no legal predecessor (and is not a
    /// KK position), so it is unreachable without a search.
    NoPredecessor,
    /// Two-phase sampling: has a legal predecessor but was not selected for the search.
    NotSearched,
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

/// The digest of one sample: a hash of its index and of everything the run counted of it
/// (the verdict, the conditional weight, and for a searched sample its plies or depth, its
/// symmetry and its node counts). A block's digest is the wrapping sum of its samples'
/// (docs/METHOD.md §10.5): a sum, so threads and batches add up to the same value, and any
/// change to any sample's outcome changes it but with probability about 2^-64.
#[inline]
pub(crate) fn sample_digest(
    index: u64,
    outcome: &SampleOutcome,
    weight: Option<KingWeight>,
) -> u64 {
    use SampleOutcome::*;
    let (tag, length, symmetric, nodes) = match *outcome {
        Mirror => (1u64, 0u64, false, None),
        Placement => (2, 0, false, None),
        Check => (3, 0, false, None),
        NoSafeSquare => (4, 0, false, None),
        NoPredecessor => (5, 0, false, None),
        NotSearched => (6, 0, false, None),
        Reachable {
            plies,
            expanded,
            generated,
            symmetric,
        } => (7, u64::from(plies), symmetric, Some((expanded, generated))),
        Unreachable {
            depth,
            expanded,
            generated,
        } => (8, u64::from(depth), false, Some((expanded, generated))),
        Unknown {
            expanded,
            generated,
        } => (9, 0, false, Some((expanded, generated))),
    };
    let (g, k) = weight.map_or((0, 0), |w| (u64::from(w.squares), u64::from(w.safe)));
    // 4 + 8 + 8 + 1 bits, then the length: a u32 fits above bit 24.
    let packed = tag | g << 4 | k << 12 | u64::from(symmetric) << 20 | length << 24;
    let mut h = mix(word(0, SALT_DIGEST, index) ^ packed);
    if let Some((expanded, generated)) = nodes {
        h = mix(h ^ expanded);
        h = mix(h ^ generated);
    }
    h
}

/// The phase-1 counters of two-phase sampling (docs/METHOD.md §10.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseCounters {
    /// Samples that pass the filters and have a legal predecessor or are KK positions
    /// (`a`).
    pub with_predecessor: u64,
    /// Of those, the samples selected for the search (`m`).
    pub searched: u64,
}

/// Samples of the conditional estimator with one weight: `(g, k, count)`, the size of the
/// king group, its safe squares, and how many samples had them (docs/METHOD.md §10.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeightCount(pub u8, pub u8, pub u64);

/// The counters of the conditional estimator: the samples by weight. `π̂` is the mean of
/// `k / g` over the samples whose chosen position has a legal predecessor, its variance
/// that of the same values; both are exact sums of these bins.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionalCounters {
    /// Every sample, by weight (bins in increasing `(g, k)`, none empty).
    pub weights: Vec<WeightCount>,
    /// The samples whose chosen position passes the filters and has a legal predecessor or
    /// is a KK position (the `a` of two-phase sampling), by weight.
    pub with_predecessor: Vec<WeightCount>,
}

/// Adds 1 to the bin of `w` in a sorted bin list.
fn bump_weight(
    name: &str,
    bins: &mut Vec<WeightCount>,
    w: KingWeight,
) -> Result<(), CountersError> {
    match bins.binary_search_by_key(&(w.squares, w.safe), |b| (b.0, b.1)) {
        Ok(i) => bins[i].2 = sum(name, bins[i].2, 1)?,
        Err(i) => bins.insert(i, WeightCount(w.squares, w.safe, 1)),
    }
    Ok(())
}

/// The bin-wise sum of two sorted bin lists.
fn sum_weights(
    name: &str,
    a: &[WeightCount],
    b: &[WeightCount],
) -> Result<Vec<WeightCount>, CountersError> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let ka = a.get(i).map(|x| (x.0, x.1));
        let kb = b.get(j).map(|x| (x.0, x.1));
        match (ka, kb) {
            (Some(x), Some(y)) if x == y => {
                out.push(WeightCount(x.0, x.1, sum(name, a[i].2, b[j].2)?));
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                out.push(a[i]);
                i += 1;
            }
            (Some(_), None) => {
                out.push(a[i]);
                i += 1;
            }
            _ => {
                out.push(b[j]);
                j += 1;
            }
        }
    }
    Ok(out)
}

impl ConditionalCounters {
    /// `(Σ k/g, Σ (k/g)²)` over the samples with a predecessor: the sums behind `π̂` and its
    /// variance.
    pub fn moments(&self) -> (f64, f64) {
        self.with_predecessor
            .iter()
            .fold((0.0, 0.0), |(s1, s2), &WeightCount(g, k, c)| {
                let q = f64::from(k) / f64::from(g);
                (s1 + c as f64 * q, s2 + c as f64 * q * q)
            })
    }

    /// `Σ k/g` over every sample: the exact mean share of the king groups' squares that
    /// pass the check filter, times the samples.
    pub fn safe_sum(&self) -> f64 {
        self.weights
            .iter()
            .map(|&WeightCount(g, k, c)| c as f64 * f64::from(k) / f64::from(g))
            .sum()
    }

    /// The samples whose group has a safe square.
    pub fn with_safe_square(&self) -> u64 {
        self.weights
            .iter()
            .filter(|b| b.1 > 0)
            .fold(0u64, |acc, b| acc.saturating_add(b.2))
    }

    /// Checks one bin list: increasing keys, `1 <= g <= 81`, `k <= g`, no empty bin; returns
    /// its total.
    fn check_bins(name: &str, bins: &[WeightCount]) -> Result<u64, CountersError> {
        for w in bins.windows(2) {
            if (w[0].0, w[0].1) >= (w[1].0, w[1].1) {
                return Err(CountersError::Inconsistent(format!(
                    "{name}: the bins are not in increasing (g, k) order"
                )));
            }
        }
        for &WeightCount(g, k, c) in bins {
            if g == 0 || usize::from(g) > shogi_core::tables::MAX_SQUARES || k > g || c == 0 {
                return Err(CountersError::Inconsistent(format!(
                    "{name}: bin ({g}, {k}, {c}) is impossible (a group has 1 to 81 squares, at most all of them safe, and a bin at least one sample)"
                )));
            }
        }
        total(name, &bins.iter().map(|b| b.2).collect::<Vec<_>>())
    }
}

/// The counters of Table 1 and Table 2 and the search statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// With two-phase sampling, its phase-1 counters; then `reachable`, `unreachable`
    /// and `unknown` count the searched samples only. `None` when every sample that
    /// passes the filters is searched.
    #[serde(deserialize_with = "crate::config::required::deserialize")]
    pub two_phase: Option<PhaseCounters>,
    /// With the conditional estimator, the samples by weight; then the stage counters
    /// count the chosen positions (`passed_mirror`, `passed_placement` and `passed_check`
    /// alike: the samples whose group has a safe square and whose chosen position is
    /// canonical). Absent from the files of the indicator estimator, as from every file
    /// written before the conditional one existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditional: Option<ConditionalCounters>,
}

/// `a + b`, or an error naming the counter that would overflow.
fn sum(name: &str, a: u64, b: u64) -> Result<u64, CountersError> {
    a.checked_add(b).ok_or_else(|| CountersError::Overflow {
        counter: name.to_string(),
        value: a,
        added: b,
    })
}

/// `v[i] += 1`, growing `v` as needed.
fn bump(name: &str, v: &mut Vec<u64>, i: usize) -> Result<(), CountersError> {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] = sum(name, v[i], 1)?;
    Ok(())
}

/// The element-wise sum of two histograms, or an error naming the bin that overflows.
fn sum_histograms(name: &str, a: &[u64], b: &[u64]) -> Result<Vec<u64>, CountersError> {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut out = long.to_vec();
    for (i, (x, y)) in out.iter_mut().zip(short).enumerate() {
        *x = sum(&format!("{name}[{i}]"), *x, *y)?;
    }
    Ok(out)
}

/// The sum of a histogram's bins, or an error when it exceeds a `u64`.
fn total(name: &str, v: &[u64]) -> Result<u64, CountersError> {
    v.iter().try_fold(0u64, |acc, &x| {
        acc.checked_add(x).ok_or_else(|| {
            CountersError::Inconsistent(format!(
                "the bins of {name} add up to more than {}",
                u64::MAX
            ))
        })
    })
}

/// `floor(log2(expanded + 1))`, the bin of `reachable_expanded_log2`, from 0 to 64.
fn log2_bin(expanded: u64) -> usize {
    match expanded.checked_add(1) {
        Some(e) => (u64::BITS - 1 - e.leading_zeros()) as usize,
        None => u64::BITS as usize,
    }
}

impl Counters {
    /// Empty counters, for two-phase sampling or not.
    pub fn new(two_phase: bool) -> Counters {
        Counters {
            two_phase: two_phase.then(PhaseCounters::default),
            ..Counters::default()
        }
    }

    /// Empty counters of the conditional estimator (always two-phase).
    pub fn new_conditional() -> Counters {
        Counters {
            conditional: Some(ConditionalCounters::default()),
            ..Counters::new(true)
        }
    }

    /// Counts sample `index`. Fails only if a counter would exceed a `u64` (the node sums
    /// of an absurdly long run), naming it; the counters are then partly updated and must
    /// be discarded.
    pub fn add(
        &mut self,
        index: u64,
        outcome: SampleOutcome,
        figure_samples: u64,
    ) -> Result<(), CountersError> {
        if self.conditional.is_some() {
            return Err(CountersError::Incompatible(
                "a sample without a weight in the conditional estimator's counters",
            ));
        }
        self.add_inner(index, outcome, None, figure_samples)
    }

    /// Counts sample `index` of the conditional estimator, whose king group has weight
    /// `weight` and whose chosen position had `outcome` (or [`SampleOutcome::NoSafeSquare`]).
    pub fn add_weighted(
        &mut self,
        index: u64,
        outcome: SampleOutcome,
        weight: KingWeight,
        figure_samples: u64,
    ) -> Result<(), CountersError> {
        let Some(c) = &mut self.conditional else {
            return Err(CountersError::Incompatible(
                "a weighted sample in the indicator estimator's counters",
            ));
        };
        bump_weight("conditional.weights", &mut c.weights, weight)?;
        if (outcome == SampleOutcome::NoSafeSquare) != (weight.safe == 0) {
            return Err(CountersError::Inconsistent(format!(
                "outcome {outcome:?} with {} safe squares",
                weight.safe
            )));
        }
        self.add_inner(index, outcome, Some(weight), figure_samples)
    }

    fn add_inner(
        &mut self,
        index: u64,
        outcome: SampleOutcome,
        weight: Option<KingWeight>,
        figure_samples: u64,
    ) -> Result<(), CountersError> {
        use SampleOutcome::*;
        self.samples = sum("samples", self.samples, 1)?;
        if matches!(outcome, Mirror | NoSafeSquare) {
            return Ok(());
        }
        self.passed_mirror = sum("passed_mirror", self.passed_mirror, 1)?;
        if outcome == Placement {
            return Ok(());
        }
        self.passed_placement = sum("passed_placement", self.passed_placement, 1)?;
        if outcome == Check {
            return Ok(());
        }
        self.passed_check = sum("passed_check", self.passed_check, 1)?;
        match (&mut self.two_phase, outcome) {
            (None, NoPredecessor | NotSearched) => {
                return Err(CountersError::Incompatible(
                    "a two-phase outcome in single-phase counters",
                ))
            }
            (Some(_), NoPredecessor) => return Ok(()),
            (Some(t), _) => {
                t.with_predecessor = sum("with_predecessor", t.with_predecessor, 1)?;
                if let (Some(c), Some(w)) = (&mut self.conditional, weight) {
                    bump_weight("conditional.with_predecessor", &mut c.with_predecessor, w)?;
                }
                if outcome == NotSearched {
                    return Ok(());
                }
                t.searched = sum("searched", t.searched, 1)?;
            }
            (None, _) => {}
        }
        let (expanded, generated) = match outcome {
            Reachable {
                plies,
                expanded,
                generated,
                symmetric,
            } => {
                self.reachable = sum("reachable", self.reachable, 1)?;
                self.symmetric_reachable = sum(
                    "symmetric_reachable",
                    self.symmetric_reachable,
                    u64::from(symmetric),
                )?;
                bump("reachable_plies", &mut self.reachable_plies, plies as usize)?;
                bump(
                    "reachable_expanded_log2",
                    &mut self.reachable_expanded_log2,
                    log2_bin(expanded),
                )?;
                self.expanded_reachable =
                    sum("expanded_reachable", self.expanded_reachable, expanded)?;
                if index < figure_samples {
                    self.figure.push(FigurePoint {
                        index,
                        plies,
                        expanded,
                    });
                }
                (expanded, generated)
            }
            Unreachable {
                depth,
                expanded,
                generated,
            } => {
                self.unreachable = sum("unreachable", self.unreachable, 1)?;
                bump(
                    "unreachable_depths",
                    &mut self.unreachable_depths,
                    depth as usize,
                )?;
                (expanded, generated)
            }
            Unknown {
                expanded,
                generated,
            } => {
                self.unknown = sum("unknown", self.unknown, 1)?;
                (expanded, generated)
            }
            Mirror | Placement | Check | NoSafeSquare | NoPredecessor | NotSearched => {
                unreachable!("handled above")
            }
        };
        self.expanded = sum("expanded", self.expanded, expanded)?;
        self.generated = sum("generated", self.generated, generated)?;
        Ok(())
    }

    /// Adds the counters of a disjoint set of samples. On overflow of any counter (which
    /// honest runs never reach, but files can claim) nothing is changed and the error names
    /// the counter.
    pub fn merge(&mut self, other: &Counters) -> Result<(), CountersError> {
        // Every sum is computed before anything is changed, so an error leaves `self` whole.
        let two_phase = match (self.two_phase, other.two_phase) {
            (None, None) => None,
            (Some(a), Some(b)) => Some(PhaseCounters {
                with_predecessor: sum("with_predecessor", a.with_predecessor, b.with_predecessor)?,
                searched: sum("searched", a.searched, b.searched)?,
            }),
            _ => {
                return Err(CountersError::Incompatible(
                    "two-phase counters cannot be added to single-phase ones (runs of different methods)",
                ))
            }
        };
        let conditional = match (&self.conditional, &other.conditional) {
            (None, None) => None,
            (Some(a), Some(b)) => Some(ConditionalCounters {
                weights: sum_weights("conditional.weights", &a.weights, &b.weights)?,
                with_predecessor: sum_weights(
                    "conditional.with_predecessor",
                    &a.with_predecessor,
                    &b.with_predecessor,
                )?,
            }),
            _ => {
                return Err(CountersError::Incompatible(
                    "the conditional estimator's counters cannot be added to the indicator's (runs of different estimators)",
                ))
            }
        };
        let samples = sum("samples", self.samples, other.samples)?;
        let passed_mirror = sum("passed_mirror", self.passed_mirror, other.passed_mirror)?;
        let passed_placement = sum(
            "passed_placement",
            self.passed_placement,
            other.passed_placement,
        )?;
        let passed_check = sum("passed_check", self.passed_check, other.passed_check)?;
        let reachable = sum("reachable", self.reachable, other.reachable)?;
        let unreachable = sum("unreachable", self.unreachable, other.unreachable)?;
        let unknown = sum("unknown", self.unknown, other.unknown)?;
        let symmetric_reachable = sum(
            "symmetric_reachable",
            self.symmetric_reachable,
            other.symmetric_reachable,
        )?;
        let expanded = sum("expanded", self.expanded, other.expanded)?;
        let expanded_reachable = sum(
            "expanded_reachable",
            self.expanded_reachable,
            other.expanded_reachable,
        )?;
        let generated = sum("generated", self.generated, other.generated)?;
        let unreachable_depths = sum_histograms(
            "unreachable_depths",
            &self.unreachable_depths,
            &other.unreachable_depths,
        )?;
        let reachable_plies = sum_histograms(
            "reachable_plies",
            &self.reachable_plies,
            &other.reachable_plies,
        )?;
        let reachable_expanded_log2 = sum_histograms(
            "reachable_expanded_log2",
            &self.reachable_expanded_log2,
            &other.reachable_expanded_log2,
        )?;
        self.two_phase = two_phase;
        self.conditional = conditional;
        self.samples = samples;
        self.passed_mirror = passed_mirror;
        self.passed_placement = passed_placement;
        self.passed_check = passed_check;
        self.reachable = reachable;
        self.unreachable = unreachable;
        self.unknown = unknown;
        self.symmetric_reachable = symmetric_reachable;
        self.expanded = expanded;
        self.expanded_reachable = expanded_reachable;
        self.generated = generated;
        self.unreachable_depths = unreachable_depths;
        self.reachable_plies = reachable_plies;
        self.reachable_expanded_log2 = reachable_expanded_log2;
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
        Ok(())
    }

    /// The counters of the samples that `self` holds beyond `earlier`, a checkpoint of the
    /// same run at fewer samples: every counter and bin the difference, the Figure 18
    /// points past the earlier ones. Refuses (naming the counter) when `earlier` is not a
    /// prefix of `self`, so that the difference of two unrelated files is never taken.
    pub fn minus(&self, earlier: &Counters) -> Result<Counters, CountersError> {
        fn less(name: &str, a: u64, b: u64) -> Result<u64, CountersError> {
            a.checked_sub(b).ok_or_else(|| CountersError::NotAPrefix {
                counter: name.to_string(),
            })
        }
        fn less_bins(name: &str, a: &[u64], b: &[u64]) -> Result<Vec<u64>, CountersError> {
            if b.len() > a.len() {
                return Err(CountersError::NotAPrefix {
                    counter: format!("{name}[{}]", b.len() - 1),
                });
            }
            let mut out: Vec<u64> = a.to_vec();
            for (i, (x, y)) in out.iter_mut().zip(b).enumerate() {
                *x = less(&format!("{name}[{i}]"), *x, *y)?;
            }
            while out.last() == Some(&0) {
                out.pop();
            }
            Ok(out)
        }
        fn less_weights(
            name: &str,
            a: &[WeightCount],
            b: &[WeightCount],
        ) -> Result<Vec<WeightCount>, CountersError> {
            let mut out = Vec::with_capacity(a.len());
            let mut j = 0;
            for &WeightCount(g, k, c) in a {
                let mut left = c;
                if let Some(&WeightCount(g2, k2, c2)) = b.get(j) {
                    if (g2, k2) < (g, k) {
                        return Err(CountersError::NotAPrefix {
                            counter: format!("{name} ({g2}, {k2})"),
                        });
                    }
                    if (g2, k2) == (g, k) {
                        left = less(&format!("{name} ({g}, {k})"), c, c2)?;
                        j += 1;
                    }
                }
                if left > 0 {
                    out.push(WeightCount(g, k, left));
                }
            }
            if let Some(&WeightCount(g, k, _)) = b.get(j) {
                return Err(CountersError::NotAPrefix {
                    counter: format!("{name} ({g}, {k})"),
                });
            }
            Ok(out)
        }
        let two_phase = match (self.two_phase, earlier.two_phase) {
            (None, None) => None,
            (Some(a), Some(b)) => Some(PhaseCounters {
                with_predecessor: less("with_predecessor", a.with_predecessor, b.with_predecessor)?,
                searched: less("searched", a.searched, b.searched)?,
            }),
            _ => {
                return Err(CountersError::Incompatible(
                    "two-phase counters and single-phase ones are not of one run",
                ))
            }
        };
        let conditional =
            match (&self.conditional, &earlier.conditional) {
                (None, None) => None,
                (Some(a), Some(b)) => Some(ConditionalCounters {
                    weights: less_weights("conditional.weights", &a.weights, &b.weights)?,
                    with_predecessor: less_weights(
                        "conditional.with_predecessor",
                        &a.with_predecessor,
                        &b.with_predecessor,
                    )?,
                }),
                _ => return Err(CountersError::Incompatible(
                    "the conditional estimator's counters and the indicator's are not of one run",
                )),
            };
        if self.figure.len() < earlier.figure.len()
            || self.figure[..earlier.figure.len()] != earlier.figure[..]
        {
            return Err(CountersError::NotAPrefix {
                counter: "figure".into(),
            });
        }
        Ok(Counters {
            samples: less("samples", self.samples, earlier.samples)?,
            passed_mirror: less("passed_mirror", self.passed_mirror, earlier.passed_mirror)?,
            passed_placement: less(
                "passed_placement",
                self.passed_placement,
                earlier.passed_placement,
            )?,
            passed_check: less("passed_check", self.passed_check, earlier.passed_check)?,
            reachable: less("reachable", self.reachable, earlier.reachable)?,
            unreachable: less("unreachable", self.unreachable, earlier.unreachable)?,
            unknown: less("unknown", self.unknown, earlier.unknown)?,
            symmetric_reachable: less(
                "symmetric_reachable",
                self.symmetric_reachable,
                earlier.symmetric_reachable,
            )?,
            unreachable_depths: less_bins(
                "unreachable_depths",
                &self.unreachable_depths,
                &earlier.unreachable_depths,
            )?,
            reachable_plies: less_bins(
                "reachable_plies",
                &self.reachable_plies,
                &earlier.reachable_plies,
            )?,
            reachable_expanded_log2: less_bins(
                "reachable_expanded_log2",
                &self.reachable_expanded_log2,
                &earlier.reachable_expanded_log2,
            )?,
            expanded: less("expanded", self.expanded, earlier.expanded)?,
            expanded_reachable: less(
                "expanded_reachable",
                self.expanded_reachable,
                earlier.expanded_reachable,
            )?,
            generated: less("generated", self.generated, earlier.generated)?,
            figure: self.figure[earlier.figure.len()..].to_vec(),
            two_phase,
            conditional,
        })
    }

    /// Checks the relations every honest set of counters satisfies; a file that breaks one
    /// is corrupt or was edited. Every sum is checked, so no file can make this overflow.
    /// The error names the counter at fault.
    pub fn check(&self) -> Result<(), CountersError> {
        let chain = [
            ("samples", self.samples),
            ("passed_mirror", self.passed_mirror),
            ("passed_placement", self.passed_placement),
            ("passed_check", self.passed_check),
        ];
        for w in chain.windows(2) {
            if w[1].1 > w[0].1 {
                return Err(CountersError::Inconsistent(format!(
                    "{} ({}) exceeds {} ({}): every stage keeps at most the samples of the one before",
                    w[1].0, w[1].1, w[0].0, w[0].1
                )));
            }
        }
        let decided = self
            .reachable
            .checked_add(self.unreachable)
            .and_then(|d| d.checked_add(self.unknown));
        let (searched, what) = match self.two_phase {
            None => (self.passed_check, "passed_check"),
            Some(t) => {
                if t.with_predecessor > self.passed_check {
                    return Err(CountersError::Inconsistent(format!(
                        "two_phase.with_predecessor ({}) exceeds passed_check ({})",
                        t.with_predecessor, self.passed_check
                    )));
                }
                if t.searched > t.with_predecessor {
                    return Err(CountersError::Inconsistent(format!(
                        "two_phase.searched ({}) exceeds two_phase.with_predecessor ({})",
                        t.searched, t.with_predecessor
                    )));
                }
                (t.searched, "two_phase.searched")
            }
        };
        if decided != Some(searched) {
            return Err(CountersError::Inconsistent(format!(
                "reachable ({}) + unreachable ({}) + unknown ({}) is not {what} ({searched})",
                self.reachable, self.unreachable, self.unknown
            )));
        }
        for (name, bins, expected, what) in [
            (
                "unreachable_depths",
                &self.unreachable_depths,
                self.unreachable,
                "unreachable",
            ),
            (
                "reachable_plies",
                &self.reachable_plies,
                self.reachable,
                "reachable",
            ),
            (
                "reachable_expanded_log2",
                &self.reachable_expanded_log2,
                self.reachable,
                "reachable",
            ),
        ] {
            let t = total(name, bins)?;
            if t != expected {
                return Err(CountersError::Inconsistent(format!(
                    "the bins of {name} add up to {t}, not to {what} ({expected})"
                )));
            }
        }
        if self.reachable_expanded_log2.len() > log2_bin(u64::MAX) + 1 {
            return Err(CountersError::Inconsistent(format!(
                "reachable_expanded_log2 has {} bins; a u64 node count has at most {}",
                self.reachable_expanded_log2.len(),
                log2_bin(u64::MAX) + 1
            )));
        }
        if self.symmetric_reachable > self.reachable {
            return Err(CountersError::Inconsistent(format!(
                "symmetric_reachable ({}) exceeds reachable ({})",
                self.symmetric_reachable, self.reachable
            )));
        }
        if self.expanded_reachable > self.expanded {
            return Err(CountersError::Inconsistent(format!(
                "expanded_reachable ({}) exceeds expanded ({})",
                self.expanded_reachable, self.expanded
            )));
        }
        if self.figure.len() as u64 > self.reachable {
            return Err(CountersError::Inconsistent(format!(
                "figure has {} points but reachable is {}",
                self.figure.len(),
                self.reachable
            )));
        }
        if self.figure.windows(2).any(|w| w[0].index >= w[1].index) {
            return Err(CountersError::Inconsistent(
                "figure: the points are not distinct samples in increasing order".into(),
            ));
        }
        if let Some(c) = &self.conditional {
            self.check_conditional(c)?;
        }
        Ok(())
    }

    /// The relations of the conditional estimator's bins with each other and with the
    /// stage counters.
    fn check_conditional(&self, c: &ConditionalCounters) -> Result<(), CountersError> {
        let Some(t) = self.two_phase else {
            return Err(CountersError::Inconsistent(
                "conditional counters without two-phase counters".into(),
            ));
        };
        let all = ConditionalCounters::check_bins("conditional.weights", &c.weights)?;
        if all != self.samples {
            return Err(CountersError::Inconsistent(format!(
                "the bins of conditional.weights add up to {all}, not to samples ({})",
                self.samples
            )));
        }
        let a =
            ConditionalCounters::check_bins("conditional.with_predecessor", &c.with_predecessor)?;
        if a != t.with_predecessor {
            return Err(CountersError::Inconsistent(format!(
                "the bins of conditional.with_predecessor add up to {a}, not to two_phase.with_predecessor ({})",
                t.with_predecessor
            )));
        }
        for &WeightCount(g, k, n) in &c.with_predecessor {
            let of_all = c
                .weights
                .binary_search_by_key(&(g, k), |b| (b.0, b.1))
                .map_or(0, |i| c.weights[i].2);
            if k == 0 || n > of_all {
                return Err(CountersError::Inconsistent(format!(
                    "conditional.with_predecessor: bin ({g}, {k}, {n}) is not within the samples of that weight ({of_all}) with a safe square"
                )));
            }
        }
        let safe = c.with_safe_square();
        if self.passed_mirror > safe {
            return Err(CountersError::Inconsistent(format!(
                "passed_mirror ({}) exceeds the samples with a safe square ({safe})",
                self.passed_mirror
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_tell_every_field_apart() {
        let w = Some(KingWeight {
            squares: 40,
            safe: 12,
        });
        let base = SampleOutcome::Reachable {
            plies: 30,
            expanded: 100,
            generated: 900,
            symmetric: false,
        };
        let variants = [
            base,
            SampleOutcome::Reachable {
                plies: 31,
                expanded: 100,
                generated: 900,
                symmetric: false,
            },
            SampleOutcome::Reachable {
                plies: 30,
                expanded: 101,
                generated: 900,
                symmetric: false,
            },
            SampleOutcome::Reachable {
                plies: 30,
                expanded: 100,
                generated: 901,
                symmetric: false,
            },
            SampleOutcome::Reachable {
                plies: 30,
                expanded: 100,
                generated: 900,
                symmetric: true,
            },
            SampleOutcome::Unreachable {
                depth: 30,
                expanded: 100,
                generated: 900,
            },
            SampleOutcome::NotSearched,
            SampleOutcome::NoPredecessor,
        ];
        let mut seen = std::collections::HashSet::new();
        for v in variants {
            assert!(seen.insert(sample_digest(5, &v, w)), "{v:?}");
        }
        assert!(seen.insert(sample_digest(6, &base, w)));
        assert!(seen.insert(sample_digest(
            5,
            &base,
            Some(KingWeight {
                squares: 40,
                safe: 13
            })
        )));
        assert!(seen.insert(sample_digest(5, &base, None)));
    }

    fn reachable(expanded: u64) -> SampleOutcome {
        SampleOutcome::Reachable {
            plies: 3,
            expanded,
            generated: expanded,
            symmetric: false,
        }
    }

    #[test]
    fn merge_refuses_overflow_and_leaves_the_counters_whole() {
        let mut a = Counters::default();
        a.add(0, reachable(u64::MAX - 1), 10).unwrap();
        a.check().unwrap();
        let before = a.clone();
        let mut b = Counters::default();
        b.add(1, reachable(5), 10).unwrap();
        let err = a.merge(&b).unwrap_err().to_string();
        assert!(err.contains("expanded"), "{err}");
        assert_eq!(a, before);
        // A single search can overflow the node sums too: an error, not a panic.
        let err = a.add(2, reachable(7), 10).unwrap_err().to_string();
        assert!(err.contains("expanded"), "{err}");
        let mut c = Counters::default();
        c.add(0, reachable(u64::MAX), 10).unwrap();
        assert_eq!(c.reachable_expanded_log2.len(), 65);
        c.check().unwrap();
    }

    #[test]
    fn check_survives_huge_counters() {
        let mut c = Counters {
            samples: u64::MAX,
            passed_mirror: u64::MAX,
            passed_placement: u64::MAX,
            passed_check: u64::MAX,
            reachable: u64::MAX,
            unreachable: 1,
            ..Counters::default()
        };
        assert!(c.check().unwrap_err().to_string().contains("passed_check"));
        c.unreachable = 0;
        c.reachable_plies = vec![u64::MAX, 1];
        let err = c.check().unwrap_err().to_string();
        assert!(err.contains("reachable_plies"), "{err}");
        c.reachable_plies = vec![u64::MAX];
        c.reachable_expanded_log2 = vec![u64::MAX - 1, 1];
        c.check().unwrap();
        let mut d = c.clone();
        assert!(d.merge(&c).unwrap_err().to_string().contains("samples"));
        assert_eq!(d, c);
    }
}
