"""The speed cost of a cheaper build profile for the Python extension
(issue 31: `pip install ./python` took 6 to 19 minutes).

Usage: target/py-venv/bin/python benches/python_profiles.py RUNS DIR...

Each DIR holds a `sudoflow` package built with one profile (its Python files
and `_sudoflow.abi3.so`). For each, in a child interpreter with DIR first on
sys.path, in turn so that a change in the machine's load hits every build
alike, RUNS times: CPU seconds of
- `solve(list, threads=1)` on 98,316 puzzles (the 17-clue set twice),
- `solve(polars Series, threads=1)` on the same (a string-view column, cast),
- `solve_file(threads=1)` on the 17-clue set twice, read to the end,
- `rate(threads=1)` on the first 300 puzzles of top1465 (the rater's code),
- `canon(threads=1)` on the 17-clue set;
medians printed per build.
"""

import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "datasets")

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
import sudoflow, polars as pl
data = sys.argv[2]
def lines(name, n=None):
    out = [l.split()[0] for l in open(os.path.join(data, name + ".txt"))
           if l.strip() and not l.startswith("#")]
    return out[:n] if n else out
seventeen = lines("puzzles2_17_clue") * 2
hard = lines("puzzles3_magictour_top1465", 300)
two = os.path.join(data, "puzzles2_17_clue.txt")
series = pl.Series("p", seventeen)
def cpu(f):
    t = time.process_time(); f(); return time.process_time() - t
out = {
    "solve(list)": cpu(lambda: sudoflow.solve(seventeen, threads=1)),
    "solve(polars)": cpu(lambda: sudoflow.solve(series, threads=1)),
    "solve_file": cpu(lambda: sudoflow.solve_file([two, two], threads=1).read_all()),
    "rate(300 top1465)": cpu(lambda: sudoflow.rate(hard, threads=1)),
    "canon(17-clue)": cpu(lambda: sudoflow.canon(seventeen[:49158], threads=1)),
}
print(json.dumps(out))
"""

runs = int(sys.argv[1])
dirs = sys.argv[2:]
results = {d: [] for d in dirs}
for _ in range(runs):
    for d in dirs:
        r = subprocess.run([sys.executable, "-c", CHILD, d, DATA], capture_output=True,
                           text=True, check=True)
        results[d].append(json.loads(r.stdout))
base = None
for d in dirs:
    med = {k: statistics.median(r[k] for r in results[d]) for k in results[d][0]}
    base = base or med
    print(os.path.basename(d.rstrip("/")))
    for k, v in med.items():
        print(f"  {k:20s} CPU {v:7.3f} s  {100 * (v / base[k] - 1):+6.1f}%")
