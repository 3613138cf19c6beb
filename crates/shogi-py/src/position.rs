//! `Position`: a position of either game, read from SFEN, with its moves, unmoves, perft,
//! check and rule violations.

use crate::args::{game, int_in, value_error};
use crate::interrupt::interruptible;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple, PyType};
use shogi_core::{AnyPosition, Game, GameKind, MiniShogi, MoveList, Relax, Rules, Shogi};
use shogi_retro::{predecessor, unmoves, UnmoveList};
use std::sync::atomic::{AtomicBool, Ordering};

/// A position of Shogi or Mini Shogi, immutable: `play` returns a new one.
///
/// `Position(sfen)` reads the game from the number of ranks (9: Shogi, 5: Mini Shogi);
/// `game="shogi"` or `game="mini"` insists on one. A position must have one king a side and
/// no more pieces of a kind than the game has; the rules the candidate space of the
/// estimate may break (two pawns on a file, a piece that can never move, the side not to
/// move in check) are allowed, and `validate()` names them. Anything else raises
/// `ValueError` with the reason.
#[pyclass(module = "shogi_count", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct Position {
    inner: AnyPosition,
}

/// Runs `$body` with `$p` bound to the position of whichever game `$inner` holds and `$G`
/// to its game type: one generic code path for both games.
macro_rules! with_game {
    ($inner:expr, |$p:ident: $G:ident| $body:expr) => {
        match $inner {
            AnyPosition::Shogi($p) => {
                #[allow(dead_code)] // some bodies need only the position
                type $G = Shogi;
                $body
            }
            AnyPosition::Mini($p) => {
                #[allow(dead_code)]
                type $G = MiniShogi;
                $body
            }
        }
    };
}

impl Position {
    /// The position of `sfen`, of the game its ranks say or of `game`.
    pub fn parse(sfen: &str, game_name: Option<&str>) -> PyResult<AnyPosition> {
        let relax = Relax::CANDIDATE;
        match game_name.map(game).transpose()? {
            None => AnyPosition::from_sfen_with(sfen, relax),
            Some(GameKind::Shogi) => {
                shogi_core::Position::from_sfen_with(sfen, relax).map(AnyPosition::Shogi)
            }
            Some(GameKind::Mini) => {
                shogi_core::Position::from_sfen_with(sfen, relax).map(AnyPosition::Mini)
            }
        }
        .map_err(value_error)
    }
}

/// Plies counted in one go, between two looks at the cancel flag: perft 2 of the position
/// with the most moves known (593) is about 350,000 leaves, a few milliseconds.
const UNINTERRUPTED: u32 = 2;

/// The stack of the counting thread: 20 plies of a position and a move list each, with
/// room to spare.
const PERFT_STACK: usize = 16 << 20;

/// The leaves `depth` plies below `pos` under `rules`, as `Position::perft_with` counts
/// them, or `None` once `cancel` is set: it is looked at before each subtree deeper than
/// [`UNINTERRUPTED`] plies.
fn perft_until<G: Game>(
    pos: &shogi_core::Position<G>,
    rules: Rules,
    depth: u32,
    cancel: &AtomicBool,
) -> Option<u64> {
    if depth <= UNINTERRUPTED {
        return Some(pos.perft_with(rules, depth));
    }
    let mut list = MoveList::new();
    pos.legal_moves_with(rules, &mut list);
    let mut total = 0u64;
    for &m in list.iter() {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft_until(&child, rules, depth - 1, cancel)?;
    }
    Some(total)
}

#[pymethods]
impl Position {
    /// Reads a position from SFEN; `game` (`"shogi"` or `"mini"`) insists on a game.
    #[new]
    #[pyo3(signature = (sfen, game=None))]
    fn new(sfen: &str, game: Option<&str>) -> PyResult<Self> {
        Ok(Position {
            inner: Position::parse(sfen, game)?,
        })
    }

    /// The initial position of `game` (`"shogi"` or `"mini"`).
    #[staticmethod]
    #[pyo3(signature = (game="shogi"))]
    fn startpos(game: &str) -> PyResult<Self> {
        let inner = match self::game(game)? {
            GameKind::Shogi => AnyPosition::Shogi(shogi_core::Position::startpos()),
            GameKind::Mini => AnyPosition::Mini(shogi_core::Position::startpos()),
        };
        Ok(Position { inner })
    }

