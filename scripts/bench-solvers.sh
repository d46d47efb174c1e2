#!/bin/sh
# bench-solvers.sh [SEED] - figures for the layer-by-layer construction and
# the bidirectional search (not part of `make test`):
#   1. time and moves of the layer construction on a random solvable n x n
#      board, n = 10, 100, 1000 (count only; n = 10 and 100 also store the
#      moves and replay them to the goal);
#   2. the ratio of the layer length to the optimum (bidirectional BFS) on
#      random solvable 3x3 and 2x5 boards.
# The boards come from a seeded generator in tests/solvers_driver.c, so a
# run is reproducible.  Takes about a minute of one core (the 1000 x 1000
# board is most of it: about 2.7e9 moves).
set -eu
cd "$(dirname "$0")/.."
seed=${1:-20240601}
CC=${CC:-cc}
make -s build/libslide.a
ZLIB_LIBS=$(pkg-config --libs zlib 2>/dev/null || echo -lz)
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra -fopenmp -Iinclude \
    -o build/solvers-driver tests/solvers_driver.c build/libslide.a $ZLIB_LIBS -lm
drv=build/solvers-driver

echo "# layer construction on a random solvable n x n board (seed $seed)"
echo "# n moves seconds moves/n^3 bound"
for n in 10 100; do
    $drv time-layers $n "$seed" --store
done
for n in 10 100 1000; do
    $drv time-layers $n "$seed"
done

echo "# layer length / optimum (bidirectional BFS) on random solvable boards"
echo "# board count mean_ratio min_ratio max_ratio mean_layers mean_optimum"
$drv ratio 3x3 1000 "$seed"
$drv ratio 2x5 200 "$seed"
