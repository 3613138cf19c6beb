//! `shogi-count count | rank | unrank` end to end: outputs, errors on stderr, exit codes.

use crate::common;
use common::run;

#[test]
fn count_rank_unrank() {
    assert_eq!(
        run(&["count"]).1,
        "80880932079767835177773204009328769812438521503800714936366945233084532"
    );
    assert_eq!(run(&["count", "--game", "mini"]).1, "16014219505238849250");
    assert_eq!(
        run(&["count", "--space", "placement-legal"]).1,
        "3061946014629782898209609153148603825516405472791147447142577969020272"
    );
    assert_eq!(
        run(&["count", "--space", "placement-legal", "--game", "mini"]).1,
        "12874031393035140270"
    );
    assert_eq!(
        run(&["count", "--space", "candidate", "--game", "mini"]).1,
        "16014219505238849250"
    );
    assert_eq!(
        run(&["unrank", "--game", "mini", "9191698481829492401"]).1,
        "4+p/K4/g1+Rks/1+b+s2/1G+BrP b - 1"
    );
    assert_eq!(
        run(&["rank", "1R3/3g+R/k+Sg2/3B+B/K2+s+p b p 1"]).1,
        "15673526037461416338"
    );
    assert_eq!(
        run(&["unrank", "0"]).1,
        "Knppr4/klppr4/glppb4/glppb4/glpp5/gpps5/npps5/npps5/npps5 b - 1"
    );
}

#[test]
fn errors_exit_with_code_1() {
    for args in [
        &["unrank", "--game", "mini", "16014219505238849250"][..],
        &["rank", "rbsgk/4p/5/P4/KGSBR w - 1"],
        &["rank", "4K/k4/5/5/5 b RBGSPrbgsp 1"],
        &["rank", "not a sfen"],
    ] {
        let out = common::shogi_count(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("shogi-count: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

/// Text that is no number at all is refused by the command line's parser: a usage error.
#[test]
fn a_rank_that_is_no_integer_is_a_usage_error() {
    for args in [
        &["unrank", "abc"][..],
        &["unrank", "-5"],
        &["unrank", "1.5"],
    ] {
        let out = common::shogi_count(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("not a non-negative decimal integer"),
            "{args:?}: {err}"
        );
    }
}
