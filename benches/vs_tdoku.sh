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
# Environment: SUDOFLOW (binary; default target/release/sudoflow, built here from
# the tree, so that a binary left by an earlier build is never timed), TIME (seconds
# timed per solver and set; default 10), WARMUP (default 2), ROUNDS (alternations
# per set, the median is reported with the range; default 3), CORE (CPU to pin
# to; default 1), SEED (default 1; round k uses SEED + k - 1 on both sides),
# PERMUTE (1, the default: both sides time every puzzle under a random
# validity-preserving transformation, tdoku's protocol; 0: both time the file
# as written).
#
# One protocol on both sides: tdoku's `run_benchmark` transforms every puzzle at
# random before timing (`-r 1`, its default; `-e SEED` seeds it), and sudoflow
# does the same with `bench --permute=SEED`. Guess counts, and so times, depend
# on the transformation, so the two are compared only under the same protocol.
# The two generators differ, so the puzzles are not the same transforms: each
# round draws new ones (tdoku also fills its test set of 2.5 million puzzles,
# its `-n` default, with transformed copies of the file). tdoku runs with its
# README's options (its benchmark's defaults, `-s tdoku`); the build is the
# README's too (clang, -O3 -march=native).
#
# tdoku's figure is its own `puzzles/sec` column; ours is
# `sudoflow bench -s sudoflow`'s puzzles_per_sec. Both exclude process start-up
# and reading the file. Guesses per puzzle are the rounds' mean.
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
time_s=${TIME:-10}
warmup=${WARMUP:-2}
rounds=${ROUNDS:-3}
core=${CORE:-1}
seed=${SEED:-1}
permute=${PERMUTE:-1}
[ "$seed" -ge 1 ] || { echo "SEED must be 1 or more (tdoku reads 0 as 'random')" >&2; exit 2; }

# shellcheck source=benches/sets.sh
source benches/sets.sh
sudoflow=$(sudoflow_binary)
[ -x "$sudoflow" ] || { echo "no binary at $sudoflow" >&2; exit 2; }

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The value of column NAME in the one data row of a CSV with a header.
column() {
    awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } c { print $c }'
}

echo "# $(date -u +%FT%TZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), core $core,"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg); TIME=$time_s WARMUP=$warmup ROUNDS=$rounds"
if [ "$permute" = 1 ]; then
    echo "# protocol: every puzzle transformed at random on both sides (tdoku -r 1 -e S, sudoflow bench --permute=S), S = $seed..$((seed + rounds - 1)), one per round"
else
    echo "# protocol: the files as written on both sides (tdoku -r 0, sudoflow bench without --permute)"
fi
echo "# sudoflow: $("$sudoflow" --version); tdoku: $("$tdoku" -h 2>&1 | grep -m1 'build info' | sed 's/build info: //')"
echo
echo "| set | tdoku puzzles/s | sudoflow puzzles/s | ratio (median) | ratio range | tdoku guesses/puzzle | sudoflow guesses/puzzle |"
echo "|---|--:|--:|--:|--:|--:|--:|"
mean() { awk '{ s += $1 } END { print s / NR }'; }
for set in "${sets[@]}"; do
    file=$(resolve_set "$set")
    t_rates=() s_rates=() ratios=() t_guesses=() s_guesses=()
    for round in $(seq "$rounds"); do
        s_seed=$((seed + round - 1))
        if [ "$permute" = 1 ]; then
            t_protocol=(-r 1 -e "$s_seed") s_protocol=(--permute="$s_seed")
        else
            t_protocol=(-r 0) s_protocol=()
        fi
        # tdoku -c 1: compiler,version,flags,file,solver,puzzles/sec,usec/puzzle,%no_guess,guesses/puzzle
        row=$(taskset -c "$core" "$tdoku" -s tdoku -c 1 -t "$time_s" -w "$warmup" "${t_protocol[@]}" "$file" | grep ',tdoku,' | tail -1)
        t_rate=$(cut -d, -f6 <<<"$row")
        t_guesses+=("$(cut -d, -f9 <<<"$row")")
        out=$(taskset -c "$core" "$sudoflow" bench -s sudoflow --limit 2 -t "$time_s" -w "$warmup" "${s_protocol[@]}" --format csv "$file")
        s_rate=$(column puzzles_per_sec <<<"$out")
        s_guesses+=("$(column guesses_per_puzzle <<<"$out")")
        s_path=$(column target_features <<<"$out")
        t_rates+=("$t_rate") s_rates+=("$s_rate")
        ratios+=("$(awk -v s="$s_rate" -v t="$t_rate" 'BEGIN { print s / t }')")
    done
    t=$(printf '%s\n' "${t_rates[@]}" | median)
    s=$(printf '%s\n' "${s_rates[@]}" | median)
    r=$(printf '%s\n' "${ratios[@]}" | median)
    lo=$(printf '%s\n' "${ratios[@]}" | sort -g | head -1)
    hi=$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1)
    printf '| %s | %.0f | %.0f | **%.2f** | %.2f-%.2f | %.2f | %.2f |\n' "$(basename "$file" .txt)" "$t" "$s" \
        "$r" "$lo" "$hi" "$(printf '%s\n' "${t_guesses[@]}" | mean)" "$(printf '%s\n' "${s_guesses[@]}" | mean)"
done
echo
echo "# sudoflow's instruction sets (bench's target_features; SUDOFLOW_SIMD chooses the solver's): $s_path"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
