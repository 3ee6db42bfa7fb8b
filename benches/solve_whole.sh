#!/usr/bin/env bash
# Whole-process CPU time (user + sys) of `sudoflow solve -j 1` and `-j 2`
# against a plain program that classifies each puzzle with the `sudoku` crate
# 0.8 (examples/sudoku_crate_classify.rs), on each public set (issue 2, "Speed":
# `solve -j 1` must use no more CPU than that program).
#
# Usage: benches/solve_whole.sh [RUNS] [--callgrind] [--interleave]
#   RUNS: runs per command, best kept (default 5). GNU time counts in 10 ms
#   steps, too coarse for the small sets: --callgrind adds a table of
#   instructions executed (valgrind --tool=callgrind), exact and repeatable.
#   --interleave (needs perf): RUNS rounds, each running the three commands
#   one after the other, so that a noisy machine (a VM whose speed drifts
#   over seconds) slows all three alike; prints the median, quartiles and
#   minimum of perf's task-clock (user + sys CPU) per command.
# Needs the public sets (`make datasets`). Uses hyperfine when installed
# (apt install hyperfine), else /usr/bin/time (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
callgrind=0
interleave=0
for arg in "$@"; do
    case $arg in
        --callgrind) callgrind=1 ;;
        --interleave) interleave=1 ;;
        *) runs=$arg ;;
    esac
done
cargo build --release --quiet --bin sudoflow
cargo build --release --quiet --example sudoku_crate_classify
sudoflow=target/release/sudoflow
classify=target/release/examples/sudoku_crate_classify

dataset_dir() {
    for d in "${SUDOFLOW_DATASETS:-}" datasets ../shared/datasets; do
        if [[ -n "$d" && -f "$d/puzzles2_17_clue.txt" ]]; then echo "$d"; return; fi
    done
    echo "public sets not found: run \`make datasets\`" >&2
    exit 2
}
dir=$(dataset_dir)
sets=(puzzles2_17_clue puzzles3_magictour_top1465 puzzles6_forum_hardest_1106 puzzles7_serg_benchmark)

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# Best (lowest) user+sys seconds of `runs` runs of the command "$@".
cpu_seconds() {
    local best="" t
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -o "$tmp" -f '%U %S' "$@" >/dev/null 2>&1
        t=$(awk '{printf "%.3f", $1 + $2}' "$tmp")
        if [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    done
    echo "$best"
}

echo "machine: $(nproc) cores, $(uname -m), $(rustc --version)"
if ((interleave)); then
    # task-clock milliseconds of one run of "$@" (perf stat, CSV output).
    task_ms() {
        perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 }'
    }
    # median p25 p75 min of the numbers on stdin.
    summary() {
        sort -g | awk '{ v[NR] = $1 } END {
            printf "%8.2f %8.2f %8.2f %8.2f", v[int((NR + 1) / 2)], v[int((NR + 3) / 4)],
                v[int((3 * NR + 3) / 4)], v[1] }'
    }
    printf '%-28s %-22s %8s %8s %8s %8s\n' set command median p25 p75 min
    for set in "${sets[@]}"; do
        f="$dir/$set.txt"
        : >"$tmp.c"; : >"$tmp.1"; : >"$tmp.2"
        for ((i = 0; i < runs; i++)); do
            task_ms "$classify" "$f" >>"$tmp.c"
            task_ms "$sudoflow" solve -q -j 1 "$f" -o /dev/null >>"$tmp.1"
            task_ms "$sudoflow" solve -q -j 2 "$f" -o /dev/null >>"$tmp.2"
        done
        printf '%-28s %-22s %s\n' "$set" "sudoku crate classify" "$(summary <"$tmp.c")"
        printf '%-28s %-22s %s\n' "" "sudoflow solve -j 1" "$(summary <"$tmp.1")"
        printf '%-28s %-22s %s\n' "" "sudoflow solve -j 2" "$(summary <"$tmp.2")"
    done
    rm -f "$tmp.c" "$tmp.1" "$tmp.2"
    echo "(task-clock ms = user + sys CPU, $runs interleaved rounds; lower is better)"
elif command -v hyperfine >/dev/null; then
    for set in "${sets[@]}"; do
        echo "== $set"
        f="$dir/$set.txt"
        hyperfine --warmup 1 --runs "$runs" --export-markdown "target/solve_whole_$set.md" \
            -n "sudoku crate classify" "$classify $f" \
            -n "sudoflow solve -j 1" "$sudoflow solve -q -j 1 $f -o /dev/null" \
            -n "sudoflow solve -j 2" "$sudoflow solve -q -j 2 $f -o /dev/null"
    done
    echo "(hyperfine reports user and sys per command above)"
elif [[ ! -x /usr/bin/time ]]; then
    echo "needs hyperfine or GNU time (/usr/bin/time)" >&2
    exit 2
else
printf '%-28s %10s %14s %14s %8s\n' set records "sudoku crate" "solve -j 1" "-j 2"
for set in "${sets[@]}"; do
    f="$dir/$set.txt"
    records=$(grep -cv '^#' "$f")
    ref=$(cpu_seconds "$classify" "$f")
    j1=$(cpu_seconds "$sudoflow" solve -q -j 1 "$f" -o /dev/null)
    j2=$(cpu_seconds "$sudoflow" solve -q -j 2 "$f" -o /dev/null)
    printf '%-28s %10s %13ss %13ss %7ss\n' "$set" "$records" "$ref" "$j1" "$j2"
done
echo "(user+sys CPU seconds, best of $runs runs; lower is better)"
fi

if ((callgrind)); then
    instructions() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
            awk '/Collected/ { print $4 }'
    }
    printf '\n%-28s %16s %16s %16s\n' set "sudoku crate" "solve -j 1" "-j 2"
    for set in "${sets[@]}"; do
        f="$dir/$set.txt"
        printf '%-28s %16s %16s %16s\n' "$set" "$(instructions "$classify" "$f")" \
            "$(instructions "$sudoflow" solve -q -j 1 "$f" -o /dev/null)" \
            "$(instructions "$sudoflow" solve -q -j 2 "$f" -o /dev/null)"
    done
    echo "(instructions executed, all threads, callgrind; lower is better)"
fi
