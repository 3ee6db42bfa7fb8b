"""The Python API against the CLI: same rows, same values, every record once."""

import csv
import io
import re
import threading
import time

import pyarrow as pa
import pytest

import sudoflow

from conftest import puzzles

# A 17-clue puzzle with one solution, and its solution.
EASY = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EASY_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
MULTIPLE = "." * 81
CLASH = "11" + "." * 79
# A 17-clue puzzle that rates fast (SE 1.2).
P17 = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
# 872 solutions.
SERG = "8.........95.......76.........426798...571243...893165......916....3.487....1.532"
SHORT = "1" * 80
BADCHAR = "y" + "." * 80

INPUT_LINES = [EASY, SHORT, MULTIPLE, CLASH, BADCHAR, EASY]


def rows(table):
    return pa.table(table).to_pylist()


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def as_csv(v):
    """A table value as the CLI's CSV writes it (None: empty)."""
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.10f}"
    return str(v)


def strip_source(error):
    """An error message without its `source:line: ` prefix (a budget's
    message has none)."""
    return re.sub(r"^[^\n]*?:\d+: ", "", error) if error else error


def cli_float(column, x):
    """A float as the CLI's CSV writes it: ratings with one decimal, wnf ten."""
    return f"{x:.1f}" if column in ("er", "ep", "ed") else f"{x:.10f}"


def assert_same_as_cli(table, cli_csv):
    got = rows(table)
    want = csv_rows(cli_csv)
    assert len(got) == len(want)
    assert list(pa.table(table).column_names) == list(want[0].keys())
    for g, w in zip(got, want):
        for k, wv in w.items():
            gv = g[k]
            if k == "error":
                assert strip_source(gv or "") == strip_source(wv), (k, g, w)
            elif isinstance(gv, float):
                assert cli_float(k, gv) == wv, (k, g, w)
            else:
                assert ("" if gv is None else str(gv)) == wv, (k, g, w)


def test_solve_rows_equal_the_cli(cli, tmp_path):
    lines = puzzles("puzzles6_forum_hardest_1106", 300) + INPUT_LINES
    f = tmp_path / "in.txt"
    f.write_text("\n".join(lines) + "\n")
    want = cli("solve", "-q", f)
    for threads in (1, 2):
        assert_same_as_cli(sudoflow.solve(lines, threads=threads), want)
    want = cli("solve", "-q", "--limit", "5", f)
    assert_same_as_cli(sudoflow.solve(lines, limit=5), want)


def test_types_are_signed_integers_floats_and_strings():
    t = pa.table(sudoflow.solve([EASY]))
    assert t.schema.field("index").type == pa.int64()
    assert t.schema.field("solutions").type == pa.int64()
    assert t.schema.field("guesses").type == pa.int64()
    assert t.schema.field("wnf").type == pa.float64()
    assert t.schema.field("puzzle").type == pa.string()
    (row,) = t.to_pylist()
    assert row["status"] == "unique" and row["solution"] == EASY_SOLUTION
    assert row["error"] is None and row["clues"] == 81 - EASY.count(".")


def test_every_item_is_one_row_with_its_error():
    got = rows(sudoflow.solve([EASY, SHORT, None, 42, CLASH, BADCHAR, MULTIPLE]))
    assert [r["index"] for r in got] == list(range(1, 8))
    assert [r["status"] for r in got] == [
        "unique", "invalid", "invalid", "invalid", "invalid", "invalid", "multiple"]
    assert got[1]["error"] == "<input>:2: wrong length: expected 81 cells, found 80"
    assert got[1]["puzzle"] == SHORT
    assert got[2]["error"] == "<input>:3: no puzzle (null)"
    assert got[3]["error"] == "<input>:4: not a string but int"
    assert got[4]["error"].startswith("<input>:5: ") and "r1c1" in got[4]["error"]
    assert got[5]["error"].startswith("<input>:6: ") and "'y'" in got[5]["error"]
    assert got[6]["solutions"] == 2 and got[6]["solution"] is not None


