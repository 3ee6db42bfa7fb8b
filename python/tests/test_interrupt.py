"""Ctrl-C stops a long call (issue 31, defect 7: it did nothing until the
call returned, which for a rate of many hard puzzles is hours).

Each case runs a call that would take far longer than the test's guard in
a child Python, sends it SIGINT once the call has started, and checks that
the call raised KeyboardInterrupt and that sudoflow still works after it.
The guard only catches a hang; nothing here is timed.
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
}


@pytest.mark.parametrize("name", CALLS)
def test_ctrl_c_stops_a_long_call(name, tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD.replace("CALL", CALLS[name]))
    child = subprocess.Popen(
        [sys.executable, str(script), str(dataset("puzzles6_forum_hardest_1106"))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "start\n"
        time.sleep(0.5)  # inside the call
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 3, (out, err)
    assert out == "interrupted\nstill works\n", (out, err)
