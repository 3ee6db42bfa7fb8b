"""What the CLI has and the package had not (issue 31): canon, explain, the
*_file streams of rate, count and canon, solve's options, generate's
distinct and puzzle_seed, progress; each against the CLI's own output."""

import inspect
import json
import re

import pyarrow as pa
import pytest

import sudoflow

from conftest import puzzles
from test_api import (CLASH, EASY, MULTIPLE, P17, SERG, SHORT, assert_same_as_cli, pencilmarks,
                      rows)

# The README's explain example: ER 7.1, 61 steps.
FORCING = ".7.5..68.8....74.54..9..3.2....6.2......93....4.........743.....3.......5.97.2..."


def mixed(n=40):
    """Lines of many kinds: hard and easy puzzles, several solutions, a
    clash, bad lines, a duplicate transformed, pencilmarks."""
    lines = puzzles("puzzles3_magictour_top1465", n) + [P17, SERG, CLASH, SHORT, "y" * 81]
    # P17 transposed: the same class.
    lines.append("".join(P17[9 * c + r] for r in range(9) for c in range(9)))
    lines += [pencilmarks(P17), P17]
    return lines


def write(tmp_path, lines, name="in.txt"):
    f = tmp_path / name
    f.write_text("\n".join(lines) + "\n")
    return f


def test_canon_rows_equal_the_cli(cli, tmp_path):
    lines = mixed()
    f = write(tmp_path, lines)
    for distinct in (False, True):
        flags = ["--distinct"] if distinct else []
        want = cli("canon", "-q", *flags, f)
        for threads in (1, 2):
            assert_same_as_cli(sudoflow.canon(lines, distinct=distinct, threads=threads), want)
        streamed = sudoflow.canon_file(f, distinct=distinct, batch_rows=7).read_all()
        assert_same_as_cli(streamed, want)
    t = sudoflow.canon(lines, distinct=True)
    assert t.num_rows < len(lines)  # the transposed P17 and P17 again are dropped


@pytest.mark.parametrize("fn,streamed,command", [
    (sudoflow.solve, sudoflow.solve_file, "solve"),
    (sudoflow.rate, sudoflow.rate_file, "rate"),
    (sudoflow.count, sudoflow.count_file, "count"),
])
def test_distinct_is_the_clis(cli, tmp_path, fn, streamed, command):
    """--distinct on solve, rate and count had no Python spelling (found by
    probing): the first item of each class gets a row, its index kept;
    repeats (P17 transposed, P17 again) none; invalid items always one."""
    lines = mixed(12)
    f = write(tmp_path, lines)
    want = cli(command, "-q", "--distinct", f)
    for threads in (1, 2):
        got = fn(lines, distinct=True, threads=threads)
        assert_same_as_cli(got, want)
        assert_same_as_cli(streamed(f, distinct=True, batch_rows=5, threads=threads).read_all(),
                           want)
    indices = pa.table(fn(lines, distinct=True))["index"].to_pylist()
    assert len(indices) == len(lines) - 2 and len(lines) not in indices
    assert pa.table(fn(lines)).num_rows == len(lines)


def test_labels_are_the_clis(cli, tmp_path):
    """rate --labels and generate --labels had no Python spelling (found by
    probing): a label column last, the level of er; null when not rated."""
    lines = mixed(12)
    f = write(tmp_path, lines)
    want = cli("rate", "-q", "--labels", f)
    got = sudoflow.rate(lines, labels=True, threads=2)
    assert_same_as_cli(got, want)
    assert_same_as_cli(sudoflow.rate_file(f, labels=True, batch_rows=4).read_all(), want)
    labels = pa.table(got)["label"].to_pylist()
    assert "Diabolical" in labels and None in labels
    assert "label" not in pa.table(sudoflow.rate(lines[:2])).column_names
    want = cli("generate", "-q", "-n", "6", "--seed", "5", "--se", "1.0..", "--labels")
    assert_same_as_cli(sudoflow.generate(6, seed=5, se="1.0..", labels=True), want)
    with pytest.raises(ValueError, match="pass se too"):
        sudoflow.generate(1, seed=5, labels=True)


