#!/usr/bin/env bash
# `make datasets`: puts the four public sets in datasets/ as <tdoku name>.txt.
#
# Source, first that works:
#   1. ../shared/datasets beside the project: linked, not copied (a symbolic
#      link to the shared file, so the data are never duplicated into the tree);
#   2. tdoku's data.zip from GitHub (https://github.com/t-dillon/tdoku), whose
#      members are data/<name> without an extension; downloaded with curl, or
#      python3 when curl is missing, unpacked with python3 or unzip.
# Files already present are kept. Every file is checked: it must exist, be
# non-empty and its first puzzle line must be 81 characters long.
set -euo pipefail
cd "$(dirname "$0")"
url=https://github.com/t-dillon/tdoku/raw/master/data.zip
sets=(puzzles2_17_clue puzzles3_magictour_top1465 puzzles6_forum_hardest_1106 puzzles7_serg_benchmark)
shared=../../shared/datasets

missing=()
for s in "${sets[@]}"; do
    [[ -s "$s.txt" ]] || missing+=("$s")
done

if ((${#missing[@]})) && [[ -d "$shared" ]]; then
    for s in "${missing[@]}"; do
        if [[ -s "$shared/$s.txt" ]]; then
            ln -sfn "$(cd "$shared" && pwd)/$s.txt" "$s.txt"
            echo "datasets: linked $s.txt to $shared"
        fi
    done
    missing=()
    for s in "${sets[@]}"; do
        [[ -s "$s.txt" ]] || missing+=("$s")
    done
fi

if ((${#missing[@]})); then
    if [[ ! -s data.zip ]]; then
        echo "datasets: downloading $url"
        if command -v curl >/dev/null; then
            curl -fsSL --retry 3 -o data.zip.part "$url"
        elif command -v python3 >/dev/null; then
            python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$url" data.zip.part
        else
            echo "datasets: need curl or python3 to download $url" >&2
            exit 2
        fi
        mv data.zip.part data.zip
    fi
    if command -v python3 >/dev/null; then
        python3 - "${missing[@]}" <<'PY'
import os, sys, zipfile
wanted = sys.argv[1:]
with zipfile.ZipFile("data.zip") as z:
    members = {}
    for info in z.infolist():
        base = os.path.basename(info.filename)
        stem = base[:-4] if base.endswith(".txt") else base
        if stem in wanted and not info.is_dir():
            members.setdefault(stem, info.filename)
    absent = [w for w in wanted if w not in members]
    if absent:
        sys.exit("datasets: data.zip has no member for %s; it holds: %s"
                 % (", ".join(absent), ", ".join(z.namelist())))
    for stem, member in members.items():
        with z.open(member) as src, open(stem + ".txt.part", "wb") as dst:
            dst.write(src.read())
        os.replace(stem + ".txt.part", stem + ".txt")
        print("datasets: unpacked %s as %s.txt" % (member, stem))
PY
    elif command -v unzip >/dev/null; then
        for s in "${missing[@]}"; do
            member=$(unzip -Z1 data.zip | grep -E "(^|/)$s(\.txt)?\$" | head -1 || true)
            if [[ -z "$member" ]]; then
                echo "datasets: data.zip has no member for $s" >&2
                exit 2
            fi
            unzip -p data.zip "$member" >"$s.txt.part" && mv "$s.txt.part" "$s.txt"
            echo "datasets: unpacked $member as $s.txt"
        done
    else
        echo "datasets: need python3 or unzip to unpack data.zip" >&2
        exit 2
    fi
fi

for s in "${sets[@]}"; do
    first=$(grep -v -m1 -e '^#' -e '^[[:space:]]*$' "$s.txt" | tr -d '\r' | cut -d: -f1 | cut -d' ' -f1)
    if [[ ${#first} -ne 81 ]]; then
        echo "datasets: $s.txt does not look like a puzzle list (first puzzle line: '$first')" >&2
        exit 2
    fi
done
echo "datasets: all ${#sets[@]} public sets in $(pwd)"
