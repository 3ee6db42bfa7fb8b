#!/usr/bin/env bash
# `make test-python-fresh`: the package as a user installs it. A fresh venv
# with only pip (target/py-fresh/venv), `pip install -v ./python` from the
# repository root exactly as the README says (a cold build in its own target
# directory, timed), the libraries the examples use, then every example of
# the README's Python sections (python/tests/test_readme.py: the Python
# blocks, the packed venv on spark-submit, mypy) with that venv's Python.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${FRESH_DIR:-$root/target/py-fresh}
rm -rf "$work"
mkdir -p "$work"
${PYTHON:-python3} -m venv "$work/venv"
"$work/venv/bin/pip" list --format=freeze
cd "$root"
export CARGO_TARGET_DIR="$work/target"
start=$(date +%s)
"$work/venv/bin/pip" install -v ./python > "$work/install.log" 2>&1 \
    || { tail -50 "$work/install.log"; exit 1; }
echo "fresh venv: pip install -v ./python took $(( $(date +%s) - start )) s (log: $work/install.log)"
grep -E 'Built wheel|Successfully installed' "$work/install.log"
"$work/venv/bin/pip" install -q pytest maturin polars pandas pyspark 'dask[dataframe]' \
    distributed tqdm venv-pack mypy pyarrow-stubs pandas-stubs
# The packaging test builds its wheel with the package's own profile, in
# the target directory the install above filled.
SUDOFLOW_BIN=${SUDOFLOW_BIN:-$root/target/release/sudoflow} SPARK_LOCAL_IP=127.0.0.1 \
    MATURIN_PEP517_ARGS=" " "$work/venv/bin/python" -m pytest -q -rs python/tests/test_readme.py
