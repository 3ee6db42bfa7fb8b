#!/usr/bin/env bash
# What a threaded `solve` pays for sharing an address space, against what it
# pays for handing records and rows between threads (issue 15). Each round
# splits one multi-million-record input in two and measures CPU seconds
# (user + sys) of:
#   threads    examples/inline_threads on both parts: two share-nothing
#              threads in one process (each reads, solves and writes its own)
#   processes  the same example once per part, both at once
#   j2         `sudoflow solve -j 2` on the whole input
# each after the cross-core round trip (benches/core_to_core.c), which tells
# whether the host put the vCPUs on cores that share a cache (near, under
# 150 ns) or not (far). Ends with the medians per placement.
#
#   benches/threads_vs_processes.sh
#
# Environment: SUDOFLOW (default target/release/sudoflow, built here), ROUNDS
# (default 10), SET (default puzzles2_17_clue), REPEAT (default 82). Builds the
# example with cargo (release).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-10}

# shellcheck source=benches/sets.sh
source benches/sets.sh
bin=$(sudoflow_binary)

cargo build -q --release --example inline_threads
example=target/release/examples/inline_threads
[ -x "$bin" ] || { echo "threads_vs_processes.sh: no binary at $bin (cargo build --release)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repeated_input "$(resolve_set "${SET:-puzzles2_17_clue}")" "${REPEAT:-82}" "$work/input"
split -n l/2 -d "$work/input" "$work/part"
c2c=$(build_core_to_core "$work")
[ -n "$c2c" ] || { echo "threads_vs_processes.sh: needs a C compiler for the round trip" >&2; exit 2; }

echo "$(wc -l < "$work/input") records in two parts, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%5s %8s %11s %8s %13s %8s %8s\n' round c2c_ns threads_cpu c2c_ns processes_cpu c2c_ns j2_cpu
for r in $(seq "$rounds"); do
    rt1=$("$c2c")
    wall_cpu "$work/t" "$example" "$work/part00" "$work/part01" 2> /dev/null
    rt2=$("$c2c")
    wall_cpu "$work/a" "$example" "$work/part00" 2> /dev/null &
    wall_cpu "$work/b" "$example" "$work/part01" 2> /dev/null &
    wait
    rt3=$("$c2c")
    wall_cpu "$work/j" "$bin" solve -q -j 2 "$work/input" -o /dev/null
    printf '%5d %8s %11s %8s %13s %8s %8s\n' "$r" "$rt1" "$(cut -d' ' -f2 "$work/t")" "$rt2" \
        "$(cat "$work/a" "$work/b" | awk '{s += $2} END {printf "%.2f", s}')" "$rt3" "$(cut -d' ' -f2 "$work/j")" \
        | tee -a "$work/rows"
done
awk "$AWK_MEDIAN"'
    { p = $2 < 150 ? "near" : "far"; t[p, ++nt[p]] = $3
      p = $4 < 150 ? "near" : "far"; c[p, ++nc[p]] = $5
      p = $6 < 150 ? "near" : "far"; j[p, ++nj[p]] = $7 }
    END {
        split("near far", ps, " ")
        for (k = 1; k <= 2; k++) {
            p = ps[k]; line = p ":"
            n = 0; delete v; for (i = 1; i <= nt[p]; i++) v[++n] = t[p, i]
            if (n) line = line sprintf(" threads %.2f (%d)", median(v, n), n)
            n = 0; delete v; for (i = 1; i <= nc[p]; i++) v[++n] = c[p, i]
            if (n) line = line sprintf(", processes %.2f (%d)", median(v, n), n)
            n = 0; delete v; for (i = 1; i <= nj[p]; i++) v[++n] = j[p, i]
            if (n) line = line sprintf(", j2 %.2f (%d)", median(v, n), n)
            if (line != p ":") print "median CPU s, " line
        }
    }' "$work/rows"
