//! Reading counts as people write them: `5000000000`, `5_000_000_000`, `5e9`, `2.5e6`.
//!
//! The text is read exactly, as decimal digits and a decimal exponent, never through an
//! `f64`: `5e9` must be 5,000,000,000 and not the nearest double, and `1.5` or `1e-3` must be
//! refused rather than rounded to a count nobody asked for.

/// Longest echo of the offending text in an error message: a pasted 100 kB argument must
/// not turn into a 100 kB error.
const ECHO: usize = 40;

/// `text` between backquotes, cut to [`ECHO`] characters for an error message: the
/// crate's one way of quoting what the user typed.
pub(crate) fn echo(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(ECHO).collect();
    if chars.next().is_some() {
        format!("`{head}…` ({} bytes)", text.len())
    } else {
        format!("`{head}`")
    }
}

/// The digits of `part` with single `_` separators between digits removed, or `None` when
/// `part` holds anything else (or an `_` not between two digits).
fn digits(part: &str) -> Option<String> {
    let bytes = part.as_bytes();
    let mut out = String::with_capacity(part.len());
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => out.push(b as char),
            b'_' if i > 0
                && i + 1 < bytes.len()
                && bytes[i - 1].is_ascii_digit()
                && bytes[i + 1].is_ascii_digit() => {}
            _ => return None,
        }
    }
    Some(out)
}

