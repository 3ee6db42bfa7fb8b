# Sourced by the bench scripts: `resolve_set NAME` prints the path of a set
# given as a file or as a public set's name (with or without .txt), looked up
# like `sudoflow bench` does: $SUDOFLOW_DATASETS, datasets/, ../shared/datasets.
# Exits 2 when there is none.
resolve_set() {
    local name=$1 candidate dir
    for candidate in "$name" "$name.txt"; do
        [ -f "$candidate" ] && { echo "$candidate"; return; }
        for dir in "${SUDOFLOW_DATASETS:-}" datasets ../shared/datasets; do
            [ -n "$dir" ] && [ -f "$dir/$candidate" ] && { echo "$dir/$candidate"; return; }
        done
    done
    echo "no such set: $name (set SUDOFLOW_DATASETS)" >&2
    exit 2
}

# `sudoflow_binary`: prints the sudoflow binary a bench times: $SUDOFLOW, or
# else target/release/sudoflow built from the tree here, so that a binary an
# earlier build left there (an experiment's, say) is never timed by mistake.
sudoflow_binary() {
    if [ -n "${SUDOFLOW:-}" ]; then
        echo "$SUDOFLOW"
        return
    fi
    cargo build --release --quiet --bin sudoflow >&2 || return 2
    echo target/release/sudoflow
}

# `repeated_input SRC TIMES OUT`: writes SRC's puzzles ('#' lines dropped)
# TIMES over to OUT, e.g. the 4,030,956-record input of issue 15 (17-clue x82).
repeated_input() {
    local one
    one=$(mktemp)
    grep -v '^#' "$1" > "$one"
    for _ in $(seq "$2"); do cat "$one"; done > "$3"
    rm -f "$one"
}

# `build_core_to_core DIR`: compiles benches/core_to_core.c (the cross-core
# round trip in ns; on a VM it tells whether the host put the vCPUs on cores
# that share a cache) into DIR/c2c and prints its path, or prints nothing
# when there is no C compiler.
build_core_to_core() {
    if command -v cc > /dev/null && cc -O2 -pthread -o "$1/c2c" benches/core_to_core.c 2> /dev/null; then
        echo "$1/c2c"
    fi
}

# `wall_cpu OUT CMD...`: runs CMD and writes "WALL CPU" to OUT: its wall
# seconds and its user + sys CPU seconds (GNU time, every thread counted).
wall_cpu() {
    local out=$1
    shift
    /usr/bin/time -f '%e %U %S' -o "$out.t" "$@"
    awk '{printf "%s %.2f\n", $1, $2 + $3}' "$out.t" > "$out"
    rm -f "$out.t"
}

# An awk function, `median(a, n)`: the median of a[1..n] (sorts a in place).
# Prepend it to an awk program: awk "$AWK_MEDIAN"' { ... }'.
# shellcheck disable=SC2034
AWK_MEDIAN='
    function median(a, n,   i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }'
