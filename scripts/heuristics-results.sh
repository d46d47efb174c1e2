#!/bin/sh
# heuristics-results.sh [RxC...] - regenerate the heuristic tables of
# results/: for each board (default 3x3 2x5 3x4 2x6)
#   results/heuristics-RxC.csv      one record per heuristic (slide heuristic
#                                   --format csv), after a '# ' provenance block
#   results/heuristics-RxC.log      the rest of the run: boards, radius, the
#                                   boards listed as violations, wall time
#   results/joint/RxC-NAME.csv      the joint (distance, h) table per heuristic
# Each file is written under a temporary name and renamed when complete.
# Run from the repository root after make; SLIDE overrides build/slide,
# THREADS the thread count (default: all cores), RESULTS the directory
# (default results; the drift test writes 3x3 and 2x5 elsewhere and compares).
# METRIC=mtm checks the heuristics against exact multi-tile distances
# (`slide heuristic --metric mtm`; RESULTS then defaults to results/mtm):
# where the single-tile heuristics fail, and that wd, MTM's walking
# distance, does not.
set -eu
SLIDE=${SLIDE:-build/slide}
METRIC=${METRIC:-stm}
case $METRIC in
    stm) RESULTS=${RESULTS:-results} metric= ;;
    mtm) RESULTS=${RESULTS:-results/mtm} metric="--metric mtm" ;;
    *) echo "heuristics-results: METRIC is stm or mtm, not '$METRIC'" >&2; exit 2 ;;
esac
LIST=misplaced,manhattan,lc,lc-pairs,wd
mkdir -p "$RESULTS/joint"
for board in ${*:-3x3 2x5 3x4 2x6}; do
    out=$RESULTS/heuristics-$board
    echo "heuristics-results: $board" >&2
    "$SLIDE" heuristic "$board" $metric --h "$LIST" --format csv --provenance --no-progress \
        ${THREADS:+--threads "$THREADS"} --joint "$RESULTS/joint/$board.csv" \
        >"$out.csv.tmp" 2>"$out.log.tmp"
    mv "$out.csv.tmp" "$out.csv"
    mv "$out.log.tmp" "$out.log"
done
