#!/bin/sh
# results-mtm-korf.sh - the multi-tile-metric (MTM) optimal length of each of
# Korf's 100 15-puzzle instances beside its published single-tile (STM)
# length, into results/mtm/korf100.csv and korf100.md:
#
#   sh scripts/results-mtm-korf.sh          (about a minute of CPU, 6 tables
#                                            of 21 MB built first)
#
# How each length is made sure:
#   A. IDA* in MTM (slide solve --metric mtm) with the larger of the MTM
#      walking distance and three MTM pattern databases (tiles 1-6, 7-12,
#      10-15; each an exact abstract MTM distance over (tiles, blank cell),
#      so admissible; maxed, never summed, since one move may slide tiles of
#      several patterns) and their mirror about the main diagonal (--reflect:
#      the transpose maps row moves to column moves, so the MTM move set to
#      itself).
#   B. IDA* again with three other tables (tiles 1,2,5,6,9,13 / 3,4,7,8,11,12
#      / 9,10,11,13,14,15) and no mirror: a different heuristic, a different
#      search order.  Both lengths must be equal.
#   C. Every path of A replayed by scripts/replay-mtm.py, which knows only the
#      rules (the blank jumps along its row or column; one move is one jump)
#      and not slide: it must end on the goal in the stated number of moves.
#   D. Where A's length is at most BIBFS_MAX (default 31), the length again by
#      slide's bidirectional BFS (--method bibfs --metric mtm), which uses no
#      heuristic at all, under BIBFS_STATES stored boards (default 400 M,
#      36 bytes each).
# And two bounds that hold for any board: MTM length <= STM length (an STM
# path is an MTM path) and 3 x MTM length >= STM length (an MTM move on 4x4
# slides at most 3 tiles).  Any disagreement stops the script (exit 1) with
# the files it has written so far kept as *.tmp for a look.
#
# Refuses to run when src, include, the Makefile or scripts have uncommitted
# changes, or when build/slide was built from another commit, unless
# ALLOW_DIRTY=1.  THREADS: boards solved at once (default nproc; one thread
# per board).  MAX_NODES: the expansions cap of each IDA* search (default
# 2e9; a board that reaches it is reported with the lower bound it proved).
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-$PWD/build/slide}
out=${OUT:-results/mtm}
threads=${THREADS:-$(nproc)}
max_nodes=${MAX_NODES:-2000000000}
bibfs_max=${BIBFS_MAX:-31}
bibfs_states=${BIBFS_STATES:-400000000}
if [ "${ALLOW_DIRTY:-0}" != 1 ]; then
    if [ -n "$(git status --porcelain -- src include Makefile scripts)" ]; then
        echo "results-mtm-korf: uncommitted changes in src, include, Makefile or scripts" \
             "(commit them, or ALLOW_DIRTY=1)" >&2
        exit 1
    fi
    head=$(git rev-parse --short HEAD)
    if ! "$SLIDE" --version | grep -q "commit $head)"; then
        echo "results-mtm-korf: $SLIDE was not built from $head (make, then run again)" >&2
        exit 1
    fi
fi
command -v python3 > /dev/null || { echo "results-mtm-korf: needs python3 (the replay check)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
load_before=$(load)

# the tables: 3 x 57,657,600 entries each set, built in a few seconds each
build() { # NAME TILES
    "$SLIDE" pdb build 4x4 --pattern "$2" --mtm --threads "$threads" -o "$tmp/$1.pdb" \
        > /dev/null 2>> "$tmp/build.log"
}
build a1 1-6; build a2 7-12; build a3 10-15
build b1 1,2,5,6,9,13; build b2 3,4,7,8,11,12; build b3 9,10,11,13,14,15
ha="max(wd,pdb:$tmp/a1.pdb+$tmp/a2.pdb+$tmp/a3.pdb)"
hb="max(wd,pdb:$tmp/b1.pdb+$tmp/b2.pdb+$tmp/b3.pdb)"

grep -v '^#' tests/data/korf100.txt | cut -f3 > "$tmp/boards"
solve() { # OUT H [--reflect]
    f=$1 h=$2
    shift 2
    "$SLIDE" solve --size 4x4 --metric mtm --h "$h" "$@" --max-nodes "$max_nodes" \
        --threads "$threads" --format csv - < "$tmp/boards" > "$f" 2>> "$tmp/solve.log"
}
t0=$(date +%s)
solve "$tmp/a.csv" "$ha" --reflect
t1=$(date +%s)
solve "$tmp/b.csv" "$hb"
t2=$(date +%s)

# D: the heuristic-free bidirectional BFS on the boards within reach
python3 - "$tmp/a.csv" "$bibfs_max" > "$tmp/bibfs.boards" <<'EOF'
import csv, sys
for i, r in enumerate(csv.DictReader(open(sys.argv[1]))):
    if r["status"] == "optimal" and int(r["length"]) <= int(sys.argv[2]):
        print(i + 1, r["board"], sep="\t")
EOF
: > "$tmp/bibfs"
while IFS="$(printf '\t')" read -r id board; do
    s=$(date +%s.%N)
    n=$("$SLIDE" solve --method bibfs --metric mtm --max-states "$bibfs_states" --count "$board") ||
        n="-"
    e=$(date +%s.%N)
    awk -v i="$id" -v n="$n" -v s="$s" -v e="$e" 'BEGIN { printf "%s\t%s\t%.1f\n", i, n, e - s }' \
        >> "$tmp/bibfs"
done < "$tmp/bibfs.boards"
t3=$(date +%s)
load_after=$(load)

python3 scripts/replay-mtm.py --table tests/data/korf100.txt "$tmp/a.csv" "$tmp/b.csv" \
    "$tmp/bibfs" > "$out/korf100.csv.tmp" 2> "$tmp/check.log" || {
    cat "$tmp/check.log" >&2
    echo "results-mtm-korf: a check failed ($out/korf100.csv.tmp)" >&2
    exit 1
}
{
    echo "# slide $("$SLIDE" --version | head -1 | cut -d' ' -f2-), $(date -u +%Y-%m-%dT%H:%MZ)," \
         "host $(uname -n), $(nproc) cores, scripts/results-mtm-korf.sh THREADS=$threads" \
         "MAX_NODES=$max_nodes BIBFS_MAX=$bibfs_max BIBFS_STATES=$bibfs_states;" \
         "load before $load_before, after $load_after; wall: search A $((t1 - t0)) s," \
         "search B $((t2 - t1)) s, bidirectional BFS $((t3 - t2)) s"
    echo "# stm_length: Korf (1985), tests/data/korf100.txt.  mtm_length: IDA* A (tables 1-6," \
         "7-12, 10-15, wd, mirror); length_b: IDA* B (tables 1,2,5,6,9,13 / 3,4,7,8,11,12 /" \
         "9,10,11,13,14,15, wd); bibfs_length: bidirectional BFS, no heuristic ('-' beyond" \
         "BIBFS_MAX); replay: A's path replayed by scripts/replay-mtm.py"
    cat "$out/korf100.csv.tmp"
} > "$tmp/csv"
mv "$tmp/csv" "$out/korf100.csv"
rm -f "$out/korf100.csv.tmp"
python3 scripts/replay-mtm.py --markdown "$out/korf100.csv" > "$out/korf100.md.tmp"
mv "$out/korf100.md.tmp" "$out/korf100.md"
tail -n 12 "$out/korf100.md"
