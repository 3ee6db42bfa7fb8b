"""sudoflow on Dask data frames, through ``map_partitions``.

``solve(ddf, column="puzzle", ...)`` (and ``rate``, ``count``) return
``ddf``'s columns, then the result columns of :func:`sudoflow.solve` (resp.
``rate``, ``count``) but ``index``, then ``source`` and ``row`` (every added
column's name with ``prefix``, if given; a name an input column has is a
``ValueError``). ``source``
is the input file: the ``path_column``'s values (by default ``path``, which
``dd.read_csv(..., include_path_column=True)`` adds), moved there (the
output has no ``path`` column of its own); empty without one. ``row`` is
the partition number << 33 plus the position within the partition:
increasing with the record's position within its source, as Dask's
``read_csv`` keeps each file's blocks in order; not contiguous. Sorting by
(``source``, ``row``) restores input order. Every input row gives one output
row; a bad puzzle gets status ``invalid`` and an ``error`` naming the record
by its source and row (``a.csv row 8589934593: wrong length: ...``). Result
columns are pandas Arrow-backed (``pd.ArrowDtype``), so integers stay
``int64`` with nulls.

The column must hold strings (a ``category`` column of strings too): a
numeric, boolean or date column (or categories of them) raises
``TypeError`` here, before any task runs (read the CSV with
``dtype={"quizzes": "string"}`` or ``dtype=str``: a puzzle read as a number
loses the leading zeros of its ``0`` blanks). In an ``object`` column, an
item that is not a string gets its ``invalid`` row.

Each partition is solved on ``threads`` threads (default 1: Dask's workers
already run one partition per core).

Example::

    ddf = dd.read_csv("puzzles-*.csv", include_path_column=True, blocksize="4MB",
                      dtype={"quizzes": "string"})
    sudoflow.dask.solve(ddf, column="quizzes").to_parquet("solved/")
"""

from typing import Any, List, Optional, Tuple

from ._frames import AS_TEXT, KINDS, ROW_BITS, empty_table, named, result_columns

__all__ = ["solve", "rate", "count"]


def _puzzles(values: Any) -> Any:
    """A partition's puzzle column as sudoflow takes it: an Arrow string
    array for string dtypes, a list (each item its own row, nulls None) for
    object columns."""
    import pandas as pd
    import pyarrow as pa

    if isinstance(values.dtype, pd.CategoricalDtype):
        # Each value its category's, read as an object column is.
        values = values.astype(object)
    if pd.api.types.is_object_dtype(values.dtype):
        return [None if v is None or (isinstance(v, float) and v != v) else v
                for v in values.tolist()]
    return pa.array(values.astype(object).where(values.notna(), None), pa.string())


def _partition(part: Any, kind: str, column: str,
               added: Tuple[List[Tuple[str, str]], str, str], path_column: Optional[str],
               threads: Optional[int], kwargs: dict,
               partition_info: Optional[dict] = None) -> Any:
    import pandas as pd
    import pyarrow as pa

    number = (partition_info or {}).get("number", 0)
    if path_column is not None:
        source = part[path_column].astype(str).to_numpy()
    else:
        source = [""] * len(part)
    rows = (number << ROW_BITS) + pa.array(range(len(part)), pa.int64()).to_numpy()
    sources = pa.array(source, pa.string())
    table = KINDS[kind](named(_puzzles(part[column]), sources, pa.array(rows, pa.int64())),
                        threads=threads, **kwargs)
    columns, source_name, row_name = added
    out = part.drop(columns=[path_column]) if path_column is not None else part.copy()
    for name, new in columns:
        out[new] = pd.Series(
            pd.arrays.ArrowExtensionArray(table.column(name)), index=part.index)
    out[source_name] = pd.Series(source, index=part.index, dtype=pd.ArrowDtype(pa.string()))
    out[row_name] = pd.Series(rows, index=part.index, dtype=pd.ArrowDtype(pa.int64()))
    return out


def _check_column(ddf: Any, column: str) -> None:
    """Raises TypeError unless ddf's `column` may hold strings (from
    ddf.dtypes: no task runs)."""
    import pandas as pd

    if column not in ddf.columns:
        raise ValueError(f"no column {column!r} among {list(ddf.columns)}")
    t = ddf.dtypes[column]
    if pd.api.types.is_string_dtype(t) or pd.api.types.is_object_dtype(t):
        return
    if isinstance(t, pd.CategoricalDtype):
        # Categories of strings, or not known yet (a value that is not a
        # string then gets its invalid row, as in an object column).
        categories = t.categories
        if categories is None or not len(categories) or \
                categories.dtype.kind == "O" or pd.api.types.is_string_dtype(categories.dtype):
            return
        t = f"category of {categories.dtype}"
    raise TypeError(
        f"column {column!r} is {t}, not strings: {AS_TEXT}. Read it as text: "
        f"dd.read_csv(path, dtype={{{column!r}: 'string'}}) (or dtype=str)")


def _run(kind: str, ddf: Any, column: str, prefix: str, path_column: Optional[str],
         threads: Optional[int], kwargs: dict) -> Any:
    import pandas as pd
    import pyarrow as pa

    _check_column(ddf, column)
    # The options are checked here too (ValueError now, not a failed task).
    KINDS[kind]([], threads=threads, **kwargs)
    if path_column is not None and (path_column not in ddf.columns or path_column == column):
        path_column = None
    inputs = [c for c in ddf.columns if c != path_column]
    added = result_columns(kind, inputs, column, prefix)
    columns, source_name, row_name = added
    meta = ddf._meta.drop(columns=[path_column]) if path_column is not None else \
        ddf._meta.copy()
    empty = empty_table(kind)
    for name, new in columns:
        meta[new] = pd.Series([], dtype=pd.ArrowDtype(empty.schema.field(name).type))
    meta[source_name] = pd.Series([], dtype=pd.ArrowDtype(pa.string()))
    meta[row_name] = pd.Series([], dtype=pd.ArrowDtype(pa.int64()))
    return ddf.map_partitions(
        _partition, kind, column, added, path_column, threads, kwargs, meta=meta,
        align_dataframes=False,
    )


def solve(ddf: Any, column: str = "puzzle", *, limit: int = 2, threads: Optional[int] = 1,
          prefix: str = "", path_column: Optional[str] = "path") -> Any:
    """:func:`sudoflow.solve` on ``ddf[column]``; see the module doc for the columns.

    Raises TypeError (a column that cannot hold strings) or ValueError (no
    such column, an option out of range, a result column's name taken: pass
    ``prefix``) at once, before any task runs.
    """
    return _run("solve", ddf, column, prefix, path_column, threads, {"limit": limit})


def rate(ddf: Any, column: str = "puzzle", *, time_budget: Optional[float] = None,
         threads: Optional[int] = 1, prefix: str = "",
         path_column: Optional[str] = "path") -> Any:
    """:func:`sudoflow.rate` on ``ddf[column]``; see the module doc for the columns.

    Raises as :func:`solve`.
    """
    return _run("rate", ddf, column, prefix, path_column, threads, {"time_budget": time_budget})


def count(ddf: Any, column: str = "puzzle", *, limit: Optional[int] = None,
          time_budget: Optional[float] = None, threads: Optional[int] = 1, prefix: str = "",
          path_column: Optional[str] = "path", max: Optional[int] = None) -> Any:
    """:func:`sudoflow.count` on ``ddf[column]``; see the module doc for the columns.
    ``max`` is ``limit``'s old spelling.

    Raises as :func:`solve`.
    """
    return _run("count", ddf, column, prefix, path_column, threads,
                {"limit": limit, "max": max, "time_budget": time_budget})
