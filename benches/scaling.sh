#!/usr/bin/env bash
# Scaling of `solve -j J` against `-j 1` (issue 15): records per wall-second on
# one set repeated into a multi-million-record input, with a control run
# beside each round that shows what the machine itself allows.
#
#   benches/scaling.sh [SET]
#
# SET is a file or public set name looked up like `sudoflow bench` does
# ($SUDOFLOW_DATASETS, datasets/, ../shared/datasets); puzzles2_17_clue by
# default. '#' lines are dropped, the rest repeated REPEAT times.
#
# Each round runs, one after another:
#   j1       `sudoflow solve -q -j 1 INPUT -o /dev/null`
#   control  J processes of `solve -j 1`, each on 1/J of INPUT, at once: the
#            machine's own ceiling for J-fold work in that minute (on a VM,
#            another tenant's load slows a busy second core; this shows it)
#   jJ       `sudoflow solve -q -j J INPUT -o /dev/null`
# and prints the load average before the round, the cross-core round trip
# just before jJ (benches/core_to_core.c, built with cc when there is one; on
# a VM it shows whether the host put the vCPUs on cores that share a cache),
# wall and CPU seconds (the control's summed over its processes), the
# speed-up j1/jJ and the control's j1/max(control walls). At the end: the
# median speed-up, the speed-up of the best times (min j1 / min jJ), the
# median control, and the median speed-up of the rounds whose round trip
# was under 150 ns (near cores) and of the others.
#
# Environment: SUDOFLOW (binary; default target/release/sudoflow, built here),
# J (default 2), REPEAT (default 82: 4,030,956 records of 17-clue), ROUNDS
# (default 10).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${J:-2}
repeat=${REPEAT:-82}
rounds=${ROUNDS:-10}
set_name=${1:-puzzles2_17_clue}

# shellcheck source=benches/sets.sh
source benches/sets.sh
bin=$(sudoflow_binary)

[ -x "$bin" ] || { echo "scaling.sh: no binary at $bin (cargo build --release)" >&2; exit 2; }
src=$(resolve_set "$set_name")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

repeated_input "$src" "$repeat" "$work/input"
records=$(wc -l < "$work/input")
mkdir "$work/parts" "$work/times"
split -n "l/$jobs" -d "$work/input" "$work/parts/"
c2c=$(build_core_to_core "$work")

# `timed OUT J FILE`: runs solve, writes "wall cpu" to OUT.
timed() {
    wall_cpu "$1" "$bin" solve -q -j "$2" "$3" -o /dev/null
}

echo "sudoflow scaling: $bin, $records records ($set_name x$repeat), -j 1 against -j $jobs, $(nproc) CPUs"
printf '%5s %8s %9s %9s %11s %11s %8s %9s %9s %8s %8s\n' round load1m j1_wall j1_cpu control_max control_cpu c2c_ns jJ_wall jJ_cpu speedup control
for r in $(seq "$rounds"); do
    load=$(cut -d' ' -f1 /proc/loadavg)
    timed "$work/j1" 1 "$work/input"
    for part in "$work"/parts/*; do
        timed "$work/times/${part##*/}" 1 "$part" &
    done
    wait
    rt=-
    [ -n "$c2c" ] && rt=$("$c2c")
    timed "$work/jj" "$jobs" "$work/input"
    read -r j1 j1cpu < "$work/j1"
    read -r jj jjcpu < "$work/jj"
    read -r cmax ccpu < <(cat "$work"/times/?? | awk '$1 > m {m = $1} {c += $2} END {print m, c}')
    awk -v r="$r" -v l="$load" -v j1="$j1" -v j1c="$j1cpu" -v cm="$cmax" -v cc="$ccpu" -v rt="$rt" -v jj="$jj" -v jjc="$jjcpu" \
        'BEGIN {printf "%5d %8s %9.2f %9.2f %11.2f %11.2f %8s %9.2f %9.2f %8.3f %8.3f\n", r, l, j1, j1c, cm, cc, rt, jj, jjc, j1 / jj, j1 / cm}' \
        | tee -a "$work/rows"
done
awk "$AWK_MEDIAN"'
    { n++; s[n] = $10; c[n] = $11; if (n == 1 || $3 < m1) m1 = $3; if (n == 1 || $8 < mj) mj = $8 }
    $7 != "-" && $7 < 150 { near[++nn] = $10 }
    $7 != "-" && $7 >= 150 { far[++nf] = $10 }
    END {
        printf "median speed-up %.3f; best times %.2f s / %.2f s = %.3f; median control %.3f\n",
            median(s, n), m1, mj, m1 / mj, median(c, n)
        if (nn) printf "rounds with a cross-core round trip under 150 ns: %d, median speed-up %.3f\n", nn, median(near, nn)
        if (nf) printf "rounds with a cross-core round trip of 150 ns or more: %d, median speed-up %.3f\n", nf, median(far, nf)
    }' "$work/rows"
