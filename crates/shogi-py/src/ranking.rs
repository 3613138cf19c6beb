//! `count`, `rank` and `unrank`: the candidate space `P_K` of docs/METHOD.md §4 and its
//! ranking, with exact Python ints.

use crate::args::{game, shown, value_error};
use num_bigint::{BigInt, BigUint};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use shogi_core::{AnyPosition, Game, GameKind, MiniShogi, Relax, Shogi};
use shogi_estimate::Space;
use shogi_rank::{full_placement_table, full_table, RankTable};

/// The number of positions in a space of `game` (`"shogi"` or `"mini"`), exactly, as
/// `shogi-count count --space` prints it.
///
/// `space="candidate"` is `|P_K|`, the K-canonical candidate positions that the paper's
/// estimate samples (docs/METHOD.md §4); `space="placement-legal"` is `|S|`, those of them
/// that pass the piece-placement filter, which `estimate(method="fast")` samples
/// (docs/METHOD.md §10.2).
#[pyfunction]
#[pyo3(signature = (game="shogi", space="candidate"))]
pub fn count(game: &str, space: &str) -> PyResult<BigUint> {
    let game = self::game(game)?;
    let space: Space = space.parse().map_err(value_error)?;
    Ok(match (game, space) {
        (GameKind::Shogi, Space::Candidate) => full_table::<Shogi>().count(),
        (GameKind::Mini, Space::Candidate) => full_table::<MiniShogi>().count(),
        (GameKind::Shogi, Space::PlacementLegal) => full_placement_table::<Shogi>().count(),
        (GameKind::Mini, Space::PlacementLegal) => full_placement_table::<MiniShogi>().count(),
    })
}

/// The rank of a position in the authors' order (docs/METHOD.md §4.1): Black to move,
/// K-canonical kings, the game's full material. `ValueError` for any other position.
#[pyfunction]
pub fn rank(sfen: &str) -> PyResult<BigUint> {
    match AnyPosition::from_sfen_with(sfen, Relax::CANDIDATE).map_err(value_error)? {
        AnyPosition::Shogi(p) => full_table::<Shogi>().rank(&p),
        AnyPosition::Mini(p) => full_table::<MiniShogi>().rank(&p),
    }
    .map_err(value_error)
}

/// The SFEN of the position with rank `rank` of `game`, an int from 0 to
/// `count(game) - 1`.
#[pyfunction]
#[pyo3(signature = (rank, game="shogi"))]
pub fn unrank(rank: &Bound<'_, PyAny>, game: &str) -> PyResult<String> {
    let game = self::game(game)?;
    let r: BigInt = rank.extract().map_err(|e: PyErr| {
        PyTypeError::new_err(format!("rank must be an int: {}", e.value(rank.py())))
    })?;
    let r = r.to_biguint().ok_or_else(|| {
        PyValueError::new_err(format!("rank must be non-negative, got {}", shown(&r)))
    })?;
    match game {
        GameKind::Shogi => sfen_of(full_table::<Shogi>(), &r),
        GameKind::Mini => sfen_of(full_table::<MiniShogi>(), &r),
    }
}

fn sfen_of<G: Game>(table: &RankTable<G>, r: &BigUint) -> PyResult<String> {
    table.unrank(r).map(|p| p.to_sfen()).map_err(value_error)
}
