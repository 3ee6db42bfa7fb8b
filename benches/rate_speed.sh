#!/usr/bin/env bash
# The rater's speed targets (issue 33, point 1), for one or more sudoflow
# binaries side by side, in CPU seconds (perf's task-clock, else GNU time):
#
# 1. `rate -j 1 -q` on whole files: se_random_minimal_2000 (random minimal),
#    se_hard_300 (ER 8-9.x) and se_hard_9x_103 (ER 8.9-9.x), in interleaved
#    rounds (each round runs every binary once on each file, so a VM whose
#    speed drifts slows all alike); the median round, and puzzles per CPU-s;
#    and how many rows of the last round equal SE's ER/EP/ED in the file.
# 2. The 60-puzzle sample of hardest_1106 (every 6th record from the first:
#    records 1, 7, ..., 355), one `rate -j 1` process per puzzle at the
#    default budget, the binaries in turn on each puzzle (so that a drift of
#    the host's speed falls on all alike): each puzzle's CPU seconds and status (rated or
#    timeout); rated count, timeouts, the total and the five slowest, and
#    how many puzzles rated by both this binary and the first differ.
# Targets (issue 33): random minimal >= 3,000 and ER 8-9 (se_hard_300) >= 250
# puzzles per CPU-s; the sample all rated, the five slowest <= 26 CPU-s.
#
# Usage: benches/rate_speed.sh [-r ROUNDS] [-s] BINARY...   (default 3 rounds)
#   -s: skip part 2 (it takes minutes per binary).
# Environment: SE_DIR (default ../shared/datasets/se), HARDEST (default
# ../shared/datasets/puzzles6_forum_hardest_1106.txt), RATE_ARGS (extra
# `rate` options for both parts, e.g. `--time-budget 60s`).
set -euo pipefail
rounds=3
sample=1
while getopts "r:s" opt; do
    case $opt in
    r) rounds=$OPTARG ;;
    s) sample=0 ;;
    *) sed -n '2,24p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 ]] || { sed -n '2,24p' "$0"; exit 2; }
cd "$(dirname "$0")/.."
se=${SE_DIR:-../shared/datasets/se}
hardest=${HARDEST:-../shared/datasets/puzzles6_forum_hardest_1106.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=benches/cpu_seconds.sh
source benches/cpu_seconds.sh

echo "machine: $(nproc) vCPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
    "load at start $(cut -d' ' -f1-3 /proc/loadavg)"
files=(se_random_minimal_2000 se_hard_300 se_hard_9x_103)
for ((r = 0; r < rounds; r++)); do
    for f in "${files[@]}"; do
        for ((b = 1; b <= $#; b++)); do
            # shellcheck disable=SC2086
            cpu "$work/out.$f.$b" "${!b}" rate -j 1 -q ${RATE_ARGS:-} "$se/$f.txt" >> "$work/$f.$b"
            echo >> "$work/$f.$b"
        done
    done
done
printf '%-24s %8s' file puzzles
for ((b = 1; b <= $#; b++)); do printf ' | %-30s' "$(basename "${!b}"): CPU-s, /CPU-s, =SE"; done
echo
for f in "${files[@]}"; do
    n=$(grep -cv '^#' "$se/$f.txt")
    printf '%-24s %8d' "$f" "$n"
    for ((b = 1; b <= $#; b++)); do
        med=$(sort -g "$work/$f.$b" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
        same=$(paste -d' ' <(grep -v '^#' "$se/$f.txt" | sed 's/.*ED=//') \
            <(awk -F, 'NR > 1 { print ($3 == "rated" ? $4 "/" $5 "/" $6 : $3) }' "$work/out.$f.$b") |
            awk '$1 == $2' | wc -l)
        printf ' | %8.3f %8.0f %11s' "$med" "$(echo "$n / $med" | bc -l)" "$same/$n"
    done
    echo "   (median of $rounds rounds)"
done
[[ $sample == 1 ]] || exit 0

grep -v '^#' "$hardest" | awk 'NR % 6 == 1' | head -60 > "$work/sample.txt"
echo
echo "hardest_1106 sample: $(wc -l < "$work/sample.txt") puzzles, one process each, the binaries in turn on each puzzle"
for ((b = 1; b <= $#; b++)); do
    : > "$work/sample.$b"
done
i=0
while read -r puzzle; do
    i=$((i + 1))
    # Each puzzle by every binary before the next puzzle, so that a change
    # in the host's speed falls on all of them alike.
    for ((b = 1; b <= $#; b++)); do
        # shellcheck disable=SC2086
        t=$(cpu "$work/row" "${!b}" rate -j 1 -q ${RATE_ARGS:-} - <<< "$puzzle")
        status=$(awk -F, 'NR == 2 { print $3 "," $4 }' "$work/row")
        rating=$(awk -F, 'NR == 2 { print $4 "/" $5 "/" $6 }' "$work/row")
        echo "$((6 * i - 5)) $t $status $rating" >> "$work/sample.$b"
    done
done < "$work/sample.txt"
for ((b = 1; b <= $#; b++)); do
    echo "$(basename "${!b}"): $(awk '{ s += $2 } $3 ~ /^rated/ { r++ } $3 ~ /^timeout/ { t++ }
        END { printf "%d rated, %d timeout, %.1f CPU-s in all", r, t, s }' "$work/sample.$b");" \
        "five slowest: $(sort -k2 -g -r "$work/sample.$b" | head -5 |
            awk '{ s += $2; l = l sprintf("record %d %.1f s (%s) ", $1, $2, $3) } END { printf "%.1f CPU-s: %s", s, l }');" \
        "ratings differing from $(basename "$1")'s where both rated: $(paste -d' ' "$work/sample.1" "$work/sample.$b" |
            awk '$3 ~ /^rated/ && $7 ~ /^rated/ && $4 != $8' | wc -l)"
done
echo "load at end $(cut -d' ' -f1-3 /proc/loadavg)"
