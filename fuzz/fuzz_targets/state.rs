//! Result files of `estimate` and `merge` (docs/METHOD.md §10.5): valid files of a small
//! Mini Shogi run, changed by the input (a list of byte edits), are refused or read back as
//! exactly the state that was written, and a merge with an edited shard is refused or gives
//! exactly the merge of the originals, report for report.
//!
//! Input: a selector byte (which file: a finished shard 0/2 or 1/2, or an unfinished whole
//! run), then edits of 3 bytes each: a 16-bit offset (taken modulo the file's length) and
//! the new byte; a 4th byte of 0xff in front of an edit inserts instead of replacing.
#![no_main]

use core::ops::ControlFlow;
use libfuzzer_sys::fuzz_target;
use shogi_core::GameKind;
use shogi_estimate::{merge, report_text, run, RunConfig, RunOptions, RunState, Shard};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The files edited: two finished shards of one run and an unfinished run, with their
/// states and the report of the merge of the shards.
struct Base {
    states: [RunState; 3],
    texts: [Vec<u8>; 3],
    merged_report: String,
}

fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut c = RunConfig::new(GameKind::Mini, 2_000);
        c.seed = 3;
        c.figure_samples = 1_000;
        let shard = |index: u64| {
            let mut c = c.clone();
            c.shard = Shard { index, count: 2 };
            let mut s = RunState::new(c);
            run(&mut s, &RunOptions::new(1), |_| ControlFlow::Continue(())).unwrap();
            // Fixed, so that the files do not depend on the machine.
            s.elapsed_seconds = 0.25;
            s
        };
        let (a, b) = (shard(0), shard(1));
        let mut unfinished = RunState::new(c.clone().with_method(shogi_estimate::Method::Fast));
        let mut batches = 0;
        run(&mut unfinished, &RunOptions::new(1), |_| {
            batches += 1;
            if batches == 1 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        unfinished.elapsed_seconds = 0.5;
        let m = merge(&[(PathBuf::from("a"), a.clone()), (PathBuf::from("b"), b.clone())], false)
            .unwrap();
        let merged_report = report_text(&m.config, &m.counters, m.elapsed_seconds, 1).unwrap();
        let texts = [&a, &b, &unfinished].map(|s| s.to_file_text().into_bytes());
        Base {
            states: [a, b, unfinished],
            texts,
            merged_report,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let base = base();
    let Some((&sel, edits)) = data.split_first() else {
        return;
    };
    let which = usize::from(sel) % 3;
    let mut bytes = base.texts[which].clone();
    let mut rest = edits;
    while rest.len() >= 3 {
        let insert = rest.len() >= 4 && rest[0] == 0xff;
        if insert {
            rest = &rest[1..];
        }
        let at = usize::from(u16::from_le_bytes([rest[0], rest[1]])) % (bytes.len() + 1);
        if insert {
            bytes.insert(at, rest[2]);
        } else if at < bytes.len() {
            bytes[at] = rest[2];
        }
        rest = &rest[3..];
    }
    let Ok(state) = RunState::from_file_bytes(&bytes) else {
        return;
    };
    // Accepted: then it is the state that was written, value for value.
    assert_eq!(state, base.states[which], "an edited file was read as another state");
    if which < 2 {
        let other = (PathBuf::from("other"), base.states[1 - which].clone());
        let edited = (PathBuf::from("edited"), state);
        if let Ok(m) = merge(&[edited, other], false) {
            let r = report_text(&m.config, &m.counters, m.elapsed_seconds, 1).unwrap();
            assert_eq!(r, base.merged_report, "a merge with an edited shard changed the report");
        }
    }
});
