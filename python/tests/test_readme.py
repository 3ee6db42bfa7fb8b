"""Every example of the README's Python sections, run as a user would run it
(issue 31: its first example failed on the file it named, and its venv-pack
command on any venv).

Each ```python block of README.md runs as a script of its own, in a fresh
interpreter (this test's), in a folder holding the files the examples name:
`sudoku.csv` (Kaggle's format: 0 blanks, `quizzes,solutions`), `sudoku/*.csv`,
`huge.txt.gz`, `sudoku-3m.zip` (Kaggle's 3M set's format), `a.txt`,
`b.txt.gz`. A comment line `# sudoflow ...` in a block is a command run at
that point (the CLI, as the README says to run it). The ```sh blocks of the
Python sections are run too (the packaging commands, with the build profile
of `make test` so that the wheel reuses its build; `make test-python-fresh`
runs them with the package's own), and mypy checks the Python blocks against
the package's stubs.
"""

import csv
import gzip
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, puzzles

README = (ROOT / "README.md").read_text()


def blocks(lang, text):
    """(first line number, code) of each ```lang block of `text`."""
    out = []
    for m in re.finditer(rf"^```{lang}\n(.*?)^```$", text, re.S | re.M):
        out.append((text[: m.start()].count("\n") + 2, m.group(1)))
    return out


def python_sections():
    """The README's Python sections: "## Python" and "## Beyond one machine"."""
    start = README.index("\n## Python\n")
    return README[start:]


def the_files(folder):
    """The files the examples read, small: 300 puzzles of the 17-clue set."""
    import sudoflow

    lines = puzzles("puzzles2_17_clue", 300)
    solved = sudoflow.solve(lines)["solution"].to_pylist()
    kaggle = [(p.replace(".", "0"), s) for p, s in zip(lines, solved)]

    def write_csv(path, rows, header):
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)

    write_csv(folder / "sudoku.csv", kaggle, ["quizzes", "solutions"])
    (folder / "sudoku").mkdir()
    write_csv(folder / "sudoku" / "a.csv", kaggle[:150], ["quizzes", "solutions"])
    write_csv(folder / "sudoku" / "b.csv", kaggle[150:], ["quizzes", "solutions"])
    text = "# a comment\n" + "\n".join(lines) + "\n"
    (folder / "a.txt").write_text(text)
    with gzip.open(folder / "huge.txt.gz", "wt") as f:
        f.write(text)
    shutil.copy(folder / "huge.txt.gz", folder / "b.txt.gz")
    member = "id,puzzle,solution,clues,difficulty\n" + "".join(
        f"{i},{p},{s},17,0.0\n" for i, (p, s) in enumerate(zip(lines, solved)))
    with zipfile.ZipFile(folder / "sudoku-3m.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("sudoku-3m.csv", member)
    return lines


def cli_exe():
    exe = os.environ.get("SUDOFLOW_BIN") or str(ROOT / "target" / "release" / "sudoflow")
    assert Path(exe).exists(), "no sudoflow binary: cargo build --release"
    return exe


def run_block(code, folder, env=None):
    """Runs a README block in `folder`: its `# sudoflow ...` comment lines as
    CLI commands, the Python between them as scripts of one interpreter."""
    parts = re.split(r"^# (sudoflow .*)$", code, flags=re.M)
    script = ""
    for i, part in enumerate(parts):
        if i % 2 == 1:
            # Run what comes before, then the command.
            if script.strip():
                python(script, folder, env)
                script = ""
            args = shlex.split(part)
            subprocess.run([cli_exe(), *args[1:]], cwd=folder, check=True)
        else:
            script += part
    if script.strip():
        # The earlier parts are run again with it: they define its names.
        python("".join(parts[0::2]), folder, env)


def python(code, folder, env=None):
    r = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True,
                       env={**os.environ, **(env or {})}, timeout=900)
    assert r.returncode == 0, f"{code}\n--- stdout\n{r.stdout}\n--- stderr\n{r.stderr}"
    return r


EXAMPLES = [b for b in blocks("python", README)]


@pytest.mark.parametrize("line,code", EXAMPLES, ids=[f"README.md:{n}" for n, _ in EXAMPLES])
def test_readme_python_example_runs(line, code, tmp_path):
    the_files(tmp_path)
    env = {"PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable,
           "SPARK_LOCAL_IP": os.environ.get("SPARK_LOCAL_IP", "127.0.0.1")}
    if "dask" in code:
        # A LocalCluster of two workers, as on a 2-core machine.
        code = code.replace("client = Client()", "client = Client(n_workers=2, "
                            "threads_per_worker=1, dashboard_address=None)")
    run_block(code, tmp_path, env)
    if "to_parquet(\"solved/\")" in code or "write.parquet" in code:
        import pyarrow.parquet as pq

        out = pq.read_table(tmp_path / ("solved" if "dask" in code else "solved.parquet"))
        assert out.num_rows == 300
        assert set(out["sf_status"].to_pylist()) == {"unique"}
        assert {Path(s).name for s in out["sf_source"].to_pylist()} == {"a.csv", "b.csv"}


def test_every_example_is_found():
    """The sections hold the examples the tests above run: a block the
    pattern missed would go untested."""
    sections = python_sections()
    assert sections.count("```python") == len(blocks("python", sections)) >= 4
    assert README.count("```python") == len(EXAMPLES)
    assert sections.count("```sh") == len(blocks("sh", sections)) == 2


