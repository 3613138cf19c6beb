//! A second reader of counts, written from the documentation of
//! `shogi_estimate::parse_count` rather than from its code, for the `parsers` target to
//! compare with: a state machine over the characters, and the value normalised by its
//! trailing zeros instead of shifted by the exponent.

/// Why a text is not a count, as the documentation of `parse_count` names the reasons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing but white space.
    Empty,
    /// A leading minus sign.
    Negative,
    /// Not digits with an optional fraction and exponent.
    NotANumber,
    /// A whole number above `u64::MAX`.
    TooLarge,
    /// Not a whole number.
    NotWhole,
}

impl Refusal {
    /// The reason of an error message of `parse_count`, read from how the message ends
    /// (its start echoes the text, which may itself say anything).
    pub fn of_message(message: &str) -> Option<Refusal> {
        if message == "a number is required" {
            Some(Refusal::Empty)
        } else if message.ends_with(" is negative: a count is 0 or more") {
            Some(Refusal::Negative)
        } else if message.contains(" is not a number: write digits") {
            Some(Refusal::NotANumber)
        } else if message.ends_with(" is too large: the largest count is 18446744073709551615") {
            Some(Refusal::TooLarge)
        } else if message.ends_with(" is not a whole number") {
            Some(Refusal::NotWhole)
        } else {
            None
        }
    }
}

/// The parts of a count as written: every digit of the mantissa (integer part, then
/// fraction), the number of fraction digits, and the exponent's sign and digits.
struct Parts {
    mantissa: Vec<u8>,
    fraction_len: usize,
    exponent_negative: bool,
    exponent: Vec<u8>,
}

/// Splits `t` (trimmed, without its sign) into [`Parts`]: digits, at most one `.`, then
/// optionally `e`/`E`, an optional sign and at least one digit; `_` only between two
/// digits; at least one mantissa digit.
fn split(t: &[u8]) -> Option<Parts> {
    #[derive(PartialEq)]
    enum State {
        Integer,
        Fraction,
        ExponentStart,
        Exponent,
    }
    let mut state = State::Integer;
    let mut parts = Parts {
        mantissa: Vec::new(),
        fraction_len: 0,
        exponent_negative: false,
        exponent: Vec::new(),
    };
    for (i, &c) in t.iter().enumerate() {
        let digit_before = i > 0 && t[i - 1].is_ascii_digit();
        let digit_after = t.get(i + 1).is_some_and(u8::is_ascii_digit);
        match (c, &state) {
            (b'0'..=b'9', State::Integer) => parts.mantissa.push(c - b'0'),
            (b'0'..=b'9', State::Fraction) => {
                parts.mantissa.push(c - b'0');
                parts.fraction_len += 1;
            }
            (b'0'..=b'9', State::ExponentStart | State::Exponent) => {
                state = State::Exponent;
                parts.exponent.push(c - b'0');
            }
            (b'_', _) if digit_before && digit_after => {}
            (b'.', State::Integer) => state = State::Fraction,
            (b'e' | b'E', State::Integer | State::Fraction) => state = State::ExponentStart,
            // A sign only right after the `e`.
            (b'+' | b'-', State::ExponentStart) if matches!(t[i - 1], b'e' | b'E') => {
                parts.exponent_negative = c == b'-';
            }
            _ => return None,
        }
    }
    let exponent_ok = match state {
        State::ExponentStart => false,
        State::Exponent => !parts.exponent.is_empty(),
        _ => true,
    };
    (exponent_ok && !parts.mantissa.is_empty()).then_some(parts)
}

/// The count `text` denotes under the documented grammar: white space around it ignored,
/// an optional `+`, decimal digits with single `_` between digits, an optional fraction,
/// an optional exponent; the value must be a whole number that fits in a `u64`.
pub fn reference_count(text: &str) -> Result<u64, Refusal> {
    let t = text.trim();
    if t.is_empty() {
        return Err(Refusal::Empty);
    }
    if t.starts_with('-') {
        return Err(Refusal::Negative);
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    let parts = split(t.as_bytes()).ok_or(Refusal::NotANumber)?;
    // The significant digits, without leading or trailing zeros, and the power of ten
    // that scales them.
    let lead = parts.mantissa.iter().take_while(|&&d| d == 0).count();
    let digits = &parts.mantissa[lead..];
    if digits.is_empty() {
        return Ok(0);
    }
    let trail = digits.iter().rev().take_while(|&&d| d == 0).count();
    let digits = &digits[..digits.len() - trail];
    // The exponent, saturated far beyond anything a u64 or an input of libFuzzer's length
    // could make a difference to.
    let exp_lead = parts.exponent.iter().take_while(|&&d| d == 0).count();
    let exp_digits = &parts.exponent[exp_lead..];
    let mut exp: i128 = if exp_digits.len() > 30 {
        10i128.pow(30)
    } else {
        exp_digits.iter().fold(0, |e, &d| e * 10 + d as i128)
    };
    if parts.exponent_negative {
        exp = -exp;
    }
    let power = exp - parts.fraction_len as i128 + trail as i128;
    if power < 0 {
        return Err(Refusal::NotWhole);
    }
    if digits.len() as i128 + power > 20 {
        return Err(Refusal::TooLarge);
    }
    let mut value: u128 = digits.iter().fold(0, |v, &d| v * 10 + d as u128);
    for _ in 0..power {
        value *= 10;
    }
    u64::try_from(value).map_err(|_| Refusal::TooLarge)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_examples() {
        for (text, value) in [
            ("1e6", Ok(1_000_000)),
            ("5e9", Ok(5_000_000_000)),
            ("2.5e6", Ok(2_500_000)),
            ("5_000_000", Ok(5_000_000)),
            ("1000e-3", Ok(1)),
            (".5e1", Ok(5)),
            ("5.", Ok(5)),
            (" +12 ", Ok(12)),
            ("18446744073709551615", Ok(u64::MAX)),
            ("0e999999999999", Ok(0)),
            ("1.5", Err(Refusal::NotWhole)),
            ("1e-3", Err(Refusal::NotWhole)),
            ("-5", Err(Refusal::Negative)),
            ("1e20", Err(Refusal::TooLarge)),
            ("18446744073709551616", Err(Refusal::TooLarge)),
            ("abc", Err(Refusal::NotANumber)),
            ("1e", Err(Refusal::NotANumber)),
            ("1e+", Err(Refusal::NotANumber)),
            ("1e+-3", Err(Refusal::NotANumber)),
            (".", Err(Refusal::NotANumber)),
            ("5_", Err(Refusal::NotANumber)),
            ("5__0", Err(Refusal::NotANumber)),
            ("1_.5", Err(Refusal::NotANumber)),
            ("", Err(Refusal::Empty)),
        ] {
            assert_eq!(reference_count(text), value, "{text}");
        }
    }
}
