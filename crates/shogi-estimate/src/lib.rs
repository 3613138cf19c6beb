#![recursion_limit = "256"]
#![deny(missing_docs)]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod audit;
mod conditional;
mod config;
mod count;
mod counters;
mod digits;
mod error;
mod paper;
mod pipeline;
mod report;
mod run;
mod segment;
mod state;
mod stats;
mod stream;
mod systematic;
mod target;
mod verify;

pub use audit::{samples, verdict_name, SampleRecord};
pub use conditional::{KingGroup, KingWeight};
pub use config::{
    check_phase2_rate, default_phase2_rate, Estimator, Method, RunConfig, Shard, Space,
};
pub use count::{parse_count, parse_sample_count};
pub use counters::{
    ConditionalCounters, Counters, FigurePoint, PhaseCounters, SampleOutcome, WeightCount,
};
pub use digits::{outward, state, Stated};
pub use error::{CountersError, EstimateError, StateError};
pub use paper::{paper, z_score, z_two_sample, Paper};
pub use pipeline::{
    evaluate, evaluate_conditional, evaluate_sample, Evaluated, Phase2, SampleSource,
};
pub use report::{
    grouped, interval_text, percent, report_json, report_text, space_size, table1_rows,
    table2_rows, StageRow,
};
pub use run::{merge, missing_text, run, thread_count, Merged, RunEnd, RunOptions};
pub use segment::{blocks, now_utc, Binary, Segment, BLOCK, FINGERPRINT};
pub use state::{
    check_writable, checksum_of, checksum_with, upgrade, RunState, SampleRange, SegmentFacts,
    FORMAT, FORMAT_2,
};
pub use stats::{sci, wilson, Estimate, Interval, Z};
pub use stream::phase2_selected;
pub use systematic::{assess, bounds, upper_of, zero_of, Assessed, Bound, Check, Scope, CHECKS};
pub use target::{Target, TARGET_MIN_REACHABLE, TARGET_STEP};
pub use verify::{
    check_resume, choose_blocks, chosen_segments, counters_difference, recount,
    resume_recounts_whole, run_plan, Choice, Recount, ResumeCheck, RESUME_RECOUNT,
};
