"""sudoflow on PySpark data frames, through ``mapInArrow``.

``solve(df, column="puzzle", ...)`` (and ``rate``, ``count``) return ``df``'s
columns, then the result columns of :func:`sudoflow.solve` (resp. ``rate``,
``count``) but ``index``, then ``source`` (the input file the row was read
from, Spark's ``input_file_name()``; empty when Spark does not know it) and
``row`` (``monotonically_increasing_id()``: increasing with the record's
position within its source, not contiguous). Sorting by (``source``, ``row``)
restores input order after a multi-file read. Every input row gives one
output row; a bad puzzle gets status ``invalid`` and an error, never a failed
task.

Each Spark task solves its batches on ``threads`` threads (default 1: Spark
already runs one task per core). The executors need sudoflow installed in
the Python they run (README, "Beyond one machine").

Example::

    df = spark.read.csv("puzzles/*.csv", header=True)
    out = sudoflow.spark.solve(df, column="quizzes")
    out.write.parquet("solved.parquet")
"""

from typing import Any, Optional

from ._frames import KINDS, ROW_BITS, empty_table, result_columns  # noqa: F401

__all__ = ["solve", "rate", "count"]


def _spark_type(t: Any):
    import pyarrow as pa
    from pyspark.sql import types as T

    if pa.types.is_int64(t):
        return T.LongType()
    if pa.types.is_uint64(t):
        return T.DecimalType(20, 0)
    if pa.types.is_float64(t):
        return T.DoubleType()
    return T.StringType()


def _run(kind: str, df: Any, column: str, prefix: str, threads: Optional[int], kwargs: dict):
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    columns = result_columns(kind, df.columns, column, prefix)
    empty = empty_table(kind)
    tagged = df.withColumn("source", F.input_file_name()).withColumn(
        "row", F.monotonically_increasing_id()
    )
    schema = T.StructType(
        list(tagged.schema.fields[: len(df.columns)])
        + [T.StructField(new, _spark_type(empty.schema.field(name).type), True)
           for name, new in columns]
        + [T.StructField("source", T.StringType(), True), T.StructField("row", T.LongType(), True)]
    )
    # The closure below runs on the executors: it may capture plain values
    # only (not df, whose SparkContext cannot be pickled).
    fn = KINDS[kind]
    n_inputs = len(df.columns)
    names = schema.fieldNames()

    def work(batches):
        import pyarrow as pa

        for batch in batches:
            result = pa.table(fn(batch.column(column), threads=threads, **kwargs))
            arrays = [batch.column(i) for i in range(n_inputs)]
            arrays += [result.column(name).combine_chunks() for name, _ in columns]
            arrays += [batch.column("source"), batch.column("row")]
            yield pa.RecordBatch.from_arrays(arrays, names=names)

    return tagged.mapInArrow(work, schema)


def solve(df: Any, column: str = "puzzle", *, limit: int = 2, threads: Optional[int] = 1,
          prefix: str = ""):
    """:func:`sudoflow.solve` on ``df[column]``; see the module doc for the columns."""
    return _run("solve", df, column, prefix, threads, {"limit": limit})


def rate(df: Any, column: str = "puzzle", *, time_budget: Optional[float] = None,
         threads: Optional[int] = 1, prefix: str = ""):
    """:func:`sudoflow.rate` on ``df[column]``; see the module doc for the columns."""
    return _run("rate", df, column, prefix, threads, {"time_budget": time_budget})


def count(df: Any, column: str = "puzzle", *, max: Optional[int] = None,
          time_budget: Optional[float] = None, threads: Optional[int] = 1, prefix: str = ""):
    """:func:`sudoflow.count` on ``df[column]``; see the module doc for the columns."""
    return _run("count", df, column, prefix, threads, {"max": max, "time_budget": time_budget})
