//! `shogi-count unmoves` end to end.

use crate::common;
use common::run;

#[test]
fn unmoves_lists_predecessors() {
    let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    let (ok, out, _) = run(&["unmoves", "--moves", after]);
    assert!(ok);
    assert_eq!(out.lines().count(), 43);
    assert!(out
        .lines()
        .any(|l| l == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t7g7f"));
    let (ok, out, _) = run(&["unmoves", after]);
    assert!(ok);
    assert!(out
        .lines()
        .any(|l| l == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"));
    // Drop-pawn-mate: no predecessor; a pawn drop that stalemates depends on the option.
    let (ok, out, _) = run(&["unmoves", "8k/9/9/9/9/9/sg7/p8/KL7 b - 1"]);
    assert!(ok && out.is_empty());
    let stalemate = "8k/7P1/8G/9/9/9/9/9/K8 w - 2";
    assert!(run(&["unmoves", "--moves", stalemate]).1.contains("P*2b"));
    assert!(
        !run(&["unmoves", "--moves", "--pawn-drop", "no-reply", stalemate])
            .1
            .contains("P*2b")
    );
    // Mini Shogi, and a malformed SFEN.
    let (ok, out, _) = run(&["unmoves", "--moves", "rbsgk/4p/5/P4/KGSBR w - 2"]);
    assert!(ok && !out.is_empty());
    let (ok, _, err) = run(&["unmoves", "not a sfen"]);
    assert!(!ok && !err.is_empty());
}
