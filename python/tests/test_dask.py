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
    # The path column becomes source: one column, not two.
    assert list(out.columns[:3]) == ["n", "puzzle", "status"]
    assert list(out.columns[-2:]) == ["source", "row"] and "path" not in out.columns
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


def test_dask_checks_the_column_type_before_any_task(client):
    """A numeric column raises TypeError at once (was: every task failed)."""
    import pandas as pd

    import sudoflow.dask

    ddf = dd.from_pandas(pd.DataFrame({"quizzes": [4300209, 40100050]}), npartitions=2)
    with pytest.raises(TypeError, match="int64.*as text.*dtype"):
        sudoflow.dask.solve(ddf, column="quizzes")
    with pytest.raises(ValueError, match="limit"):
        sudoflow.dask.solve(ddf.astype({"quizzes": "string"}), column="quizzes", limit=0)


def test_dask_errors_name_the_source_and_row(client, tmp_path):
    """Was: <input>:N, N the position within the partition."""
    import sudoflow.dask

    files, content = write_two_files(tmp_path)
    ddf = dd.read_csv([str(f) for f in files], include_path_column=True, blocksize="512KB",
                      dtype={"n": "int64", "puzzle": "string"})
    out = sudoflow.dask.solve(ddf, column="puzzle").compute()
    bad = out[out["status"] == "invalid"]
    assert len(bad) == 4
    for _, r in bad.iterrows():
        assert r["error"].startswith(f"{r['source']} row {r['row']}: "), r["error"]
        assert "wrong length" in r["error"] or "bad character" in r["error"]


def test_dask_object_columns_give_rows_for_anything(client):
    """An object column may hold non-strings: each gets its invalid row."""
    import pandas as pd

    import sudoflow.dask

    easy = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    import dask

    frame = pd.DataFrame({"p": pd.Series([easy, 42, None, float("nan")], dtype=object)})
    with dask.config.set({"dataframe.convert-string": False}):  # keep the object column
        ddf = dd.from_pandas(frame, npartitions=1)
        assert ddf.dtypes["p"] == object
        got = sudoflow.dask.solve(ddf, column="p").compute()
    assert got["status"].tolist() == ["unique", "invalid", "invalid", "invalid"]
    assert got["error"].tolist()[1:] == ["row 1: not a string but int", "row 2: no puzzle (null)",
                                         "row 3: no puzzle (null)"]


def test_dask_input_columns_named_as_added_ones_are_kept_or_refused(client):
    """An input column named `row` or `source` was overwritten by the added
    column of that name (its values lost, no error). Now it is a ValueError
    before any task, and with prefix= every added column is renamed, so the
    input's columns come back whole."""
    import pandas as pd

    import sudoflow.dask

    easy = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    for taken in ["row", "source", "status"]:
        pdf = pd.DataFrame({"puzzle": [easy, easy], taken: ["keep-1", "keep-2"]})
        ddf = dd.from_pandas(pdf, npartitions=1)
        with pytest.raises(ValueError, match=f"'{taken}' that sudoflow adds is taken.*prefix="):
            sudoflow.dask.solve(ddf)
        got = sudoflow.dask.solve(ddf, prefix="s_").compute()
        assert got[taken].tolist() == ["keep-1", "keep-2"]
        assert got["s_status"].tolist() == ["unique", "unique"]
        assert list(got.columns[-2:]) == ["s_source", "s_row"]
        assert got["s_row"].tolist() == [0, 1]


def test_dask_takes_a_categorical_column_of_strings(client):
    """A category column was refused ("column 'quizzes' is category, not
    strings") though sudoflow.count takes a categorical Series; categories
    of numbers are still refused before any task."""
    import pandas as pd

    import sudoflow
    import sudoflow.dask

    easy = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    quizzes = pd.Series([easy, "1" * 80, easy, None], dtype="category")
    assert sudoflow.count(quizzes)["status"].to_pylist() == [
        "unique", "invalid", "unique", "invalid"]
    ddf = dd.from_pandas(pd.DataFrame({"quizzes": quizzes}), npartitions=2)
    assert isinstance(ddf.dtypes["quizzes"], pd.CategoricalDtype)
    got = sudoflow.dask.count(ddf, column="quizzes").compute()
    assert got["status"].tolist() == ["unique", "invalid", "unique", "invalid"]
    assert got["error"].tolist()[1].endswith("wrong length: expected 81 cells, found 80")
    unknown = ddf.assign(quizzes=ddf["quizzes"].cat.as_unknown())
    assert sudoflow.dask.solve(unknown, column="quizzes").compute()["status"].tolist() == [
        "unique", "invalid", "unique", "invalid"]
    numbers = dd.from_pandas(pd.DataFrame({"q": pd.Series([1, 2], dtype="category")}),
                             npartitions=1)
    with pytest.raises(TypeError, match="category of int64.*as text"):
        sudoflow.dask.count(numbers, column="q")
