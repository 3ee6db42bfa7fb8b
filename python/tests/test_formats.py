"""`--format parquet|jsonl` (issue 16, part 3): pyarrow and polars read the
files back to the values of the CSV of the same run, for every command that
writes rows, with the types the columns promise."""

import csv
import json

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import dataset

INT = {"index", "solutions", "clues", "wnf_level", "guesses", "backtracks", "steps",
       "automorphisms", "class_index"}
FLOAT = {"wnf", "er", "ep", "ed"}


def typed(name, text):
    """A CSV field as the typed formats hold it: empty is null."""
    if text == "":
        return None
    if name in INT or name == "seed":
        return int(text)
    if name in FLOAT:
        return float(text)
    return text


def csv_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        return reader.fieldnames, [{k: typed(k, v) for k, v in r.items()} for r in reader]


def mixed_input(tmp_path):
    """Puzzles of several kinds: unique, multiple, a clash, bad lines with
    commas and quotes, and a pencilmark line."""
    lines = []
    with open(dataset("puzzles3_magictour_top1465")) as f:
        lines += [l.strip() for l in f if l.strip() and not l.startswith("#")][:40]
    with open(dataset("puzzles7_serg_benchmark")) as f:
        lines += [l.strip().split(",")[0] for l in f if l.strip() and not l.startswith("#")][:5]
    lines += ["5....5..." + "." * 72, 'not,a "puzzle"', "1" * 80]
    # The first puzzle as pencilmarks: givens alone, blanks full.
    lines.append("".join("123456789" if c == "." else "." * (int(c) - 1) + c + "." * (9 - int(c))
                         for c in lines[0]))
    p = tmp_path / "mixed.txt"
    p.write_text("\n".join(lines) + "\n")
    return p


@pytest.mark.parametrize(
    "command,extra",
    [
        ("solve", []),
        ("solve", ["--se"]),
        ("count", []),
        ("rate", []),
        ("canon", []),
        ("generate", ["-n", "30", "--seed", "7"]),
    ],
)
def test_parquet_and_jsonl_hold_the_csv_values(cli, tmp_path, command, extra):
    inputs = [] if command == "generate" else [mixed_input(tmp_path)]
    out = {}
    for ext in ("csv", "parquet", "jsonl"):
        out[ext] = tmp_path / f"out.{ext}"
        cli(command, "-q", "-j", "2", *extra, *inputs, "-o", out[ext])
    header, rows = csv_rows(out["csv"])
    assert rows, "the CSV has rows"

    table = pq.read_table(out["parquet"])
    assert table.column_names == header
    for name in header:
        t = table.schema.field(name).type
        if name in INT:
            assert t == pa.int64(), name
        elif name in FLOAT:
            assert t == pa.float64(), name
        elif name == "seed":
            assert t == pa.uint64(), name
        else:
            assert t == pa.string(), name
    assert table.to_pylist() == rows

    frame = pl.read_parquet(out["parquet"])
    assert frame.columns == header
    assert frame.to_dicts() == rows

    with open(out["jsonl"]) as f:
        objects = [json.loads(line) for line in f]
    assert objects == rows
    assert all(list(o) == header for o in objects)


def test_format_option_wins_over_the_extension_and_stdout_takes_parquet(cli, tmp_path):
    src = mixed_input(tmp_path)
    p = tmp_path / "rows.dat"
    cli("solve", "-q", "--format", "parquet", src, "-o", p)
    assert pq.read_table(p).num_rows == len(src.read_text().splitlines())
    text = cli("solve", "-q", "--format", "jsonl", src)
    assert json.loads(text.splitlines()[0])["index"] == 1
