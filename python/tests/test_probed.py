"""Findings of probing the Python API: each test attacks one of them."""

import pyarrow as pa
import pytest

import sudoflow

# A 17-clue puzzle with one solution.
P = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."

BATCH = [sudoflow.solve, sudoflow.count, sudoflow.rate, sudoflow.canon]


def errors(table):
    return pa.table(table).column("error").to_pylist()


@pytest.mark.parametrize("call", BATCH)
@pytest.mark.parametrize("bad,why", [
    (5, "not a string but int"),
    (1.5, "not a string but float"),
    (True, "not a string but bool"),
    ([P], "not a string but list"),
    (b"x", "not a string but bytes"),
    (P.encode(), "not a string but bytes"),
    ("\ud800" * 81, "not valid text: it holds a lone surrogate"),
])
def test_an_object_series_is_read_item_by_item_as_a_list_is(call, bad, why):
    """An object-dtype Series with one item pyarrow cannot convert (or
    converts differently) raised (ArrowTypeError, or a TypeError about
    numbers losing their zeros), no row for any item: it is read as the
    list is, one row per item, the bad one invalid saying why."""
    pd = pytest.importorskip("pandas")
    items = [P, bad, P]
    want = errors(call(items))
    assert want[0] is None and want[2] is None
    assert want[1].startswith("<input>:2: " + why), want[1]
    got = errors(call(pd.Series(items, dtype=object)))
    assert got == want, call


def test_an_object_series_takes_pandas_missing_values_as_nulls():
    """NaN, None, pd.NA and pd.NaT are an object column's nulls (as pyarrow
    reads them), not floats."""
    pd = pytest.importorskip("pandas")
    s = pd.Series([P, float("nan"), None, pd.NA, pd.NaT, 7, P], dtype=object)
    got = errors(sudoflow.count(s))
    assert got == [None] + ["<input>:%d: no puzzle (null)" % i for i in (2, 3, 4, 5)] + [
        "<input>:6: not a string but int", None]


def test_an_object_column_of_numbers_only_is_still_a_type_error():
    """Puzzles read as numbers (every item a number) are a column-level
    mistake, refused with how to read them as text, as a numeric column is."""
    pd = pytest.importorskip("pandas")
    for s in [pd.Series([10**80, 10**79], dtype=object),
              pd.Series([10**80, None, 5.0], dtype=object)]:
        with pytest.raises(TypeError, match="as text.*dtype=str"):
            sudoflow.count(s)


TINY = [
    (lambda t: sudoflow.count([P], time_budget=t), "time_budget"),
    (lambda t: sudoflow.count([P], wall_limit=t), "wall_limit"),
    (lambda t: sudoflow.rate([P], time_budget=t), "time_budget"),
    (lambda t: sudoflow.solve([P], se=True, se_budget=t), "se_budget"),
    (lambda t: sudoflow.solve([P], se=True, se_wall_limit=t), "se_wall_limit"),
    (lambda t: sudoflow.explain(P, time_budget=t), "time_budget"),
    (lambda t: sudoflow.explain(P, wall_limit=t), "wall_limit"),
    (lambda t: sudoflow.count_file(__file__, time_budget=t), "time_budget"),
    (lambda t: sudoflow.rate_file(__file__, wall_limit=t), "wall_limit"),
    (lambda t: sudoflow.generate(1, seed=1, se=(1.0, 2.0), se_budget=t), "se_budget"),
]


@pytest.mark.parametrize("call,name", TINY)
def test_a_duration_below_a_nanosecond_is_said_to_be_not_above_zero(cli, call, name):
    """1e-10 s rounds to no duration: it was said to be "too long a
    duration"; the CLI says a time budget must be above zero."""
    with pytest.raises(ValueError) as e:
        call(1e-10)
    message = str(e.value)
    assert message.startswith(name + ":") and "must be above zero" in message, message
    assert "too long" not in message
    r = __import__("subprocess").run([cli.exe, "count", "-p", P, "--time-budget", "1e-10"],
                                     capture_output=True, text=True)
    assert r.returncode == 2 and "a time budget must be above zero" in r.stderr
    # One nanosecond is a duration (the count times out, as the CLI's).
    if name == "time_budget" and call is TINY[0][0]:
        assert sudoflow.count([P], time_budget=1e-9)["status"].to_pylist() == ["timeout"]