def test_arrow_inputs_of_every_kind_give_the_same_table():
    pl = pytest.importorskip("polars")
    pd = pytest.importorskip("pandas")
    lines = puzzles("puzzles2_17_clue", 200) + [SHORT, CLASH]
    want = pa.table(sudoflow.solve(lines))
    inputs = {
        "pyarrow array": pa.array(lines),
        "large string": pa.array(lines, pa.large_string()),
        "string view": pa.array(lines, pa.string_view()),
        "chunked": pa.chunked_array([lines[:50], lines[50:]]),
        "dictionary": pa.array(lines).dictionary_encode(),
        "one-column table": pa.table({"puzzle": lines}),
        "polars": pl.Series("puzzle", lines),
        "pandas": pd.Series(lines, dtype="string[pyarrow]"),
        "pandas object": pd.Series(lines, dtype=object),
        "tuple": tuple(lines),
        "generator": (p for p in lines),
    }
    for name, data in inputs.items():
        assert pa.table(sudoflow.solve(data)).equals(want), name


def test_nulls_in_an_arrow_column_are_invalid_rows():
    got = rows(sudoflow.solve(pa.array([EASY, None, EASY])))
    assert [r["status"] for r in got] == ["unique", "invalid", "unique"]
    assert got[1]["error"] == "<input>:2: no puzzle (null)"


def test_null_rows_of_a_one_column_table_are_invalid_rows():
    """A one-field struct (a table's rows) is read as its field; a null row
    of the struct was read as the puzzle beneath it, and solved."""
    rows_of = pa.StructArray.from_arrays(
        [pa.array([EASY, EASY, None])], names=["puzzle"], mask=pa.array([False, True, False]))
    for call in [sudoflow.solve, sudoflow.count, sudoflow.canon]:
        got = rows(call(rows_of))
        assert [r["error"] for r in got] == [
            None, "<input>:2: no puzzle (null)", "<input>:3: no puzzle (null)"], call


def test_a_str_that_utf8_cannot_encode_is_its_own_row():
    """A str holding lone surrogates made the whole call raise
    UnicodeEncodeError, no row for any item. Those of a surrogateescape
    decode are the bytes they stand for, as the CLI reads them from a file;
    others are invalid. is_valid, which never raises for a str, says no."""
    items = [EASY, "ab\udcff", EASY, "\ud800" * 81]
    for call in [sudoflow.solve, sudoflow.count, sudoflow.rate, sudoflow.canon]:
        got = rows(call(items))
        assert len(got) == 4 and got[0]["error"] is None and got[2]["error"] is None, call
        assert got[1]["error"] == "<input>:2: not UTF-8 text: byte 0xff at byte position 3"
        assert got[3]["error"] == (
            "<input>:4: not valid text: it holds a lone surrogate code point (U+D800 to "
            "U+DFFF), which is no character")
    assert not sudoflow.is_valid("\ud800" * 81) and sudoflow.is_valid(EASY)


def test_bad_arguments_raise():
    with pytest.raises(TypeError, match="not one str"):
        sudoflow.solve(EASY)
    with pytest.raises(TypeError, match="strings"):
        sudoflow.solve(pa.array([1, 2]))
    with pytest.raises(ValueError, match="limit"):
        sudoflow.solve([EASY], limit=0)
    with pytest.raises(ValueError, match="threads"):
        sudoflow.solve([EASY], threads=0)


@pytest.mark.parametrize("lone", [EASY.encode(), bytearray(EASY.encode()),
                                  memoryview(EASY.encode())])
def test_one_bytes_puzzle_is_a_type_error_as_one_str_is(lone):
    # Was: 81 rows of "not a string but int", one per byte.
    with pytest.raises(TypeError, match="not one (bytes object|bytearray|memoryview).*list"):
        sudoflow.solve(lone)


