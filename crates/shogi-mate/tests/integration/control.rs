//! Stopping a search from another thread through `SearchControl`.

use shogi_core::{Position, Shogi};
use shogi_mate::{MateOptions, SearchControl, Solver, Verdict, CHECK_INTERVAL};
use std::time::Duration;

/// Two rooks and two bishops against a bare king: millions of nodes without a verdict.
const HARD: &str = "4k4/9/9/9/9/9/9/9/8K b 2R2B 1";

fn solver() -> Solver<Shogi> {
    Solver::new(MateOptions {
        max_nodes: u64::MAX,
        table_entries: 1 << 16,
        ..MateOptions::default()
    })
}

#[test]
fn a_stop_from_another_thread_ends_the_search() {
    let pos = Position::<Shogi>::from_sfen(HARD).unwrap();
    let control = SearchControl::new();
    let mut solver = solver();
    solver.set_control(Some(control.clone()));
    let stopper = {
        let control = control.clone();
        std::thread::spawn(move || {
            // Stop once the search has published progress: it is under way.
            while control.nodes() < 4 * CHECK_INTERVAL {
                std::thread::sleep(Duration::from_millis(1));
            }
            control.stop();
            control.nodes()
        })
    };
    let r = solver.solve(&pos);
    let seen = stopper.join().unwrap();
    assert_eq!(r.verdict, Verdict::Unknown);
    assert!(r.stats.nodes >= seen, "{} < {seen}", r.stats.nodes);
    assert_eq!(
        control.nodes(),
        r.stats.nodes,
        "the final count is published"
    );
    assert!(control.hashfull() <= 1000);
}

#[test]
fn a_control_stopped_before_the_search_stops_it_at_once_and_none_changes_nothing() {
    let pos = Position::<Shogi>::from_sfen(HARD).unwrap();
    let control = SearchControl::new();
    control.stop();
    let mut solver = solver();
    solver.set_control(Some(control));
    let r = solver.solve(&pos);
    assert_eq!(r.verdict, Verdict::Unknown);
    assert!(r.stats.nodes <= 1, "{}", r.stats.nodes);
    // Without a control, and with a fresh one, a mate in 1 is found as before.
    let mate = Position::<Shogi>::from_sfen("4k4/9/4P4/9/9/9/9/9/8K b G 1").unwrap();
    solver.set_control(None);
    assert_eq!(solver.solve(&mate).verdict, Verdict::Mate);
    solver.set_control(Some(SearchControl::new()));
    assert_eq!(solver.solve(&mate).verdict, Verdict::Mate);
}
