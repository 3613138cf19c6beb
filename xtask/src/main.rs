//! `cargo xtask <command>`: long correctness sweeps and reproduction runs that do not belong
//! in the normal test suite (which must stay fast on a 2-core CI machine).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod perft;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Long sweeps and reproduction runs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Deep perft: Shogi from the initial position to depth 6 and every depth of the
    /// independent-library suites in testdata/perft.
    Perft {
        /// Skip the initial-position depth-6 run (about 6 s).
        #[arg(long)]
        suites_only: bool,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Perft { suites_only } => perft::run(suites_only),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (xtask lives one level below it).
pub fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}
