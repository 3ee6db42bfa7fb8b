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
# warmed up as it goes) and `sudoflow rate -j 1` (the median of three runs,
# since its runs last milliseconds to seconds on a VM whose speed drifts), each timed in CPU
# seconds (user + sys of every thread: perf's task-clock, else GNU time);
# puzzles per CPU-second for both, SE with its start-up and without it, and
# the ratio. SE's start-up is serate's CPU time on one puzzle solved by hidden
# singles (1.5) (JVM start, class loading, one cold rating), so "without start-up"
# slightly favours SE. Then per SE band (the integer part of the ER serate
# printed in this run): serate once more and `sudoflow rate -j 1` (median of 3) on
# that band's puzzles alone (CPU seconds, ratio with and without SE's
# start-up); beside them, for the warmed-up view, the sum of SE's per-puzzle
# times inside the whole-file run (%e: wall, 10 ms steps). Last: how many of
# sudoflow's ER, EP, ED equal serate's of this run, per band, and the
# confusion table of ER bands (rows SE, columns sudoflow).
#
# Environment: SUDOFLOW (binary, default target/release/sudoflow, built here),
# RATE_ARGS (extra `rate` options, e.g. `--time-budget 60s`), JAVA (default java).
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n '2,25p' "$0"; exit 2; }
se_cp=$1
shift
cd "$(dirname "$0")/.."
# shellcheck source=benches/sets.sh
source benches/sets.sh
SUDOFLOW=$(sudoflow_binary)
java=${JAVA:-java}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=benches/cpu_seconds.sh
source benches/cpu_seconds.sh

rate() { # rate INPUT OUTPUT.csv : prints sudoflow's CPU seconds, median of 3 runs
    local t
    t=$(for _ in 1 2 3; do
        # shellcheck disable=SC2086
        cpu "$2" "$SUDOFLOW" rate -j 1 -q ${RATE_ARGS:-} "$1"
        echo
    done | sort -g | sed -n 2p)
    echo "$t"
}

# SE's start-up: one puzzle rated 1.5 (hidden singles only).
echo '.....9..5.1.5..24...3.1...7.487.....29.85..3..7.962....3.......1.....5..4.....8..' > "$work/one.txt"
jvm=$(cpu "$work/one.out" "$java" -cp "$se_cp" diuf.sudoku.test.serate --input="$work/one.txt")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
    "$("$java" -version 2>&1 | head -1); sudoflow $("$SUDOFLOW" --version | cut -d' ' -f2)"
echo "SE start-up (serate on one puzzle rated 1.5): ${jvm} CPU-s"
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
        band_se=$(cpu "$work/band_se.out" "$java" -cp "$se_cp" diuf.sudoku.test.serate \
            --format='%g' --input="$band_file")
        echo "$band $(rate "$band_file" "$work/band_$band.csv") $band_se" >> "$work/bands"
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
def g(x):  # puzzles per second: whole above 100, else 3 significant digits
    return f"{x:.0f}" if x >= 100 else f"{x:.3g}"
print(f"\n{name}: {n} puzzles")
print(f"  whole file: SE {se_cpu:.2f} CPU-s = {g(n / se_cpu)} puzzles/CPU-s "
      f"({g(n / ex)} without start-up); sudoflow {sf_cpu:.3f} CPU-s = "
      f"{g(n / sf_cpu)} puzzles/CPU-s; ratio {se_cpu / sf_cpu:.0f}x ({ex / sf_cpu:.0f}x)")
print(f"  {'band':>4} {'n':>5} | {'SE CPU-s':>8} {'p/s':>7} {'-start':>7} | {'sf CPU-s':>8} {'p/s':>7}"
      f" | {'ratio':>5} {'-start':>6} | {'SE %e':>7} {'ratio':>5} | ER/EP/ED exact")
bands = {}
for line in open(f"{work}/bands"):
    b, t, s = line.split()
    bands[b] = (float(t), float(s))
band_of = lambda r: int(r.split(".")[0])
for b in sorted(bands):
    rows = [(s, f) for s, f in zip(se, sf) if f"{band_of(s[1][0]):02d}" == b]
    k = len(rows)
    t, s_cpu = bands[b]
    s_ex = s_cpu - jvm  # not measurable where start-up is most of it
    ex_ps, ex_ratio = (f"{g(k / s_ex):>7}", f"{s_ex / t:6.0f}") if s_ex > 0.5 * s_cpu else (f"{'-':>7}", f"{'-':>6}")
    se_e = sum(s[2] for s, _ in rows)
    exact = [sum(s[1][i] == f[i] for s, f in rows) for i in range(3)]
    all3 = sum(s[1] == f for s, f in rows)
    print(f"  {b:>4} {k:5} | {s_cpu:8.2f} {g(k / s_cpu):>7} {ex_ps} | {t:8.3f} {g(k / t):>7}"
          f" | {s_cpu / t:5.0f} {ex_ratio} | {se_e:7.2f} {se_e / t:5.0f} | "
          f"{exact[0]}/{exact[1]}/{exact[2]}, all three {all3} of {k}")
cols = sorted({band_of(f[0]) for f in sf if f[0]} | {band_of(s[1][0]) for s in se})
print("  ER band confusion (rows SE, columns sudoflow):")
print("  SE\\sf " + " ".join(f"{c:>5}" for c in cols))
for r in cols:
    row = [sum(1 for s, f in zip(se, sf) if band_of(s[1][0]) == r and f[0] and band_of(f[0]) == c) for c in cols]
    if sum(row):
        print(f"  {r:>5} " + " ".join(f"{x:>5}" for x in row))
wrong = [(s[0], s[1], f) for s, f in zip(se, sf) if s[1] != f]
for p, a, b in wrong[:20]:
    print(f"  differs: {p} SE {'/'.join(a)} sudoflow {'/'.join(b)}")
EOF
done
