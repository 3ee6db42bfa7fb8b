#!/usr/bin/env bash
# Whole-process CPU time of two sudoflow binaries, A and B, in interleaved
# rounds (each round runs every command with A, then with B, so a VM whose
# speed drifts slows both alike): `solve -j 1` and `solve -j 2` on each public
# set, output to /dev/null. Prints perf's task-clock (user + sys CPU, ms):
# median, quartiles and minimum, and B's median over A's.
#
# Usage: benches/ab_cpu.sh A_BINARY B_BINARY [ROUNDS]   (default 30 rounds)
# Used for issue 12's panic policy: A = panic "abort" without a catch,
# B = panic "unwind" with catch_unwind per record (BENCHMARKS.md).
# Needs perf and the public sets (`make datasets`).
set -euo pipefail
cd "$(dirname "$0")/.."
a=$1
b=$2
rounds=${3:-30}
dir=datasets
[[ -f $dir/puzzles2_17_clue.txt ]] || dir=../shared/datasets
sets=(puzzles2_17_clue puzzles3_magictour_top1465 puzzles6_forum_hardest_1106 puzzles7_serg_benchmark)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

task_ms() {
    perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 }'
}
summary() {
    sort -g | awk '{ v[NR] = $1 } END {
        printf "%8.2f %8.2f %8.2f %8.2f\n", v[int((NR + 1) / 2)], v[int((NR + 3) / 4)],
            v[int((3 * NR + 3) / 4)], v[1] }'
}
echo "machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < rounds; r++)); do
    for set in "${sets[@]}"; do
        for j in 1 2; do
            for bin in a b; do
                task_ms "${!bin}" solve -q -j $j "$dir/$set.txt" >> "$work/$set.$j.$bin"
            done
        done
    done
done
printf '%-28s %-6s %-3s %8s %8s %8s %8s %7s\n' set -j bin median p25 p75 min B/A
for set in "${sets[@]}"; do
    for j in 1 2; do
        read -r ma pa qa na < <(summary < "$work/$set.$j.a")
        read -r mb pb qb nb < <(summary < "$work/$set.$j.b")
        ratio=$(awk -v x="$ma" -v y="$mb" 'BEGIN { printf "%.3f", y / x }')
        printf '%-28s %-6s %-3s %8s %8s %8s %8s\n' "$set" "$j" A "$ma" "$pa" "$qa" "$na"
        printf '%-28s %-6s %-3s %8s %8s %8s %8s %7s\n' "$set" "$j" B "$mb" "$pb" "$qb" "$nb" "$ratio"
    done
done