def test_explain_is_the_cli_json(cli):
    for p in [FORCING, P17, FORCING + " ED=7.1/1.2/1.2"]:
        got = sudoflow.explain(p)
        want = json.loads(cli("explain", p.split()[0], "--format", "json"))
        assert got == want
    e = sudoflow.explain(FORCING)
    assert (e["er"], e["ep"], e["ed"]) == (7.1, 1.2, 1.2) and len(e["steps"]) == 61
    assert e["steps"][32]["technique"] == "Forcing Chain" and e["hardest_step"] == 33
    assert list(e["steps"][32]) == ["rating", "technique", "cells", "placed", "removed", "chains"]
    assert e["steps"][32]["chains"] and all(
        set(i) == {"if", "then", "why"} for chain in e["steps"][32]["chains"] for i in chain)
    steps = pa.Table.from_pylist([{k: s[k] for k in ("rating", "technique", "placed")}
                                  for s in e["steps"]])
    assert steps.num_rows == 61


@pytest.mark.parametrize("fn,command,options,flags", [
    (sudoflow.count, "count", {"blank": "0", "limit": 10}, ["--blank", "0", "--limit", "10"]),
    (sudoflow.rate, "rate", {"blank": "*"}, ["--blank", "*"]),
    (sudoflow.canon, "canon", {"blank": "-", "distinct": True}, ["--blank", "-", "--distinct"]),
])
def test_blank_is_the_clis(cli, tmp_path, fn, command, options, flags):
    # --blank of count, rate and canon (the shared options, main's 1d43c99):
    # a grid's blanks in the puzzle column; an invalid line and a pencilmark
    # line stay as read.
    lines = mixed(12)
    want = cli(command, "-q", *flags, write(tmp_path, lines))
    got = fn(lines, threads=2, **options)
    assert_same_as_cli(got, want)
    assert options["blank"] * 10 in "".join(got["puzzle"].to_pylist())


def test_explain_takes_a_pencilmark_puzzle_as_the_cli(cli):
    """explain -p takes a puzzle given by its 729 candidates; Python's
    explain refused it (found by probing)."""
    pm = pencilmarks(P17)
    want = json.loads(cli("explain", "-p", pm, "--format", "json"))
    assert want["status"] == "rated"
    assert sudoflow.explain(pm) == want


def test_explain_takes_a_wall_limit_as_the_cli(cli):
    want = json.loads(cli("explain", P17, "--format", "json", "--wall-limit", "1h"))
    assert sudoflow.explain(P17, wall_limit=3600.0) == want
    with pytest.raises(ValueError, match="wall_limit"):
        sudoflow.explain(P17, wall_limit=-1.0)


def test_explain_raises_for_what_has_no_path():
    with pytest.raises(ValueError, match="duplicate 1 in row 1"):
        sudoflow.explain(CLASH)
    with pytest.raises(ValueError, match="more than one solution"):
        sudoflow.explain(MULTIPLE)
    with pytest.raises(ValueError, match="wrong length"):
        sudoflow.explain(SHORT)
    with pytest.raises(TimeoutError, match="time budget"):
        sudoflow.explain(EASY, time_budget=0.001)
    with pytest.raises(TypeError):
        sudoflow.explain([P17])


def test_explain_of_an_unsolvable_puzzle_names_its_contradiction_as_the_cli():
    """main's explain says where propagation finds the contradiction (r1c9
    here: its last candidate, 9, is taken by the given below it)."""
    import os
    import subprocess
    from conftest import ROOT
    unsolvable = "12345678." + "........9" + "." * 63
    exe = os.environ.get("SUDOFLOW_BIN") or str(ROOT / "target" / "release" / "sudoflow")
    r = subprocess.run([exe, "explain", unsolvable], capture_output=True, text=True)
    assert r.returncode == 1 and "r1c9" in r.stderr, r.stderr
    with pytest.raises(ValueError) as e:
        sudoflow.explain(unsolvable)
    assert str(e.value) == r.stderr.strip().removeprefix("sudoflow: ")


