#!/bin/sh
# bench-mpi.sh - figures of the MPI search (make bench-mpi; not a test).
#
# For BOARD (default 3x4; BENCH_MPI_BOARD=2x6 for the other 239.5M-board
# space): the single-process search (bfs.c, 1 thread) as the baseline, then
# mpirun -n P for P = 1..4 and P = BENCH_MPI_BIG_P (default 16,
# oversubscribed; BENCH_MPI_PROCS="2 4" to choose the others).  For each: wall time, the time split (sum over layers of
# each layer's slowest process) into expand, exchange (encode, send,
# receive, and waiting for the slowest peer) and mark, the payload bytes
# sent per board expanded and per remote index (the delta coding), the
# messages and exchange rounds.  Message counts and bytes do not depend on
# the machine's speed; times do, and on a shared 2-core machine P > 2 only
# shows the cost of oversubscription.  The per-layer table of the largest P
# is written to build/bench-mpi/layers-P.txt.  Every run's histogram must
# equal the single-process one (consistency; the tests check both against
# published values).
set -eu
cd "$(dirname "$0")/.."
command -v mpirun >/dev/null 2>&1 || { echo "bench-mpi: no mpirun (make deps)" >&2; exit 1; }
BOARD=${BENCH_MPI_BOARD:-3x4}
BIG=${BENCH_MPI_BIG_P:-16}
BUDGET=${BENCH_MPI_BUDGET:-64M}
PROCS=${BENCH_MPI_PROCS:-1 2 3 4}
OUT=build/bench-mpi
mkdir -p "$OUT"
root=""
[ "$(id -u)" = 0 ] && root="--allow-run-as-root"
now() { date +%s.%N; }

echo "bench-mpi: $BOARD, budget $BUDGET; load before: $(uptime | sed 's/.*load/load/')"
echo "cores: $(nproc); the machine is shared: times are disturbed, bytes and messages are not"
t0=$(now)
build/slide bfs "$BOARD" --threads 1 --no-progress > "$OUT/single.txt"
t1=$(now)
echo "single process (bfs.c, 1 thread, backward scan on): $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s wall"
sed -n '/distance/,/^boards/p' "$OUT/single.txt" | grep -v '^boards' > "$OUT/single.hist"

printf '%4s %8s %8s %8s %8s %12s %12s %9s %9s %9s %7s\n' P wall expand exchange mark \
    expanded remote bytes/bd bytes/idx messages rounds
for P in $PROCS $BIG; do
    t0=$(now)
    nice -n 10 mpirun $root --oversubscribe -n "$P" build/slide-mpi bfs "$BOARD" --mpi \
        --stats --budget "$BUDGET" > "$OUT/mpi-$P.txt" 2> "$OUT/stats-$P.txt"
    t1=$(now)
    sed -n '/distance/,/^boards/p' "$OUT/mpi-$P.txt" | grep -v '^boards' > "$OUT/mpi-$P.hist"
    cmp -s "$OUT/single.hist" "$OUT/mpi-$P.hist" ||
        { echo "bench-mpi: P=$P histogram differs from one process" >&2; exit 1; }
    grep '^mpi-layer' "$OUT/stats-$P.txt" | awk -v P="$P" -v wall="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" '
        { nex += $4; rem += $5; bytes += $7; msg += $8; rounds += $9
          te += $10; tx += $11; tm += $12 }
        END { printf "%4d %8.1f %8.1f %8.1f %8.1f %12d %12d %9.4f %9.3f %9d %7d\n",
                     P, wall, te, tx, tm, nex, rem, nex ? bytes / nex : 0,
                     rem ? bytes / rem : 0, msg, rounds }'
done
P=$BIG
awk 'BEGIN { print "distance count expanded remote bytes messages rounds expand_s exchange_s mark_s" }
     /^mpi-layer/ { print $2, $3, $4, $5, $7, $8, $9, $10, $11, $12 }' \
    "$OUT/stats-$P.txt" > "$OUT/layers-$P.txt"
echo "per-layer figures for P=$P: $OUT/layers-$P.txt"
echo "load after: $(uptime | sed 's/.*load/load/')"
