#!/usr/bin/env bash
# `sudoflow rate -j 1` beside Sudoku Explainer 1.2.1.3's batch rater (serate) on
# the same puzzles, in one run (issue 11, "Speed" and "Exactness").
#
# Usage: benches/se_vs_sudoku_explainer.sh SE_CLASSPATH FILE...
#   SE_CLASSPATH: a jar or class folder of SE (1to9only/SudokuExplainer at 729c00e,
#     built outside this project; the class diuf.sudoku.test.serate).
#   FILE: puzzles, one per line, 81 characters first (other text ignored).
#
# Per file: one serate run over the whole file (as a user rates a file: one JVM,
# warmed up as it goes) and one `sudoflow rate -j 1` run, each timed in CPU
# seconds (user + sys: perf's task-clock, else GNU time); puzzles per CPU-second
# for both, SE with its JVM start-up and without it (start-up measured on an
# empty input and subtracted), and the ratio. Then per SE band (the integer
# part of the ER serate printed in this run): SE's seconds are the sum of its
# per-puzzle times (%e, wall, 10 ms steps) inside the whole run, sudoflow's the
# CPU time of `rate -j 1` on that band's puzzles alone. Last column: how many
# of sudoflow's ER, EP, ED equal serate's of this run, per band.
#
# Environment: SUDOFLOW (binary, default target/release/sudoflow, built here),
# RATE_ARGS (extra `rate` options, e.g. `--time-budget 60s`), JAVA (default java).
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n '2,22p' "$0"; exit 2; }
se_cp=$1
shift
cd "$(dirname "$0")/.."
if [[ -z "${SUDOFLOW:-}" ]]; then
    cargo build --release --quiet --bin sudoflow
    SUDOFLOW=target/release/sudoflow
fi
java=${JAVA:-java}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpu() { # cpu OUTFILE CMD... : runs CMD, prints its CPU seconds (user + sys)
    local out=$1
    shift
    if perf stat -x, -e task-clock true 2>/dev/null; then
        perf stat -x, -e task-clock -o "$work/time" "$@" > "$out"
        awk -F, '/task-clock/ {printf "%.4f", $1 / 1000}' "$work/time"
    else
        /usr/bin/time -f '%U %S' -o "$work/time" "$@" > "$out"
        awk '{printf "%.2f", $1 + $2}' "$work/time"
    fi
}

rate() { # rate INPUT OUTPUT.csv : prints sudoflow's CPU seconds
    # shellcheck disable=SC2086
    cpu "$2" "$SUDOFLOW" rate -j 1 -q ${RATE_ARGS:-} "$1"
}

: > "$work/empty.txt"
jvm=$(cpu "$work/empty.out" "$java" -cp "$se_cp" diuf.sudoku.test.serate --input="$work/empty.txt")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
    "$("$java" -version 2>&1 | head -1); sudoflow $("$SUDOFLOW" --version | cut -d' ' -f2)"
echo "SE JVM start-up (serate on an empty input): ${jvm} CPU-s"
for file in "$@"; do
    name=$(basename "$file" .txt)
    grep -v '^#' "$file" | cut -c1-81 | grep -E '^.{81}$' > "$work/in.txt" || true
    se_cpu=$(cpu "$work/se.out" "$java" -cp "$se_cp" diuf.sudoku.test.serate \
        --format='%g %r/%p/%d %e' --input="$work/in.txt")
    sf_cpu=$(rate "$work/in.txt" "$work/sf.csv")
    # Band files from serate's own ratings, and sudoflow's time on each.
    rm -f "$work"/band_*
    awk -v dir="$work" '{ split($2, r, "."); printf "%s\n", $1 > (dir "/band_" sprintf("%02d", r[1])) }' "$work/se.out"
    : > "$work/bands"
    for band_file in "$work"/band_*; do
        band=${band_file##*/band_}
        echo "$band $(rate "$band_file" "$work/band_$band.csv")" >> "$work/bands"
    done
    python3 - "$work" "$name" "$se_cpu" "$sf_cpu" "$jvm" <<'EOF'
import csv, re, sys
work, name, se_cpu, sf_cpu, jvm = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])

def secs(e):  # serate's %e: 0.25s, 1m17s, 2h05m, 1d03h
    m = re.fullmatch(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:([\d.]+)s)?", e)
    d, h, mi, s = (float(x) if x else 0.0 for x in m.groups())
    return ((d * 24 + h) * 60 + mi) * 60 + s

se = []  # (puzzle, [er, ep, ed], seconds)
for line in open(f"{work}/se.out"):
    p, r, e = line.split()
    se.append((p, r.split("/"), secs(e)))
sf = [[r["er"], r["ep"], r["ed"]] for r in csv.DictReader(open(f"{work}/sf.csv"))]
n = len(se)
ex = max(se_cpu - jvm, 1e-9)
print(f"\n{name}: {n} puzzles")
print(f"  whole file: SE {se_cpu:.2f} CPU-s = {n / se_cpu:.1f} puzzles/CPU-s "
      f"({n / ex:.1f} without the JVM start-up); sudoflow {sf_cpu:.3f} CPU-s = "
      f"{n / sf_cpu:.0f} puzzles/CPU-s; ratio {se_cpu / sf_cpu:.0f}x ({ex / sf_cpu:.0f}x)")
print(f"  {'band':>4} {'n':>5} | {'SE s':>8} {'SE p/s':>8} | {'sf CPU-s':>9} {'sf p/s':>8} | {'ratio':>6} | ER/EP/ED exact")
bands = {}
for line in open(f"{work}/bands"):
    b, t = line.split()
    bands[b] = float(t)
for b in sorted(bands):
    rows = [(s, f) for s, f in zip(se, sf) if f"{int(s[1][0].split('.')[0]):02d}" == b]
    k = len(rows)
    se_s = sum(s[2] for s, _ in rows)
    exact = [sum(s[1][i] == f[i] for s, f in rows) for i in range(3)]
    all3 = sum(s[1] == f for s, f in rows)
    t = bands[b]
    ratio = f"{se_s / t:6.0f}" if t > 0 and se_s > 0 else "     -"
    print(f"  {b:>4} {k:5} | {se_s:8.2f} {k / se_s if se_s else float('inf'):8.1f} | {t:9.3f} "
          f"{k / t if t else float('inf'):8.0f} | {ratio} | {exact[0]}/{exact[1]}/{exact[2]}, all three {all3} of {k}")
wrong = [(s[0], s[1], f) for s, f in zip(se, sf) if s[1] != f]
for p, a, b in wrong[:20]:
    print(f"  differs: {p} SE {'/'.join(a)} sudoflow {'/'.join(b)}")
EOF
done