@pytest.mark.parametrize("fn,command,options,flags", [
    (sudoflow.count_file, "count", {"limit": 100}, ["--limit", "100"]),
    (sudoflow.count_file, "count", {"max": 100, "blank": "0"}, ["--max", "100", "--blank", "0"]),
    (sudoflow.rate_file, "rate", {"blank": "X"}, ["--blank", "X"]),
    (sudoflow.canon_file, "canon", {"blank": "_"}, ["--blank", "_"]),
    (sudoflow.count_file, "count", {"time_budget": 0.0001}, ["--time-budget", "100us"]),
    (sudoflow.count_file, "count", {"wall_limit": 3600.0}, ["--wall-limit", "1h"]),
    (sudoflow.rate_file, "rate", {"time_budget": 60.0}, ["--time-budget", "60"]),
    (sudoflow.rate_file, "rate", {"time_budget": 0.001}, ["--time-budget", "1ms"]),
])
def test_file_streams_equal_the_cli(cli, tmp_path, fn, command, options, flags):
    lines = mixed(12)
    f = write(tmp_path, ["# a comment", *lines])
    want = cli(command, "-q", *flags, f)
    reader = fn(f, batch_rows=5, threads=2, **options)
    assert isinstance(reader, pa.RecordBatchReader)
    batches = list(reader)
    assert [b.num_rows for b in batches][:-1] == [5] * (len(batches) - 1)
    assert_same_as_cli(pa.Table.from_batches(batches), want)
    # Errors name file:line, as the CLI's do (a budget's message is the
    # same for every record).
    errors = [e for e in pa.Table.from_batches(batches)["error"].to_pylist()
              if e and "budget" not in e]
    assert errors and all(e.startswith(f"{f}:") for e in errors)


def test_file_streams_read_a_column_and_refuse_a_missing_file(cli, tmp_path):
    lines = puzzles("puzzles3_magictour_top1465", 20)
    f = tmp_path / "in.csv"
    f.write_text("author,sudoku\n" + "".join(f'"Smith, J.",{p}\n' for p in lines))
    for fn, command in [(sudoflow.count_file, "count"), (sudoflow.canon_file, "canon")]:
        got = fn(f, column="sudoku").read_all()
        assert_same_as_cli(got, cli(command, "-q", "--column", "sudoku", f))
        with pytest.raises(OSError, match="nope.txt"):
            fn(tmp_path / "nope.txt")
    with pytest.raises(OSError, match="nope.txt"):
        sudoflow.rate_file([f, tmp_path / "nope.txt"])


@pytest.mark.parametrize("options,flags", [
    ({"se": True}, ["--se"]),
    ({"se": True, "se_budget": 0.0005}, ["--se", "--se-budget", "500us"]),
    ({"se": True, "se_wall_limit": 3600.0}, ["--se", "--se-wall-limit", "1h"]),
    ({"prune": "matching"}, ["--prune", "matching"]),
    ({"prune": "matching-root", "limit": 3}, ["--prune", "matching-root", "--limit", "3"]),
    ({"no_guess": True}, ["--no-guess"]),
    ({"blank": "0"}, ["--blank", "0"]),
    ({"blank": "_", "limit": 1}, ["--blank", "_", "--limit", "1"]),
])
def test_solve_options_equal_the_cli(cli, tmp_path, options, flags):
    lines = mixed(20) + [EASY]
    f = write(tmp_path, lines)
    want = cli("solve", "-q", *flags, f)
    got = sudoflow.solve(lines, threads=2, **options)
    # Budgets are work, not time: the rows are the CLI's on any machine.
    assert_same_as_cli(got, want)
    assert_same_as_cli(sudoflow.solve_file(f, **options).read_all(), want)
    if options.get("se"):
        t = sudoflow.solve([EASY], se=True)
        assert t.column_names[-3:] == ["er", "ep", "ed"] and t["er"][0].as_py() > 10


def test_generate_distinct_and_puzzle_seed_equal_the_cli(cli):
    t = sudoflow.generate(30, seed=14, distinct=True, threads=2)
    assert_same_as_cli(t, cli("generate", "-q", "-n", "30", "--seed", "14", "--distinct"))
    forms = sudoflow.canon(t["puzzle"])["class_index"].to_pylist()
    assert forms == list(range(1, 31))  # no two equivalent
    for r in rows(t)[:3]:
        one = sudoflow.generate(puzzle_seed=r["seed"])
        assert_same_as_cli(one, cli("generate", "-q", "--puzzle-seed", r["seed"]))
        got = rows(one)[0]
        assert {k: v for k, v in got.items() if k != "index"} == \
            {k: v for k, v in r.items() if k != "index"}
    # blank= as --blank: the same puzzles, written with another blank.
    zeros = sudoflow.generate(30, seed=14, distinct=True, blank="0", threads=2)
    assert_same_as_cli(zeros, cli("generate", "-q", "-n", "30", "--seed", "14", "--distinct",
                                  "--blank", "0"))
    assert [p.replace("0", ".") for p in zeros["puzzle"].to_pylist()] == \
        t["puzzle"].to_pylist()
    with pytest.raises(ValueError, match="blank"):
        sudoflow.generate(1, seed=1, blank="?")
    with pytest.raises(ValueError, match="seed"):
        sudoflow.generate(3)
    with pytest.raises(ValueError, match="n must be 1"):
        sudoflow.generate(2, puzzle_seed=5)
    with pytest.raises(ValueError, match="one"):
        sudoflow.generate(1, seed=1, puzzle_seed=5)


