"""sudoflow on Dask data frames, through ``map_partitions``.

``solve(ddf, column="puzzle", ...)`` (and ``rate``, ``count``) return
``ddf``'s columns, then the result columns of :func:`sudoflow.solve` (resp.
``rate``, ``count``) but ``index``, then ``source`` (the input file: the
``path_column``, by default ``path`` as ``dd.read_csv(...,
include_path_column=True)`` adds it; empty without one) and ``row``
(partition number << 33 plus the position within the partition: increasing
with the record's position within its source, as Dask's ``read_csv`` keeps
each file's blocks in order; not contiguous). Sorting by (``source``,
``row``) restores input order. Every input row gives one output row; a bad
puzzle gets status ``invalid`` and an error. Result columns are pandas
Arrow-backed (``pd.ArrowDtype``), so integers stay ``int64`` with nulls.

Each partition is solved on ``threads`` threads (default 1: Dask's workers
already run one partition per core).

Example::

    ddf = dd.read_csv("puzzles-*.csv", include_path_column=True, blocksize="4MB")
    sudoflow.dask.solve(ddf, column="quizzes").to_parquet("solved/")
"""

from typing import Any, Optional

from ._frames import KINDS, ROW_BITS, empty_table, result_columns

__all__ = ["solve", "rate", "count"]


def _partition(part, kind, column, columns, path_column, threads, kwargs, partition_info=None):
    import pandas as pd
    import pyarrow as pa

    number = (partition_info or {}).get("number", 0)
    values = part[column]
    table = pa.table(KINDS[kind](pa.array(values.astype(object).where(values.notna(), None),
                                          pa.string()), threads=threads, **kwargs))
    out = part.copy()
    for name, new in columns:
        out[new] = pd.Series(
            pd.arrays.ArrowExtensionArray(table.column(name)), index=part.index)
    if path_column is not None and path_column in part.columns:
        source = part[path_column].astype(str).to_numpy()
    else:
        source = [""] * len(part)
    out["source"] = pd.Series(source, index=part.index, dtype=pd.ArrowDtype(pa.string()))
    rows = (number << ROW_BITS) + pa.array(range(len(part)), pa.int64()).to_numpy()
    out["row"] = pd.Series(rows, index=part.index, dtype=pd.ArrowDtype(pa.int64()))
    return out


def _run(kind: str, ddf: Any, column: str, prefix: str, path_column: Optional[str],
         threads: Optional[int], kwargs: dict):
    import pandas as pd

    columns = result_columns(kind, list(ddf.columns), column, prefix)
    if path_column is not None and path_column not in ddf.columns:
        path_column = None
    meta = ddf._meta.copy()
    empty = empty_table(kind)
    for name, new in columns:
        meta[new] = pd.Series([], dtype=pd.ArrowDtype(empty.schema.field(name).type))
    meta["source"] = pd.Series([], dtype=pd.ArrowDtype(__import__("pyarrow").string()))
    meta["row"] = pd.Series([], dtype=pd.ArrowDtype(__import__("pyarrow").int64()))
    return ddf.map_partitions(
        _partition, kind, column, columns, path_column, threads, kwargs, meta=meta,
        align_dataframes=False,
    )


def solve(ddf: Any, column: str = "puzzle", *, limit: int = 2, threads: Optional[int] = 1,
          prefix: str = "", path_column: Optional[str] = "path"):
    """:func:`sudoflow.solve` on ``ddf[column]``; see the module doc for the columns."""
    return _run("solve", ddf, column, prefix, path_column, threads, {"limit": limit})


def rate(ddf: Any, column: str = "puzzle", *, time_budget: Optional[float] = None,
         threads: Optional[int] = 1, prefix: str = "", path_column: Optional[str] = "path"):
    """:func:`sudoflow.rate` on ``ddf[column]``; see the module doc for the columns."""
    return _run("rate", ddf, column, prefix, path_column, threads, {"time_budget": time_budget})


def count(ddf: Any, column: str = "puzzle", *, max: Optional[int] = None,
          time_budget: Optional[float] = None, threads: Optional[int] = 1, prefix: str = "",
          path_column: Optional[str] = "path"):
    """:func:`sudoflow.count` on ``ddf[column]``; see the module doc for the columns."""
    return _run("count", ddf, column, prefix, path_column, threads,
                {"max": max, "time_budget": time_budget})
