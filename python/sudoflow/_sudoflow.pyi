"""Type stubs of the extension module (see the package docstring and each
function's docstring for the columns, statuses and exceptions)."""

from os import PathLike
from typing import Any, Callable, Iterable, Optional, Sequence, Tuple, Union

import pyarrow

# A list (any iterable) of str, or any Arrow string column: an object with
# __arrow_c_array__ or __arrow_c_stream__ (pyarrow, polars, pandas, arro3).
Puzzles = Union[Iterable[Optional[str]], Any]
# An inclusive range: one value, (min, max), or the CLI's text "20..25".
Span = Union[int, Tuple[int, int], str]
# progress=: True for a tqdm bar (a line on stderr without tqdm), or a
# callable(done, total), total None when unknown.
Progress = Union[bool, Callable[[int, Optional[int]], Any], None]
# One path (bytes decoded as os.fsdecode does) or a sequence of them; "" is
# refused (ValueError).
Paths = Union[str, bytes, "PathLike[str]", Sequence[Union[str, bytes, "PathLike[str]"]]]

SOLVE_COLUMNS: list[str]
COUNT_COLUMNS: list[str]
RATE_COLUMNS: list[str]
CANON_COLUMNS: list[str]

def solve(
    puzzles: Puzzles,
    *,
    limit: int = 2,
    prune: str = "basic",
    no_guess: bool = False,
    se: bool = False,
    se_budget: Optional[float] = None,
    se_wall_limit: Optional[float] = None,
    blank: str = ".",
    distinct: bool = False,
    threads: Optional[int] = None,
    progress: Progress = None,
) -> pyarrow.Table: ...
def count(
    puzzles: Puzzles,
    *,
    limit: Optional[int] = None,
    time_budget: Optional[float] = None,
    wall_limit: Optional[float] = None,
    blank: str = ".",
    distinct: bool = False,
    threads: Optional[int] = None,
    progress: Progress = None,
    max: Optional[int] = None,
) -> pyarrow.Table: ...
def rate(
    puzzles: Puzzles,
    *,
    time_budget: Optional[float] = None,
    wall_limit: Optional[float] = None,
    blank: str = ".",
    labels: bool = False,
    distinct: bool = False,
    threads: Optional[int] = None,
    progress: Progress = None,
) -> pyarrow.Table: ...
def canon(
    puzzles: Puzzles,
    *,
    distinct: bool = False,
    blank: str = ".",
    threads: Optional[int] = None,
    progress: Progress = None,
) -> pyarrow.Table: ...
def explain(
    puzzle: str,
    *,
    time_budget: Optional[float] = None,
    wall_limit: Optional[float] = None,
) -> dict[str, Any]: ...
def generate(
    n: int = 1,
    *,
    seed: Optional[int] = None,
    puzzle_seed: Optional[int] = None,
    clues: Optional[Span] = None,
    wnf_level: Optional[Span] = None,
    symmetry: Optional[str] = None,
    minimal: bool = True,
    guesses: Optional[Span] = None,
    se: Optional[Union[float, Tuple[float, float], str]] = None,
    se_budget: Optional[float] = None,
    distinct: bool = False,
    exclude: Optional[Paths] = None,
    max_tries: int = 100_000,
    blank: str = ".",
    labels: bool = False,
    threads: Optional[int] = None,
    progress: Progress = None,
) -> pyarrow.Table: ...
def solve_file(
    paths: Paths,
    *,
    column: Optional[Union[str, int]] = None,
    keep: Optional[Union[str, Sequence[str]]] = None,
    source: bool = False,
    distinct: bool = False,
    limit: int = 2,
    prune: str = "basic",
    no_guess: bool = False,
    se: bool = False,
    se_budget: Optional[float] = None,
    se_wall_limit: Optional[float] = None,
    blank: str = ".",
    threads: Optional[int] = None,
    batch_rows: int = 65536,
    progress: Progress = None,
) -> pyarrow.RecordBatchReader: ...
def count_file(
    paths: Paths,
    *,
    column: Optional[Union[str, int]] = None,
    keep: Optional[Union[str, Sequence[str]]] = None,
    source: bool = False,
    distinct: bool = False,
    limit: Optional[int] = None,
    time_budget: Optional[float] = None,
    wall_limit: Optional[float] = None,
    blank: str = ".",
    threads: Optional[int] = None,
    batch_rows: int = 65536,
    progress: Progress = None,
    max: Optional[int] = None,
) -> pyarrow.RecordBatchReader: ...
def rate_file(
    paths: Paths,
    *,
    column: Optional[Union[str, int]] = None,
    keep: Optional[Union[str, Sequence[str]]] = None,
    source: bool = False,
    distinct: bool = False,
    time_budget: Optional[float] = None,
    wall_limit: Optional[float] = None,
    blank: str = ".",
    labels: bool = False,
    threads: Optional[int] = None,
    batch_rows: int = 65536,
    progress: Progress = None,
) -> pyarrow.RecordBatchReader: ...
def canon_file(
    paths: Paths,
    *,
    column: Optional[Union[str, int]] = None,
    keep: Optional[Union[str, Sequence[str]]] = None,
    source: bool = False,
    distinct: bool = False,
    blank: str = ".",
    threads: Optional[int] = None,
    batch_rows: int = 65536,
    progress: Progress = None,
) -> pyarrow.RecordBatchReader: ...

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

def parse(text: str) -> Grid: ...
def is_valid(puzzle: str) -> bool: ...
def solution(puzzle: str) -> Optional[str]: ...

class _Named:
    """Puzzles with the source and row of each (the Spark and Dask adapters')."""

    def __init__(self, puzzles: Any, sources: Any, rows: Any) -> None: ...
