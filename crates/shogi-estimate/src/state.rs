//! The durable state of a run and its file: a strict schema, a format version, a run
//! identity and a SHA-256 checksum over the content, so that a damaged, edited or foreign
//! file is refused before any of its numbers is trusted (docs/METHOD.md §10.5).
//!
//! A state file is one JSON object of three members:
//!
//! ```json
//! {
//!   "format": "shogi-count-estimate/3",
//!   "content": { "run_id": "…", "config": {…}, "range": {"start": 0, "end": 1000}, "next": 1000,
//!                "complete": true, "elapsed_seconds": 1.5, "threads": 2, "counters": {…},
//!                "block_samples": 16777216, "segments": [{…}, …] },
//!   "sha256": "…"
//! }
//! ```
//!
//! The segments ([`crate::Segment`]) tile the samples done, each with its own counters,
//! binary and block digests; `counters` is their sum, checked on reading. Files of format
//! 2 (before segments) are read as one segment whose binary is unknown, and must be
//! converted ([`upgrade`]) before a run continues in them.
//!
//! `sha256` is the hex SHA-256 of the format tag, a newline, the canonical JSON of `content`
//! (no white space, the members of every object sorted by key, numbers as serde_json
//! writes them) and a newline: [`checksum_of`]. Reading hashes the values read, written
//! back canonically, and compares: any change to a value, anywhere, is refused; a change
//! that leaves every value as it was (white space, the order of members) changes nothing.
//! Then the content is parsed strictly (every field required, none unknown) and its
//! numbers checked against each other. The checksum guards against damage and against
//! edits by hand; it is no signature (anyone can compute it), so the checks behind it stay.

use crate::config::{check_phase2_rate, Estimator, RunConfig};
use crate::counters::Counters;
use crate::error::{EstimateError, StateError};
use crate::segment::{check_tiling, Binary, Segment, BLOCK};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The format tag of state files; a file with another tag is refused, but for the earlier
/// format 2, read as one segment.
pub const FORMAT: &str = "shogi-count-estimate/3";

/// The tag of the files written before segments existed: checksummed, one set of counters
/// for the whole run.
pub const FORMAT_2: &str = "shogi-count-estimate/2";

/// The tag of the files written before checksums existed.
const FORMAT_1: &str = "shogi-count-estimate/1";

/// The largest state file read. Honest files hold a few megabytes at most (the Figure 18
/// points are the bulk); the limit keeps `--resume /dev/zero` or a runaway file from
/// exhausting memory.
const MAX_STATE_FILE: u64 = 1 << 30;

/// The sample indices a state covers, as stored: the shard's range of `0..samples`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleRange {
    /// The first index.
    pub start: u64,
    /// One past the last index.
    pub end: u64,
}

/// The durable state of a run: its configuration, how far it got and its counters. Written
/// as a checksummed JSON file to checkpoints and as the final result.
#[derive(Clone, Debug, PartialEq)]
pub struct RunState {
    /// The run.
    pub config: RunConfig,
    /// Every sample index from the start of the shard's range up to (not including) `next`
    /// is counted, and no other.
    pub next: u64,
    /// Whether the whole range is done.
    pub complete: bool,
    /// Wall-clock seconds spent, over all sessions of the run.
    pub elapsed_seconds: f64,
    /// Worker threads of the last session (for the throughput report only).
    pub threads: usize,
    /// The counters: the sum of the segments'.
    pub counters: Counters,
    /// The sessions of the run, in sample order: together exactly the samples done.
    pub segments: Vec<Segment>,
    /// For a state read from a file of format 2: that file's checksum. Such a state is
    /// reported and merged like any other, but a run does not continue in it before it is
    /// converted ([`upgrade`]), which keeps the old file beside the new.
    pub format_2_sha256: Option<String>,
}

/// The checksummed part of a file, as written.
#[derive(Serialize)]
struct ContentOut<'a> {
    run_id: String,
    config: &'a RunConfig,
    range: SampleRange,
    next: u64,
    complete: bool,
    elapsed_seconds: f64,
    threads: usize,
    counters: &'a Counters,
    block_samples: u64,
    segments: &'a [Segment],
}

