"""sudoflow: Sudoku at scale from Python, with the ``sudoflow`` CLI's engine.

Input. Every batch function (:func:`solve`, :func:`count`, :func:`rate`,
:func:`canon`) takes a list of ``str`` (any iterable: a tuple, a generator,
a pandas Series of str) or any Arrow string column (a pyarrow Array,
ChunkedArray or one-column Table, a polars Series, a pandas Series with a str
or Arrow dtype: anything with ``__arrow_c_array__`` or
``__arrow_c_stream__``). Each item is one puzzle, read as the CLI reads one
line of a file:

- 81 cells, row-major: ``1``-``9`` are givens; ``.``, ``0``, ``_``, ``-``,
  ``*``, ``x`` and ``X`` are blanks;
- text after a space, tab, ``,``, ``;`` or ``:`` is ignored
  (``"P ED=7.1/1.2/1.2"``, tdoku's ``"P:1:solution"``, ``"P,x"``), and a
  quoted field is read within its quotes;
- cells pasted from a web page or a book, between spaces or ``|``
  (``"5 3 . | . 7 . | . . . ..."``);
- 729 characters: a puzzle given by its candidates (pencilmarks, 9 per cell).

An item is at most 64 KiB long, as a line is (its line end aside): a longer
one is invalid, ``line too long``, as the CLI says of such a line.

Every item gives exactly one row, in input order; an item that is not a
puzzle (wrong length, a bad character, clashing givens, blank, a null, not a
string) gets status ``invalid`` and an ``error`` naming ``<input>:N`` (N its
1-based position) and the problem: it never raises. A pandas Series of dtype
``object`` is read item by item, as a list is (``None``, NaN, ``pd.NA`` and
``pd.NaT`` are its nulls). A lone ``str`` or
``bytes``, or an Arrow column of numbers (puzzles read from a CSV as
integers lose the leading zeros of their ``0`` blanks), raises ``TypeError``
saying how to read puzzles as text, e.g. ``polars.read_csv(path,
infer_schema=False)`` or ``pandas.read_csv(path, dtype=str)``.

Options are checked as the CLI checks its flags: a value out of range is a
``ValueError`` naming the parameter; a bool where a number is wanted
(``limit=True``, ``time_budget=True``, ``column=True``) is a ``TypeError``,
not the number 1; ``symmetry`` and ``prune`` take the CLI's spellings
(``"rot180"``, ``"matching-root"``).

Work. In parallel (``threads=None``: every core) with the GIL released; the
result is the same for any ``threads``. Ctrl-C stops a call within a
fraction of a second, even inside a record that would run for hours, and
raises ``KeyboardInterrupt`` (sudoflow calls in other threads stop too);
``progress=True`` shows a tqdm bar
(when tqdm is installed), ``progress=callable`` is called as
``progress(done, total)``.

Results are ``pyarrow.Table`` objects with the columns and values of the
matching command's CSV: counts and positions ``int64``, ratings and ``wnf``
``float64``, ``generate``'s ``seed`` ``uint64``, text ``string``, and null
for an empty CSV field. ``polars.from_arrow(t)`` and :func:`to_pandas` read
them.

- :func:`solve` -- ``sudoflow solve``: index, puzzle, status, solutions,
  solution, clues, wnf, wnf_level, guesses, backtracks, error (and er, ep, ed
  with ``se=True``).
- :func:`count` -- ``sudoflow count``: index, puzzle, status, solutions, error.
- :func:`rate` -- ``sudoflow rate`` (Sudoku Explainer's ER/EP/ED): index,
  puzzle, status, er, ep, ed, technique, steps, error.
- :func:`canon` -- ``sudoflow canon``: index, puzzle, canonical,
  automorphisms, class_index, error.
- :func:`explain` -- ``sudoflow explain``: one puzzle's path, as a dict.
- :func:`generate` -- ``sudoflow generate``: solve's columns (er, ep, ed with
  ``se``), then ``seed``.
- :func:`solve_file`, :func:`count_file`, :func:`rate_file`,
  :func:`canon_file` -- the same on files of any size, streamed through the
  CLI's pipeline as a ``pyarrow.RecordBatchReader`` (the CLI's reader:
  comments, CSV headers, ``column=``, pasted 9-line grids, gzip, zip), with
  ``keep=`` and ``source=`` as ``--keep`` and ``--source``: input columns
  copied into each row, and the ``source`` file and ``line`` of its record.
  (The functions on lists and columns number items by ``index``, their
  position: join a result back to its frame on it.)
- :class:`Grid`, :func:`parse`, :func:`is_valid`, :func:`solution`: one puzzle.
- :func:`to_pandas`: a result as a pandas DataFrame that keeps its types.

:mod:`sudoflow.spark` and :mod:`sudoflow.dask` run :func:`solve`,
:func:`rate` and :func:`count` on distributed data frames.
"""

from typing import Any

from ._sudoflow import (
    CANON_COLUMNS,
    COUNT_COLUMNS,
    RATE_COLUMNS,
    SOLVE_COLUMNS,
    Grid,
    canon,
    canon_file,
    count,
    count_file,
    explain,
    generate,
    is_valid,
    parse,
    rate,
    rate_file,
    solution,
    solve,
    solve_file,
)

__all__ = [
    "CANON_COLUMNS",
    "COUNT_COLUMNS",
    "RATE_COLUMNS",
    "SOLVE_COLUMNS",
    "Grid",
    "canon",
    "canon_file",
    "count",
    "count_file",
    "explain",
    "generate",
    "is_valid",
    "parse",
    "rate",
    "rate_file",
    "solution",
    "solve",
    "solve_file",
    "to_pandas",
]


def to_pandas(result: Any) -> Any:
    """A result as a ``pandas.DataFrame`` whose columns keep their types.

    Parameters
    ----------
    result : pyarrow.Table or pyarrow.RecordBatchReader
        What :func:`solve` and the others return (anything with
        ``__arrow_c_stream__``; a reader is read to its end).

    Returns
    -------
    pandas.DataFrame
        Arrow-backed columns (``pandas.ArrowDtype``): integers stay
        ``int64`` with nulls for empty fields (plain ``Table.to_pandas()``
        would make them floats, NaN for null), strings stay strings.

    Raises
    ------
    ImportError
        pandas is not installed.
    """
    import pandas as pd
    import pyarrow as pa

    return pa.table(result).to_pandas(types_mapper=pd.ArrowDtype)
