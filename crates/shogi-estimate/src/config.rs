//! What a run is: the game, the material, the seed, the number of samples, the shard and the
//! search settings. Two runs with equal configurations produce equal counters.

use serde::{Deserialize, Serialize};
use shogi_core::{GameKind, Material, PawnDropRule, Rules};
use shogi_reach::{Limits, SearchConfig, Weights};

use crate::target::Target;

/// Writes an enum by its name and reads it back through `FromStr`, so that files spell the
/// game and the pawn-drop rule as the command line does.
pub(crate) mod by_name {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<T: core::fmt::Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: core::str::FromStr<Err = String>,
        D: Deserializer<'de>,
    {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

/// Reads an `Option` that must be present (as `null` when `None`): serde fills in a
/// missing `Option` field with `None` unless the field names its own deserializer, and a
/// state file whose fields can go missing unnoticed is one that can be damaged unnoticed.
pub(crate) mod required {
    use serde::{Deserialize, Deserializer};

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        Option::<T>::deserialize(d)
    }
}

/// Slice `index` (counted from 0) of `count` disjoint, contiguous slices of the sample
/// indices `0..samples`; together the slices cover every index exactly once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    /// Which slice, from 0 to `count - 1`.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

impl Shard {
    /// The whole run as one slice.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `K/N` (`0 <= K < N`).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("shard {} is not of the form K/N", crate::count::echo(text)))?;
        let k: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("shard index {} is not a number", crate::count::echo(k)))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("shard count {} is not a number", crate::count::echo(n)))?;
        if n == 0 {
            return Err("the shard count must be at least 1".into());
        }
        if k >= n {
            return Err(format!(
                "shard index {k} is out of range: shards are numbered 0 to {} (K/N with K < N)",
                n - 1
            ));
        }
        Ok(Shard { index: k, count: n })
    }

    /// The sample indices of this slice of a run of `samples` samples.
    pub fn range(self, samples: u64) -> core::ops::Range<u64> {
        let at = |k: u64| (u128::from(samples) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl core::fmt::Display for Shard {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `Display` and `FromStr` by the names of `name()`, over `ALL`, as shogi-core spells its
/// choices (GameKind, PawnDropRule); `$what` names the kind of value in the error.
macro_rules! by_name_traits {
    ($t:ty, $what:literal) => {
        impl core::fmt::Display for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl core::str::FromStr for $t {
            type Err = String;

            fn from_str(s: &str) -> Result<$t, String> {
                <$t>::ALL
                    .into_iter()
                    .find(|v| v.name() == s)
                    .ok_or_else(|| {
                        let names: Vec<&str> = <$t>::ALL.iter().map(|v| v.name()).collect();
                        format!(
                            "unknown {} {}: {}",
                            $what,
                            crate::count::echo(s),
                            names.join(" or ")
                        )
                    })
            }
        }
    };
}

/// The space an estimate samples uniformly (docs/METHOD.md §4, §10.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Space {
    /// `P_K`, the candidate space: the paper's.
    #[default]
    Candidate,
    /// `S`, the positions of `P_K` that pass the piece-placement filter (counted exactly).
    PlacementLegal,
}

impl Space {
    /// Both, in the order above.
    pub const ALL: [Space; 2] = [Space::Candidate, Space::PlacementLegal];

    /// The name on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Space::Candidate => "candidate",
            Space::PlacementLegal => "placement-legal",
        }
    }
}

by_name_traits!(Space, "space");

/// What each sample contributes to the estimate of the reachable share (docs/METHOD.md §10.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Estimator {
    /// 1 if the sample is reachable, else 0: the paper's.
    #[default]
    Indicator,
    /// The mean over the sample's group of positions that differ only in White's king: the
    /// share of the group that passes the check filter, exactly, times the verdict of one
    /// position of the group drawn among those that pass. Needs two-phase sampling.
    Conditional,
}

impl Estimator {
    /// Both, in the order above.
    pub const ALL: [Estimator; 2] = [Estimator::Indicator, Estimator::Conditional];

    /// The name on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Estimator::Indicator => "indicator",
            Estimator::Conditional => "conditional",
        }
    }

    /// Whether this is the indicator estimator (the files leave that out).
    pub fn is_indicator(&self) -> bool {
        *self == Estimator::Indicator
    }
}