def test_generate_exclude_equals_the_cli(cli, tmp_path):
    # Every fourth puzzle of a plain run, transposed (same class, other
    # cells), and a line that is no puzzle: a run with exclude= makes other
    # puzzles at those indices, as generate --exclude does.
    plain = rows(sudoflow.generate(40, seed=21))
    banned = [r["puzzle"] for r in plain[::4]]
    transposed = ["".join(p[9 * c + r] for r in range(9) for c in range(9)) for p in banned]
    f = tmp_path / "vol1.txt"
    f.write_text("\n".join(transposed + ["not a puzzle"]) + "\n")
    canonical = lambda ps: set(sudoflow.canon(ps)["canonical"].to_pylist())
    for distinct in (False, True):
        flags = ["--distinct"] if distinct else []
        want = cli("generate", "-q", "-n", "40", "--seed", "21", *flags, "--exclude", f)
        for threads in (1, 2):
            t = sudoflow.generate(40, seed=21, distinct=distinct, exclude=str(f), threads=threads)
            assert_same_as_cli(t, want)
        assert not canonical(t["puzzle"].to_pylist()) & canonical(banned)
        got = rows(t)
        assert all(got[i]["puzzle"] != plain[i]["puzzle"] for i in range(0, 40, 4))
    assert_same_as_cli(sudoflow.generate(5, seed=21, exclude=[f, f]),
                       cli("generate", "-q", "-n", "5", "--seed", "21", "--exclude", f, f))
    with pytest.raises(OSError, match="missing.txt"):
        sudoflow.generate(3, seed=1, exclude=tmp_path / "missing.txt")
    with pytest.raises(ValueError, match="puzzle_seed"):
        sudoflow.generate(puzzle_seed=5, exclude=f)
    with pytest.raises(TypeError, match="exclude"):
        sudoflow.generate(3, seed=1, exclude=5)


def test_a_puzzle_seed_the_filters_reject_is_a_value_error():
    seed = rows(sudoflow.generate(1, seed=3))[0]["seed"]
    clues = rows(sudoflow.generate(puzzle_seed=seed))[0]["clues"]
    with pytest.raises(ValueError, match="filters reject"):
        sudoflow.generate(puzzle_seed=seed, clues=(clues + 1, clues + 5))


def test_progress_is_reported_to_a_callable():
    seen = []
    lines = puzzles("puzzles2_17_clue", 3000)
    t = sudoflow.solve(lines, threads=2, progress=lambda done, total: seen.append((done, total)))
    assert t.num_rows == 3000
    assert seen and seen[-1] == (3000, 3000)
    assert all(total == 3000 for _, total in seen)
    assert [d for d, _ in seen] == sorted({d for d, _ in seen})
    made = []
    sudoflow.generate(5, seed=1, progress=lambda done, total: made.append((done, total)))
    assert made[-1] == (5, 5)


