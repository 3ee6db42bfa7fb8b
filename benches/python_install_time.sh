#!/usr/bin/env bash
# The wall time of a cold `pip install -v ./python` (issue 31): the commit's
# source (`git archive HEAD`), optionally with a patch applied (another
# [profile.python], say), installed into a fresh venv with only pip and a
# fresh CARGO_TARGET_DIR, under `nice -n 5`. Prints the seconds and the load.
#
# Usage: benches/python_install_time.sh NAME [PATCH]   (work in ${WORK:-/tmp/prof}/NAME)
# The package lands in WORK/NAME/venv: benches/python_profiles.py times its
# site-packages.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=$1; patch=${2:-}
work=${WORK:-/tmp/prof}
src=$work/src-$name
rm -rf "$src" "${work:?}/$name"
mkdir -p "$src" "$work/$name"
git -C "$root" archive HEAD | tar -x -C "$src"
if [ -n "$patch" ]; then (cd "$src" && patch -p1 -s < "$patch"); fi
python3 -m venv "$work/$name/venv"
# maturin (the build dependency) fetched before the clock starts.
"$work/$name/venv/bin/pip" download -q -d "$work/$name/dl" 'maturin>=1.5,<2' > /dev/null 2>&1 || true
cd "$src"
export CARGO_TARGET_DIR=$work/$name/target
start=$(date +%s.%N)
nice -n 5 "$work/$name/venv/bin/pip" install -v ./python > "$work/$name/install.log" 2>&1
end=$(date +%s.%N)
echo "$name: pip install -v ./python wall $(echo "$end - $start" | bc) s; load $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E "Finished|Built wheel" "$work/$name/install.log" | tail -2
