#!/usr/bin/env bash
# Rated puzzles per CPU-second from `sudoflow generate --se MIN..MAX`, per
# Sudoku Explainer band (issue 11): minimal puzzles, no symmetry, `-j 1`.
#
#   benches/generate_se.sh                 # bands 1-9, seed 2026
#   SEED=7 BANDS="7 8" benches/generate_se.sh
#
# Per band B the range is B.0..B.9 and the count N_B (more for common bands,
# fewer for rare ones; override with N=...). Prints the puzzles made, CPU
# seconds (user + sys: perf's task-clock, else GNU time), puzzles per
# CPU-second, and how many of them `rate` rates inside the band. Then checks
# that `-j 2` writes the same bytes as `-j 1` for the last band.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=${SEED:-2026}
BANDS=${BANDS:-1 2 3 4 5 6 7 8 9}
cargo build --release --quiet --bin sudoflow
bin=target/release/sudoflow
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=benches/cpu_seconds.sh
source benches/cpu_seconds.sh

count_for() { # default puzzles per band: rare bands get fewer
    case $1 in
        1 | 2) echo 2000 ;;
        3 | 4 | 6 | 7) echo 500 ;;
        5) echo 200 ;;
        8) echo 50 ;;
        *) echo 5 ;;
    esac
}

echo "sudoflow $(git rev-parse --short HEAD), seed $SEED, $(nproc) cores," \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
printf '%-5s %-9s %7s %9s %12s %s\n' band range puzzles CPU-s puzzles/CPU-s "ER of every puzzle in range (rate)"
for b in $BANDS; do
    n=${N:-$(count_for "$b")}
    range="$b.0..$b.9"
    secs=$(cpu "$work/gen_$b.csv" "$bin" generate -n "$n" --seed "$SEED" --se "$range" -j 1 -q)
    made=$(($(wc -l < "$work/gen_$b.csv") - 1))
    "$bin" rate -q "$work/gen_$b.csv" -o "$work/rate_$b.csv" || true
    inside=$(python3 - "$work/rate_$b.csv" "$b" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
b = int(sys.argv[2])
ok = sum(1 for r in rows if r["status"] == "rated" and int(float(r["er"])) == b)
print(f"{ok} of {len(rows)}")
EOF
)
    rate=$(awk -v n="$made" -v s="$secs" 'BEGIN { printf "%.1f", n / s }')
    printf '%-5s %-9s %7s %9s %12s %s\n' "$b" "$range" "$made" "$secs" "$rate" "$inside"
done
b=$(echo "$BANDS" | awk '{print $NF}')
n=${N:-$(count_for "$b")}
"$bin" generate -n "$n" --seed "$SEED" --se "$b.0..$b.9" -j 2 -q > "$work/gen_j2.csv"
if cmp -s "$work/gen_$b.csv" "$work/gen_j2.csv"; then
    echo "band $b: -j 2 output identical to -j 1"
else
    echo "band $b: -j 2 output DIFFERS from -j 1" >&2
    exit 1
fi
