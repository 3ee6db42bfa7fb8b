#!/usr/bin/env bash
# Side by side with tdoku (issue 15): puzzles per second on one core, counting up
# to 2 solutions, tdoku's `run_benchmark` and `sudoflow bench` alternating on the
# same pinned core in one run, so both see the same load.
#
#   benches/vs_tdoku.sh TDOKU_RUN_BENCHMARK [SET...]
#
# TDOKU_RUN_BENCHMARK is tdoku's benchmark binary built outside this project the
# way its README says (`./BUILD.sh`, clang -O3 -march=native by default; see
# BENCHMARKS.md for the exact build). SETs are files or public set names looked
# up like `sudoflow bench` does ($SUDOFLOW_DATASETS, datasets/, ../shared/datasets);
# the four public sets by default.
#
# Environment: SUDOFLOW (binary; default target/release/sudoflow), TIME (seconds
# timed per solver and set; default 10), WARMUP (default 2), ROUNDS (alternations
# per set, the median is reported; default 3), CORE (CPU to pin to; default 1).
#
# tdoku's figure is its own `puzzles/sec` column (it permutes each puzzle at
# random, its default); ours is `sudoflow bench -s sudoflow`'s puzzles_per_sec.
# Both exclude process start-up and reading the file.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 TDOKU_RUN_BENCHMARK [SET...]   (the first argument must be tdoku's run_benchmark)" >&2
    exit 2
fi
tdoku=$1
shift
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(puzzles2_17_clue puzzles3_magictour_top1465 puzzles6_forum_hardest_1106 puzzles7_serg_benchmark)
sudoflow=${SUDOFLOW:-target/release/sudoflow}
time_s=${TIME:-10}
warmup=${WARMUP:-2}
rounds=${ROUNDS:-3}
core=${CORE:-1}
[ -x "$sudoflow" ] || cargo build --release --quiet

# shellcheck source=benches/sets.sh
source benches/sets.sh

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The value of column NAME in the one data row of a CSV with a header.
column() {
    awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } c { print $c }'
}

echo "# $(date -u +%FT%TZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), core $core,"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg); TIME=$time_s WARMUP=$warmup ROUNDS=$rounds"
echo "# sudoflow: $("$sudoflow" --version); tdoku: $("$tdoku" -h 2>&1 | grep -m1 'build info' | sed 's/build info: //')"
echo
echo "| set | tdoku puzzles/s | sudoflow puzzles/s | ratio | tdoku guesses/puzzle | sudoflow guesses/puzzle |"
echo "|---|--:|--:|--:|--:|--:|"
for set in "${sets[@]}"; do
    file=$(resolve_set "$set")
    t_rates=() s_rates=() t_guesses=0 s_guesses=0
    for _ in $(seq "$rounds"); do
        # tdoku -c 1: compiler,version,flags,file,solver,puzzles/sec,usec/puzzle,%no_guess,guesses/puzzle
        row=$(taskset -c "$core" "$tdoku" -s tdoku -c 1 -t "$time_s" -w "$warmup" "$file" | grep ',tdoku,' | tail -1)
        t_rates+=("$(cut -d, -f6 <<<"$row")")
        t_guesses=$(cut -d, -f9 <<<"$row")
        out=$(taskset -c "$core" "$sudoflow" bench -s sudoflow --limit 2 -t "$time_s" -w "$warmup" --format csv "$file")
        s_rates+=("$(column puzzles_per_sec <<<"$out")")
        s_guesses=$(column guesses_per_puzzle <<<"$out")
    done
    t=$(printf '%s\n' "${t_rates[@]}" | median)
    s=$(printf '%s\n' "${s_rates[@]}" | median)
    printf '| %s | %.0f | %.0f | %.2f | %.1f | %.1f |\n' "$(basename "$file" .txt)" "$t" "$s" \
        "$(awk -v s="$s" -v t="$t" 'BEGIN { print s / t }')" "$t_guesses" "$s_guesses"
done
echo
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
