"""CPU time of sudoflow.solve from Python against `sudoflow solve -j 1`, and
wall time with 1 and 2 threads (issue 16: within 10% of the CLI's CPU time).

Usage: target/py-venv/bin/python benches/python_solve.py [DATASET] [RUNS]
(after `make python-venv` and `cd python && maturin develop`). Runs alternate
between the CLI and Python so that a change in the machine's load hits both.
"""

import os
import resource
import statistics
import subprocess
import sys
import time

import sudoflow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASET = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "datasets", "puzzles2_17_clue.txt")
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 7
CLI = os.environ.get("SUDOFLOW_BIN", os.path.join(ROOT, "target", "release", "sudoflow"))


def cli_cpu():
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([CLI, "solve", "-q", "-j", "1", DATASET, "-o", os.devnull], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def lines():
    with open(DATASET) as f:
        return [l.split()[0] for l in f if l.strip() and not l.lstrip().startswith("#")]


def py_cpu(puzzles):
    t = time.process_time()
    table = sudoflow.solve(puzzles, threads=1)
    cpu = time.process_time() - t
    assert table.num_rows == len(puzzles)
    return cpu


def file_cpu():
    t = time.process_time()
    n = sum(b.num_rows for b in __import__("pyarrow").RecordBatchReader.from_stream(
        sudoflow.solve_file(DATASET, threads=1)))
    return time.process_time() - t, n


def wall(puzzles, threads):
    t = time.perf_counter()
    sudoflow.solve(puzzles, threads=threads)
    return time.perf_counter() - t


puzzles = lines()
cli, py, pyfile = [], [], []
for _ in range(RUNS):
    cli.append(cli_cpu())
    py.append(py_cpu(puzzles))
    pyfile.append(file_cpu()[0])
med = statistics.median
print(f"dataset {os.path.basename(DATASET)}: {len(puzzles)} puzzles, {RUNS} runs each, medians")
print(f"CLI  solve -j 1 (whole process)    CPU {med(cli):.3f} s  (min {min(cli):.3f})")
print(f"Python solve(list, threads=1)      CPU {med(py):.3f} s  (min {min(py):.3f})  "
      f"{100 * (med(py) / med(cli) - 1):+.1f}% vs CLI")
print(f"Python solve_file(threads=1)       CPU {med(pyfile):.3f} s  (min {min(pyfile):.3f})  "
      f"{100 * (med(pyfile) / med(cli) - 1):+.1f}% vs CLI")
for threads in (1, 2):
    w = [wall(puzzles, threads) for _ in range(RUNS)]
    print(f"Python solve(list, threads={threads})      wall {med(w):.3f} s  "
          f"{len(puzzles) / med(w):,.0f} puzzles/s")
