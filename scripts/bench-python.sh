#!/bin/sh
# bench-python.sh - the Python package's rates (make bench-python): boards
# per second through slide's numpy API, wall clock with every core and per
# CPU second (wall / CPU time of the process: the figure a loaded machine
# does not distort as much), with the load average before and after.
#   rank, unrank      3x4, uniform random boards (slide.sample)
#   Database          distance lookups: 2x5 and 3x4 --encoding 8 (a byte per
#                     board, read directly), the 3x4 file --uncompressed too
#                     (mapped, read in place), 2x5 --encoding 1 (a walk to
#                     the goal per board); and the seconds to open each 3x4
#   PatternDatabase   h of 4x4 boards: 5-5-5 and 6-6-3 (additive, disjoint)
# Targets (issue 45): rank/unrank >= 20 M boards/s, lookups >= 10 M/s, PDB
# h >= 5 M/s on 2 cores.  Tables go to $BENCH_DIR (default build/bench-python).
# Environment: PYTHON (the interpreter), PYTHONPATH (the built package),
# SLIDE (the binary), N (boards per measurement, default 4000000).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-$(sh "$here/python-find.sh")}
slide=${SLIDE:-$here/../build/slide}
dir=${BENCH_DIR:-$here/../build/bench-python}
mkdir -p "$dir"
[ -f "$dir/2x5-8.db" ] || "$slide" bfs 2x5 --save "$dir/2x5-8.db" --encoding 8 --no-progress >/dev/null 2>&1
[ -f "$dir/2x5-1.db" ] || "$slide" bfs 2x5 --save "$dir/2x5-1.db" --no-progress >/dev/null 2>&1
[ -f "$dir/3x4-8.db" ] || "$slide" bfs 3x4 --save "$dir/3x4-8.db" --encoding 8 --no-progress >/dev/null 2>&1
[ -f "$dir/3x4-8u.db" ] || "$slide" db recompress "$dir/3x4-8.db" "$dir/3x4-8u.db" --uncompressed >/dev/null 2>&1
[ -d "$dir/pdb555" ] || "$slide" pdb build 4x4 --partition 5-5-5 -o "$dir/pdb555" >/dev/null 2>&1
[ -d "$dir/pdb663" ] || "$slide" pdb build 4x4 --partition 6-6-3 -o "$dir/pdb663" >/dev/null 2>&1
echo "# bench-python: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $("$py" --version 2>&1) ($py), numpy $("$py" -c 'import numpy; print(numpy.__version__)')"
echo "# commit $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "# load before: $(uptime | sed 's/.*load average: //')"
echo "# a shared machine: the wall rates are lower than an idle machine's by"
echo "# about the load; the per-CPU-second rates are less affected"
DIR=$dir N=${N:-4000000} "$py" - <<'PY'
import os, time
import numpy as np
import slide

N = int(os.environ["N"])
d = os.environ["DIR"]


def measure(name, f, target=None):
    f()  # warm: tables touched, pages mapped
    t, c = time.perf_counter(), time.process_time()
    f()
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    tgt = "" if target is None else "  (target %d M/s)" % target
    print("%-34s %7.2f M boards/s wall  %7.2f M per CPU s%s" % (name, N / wall / 1e6,
                                                              N / cpu / 1e6, tgt))


b12 = slide.sample("3x4", N, seed=1)
r12 = slide.rank(b12)
measure("rank 3x4", lambda: slide.rank(b12), 20)
measure("unrank 3x4", lambda: slide.unrank(r12, "3x4"), 20)
b10 = slide.sample("2x5", N, seed=2)
for name in ("2x5-8", "3x4-8", "3x4-8u", "2x5-1"):
    t, c = time.perf_counter(), time.process_time()
    db = slide.Database(os.path.join(d, name + ".db"))
    if name.startswith("3x4"):
        print("open %-29s %7.3f s wall  %7.3f CPU s" % (name + (" (mapped)" if db.mapped else ""),
                                                      time.perf_counter() - t,
                                                      time.process_time() - c))
    b = b12 if name.startswith("3x4") else b10
    how = "mapped" if db.mapped else "enc %d" % db.encoding
    measure("Database %s distance (%s)" % (db.size, how), lambda: db.distance(b),
            10 if db.encoding == 8 else None)
b16 = slide.sample("4x4", N, seed=3)
for name in ("pdb555", "pdb663"):
    p = slide.PatternDatabase(os.path.join(d, name))
    measure("PatternDatabase 4x4 %s h" % name[3:], lambda: p.h(b16), 5)
measure("manhattan 4x4", lambda: slide.manhattan(b16))
PY
echo "# load after: $(uptime | sed 's/.*load average: //')"
