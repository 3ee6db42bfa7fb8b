"""sudoflow: Sudoku at scale from Python.

Every batch function takes a list of ``str`` (one puzzle each: 81 cells,
``1``-``9`` givens, ``.``, ``0`` or ``_`` blanks) or any Arrow string column
(pyarrow, polars, pandas, arro3: anything with ``__arrow_c_array__`` or
``__arrow_c_stream__``), works in parallel with the GIL released
(``threads=None``: all cores), and returns an Arrow table with one row per
input item, in input order, holding the columns and values of the matching
``sudoflow`` command's CSV. Read it with ``pyarrow.table(t)`` or
``polars.DataFrame(t)``. A bad item is a row with status ``invalid`` and an
``error`` naming ``<input>:N`` (its 1-based position) and the problem; it
never raises.

- :func:`solve` -- ``sudoflow solve``: index, puzzle, status, solutions,
  solution, clues, wnf, wnf_level, guesses, backtracks, error.
- :func:`count` -- ``sudoflow count``: index, puzzle, status, solutions, error.
- :func:`rate` -- ``sudoflow rate`` (Sudoku Explainer's ER/EP/ED): index,
  puzzle, status, er, ep, ed, technique, steps, error.
- :func:`generate` -- ``sudoflow generate``: solve's columns (er, ep, ed with
  ``se``), then ``seed``; same seed and options, same table, whatever
  ``threads`` is, and the same rows as the CLI.
- :func:`solve_file` -- ``sudoflow solve`` on files of any size, streamed as
  an Arrow record batch reader.
- :class:`Grid`, :func:`parse`, :func:`is_valid`, :func:`solution`.

Integer columns are ``int64`` (signed, as Spark needs), ratings ``float64``,
empty CSV fields are nulls. :mod:`sudoflow.spark` and :mod:`sudoflow.dask`
run :func:`solve`, :func:`rate` and :func:`count` on distributed data frames.
"""

from ._sudoflow import (
    COUNT_COLUMNS,
    RATE_COLUMNS,
    SOLVE_COLUMNS,
    Grid,
    count,
    generate,
    is_valid,
    parse,
    rate,
    solution,
    solve,
    solve_file,
)

__all__ = [
    "COUNT_COLUMNS",
    "RATE_COLUMNS",
    "SOLVE_COLUMNS",
    "Grid",
    "count",
    "generate",
    "is_valid",
    "parse",
    "rate",
    "solution",
    "solve",
    "solve_file",
]