/// The checksummed part of a file, as read: the same fields, every one required.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContentIn {
    run_id: String,
    config: RunConfig,
    range: SampleRange,
    next: u64,
    complete: bool,
    elapsed_seconds: f64,
    threads: usize,
    counters: Counters,
    block_samples: u64,
    segments: Vec<Segment>,
}

/// The checksummed part of a file of format 2.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContentIn2 {
    run_id: String,
    config: RunConfig,
    range: SampleRange,
    next: u64,
    complete: bool,
    elapsed_seconds: f64,
    threads: usize,
    counters: Counters,
}

/// A whole file, as written.
#[derive(Serialize)]
struct FileOut<'a> {
    format: &'a str,
    content: serde_json::Value,
    sha256: String,
}

/// A whole file, as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileIn {
    format: String,
    content: serde_json::Value,
    sha256: String,
}

/// Writes `v` as canonical JSON: no white space, object members sorted by key (whatever
/// the order of the map, which a feature of serde_json elsewhere in a build can change).
fn canonical(v: &serde_json::Value, out: &mut Vec<u8>) {
    use serde_json::Value;
    match v {
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                canonical(item, out);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort();
            out.push(b'{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, k).expect("a string serialises");
                out.push(b':');
                canonical(&members[k], out);
            }
            out.push(b'}');
        }
        scalar => serde_json::to_writer(&mut *out, scalar).expect("a scalar serialises"),
    }
}

/// The checksum a state file must carry for `content`: the hex SHA-256 of the format tag,
/// a newline, the canonical JSON of `content` and a newline (see the module's text).
pub fn checksum_of(content: &serde_json::Value) -> String {
    checksum_with(FORMAT, content)
}

/// [`checksum_of`] under the tag `format`: files of format 2 are checked under theirs (and
/// tests make such files with it).
pub fn checksum_with(format: &str, content: &serde_json::Value) -> String {
    let mut bytes = Vec::new();
    canonical(content, &mut bytes);
    sha256_hex(&[format.as_bytes(), &bytes])
}

/// The hex SHA-256 of `parts`, each followed by a newline.
fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
        h.update(b"\n");
    }
    h.finalize()
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            use core::fmt::Write as _;
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// At most `max` characters of `text`, with an ellipsis and the full length when cut, for
/// quoting a value from a file in an error message.
fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}… ({} bytes)", &text[..at], text.len()),
    }
}

impl RunConfig {
    /// The run's identity: the hex SHA-256 of every setting that defines its samples and
    /// its stopping point (the configuration but the shard). The shards of one run share
    /// it; `merge` refuses files whose identities differ.
    pub fn run_id(&self) -> String {
        let mut c = self.clone();
        c.shard = crate::Shard::WHOLE;
        let json = serde_json::to_vec(&c).expect("a config serialises");
        sha256_hex(&[b"shogi-count-run", &json])
    }
}

impl RunState {
    /// A run that has not started (and so is complete if its range is empty).
    pub fn new(config: RunConfig) -> RunState {
        let range = config.range();
        let counters = match config.estimator {
            Estimator::Conditional => Counters::new_conditional(),
            Estimator::Indicator => Counters::new(config.phase2_rate.is_some()),
        };
        RunState {
            next: range.start,
            config,
            complete: range.is_empty(),
            elapsed_seconds: 0.0,
            threads: 0,
            counters,
            segments: Vec::new(),
            format_2_sha256: None,
        }
    }

    /// Samples done and samples in the range.
    pub fn progress(&self) -> (u64, u64) {
        let r = self.config.range();
        (self.next - r.start, r.end - r.start)
    }

