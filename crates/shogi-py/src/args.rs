//! Arguments in, records out: integer arguments checked into a range (a `ValueError` that
//! names the argument, never an `OverflowError` or a wrapped-around value), game names, the
//! library's errors as `ValueError`, and records as the dictionaries `json.loads` makes of
//! the command line's `--json` output.

use num_bigint::BigInt;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use serde::Serialize;
use shogi_core::GameKind;
use std::ops::RangeInclusive;

/// The library's error, whose message says what is wrong, as a `ValueError`.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A Python int (or anything with `__index__`) in `range`, or a `TypeError` / `ValueError`
/// that names the argument.
pub fn int_in(value: &Bound<'_, PyAny>, name: &str, range: RangeInclusive<u64>) -> PyResult<u64> {
    let n: BigInt = value.extract().map_err(|e: PyErr| {
        PyTypeError::new_err(format!("{name} must be an int: {}", e.value(value.py())))
    })?;
    u64::try_from(&n)
        .ok()
        .filter(|v| range.contains(v))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{name} must be an int from {} to {}, got {}",
                range.start(),
                range.end(),
                shown(&n)
            ))
        })
}

/// [`int_in`] for an optional argument: `None` stays `None`.
pub fn opt_int_in(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    range: RangeInclusive<u64>,
) -> PyResult<Option<u64>> {
    value.map(|v| int_in(v, name, range)).transpose()
}

/// A count, read as the command line reads `--nodes` or `--samples`: an int (or anything
/// with `__index__`), a float that is a whole number (`1e6`, as Python writes a million
/// most briefly), or text in the forms of [`shogi_estimate::parse_count`] (`"1e6"`,
/// `"2.5e6"`, `"5_000_000"`); at least `min`. A `TypeError` or `ValueError` names the
/// argument.
pub fn count(value: &Bound<'_, PyAny>, name: &str, min: u64) -> PyResult<u64> {
    let n = if let Ok(text) = value.extract::<String>() {
        shogi_estimate::parse_count(&text)
            .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?
    } else if value.is_instance_of::<pyo3::types::PyFloat>() {
        let f: f64 = value.extract()?;
        // 2^64 is exactly representable, so the test is exact.
        if !(f.is_finite() && f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f))
        {
            return Err(PyValueError::new_err(format!(
                "{name} must be a whole number from {min} to {}, got {f}",
                u64::MAX
            )));
        }
        f as u64
    } else {
        return int_in(value, name, min..=u64::MAX);
    };
    if n < min {
        return Err(PyValueError::new_err(format!(
            "{name} must be at least {min}, got {n}"
        )));
    }
    Ok(n)
}

/// [`count`] for an optional argument: `None` stays `None`.
pub fn opt_count(value: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<u64>> {
    value.map(|v| count(v, name, 0)).transpose()
}

/// An int for an error message: in full when short, else its sign and length, so that a
/// mistaken `10**100000` does not fill the screen.
pub fn shown(n: &BigInt) -> String {
    let text = n.to_string();
    if text.len() <= 40 {
        text
    } else {
        let sign = if n.sign() == num_bigint::Sign::Minus {
            "a negative"
        } else {
            "an"
        };
        let digits = text.trim_start_matches('-').len();
        format!("{sign} int of {digits} digits")
    }
}

/// The game named `name` (`shogi` or `mini`).
pub fn game(name: &str) -> PyResult<GameKind> {
    GameKind::ALL
        .into_iter()
        .find(|g| g.name() == name)
        .ok_or_else(|| {
            let names: Vec<String> = GameKind::ALL
                .iter()
                .map(|g| format!("{:?}", g.name()))
                .collect();
            PyValueError::new_err(format!(
                "unknown game {name:?}: expected {}",
                names.join(" or ")
            ))
        })
}

/// `record` as the object `json.loads` makes of its JSON text: the dictionary a user of the
/// command line's `--json` output gets, with the same fields, in the same order, holding
/// the same values.
pub fn to_py<'py>(py: Python<'py>, record: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let text = serde_json::to_string(record).map_err(value_error)?;
    LOADS.import(py, "json", "loads")?.call1((text,))
}
