"""Counting the positions of Shogi and Mini Shogi: moves, unmoves, perft, exact ranking,
reachability, the Monte Carlo estimate and checkmate search, from Rust.

Positions are SFEN strings or `Position` objects; moves are USI strings; large numbers are
Python ints. The dictionaries returned by `classify`, `estimate`, `mate` and `pass_count`
have the fields of `shogi-count <command> --json`. Bad input raises `ValueError` (or
`TypeError` for an argument of the wrong type) with the library's message.
"""

import os
from typing import Any, Callable, Literal, Optional, SupportsIndex, Union, final

# A count, read as the command line reads one: an int, a whole float (`1e6`) or text such as
# "1e6", "2.5e6" or "5_000_000".
_Count = Union[SupportsIndex, float, str]

__all__ = [
    "__version__",
    "Position",
    "classify",
    "count",
    "estimate",
    "mate",
    "pass_count",
    "rank",
    "reach",
    "sample",
    "unrank",
]

__version__: str

_Game = Literal["shogi", "mini"]

@final
class Position:
    """A position of Shogi or Mini Shogi, immutable: `play` returns a new one.

    `Position(sfen)` reads the game from the number of ranks (9: Shogi, 5: Mini Shogi);
    `game="shogi"` or `game="mini"` insists on one. A position must have one king a side
    and no more pieces of a kind than the game has; the rules the candidate space of the
    estimate may break (two pawns on a file, a piece that can never move, the side not to
    move in check) are allowed, and `validate()` names them. Anything else raises
    `ValueError` with the reason.

    Positions compare equal when board, hands and side to move agree (the move number
    aside), hash accordingly, and pickle.
    """

    def __new__(cls, sfen: str, game: Optional[_Game] = None) -> Position: ...
    @staticmethod
    def startpos(game: _Game = "shogi") -> Position:
        """The initial position of `game`."""
    @property
    def game(self) -> _Game:
        """The game: "shogi" or "mini"."""
    def sfen(self) -> str:
        """The SFEN of the position."""
    def legal_moves(self) -> list[str]:
        """The legal moves in USI notation (`7g7f`, `8h2b+`, `P*5e`), under the usual rule
        that a pawn drop giving checkmate is illegal."""
    def play(self, usi: str) -> Position:
        """The position after the legal move `usi`; `ValueError` if it is malformed or
        illegal here."""
    def perft(self, depth: SupportsIndex) -> int:
        """The number of leaves of the legal move tree `depth` plies deep (0 to 20). The
        position must be legal (`ValueError` if `validate()` names anything). The GIL is
        released while counting, and Ctrl-C stops a count within a fraction of a second
        (`KeyboardInterrupt`)."""
    def unmoves(self) -> list[tuple[str, str]]:
        """Every legal predecessor as `(unmove, sfen)`: the unmove in shogi-retro's text
        form (`P7g7f`, `+B9i8ixP`, `P*5d`: the piece that moved, the USI move, and `x` with
        the piece it captured) and the SFEN of the position before it."""
    def is_check(self) -> bool:
        """Whether the side to move is in check."""
    def validate(self) -> list[str]:
        """The rules the position breaks, by name: `two_pawns`, `dead_piece`,
        `opponent_in_check`. Empty for a legal position."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def count(
    game: _Game = "shogi", space: Literal["candidate", "placement-legal"] = "candidate"
) -> int:
    """The number of positions in a space of `game`, exactly, as `shogi-count count --space`
    prints it: `candidate` is `|P_K|`, the K-canonical candidate positions the paper's
    estimate samples (docs/METHOD.md §4); `placement-legal` is `|S|`, those of them that
    pass the piece-placement filter, which `estimate(method="fast")` samples (§10.2)."""

def rank(sfen: str) -> int:
    """The rank of a position in the authors' order (docs/METHOD.md §4.1): Black to move,
    K-canonical kings, the game's full material; `ValueError` for any other position."""

def unrank(rank: SupportsIndex, game: _Game = "shogi") -> str:
    """The SFEN of the position with rank `rank`, from 0 to `count(game) - 1`."""

def classify(
    sfen: str,
    max_expanded: Optional[_Count] = None,
    max_nodes: Optional[_Count] = None,
) -> dict[str, Any]:
    """The stage verdict of a position (docs/METHOD.md §5 filters, then the §7 search), as
    `shogi-count classify --json` prints it: `sfen`, `game`, `verdict`
    (`non-canonical`, `illegal-placement`, `opponent-in-check`, `reachable`,
    `unreachable` or `unknown`), `nodes` (expanded), `generated`, `predecessors`,
    `capture_expansions`, `peak_open`, `peak_closed`, `max_depth`, and for a reachable
    position `kk` and `moves` (USI, from `kk`). The limits bound the search (verdict
    `unknown` when reached). The GIL is released while searching, and Ctrl-C stops the
    search (`KeyboardInterrupt`)."""

def reach(
    sfen: str,
    from_start: bool = False,
    max_expanded: Optional[_Count] = None,
    max_nodes: Optional[_Count] = None,
) -> dict[str, Any]:
    """A replayed certificate that a position is reachable: `{"start": sfen, "moves":
    [usi, ...]}` from the KK position the backward search reached, or with
    `from_start=True` from the game's initial position. `ValueError` with the reason when
    there is none (a filter fails, `unreachable`, or `unknown` when a limit stopped the
    search). The GIL is released while searching, and Ctrl-C stops the search
    (`KeyboardInterrupt`)."""