    /// The file's text: the format tag, the content and its checksum.
    pub fn to_file_text(&self) -> String {
        let r = self.config.range();
        let content = ContentOut {
            run_id: self.config.run_id(),
            config: &self.config,
            range: SampleRange {
                start: r.start,
                end: r.end,
            },
            next: self.next,
            complete: self.complete,
            elapsed_seconds: self.elapsed_seconds,
            threads: self.threads,
            counters: &self.counters,
            block_samples: BLOCK,
            segments: &self.segments,
        };
        let content = serde_json::to_value(&content).expect("a state serialises");
        let sha256 = checksum_of(&content);
        let file = FileOut {
            format: FORMAT,
            content,
            sha256,
        };
        let mut text = serde_json::to_string_pretty(&file).expect("a state serialises");
        text.push('\n');
        text
    }

    /// Reads the state from the bytes of a file: the format, the checksum, the schema and
    /// the relations between the counters are all checked before anything is returned.
    /// The error says what is wrong (the caller names the file). A file of format 2 comes
    /// back as one segment of unknown binary, with [`RunState::format_2_sha256`] set.
    pub fn from_file_bytes(bytes: &[u8]) -> Result<RunState, StateError> {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let file: FileIn = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            if let Some(tag) = legacy_format(bytes) {
                return StateError(format!(
                    "written in the format `{tag}` of an earlier shogi-count, which has no \
                     checksum and cannot be verified: finish or report it with the version \
                     that wrote it"
                ));
            }
            StateError(at_path(&e.path().to_string(), e.inner()))
        })?;
        de.end().map_err(|e| StateError(e.to_string()))?;
        if file.format != FORMAT && file.format != FORMAT_2 {
            return Err(StateError(format!(
                "field `format` is `{}`, expected `{FORMAT}` (or `{FORMAT_2}`)",
                clip(&file.format, 40)
            )));
        }
        // Nothing in the content is trusted before its checksum is.
        let expected = checksum_with(&file.format, &file.content);
        if file.sha256 != expected {
            return Err(StateError(format!(
                "the checksum does not match the content (field `sha256` is `{}`, the content \
                 hashes to `{expected}`): the file was changed or damaged after it was written",
                clip(&file.sha256, 64)
            )));
        }
        let parse_error = |e: serde_path_to_error::Error<serde_json::Error>| {
            StateError(at_path(&e.path().to_string(), e.inner()))
        };
        let (run_id, range, state) = if file.format == FORMAT_2 {
            let c: ContentIn2 =
                serde_path_to_error::deserialize(file.content).map_err(parse_error)?;
            let start = c.config.range().start;
            let segments = if c.next > start {
                vec![Segment {
                    start,
                    end: c.next,
                    binary: Binary {
                        version: "unknown".into(),
                        commit: None,
                        fingerprint: None,
                    },
                    started: None,
                    ended: None,
                    elapsed_seconds: c.elapsed_seconds,
                    threads: c.threads,
                    counters: c.counters.clone(),
                    digests: None,
                    note: Some(format!(
                        "the whole of a file of format {FORMAT_2}, sha256 {}",
                        file.sha256
                    )),
                }]
            } else {
                Vec::new()
            };
            let state = RunState {
                config: c.config,
                next: c.next,
                complete: c.complete,
                elapsed_seconds: c.elapsed_seconds,
                threads: c.threads,
                counters: c.counters,
                segments,
                format_2_sha256: Some(file.sha256.clone()),
            };
            (c.run_id, c.range, state)
        } else {
            let c: ContentIn =
                serde_path_to_error::deserialize(file.content).map_err(parse_error)?;
            if c.block_samples != BLOCK {
                return Err(StateError(format!(
                    "field `block_samples`: {} samples a block, where this version writes and reads {BLOCK}",
                    c.block_samples
                )));
            }
            let state = RunState {
                config: c.config,
                next: c.next,
                complete: c.complete,
                elapsed_seconds: c.elapsed_seconds,
                threads: c.threads,
                counters: c.counters,
                segments: c.segments,
                format_2_sha256: None,
            };
            (c.run_id, c.range, state)
        };
        // The rest cannot fail on a file this crate wrote; it guards against a file made
        // by hand with a freshly computed checksum.
        if run_id != state.config.run_id() {
            return Err(StateError(format!(
                "field `run_id` is `{}`, but the configuration's identity is `{}`",
                clip(&run_id, 64),
                state.config.run_id()
            )));
        }
        state.check()?;
        let r = state.config.range();
        if (range.start, range.end) != (r.start, r.end) {
            return Err(StateError(format!(
                "field `range`: {}..{} is not shard {} of {} samples ({}..{})",
                range.start, range.end, state.config.shard, state.config.samples, r.start, r.end
            )));
        }
        Ok(state)
    }

    /// Reads a state file, checking its format, checksum, schema and counters. Errors name
    /// the file and what is wrong with it.
    pub fn load(path: &Path) -> Result<RunState, EstimateError> {
        let io = |error| EstimateError::Io {
            path: path.to_path_buf(),
            error,
        };
        let corrupt = |reason: String| EstimateError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        // A FIFO or a device would block or never end: only regular files are state files.
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(corrupt("not a regular file".into()));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(io)?
            .take(MAX_STATE_FILE + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_STATE_FILE {
            return Err(corrupt(format!(
                "larger than {MAX_STATE_FILE} bytes, far beyond any state file"
            )));
        }
        RunState::from_file_bytes(&bytes).map_err(|e| corrupt(e.0))
    }

    /// Checks that the state is self-consistent: the settings, the shard, the progress,
    /// the completion flag, the counters, the Figure 18 points and the segments agree. The
    /// error names the field.
    pub fn check(&self) -> Result<(), StateError> {
        self.check_inner().map_err(StateError)?;
        check_tiling(
            &self.segments,
            self.config.range().start,
            self.next,
            &self.counters,
        )
        .map_err(|e| StateError(format!("field `segments`: {e}")))?;
        let sum: f64 = self.segments.iter().map(|s| s.elapsed_seconds).sum();
        if (sum - self.elapsed_seconds).abs() > 1e-6 * self.elapsed_seconds.max(1.0) {
            return Err(StateError(format!(
                "field `elapsed_seconds`: {} is not the segments' sum, {sum}",
                self.elapsed_seconds
            )));
        }
        Ok(())
    }

    fn check_inner(&self) -> Result<(), String> {
        let c = &self.config;
        if let Some(rate) = c.phase2_rate {
            check_phase2_rate(rate).map_err(|e| format!("field `config.phase2_rate`: {e}"))?;
        }
        if let Some(t) = c.target {
            t.check()
                .map_err(|e| format!("field `config.target`: {e}"))?;
            if c.shard != crate::Shard::WHOLE {
                return Err(format!(
                    "field `config.target`: a precision target needs the whole run, not shard {}",
                    c.shard
                ));
            }
        }
        c.check_estimator()
            .map_err(|e| format!("field `config.estimator`: {e}"))?;
        if (c.estimator == Estimator::Conditional) != self.counters.conditional.is_some() {
            return Err(format!(
                "field `counters.conditional`: {} for a run of the {} estimator",
                if self.counters.conditional.is_some() {
                    "present"
                } else {
                    "absent"
                },
                c.estimator
            ));
        }
        if c.phase2_rate.is_some() != self.counters.two_phase.is_some() {
            return Err(format!(
                "field `counters.two_phase`: {} for a run {} two-phase sampling",
                if self.counters.two_phase.is_some() {
                    "present"
                } else {
                    "absent"
                },
                if c.phase2_rate.is_some() {
                    "with"
                } else {
                    "without"
                }
            ));
        }
        if c.shard.count == 0 || c.shard.index >= c.shard.count {
            return Err(format!(
                "field `config.shard`: shard {} is out of range (K/N needs K < N)",
                c.shard
            ));
        }
        let r = c.range();
        if !(r.start..=r.end).contains(&self.next) {
            return Err(format!(
                "field `next`: sample {} is outside the shard's range {}..{}",
                self.next, r.start, r.end
            ));
        }
        if self.counters.samples != self.next - r.start {
            return Err(format!(
                "field `counters.samples`: {} samples counted but {} done (next {} from {})",
                self.counters.samples,
                self.next - r.start,
                self.next,
                r.start
            ));
        }
        if self.complete != (self.next == r.end) {
            return Err(format!(
                "field `complete`: the completion flag ({}) contradicts the progress ({} of {} samples)",
                self.complete,
                self.next - r.start,
                r.end - r.start
            ));
        }
        if !(self.elapsed_seconds.is_finite() && self.elapsed_seconds >= 0.0) {
            return Err(format!(
                "field `elapsed_seconds`: {} is not a duration",
                self.elapsed_seconds
            ));
        }
        if let (Some(first), Some(last)) =
            (self.counters.figure.first(), self.counters.figure.last())
        {
            if first.index < r.start || last.index >= self.next || last.index >= c.figure_samples {
                return Err(
                    "field `counters.figure`: a point lies outside the samples done".into(),
                );
            }
        }
        self.counters.check().map_err(|e| format!("counters: {e}"))
    }

    /// The last segment, if any sample is done.
    pub fn last_segment(&self) -> Option<&Segment> {
        self.segments.last()
    }

    /// Writes the state atomically: to a temporary file beside `path`, flushed to disk,
    /// then renamed over `path`, so a kill at any moment leaves the old or the new state.
    pub fn save(&self, path: &Path) -> Result<(), EstimateError> {
        let io = |error| EstimateError::Io {
            path: path.to_path_buf(),
            error,
        };
        let tmp = temporary_beside(path);
        let text = self.to_file_text();
        let mut file = std::fs::File::create(&tmp).map_err(io)?;
        file.write_all(text.as_bytes()).map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        std::fs::rename(&tmp, path).map_err(io)?;
        // The rename itself is durable only once the directory is flushed.
        if let Some(dir) = path.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }

    /// Loads `path` to continue the run `config`, refusing a file made by another run.
    pub fn resume(path: &Path, config: &RunConfig) -> Result<RunState, EstimateError> {
        let state = RunState::load(path)?;
        if let Some(reason) = state.config.difference(config, false) {
            return Err(EstimateError::Mismatch {
                path: path.to_path_buf(),
                reason,
            });
        }
        Ok(state)
    }
}