@pytest.mark.parametrize("call,name", [
    (lambda: sudoflow.solve([EASY], limit=-1), "limit"),
    (lambda: sudoflow.solve([EASY], threads=-1), "threads"),
    (lambda: sudoflow.solve([EASY], threads=10**6), "threads"),
    (lambda: sudoflow.count([EASY], max=-5), "max"),
    (lambda: sudoflow.count([EASY], max=0), "max"),
    (lambda: sudoflow.count([EASY], limit=0), "limit"),
    (lambda: sudoflow.count([EASY], limit=-1), "limit"),
    (lambda: sudoflow.count([EASY], limit=5, max=5), "old spelling"),
    (lambda: sudoflow.generate(2, seed=-1), "seed"),
    (lambda: sudoflow.generate(2, seed=2**64), "seed"),
    (lambda: sudoflow.generate(-2, seed=1), "n"),
    (lambda: sudoflow.generate(2, seed=1, max_tries=-1), "max_tries"),
    (lambda: sudoflow.solve_file(__file__, batch_rows=-1), "batch_rows"),
    (lambda: sudoflow.rate([EASY], time_budget=-1.0), "time_budget"),
    (lambda: sudoflow.solve([EASY], prune="deep"), "prune"),
    (lambda: sudoflow.solve([EASY], blank="?"), "blank"),
    (lambda: sudoflow.solve([EASY], se_budget=5.0), "se_budget"),
])
def test_out_of_range_arguments_are_value_errors_naming_the_parameter(call, name):
    # Was: OverflowError ("can't convert negative int to unsigned") naming nothing.
    with pytest.raises(ValueError, match=name):
        call()


def test_grid_index_outside_the_grid_is_an_index_error():
    g = sudoflow.Grid(EASY)
    for at in [(-1, 0), (0, -1), (9, 0), (0, 9), (-10**30, 0)]:
        with pytest.raises(IndexError):
            g[at]
    assert g[8, 8] == 0 and g[0, 0] == 8


def test_the_result_is_a_pyarrow_table_whose_methods_work():
    # Was: an arro3 table whose .column/.schema/[] raised ModuleNotFoundError.
    t = sudoflow.solve([EASY, SHORT])
    assert isinstance(t, pa.Table)
    assert t.column("status").to_pylist() == ["unique", "invalid"]
    assert t["status"].to_pylist() == ["unique", "invalid"]
    assert t.schema.field("solutions").type == pa.int64()
    for f in (sudoflow.count, sudoflow.rate, sudoflow.canon):
        assert isinstance(f([SHORT]), pa.Table)
    assert isinstance(sudoflow.generate(1, seed=1), pa.Table)


def test_polars_from_arrow_gives_a_data_frame():
    pl = pytest.importorskip("polars")
    df = pl.from_arrow(sudoflow.solve([EASY, SHORT]))
    assert isinstance(df, pl.DataFrame)
    assert df["status"].to_list() == ["unique", "invalid"]
    assert df["solutions"].to_list() == [1, None]


def test_to_pandas_keeps_integers_with_nulls():
    pd = pytest.importorskip("pandas")
    df = sudoflow.to_pandas(sudoflow.solve([EASY, SHORT]))
    assert isinstance(df, pd.DataFrame)
    assert str(df["solutions"].dtype) == "int64[pyarrow]"
    assert df["solutions"].iloc[0] == 1 and pd.isna(df["solutions"].iloc[1])
    assert (df["solutions"] == 0).sum() == 0  # a null is no unsolvable row
    assert df["status"].tolist() == ["unique", "invalid"]
    streamed = sudoflow.to_pandas(sudoflow.solve_file(__file__))
    assert len(streamed) > 0 and "status" in streamed.columns


def test_polars_reads_the_result():
    pl = pytest.importorskip("polars")
    df = pl.DataFrame(sudoflow.solve([EASY, SHORT]))
    assert df["status"].to_list() == ["unique", "invalid"]
    assert df["index"].dtype == pl.Int64


