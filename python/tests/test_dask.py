"""sudoflow.dask on a real Dask LocalCluster: 100,000 records from two CSV files."""

import pytest

from frames_data import check_output, write_two_files

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        host="127.0.0.1")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_dask_solve_two_files_to_parquet(client, tmp_path):
    import pyarrow.parquet as pq

    import sudoflow.dask

    files, content = write_two_files(tmp_path)
    ddf = dd.read_csv([str(f) for f in files], include_path_column=True, blocksize="512KB",
                      dtype={"n": "int64", "puzzle": "string"})
    assert ddf.npartitions >= 8
    out = sudoflow.dask.solve(ddf, column="puzzle")
    assert list(out.columns[:3]) == ["n", "puzzle", "path"]
    assert list(out.columns[-2:]) == ["source", "row"]
    out.to_parquet(str(tmp_path / "solved"), write_index=False)
    check_output(pq.read_table(tmp_path / "solved"), content)


def test_dask_count_columns(client):
    import pandas as pd

    import sudoflow.dask

    easy = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    ddf = dd.from_pandas(pd.DataFrame({"quizzes": [easy, "1" * 80, None]}), npartitions=2)
    got = sudoflow.dask.count(ddf, column="quizzes").compute()
    assert got["status"].tolist() == ["unique", "invalid", "invalid"]
    assert got["solutions"].tolist()[0] == 1 and pd.isna(got["solutions"].tolist()[1])
    assert got["source"].tolist() == ["", "", ""]
