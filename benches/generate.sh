#!/usr/bin/env bash
# Minimal puzzles per second: `sudoflow generate` against qqwing 1.3.4 in the
# same run (issue 5). Installs qqwing (Debian package) when it is missing.
#
#   benches/generate.sh            # N=5000 sudoflow puzzles, QN=1000 qqwing puzzles
#   N=20000 QN=2000 benches/generate.sh
#
# Prints, per run: wall seconds, CPU seconds (user+sys), puzzles/s of wall
# time, and puzzles per CPU-second ("per core": the rate of one busy core, the
# fair figure on a shared machine). sudoflow's puzzles are minimal (every
# given necessary: checked for every puzzle of the -j 2 run by the criterion
# bench's GENERATE_VERIFY mode, unless VERIFY=0); qqwing's are not
# minimality-checked. tdoku's generator (5,480 minimal puzzles/s on one core,
# ../shared/docs/ALGORITHMS.md) is not packaged, so it is quoted, not run.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-5000}
QN=${QN:-1000}
SEED=${SEED:-2026}
VERIFY=${VERIFY:-1}

if ! command -v qqwing >/dev/null; then
    echo "installing qqwing (apt-get)..." >&2
    apt-get update -qq && apt-get install -y -qq qqwing >/dev/null
fi
cargo build --release --quiet
bin=target/release/sudoflow
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME PUZZLES CMD...: times CMD (stdout to $tmp/NAME.out) and prints a row.
run() {
    local name=$1 n=$2
    shift 2
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >"$tmp/$name.out"
    read -r wall user sys <"$tmp/time"
    awk -v name="$name" -v n="$n" -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN {
        cpu = u + s; if (cpu < 0.01) cpu = 0.01; if (w < 0.01) w = 0.01;
        printf "%-28s %7d %8.2f %8.2f %12.0f %14.0f\n", name, n, w, cpu, n / w, n / cpu }'
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sudoflow $(git rev-parse --short HEAD), $("$bin" --version), $(qqwing --version | head -1)"
printf "%-28s %7s %8s %8s %12s %14s\n" run puzzles wall_s cpu_s puzzles/s puzzles/cpu_s
run "sudoflow -j 1 (minimal)" "$N" "$bin" generate -n "$N" --seed "$SEED" -j 1 --quiet
run "sudoflow -j 2 (minimal)" "$N" "$bin" generate -n "$N" --seed "$SEED" -j 2 --quiet
run "sudoflow -j 2 rot180" "$N" "$bin" generate -n "$N" --seed "$SEED" -j 2 --symmetry rot180 --quiet
run "qqwing --generate (1 thread)" "$QN" qqwing --generate "$QN" --csv
echo "tdoku (quoted, not run): 5480 minimal puzzles/s on one core"
[ "$(($(wc -l <"$tmp/sudoflow -j 1 (minimal).out") - 1))" -eq "$N" ]
if cmp -s "$tmp/sudoflow -j 1 (minimal).out" "$tmp/sudoflow -j 2 (minimal).out"; then
    echo "-j 1 and -j 2 outputs are byte-identical"
else
    echo "error: -j 1 and -j 2 outputs differ" >&2
    exit 1
fi
if [ "$VERIFY" = 1 ]; then
    GENERATE_VERIFY="$tmp/sudoflow -j 2 (minimal).out" cargo bench --quiet --bench generate
fi
