"""Shared fixtures: the repository's datasets and the CLI binary to compare with."""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def dataset(name: str) -> pathlib.Path:
    """A public dataset from datasets/ (`make datasets`), or skip unless it must exist."""
    for d in (ROOT / "datasets", ROOT.parent / "shared" / "datasets"):
        p = d / f"{name}.txt"
        if p.exists():
            return p
    if os.environ.get("SUDOFLOW_ALLOW_MISSING_DATASETS") == "1":
        pytest.skip(f"dataset {name} missing (run `make datasets`)")
    raise FileNotFoundError(f"dataset {name} missing: run `make datasets`")


def puzzles(name: str, n=None):
    """The first n puzzle lines of a dataset (comments and blanks skipped)."""
    out = []
    with open(dataset(name)) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line.split()[0].split(":")[0].split(",")[0])
                if n is not None and len(out) == n:
                    break
    return out


@pytest.fixture(scope="session")
def cli():
    """Runs the sudoflow CLI (SUDOFLOW_BIN, else target/release, else PATH)."""
    exe = os.environ.get("SUDOFLOW_BIN")
    if not exe:
        for profile in ("release", "ci"):
            p = ROOT / "target" / profile / "sudoflow"
            if p.exists():
                exe = str(p)
                break
    exe = exe or shutil.which("sudoflow")
    if not exe:
        pytest.fail("no sudoflow binary: run `cargo build --release` or set SUDOFLOW_BIN")

    def run(*args, stdin=None):
        r = subprocess.run(
            [exe, *map(str, args)], input=stdin, capture_output=True, text=True, check=False
        )
        assert r.returncode == 0, r.stderr
        return r.stdout

    run.exe = exe
    return run


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "packaging: builds a wheel, a packed venv and a Spark cluster (minutes); "
        "make test-python-fresh runs it, make test leaves it out")
