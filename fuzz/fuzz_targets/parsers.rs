//! The readers of the estimate's command-line numbers: counts (`parse_count`,
//! `parse_sample_count`, behind `--samples`, `--max-expanded`, `--max-nodes`), shards
//! (`Shard::parse`, `--shard K/N`) and the phase-2 rate's check (`check_phase2_rate`,
//! behind `--phase2-rate`), with the names of spaces and methods. The input is text (lossy
//! UTF-8): the whole of it and each of its first lines go through every reader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shogi_core::GameKind;
use shogi_count_fuzz::counts::{reference_count, Refusal};
use shogi_estimate::{
    check_phase2_rate, default_phase2_rate, parse_count, parse_sample_count, Method, Shard, Space,
};

/// Lines read on their own, besides the whole text.
const MAX_LINES: usize = 8;

/// The longest error message of a count: the echo of the text is cut to 40 characters, so
/// a pasted megabyte gives a short message.
const MAX_MESSAGE: usize = 400;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut counts = vec![0, 1, u64::MAX];
    let mut shards = vec![
        Shard::WHOLE,
        Shard {
            index: 0,
            count: u64::MAX,
        },
    ];
    for piece in std::iter::once(&*text).chain(text.split('\n').take(MAX_LINES)) {
        if let Some(n) = count(piece) {
            counts.push(n);
        }
        if let Some(s) = shard(piece) {
            shards.push(s);
        }
        rate(piece);
        names(piece);
    }
    // Shards and totals straight from the bytes too, so that the slicing sees every
    // combination, not only those whose text the fuzzer wrote.
    let word = |i: usize| {
        let mut b = [0u8; 8];
        for (j, x) in data.iter().skip(8 * i).take(8).enumerate() {
            b[j] = *x;
        }
        u64::from_le_bytes(b)
    };
    let (a, b) = (word(0), word(1));
    counts.push(a);
    if b > 0 {
        shards.push(Shard {
            index: a % b,
            count: b,
        });
        shards.push(Shard {
            index: b - 1,
            count: b,
        });
    }
    for &shard in &shards {
        for &samples in &counts {
            slices(shard, samples);
        }
    }
});

/// `parse_count` and `parse_sample_count` on `s`: they agree with the reference reader
/// (value, or the reason of the refusal), an accepted count reads back from its decimal
/// text, plain digits read as `u64::from_str` does, 0 is no number of samples, and error
/// messages stay short. Returns the count if accepted.
fn count(s: &str) -> Option<u64> {
    let got = parse_count(s);
    let expected = reference_count(s);
    match (&got, &expected) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{s:?}"),
        (Err(e), Err(why)) => {
            assert!(
                e.len() <= MAX_MESSAGE,
                "{s:?}: a message of {} bytes",
                e.len()
            );
            assert_eq!(Refusal::of_message(e), Some(*why), "{s:?}: {e}");
        }
        _ => panic!("{s:?}: parse_count gives {got:?}, the reference {expected:?}"),
    }
    let samples = parse_sample_count(s);
    match got {
        Ok(0) => {
            let e = samples.expect_err("0 samples accepted");
            assert!(
                e.ends_with("the number of samples must be at least 1"),
                "{s:?}: {e}"
            );
            assert!(e.len() <= MAX_MESSAGE);
        }
        Ok(n) => assert_eq!(samples, Ok(n), "{s:?}"),
        Err(ref e) => assert_eq!(samples.as_ref(), Err(e), "{s:?}"),
    }
    // Plain digits (with an optional `+`, as `u64::from_str` takes them) read as u64 does.
    let t = s.trim();
    let plain = t.strip_prefix('+').unwrap_or(t);
    if !plain.is_empty() && plain.bytes().all(|b| b.is_ascii_digit()) {
        assert_eq!(got.as_ref().ok(), t.parse::<u64>().ok().as_ref(), "{s:?}");
    }
    let n = got.ok()?;
    assert_eq!(parse_count(&n.to_string()), Ok(n), "{s:?}");
    Some(n)
}

/// `Shard::parse` on `s`: an accepted shard has `index < count` and writes back to text
/// that reads to it; it is accepted exactly when the text is two numbers around a `/`.
fn shard(s: &str) -> Option<Shard> {
    let got = Shard::parse(s);
    let expected = s.split_once('/').and_then(|(k, n)| {
        let (k, n) = (k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?);
        (k < n).then_some(Shard { index: k, count: n })
    });
    assert_eq!(got.as_ref().ok(), expected.as_ref(), "{s:?}: {got:?}");
    let shard = got.ok()?;
    assert!(shard.index < shard.count);
    assert_eq!(Shard::parse(&shard.to_string()), Ok(shard));
    Some(shard)
}

/// The phase-2 rate as the command line reads it (`f64::from_str`, then
/// `check_phase2_rate`): accepted exactly in (0, 1].
fn rate(s: &str) {
    for t in [s, s.trim()] {
        if let Ok(f) = t.parse::<f64>() {
            let ok = f.is_finite() && f > 0.0 && f <= 1.0;
            assert_eq!(check_phase2_rate(f).is_ok(), ok, "{t:?} = {f}");
        }
    }
    for game in GameKind::ALL {
        assert!(check_phase2_rate(default_phase2_rate(game)).is_ok());
    }
}

/// Space and method names: a name reads to the value of that name, nothing else reads.
fn names(s: &str) {
    if let Ok(space) = s.parse::<Space>() {
        assert_eq!(space.name(), s);
    }
    if let Ok(method) = s.parse::<Method>() {
        assert_eq!(method.name(), s);
    }
    for space in Space::ALL {
        assert_eq!(space.name().parse::<Space>(), Ok(space));
    }
    for method in Method::ALL {
        assert_eq!(method.name().parse::<Method>(), Ok(method));
    }
}

/// The slices of `samples` sample indices: slice K starts where slice K-1 ends and ends
/// where K+1 starts, the first starts at 0, the last ends at `samples`, and each holds
/// ⌊samples/N⌋ or ⌈samples/N⌉ indices.
fn slices(shard: Shard, samples: u64) {
    let (k, n) = (shard.index, shard.count);
    let r = shard.range(samples);
    assert!(
        r.start <= r.end && r.end <= samples,
        "{shard} of {samples}: {r:?}"
    );
    let len = r.end - r.start;
    let (low, high) = (samples / n, samples.div_ceil(n));
    assert!(low <= len && len <= high, "{shard} of {samples}: {r:?}");
    if k == 0 {
        assert_eq!(r.start, 0, "{shard} of {samples}");
    } else {
        let before = Shard {
            index: k - 1,
            count: n,
        }
        .range(samples);
        assert_eq!(before.end, r.start, "{shard} of {samples}");
    }
    if k + 1 == n {
        assert_eq!(r.end, samples, "{shard} of {samples}");
    } else {
        let after = Shard {
            index: k + 1,
            count: n,
        }
        .range(samples);
        assert_eq!(r.end, after.start, "{shard} of {samples}");
    }
}
