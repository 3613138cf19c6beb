//! Running the `shogi-count` binary from the CLI tests.
#![allow(dead_code)]

use std::process::{Command, Output};

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
