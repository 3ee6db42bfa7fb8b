"""sudoflow.spark on a real local Spark: 100,000 records from two CSV files."""

import os
import sys

import pytest

from frames_data import check_output, write_two_files

pyspark = pytest.importorskip("pyspark")


@pytest.fixture(scope="module")
def spark():
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    s = (
        SparkSession.builder.master("local[2]")
        .appName("sudoflow-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.files.maxPartitionBytes", "512k")
        .config("spark.sql.files.openCostInBytes", "0")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def test_spark_solve_two_files_to_parquet(spark, tmp_path):
    import pyarrow.parquet as pq

    import sudoflow.spark

    files, content = write_two_files(tmp_path)
    df = spark.read.csv([str(f) for f in files], header=True, schema="n INT, puzzle STRING")
    assert df.rdd.getNumPartitions() >= 8
    out = sudoflow.spark.solve(df, column="puzzle")
    assert out.columns[:2] == ["n", "puzzle"] and out.columns[-2:] == ["source", "row"]
    assert "index" not in out.columns and "solution" in out.columns
    types = dict(out.dtypes)
    assert types["solutions"] == "bigint" and types["wnf"] == "double"
    out.write.parquet(str(tmp_path / "solved.parquet"))
    check_output(pq.read_table(tmp_path / "solved.parquet"), content)


def test_spark_count_and_rate_columns(spark):
    import sudoflow.spark

    easy = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    df = spark.createDataFrame([(easy,), ("1" * 80,)], "quizzes STRING")
    counted = sudoflow.spark.count(df, column="quizzes").orderBy("row").collect()
    assert [(r.status, r.solutions) for r in counted] == [("unique", 1), ("invalid", None)]
    rated = sudoflow.spark.rate(df, column="quizzes", prefix="se_").orderBy("se_row").collect()
    assert rated[0].se_status == "rated" and rated[0].se_er > 0
    with pytest.raises(ValueError, match="prefix"):
        sudoflow.spark.solve(spark.createDataFrame([(easy, 1)], "p STRING, solutions INT"),
                             column="p")


def test_spark_checks_the_column_type_on_the_driver(spark):
    """A non-string column raises TypeError before any job (was: a failed
    job with a Java stack trace, against the promise of no failed task)."""
    import sudoflow.spark

    df = spark.createDataFrame([(4300209,), (40100050,)], "quizzes BIGINT")
    tracker = spark.sparkContext.statusTracker()
    before = set(tracker.getJobIdsForGroup())
    with pytest.raises(TypeError, match="bigint.*as text"):
        sudoflow.spark.solve(df, column="quizzes")
    with pytest.raises(ValueError, match="limit"):
        sudoflow.spark.solve(spark.createDataFrame([("x",)], "p STRING"), column="p", limit=0)
    with pytest.raises(ValueError, match="no column"):
        sudoflow.spark.solve(df, column="puzzle")
    assert set(tracker.getJobIdsForGroup()) == before, "no job ran"


def test_spark_errors_name_the_source_and_row(spark, tmp_path):
    """Was: <input>:N, N the position within the Arrow batch."""
    import sudoflow.spark

    files, content = write_two_files(tmp_path)
    df = spark.read.csv([str(f) for f in files], header=True, schema="n INT, puzzle STRING")
    bad = sudoflow.spark.solve(df, column="puzzle").where("status = 'invalid'").collect()
    assert len(bad) == 4
    for r in bad:
        assert r.error.startswith(f"{r.source} row {r.row}: "), r.error
        assert r.source.endswith(("a.csv", "b.csv"))
    easy = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    mem = spark.createDataFrame([(easy,), ("1" * 80,)], "quizzes STRING")
    (row,) = sudoflow.spark.count(mem, column="quizzes").where("status = 'invalid'").collect()
    assert row.error == f"row {row.row}: wrong length: expected 81 cells, found 80"


def test_spark_input_columns_named_as_added_ones_or_with_a_dot(spark):
    """An input column named `row` or `source` failed the job (two columns
    of one name in the output's schema) and a puzzle column whose name
    holds a dot raised AnalysisException (mapInArrow could not resolve it).
    Now the first is a ValueError on the driver, and with prefix= every
    added column is renamed and the input's come back whole; the second
    works."""
    import sudoflow.spark

    easy = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    for taken in ["row", "source"]:
        df = spark.createDataFrame([(easy, "keep")], f"puzzle STRING, {taken} STRING")
        with pytest.raises(ValueError, match=f"'{taken}' that sudoflow adds is taken.*prefix="):
            sudoflow.spark.solve(df)
        got = sudoflow.spark.solve(df, prefix="s_").collect()
        assert [(r[taken], r.s_status) for r in got] == [("keep", "unique")]
        assert got[0].s_row >= 0 and got[0].s_source == ""
    # Spark's names are case-insensitive: `Status` or `ROW` takes `status`
    # and `row` (found by probing: the output had both, and selecting or
    # writing it failed).
    for taken, added in [("Status", "status"), ("ROW", "row")]:
        df = spark.createDataFrame([(easy, "keep")], f"quizzes STRING, {taken} STRING")
        with pytest.raises(ValueError, match=f"'{added}' that sudoflow adds is taken.*'{taken}'"):
            sudoflow.spark.count(df, column="quizzes")
        got = sudoflow.spark.count(df, column="quizzes", prefix="c_").collect()
        assert [(r[taken], r.c_status) for r in got] == [("keep", "unique")]
    df = spark.createDataFrame([(easy, "x"), ("1" * 80, "y")], "`p.q` STRING, `a``b` STRING")
    got = sudoflow.spark.solve(df, column="p.q").orderBy("row").collect()
    assert [(r.status, r["a`b"]) for r in got] == [("unique", "x"), ("invalid", "y")]
    assert got[0]["p.q"] == easy and got[0].puzzle == easy