@pytest.mark.parametrize("bad", [0, -1.0, float("nan")])
def test_generate_se_budget_errors_name_se_budget(bad):
    """generate's se_budget went through the rate limits' check, whose
    message named time_budget."""
    with pytest.raises(ValueError, match=r"^se_budget must be a positive number") as e:
        sudoflow.generate(1, seed=1, se=(1.0, 2.0), se_budget=bad)
    assert "time_budget" not in str(e.value)


def test_explain_reads_a_9_line_grid_and_pasted_cells_as_explain_p(cli):
    """explain() refused a 9-line grid ("9 lines in one item") that
    `explain -p` reads; its docstring says it takes puzzles as -p does."""
    import json
    grid = "\n".join(P[i * 9:i * 9 + 9] for i in range(9))
    pasted = "\n".join(" | ".join(" ".join(P[r * 9 + c * 3:r * 9 + c * 3 + 3]) for c in range(3))
                       for r in range(9))
    want = json.loads(cli("explain", "-p", grid, "--format", "json"))
    assert want["status"] == "rated" and want["puzzle"] == P
    assert sudoflow.explain(grid) == want
    assert sudoflow.explain(pasted) == json.loads(cli("explain", "-p", pasted, "--format", "json"))
    assert sudoflow.explain(P) == want
    with pytest.raises(ValueError, match="^2 puzzles in the text: explain takes one"):
        sudoflow.explain(P + "\n" + P)
    with pytest.raises(ValueError, match=r"^no puzzle \(an empty item\)"):
        sudoflow.explain("")
    with pytest.raises(ValueError, match="^wrong length: expected 81 cells, found 80"):
        sudoflow.explain(P[:80])


def test_an_item_longer_than_a_line_may_be_is_invalid_as_the_line_is(cli, tmp_path):
    """A list item over 64 KiB was read as the puzzle at its start (unique),
    while the same line in a file is "line too long" (CLI and count_file)."""
    path = tmp_path / "long.txt"
    ok, long = P + " " + "x" * (65536 - 82), P + " " + "x" * 100000
    path.write_text(ok + "\n" + long + "\n")
    want = list(__import__("csv").DictReader(__import__("io").StringIO(cli("count", "-q", path))))
    assert [r["status"] for r in want] == ["unique", "invalid"]
    assert want[1]["error"].endswith(":2: line too long: 100082 bytes, the limit is 65536")
    from_file = pa.table(sudoflow.count_file(str(path)))
    for items in ([ok, long], pa.array([ok, long]), [ok + "\n", long + "\r\n"]):
        got = pa.table(sudoflow.count(items))
        assert got["status"].to_pylist() == ["unique", "invalid"]
        assert got["error"][1].as_py() == (
            "<input>:2: line too long: 100082 bytes, the limit is 65536")
        assert got["puzzle"].to_pylist() == [r["puzzle"] for r in want]
        assert got["puzzle"].to_pylist() == from_file["puzzle"].to_pylist()
    # Blanks are a blank item however many.
    assert "line too long" not in sudoflow.count([" " * 70000])["error"][0].as_py()


@pytest.mark.parametrize("rows", [3, 200_000])
def test_a_file_readers_progress_ends_at_the_final_count(tmp_path, rows):
    """A *_file progress callback never got the final count: 200,000 rows
    ended at (196608, None), a small file often had no call at all (done
    was read before the batch came, and the end made no last update)."""
    path = tmp_path / "many.txt"
    path.write_text((P + "\n") * rows)
    for fn in (sudoflow.canon_file, sudoflow.count_file):
        calls = []
        table = fn(str(path), progress=lambda d, t: calls.append((d, t))).read_all()
        assert table.num_rows == rows
        assert calls and calls[-1] == (rows, None), (fn, calls[-3:])
        assert [d for d, _ in calls] == sorted(set(d for d, _ in calls)), fn


