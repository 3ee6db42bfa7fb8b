# Sourced by the bench scripts: `cpu OUTFILE CMD...` runs CMD with its stdout
# in OUTFILE and prints its CPU seconds (user + sys of every thread: perf's
# task-clock, else GNU time). Needs `$work`, a scratch directory.
cpu() {
    local out=$1
    shift
    if perf stat -x, -e task-clock true 2>/dev/null; then
        perf stat -x, -e task-clock -o "$work/time" "$@" > "$out"
        awk -F, '/task-clock/ {printf "%.4f", $1 / 1000}' "$work/time"
    else
        /usr/bin/time -f '%U %S' -o "$work/time" "$@" > "$out"
        awk '{printf "%.2f", $1 + $2}' "$work/time"
    fi
}
