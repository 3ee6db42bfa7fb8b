"""Ctrl-C stops a long call (issue 31, defect 7: it did nothing until the
call returned, which for a rate of many hard puzzles is hours).

Each case runs a call that would take far longer than the test's guard in
a child Python, sends it SIGINT once the call has started, and checks that
the call raised KeyboardInterrupt and that sudoflow still works after it.
The counts of the empty grid run for ever on one record: only the
library's stop flag, which the searches check every millisecond or so,
ends them (the workers' own flag is checked between records). The guard
only catches a hang; nothing here is timed.
"""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import dataset

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT")

CHILD = r"""
import sys
import sudoflow

hard = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
print("start", flush=True)
try:
    CALL
except KeyboardInterrupt:
    print("interrupted", flush=True)
    easy = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    assert sudoflow.solve([easy] * 3, threads=2)["status"].to_pylist() == ["unique"] * 3
    print("still works", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""

# Calls that run for hours (hundreds of hard puzzles rated many times over,
# a million puzzles generated, billions of solutions counted).
CALLS = {
    "rate": "sudoflow.rate(hard * 50, threads=2)",
    "rate one thread": "sudoflow.rate(hard * 50, threads=1)",
    "solve": "sudoflow.solve(hard * 20000, threads=2, se=True)",
    "count": "sudoflow.count(['.' * 81] * 4, threads=2)",
    "generate": "sudoflow.generate(10**7, seed=1, se=(9.0, 12.0), threads=2)",
    "rate_file": "sudoflow.rate_file([sys.argv[1]] * 50, threads=2, batch_rows=10**6).read_all()",
    "explain": "[sudoflow.explain(p, time_budget=3600) for p in hard * 50]",
    "count_file": "import tempfile; p = tempfile.mktemp(); open(p, 'w').write('.' * 81 + '\\n');"
                  " sudoflow.count_file(p, threads=2).read_all()",
}


def run_child(code, tmp_path, signal_it=True):
    """Runs `code` in a child Python given hardest_1106's path; once it
    prints `start`, waits half a second (inside the call) and sends SIGINT
    unless told not to. Returns (returncode, the rest of stdout, stderr);
    a child that has not ended 60 s later (a call that ignored the signal)
    fails the test. Nothing is timed."""
    script = tmp_path / "child.py"
    script.write_text(code)
    child = subprocess.Popen(
        [sys.executable, str(script), str(dataset("puzzles6_forum_hardest_1106"))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "start\n"
        if signal_it:
            time.sleep(0.5)  # inside the call
            child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, out, err


@pytest.mark.parametrize("name", CALLS)
def test_ctrl_c_stops_a_long_call(name, tmp_path):
    code, out, err = run_child(CHILD.replace("CALL", CALLS[name]), tmp_path)
    assert code == 3, (out, err)
    assert out == "interrupted\nstill works\n", (out, err)


OTHER_THREAD = r"""
import threading
import sudoflow

empty = "." * 81
got = {}
def other():
    try:
        got["table"] = sudoflow.count([empty] * 2, threads=1)
    except KeyboardInterrupt as e:
        got["error"] = str(e)
t = threading.Thread(target=other)
t.start()
print("start", flush=True)
try:
    sudoflow.count([empty], threads=1)
except KeyboardInterrupt:
    print("interrupted", flush=True)
t.join()
print(sorted(got), got.get("error", ""), flush=True)
print(sudoflow.count(["1" + "." * 80], limit=5)["status"].to_pylist(), flush=True)
"""


def test_ctrl_c_stops_the_calls_of_other_threads_too(tmp_path):
    # The library's stop flag is the process's: a call in another thread is
    # cut short too and must say so, not return rows cut short (the empty
    # grid's counts with status `timeout`); later calls run as usual.
    code, out, err = run_child(OTHER_THREAD, tmp_path)
    assert code == 0, (out, err)
    lines = out.splitlines()
    assert lines[0] == "interrupted", (out, err)
    assert lines[1].startswith("['error'] stopped: another sudoflow call was interrupted"), out
    assert lines[2] == "['capped']", (out, err)


RAISING_PROGRESS = r"""
import sys
import sudoflow

def report(done, total):
    raise RuntimeError("enough")

# Puzzles done at once (so that progress moves and the callback is called),
# then the empty grid.
easy = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
puzzles = [easy] * 1000 + ["." * 81]
with open("puzzles.txt", "w") as f:
    f.write("\n".join(puzzles) + "\n")
print("start", flush=True)
try:
    CALL
except RuntimeError as e:
    print("raised", e, flush=True)
print(sudoflow.count(["1" + "." * 80], limit=5)["status"].to_pylist(), flush=True)
"""


@pytest.mark.parametrize("call", [
    "sudoflow.count(puzzles, threads=2, progress=report)",
    "sudoflow.count_file('puzzles.txt', threads=2, batch_rows=10**6, progress=report).read_all()",
])
def test_an_exception_from_progress_stops_a_record_that_runs_for_ever(call, tmp_path,
                                                                       monkeypatch):
    # The callback's exception stops the searches as Ctrl-C does: the empty
    # grid, counted with no cap, would run for ever.
    monkeypatch.chdir(tmp_path)
    code, out, err = run_child(RAISING_PROGRESS.replace("CALL", call), tmp_path,
                               signal_it=False)
    assert (code, out) == (0, "raised enough\n['capped']\n"), (out, err)


LARGE_GENERATE = r"""
import resource
import sudoflow

print("start", flush=True)
try:
    sudoflow.generate(10**8, seed=1, threads=2)
except KeyboardInterrupt:
    print("interrupted", flush=True)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, flush=True)
"""


def test_a_large_generate_holds_rows_not_searches_and_stops_at_once(tmp_path):
    # generate(n) made every puzzle's search state before its first row:
    # room for n of them reserved at once (30 GB for 10**8) and, on Ctrl-C,
    # written for every index left (seconds, gigabytes). Now a chunk of
    # indices at a time, the rows to the table as they come.
    code, out, err = run_child(LARGE_GENERATE, tmp_path)
    assert code == 0, (out, err)
    interrupted, rss_mb = out.split()
    assert interrupted == "interrupted"
    assert int(rss_mb) < 1000, out


DROPPED_READER = r"""
import gc
import threading
import time
import sudoflow

with open("empty.txt", "w") as f:
    f.write("." * 81 + "\n")
got = {}
def other():
    # Another call under way while the reader is dropped goes on.
    got["statuses"] = sudoflow.count(["1" + "." * 80] * 3, limit=5, threads=1)["status"].to_pylist()
print("start", flush=True)
reader = sudoflow.count_file("empty.txt", threads=THREADS)
time.sleep(0.5)  # inside the empty grid's count, which never ends
t = threading.Thread(target=other)
t.start()
DROP
gc.collect()
t.join()
# The search under way stops too: no core stays busy. (A dropped reader's
# search used a core for as long as the process lived: 1 CPU-s a second.)
time.sleep(0.5)
cpu = time.process_time()
time.sleep(1)
print(time.process_time() - cpu < 0.5, got["statuses"], flush=True)
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_a_dropped_file_reader_stops_the_search_under_way(threads, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # (pyarrow's close() of a reader made from batches does nothing: the
    # run stops when the reader is dropped.)
    code = DROPPED_READER.replace("THREADS", str(threads)).replace("DROP", "del reader")
    rc, out, err = run_child(code, tmp_path, signal_it=False)
    assert (rc, out) == (0, "True ['capped', 'capped', 'capped']\n"), (out, err)
