#!/bin/sh
# bench-mpi.sh - figures of the MPI search (make bench-mpi; not a test).
#
# BENCH_MPI_RUNS lists boards and process counts as RxC:P,P,... (default
# "3x4:1,2,3,4 2x6:1,2,3,4"; 3x4 and 2x6 are the two 239.5M-board spaces);
# BENCH_MPI_VOLUME lists runs whose volumes only are wanted (default
# "3x4:16,32": oversubscribed, their times mean nothing; "" for none); BENCH_MPI_REPEAT
# runs each timed case that many times (default 2).  For each board: the
# single-process search (bfs.c, `slide bfs RxC --threads T`) as the
# baseline in the same invocation, then for each P
#   mpirun -n P slide-mpi bfs RxC --mpi --threads T --stats
# (T = BENCH_MPI_THREADS, default 1; BENCH_MPI_MODES="backward forward"
# adds --no-backward runs; default backward, the default of both programs).
#
# For each run: wall time; CPU seconds of the whole job from /usr/bin/time
# (user + sys, mpirun and every process: on a machine with fewer free cores
# than processes this includes Open MPI's busy polling while a process
# waits for its peers); and, from the --stats lines, the CPU seconds the
# processes spent in the scan (expand), in sorting, encoding and decoding
# (exchange, MPI calls left out) and in marking what came and closing
# (mark), summed over the processes; nanoseconds per board of expand + mark
# and its ratio to slide bfs's CPU per board; the payload bytes sent and
# bytes per board; messages and rounds; peak RSS of the largest process.
# Every histogram must equal the single-process one (consistency; the
# tests check both against published values).  The per-layer tables go to
# build/bench-mpi/layers-RxC-P-MODE-K.txt.  Run it under
# `flock -x /work/notes/cpu.lock` on a shared machine; the load average
# before and after each board is printed.
set -eu
cd "$(dirname "$0")/.."
command -v mpirun >/dev/null 2>&1 || { echo "bench-mpi: no mpirun (make deps)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-mpi: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
RUNS=${BENCH_MPI_RUNS:-3x4:1,2,3,4 2x6:1,2,3,4}
VOLUME=${BENCH_MPI_VOLUME-3x4:16,32}
MODES=${BENCH_MPI_MODES:-backward}
THREADS=${BENCH_MPI_THREADS:-1}
REPEAT=${BENCH_MPI_REPEAT:-2}
BUDGET=${BENCH_MPI_BUDGET:-64M}
OUT=build/bench-mpi
mkdir -p "$OUT"
root=""
[ "$(id -u)" = 0 ] && root="--allow-run-as-root"
cores=$(nproc)
hist() { sed -n '/distance/,/^boards/p' "$1" | grep -v '^boards'; }
load() { cut -d' ' -f1 /proc/loadavg; }

# timed OUTFILE CMD...: run CMD, stdout to OUTFILE, stderr to OUTFILE.err;
# prints "cpu wall maxrss_kb"
timed() {
    o=$1
    shift
    /usr/bin/time -f "%U %S %e %M" -o "$OUT/time" "$@" > "$o" 2> "$o.err"
    awk '{ printf "%.2f %.2f %d\n", $1 + $2, $3, $4 }' "$OUT/time"
}

echo "bench-mpi: budget $BUDGET, $THREADS thread(s) per process, commit" \
     "$(git rev-parse --short HEAD 2>/dev/null || echo ?)$(git diff --quiet HEAD -- src include 2>/dev/null || echo -dirty)"
echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $cores cores," \
     "$(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)"
echo
echo "| board | program | P | mode | run | load | wall s | CPU s (time) | expand CPU s | exchange CPU s | mark CPU s | ns/board | vs bfs | bytes | bytes/board | rounds | peak RSS MB |"
echo "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
row_mpi() { # BOARD P MODE K LOAD CPU WALL RSS STATS BFS_NS BOARDS
    awk -v b="$1" -v P="$2" -v mode="$3" -v k="$4" -v ld="$5" -v cpu="$6" -v wall="$7" \
        -v rss="$8" -v base="${10}" -v boards="${11}" '
        /^mpi-layer/ { ex += $4; bytes += $7; rounds += $9; ce += $13; cx += $14; cm += $15 }
        END {
            ns = (ce + cm) / boards * 1e9
            printf "| %s | slide-mpi | %d | %s | %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2fx | %d | %.4f | %d | %.1f |\n",
                   b, P, mode, k, ld, wall, cpu, ce, cx, cm, ns, (base > 0 ? ns / base : 0),
                   bytes, bytes / boards, rounds, rss / 1024
        }' "$9"
}

for run in $RUNS; do
    BOARD=${run%%:*}
    PROCS=$(echo "${run#*:}" | tr ',' ' ')
    k=1
    while [ $k -le "$REPEAT" ]; do
        ld=$(load)
        set -- $(timed "$OUT/single-$BOARD.txt" build/slide bfs "$BOARD" --threads "$THREADS" --no-progress)
        hist "$OUT/single-$BOARD.txt" > "$OUT/single-$BOARD.hist"
        boards=$(sed -n 's/^boards reached: \([0-9]*\).*/\1/p' "$OUT/single-$BOARD.txt")
        base=$(awk -v c="$1" -v n="$boards" 'BEGIN { printf "%.3f", c / n * 1e9 }')
        printf '| %s | slide bfs | - | backward | %d | %s | %.2f | %.2f | - | - | - | %.2f | 1.00x | - | - | - | %.1f |\n' \
            "$BOARD" "$k" "$ld" "$2" "$1" "$base" "$(($3 / 1024)).$(($3 % 1024 * 10 / 1024))"
        for P in $PROCS; do
            for MODE in $MODES; do
                flag=""
                [ "$MODE" = forward ] && flag="--no-backward"
                name="$BOARD-$P-$MODE-$k"
                ld=$(load)
                set -- $(timed "$OUT/mpi-$name.txt" mpirun $root --oversubscribe -n "$P" \
                    build/slide-mpi bfs "$BOARD" --mpi --threads "$THREADS" $flag --stats \
                    --budget "$BUDGET")
                hist "$OUT/mpi-$name.txt" > "$OUT/mpi-$name.hist"
                cmp -s "$OUT/single-$BOARD.hist" "$OUT/mpi-$name.hist" ||
                    { echo "bench-mpi: $name: histogram differs from one process" >&2; exit 1; }
                row_mpi "$BOARD" "$P" "$MODE" "$k" "$ld" "$1" "$2" "$3" "$OUT/mpi-$name.txt.err" \
                    "$base" "$boards"
                awk 'BEGIN { print "distance count expanded remote bytes messages rounds expand_s exchange_s mark_s cpu_expand cpu_exchange cpu_mark dir" }
                     /^mpi-layer/ { print $2, $3, $4, $5, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16 }' \
                    "$OUT/mpi-$name.txt.err" > "$OUT/layers-$name.txt"
            done
        done
        k=$((k + 1))
    done
done

echo
echo "Volumes (oversubscribed; times mean nothing): P, boards expanded or scanned, remote"
echo "indexes (distinct), payload bytes, bytes per board, messages, rounds, peak RSS"
echo "of rank 0 and what the memory guard counts per process."
echo
echo "| board | P | mode | expanded | remote indexes | bytes | bytes/board | bytes/index | messages | rounds | rank 0 peak RSS MB | guard per process MB |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for run in $VOLUME; do
    BOARD=${run%%:*}
    for P in $(echo "${run#*:}" | tr ',' ' '); do
        for MODE in $MODES; do
            flag=""
            [ "$MODE" = forward ] && flag="--no-backward"
            name="$BOARD-$P-$MODE-volume"
            mpirun $root --oversubscribe --mca mpi_yield_when_idle 1 -n "$P" build/slide-mpi \
                bfs "$BOARD" --mpi --threads 1 $flag --stats --budget "$BUDGET" \
                > "$OUT/mpi-$name.txt" 2> "$OUT/mpi-$name.txt.err"
            hist "$OUT/mpi-$name.txt" > "$OUT/mpi-$name.hist"
            [ ! -f "$OUT/single-$BOARD.hist" ] || cmp -s "$OUT/single-$BOARD.hist" "$OUT/mpi-$name.hist" ||
                { echo "bench-mpi: $name: histogram differs from one process" >&2; exit 1; }
            rss=$(sed -n 's/.*peak memory of rank 0 \([0-9.]*\) MB.*/\1/p' "$OUT/mpi-$name.txt")
            guard=$(sed -n 's/.*(rank 0: \([0-9]*\)).*/\1/p' "$OUT/mpi-$name.txt")
            awk -v b="$BOARD" -v P="$P" -v mode="$MODE" -v rss="$rss" -v guard="$guard" '
                /^mpi-layer/ { ex += $4; rem += $5; bytes += $7; msg += $8; rounds += $9 }
                END { printf "| %s | %d | %s | %d | %d | %d | %.4f | %.3f | %d | %d | %s | %.1f |\n",
                             b, P, mode, ex, rem, bytes, bytes / ex, rem ? bytes / rem : 0, msg,
                             rounds, rss, guard / 1e6 }' "$OUT/mpi-$name.txt.err"
            awk 'BEGIN { print "distance count expanded remote bytes messages rounds dir" }
                 /^mpi-layer/ { print $2, $3, $4, $5, $7, $8, $9, $16 }' \
                "$OUT/mpi-$name.txt.err" > "$OUT/layers-$name.txt"
        done
    done
done
echo
echo "per-layer figures: $OUT/layers-*.txt; load after: $(load)"
