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