def test_count_rows_equal_the_cli(cli, tmp_path):
    lines = puzzles("puzzles3_magictour_top1465", 50) + [SHORT, CLASH]
    lines.append(EASY[:-10] + "." * 10)
    f = tmp_path / "in.txt"
    f.write_text("\n".join(lines) + "\n")
    want = cli("count", "-q", "--limit", "1000", f)
    assert_same_as_cli(sudoflow.count(lines, limit=1000), want)
    assert_same_as_cli(sudoflow.count(lines, max=1000), want)  # the old spelling
    assert_same_as_cli(sudoflow.count(lines, threads=2), cli("count", "-q", f))


def test_rate_rows_equal_the_cli(cli, tmp_path):
    lines = puzzles("puzzles3_magictour_top1465", 12) + [SHORT, MULTIPLE]
    f = tmp_path / "in.txt"
    f.write_text("\n".join(lines) + "\n")
    want = cli("rate", "-q", "--time-budget", "60", f)
    assert_same_as_cli(sudoflow.rate(lines, time_budget=60), want)
    t = pa.table(sudoflow.rate([EASY]))
    assert t.schema.field("er").type == pa.float64()
    assert t.schema.field("steps").type == pa.int64()


def test_generate_is_reproducible_and_equals_the_cli(cli):
    a = pa.table(sudoflow.generate(40, seed=2026, threads=1))
    b = pa.table(sudoflow.generate(40, seed=2026, threads=2))
    assert a.equals(b)
    assert not a.equals(pa.table(sudoflow.generate(40, seed=2027)))
    assert_same_as_cli(a, cli("generate", "-q", "-n", "40", "--seed", "2026"))
    sym = pa.table(
        sudoflow.generate(10, seed=7, clues=(22, 30), symmetry="rot180", wnf_level=(1, 2)))
    want = cli("generate", "-q", "-n", "10", "--seed", "7", "--clues", "22..30",
               "--symmetry", "rot180", "--wnf-level", "1..2")
    assert_same_as_cli(sym, want)
    for r in sym.to_pylist():
        assert 22 <= r["clues"] <= 30 and r["status"] == "unique"
        assert sudoflow.solution(r["puzzle"]) == r["solution"]


def test_generate_rejects_bad_options():
    with pytest.raises(ValueError, match="clues"):
        sudoflow.generate(1, seed=1, clues=(10, 12))
    with pytest.raises(ValueError, match="symmetry"):
        sudoflow.generate(1, seed=1, symmetry="spiral")
    with pytest.raises(RuntimeError, match="candidates"):
        sudoflow.generate(1, seed=1, clues=17, max_tries=3)
    # Asks no puzzle can meet, refused at once as the CLI refuses them.
    with pytest.raises(ValueError, match="no puzzle has that many clues"):
        sudoflow.generate(1, seed=1, symmetry="rot90", clues=30, minimal=False)
    with pytest.raises(ValueError, match="no puzzle rates below 1.0"):
        sudoflow.generate(1, seed=1, se=0.5)


