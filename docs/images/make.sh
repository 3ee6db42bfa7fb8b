#!/usr/bin/env bash
# Remakes the README's pictures with the release binary (make build first):
# a step of `explain --format svg` as the SVG it writes, and page 1 of a
# `print` book as PNG (poppler's pdftoppm; `make test-tools` installs it).
set -euo pipefail
cd "$(dirname "$0")"
bin=${SUDOFLOW:-../../target/release/sudoflow}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" explain .19...43....97.....8...36..9..7..8....3...1....4..9..3..14...6.....86....28...34. \
    --format svg > step-xy-wing.svg
"$bin" generate -n 300 --seed 7 --se 1.0.. --labels --symmetry rot180 -o "$tmp/corpus.csv" 2>/dev/null
"$bin" print "$tmp/corpus.csv" -o "$tmp/book.pdf" \
    --chapters '1.0..1.5=Warm-up,1.6..2.5,2.6..6.0=Fiendish,6.1..=Diabolical' --explain 3
pdftoppm -r 50 -png -f 1 -l 1 -singlefile "$tmp/book.pdf" book-page
