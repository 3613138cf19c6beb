//! Stating an estimate with no more digits than its interval determines (docs/METHOD.md
//! §8.6): the value with its 3σ half-width, the interval rounded outward, and the
//! significant digits that every point of the interval shares when rounded.
//!
//! The arithmetic is on decimal integers (17 significant digits of each `f64`, at one
//! common exponent), so that rounding down, up and to nearest at a decimal place is exact
//! rather than subject to binary floating point.

/// `10^k` for `0 <= k <= 36`.
fn pow10(k: u32) -> i128 {
    10i128.pow(k)
}

/// Digits of the scale: a number `x` at exponent `e` is the integer `M` with
/// `x = M · 10^(e − 16)`, so that `M` has 17 digits when `x` has exponent `e`.
const SCALE: u32 = 16;

/// `x >= 0` as the integer `M` at exponent `e` (`x ≈ M · 10^(e − 16)`), truncated; 0 for
/// `x <= 0` or not finite.
fn scaled(x: f64, e: i32) -> i128 {
    if !(x.is_finite() && x > 0.0) {
        return 0;
    }
    let text = format!("{:.16e}", x);
    let (mantissa, exp) = text.split_once('e').expect("scientific notation");
    let digits: i128 = mantissa.replace('.', "").parse().expect("decimal digits");
    let exp: i32 = exp.parse().expect("an exponent");
    let shift = exp - e;
    if shift >= 0 {
        // At most a few places: the numbers stated lie within a decade or two of `e`.
        digits.saturating_mul(pow10(shift.min(20) as u32))
    } else if shift > -(SCALE as i32 + 2) {
        digits / pow10((-shift) as u32)
    } else {
        0
    }
}

/// The unit of the `d`-th significant digit at the common exponent, in scaled integers.
fn unit(d: u32) -> i128 {
    pow10(SCALE + 1 - d.clamp(1, SCALE + 1))
}

fn floor_to(m: i128, u: i128) -> i128 {
    m - m.rem_euclid(u)
}

fn ceil_to(m: i128, u: i128) -> i128 {
    floor_to(m + u - 1, u)
}

fn round_to(m: i128, u: i128) -> i128 {
    floor_to(m + u / 2, u)
}

/// A multiple of `unit(d)` written with `d − 1` decimals at exponent `e`.
fn text(m: i128, d: u32, e: i32) -> String {
    let whole = m / pow10(SCALE);
    let decimals = d.saturating_sub(1);
    if decimals == 0 {
        return format!("{whole}e{e}");
    }
    let frac = (m % pow10(SCALE)) / unit(d);
    format!("{whole}.{frac:0width$}e{e}", width = decimals as usize)
}

/// A multiple of `unit(d)` at exponent `e` in scientific notation proper: a value that
/// rounded up past the next power of ten (`10.0e17`) is written at the next exponent
/// (`1.00e18`).
fn sci_text(m: i128, d: u32, e: i32) -> String {
    if m < pow10(SCALE + 1) {
        return text(m, d, e);
    }
    let m = m / 10;
    if m % unit(d) == 0 {
        text(m, d, e + 1)
    } else {
        text(m, d + 1, e + 1)
    }
}

/// The English ordinal of `n` (`first` ... `tenth`, then `11th`).
fn ordinal(n: u32) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    match n {
        1..=10 => WORDS[n as usize - 1].to_string(),
        _ => format!("{n}th"),
    }
}

/// An estimate as the evidence states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stated {
    /// The estimate, to the decimal place of the half-width's second significant digit.
    pub value: String,
    /// The 3σ half-width (the larger side, for an asymmetric interval), two significant
    /// digits rounded up.
    pub half_width: String,
    /// The interval's lower end, rounded down at the same place.
    pub lo: String,
    /// The interval's upper end, rounded up at the same place.
    pub hi: String,
    /// How many significant digits every point of the interval shares when rounded to
    /// them (to nearest, half up): the digits the interval determines.
    pub digits: u32,
    /// The estimate to those digits (`None` when the interval determines none).
    pub determined: Option<String>,
    /// When the interval's ends, rounded to one digit more, are two neighbouring values,
    /// those two (`6.548e68`, `6.549e68`) and the sentence that says so ("the fourth digit
    /// is 8 or 9").
    pub next: Option<(String, String, String)>,
}

