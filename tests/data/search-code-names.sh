#!/bin/sh
# search-code-names.sh SCRIPT - a fixture for test_results: builds a tiny
# git repository whose src/engine/bfs.c holds search functions declared with
# attributes (one-line and two-line signatures), changes each in a commit of
# its own, and runs SCRIPT (check-search-code.sh) on each change.  Prints
# "rc=N" after each run's output; exits 0 unless the fixture itself fails.
set -eu
script=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/scripts" "$t/src/engine"
cp "$script" "$t/scripts/check-search-code.sh"
cd "$t"
git init -q
git config user.email fixture@example.org
git config user.name fixture
cat > src/engine/bfs.c <<'C'
static __attribute__((noinline)) int worker_move(int h)
{
    return h + 1;
}

static inline __attribute__((always_inline)) int
window_target(int j)
{
    return j;
}

int bfs_run(int h)
{
    return worker_move(h) + window_target(h);
}
C
git add -A
git commit -qm base
base=$(git rev-parse HEAD)
sed -i 's/return h + 1;/return h + 2;/' src/engine/bfs.c
git commit -qam move
move=$(git rev-parse HEAD)
git checkout -q "$base" -- src/engine/bfs.c
sed -i 's/return j;/return j + 1;/' src/engine/bfs.c
git commit -qam target
target=$(git rev-parse HEAD)
for c in "$move" "$target"; do
    rc=0
    sh scripts/check-search-code.sh "$base" "$c" 2>&1 || rc=$?
    echo "rc=$rc"
done
