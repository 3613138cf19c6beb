//! The segments of a run: each session of a run (a start, every `--resume`) counts one
//! contiguous range of samples with one binary, and the state file keeps, for each, the range,
//! its counters, the binary (version, commit and the fingerprint of its counting code), when
//! it ran, and the digests of its blocks (docs/METHOD.md §10.5). The counters of the run are
//! the sum of its segments'. Anyone can then recount any segment, or any block of one, with
//! the binary at hand and compare exactly (`shogi-count verify-run`), and a binary whose
//! counting code differs from the last segment's must first show that it counts alike
//! (`estimate --resume`).

use crate::counters::Counters;
use crate::error::{CountersError, StateError};
use serde::{Deserialize, Serialize};
use std::time::SystemTime;

/// The samples of a block, the unit of a digest: blocks are the ranges
/// `[j · BLOCK, (j + 1) · BLOCK)` of the sample indices, cut by the segment's ends. 2^24
/// samples take 10 to 20 seconds to recount on two cores, so a spot check of a run is
/// cheap, and a run of 10^11 samples keeps some 6,000 digests.
pub const BLOCK: u64 = 1 << 24;

/// The binary that counted a segment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Binary {
    /// The crate version of shogi-estimate.
    pub version: String,
    /// The git commit it was built from (`…-modified` when the counting code differed from
    /// it), if known.
    #[serde(deserialize_with = "crate::config::required::deserialize")]
    pub commit: Option<String>,
    /// The SHA-256 fingerprint of its counting code, the locked versions of the crates it
    /// uses, the compiler and the target (`build.rs`), if known: segments converted from
    /// files written before segments existed have none.
    #[serde(deserialize_with = "crate::config::required::deserialize")]
    pub fingerprint: Option<String>,
}

impl Binary {
    /// This binary.
    pub fn this() -> Binary {
        let commit = env!("SHOGI_COUNT_COMMIT");
        Binary {
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: (!commit.is_empty()).then(|| commit.to_string()),
            fingerprint: Some(FINGERPRINT.to_string()),
        }
    }

    /// Whether this binary is known to count as `other` does: the same fingerprint.
    pub fn counts_as(&self, other: &Binary) -> bool {
        self.fingerprint.is_some() && self.fingerprint == other.fingerprint
    }

    /// A short description: the commit (or version) and the start of the fingerprint.
    pub fn short(&self) -> String {
        let who = match self.commit.as_deref() {
            Some(c) => {
                // A hash (with `-modified`, perhaps) is cut to ten digits; what a conversion
                // recorded in words is kept whole.
                let (hash, rest) = c.split_once('-').unwrap_or((c, ""));
                let is_hash = hash.len() >= 7 && hash.bytes().all(|b| b.is_ascii_hexdigit());
                match (is_hash, rest) {
                    (true, "") => format!("commit {}", &hash[..hash.len().min(10)]),
                    (true, rest) => format!("commit {}-{rest}", &hash[..hash.len().min(10)]),
                    (false, _) => c.to_string(),
                }
            }
            None => format!("version {}", self.version),
        };
        match &self.fingerprint {
            Some(f) => format!("{who}, counting code {}", &f[..f.len().min(12)]),
            None => format!("{who}, counting code not fingerprinted"),
        }
    }
}

/// The fingerprint of this binary's counting code (see [`Binary::fingerprint`]).
pub const FINGERPRINT: &str = env!("SHOGI_ESTIMATE_FINGERPRINT");