def test_progress_true_draws_a_bar_or_a_line(capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # no tqdm
    sudoflow.count([P17] * 10, progress=True)
    err = capsys.readouterr().err
    assert re.search(r"sudoflow: 10/10 puzzles", err), err
    tqdm = pytest.importorskip("tqdm")
    monkeypatch.delitem(sys.modules, "tqdm.auto")
    sudoflow.count([P17] * 10, progress=True)
    # tqdm's unit_scale writes 10 as 10.0.
    assert re.search(r"\b10(\.0)?/10(\.0)?\b", capsys.readouterr().err)
    assert tqdm
    with pytest.raises(TypeError, match="progress"):
        sudoflow.count([P17], progress="yes")


def test_an_exception_in_the_progress_callable_stops_the_call():
    def fail(done, total):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        sudoflow.rate(puzzles("puzzles6_forum_hardest_1106", 40), threads=1, progress=fail)


PUBLIC = [sudoflow.solve, sudoflow.count, sudoflow.rate, sudoflow.canon, sudoflow.explain,
          sudoflow.generate, sudoflow.solve_file, sudoflow.count_file, sudoflow.rate_file,
          sudoflow.canon_file, sudoflow.parse, sudoflow.solution, sudoflow.to_pandas]


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_every_function_documents_its_parameters_returns_and_raises(fn):
    """help(sudoflow.solve) was one line."""
    doc = inspect.getdoc(fn) or ""
    assert "Parameters" in doc and "Raises" in doc, doc
    assert "Returns" in doc, doc
    described = doc.split("Parameters", 1)[1]
    for name in inspect.signature(fn).parameters:
        assert re.search(rf"\b{name}\b", described), (fn.__name__, name)
    for p in inspect.signature(fn).parameters.values():
        if p.default is not inspect.Parameter.empty and p.default is not None \
                and p.default is not False and p.default is not True:
            assert str(p.default) in described or repr(p.default) in described, \
                (fn.__name__, p.name, p.default)


def test_the_package_docstring_lists_the_readers_blanks():
    """The blanks the docstring lists are exactly those the reader takes."""
    doc = sudoflow.__doc__
    listed = set(re.findall(r"``(.)``", doc.split("are givens;", 1)[1].split("are blanks", 1)[0]))
    accepted = {chr(c) for c in range(33, 127)
                if sudoflow.solve([P17.replace(".", chr(c))])["status"][0].as_py() == "unique"
                and chr(c) not in "123456789"}
    assert listed == accepted, (listed, accepted)


def test_the_extension_is_abi3():
    """One wheel for CPython 3.9 and later (cp39-abi3)."""
    assert sudoflow._sudoflow.__file__.endswith(".abi3.so")


MAP_BACK = [
    (sudoflow.solve_file, "solve"),
    (sudoflow.count_file, "count"),
    (sudoflow.rate_file, "rate"),
    (sudoflow.canon_file, "canon"),
]


def keep_csv(tmp_path):
    """A CSV whose kept columns are quoted, hold commas, look like numbers
    (kept as text) or are missing from a short record."""
    lines = puzzles("puzzles3_magictour_top1465", 6) + [P17, CLASH, SHORT]
    f = tmp_path / "big.csv"
    f.write_text("id,note,quizzes\n"
                 + "".join(f'00{i},"Smith, J. {i}",{p}\n' for i, p in enumerate(lines))
                 + "77\n")
    return f


@pytest.mark.parametrize("fn,command", MAP_BACK)
def test_keep_and_source_are_the_clis(cli, tmp_path, fn, command):
    f = keep_csv(tmp_path)
    want = cli(command, "-q", "--keep", "ID,note", "--source", f)
    got = fn(f, keep=["ID", "note"], source=True, threads=2, batch_rows=4).read_all()
    assert_same_as_cli(got, want)
    assert got.column_names[:2] == ["ID", "note"] and got.column_names[-2:] == ["source", "line"]
    assert got.schema.field("ID").type == pa.string()  # "000" stays text
    assert got.schema.field("line").type == pa.int64()
    assert got["ID"][0].as_py() == "000" and set(got["source"].to_pylist()) == {str(f)}
    # One name is a list of one; one str is split at commas, as --keep's
    # value is (it was one name, "no column named \"ID,note\"").
    assert fn(f, keep="note").read_all().column_names[0] == "note"
    assert fn(f, keep="ID,note").read_all().equals(
        fn(f, keep=["ID", "note"], threads=2, batch_rows=4).read_all())


def test_source_names_the_records_of_a_source_csv_by_its_columns(cli, tmp_path):
    """canon --distinct --source's CSV, read again: the records are named by
    the file and line they came from, as `canon ... | rate -` names them."""
    f = keep_csv(tmp_path)
    distinct = tmp_path / "distinct.csv"
    distinct.write_text(cli("canon", "-q", "--distinct", "--source", f))
    got = sudoflow.rate_file(distinct, source=True).read_all()
    assert_same_as_cli(got, cli("rate", "-q", "--source", distinct))
    assert set(got["source"].to_pylist()) == {str(f)}
    errors = [e for e in got["error"].to_pylist() if e]
    assert errors and all(e.startswith(f"{f}:") for e in errors)


def test_keep_is_checked_before_any_row(tmp_path):
    f = keep_csv(tmp_path)
    for fn, _ in MAP_BACK:
        with pytest.raises(OSError, match="nope"):
            fn(f, keep=["id", "nope"])
        with pytest.raises(ValueError, match="twice"):
            fn(f, keep=["id", "id"])
        with pytest.raises(ValueError, match="error"):
            fn(f, keep="error")
        with pytest.raises(ValueError, match="source"):
            fn(f, keep="source", source=True)
        with pytest.raises(TypeError, match="keep"):
            fn(f, keep=3)
