//! Running the `shogi-count` binary from the CLI tests.
#![allow(dead_code)]

use std::process::{Child, Command, ExitStatus, Output};
use std::time::{Duration, Instant};

/// How long a hostile input may keep the binary running before the test calls it a hang: a
/// guard against hanging the suite, not a measurement (no test asserts a time).
pub const HANG_GUARD: Duration = Duration::from_secs(120);

/// Waits for `child`, killing it and failing the test if it outlives [`HANG_GUARD`]; `what`
/// names the input in the failure.
pub fn wait_or_fail(child: &mut Child, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().expect("the child can be waited for") {
            return s;
        }
        if start.elapsed() > HANG_GUARD {
            let _ = child.kill();
            let _ = child.wait();
            panic!("shogi-count hangs on {what}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `shogi-count` with `args`.
pub fn shogi_count(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shogi-count"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `shogi-count`: (success, trimmed standard output, trimmed standard error).
pub fn run(args: &[&str]) -> (bool, String, String) {
    let out = shogi_count(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
        String::from_utf8_lossy(&out.stderr).trim().to_string(),
    )
}

/// Runs `shogi-count` with `args` and `input` on standard input: (success, trimmed
/// standard output, trimmed standard error).
pub fn run_with_stdin(args: &[&str], input: &str) -> (bool, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_shogi-count"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Write from another thread: a large input could otherwise fill the pipe while the
    // child waits for us to read its output.
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("the binary runs");
    // A write error only means the child exited without reading everything, which the
    // caller's checks on its output and status catch.
    let _ = writer.join().expect("the writer thread");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
        String::from_utf8_lossy(&out.stderr).trim().to_string(),
    )
}

/// The content of a state file (`estimate --out`) read as JSON: its `content` member.
pub fn state_content(path: &std::path::Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some(v.get("content")?.clone())
}

/// A state file around `content`, as someone editing a file by hand and recomputing what
/// is derived (the run identity, the range, the checksum) would write it: what is left to
/// refuse it is the schema and the checks of the numbers. Fields that do not parse are
/// left as they are.
pub fn sealed(content: &serde_json::Value) -> serde_json::Value {
    let mut c = content.clone();
    let config = serde_json::from_value::<shogi_estimate::RunConfig>(c["config"].clone());
    if let Some(config) = config.ok().filter(|c| c.shard.index < c.shard.count) {
        c["run_id"] = config.run_id().into();
        let r = config.range();
        c["range"] = serde_json::json!({"start": r.start, "end": r.end});
    }
    serde_json::json!({
        "format": shogi_estimate::FORMAT,
        "sha256": shogi_estimate::checksum_of(&c),
        "content": c,
    })
}

/// A Mini Shogi run of the conditional method (`samples` samples of seed `seed`) stopped at
/// its first batch past `stop`, as a kill would leave it, saved to `path`.
pub fn unfinished_run(
    path: &std::path::Path,
    samples: u64,
    stop: u64,
    seed: u64,
) -> shogi_estimate::RunState {
    use std::sync::atomic::{AtomicBool, Ordering};
    let mut c = shogi_estimate::RunConfig::new(shogi_core::GameKind::Mini, samples)
        .with_method(shogi_estimate::Method::Conditional);
    c.seed = seed;
    let mut state = shogi_estimate::RunState::new(c);
    let cancel = std::sync::Arc::new(AtomicBool::new(false));
    let mut o = shogi_estimate::RunOptions::new(2);
    o.batch = 8192;
    o.cancel = Some(std::sync::Arc::clone(&cancel));
    shogi_estimate::run(&mut state, &o, |s| {
        if s.next >= stop {
            cancel.store(true, Ordering::SeqCst);
        }
        core::ops::ControlFlow::Continue(())
    })
    .expect("the run goes");
    assert!(!state.complete);
    state.save(path).expect("the state saves");
    state
}
