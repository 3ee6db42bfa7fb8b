"""sudoflow on PySpark data frames, through ``mapInArrow``.

``solve(df, column="puzzle", ...)`` (and ``rate``, ``count``) return ``df``'s
columns, then the result columns of :func:`sudoflow.solve` (resp. ``rate``,
``count``) but ``index``, then ``source`` (the input file the row was read
from, Spark's ``input_file_name()``; empty when Spark does not know it) and
``row`` (``monotonically_increasing_id()``: increasing with the record's
position within its source, not contiguous). Sorting by (``source``, ``row``)
restores input order after a multi-file read (every added column's name
with ``prefix``, if given; a name an input column has is a ``ValueError``).
Every input row gives one
output row; a bad puzzle gets status ``invalid`` and an ``error`` naming the
record by its source and row (``file:/data/a.csv row 8589934593: wrong
length: ...``), never a failed task.

The column must be of strings: a column of another type raises
``TypeError`` here, on the driver, before any job runs (read the CSV without
``inferSchema``, or with a schema that says ``STRING``: a puzzle read as a
number loses the leading zeros of its ``0`` blanks).

Each Spark task solves its batches on ``threads`` threads (default 1: Spark
already runs one task per core). The executors need sudoflow installed in
the Python they run (README, "Beyond one machine").

Example::

    df = spark.read.csv("puzzles/*.csv", header=True)
    out = sudoflow.spark.solve(df, column="quizzes")
    out.write.parquet("solved.parquet")
"""

from typing import Any, Optional

from ._frames import AS_TEXT, KINDS, empty_table, named, result_columns

__all__ = ["solve", "rate", "count"]


def _spark_type(t: Any) -> Any:
    import pyarrow as pa
    from pyspark.sql import types as T

    if pa.types.is_int64(t):
        return T.LongType()
    if pa.types.is_uint64(t):
        return T.DecimalType(20, 0)
    if pa.types.is_float64(t):
        return T.DoubleType()
    return T.StringType()


def _check_column(df: Any, column: str) -> None:
    """Raises TypeError unless df's `column` is of strings (from df.schema,
    so no job runs)."""
    from pyspark.sql import types as T

    if column not in df.columns:
        raise ValueError(f"no column {column!r} among {df.columns}")
    t = df.schema[column].dataType
    text = (T.StringType, getattr(T, "VarcharType", T.StringType), getattr(T, "CharType",
                                                                             T.StringType))
    if not isinstance(t, text):
        raise TypeError(
            f"column {column!r} is {t.simpleString()}, not string: {AS_TEXT}. Read it as "
            f"text: spark.read.csv(path, header=True) without inferSchema, or "
            f"schema=\"{column} STRING, ...\", or df.withColumn({column!r}, "
            f"F.lpad(F.col({column!r}).cast('string'), 81, '0')) for 0-blank puzzles read as "
            f"numbers")


def _run(kind: str, df: Any, column: str, prefix: str, threads: Optional[int],
         kwargs: dict) -> Any:
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    _check_column(df, column)
    # The options are checked here too (ValueError now, not a failed task).
    KINDS[kind]([], threads=threads, **kwargs)
    case_sensitive = str(df.sparkSession.conf.get("spark.sql.caseSensitive", "false"))
    columns, source_name, row_name = result_columns(
        kind, df.columns, column, prefix, any_case=case_sensitive.lower() != "true")
    empty = empty_table(kind)
    # The input's columns under names of our own, read by position: Spark's
    # mapInArrow cannot resolve a column whose name holds a dot, and
    # withColumn("row", ...) would replace an input column so named. The
    # output's schema gives them their names back.
    n_inputs = len(df.columns)
    quoted = ["`" + c.replace("`", "``") + "`" for c in df.columns]
    tagged = df.select(
        *[F.col(q).alias(f"_sudoflow_input_{i}") for i, q in enumerate(quoted)],
        F.input_file_name().alias("_sudoflow_source"),
        F.monotonically_increasing_id().alias("_sudoflow_row"),
    )
    schema = T.StructType(
        list(df.schema.fields)
        + [T.StructField(new, _spark_type(empty.schema.field(name).type), True)
           for name, new in columns]
        + [T.StructField(source_name, T.StringType(), True),
           T.StructField(row_name, T.LongType(), True)]
    )
    # The closure below runs on the executors: it may capture plain values
    # only (not df, whose SparkContext cannot be pickled).
    fn = KINDS[kind]
    at = df.columns.index(column)
    names = schema.fieldNames()

    def work(batches: Any) -> Any:
        import pyarrow as pa

        for batch in batches:
            source, row = batch.column(n_inputs), batch.column(n_inputs + 1)
            puzzles = named(batch.column(at), source, row)
            result = fn(puzzles, threads=threads, **kwargs)
            arrays = [batch.column(i) for i in range(n_inputs)]
            arrays += [result.column(name).combine_chunks() for name, _ in columns]
            arrays += [source, row]
            yield pa.RecordBatch.from_arrays(arrays, names=names)

    return tagged.mapInArrow(work, schema)


def solve(df: Any, column: str = "puzzle", *, limit: int = 2, threads: Optional[int] = 1,
          prefix: str = "") -> Any:
    """:func:`sudoflow.solve` on ``df[column]``; see the module doc for the columns.

    Raises TypeError (column not of strings) or ValueError (no such column, a
    result column's name taken: pass ``prefix``) at once, on the driver.
    """
    return _run("solve", df, column, prefix, threads, {"limit": limit})


def rate(df: Any, column: str = "puzzle", *, time_budget: Optional[float] = None,
         threads: Optional[int] = 1, prefix: str = "") -> Any:
    """:func:`sudoflow.rate` on ``df[column]``; see the module doc for the columns.

    Raises as :func:`solve`.
    """
    return _run("rate", df, column, prefix, threads, {"time_budget": time_budget})


def count(df: Any, column: str = "puzzle", *, limit: Optional[int] = None,
          time_budget: Optional[float] = None, threads: Optional[int] = 1,
          prefix: str = "", max: Optional[int] = None) -> Any:
    """:func:`sudoflow.count` on ``df[column]``; see the module doc for the columns.
    ``max`` is ``limit``'s old spelling.

    Raises as :func:`solve`.
    """
    return _run("count", df, column, prefix, threads,
                {"limit": limit, "max": max, "time_budget": time_budget})
