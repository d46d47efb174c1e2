#!/bin/sh
# bench-pdb-build.sh - the build of the 7-8 partition of the 15-puzzle (the
# issue's target: at most 3 minutes and 2 GB on 2 cores), REPEAT times
# (default 3), each line with the load average before and after, wall, user
# and system CPU and peak RSS, appended to results/pdb-build.txt; with
# CALLGRIND=1 also the instructions of the 6-tile table 1,2,3,5,6,9 on one
# thread (deterministic; valgrind needed).  Report the minimum wall time of
# the repeats and the load beside it: the machine may be shared.  Not a test.
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-build/slide}
OUT=${OUT:-results}
REPEAT=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT"
log="$OUT/pdb-build.txt"
[ -f "$log" ] || echo "# pdb build 4x4 --partition 7-8 (scripts/bench-pdb-build.sh)" > "$log"
echo "## $("$SLIDE" --version | head -1), $(nproc) cores" >> "$log"
i=0
while [ "$i" -lt "$REPEAT" ]; do
    i=$((i + 1))
    before=$(cut -d' ' -f1-3 /proc/loadavg)
    rm -rf "$tmp/78"
    /usr/bin/time -o "$tmp/time" -f "wall %e s, user %U s, sys %S s, peak RSS %M KB" \
        "$SLIDE" pdb build 4x4 --partition 7-8 -o "$tmp/78" > "$tmp/out"
    echo "7-8 run $i: $(cat "$tmp/time"); load before $before, after $(cut -d' ' -f1-3 /proc/loadavg)" >> "$log"
    grep -o 'build [0-9.]* s' "$tmp/out" | tr '\n' ' ' | sed 's/^/  tables: /;s/ $/\n/' >> "$log"
done
if [ "${CALLGRIND:-0}" = 1 ]; then
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$SLIDE" pdb build 4x4 \
        --pattern 1,2,3,5,6,9 --threads 1 -o "$tmp/6.pdb" > /dev/null 2> "$tmp/vg"
    echo "6-tile 1,2,3,5,6,9 one thread: $(grep -o 'refs: *[0-9,]*' "$tmp/vg") instructions" >> "$log"
fi
