"""Throughput of sudoflow.spark and sudoflow.dask in local mode against
`sudoflow solve -j 2`, on the same 100,000 records (two CSV files, as in
python/tests): wall time of read + solve + write Parquet, engine start-up
excluded. Usage: target/py-venv/bin/python benches/python_frames.py
"""

import os
import subprocess
import sys
import tempfile
import time
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python" / "tests"))
from frames_data import N_PER_FILE, write_two_files  # noqa: E402

CLI = os.environ.get("SUDOFLOW_BIN", str(ROOT / "target" / "release" / "sudoflow"))


def main():
    tmp = pathlib.Path(tempfile.mkdtemp())
    files, content = write_two_files(tmp)
    n = 2 * N_PER_FILE

    txt = tmp / "all.txt"
    txt.write_text("".join(p + "\n" for rows in content.values() for p in rows))
    t = time.perf_counter()
    subprocess.run([CLI, "solve", "-q", "-j", "2", txt, "-o", tmp / "cli.csv"], check=True)
    cli = time.perf_counter() - t
    print(f"sudoflow solve -j 2 (text in, CSV out): {cli:.2f} s, {n / cli:,.0f} records/s")

    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession  # noqa: E402
    import sudoflow.spark  # noqa: E402

    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.sql.files.maxPartitionBytes", "512k").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    for run in range(2):  # the first run warms the Python workers up
        t = time.perf_counter()
        df = spark.read.csv([str(f) for f in files], header=True, schema="n INT, puzzle STRING")
        sudoflow.spark.solve(df).write.mode("overwrite").parquet(str(tmp / "spark.parquet"))
        s = time.perf_counter() - t
    print(f"sudoflow.spark.solve local[2] (CSV in, Parquet out, 2nd run): {s:.2f} s, "
          f"{n / s:,.0f} records/s, {df.rdd.getNumPartitions()} partitions")
    spark.stop()

    import dask.dataframe as dd  # noqa: E402
    import distributed  # noqa: E402
    import sudoflow.dask  # noqa: E402

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                                  host="127.0.0.1") as cluster, distributed.Client(cluster):
        for run in range(2):
            t = time.perf_counter()
            ddf = dd.read_csv([str(f) for f in files], include_path_column=True, blocksize="512KB")
            sudoflow.dask.solve(ddf).to_parquet(str(tmp / f"dask{run}"), write_index=False)
            d = time.perf_counter() - t
    print(f"sudoflow.dask.solve LocalCluster(2x1) (CSV in, Parquet out, 2nd run): {d:.2f} s, "
          f"{n / d:,.0f} records/s, {ddf.npartitions} partitions")


# Dask's worker processes import this module again: run only as a script.
if __name__ == "__main__":
    main()
