//! The errors of the crate, in one place: the modules that produce them (counters, state
//! files, runs, verification) then depend on this one and not on each other.

use std::path::PathBuf;

/// What is wrong with a set of counters, or why two sets cannot be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountersError {
    /// A counter would exceed a `u64` (the node sums of an absurdly long run, or a file that
    /// claims such numbers).
    Overflow {
        /// The counter, as the files name it (`expanded`, `unreachable_depths[3]`, …).
        counter: String,
        /// The value it has.
        value: u64,
        /// What was to be added.
        added: u64,
    },
    /// The counters break a relation that every honest set of counters satisfies (a stage
    /// keeping more samples than the one before, bins that do not add up, …): the file is
    /// corrupt or was edited. The text names the counters at fault.
    Inconsistent(String),
    /// Counters of different kinds (single- and two-phase sampling, the indicator and the
    /// conditional estimator) cannot be added.
    Incompatible(&'static str),
    /// A subtraction of counters that are not a prefix of each other: `counter` of the
    /// earlier set exceeds the later one's.
    NotAPrefix {
        /// The counter.
        counter: String,
    },
}

impl core::fmt::Display for CountersError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CountersError::Overflow {
                counter,
                value,
                added,
            } => write!(
                f,
                "{counter} overflows: {value} + {added} exceeds {}",
                u64::MAX
            ),
            CountersError::Inconsistent(what) => f.write_str(what),
            CountersError::Incompatible(what) => f.write_str(what),
            CountersError::NotAPrefix { counter } => write!(
                f,
                "{counter} of the earlier counters exceeds the later one's: they are not of \
                 the same run, one continuing the other"
            ),
        }
    }
}

impl std::error::Error for CountersError {}

/// What is wrong with the content of a state file (after its checksum held, or before one
/// is written): the text names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError(pub String);

impl core::fmt::Display for StateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StateError {}

impl From<String> for StateError {
    fn from(s: String) -> StateError {
        StateError(s)
    }
}

/// Why a run, a merge, a verification or a conversion could not go on.
#[derive(Debug)]
pub enum EstimateError {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A state file is not valid.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A state file belongs to another run.
    Mismatch {
        /// The file.
        path: PathBuf,
        /// Which setting differs.
        reason: String,
    },
    /// Shard files that cannot be merged (overlapping, incomplete, from different runs).
    Merge(String),
    /// The material or another setting cannot be run.
    Config(String),
    /// A counter would exceed a `u64`.
    Overflow(String),
    /// A recount did not give the counters a file holds: the binary at hand counts
    /// differently from the one that wrote them, or the file is wrong.
    Recount(String),
}

impl core::fmt::Display for EstimateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EstimateError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            EstimateError::Corrupt { path, reason } => {
                write!(f, "{}: not a valid estimate state file: {reason}", path.display())
            }
            EstimateError::Mismatch { path, reason } => write!(
                f,
                "{}: made by a different run ({reason}); use another --out file or the same settings",
                path.display()
            ),
            EstimateError::Merge(reason) => write!(f, "cannot merge: {reason}"),
            EstimateError::Config(reason) => f.write_str(reason),
            EstimateError::Overflow(reason) => write!(f, "counter overflow: {reason}"),
            EstimateError::Recount(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for EstimateError {}

impl From<CountersError> for EstimateError {
    fn from(e: CountersError) -> EstimateError {
        match e {
            CountersError::Overflow { .. } => EstimateError::Overflow(e.to_string()),
            other => EstimateError::Config(format!("inconsistent counters: {other}")),
        }
    }
}