    /// The game: `"shogi"` or `"mini"`.
    #[getter]
    fn game(&self) -> &'static str {
        with_game!(&self.inner, |_p: G| G::NAME)
    }

    /// The SFEN of the position.
    fn sfen(&self) -> String {
        self.inner.to_sfen()
    }

    /// The legal moves in USI notation (`7g7f`, `8h2b+`, `P*5e`), under the usual rule
    /// that a pawn drop giving checkmate is illegal.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        with_game!(&self.inner, |p: G| {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            PyList::new(
                py,
                list.iter()
                    .map(|m| PyString::new(py, m.usi::<G>().as_str())),
            )
        })
    }

    /// The position after the legal move `usi`; `ValueError` if it is malformed or
    /// illegal here.
    fn play(&self, usi: &str) -> PyResult<Self> {
        let mut inner = self.inner.clone();
        with_game!(&mut inner, |p: G| p.play_usi(usi).map_err(value_error))?;
        Ok(Position { inner })
    }

    /// The number of leaves of the legal move tree `depth` plies deep (at most 20). The
    /// position must be legal: `ValueError` if `validate()` names anything. The GIL is
    /// released while counting, and Ctrl-C stops a count within a fraction of a second
    /// (`KeyboardInterrupt`; depth 6 from Shogi's initial position takes 7.2 s, as
    /// README.md measures it).
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = int_in(depth, "depth", 0..=u64::from(shogi_cli::MAX_PERFT_DEPTH))? as u32;
        with_game!(&self.inner, |p: G| {
            // The strict reading of the SFEN refuses what the relaxed one let through,
            // with the message `shogi-count perft` gives.
            let strict = shogi_core::Position::<G>::from_sfen(&p.to_sfen()).map_err(value_error)?;
            let rules = Rules::default();
            if depth <= UNINTERRUPTED {
                return Ok(py.detach(|| strict.perft_with(rules, depth)));
            }
            interruptible(py, PERFT_STACK, |cancel| {
                perft_until(&strict, rules, depth, &cancel)
            })?
            // Only a signal's exception cancels the count, and it is raised above.
            .ok_or_else(|| PyRuntimeError::new_err("the count stopped without a signal"))
        })
    }

    /// Every legal predecessor: a list of `(unmove, sfen)` pairs, the unmove in the text
    /// form of shogi-retro (`P7g7f`, `+B9i8ixP`, `P*5d`: the piece that moved, the USI move,
    /// and `x` with the piece it captured) and the SFEN of the position before it.
    fn unmoves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        with_game!(&self.inner, |p: G| {
            let mut list = UnmoveList::new();
            unmoves(p, shogi_core::Rules::default(), &mut list);
            let pairs = list.iter().filter_map(|&u| {
                let before = predecessor(p, u).ok()?;
                PyTuple::new(py, [u.to_text::<G>(), before.to_sfen()]).ok()
            });
            PyList::new(py, pairs)
        })
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        with_game!(&self.inner, |p: G| p.in_check(p.side_to_move()))
    }

    /// The rules the position breaks, by name: `two_pawns` (two unpromoted pawns of a
    /// side on a file), `dead_piece` (a piece that can never move), `opponent_in_check`
    /// (the side not to move is in check). Empty for a legal position.
    fn validate(&self) -> Vec<String> {
        let errors = with_game!(&self.inner, |p: G| p.validate());
        errors
            .iter_names()
            .map(|(name, _)| name.to_ascii_lowercase())
            .collect()
    }

    fn __repr__(&self) -> String {
        // A SFEN holds no quote or backslash, so this is the Python literal of the string.
        format!("Position('{}')", self.inner.to_sfen())
    }

    fn __str__(&self) -> String {
        self.inner.to_sfen()
    }

    /// Equal positions (the move number aside) hash alike.
    fn __hash__(&self) -> u64 {
        match &self.inner {
            AnyPosition::Shogi(p) => p.key(),
            AnyPosition::Mini(p) => !p.key(),
        }
    }

    /// Pickles as `Position(sfen, game)`, for `multiprocessing` and `copy`.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyType>, (String, &'static str))> {
        Ok((py.get_type::<Position>(), (self.sfen(), self.game())))
    }
}