def estimate(
    game: _Game = "shogi",
    *,
    samples: _Count,
    method: Literal["conditional", "fast", "paper"] = "conditional",
    seed: Optional[SupportsIndex] = None,
    threads: Optional[SupportsIndex] = None,
    progress: Optional[Callable[[int, int], object]] = None,
    max_expanded: Optional[_Count] = None,
    max_nodes: Optional[_Count] = None,
    space: Optional[Literal["candidate", "placement-legal"]] = None,
    phase2_rate: Optional[float | Literal["none"]] = None,
    target_digits: Optional[SupportsIndex] = None,
    target_half_width: Optional[float] = None,
    out: Optional[str | os.PathLike[str]] = None,
    resume: bool = False,
    shard: Optional[str] = None,
    estimator: Optional[Literal["indicator", "conditional"]] = None,
) -> dict[str, Any]:
    """The Monte Carlo estimate of the number of reachable positions from `samples`
    uniform samples (seed 1 unless given), as `shogi-count estimate --json` prints it, with
    every option of the command line. `method="conditional"` (the default) samples the
    placement-legal space, averages the check filter exactly over the squares of White's
    king and searches a share of the survivors (two-phase sampling, docs/METHOD.md §10.8);
    `method="fast"` does the same without the averaging; `method="paper"` samples `P_K`
    and searches every survivor; `space`, `phase2_rate` (a share in (0, 1] or `"none"`) and
    `estimator` override the method's.
    `target_digits` or `target_half_width` stop the run at that precision; `out` keeps a
    checkpointed, checksummed state file, `resume=True` continues the run saved there;
    `shard="K/N"` runs slice K of N. The same seed and samples give the same counters on
    any machine and thread count. The GIL is released while sampling; `progress(done,
    total)` is called after each batch, and an exception it raises, or Ctrl-C, stops the
    run (with a final checkpoint in `out`) and propagates."""

def sample(
    game: _Game = "shogi",
    *,
    samples: _Count,
    seed: Optional[SupportsIndex] = None,
    first: Optional[SupportsIndex] = None,
    method: Literal["conditional", "fast", "paper"] = "conditional",
    space: Optional[Literal["candidate", "placement-legal"]] = None,
    phase2_rate: Optional[float | Literal["none"]] = None,
    max_expanded: Optional[_Count] = None,
    estimator: Optional[Literal["indicator", "conditional"]] = None,
) -> list[dict[str, Any]]:
    """The samples `estimate` draws with `seed`, from index `first` (default 0) on, each
    with the verdict the estimate counts, as `shogi-count sample --json` prints them:
    `index`, `rank`, `sfen`, `verdict`, `expanded`, and `kk` and `moves` for a reachable
    sample. The GIL is released while sampling; Ctrl-C stops it."""

def mate(
    sfen: str,
    nodes: Optional[_Count] = None,
    first: bool = False,
    all_interpositions: bool = False,
    shortest: Optional[bool] = None,
    futile: Optional[bool] = None,
    threads: int = 1,
) -> dict[str, Any]:
    """A checkmate search by the side to move (df-pn, docs/METHOD.md §11–§12), as
    `shogi-count mate --json --table-mb 32` prints it: `sfen`, `game`, `verdict`
    (`mate`, `no-mate`, `unknown`), `plies`, `moves`, `line_minimax`, `shortest`, `cut`,
    `nodes`, `pieces`, `exact_hits`, `superior_hits`, `table_fill`, `replaced`,
    `collections`. By default, as the command line and USI's `go mate`, the answer is the
    proved shortest mate under the composers' conventions (the attacker shortest, the
    defender longest, futile interpositions not counted): `shortest` is its proved length,
    None when a limit cut the proof (`cut` is then True). `first=True` answers the first
    mate proved, the fast search for batches, as `--first`; `all_interpositions=True`
    counts every legal reply (無駄合 included, docs/METHOD.md §11.5), as
    `--all-interpositions`. `shortest=True` and `futile=True`, the earlier names of the
    defaults, are still accepted (`shortest=False` is `first=True`, `futile=False` is
    `all_interpositions=True`); contradicting `first` or `all_interpositions` raises
    ValueError. `threads=N` searches with N threads on one table (docs/METHOD.md §11.8;
    default 1, deterministic; N from 1 to 256). `nodes` bounds the search (default 100,000,000, as the command line). The
    attacker may have no king; the defender holds every piece on neither the board nor
    the attacker's hand."""

def pass_count(
    sfen: str,
    defense: Literal["none", "takeback", "all"] = "none",
    max_passes: Optional[SupportsIndex] = None,
    nodes: Optional[_Count] = None,
) -> dict[str, Any]:
    """The possible pass count (docs/METHOD.md §13): how many passes the defender can be
    given before the side to move forces mate, trying counts 0 to `max_passes` (None: 3),
    as `shogi-count pass-count --json` prints it: `sfen`, `game`, `defense`, `verdict`
    (`proved`, `pass-limit`, `unknown`), `passes`, `move`, `nodes`. `defense` is what the
    defender may do besides passing after a quiet move: nothing (threatmate), recapture
    (`takeback`) or anything (`all`, brinkmate). `nodes` bounds the search (default
    1,000,000)."""