/// The temporary file a save writes before renaming it over `path`.
fn temporary_beside(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// Checks, before any work, that a result can be written to `path`: its directory exists
/// and takes a new file there (the temporary file of [`RunState::save`], created and
/// removed again), and `path` is not a directory. A run must not find out at its end that
/// its result has nowhere to go.
pub fn check_writable(path: &Path) -> Result<(), EstimateError> {
    let io = |error| EstimateError::Io {
        path: path.to_path_buf(),
        error,
    };
    if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(io(std::io::Error::other("is a directory")));
    }
    let tmp = temporary_beside(path);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp);
    match file {
        Ok(f) => {
            drop(f);
            std::fs::remove_file(&tmp).map_err(io)
        }
        // A temporary file left by a killed save: writable all the same if we may open it.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => std::fs::OpenOptions::new()
            .write(true)
            .open(&tmp)
            .map(drop)
            .map_err(io),
        Err(e) => Err(io(e)),
    }
}

/// The format tag of a file of an earlier format, if `bytes` is one.
fn legacy_format(bytes: &[u8]) -> Option<&'static str> {
    let v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    (v.get("format")?.as_str()? == FORMAT_1).then_some(FORMAT_1)
}

/// A serde error at a field path, the path named unless it is the root.
fn at_path(at: &str, e: &serde_json::Error) -> String {
    // serde quotes a bad value whole: a megabyte pasted into a field must not come back.
    let e = clip(&e.to_string(), 200);
    let at = at.trim_end_matches('.');
    if at.is_empty() || at == "." {
        e
    } else {
        format!("field `{}`: {e}", clip(at, 100))
    }
}

