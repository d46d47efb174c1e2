#!/bin/sh
# bench-ida.sh [--korf] - IDA* benchmarks and the exhaustive cross-check that
# is too slow for `make test`:
#   1. IDA* with lc on all 181,440 boards of the 3x3, each against the plain
#      hash-set BFS of tests/testutil.h (scripts/bench-ida.c); fails on any
#      mismatch.  Takes ~10 s of CPU.
#   2. with --korf: the first 5 of Korf's 100 15-puzzle instances
#      (tests/data/korf100-first5.txt) with lc: length, nodes, seconds per
#      board (CSV from `slide solve`).  Takes ~10 s of CPU here.
# Run from the repository root after `make`; writes only to build/.
set -eu
make -s all
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra -fopenmp -Iinclude \
   -DTEST_DATA_DIR="\"$(pwd)/tests/data\"" -o build/bench-ida scripts/bench-ida.c \
   build/libslide.a $(pkg-config --libs cmocka 2>/dev/null || echo -lcmocka) -lz -lm
echo "== IDA* (lc) on every 3x3 board against BFS"
build/bench-ida 3x3 lc
if [ "${1:-}" = --korf ]; then
    echo "== Korf's instances 1-5 with lc"
    build/slide solve --size 4x4 --format csv - < tests/data/korf100-first5.txt |
        awk -F, 'NR == 1 { print "instance,length,expanded,generated,seconds"; next }
                 { print NR - 1 "," $5 "," $8 "," $9 "," $13 }'
fi