def sh_commands():
    """The commands of the Python sections' ```sh blocks, comments dropped,
    continued lines joined."""
    out = []
    for _, code in blocks("sh", python_sections()):
        for line in code.replace("\\\n", " ").splitlines():
            line = " ".join(line.split(" #", 1)[0].split())
            if line:
                out.append(line)
    return out


def test_the_install_commands_are_the_ones_make_test_python_fresh_runs():
    """`pip install ./python` (and -v) build the package from scratch, which
    `make test-python-fresh` does (python/tests/fresh_venv.sh): it runs
    exactly these lines."""
    install = [c for c in sh_commands() if c.startswith("pip install")]
    assert install == ["pip install ./python", "pip install -v ./python"]
    script = (ROOT / "python" / "tests" / "fresh_venv.sh").read_text()
    assert "pip install -v ./python" in script


def test_the_readme_wheel_is_abi3_with_a_manylinux_tag_maturin_checked(tmp_path):
    """The README's `pip wheel` makes one wheel for CPython 3.9 and later
    (cp39-abi3) tagged with the lowest manylinux tag its glibc symbols allow
    (maturin audits them; without `--compatibility pypi` pip's build tags it
    plain `linux_x86_64`). Built with make test's profile, whose build it
    reuses."""
    wheel = [c for c in sh_commands() if c.startswith("pip wheel")]
    assert len(wheel) == 1 and "--compatibility pypi" in wheel[0]
    args = shlex.split(wheel[0].replace("./python", str(ROOT / "python")))
    args = [a + " --profile ci" if a.startswith("maturin.build-args=") else a for a in args]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
           "CARGO_TARGET_DIR": os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))}
    r = subprocess.run([sys.executable, "-m", *args, "--no-build-isolation"], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    names = [w.name for w in (tmp_path / "dist").glob("*.whl")]
    assert len(names) == 1 and re.fullmatch(
        r"sudoflow-[0-9.]+-cp39-abi3-manylinux_2_[0-9]+_x86_64\.whl", names[0]), names


@pytest.mark.packaging
def test_packed_venv_runs_on_spark(tmp_path):
    """The packaging commands, as the README gives them: a wheel, a venv
    packed with venv-pack, and spark-submit with it as an archive (was:
    `venv-pack -o` fails outside an activated venv). Spark's master is the
    cluster's: here `local-cluster`, whose executors are JVMs of their own
    that unpack the archive in their work folders as a cluster's do (in
    `local` mode the tasks run beside the driver and never see it). `make
    test-python-fresh` runs this; `make test` leaves it out (a wheel, a venv
    with pyarrow and pandas, and a Spark cluster: minutes)."""
    commands = [c for c in sh_commands() if not c.startswith("pip install")]
    assert commands[0].startswith("pip wheel --no-deps ./python -w dist/")
    the_files(tmp_path)
    (tmp_path / "app.py").write_text(APP)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
           "SPARK_LOCAL_IP": "127.0.0.1",
           # The wheel from make test's build (profile ci, its target dir),
           # not a second optimised build of every crate.
           "MATURIN_PEP517_ARGS": os.environ.get("MATURIN_PEP517_ARGS", "--profile ci"),
           "CARGO_TARGET_DIR": os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))}
    env.pop("PYSPARK_PYTHON", None)
    env.pop("PYSPARK_DRIVER_PYTHON", None)
    # The wheel's build needs the workspace: build it from the repository.
    wheel = commands[0].replace("./python", str(ROOT / "python"))
    submit = commands[-1].replace("spark-submit ", "spark-submit --master 'local-cluster[1,1,1024]' ")
    steps = [wheel + " --no-build-isolation"] + commands[1:-1] + [submit]
    for step in steps:
        r = subprocess.run(step, shell=True, cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=1800)
        assert r.returncode == 0, f"{step}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert list((tmp_path / "dist").glob("sudoflow-*-cp39-abi3-manylinux_*.whl"))
    assert (tmp_path / "env.tar.gz").stat().st_size > 0
    assert "sudoflow ran on the packed venv: 300 unique" in r.stdout, r.stdout + r.stderr


# The app spark-submit runs: the README's Spark example on the local files,
# checking that the executors' Python is the packed venv's.
APP = """
import sys
from pyspark.sql import SparkSession
import sudoflow.spark

spark = SparkSession.builder.config("spark.ui.enabled", "false").getOrCreate()
df = spark.read.csv("sudoku/*.csv", header=True)
out = sudoflow.spark.solve(df, column="quizzes", prefix="sf_")
where = out.rdd.map(lambda r: __import__("sys").executable).distinct().collect()
assert all("/env/bin/python" in w for w in where), where
n = out.where("sf_status = 'unique'").count()
print(f"sudoflow ran on the packed venv: {n} unique")
spark.stop()
"""


def test_readme_examples_type_check(tmp_path):
    """mypy finds no error in the README's Python blocks against the
    package's stubs (pyarrow's and pandas' stubs installed)."""
    pytest.importorskip("mypy")
    for k, (line, code) in enumerate(EXAMPLES):
        (tmp_path / f"example_{k}_line_{line}.py").write_text(re.sub(r"^# sudoflow .*$", "",
                                                                       code, flags=re.M))
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / "target" / "mypy-cache"),
         "--follow-imports=silent", "--ignore-missing-imports", str(tmp_path)],
        capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