by_name_traits!(Estimator, "estimator");

/// How an estimate samples and searches (docs/METHOD.md §10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// The paper's pipeline: sample `P_K`, search every sample that passes the filters.
    Paper,
    /// Sample `S` and use two-phase sampling at the game's [`default_phase2_rate`], one
    /// position a sample (the indicator estimator).
    Fast,
    /// As `Fast`, with the conditional estimator: each sample averages the check filter
    /// exactly over the squares of White's king. The cheapest precision measured
    /// (docs/BENCHMARKS.md, "The cost of precision").
    #[default]
    Conditional,
}

impl Method {
    /// All three, in the order above.
    pub const ALL: [Method; 3] = [Method::Paper, Method::Fast, Method::Conditional];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Method::Paper => "paper",
            Method::Fast => "fast",
            Method::Conditional => "conditional",
        }
    }

    /// The space, the phase-2 rate and the estimator of the method for `game`.
    pub fn settings(self, game: GameKind) -> (Space, Option<f64>, Estimator) {
        match self {
            Method::Paper => (Space::Candidate, None, Estimator::Indicator),
            Method::Fast => (
                Space::PlacementLegal,
                Some(default_phase2_rate(game)),
                Estimator::Indicator,
            ),
            Method::Conditional => (
                Space::PlacementLegal,
                Some(default_phase2_rate(game)),
                Estimator::Conditional,
            ),
        }
    }
}

by_name_traits!(Method, "method");

/// The share of phase-1 survivors that `--method fast` searches in `game`.
///
/// Nearly every survivor is reachable: in Shogi all but about 1 in 70,000, in Mini Shogi all
/// but about 1 in 2,000. The phase-2 term of the variance is then `(1 − ρ)/(f (1 − π))`
/// times the phase-1 term: about 1% of it in Shogi at `f = 0.002` and 3% in Mini Shogi at
/// `f = 0.02`, while the searches cost a few percent of the run (docs/METHOD.md §10.1). A
/// larger rate would cost more searches for no visible gain in precision, a smaller one
/// would let the rare unreachable survivors dominate the variance.
pub fn default_phase2_rate(game: GameKind) -> f64 {
    match game {
        GameKind::Shogi => 0.002,
        GameKind::Mini => 0.02,
    }
}

/// Checks a phase-2 rate: a number in `(0, 1]`.
pub fn check_phase2_rate(rate: f64) -> Result<(), String> {
    if rate.is_finite() && rate > 0.0 && rate <= 1.0 {
        Ok(())
    } else {
        Err(format!("the phase-2 rate must be in (0, 1], not {rate}"))
    }
}

/// Everything that determines a run's counters. Every field is required in files: a missing
/// or unknown one is an error, never a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The game.
    #[serde(with = "by_name")]
    pub game: GameKind,
    /// Pieces per basic kind (`Material` order: P L N S G B R K); the game's standard set
    /// unless a reduced-material run.
    pub material: [u8; 8],
    /// The seed: sample `i` is the same position for the same seed on any machine.
    pub seed: u64,
    /// Samples in the whole run (all shards together).
    pub samples: u64,
    /// The slice of the sample indices this run covers.
    pub shard: Shard,
    /// The heuristic weights `a, b, c`.
    pub weights: [u16; 3],
    /// The search's node limit, if any (a search that hits it is `unknown`).
    #[serde(deserialize_with = "required::deserialize")]
    pub max_expanded: Option<u64>,
    /// The search's memory limit in stored nodes, if any.
    #[serde(deserialize_with = "required::deserialize")]
    pub max_nodes: Option<u64>,
    /// The drop-pawn-mate reading.
    #[serde(with = "by_name")]
    pub pawn_drop: PawnDropRule,
    /// Whether the search defers un-captures (changes node counts, never verdicts).
    pub lazy_captures: bool,
    /// Reachable samples with an index below this keep their path length and expanded
    /// node count for the paper's Figure 18.
    pub figure_samples: u64,
    /// The space sampled.
    #[serde(with = "by_name")]
    pub space: Space,
    /// Two-phase sampling: the share of the samples with a legal predecessor that are
    /// searched; `None` searches every sample that passes the filters (the paper's way).
    #[serde(deserialize_with = "required::deserialize")]
    pub phase2_rate: Option<f64>,
    /// The precision to stop at, if any: the run then ends at the first multiple of
    /// [`TARGET_STEP`](crate::TARGET_STEP) samples whose counters meet it, or at `samples`.
    #[serde(deserialize_with = "required::deserialize")]
    pub target: Option<Target>,
    /// What each sample contributes. Written only when it is not the indicator estimator,
    /// so that the files (and run identities) of indicator runs are those of every earlier
    /// version; a file without it is an indicator run.
    #[serde(
        default,
        with = "by_name",
        skip_serializing_if = "Estimator::is_indicator"
    )]
    pub estimator: Estimator,
}

