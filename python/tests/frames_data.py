"""100,000 records in two CSV files, for the Spark and Dask tests."""

import csv

from conftest import puzzles

N_PER_FILE = 50_000
BAD = {1234: "1" * 80, 40_000: "y" + "." * 80}  # per file: line n -> bad puzzle


def write_two_files(tmp_path):
    """Two CSV files (columns n, puzzle) of N_PER_FILE records each: the
    17-clue set then top1465 and the hardest, a few bad puzzles among them.
    Returns the paths and, per file name, the puzzles in order."""
    pool = (puzzles("puzzles2_17_clue") + puzzles("puzzles3_magictour_top1465")
            + puzzles("puzzles6_forum_hardest_1106"))
    files, content = [], {}
    for k, name in enumerate(["a.csv", "b.csv"]):
        start = k * 7919
        rows = [pool[(start + i) % len(pool)] for i in range(N_PER_FILE)]
        for n, bad in BAD.items():
            rows[n] = bad
        p = tmp_path / name
        with open(p, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["n", "puzzle"])
            w.writerows(enumerate(rows))
        files.append(p)
        content[name] = rows
    return files, content


def is_solution_of(solution, puzzle):
    if len(solution) != 81 or any(p not in ".0" and p != s for p, s in zip(puzzle, solution)):
        return False
    full = set("123456789")
    rows = (solution[9 * r: 9 * r + 9] for r in range(9))
    cols = (solution[c::9] for c in range(9))
    boxes = ("".join(solution[9 * (3 * (b // 3) + i) + 3 * (b % 3): 9 * (3 * (b // 3) + i)
                              + 3 * (b % 3) + 3] for i in range(3)) for b in range(9))
    return all(set(u) == full for g in (rows, cols, boxes) for u in g)


def check_output(table, content):
    """Every record once, solutions valid, order restorable by (source, row)."""
    import pyarrow.compute as pc

    assert table.num_rows == 2 * N_PER_FILE
    by_file = {}
    for r in table.select(["source", "row", "n", "puzzle", "status", "solution", "error"]) \
            .to_pylist():
        name = r["source"].rsplit("/", 1)[-1]
        by_file.setdefault(name, []).append(r)
    assert sorted(by_file) == ["a.csv", "b.csv"]
    for name, rows in by_file.items():
        rows.sort(key=lambda r: r["row"])
        # Sorting by row restores the file's order: n is 0, 1, 2, ...
        assert [r["n"] for r in rows] == list(range(N_PER_FILE)), name
        for r in rows:
            assert r["puzzle"] == content[name][r["n"]]
            if r["n"] in BAD:
                assert r["status"] == "invalid" and r["error"], r
            else:
                assert r["status"] == "unique", r
                assert is_solution_of(r["solution"], r["puzzle"]), r
    assert pc.sum(pc.equal(table.column("status"), "invalid")).as_py() == 2 * len(BAD)