/// One session of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Segment {
    /// The first sample index counted.
    pub start: u64,
    /// One past the last.
    pub end: u64,
    /// The binary that counted it.
    pub binary: Binary,
    /// When it started, UTC (RFC 3339), if known.
    #[serde(deserialize_with = "crate::config::required::deserialize")]
    pub started: Option<String>,
    /// When its last sample was counted, UTC (RFC 3339), if known.
    #[serde(deserialize_with = "crate::config::required::deserialize")]
    pub ended: Option<String>,
    /// Wall-clock seconds it ran.
    pub elapsed_seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// The counters of its samples.
    pub counters: Counters,
    /// The digest of each block its range meets ([`BLOCK`]), in order, as 16 hex digits:
    /// the wrapping sum over the block's samples of a hash of the sample's index and outcome.
    /// `None` for segments converted from files without digests.
    #[serde(with = "hex_digests")]
    pub digests: Option<Vec<u64>>,
    /// Where the segment's numbers come from when it was not counted by this format's
    /// `estimate` (a conversion), else `None`.
    #[serde(deserialize_with = "crate::config::required::deserialize")]
    pub note: Option<String>,
}

/// Digests as arrays of hex strings: JSON numbers above 2^53 do not survive every reader.
mod hex_digests {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<Vec<u64>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            None => s.serialize_none(),
            Some(d) => s.collect_seq(d.iter().map(|x| format!("{x:016x}"))),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u64>>, D::Error> {
        let Some(v) = Option::<Vec<String>>::deserialize(d)? else {
            return Ok(None);
        };
        v.iter()
            .map(|h| {
                if h.len() != 16 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(D::Error::custom(format!(
                        "digest `{}` is not 16 hex digits",
                        h.chars().take(20).collect::<String>()
                    )));
                }
                u64::from_str_radix(h, 16).map_err(D::Error::custom)
            })
            .collect::<Result<Vec<u64>, _>>()
            .map(Some)
    }
}

/// The blocks that `start..end` meets, cut to it, in order.
pub fn blocks(start: u64, end: u64) -> impl Iterator<Item = core::ops::Range<u64>> {
    let mut a = start;
    core::iter::from_fn(move || {
        if a >= end {
            return None;
        }
        let b = (a / BLOCK).saturating_add(1).saturating_mul(BLOCK).min(end);
        let r = a..b;
        a = b;
        Some(r)
    })
}

/// The time now, UTC, to the second, as RFC 3339.
pub fn now_utc() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

impl Segment {
    /// A segment that starts at sample `start`, counted by this binary from now.
    pub fn open(start: u64, threads: usize, empty: Counters) -> Segment {
        Segment {
            start,
            end: start,
            binary: Binary::this(),
            started: Some(now_utc()),
            ended: None,
            elapsed_seconds: 0.0,
            threads,
            counters: empty,
            digests: Some(Vec::new()),
            note: None,
        }
    }

    /// The samples it holds.
    pub fn samples(&self) -> u64 {
        self.end - self.start
    }

    /// Adds the counters and digest of samples `a..b`, which follow the segment's end and lie
    /// in one block. Nothing changes when the counters cannot be added.
    pub fn extend(
        &mut self,
        a: u64,
        b: u64,
        counters: &Counters,
        digest: u64,
    ) -> Result<(), CountersError> {
        debug_assert_eq!(a, self.end);
        debug_assert_eq!(a / BLOCK, (b - 1) / BLOCK);
        self.counters.merge(counters)?;
        if let Some(d) = &mut self.digests {
            let first = self.start / BLOCK;
            let at = (a / BLOCK - first) as usize;
            if d.len() <= at {
                d.resize(at + 1, 0);
            }
            d[at] = d[at].wrapping_add(digest);
        }
        self.end = b;
        Ok(())
    }

