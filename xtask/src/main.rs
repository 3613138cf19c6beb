//! `cargo xtask <command>`: long correctness sweeps and reproduction runs that do not belong
//! in the normal test suite.

fn main() {
    println!("usage: cargo xtask <command>");
}
