#!/usr/bin/env bash
# The cost of atomic output (issue 12): whole `sudoflow solve -o FILE` processes
# on each public set, interleaved, three ways:
#   before  BEFORE's binary (default: none) with -o FILE: plain File::create,
#           no fsync, no rename (the binary before atomic output);
#   atomic  this tree's binary with -o FILE: FILE.partial, sidecar (CRC-32 of
#           the input's first MiB), a clock read per row, fsync, rename,
#           folder fsync;
#   stdout  this tree's binary writing to stdout redirected to the same kind
#           of file: the same rows and writes, none of the above.
# Prints median, p25, p75 of wall and CPU (perf's duration_time and
# task-clock, milliseconds) per set, -j and way.
#
# Usage: benches/atomic_output.sh [RUNS] [BEFORE_BINARY]   (default 15 rounds)
# Needs perf and the public sets (`make datasets`). Outputs go to
# target/bench-out/ (the same file system as the build).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
before=${2:-}
cargo build --release --quiet --bin sudoflow
after=target/release/sudoflow
out=target/bench-out
mkdir -p "$out"

dataset_dir() {
    for d in "${SUDOFLOW_DATASETS:-}" datasets ../shared/datasets; do
        if [[ -n "$d" && -f "$d/puzzles2_17_clue.txt" ]]; then echo "$d"; return; fi
    done
    echo "public sets not found: run \`make datasets\`" >&2
    exit 2
}
dir=$(dataset_dir)
sets=(puzzles2_17_clue puzzles3_magictour_top1465 puzzles6_forum_hardest_1106 puzzles7_serg_benchmark)

# "wall_ms cpu_ms" of one run of "$@" (stdout already redirected by the caller).
measure() {
    perf stat -x, -e duration_time,task-clock "$@" 2>&1 >/dev/null |
        awk -F, '/duration_time/ { w = $1 / 1e6 } /task-clock/ { c = $1 } END { printf "%.2f %.2f\n", w, c }'
}
measure_to() { # FILE CMD...: stdout of CMD into FILE
    local f=$1
    shift
    perf stat -x, -e duration_time,task-clock -o "$out/perf.txt" "$@" >"$f" 2>/dev/null
    awk -F, '/duration_time/ { w = $1 / 1e6 } /task-clock/ { c = $1 } END { printf "%.2f %.2f\n", w, c }' "$out/perf.txt"
}
# median p25 p75 of column $1 of stdin.
summary() {
    awk -v c="$1" '{ print $c }' | sort -g | awk '{ v[NR] = $1 } END {
        printf "%8.2f %8.2f %8.2f", v[int((NR + 1) / 2)], v[int((NR + 3) / 4)], v[int((3 * NR + 3) / 4)] }'
}

echo "machine: $(nproc) cores, $(uname -m), $(rustc --version), rounds: $runs"
printf '%-28s %-3s %-7s %26s %26s\n' set -j way "wall ms: median p25 p75" "CPU ms: median p25 p75"
for set in "${sets[@]}"; do
    f="$dir/$set.txt"
    for j in 1 2; do
        : >"$out/t.before"; : >"$out/t.atomic"; : >"$out/t.stdout"
        for ((i = 0; i < runs; i++)); do
            if [[ -n "$before" ]]; then
                measure "$before" solve -q -j "$j" "$f" -o "$out/before.csv" >>"$out/t.before"
            fi
            measure "$after" solve -q -j "$j" "$f" -o "$out/atomic.csv" >>"$out/t.atomic"
            measure_to "$out/stdout.csv" "$after" solve -q -j "$j" "$f" >>"$out/t.stdout"
        done
        cmp -s "$out/atomic.csv" "$out/stdout.csv" || { echo "outputs differ" >&2; exit 1; }
        for way in before atomic stdout; do
            [[ -s "$out/t.$way" ]] || continue
            printf '%-28s %-3s %-7s %26s %26s\n' "$set" "$j" "$way" \
                "$(summary 1 <"$out/t.$way")" "$(summary 2 <"$out/t.$way")"
        done
    done
done