    /// Checks the segment on its own: a range, counters that hold up and count its samples,
    /// one digest per block. `at` names it in the error.
    pub fn check(&self, at: &str) -> Result<(), StateError> {
        if self.end < self.start {
            return Err(format!("{at}: the range {}..{} is reversed", self.start, self.end).into());
        }
        if self.counters.samples != self.samples() {
            return Err(format!(
                "{at}: {} samples counted in the range {}..{} of {} samples",
                self.counters.samples,
                self.start,
                self.end,
                self.samples()
            )
            .into());
        }
        self.counters
            .check()
            .map_err(|e| StateError(format!("{at}: counters: {e}")))?;
        if let Some(d) = &self.digests {
            let want = blocks(self.start, self.end).count();
            if d.len() != want {
                return Err(format!(
                    "{at}: {} digests for the {want} blocks of samples {}..{}",
                    d.len(),
                    self.start,
                    self.end
                )
                .into());
            }
        }
        if !(self.elapsed_seconds.is_finite() && self.elapsed_seconds >= 0.0) {
            return Err(format!(
                "{at}: elapsed_seconds {} is not a duration",
                self.elapsed_seconds
            )
            .into());
        }
        if let Some(f) = &self.binary.fingerprint {
            if f.len() != 64 || !f.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!("{at}: the fingerprint is not a SHA-256 in hex").into());
            }
        }
        Ok(())
    }
}

/// Checks that `segments` tile `start..next` in order, each sound, and add up to `total`.
pub fn check_tiling(
    segments: &[Segment],
    start: u64,
    next: u64,
    total: &Counters,
) -> Result<(), StateError> {
    let mut at = start;
    let mut sum = match &total.conditional {
        Some(_) => Counters::new_conditional(),
        None => Counters::new(total.two_phase.is_some()),
    };
    for (i, s) in segments.iter().enumerate() {
        let name = format!("segment {i}");
        s.check(&name)?;
        if s.start != at {
            return Err(format!(
                "{name} starts at sample {} where the samples before end at {at}: the segments must follow each other without a gap or an overlap",
                s.start
            )
            .into());
        }
        if s.start == s.end {
            return Err(format!("{name} is empty").into());
        }
        sum.merge(&s.counters)
            .map_err(|e| StateError(format!("adding {name}: {e}")))?;
        at = s.end;
    }
    if at != next {
        return Err(format!(
            "the segments end at sample {at}, the run at {next}: they must cover every sample done"
        )
        .into());
    }
    if &sum != total {
        return Err(StateError(
            "the counters are not the sum of the segments' counters".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cut_a_range_on_the_grid() {
        let b: Vec<_> = blocks(BLOCK - 5, 2 * BLOCK + 7).collect();
        assert_eq!(
            b,
            vec![BLOCK - 5..BLOCK, BLOCK..2 * BLOCK, 2 * BLOCK..2 * BLOCK + 7]
        );
        assert_eq!(blocks(3, 3).count(), 0);
        assert_eq!(blocks(0, BLOCK).collect::<Vec<_>>(), vec![0..BLOCK]);
    }

    #[test]
    fn this_binary_has_a_fingerprint() {
        let b = Binary::this();
        let f = b.fingerprint.as_deref().unwrap();
        assert_eq!(f.len(), 64);
        assert!(b.counts_as(&Binary::this()));
        let unknown = Binary {
            fingerprint: None,
            ..b.clone()
        };
        assert!(!unknown.counts_as(&unknown));
        assert!(!b.counts_as(&unknown));
    }

    /// Every module of the crate is on the counting path (its source is in the fingerprint,
    /// build.rs) or named here as one that only reads counters: a new module must be put in
    /// one list or the other.
    #[test]
    fn every_module_is_classified() {
        const READERS: [&str; 12] = [
            "audit.rs",
            "count.rs",
            "digits.rs",
            "error.rs",
            "lib.rs",
            "paper.rs",
            "report.rs",
            "segment.rs",
            "state.rs",
            "stats.rs",
            "systematic.rs",
            "verify.rs",
        ];
        let counting: Vec<&str> = env!("SHOGI_ESTIMATE_COUNTING_MODULES").split(',').collect();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut found = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let name = e.unwrap().file_name().into_string().unwrap();
            assert!(
                counting.contains(&name.as_str()) != READERS.contains(&name.as_str()),
                "{name} must be in exactly one of build.rs's COUNTING_MODULES and this test's READERS"
            );
            found.push(name);
        }
        for m in counting.iter().chain(&READERS) {
            assert!(found.iter().any(|f| f == m), "{m} is listed but absent");
        }
    }
}
