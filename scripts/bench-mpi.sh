#!/bin/sh
# bench-mpi.sh - figures of the MPI search (make bench-mpi; not a test).
#
# BENCH_MPI_RUNS lists boards and process counts as RxC:P,P,... (default
# "3x4:1,2,3,4,16 2x6:2,3"; 3x4 and 2x6 are the two 239.5M-board spaces).
# For each board: the single-process search (bfs.c, 1 thread, backward
# scan on) as the baseline, then for each P two runs of
#   mpirun -n P slide-mpi bfs RxC --mpi --threads T     (backward: the late
#                                                      layers scan unvisited
#                                                      boards and ask owners)
#   ... --no-backward                                  (forward: every layer)
# (BENCH_MPI_MODES="backward forward" chooses; T = BENCH_MPI_THREADS,
# default 1).  For each run: wall time, the time split (sum over layers of
# each layer's slowest process) into expand, exchange (encode, send,
# receive, waiting for the slowest peer) and mark (with the closing pass of
# backward layers), the boards expanded or scanned, the indexes sent
# (neighbours or queries, de-duplicated), payload bytes per board expanded
# and per index, messages, exchange rounds and backward layers.  Message
# counts and bytes do not depend on the machine's speed; times do, and on a
# shared 2-core machine P > 2 only shows the cost of oversubscription.  The
# per-layer tables go to build/bench-mpi/layers-RxC-P-MODE.txt.  Every
# run's histogram must equal the single-process one (consistency; the tests
# check both against published values).
set -eu
cd "$(dirname "$0")/.."
command -v mpirun >/dev/null 2>&1 || { echo "bench-mpi: no mpirun (make deps)" >&2; exit 1; }
RUNS=${BENCH_MPI_RUNS:-3x4:1,2,3,4,16 2x6:2,3}
MODES=${BENCH_MPI_MODES:-backward forward}
THREADS=${BENCH_MPI_THREADS:-1}
BUDGET=${BENCH_MPI_BUDGET:-64M}
OUT=build/bench-mpi
mkdir -p "$OUT"
root=""
[ "$(id -u)" = 0 ] && root="--allow-run-as-root"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
hist() { sed -n '/distance/,/^boards/p' "$1" | grep -v '^boards'; }

echo "bench-mpi: budget $BUDGET, $THREADS thread(s) per process, commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
echo "cores: $(nproc); the machine may be shared: times are disturbed, bytes and messages are not"
for run in $RUNS; do
    BOARD=${run%%:*}
    PROCS=$(echo "${run#*:}" | tr ',' ' ')
    echo
    echo "== $BOARD; load before: $(uptime | sed 's/.*load/load/')"
    t0=$(now)
    nice -n 10 build/slide bfs "$BOARD" --threads 1 --no-progress > "$OUT/single-$BOARD.txt"
    t1=$(now)
    echo "single process (bfs.c, 1 thread, backward scan on): $(secs "$t0" "$t1") s wall"
    hist "$OUT/single-$BOARD.txt" > "$OUT/single-$BOARD.hist"
    printf '%4s %-8s %7s %7s %8s %6s %11s %10s %8s %8s %9s %6s %4s\n' P mode wall expand \
        exchange mark expanded remote bytes/bd bytes/idx messages rounds back
    for P in $PROCS; do
        for MODE in $MODES; do
            flag=""
            [ "$MODE" = forward ] && flag="--no-backward"
            name="$BOARD-$P-$MODE"
            t0=$(now)
            nice -n 10 mpirun $root --oversubscribe -n "$P" build/slide-mpi bfs "$BOARD" --mpi \
                --threads "$THREADS" $flag --stats --budget "$BUDGET" \
                > "$OUT/mpi-$name.txt" 2> "$OUT/stats-$name.txt"
            t1=$(now)
            hist "$OUT/mpi-$name.txt" > "$OUT/mpi-$name.hist"
            cmp -s "$OUT/single-$BOARD.hist" "$OUT/mpi-$name.hist" ||
                { echo "bench-mpi: $name: histogram differs from one process" >&2; exit 1; }
            grep '^mpi-layer' "$OUT/stats-$name.txt" |
                awk -v P="$P" -v mode="$MODE" -v wall="$(secs "$t0" "$t1")" '
                { nex += $4; rem += $5; bytes += $7; msg += $8; rounds += $9
                  te += $10; tx += $11; tm += $12; back += ($13 == "B") }
                END { printf "%4d %-8s %7.1f %7.1f %8.1f %6.1f %11d %10d %8.4f %8.3f %9d %6d %4d\n",
                             P, mode, wall, te, tx, tm, nex, rem, nex ? bytes / nex : 0,
                             rem ? bytes / rem : 0, msg, rounds, back }'
            awk 'BEGIN { print "distance count expanded remote bytes messages rounds expand_s exchange_s mark_s dir" }
                 /^mpi-layer/ { print $2, $3, $4, $5, $7, $8, $9, $10, $11, $12, $13 }' \
                "$OUT/stats-$name.txt" > "$OUT/layers-$name.txt"
        done
    done
done
echo
echo "per-layer figures: $OUT/layers-RxC-P-MODE.txt"
echo "load after: $(uptime | sed 's/.*load/load/')"