impl RunConfig {
    /// The default run of `game`: standard material, seed 1, the paper's search, no limits,
    /// one shard.
    pub fn new(game: GameKind, samples: u64) -> RunConfig {
        let search = SearchConfig::default();
        RunConfig {
            game,
            material: game.material().0,
            seed: 1,
            samples,
            shard: Shard::WHOLE,
            weights: [search.weights.a, search.weights.b, search.weights.c],
            max_expanded: None,
            max_nodes: None,
            pawn_drop: PawnDropRule::MateOnly,
            lazy_captures: true,
            figure_samples: 1_000_000,
            space: Space::Candidate,
            phase2_rate: None,
            target: None,
            estimator: Estimator::Indicator,
        }
    }

    /// The run with the space, phase-2 rate and estimator of `method`.
    pub fn with_method(mut self, method: Method) -> RunConfig {
        (self.space, self.phase2_rate, self.estimator) = method.settings(self.game);
        self
    }

    /// The method whose settings the run has, if any (a run may mix them, say the
    /// candidate space with two-phase sampling).
    pub fn method(&self) -> Option<Method> {
        Method::ALL
            .into_iter()
            .find(|m| m.settings(self.game) == (self.space, self.phase2_rate, self.estimator))
    }

    /// Whether the settings go together: the conditional estimator needs two-phase
    /// sampling (it selects the searched samples in proportion to their weights).
    pub fn check_estimator(&self) -> Result<(), String> {
        if self.estimator == Estimator::Conditional && self.phase2_rate.is_none() {
            return Err(
                "the conditional estimator needs two-phase sampling: give a --phase2-rate in (0, 1], not none"
                    .into(),
            );
        }
        Ok(())
    }

    /// The method's name, or `custom` for another combination of space and rate.
    pub fn method_name(&self) -> &'static str {
        self.method().map_or("custom", Method::name)
    }

    /// The search configuration.
    pub fn search_config(&self) -> SearchConfig {
        SearchConfig {
            weights: Weights {
                a: self.weights[0],
                b: self.weights[1],
                c: self.weights[2],
            },
            limits: Limits {
                max_expanded: self.max_expanded,
                max_nodes: self.max_nodes.map(|n| n.min(usize::MAX as u64) as usize),
            },
            rules: Rules {
                pawn_drop: self.pawn_drop,
            },
            lazy_captures: self.lazy_captures,
        }
    }

    /// The material as a [`Material`].
    pub fn material(&self) -> Material {
        Material(self.material)
    }

    /// The sample indices this run covers.
    pub fn range(&self) -> core::ops::Range<u64> {
        self.shard.range(self.samples)
    }

    /// The first setting (other than the shard when `ignore_shard`) in which `other`
    /// differs from `self`, named with both values; `None` when they agree.
    pub fn difference(&self, other: &RunConfig, ignore_shard: bool) -> Option<String> {
        // Left out of the JSON of indicator runs: compared here, whichever side has it.
        if self.estimator != other.estimator {
            return Some(format!(
                "estimator is \"{}\" in one and \"{}\" in the other",
                self.estimator, other.estimator
            ));
        }
        let a = serde_json::to_value(self).expect("a config serialises");
        let b = serde_json::to_value(other).expect("a config serialises");
        let (a, b) = (a.as_object()?, b.as_object()?);
        for (name, va) in a {
            let vb = &b[name];
            let same = (name == "shard" && ignore_shard) || va == vb;
            if !same {
                return Some(format!("{name} is {va} in one and {vb} in the other"));
            }
        }
        None
    }
}
