"""Type stubs of the extension module (see the package docstring)."""

from os import PathLike
from typing import Any, Iterable, Optional, Sequence, Tuple, Union

_Puzzles = Union[Iterable[str], Any]  # or any Arrow string column (PyCapsule exporter)
_Span = Union[int, Tuple[int, int], str]

SOLVE_COLUMNS: list[str]
COUNT_COLUMNS: list[str]
RATE_COLUMNS: list[str]

class Table:
    """An Arrow table (pyo3-arrow): read it with pyarrow.table() or polars.DataFrame()."""

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...
    @property
    def num_rows(self) -> int: ...

class RecordBatchReader:
    """An Arrow stream (pyo3-arrow): pyarrow.RecordBatchReader.from_stream() reads it."""

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...

def solve(puzzles: _Puzzles, *, limit: int = 2, threads: Optional[int] = None) -> Table:
    """`sudoflow solve`'s rows: index, puzzle, status, solutions, solution, clues, wnf,
    wnf_level, guesses, backtracks, error; one per item, in input order."""

def count(
    puzzles: _Puzzles,
    *,
    max: Optional[int] = None,
    time_budget: Optional[float] = None,
    threads: Optional[int] = None,
) -> Table:
    """`sudoflow count`'s rows: index, puzzle, status, solutions, error.
    time_budget: seconds of reference work per puzzle, counted in search nodes as
    `count --time-budget` counts them (the rows do not depend on the machine's load)."""

def rate(
    puzzles: _Puzzles, *, time_budget: Optional[float] = None, threads: Optional[int] = None
) -> Table:
    """`sudoflow rate`'s rows: index, puzzle, status, er, ep, ed, technique, steps, error.
    time_budget: seconds of reference work per puzzle (default 10), counted in work as
    `rate --time-budget` counts it (the rows do not depend on the machine's load)."""

def generate(
    n: int,
    *,
    seed: int,
    clues: Optional[_Span] = None,
    wnf_level: Optional[_Span] = None,
    symmetry: Optional[str] = None,
    minimal: bool = True,
    guesses: Optional[_Span] = None,
    se: Optional[Union[float, Tuple[float, float], str]] = None,
    max_tries: int = 100_000,
    threads: Optional[int] = None,
) -> Table:
    """`sudoflow generate -n N --seed SEED`'s rows (solve's columns, er/ep/ed with se, seed).
    Raises RuntimeError when a puzzle finds no candidate within max_tries."""

def solve_file(
    paths: Union[str, PathLike[str], Sequence[Union[str, PathLike[str]]]],
    *,
    limit: int = 2,
    threads: Optional[int] = None,
    batch_rows: int = 65536,
    column: Optional[Union[str, int]] = None,
) -> RecordBatchReader:
    """`sudoflow solve FILE...` streamed: batches of up to batch_rows rows, in order.
    column is the CLI's --column: a header's column name or a 1-based number.
    Raises OSError at once for a file that cannot be opened (or, with a column
    name, whose header lacks it)."""

class Grid:
    """A Sudoku grid: 81 cells, row-major, 0 for a blank."""

    def __init__(self, text: str) -> None: ...
    @property
    def cells(self) -> list[int]: ...
    @property
    def clues(self) -> int: ...
    def __getitem__(self, at: Tuple[int, int]) -> int: ...
    def is_valid(self) -> bool: ...
    def solution(self) -> Optional["Grid"]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

def parse(text: str) -> Grid:
    """Parses a puzzle; ValueError names the problem."""

def is_valid(puzzle: str) -> bool:
    """Whether puzzle is 81 cells whose givens do not clash."""

def solution(puzzle: str) -> Optional[str]:
    """The solution of a puzzle with exactly one, else None; ValueError if not a puzzle."""
