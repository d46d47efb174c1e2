#!/bin/sh
# pdb-results.sh [RxC...] - pattern database heuristics swept against the
# exact distance of every board (slide heuristic), for each board (default
# 3x3 2x5 3x4 2x6):
#   results/pdb-heuristics-RxC.csv   one record per heuristic (admissible,
#                                    violations, consistency, mean h, mean d,
#                                    exact fraction), after a provenance block
#   results/pdb-heuristics-RxC.log   the rest of the run (violating boards...)
#   results/joint/pdb-RxC-NAME.csv   the joint (distance, h) table
# The tables are built into a temporary directory (slide pdb build) and
# deleted afterwards.  Each board gets additive partitions, a plain table
# and one deliberately overlapping sum (a tile in two tables), which the
# sweep must find inadmissible; square boards also the mirrored lookup.
# SLIDE overrides build/slide, THREADS the thread count, RESULTS the folder.
set -eu
SLIDE=${SLIDE:-build/slide}
RESULTS=${RESULTS:-results}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$RESULTS/joint"

# sets RxC: the heuristics of a board, as "NAME=TILES+TILES" words; a
# trailing ! marks a plain table
sets() {
    case $1 in
    3x3) echo "a=1-4+5-8 b=1,2,3+4,5,6+7,8 p=1-4! o=1-4+3-7" ;;
    2x5) echo "a=1,2,3,6,7+4,5,8,9 b=1,2,6,7+3,4,5,8,9 p=1-4! o=1-5+5-9" ;;
    3x4) echo "a=1,2,5,6,9,10+3,4,7,8,11 b=1-4+5,6,9,10+7,8,11 p=1-4! o=1-6+6-11" ;;
    2x6) echo "a=1,2,3,7,8,9+4,5,6,10,11 b=1-4+5,6,10,11+7,8,9 p=1-4! o=1-6+6-11" ;;
    *) echo "pdb-results: no tile sets for $1" >&2; exit 2 ;;
    esac
}

for board in ${*:-3x3 2x5 3x4 2x6}; do
    echo "pdb-results: $board" >&2
    list=""
    for s in $(sets "$board"); do
        name=${s%%=*} tiles=${s#*=} kind=--additive files=""
        case $tiles in *!) kind=--plain tiles=${tiles%!} ;; esac
        k=0
        for t in $(echo "$tiles" | tr '+' ' '); do
            k=$((k + 1))
            f="$tmp/$board-$name$k.pdb"
            "$SLIDE" pdb build "$board" --pattern "$t" $kind -o "$f" >/dev/null
            files="$files${files:++}$f"
        done
        list="$list${list:+,}pdb:$files"
        case $board in 3x3) [ "$name" = o ] || list="$list,pdbr:$files" ;; esac
    done
    out=$RESULTS/pdb-heuristics-$board
    "$SLIDE" heuristic "$board" --h "manhattan,$list" --format csv --provenance --no-progress \
        ${THREADS:+--threads "$THREADS"} --joint "$RESULTS/joint/pdb-$board.csv" \
        >"$out.csv.tmp" 2>"$out.log.tmp"
    mv "$out.csv.tmp" "$out.csv"
    mv "$out.log.tmp" "$out.log"
done
