#!/bin/sh
# results-mtm.sh - the multi-tile metric's complete searches (`slide bfs B
# --metric mtm`) of every board up to 3x4 and 2x6, into results/mtm/:
#
#   sh scripts/results-mtm.sh [BOARD...]     (default: the boards below)
#   sh scripts/results-mtm.sh 2x7 7x2        the big boards: 10.9 GB each,
#                                            checkpointed (below)
#   sh scripts/results-mtm.sh --summary      summary.md alone, from the B.csv
#
# For each board B: B.csv (provenance block, then the histogram, distance
# by distance), B.txt (the report's summary: boards reached against (RC)!/2,
# radius, antipodes count and the first ten), B.antipodes.txt (every
# antipode, one board per line, after the provenance block); then
# summary.md: board, boards, MTM radius and antipodes beside the STM radius
# and antipodes of results/histograms/B.csv.  With the default boards also
# heuristics-B.csv/.log for 3x3, 2x5, 3x4 and 2x6: every heuristic against
# the exact MTM distance of every board (scripts/heuristics-results.sh).
# Each search is checked: every board reached, and the MTM radius at most
# the STM one (an MTM move of k cells is k STM moves).  The histograms themselves are checked against a
# brute-force MTM BFS up to 10 cells by tests/test_bfs_mtm.c.
#
# Refuses to run when src, include, the Makefile or scripts have uncommitted
# changes, or when build/slide was built from another commit, unless
# ALLOW_DIRTY=1 (the provenance then says -dirty).  THREADS: threads per
# search (default: nproc).  A board of more than 12 cells shows its
# progress (B.progress.txt) and checkpoints into
# $MTM_CHECKPOINT_DIR/slide-mtm-B (default /tmp; continue a stopped search
# by hand with slide bfs --resume DIR, as docs/long-runs.md says); the
# directory is removed once B.csv is written.  summary.md lists every board
# of the default list and 2x7, 7x2 whose B.csv exists.
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-$PWD/build/slide}
out=${OUT:-results/mtm}
threads=${THREADS:-$(nproc)}
all="2x2 2x3 3x2 2x4 4x2 3x3 2x5 5x2 3x4 4x3 2x6 6x2"
if [ "${1:-}" = --summary ]; then # summary.md again from the B.csv there
    set -- none
    boards=
else
    boards=${*:-$all}
fi
heuristics=${*:+no}
ckdir=${MTM_CHECKPOINT_DIR:-/tmp}
if [ "${ALLOW_DIRTY:-0}" != 1 ]; then
    if [ -n "$(git status --porcelain -- src include Makefile scripts)" ]; then
        echo "results-mtm: uncommitted changes in src, include, Makefile or scripts" \
             "(commit them, or ALLOW_DIRTY=1)" >&2
        exit 1
    fi
    head=$(git rev-parse --short HEAD)
    if ! "$SLIDE" --version | grep -q "commit $head)"; then
        echo "results-mtm: $SLIDE was not built from $head (make, then run again)" >&2
        exit 1
    fi
fi
mkdir -p "$out"
for b in $boards; do
    h="$out/$b" a="$out/$b.antipodes.txt" ck= progress=--no-progress
    if [ $(( ${b%x*} * ${b#*x} )) -gt 12 ]; then
        ck="$ckdir/slide-mtm-$b" progress=--progress
        set -- --checkpoint "$ck"
    else
        set --
    fi
    "$SLIDE" bfs "$b" --metric mtm --threads "$threads" --format csv --provenance \
        "$progress" --antipodes-file "$a" "$@" > "$h.csv.tmp" 2> "$h.log"
    [ -z "$ck" ] || grep '^slide: ' "$h.log" > "$h.progress.txt" || true
    grep -v '^slide: ' "$h.log" > "$h.txt.tmp"
    rm -f "$h.log"
    grep -q ': ok$' "$h.txt.tmp" || { echo "results-mtm: $b did not reach every board" >&2; exit 1; }
    { grep '^# ' "$h.csv.tmp"; cat "$a"; } > "$a.tmp"
    mv "$h.csv.tmp" "$h.csv"
    mv "$h.txt.tmp" "$h.txt"
    mv "$a.tmp" "$a"
    [ -z "$ck" ] || rm -rf "$ck"
done
# the heuristics against exact MTM distances: heuristics-B.csv and .log,
# joint/B-NAME.csv (scripts/heuristics-results.sh), with the default boards
if [ "${heuristics:-yes}" = yes ]; then
    METRIC=mtm RESULTS="$out" THREADS="$threads" sh scripts/heuristics-results.sh 3x3 2x5 3x4 2x6
fi
boards=
for b in $all 2x7 7x2; do
    [ -s "$out/$b.csv" ] && boards="$boards $b"
done

# radius and antipodes of a histogram CSV (after its provenance lines)
radius_of() { awk -F, '/^[0-9]/ { r = $1; c = $2 } END { print r }' "$1"; }
last_of() { awk -F, '/^[0-9]/ { r = $1; c = $2 } END { print c }' "$1"; }
boards_of() { awk -F, '/^[0-9]/ { s += $2 } END { printf "%.0f\n", s }' "$1"; }
{
    echo "# The multi-tile metric (MTM): complete searches"
    echo
    echo "One move: the blank jumps to any other cell of its row or column, the tiles"
    echo "between sliding one cell each (scripts/results-mtm.sh; the provenance of each"
    echo "search heads its B.csv).  Goal: 1..n-1 in reading order, blank last (a"
    echo "corner).  STM: the single-tile metric, from results/histograms/B.csv."
    echo
    echo "| board | boards | MTM radius | MTM antipodes | STM radius | STM antipodes | searched at |"
    echo "|---|---:|---:|---:|---:|---:|---|"
    for b in $boards; do
        m="$out/$b.csv" s="results/histograms/$b.csv"
        rm_=$(radius_of "$m")
        if [ -s "$s" ]; then
            rs=$(radius_of "$s") as=$(last_of "$s")
            [ "$rm_" -le "$rs" ] || { echo "results-mtm: $b MTM radius $rm_ above STM $rs" >&2; exit 1; }
        else
            rs="?" as="?"
        fi
        at=$(sed -n '1s/^# slide .*(commit \([0-9a-f-]*\)).*/\1/p' "$m")
        echo "| $b | $(boards_of "$m") | $rm_ | $(last_of "$m") | $rs | $as | $at |"
    done
    echo
    echo "Searched at: the commit of the slide that searched the board (the first"
    echo "line of its B.csv, whose provenance block says the rest)."
} > "$out/summary.md.tmp"
mv "$out/summary.md.tmp" "$out/summary.md"
cat "$out/summary.md"