/// Reads a non-negative whole number: decimal digits (`_` allowed between digits), with an
/// optional fraction and an optional exponent (`e` or `E`, optionally signed), as long as
/// the value is a whole number that fits in a `u64`: `1e6`, `5e9`, `2.5e6`, `5_000_000`,
/// `1000e-3` are accepted; `1.5`, `1e-3`, `-5`, `1e20`, `abc` are refused with the reason.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let shown = echo(text);
    let t = text.trim();
    if t.is_empty() {
        return Err("a number is required".into());
    }
    if t.starts_with('-') {
        return Err(format!("{shown} is negative: a count is 0 or more"));
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(at) => (&t[..at], Some(&t[at + 1..])),
        None => (t, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    let not_a_number = || {
        format!(
            "{shown} is not a number: write digits, optionally with `_` between them, a \
             fraction and an exponent (`5000000`, `5_000_000`, `5e6`, `2.5e6`)"
        )
    };
    if int.is_empty() && frac.is_empty() {
        return Err(not_a_number());
    }
    let (Some(int), Some(frac)) = (digits(int), digits(frac)) else {
        return Err(not_a_number());
    };
    // The exponent as a sign and its digits, without leading zeros.
    let (negative_exp, exp_digits) = match exponent {
        None => (false, String::new()),
        Some(e) => {
            let (neg, e) = match e.as_bytes().first() {
                Some(b'-') => (true, &e[1..]),
                Some(b'+') => (false, &e[1..]),
                _ => (false, e),
            };
            match digits(e) {
                Some(d) if !d.is_empty() => (neg, d.trim_start_matches('0').to_string()),
                _ => return Err(not_a_number()),
            }
        }
    };
    // The value is `all × 10^(exp - frac.len())`, `all` being every mantissa digit.
    let all = format!("{int}{frac}");
    let significant = all.trim_start_matches('0');
    if significant.is_empty() {
        return Ok(0);
    }
    let too_large = || format!("{shown} is too large: the largest count is {}", u64::MAX);
    let not_whole = || format!("{shown} is not a whole number");
    // An exponent of more than 9 digits is beyond any u64 (or below 1) whatever the
    // mantissa, and keeps the arithmetic below in range.
    if exp_digits.len() > 9 {
        return Err(if negative_exp {
            not_whole()
        } else {
            too_large()
        });
    }
    let exp: i64 = if exp_digits.is_empty() {
        0
    } else {
        exp_digits.parse::<i64>().map_err(|_| not_a_number())?
    };
    let exp = if negative_exp { -exp } else { exp };
    let frac_len = i64::try_from(frac.len()).map_err(|_| too_large())?;
    let shift = exp - frac_len;
    let digits_text: String = if shift >= 0 {
        // u64::MAX has 20 digits: more is too large, whatever they are.
        let len = significant.len() as u64 + shift as u64;
        if len > 20 {
            return Err(too_large());
        }
        format!("{significant}{}", "0".repeat(shift as usize))
    } else {
        let cut = shift.unsigned_abs();
        let keep = (significant.len() as u64)
            .checked_sub(cut)
            .ok_or_else(not_whole)?;
        let (whole, dropped) = significant.split_at(keep as usize);
        if dropped.bytes().any(|b| b != b'0') {
            return Err(not_whole());
        }
        if whole.len() > 20 {
            return Err(too_large());
        }
        whole.to_string()
    };
    let mut value: u64 = 0;
    for b in digits_text.bytes() {
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
            .ok_or_else(too_large)?;
    }
    Ok(value)
}

/// [`parse_count`] for a number of samples, which must be at least 1.
pub fn parse_sample_count(text: &str) -> Result<u64, String> {
    // parse_count's "0 or more" would be wrong here.
    if text.trim().starts_with('-') {
        return Err(format!(
            "{} is negative: a sample count is 1 or more",
            echo(text)
        ));
    }
    match parse_count(text)? {
        0 => Err(format!(
            "{} is zero: the number of samples must be at least 1",
            echo(text)
        )),
        n => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_forms() {
        for (text, value) in [
            ("1", 1),
            ("30000000", 30_000_000),
            ("1e6", 1_000_000),
            ("1E6", 1_000_000),
            ("1e+6", 1_000_000),
            ("5e9", 5_000_000_000),
            ("2.5e6", 2_500_000),
            ("2.50e6", 2_500_000),
            ("5_000_000", 5_000_000),
            ("5_000.5e3", 5_000_500),
            ("1000e-3", 1),
            ("1.0", 1),
            (".5e1", 5),
            ("5.", 5),
            ("007", 7),
            ("+12", 12),
            (" 12 ", 12),
            ("1e0", 1),
            ("1e00000000000000000000", 1),
            ("18446744073709551615", u64::MAX),
            ("1.8446744073709551615e19", u64::MAX),
            ("0000000000000000000000000018446744073709551615", u64::MAX),
            ("1e19", 10_000_000_000_000_000_000),
        ] {
            assert_eq!(parse_sample_count(text), Ok(value), "{text}");
        }
        assert_eq!(parse_count("0"), Ok(0));
        assert_eq!(parse_count("0e999999999999"), Ok(0));
    }

    #[test]
    fn refused_forms() {
        for (text, reason) in [
            ("", "required"),
            ("0", "at least 1"),
            ("0.0e5", "at least 1"),
            ("1.5", "not a whole number"),
            ("1e-3", "not a whole number"),
            ("2.55e1", "not a whole number"),
            ("1e-99999999999", "not a whole number"),
            ("-5", "negative"),
            ("-0", "negative"),
            ("18446744073709551616", "too large"),
            ("1.8446744073709551616e19", "too large"),
            ("2e19", "too large"),
            ("1e20", "too large"),
            ("1e99999999999999999999", "too large"),
            ("abc", "not a number"),
            ("1e", "not a number"),
            ("e5", "not a number"),
            (".", "not a number"),
            ("1..2", "not a number"),
            ("1e6.5", "not a number"),
            ("_5", "not a number"),
            ("5_", "not a number"),
            ("5__0", "not a number"),
            ("0x10", "not a number"),
            ("1,000", "not a number"),
            ("inf", "not a number"),
            ("NaN", "not a number"),
            ("1e--3", "not a number"),
            ("١٢", "not a number"),
        ] {
            let err = parse_sample_count(text).expect_err(text);
            assert!(err.contains(reason), "{text}: {err}");
        }
        // 0 is a count but not a number of samples: each message says what is accepted.
        assert!(parse_count("-5")
            .unwrap_err()
            .contains("a count is 0 or more"));
        assert!(parse_sample_count("-5")
            .unwrap_err()
            .contains("a sample count is 1 or more"));
        let long = "9".repeat(100_000);
        let err = parse_sample_count(&long).unwrap_err();
        assert!(err.contains("too large") && err.len() < 200, "{err}");
        let long = format!("1{}", "0".repeat(100_000));
        assert!(parse_sample_count(&long).unwrap_err().contains("too large"));
        let long = format!("1e-{}", "0".repeat(100_000));
        assert_eq!(parse_sample_count(&long), Ok(1));
    }
}