/// What is known of the binary and the session of one segment of a converted file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SegmentFacts {
    /// The commit (or commits) of the binary that counted it, as recorded elsewhere.
    pub commit: Option<String>,
    /// Anything else to keep with it (where the record of its binary is, how it was checked).
    pub note: Option<String>,
}

/// Converts a run saved in format 2 (one set of counters) into format 3 (segments): the
/// final file `last` and earlier checkpoints of the same run, all of format 2, each checked
/// by its checksum on reading, become one segment per stretch between consecutive
/// checkpoints, with the counters of the stretch the difference of the two files' (which
/// fails unless the earlier is a prefix of the later) and a note naming both files'
/// checksums, so that the evidence of the old files is kept. `facts[k]` describes segment
/// `k`. Nothing is recounted: the segments carry no digests and no fingerprint, and
/// `verify-run` recounts them whole.
pub fn upgrade(
    last: &RunState,
    checkpoints: &[RunState],
    facts: &[SegmentFacts],
) -> Result<RunState, StateError> {
    let Some(last_sha) = &last.format_2_sha256 else {
        return Err(StateError(format!(
            "the file is not of format {FORMAT_2}: only such files need converting"
        )));
    };
    // The run a checkpoint belongs to: that of `last`, but for the sample count, which a
    // precision target cuts to the samples done when it is met.
    let same_run = |c: &RunConfig| {
        let mut c = c.clone();
        if last.config.target.is_some() && last.complete && c.samples >= last.config.samples {
            c.samples = last.config.samples;
        }
        last.config.difference(&c, false)
    };
    let mut points: Vec<&RunState> = checkpoints.iter().collect();
    points.sort_by_key(|s| s.next);
    let start = last.config.range().start;
    let mut ends: Vec<(&RunState, &str)> = Vec::new();
    for p in &points {
        let Some(sha) = &p.format_2_sha256 else {
            return Err(StateError(format!(
                "a checkpoint is not of format {FORMAT_2}"
            )));
        };
        if let Some(why) = same_run(&p.config) {
            return Err(StateError(format!(
                "the checkpoint of sha256 {sha} is of another run: {why}"
            )));
        }
        if p.next <= ends.last().map_or(start, |(s, _)| s.next) || p.next >= last.next {
            return Err(StateError(format!(
                "the checkpoint of sha256 {sha} at sample {} does not lie strictly between the \
                 others and the end of the run (sample {}): each checkpoint must be given once",
                p.next, last.next
            )));
        }
        ends.push((p, sha));
    }
    ends.push((last, last_sha));
    if facts.len() > ends.len() {
        return Err(StateError(format!(
            "facts for {} segments, but the files make {}",
            facts.len(),
            ends.len()
        )));
    }
    let mut out = last.clone();
    out.format_2_sha256 = None;
    out.segments.clear();
    let empty = RunState::new(last.config.clone());
    let mut before: (&RunState, Option<&str>) = (&empty, None);
    for (k, (s, sha)) in ends.iter().enumerate() {
        let counters = s
            .counters
            .minus(&before.0.counters)
            .map_err(|e| StateError(format!("segment {k}: {e}")))?;
        let from = match before.1 {
            Some(prev) => format!("the file of sha256 {prev} (next {})", before.0.next),
            None => format!("the start of the run (sample {start})"),
        };
        let facts = facts.get(k).cloned().unwrap_or_default();
        let mut note = format!(
            "converted from format {FORMAT_2}: the difference between {from} and the file of \
             sha256 {sha} (next {})",
            s.next
        );
        if let Some(n) = facts.note {
            note.push_str("; ");
            note.push_str(&n);
        }
        out.segments.push(Segment {
            start: before.0.next.max(start),
            end: s.next,
            binary: Binary {
                version: "unknown".into(),
                commit: facts.commit,
                fingerprint: None,
            },
            started: None,
            ended: None,
            elapsed_seconds: s.elapsed_seconds - before.0.elapsed_seconds,
            threads: s.threads,
            counters,
            digests: None,
            note: Some(note),
        });
        before = (s, Some(sha));
    }
    // The segments' times add up to the run's up to rounding; make the total their sum.
    out.elapsed_seconds = out.segments.iter().map(|s| s.elapsed_seconds).sum();
    out.check()?;
    Ok(out)
}