def test_generate_refuses_a_rating_the_cli_refuses_and_keeps_rows_made(cli):
    """Found by probing: se=(2.04, 2.04) was rounded to 2.0 and gave puzzles
    outside the range asked for (the CLI refuses two decimals); and a puzzle
    that ran out of max_tries lost the rows made before it, which the CLI
    writes before it exits 1."""
    for se in [(2.04, 2.04), 1.96, (1.5, 1.45)]:
        with pytest.raises(ValueError, match="ratings have one decimal"):
            sudoflow.generate(1, seed=3, se=se)
    assert pa.table(sudoflow.generate(1, seed=3, se=(2.0, 2.0)))["er"].to_pylist() == [2.0]
    import subprocess

    args = ["-n", "8", "--seed", "1", "--clues", "22..23", "--max-tries", "15"]
    run = subprocess.run([cli.exe, "generate", "-q", *args], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 1
    want = csv_rows(run.stdout)
    assert 1 <= len(want) < 8, run.stderr
    with pytest.raises(RuntimeError, match=f"puzzle {len(want) + 1}: none of 15") as e:
        sudoflow.generate(8, seed=1, clues=(22, 23), max_tries=15, threads=2)
    made = pa.table(e.value.table)
    assert made.column("puzzle").to_pylist() == [r["puzzle"] for r in want]
    assert made.column("seed").to_pylist() == [int(r["seed"]) for r in want]


def test_parse_takes_the_blanks_the_reader_takes_and_budgets_too_long_are_said_so():
    """Found by probing: parse, is_valid and solution took a puzzle after a
    Unicode blank (U+3000) that solve and the CLI read as invalid; and a
    budget past what a duration holds was called "not positive"."""
    for text in ["\u3000" + P17, P17 + "\u00a0"]:
        assert not sudoflow.is_valid(text)
        assert pa.table(sudoflow.solve([text]))["status"].to_pylist() == ["invalid"]
        for fn in (sudoflow.parse, sudoflow.solution):
            with pytest.raises(ValueError, match="wrong length"):
                fn(text)
    assert sudoflow.is_valid(" " + P17 + "\r\n")
    # A CR inside an item is named, as in a file's line (it was read as
    # text after the puzzle).
    t = pa.table(sudoflow.count([P17 + " x\ry", P17 + "\r\n"]))
    assert t["status"].to_pylist() == ["invalid", "unique"]
    assert t["error"][0].as_py().startswith("<input>:1: a carriage return (CR) inside the line, 83")
    for budget in (1e20, float("inf")):
        with pytest.raises(ValueError, match="time_budget is too long a duration"):
            sudoflow.count([P17], time_budget=budget)


def test_solve_file_refuses_an_empty_list_of_paths():
    """Found by probing: a glob that matched nothing read the process's
    stdin (rows named <stdin>), and waited on a notebook's."""
    for read in [sudoflow.solve_file, sudoflow.rate_file, sudoflow.count_file,
                 sudoflow.canon_file]:
        with pytest.raises(ValueError, match="no input files"):
            read([])


def test_solve_file_streams_the_cli_rows(cli, tmp_path):
    lines = puzzles("puzzles2_17_clue", 2500) + [SHORT]
    f = tmp_path / "in.txt"
    f.write_text("# a comment\n" + "\n".join(lines) + "\n")
    reader = pa.RecordBatchReader.from_stream(sudoflow.solve_file(f, batch_rows=1000, threads=2))
    batches = list(reader)
    assert [b.num_rows for b in batches] == [1000, 1000, 501]
    got = pa.Table.from_batches(batches, reader.schema)
    want = cli("solve", "-q", f)
    assert_same_as_cli(got, want)
    # The error names the file and line, as the CLI's does.
    assert got.column("error")[-1].as_py() == cli_error(want)


def cli_error(csv_text):
    return csv_rows(csv_text)[-1]["error"]


def test_solve_file_reads_another_column(cli, tmp_path):
    lines = puzzles("puzzles3_magictour_top1465", 50)
    f = tmp_path / "in.csv"
    f.write_text("author,sudoku\n" + "".join(f'"Smith, J.",{p}\n' for p in lines))
    for column in ["sudoku", 2]:
        got = pa.RecordBatchReader.from_stream(sudoflow.solve_file(f, column=column)).read_all()
        assert_same_as_cli(got, cli("solve", "-q", "--column", "sudoku", f))
        assert got.column("puzzle").to_pylist() == lines
    with pytest.raises(OSError, match='no column named "grid"'):
        sudoflow.solve_file(f, column="grid")
    with pytest.raises(ValueError, match="column numbers start at 1"):
        sudoflow.solve_file(f, column=0)
    # Past any record's columns: said so (it said "start at 1"), as the CLI does.
    with pytest.raises(ValueError, match="1180591620717411303424: no CSV record has that many"):
        sudoflow.solve_file(f, column=2**70)
    # A bytes path is a path, as open() takes it (it was iterated as ints).
    assert sudoflow.solve_file(bytes(f), column=2).read_all().num_rows == len(lines)


def test_solve_file_gives_the_rows_read_before_a_damaged_gzip_member(cli, tmp_path):
    """A read error dropped the batch being filled: with a gzip file whose
    second member is cut short, the CLI writes the first member's rows and
    then fails, where solve_file yielded no row before its OSError."""
    import gzip
    import subprocess

    lines = puzzles("puzzles3_magictour_top1465", 1000)
    good = gzip.compress(("\n".join(lines) + "\n").encode())
    cut = gzip.compress(("\n".join(lines) + "\n").encode())[:-40]
    f = tmp_path / "damaged.gz"
    f.write_bytes(good + cut)
    reader = pa.RecordBatchReader.from_stream(sudoflow.solve_file(f, threads=1))
    batches = []
    with pytest.raises(OSError, match="damaged"):
        for batch in reader:
            batches.append(batch)
    got = pa.Table.from_batches(batches, reader.schema)
    run = subprocess.run(
        [cli.exe, "solve", "-q", "-j", "1", str(f)], capture_output=True, text=True, check=False)
    assert run.returncode == 2 and "damaged" in run.stderr
    want = csv_rows(run.stdout)
    assert got.num_rows == len(want) >= 1000
    assert got.column("puzzle").to_pylist() == [r["puzzle"] for r in want]


def test_solve_file_missing_file_raises_at_once(tmp_path):
    with pytest.raises(OSError, match="nope.txt"):
        sudoflow.solve_file(tmp_path / "nope.txt")


def test_solve_file_can_be_dropped_early(tmp_path):
    lines = puzzles("puzzles2_17_clue") * 2
    f = tmp_path / "in.txt"
    f.write_text("\n".join(lines) + "\n")
    reader = pa.RecordBatchReader.from_stream(sudoflow.solve_file(f, batch_rows=100))
    first = reader.read_next_batch()
    assert first.num_rows == 100
    del reader  # the pipeline thread stops; nothing hangs


def test_helpers():
    g = sudoflow.parse(EASY)
    assert isinstance(g, sudoflow.Grid) and str(g) == EASY and g.clues == 81 - EASY.count(".")
    assert g[0, 0] == 8 and g[0, 1] == 0 and len(g.cells) == 81
    assert g == sudoflow.Grid(EASY) and g.is_valid()
    assert str(g.solution()) == EASY_SOLUTION
    assert sudoflow.solution(EASY) == EASY_SOLUTION
    assert sudoflow.solution(MULTIPLE) is None
    assert sudoflow.is_valid(EASY) and not sudoflow.is_valid(CLASH)
    assert not sudoflow.is_valid(SHORT)
    with pytest.raises(ValueError, match="wrong length"):
        sudoflow.parse(SHORT)
    with pytest.raises(ValueError):
        sudoflow.solution(CLASH)


def test_the_gil_is_released_while_solving():
    """A second Python thread runs while the first is inside solve().

    Thread A times its call; thread B stamps the clock in a pure-Python loop.
    Holding the GIL, solve() would let B run no bytecode at all during the
    call, so B's stamps inside the middle half of A's call prove the release
    (no ratio of wall times, which a busy machine could skew).
    """
    lines = puzzles("puzzles2_17_clue", 20000)
    call = {}
    stamps = []
    done = threading.Event()

    def a():
        t0 = time.perf_counter()
        sudoflow.solve(lines, threads=1)
        call["window"] = (t0, time.perf_counter())
        done.set()

    def b():
        while not done.is_set():
            stamps.append(time.perf_counter())
            time.sleep(0)

    tb = threading.Thread(target=b)
    ta = threading.Thread(target=a)
    tb.start()
    ta.start()
    ta.join()
    tb.join()
    t0, t1 = call["window"]
    lo, hi = t0 + (t1 - t0) / 4, t1 - (t1 - t0) / 4
    inside = [s for s in stamps if lo <= s <= hi]
    assert inside, f"no progress of thread B during solve() ({t1 - t0:.3f} s)"


def pencilmarks(puzzle):
    """A puzzle's givens as pencilmarks: a given's digit alone, blanks open."""
    return "".join("123456789" if c == "." else "." * (int(c) - 1) + c + "." * (9 - int(c))
                   for c in puzzle)


def pasted(puzzle):
    """A puzzle as a web page shows it: cells between spaces and '|'."""
    rows = [" | ".join(" ".join(puzzle[9 * r + 3 * b: 9 * r + 3 * b + 3]) for b in range(3))
            for r in range(9)]
    return " ".join(rows)


# Lines a file may hold and that a list item may be: the CLI reads each so.
AS_A_FILE_READS_THEM = [
    P17,
    P17 + " ED=7.1/1.2/1.2",
    P17 + ",x",
    P17 + ":1:",
    P17 + "\tnote",
    '"' + P17 + '",solution',
    "  " + P17 + "  ",
    P17.replace(".", "0"),
    P17.replace(".", "x"),
    pasted(P17),
    pencilmarks(P17),
    pencilmarks(SERG),
    pencilmarks(CLASH),
    pencilmarks(P17)[:100] + "x" + pencilmarks(P17)[101:],
    SHORT,
    BADCHAR,
    CLASH,
    "5 3 . | . 7 .",
]


def test_list_items_are_read_as_lines_of_a_file(cli, tmp_path):
    """The same lines from a list and from a file give the same rows: the
    CLI's reader, once per item (was: invalid from a list)."""
    f = tmp_path / "in.txt"
    f.write_text("\n".join(AS_A_FILE_READS_THEM) + "\n")
    for command, fn in [("solve", sudoflow.solve), ("count", sudoflow.count),
                        ("rate", sudoflow.rate), ("canon", sudoflow.canon)]:
        want = cli(command, "-q", f)
        got = fn(AS_A_FILE_READS_THEM, threads=2)
        assert_same_as_cli(got, want)
        if command == "canon":
            assert got["class_index"].to_pylist()[:9] == [1] * 9
        else:
            status = {"solve": "unique", "count": "unique", "rate": "rated"}[command]
            assert got["status"].to_pylist()[:9] == [status] * 9
    # And as an Arrow column.
    assert_same_as_cli(sudoflow.solve(pa.array(AS_A_FILE_READS_THEM)), cli("solve", "-q", f))


def test_pencilmark_items_are_solved_counted_and_rated():
    """Was: invalid, "expected 81 cells, found 729", in solve, count, rate."""
    pm = pencilmarks(EASY)
    solved = rows(sudoflow.solve([pm]))[0]
    assert solved["status"] == "unique" and solved["solution"] == EASY_SOLUTION
    assert solved["puzzle"] == pm and solved["clues"] == 81 - EASY.count(".")
    assert rows(sudoflow.count([pm]))[0]["status"] == "unique"
    rated = rows(sudoflow.rate([pencilmarks(P17), P17]))
    assert rated[0]["status"] == "rated"
    assert (rated[0]["er"], rated[0]["ep"], rated[0]["ed"]) == \
        (rated[1]["er"], rated[1]["ep"], rated[1]["ed"])


def test_an_item_is_one_record_whatever_it_holds():
    got = rows(sudoflow.solve(["", "   ", "# note", "+---+---+---+", EASY + "\n" + EASY,
                               EASY + "\n", "1 2 3 | 4 5 6 | 7 8 9"]))
    assert [r["index"] for r in got] == list(range(1, 8))
    assert [r["status"] for r in got] == ["invalid"] * 5 + ["unique", "invalid"]
    assert got[0]["error"] == "<input>:1: no puzzle (an empty item)"
    assert got[2]["error"] == "<input>:3: no puzzle (a # comment)"
    assert got[3]["error"] == "<input>:4: no puzzle (a box rule)"
    assert got[4]["error"] == \
        "<input>:5: 2 lines in one item: an item holds one puzzle, on one line"
    assert got[6]["error"].startswith("<input>:7: looks like one row of a 9-line grid")


KAGGLE = [("004300209005009001070060043006002087190007400050083000600000105003508690042910300",
           "864371259325849761971265843436192587198657432257483916689734125713528694542916378"),
          ("040100050107003960520008000000000017000906800803050620090060543600080700250097100",
           "346179258187523964529648371965832417472916835813754629798261543631485792254397186")]


def kaggle_csv(tmp_path):
    """A small sudoku.csv as Kaggle ships it: 0 blanks, no quotes."""
    p = tmp_path / "sudoku.csv"
    p.write_text("quizzes,solutions\n" + "".join(f"{q},{s}\n" for q, s in KAGGLE))
    return p


def test_puzzles_read_as_numbers_are_one_clear_type_error(tmp_path):
    """A CSV column of 0-blank puzzles read as numbers: one TypeError that
    names the type and how to read text (was: OverflowError inside pandas'
    __arrow_c_stream__, a bare TypeError for pyarrow's floats)."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    import pyarrow.csv as pacsv

    path = kaggle_csv(tmp_path)
    numeric = {
        "pandas": pd.read_csv(path)["quizzes"],                 # object column of Python ints
        "pyarrow": pacsv.read_csv(path)["quizzes"],              # float64
        "polars": pl.Series("quizzes", [4300209, 40100050]),     # int64
        "pandas int": pd.Series([4300209, 40100050]),
    }
    for name, column in numeric.items():
        with pytest.raises(TypeError) as e:
            sudoflow.solve(column)
        message = str(e.value)
        assert "as text" in message and "read_csv" in message, (name, message)
        assert "dtype=str" in message and "infer_schema=False" in message, (name, message)
    with pytest.raises(TypeError, match="Float64|Int64|numbers"):
        sudoflow.count(pacsv.read_csv(path)["quizzes"])


def test_reads_that_keep_puzzles_as_text(tmp_path):
    """The reads the README gives keep the 0-blank puzzles as text."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    import pyarrow.csv as pacsv

    path = kaggle_csv(tmp_path)
    columns = [
        pl.read_csv(path, infer_schema=False)["quizzes"],
        pd.read_csv(path, dtype=str)["quizzes"],
        pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
            column_types={"quizzes": pa.string(), "solutions": pa.string()}))["quizzes"],
    ]
    for column in columns:
        t = sudoflow.solve(column)
        assert t["status"].to_pylist() == ["unique", "unique"]
        assert t["solution"].to_pylist() == [s for _, s in KAGGLE]
        assert t["puzzle"].to_pylist() == [q.replace("0", ".") for q, _ in KAGGLE]
    assert sudoflow.solve(columns[0], blank="0")["puzzle"].to_pylist() == [q for q, _ in KAGGLE]


def test_named_input_names_each_error_by_its_source_and_row():
    """The adapters' input: errors name their record's source and row, also
    when rows before it were dropped (canon's distinct)."""
    from sudoflow._frames import named

    items = named([EASY, EASY, "x", None], pa.array(["a.csv", "a.csv", "b.csv", ""]),
                  pa.array([7, 8, 2**33 + 1, 5]))
    got = rows(sudoflow.canon(items, distinct=True))
    assert [r["index"] for r in got] == [1, 3, 4]
    assert got[1]["error"] == "b.csv row 8589934593: wrong length: expected 81 cells, found 1"
    assert got[2]["error"] == "row 5: no puzzle (null)"
    clash = rows(sudoflow.solve(named([CLASH], pa.array(["c.csv"]), pa.array([3]))))[0]
    assert clash["error"].startswith("c.csv row 3: duplicate 1 in row 1")