def test_one_file_reader_read_from_two_threads_hands_each_batch_to_one(tmp_path):
    """Reading one *_file reader from two threads raised pyo3's
    RuntimeError('Already borrowed') in one of them (and once reads took
    turns, the thread waiting crashed the process when the other read the
    end: pyarrow drops the iterator then). Every row comes once."""
    import threading
    path = tmp_path / "many.txt"
    path.write_text((P + "\n") * 20_000)
    for _ in range(3):
        reader = sudoflow.count_file(str(path), batch_rows=100, threads=2)
        got, failures = [[], []], []

        def read(mine):
            try:
                while True:
                    try:
                        batch = reader.read_next_batch()
                    except StopIteration:
                        return
                    mine.extend(batch.column("index").to_pylist())
            except Exception as e:  # noqa: BLE001 - the failure is the finding
                failures.append(e)

        threads = [threading.Thread(target=read, args=(g,)) for g in got]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
        assert sorted(got[0] + got[1]) == list(range(1, 20_001))


@pytest.mark.parametrize("call,name", [
    (lambda v: sudoflow.count([P], time_budget=v), "time_budget"),
    (lambda v: sudoflow.count([P], wall_limit=v), "wall_limit"),
    (lambda v: sudoflow.rate([P], time_budget=v), "time_budget"),
    (lambda v: sudoflow.solve([P], se=True, se_budget=v), "se_budget"),
    (lambda v: sudoflow.explain(P, time_budget=v), "time_budget"),
    (lambda v: sudoflow.count([P], limit=v), "limit"),
    (lambda v: sudoflow.count([P], max=v), "max"),
    (lambda v: sudoflow.solve([P], limit=v), "limit"),
    (lambda v: sudoflow.solve([P], threads=v), "threads"),
    (lambda v: sudoflow.canon([P], threads=v), "threads"),
    (lambda v: sudoflow.count_file(__file__, batch_rows=v), "batch_rows"),
    (lambda v: sudoflow.count_file(__file__, column=v), "column"),
    (lambda v: sudoflow.generate(v, seed=1), "n"),
    (lambda v: sudoflow.generate(1, seed=v), "seed"),
    (lambda v: sudoflow.generate(1, puzzle_seed=v), "puzzle_seed"),
    (lambda v: sudoflow.generate(1, seed=1, max_tries=v), "max_tries"),
    (lambda v: sudoflow.generate(1, seed=1, clues=v), "clues"),
    (lambda v: sudoflow.generate(1, seed=1, clues=(v, 30)), "clues"),
    (lambda v: sudoflow.generate(1, seed=1, wnf_level=v), "wnf_level"),
    (lambda v: sudoflow.generate(1, seed=1, guesses=v), "guesses"),
    (lambda v: sudoflow.generate(1, seed=1, se=v), "se"),
    (lambda v: sudoflow.generate(1, seed=1, se=(v, 2.0)), "se"),
    (lambda v: sudoflow.generate(1, seed=1, se=(1.0, 2.0), se_budget=v), "se_budget"),
])
@pytest.mark.parametrize("v", [True, False])
def test_a_bool_is_no_number(call, name, v):
    """A bool was taken as the number 1 or 0: time_budget=True was a second,
    column=True column 1, clues=True said "MAX must be at least 17", and
    generate(se=True) kept ratings of exactly 1.0. A TypeError names the
    parameter."""
    with pytest.raises(TypeError, match=rf"^{name} must be .*, not a bool \({v}\)$"):
        call(v)


def test_solve_se_true_is_still_the_documented_bool():
    assert sudoflow.solve([P], se=True).column_names[-3:] == ["er", "ep", "ed"]
    assert sudoflow.solve_file(__file__, se=True).schema.names[-3:] == ["er", "ep", "ed"]