impl Stated {
    /// `value ± half_width (3σ), [lo, hi]`.
    pub fn interval(&self) -> String {
        format!(
            "{} ± {} (3σ), [{}, {}]",
            self.value, self.half_width, self.lo, self.hi
        )
    }

    /// What the digits are: "3 significant digits determined: 6.55e68; the fourth digit
    /// is 8 or 9 (6.548e68 or 6.549e68)", or that the interval determines none.
    pub fn digits_text(&self) -> String {
        let mut s = match &self.determined {
            Some(d) => format!(
                "{} significant digit{} determined: {d}",
                self.digits,
                if self.digits == 1 { "" } else { "s" }
            ),
            None => "no significant digit determined".to_string(),
        };
        if let Some((a, b, sentence)) = &self.next {
            s.push_str(&format!("; {sentence} ({a} or {b})"));
        }
        s
    }
}

/// The exponent of `x > 0` in scientific notation, settled on its decimal digits.
fn exponent(x: f64) -> i32 {
    let e = x.log10().floor() as i32;
    // `log10` can be off by one next to a power of ten.
    if scaled(x, e) >= pow10(SCALE + 1) {
        e + 1
    } else if scaled(x, e) < pow10(SCALE) {
        e - 1
    } else {
        e
    }
}

/// `[lo, hi]` rounded outward to `d` significant digits of `hi` (at its exponent): the
/// lower end down, the upper end up, so that the printed interval contains the true one.
/// A negative or non-finite `lo` is printed as 0. `None` unless `hi` is positive and finite.
pub fn outward(lo: f64, hi: f64, d: u32) -> Option<(String, String)> {
    if !(hi.is_finite() && hi > 0.0) {
        return None;
    }
    let e = exponent(hi);
    let u = unit(d);
    Some((
        sci_text(floor_to(scaled(lo.max(0.0), e), u), d, e),
        sci_text(ceil_to(scaled(hi, e), u), d, e),
    ))
}

