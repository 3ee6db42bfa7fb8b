#!/usr/bin/env bash
# CPU time of `solve -j J` for several sudoflow binaries, alternating run by
# run on one multi-million-record input, each run tagged with the cross-core
# round trip measured just before it (benches/core_to_core.c). On a VM whose
# host moves the vCPUs between cores that share a cache ("near", round trip
# under 150 ns) and cores that do not ("far"), a threaded run's CPU time
# follows the placement (BENCHMARKS.md, issue 15), so the binaries are
# compared within each placement: median and lower quartile of user + sys
# CPU seconds per binary and placement.
#
#   benches/ab_placement.sh BINARY...
#
# Environment: J (default 2), RUNS per binary (default 16), SET (default
# puzzles2_17_clue, looked up as benches/sets.sh does), REPEAT (default 82).
# Needs a C compiler for the round trip (without one, every run is "?").
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: benches/ab_placement.sh BINARY..." >&2; exit 2; }
jobs=${J:-2}
runs=${RUNS:-16}

# shellcheck source=benches/sets.sh
source benches/sets.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repeated_input "$(resolve_set "${SET:-puzzles2_17_clue}")" "${REPEAT:-82}" "$work/input"
c2c=$(build_core_to_core "$work")
echo "sudoflow A/B by placement: $(wc -l < "$work/input") records, solve -j $jobs, $runs runs per binary, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do
    for bin in "$@"; do
        rt="?"
        [ -n "$c2c" ] && rt=$("$c2c")
        wall_cpu "$work/t" "$bin" solve -q -j "$jobs" "$work/input" -o /dev/null
        place=far
        [ "$rt" = "?" ] && place="?"
        [ "$rt" != "?" ] && [ "$rt" -lt 150 ] && place=near
        awk -v b="$bin" -v p="$place" '{print b, p, $2}' "$work/t" >> "$work/rows"
    done
done
printf '%-40s %6s %5s %10s %10s\n' binary place runs median_cpu q1_cpu
sort -k1,1 -k2,2 -k3g "$work/rows" | awk "$AWK_MEDIAN"'
    function flush() { if (n) printf "%-40s %6s %5d %10.2f %10.2f\n", key1, key2, n, median(v, n), v[int((n + 3) / 4)] }
    $1 != key1 || $2 != key2 { flush(); key1 = $1; key2 = $2; n = 0 }
    { v[++n] = $3 }
    END { flush() }'