@pytest.mark.parametrize("option,good,bad", [
    ("symmetry", ["none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal"],
     ["ROT180", "Mirror", "NONE", "anti-diagonal"]),
    ("prune", ["basic", "matching", "matching-root"], ["Basic", "matching_root", "MATCHING"]),
])
def test_symmetry_and_prune_take_the_spellings_the_cli_takes(cli, option, good, bad):
    """symmetry="ROT180" and prune="Basic" (and "matching_root") were taken
    while the CLI refuses them."""
    import subprocess
    command = ["generate", "-n", "1", "--seed", "1"] if option == "symmetry" else \
        ["solve", "-q", "-p", P]

    def call(value):
        if option == "symmetry":
            return sudoflow.generate(1, seed=1, threads=1, symmetry=value)
        return sudoflow.solve([P], prune=value)

    for value in good:
        assert call(value).num_rows == 1
        r = subprocess.run([cli.exe, *command, f"--{option}", value], capture_output=True)
        assert r.returncode == 0, (value, r.stderr)
    for value in bad:
        with pytest.raises(ValueError, match=f"^{option} {value!r}: expected".replace("'", '"')):
            call(value)
        r = subprocess.run([cli.exe, *command, f"--{option}", value], capture_output=True,
                           text=True)
        assert r.returncode == 2 and "invalid value" in r.stderr, (value, r.stderr)


def test_messages_name_the_python_parameters_not_the_cli_flags(tmp_path):
    """Messages named the CLI's flags: "say which with --column", "(--keep)",
    generate(se=0.5) said "--se 0.5..0.5"."""
    two = tmp_path / "two.csv"
    two.write_text(f"puzzle,quizzes\n{P},{P}\n")
    cases = [
        (lambda: sudoflow.count_file(two), OSError, "say which with column="),
        (lambda: sudoflow.count_file(two, column="zz"), OSError, 'no column named "zz" (column=)'),
        (lambda: sudoflow.count_file(two, column=1, keep="zz"), OSError,
         'no column named "zz" (keep=)'),
        (lambda: sudoflow.generate(1, seed=1, se=0.5), ValueError,
         "se=0.5..0.5: no puzzle rates below 1.0"),
        (lambda: sudoflow.generate(1, seed=1, clues=(18, 19), symmetry="rot90"), ValueError,
         "clues=18..19 with symmetry=rot90: no puzzle has that many clues"),
    ]
    for call, kind, words in cases:
        with pytest.raises(kind) as e:
            call()
        assert words in str(e.value) and "--" not in str(e.value), str(e.value)


@pytest.mark.parametrize("call,name", [
    (lambda p: sudoflow.count_file(p), "paths"),
    (lambda p: sudoflow.solve_file([__file__, p]), "paths"),
    (lambda p: sudoflow.canon_file(p), "paths"),
    (lambda p: sudoflow.generate(1, seed=1, exclude=p), "exclude"),
    (lambda p: sudoflow.generate(1, seed=1, exclude=[p]), "exclude"),
])
@pytest.mark.parametrize("empty", ["", b""])
def test_an_empty_path_is_a_value_error_naming_the_parameter(call, name, empty):
    """count_file('') and generate(exclude='') were OSError "cannot open
    input : No such file"."""
    with pytest.raises(ValueError, match=rf'^{name}: an empty path \(""\) names no file$'):
        call(empty)


def test_exclude_takes_bytes_paths_as_the_file_functions_do(cli, tmp_path):
    """generate(exclude=b'x') was a TypeError while *_file(b'x') reads it."""
    book = tmp_path / "book.txt"
    book.write_text(sudoflow.generate(20, seed=7, threads=1)["puzzle"][0].as_py() + "\n")
    want = sudoflow.generate(20, seed=7, exclude=str(book), threads=1)
    assert sudoflow.generate(20, seed=7, exclude=bytes(book), threads=1).equals(want)
    assert sudoflow.generate(20, seed=7, exclude=[bytes(book)], threads=1).equals(want)
    assert not sudoflow.generate(20, seed=7, threads=1).equals(want)
    with pytest.raises(TypeError, match="^exclude: expected a path"):
        sudoflow.generate(1, seed=1, exclude=5)