/// States `value` with the interval `[lo, hi]` (`lo <= value <= hi`; a negative `lo` is
/// taken as 0, a count being at least 0). `None` when `hi` is not a positive finite number.
pub fn state(value: f64, lo: f64, hi: f64) -> Option<Stated> {
    if !(hi.is_finite() && hi > 0.0) {
        return None;
    }
    let reference = if value > 0.0 && value.is_finite() {
        value
    } else {
        hi
    };
    let e = exponent(reference);
    let (mv, ml, mh) = (scaled(value, e), scaled(lo.max(0.0), e), scaled(hi, e));
    let half = (mh - mv).max(mv - ml).max(0);
    // The place of the half-width's second significant digit: `d` digits of the value.
    let d = if half == 0 {
        SCALE
    } else {
        let half_digits = half.to_string().len() as u32;
        // `half` has `half_digits` digits at the scale; its leading digit is the
        // (SCALE + 2 − half_digits)-th significant digit of the value.
        (SCALE + 3).saturating_sub(half_digits).clamp(1, SCALE)
    };
    let u = unit(d);
    let determined_digits = (1..=15)
        .take_while(|&k| round_to(ml, unit(k)) == round_to(mh, unit(k)))
        .last()
        .unwrap_or(0);
    let determined = (determined_digits > 0 && ml > 0)
        .then(|| sci_text(round_to(mh, unit(determined_digits)), determined_digits, e));
    let digits = if determined.is_some() {
        determined_digits
    } else {
        0
    };
    let next = {
        let k = digits + 1;
        let (a, b) = (round_to(ml, unit(k)), round_to(mh, unit(k)));
        (k <= 15 && b - a == unit(k) && a > 0).then(|| {
            let digit = |m: i128| (m / unit(k)) % 10;
            (
                sci_text(a, k, e),
                sci_text(b, k, e),
                format!("the {} digit is {} or {}", ordinal(k), digit(a), digit(b)),
            )
        })
    };
    Some(Stated {
        value: text(round_to(mv, u), d, e),
        half_width: text(ceil_to(half, unit(d.max(2))).max(ceil_to(half, u)), d, e),
        lo: text(floor_to(ml, u), d, e),
        hi: text(ceil_to(mh, u), d, e),
        digits,
        determined,
        next,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_digit_shogi_run_determines_three_digits() {
        // The 4-digit run: 6.548494e68 ± 5.0000e64, straddling 6.5485.
        let v = 6.548494e68;
        let h = 7.63533e-5 * v;
        let s = state(v, v - h, v + h).unwrap();
        assert_eq!(s.digits, 3);
        assert_eq!(s.determined.as_deref(), Some("6.55e68"));
        let (a, b, sentence) = s.next.clone().unwrap();
        assert_eq!((a.as_str(), b.as_str()), ("6.548e68", "6.549e68"));
        assert_eq!(sentence, "the fourth digit is 8 or 9");
        // Outward at the half-width's second digit: 6.547994e68 is printed 6.54799e68,
        // not 6.5480e68.
        assert_eq!(s.lo, "6.54799e68");
        assert_eq!(s.hi, "6.54900e68");
        assert_eq!(s.value, "6.54849e68");
        assert_eq!(s.half_width, "0.00050e68");
    }

    #[test]
    fn outward_rounding_and_the_digit_rule() {
        // Inside one rounding cell of the fourth digit: four digits.
        let s = state(2.3787e18, 2.37851e18, 2.37889e18).unwrap();
        assert_eq!(s.digits, 4);
        assert_eq!(s.determined.as_deref(), Some("2.379e18"));
        assert!(s.next.is_none(), "{s:?}");
        assert_eq!(s.digits_text(), "4 significant digits determined: 2.379e18");
        // Every printed end lies outside the true one.
        for (v, lo, hi) in [
            (1.2345678e10, 1.2344999e10, 1.2346001e10),
            (9.9996e17, 9.9990e17, 1.00002e18),
            (3.3333333e5, 3.3e5, 3.37e5),
        ] {
            let s = state(v, lo, hi).unwrap();
            let parse = |t: &str| t.parse::<f64>().unwrap();
            assert!(parse(&s.lo) <= lo, "{s:?}");
            assert!(parse(&s.hi) >= hi, "{s:?}");
            // The determined value is what every point of the interval rounds to.
            if let Some(d) = &s.determined {
                let x: f64 = d.parse().unwrap();
                let rel = 0.5 * 10f64.powi(1 - s.digits as i32 + x.log10().floor() as i32);
                assert!(lo >= x - rel && hi < x + rel, "{s:?}");
            }
        }
        // Across a power of ten: one common exponent.
        let s = state(9.9996e17, 9.9990e17, 1.00002e18).unwrap();
        assert_eq!(
            (s.lo.as_str(), s.hi.as_str()),
            ("9.99900e17", "10.00020e17")
        );
        assert_eq!(s.digits, 3);
        assert_eq!(s.determined.as_deref(), Some("1.00e18"));
    }

    #[test]
    fn outward_at_a_number_of_digits() {
        assert_eq!(
            outward(6.547994e68, 6.548994e68, 6),
            Some(("6.54799e68".into(), "6.54900e68".into()))
        );
        assert_eq!(
            outward(-3.0, 9.99991e17, 4),
            Some(("0.000e17".into(), "1.000e18".into()))
        );
        assert_eq!(outward(1.0, 0.0, 3), None);
    }

    #[test]
    fn wide_and_degenerate_intervals() {
        // An interval from 0: nothing determined.
        let s = state(0.0, -1.0, 4.2e18).unwrap();
        assert_eq!(s.digits, 0);
        assert!(s.determined.is_none());
        assert_eq!(s.lo, "0.0e18");
        assert!(state(1.0, 0.0, f64::INFINITY).is_none());
        assert!(state(0.0, 0.0, 0.0).is_none());
        // Wide: the first digit is 6 or 7.
        let s = state(6.6e68, 6.3e68, 6.9e68).unwrap();
        assert_eq!(s.digits, 0);
        assert_eq!(s.next.unwrap().2, "the first digit is 6 or 7");
    }
}
