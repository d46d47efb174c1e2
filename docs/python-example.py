"""The worked example of docs/python.md: slide from Python, for a researcher.

    make python-docs                       # writes the figures into docs/
    PYTHONPATH=build/python /usr/bin/python3 docs/python-example.py --out /tmp/x

1. the 3x3 histogram (every board's exact distance, by slide.bfs), plotted;
2. the error distribution d - h of Manhattan and of a pattern database sum
   over ALL boards of 3x4 (239,500,800; --size 3x3 for a quick run);
3. a labelled 4x4 sample for training: uniform random boards with their
   exact distance (IDA* with the 5-5-5 pattern databases) and heuristic
   values beside it, saved as CSV and plotted.
The pattern databases are built by the slide CLI (`slide pdb build`), found
as $SLIDE, build/slide or slide on PATH.
"""
import argparse
import csv
import os
import shutil
import subprocess
import time

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
import numpy as np

import slide

HERE = os.path.dirname(os.path.abspath(__file__))


def slide_cli():
    for c in (os.environ.get("SLIDE"), os.path.join(HERE, "..", "build", "slide"),
              shutil.which("slide")):
        if c and os.path.exists(c):
            return c
    raise SystemExit("the slide binary is needed to build pattern databases: make, or SLIDE=...")


def build_pdb(args, out):
    """`slide pdb build` unless out exists already."""
    if not os.path.exists(out):
        subprocess.run([slide_cli(), "pdb", "build"] + args + ["-o", out], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


def histogram_3x3(out):
    """Figure 1: boards at each distance of the 8-puzzle."""
    r = slide.bfs("3x3")  # r.distances: uint8 by rank; r.histogram: counts
    d = np.arange(len(r.histogram))
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.bar(d, r.histogram, color="#4a78b5")
    ax.set_xlabel("distance from the goal (moves)")
    ax.set_ylabel("boards")
    ax.set_title("3x3: %d boards, radius %d" % (r.histogram.sum(), d[-1]))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "python-histogram-3x3.png"), dpi=110)
    plt.close(fig)
    return r


def errors(size, work, out, chunk=8_000_000):
    """Figure 2: d - h over every board of size, for Manhattan and a PDB sum."""
    rows, cols = slide.size_of(size)
    n = rows * cols
    # two disjoint additive tables: the "a" sets of results/pdb-heuristics-*.csv
    # for 3x3 and 3x4 (so the mean error can be read off there), halves otherwise
    sets = {(3, 3): ["1-4", "5-8"], (3, 4): ["1,2,5,6,9,10", "3,4,7,8,11"]}.get(
        (rows, cols), ["1-%d" % (n // 2), "%d-%d" % (n // 2 + 1, n - 1)])
    tables = slide.PatternDatabase([
        build_pdb([size, "--pattern", t], os.path.join(work, "%s-%s.pdb" % (size, t)))
        for t in sets])
    t0 = time.time()
    dist = slide.bfs(size).distances  # one byte per board: 240 MB for 3x4
    err_m = np.zeros(256, dtype=np.int64)
    err_p = np.zeros(256, dtype=np.int64)
    for start in range(0, len(dist), chunk):  # unrank a chunk at a time
        ranks = np.arange(start, min(start + chunk, len(dist)), dtype=np.uint64)
        boards = slide.unrank(ranks, size)
        d = dist[start:start + len(ranks)].astype(np.int32)
        err_m += np.bincount(d - slide.manhattan(boards), minlength=256)
        err_p += np.bincount(d - tables.h(boards), minlength=256)
    seconds = time.time() - t0
    top = max(np.nonzero(err_m)[0].max(), np.nonzero(err_p)[0].max()) + 1
    x = np.arange(top)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    total = err_m.sum()
    ax.bar(x - 0.2, err_m[:top] / total, width=0.4, label="Manhattan", color="#c0504d")
    ax.bar(x + 0.2, err_p[:top] / total, width=0.4,
           label="PDB %s" % " + ".join(sets),
           color="#4a78b5")
    ax.set_xlabel("error d - h (moves; never negative: both are admissible)")
    ax.set_ylabel("share of boards")
    ax.set_title("%s: all %d boards" % (size, total))
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "python-errors-%s.png" % size), dpi=110)
    plt.close(fig)
    mean = lambda e: (np.arange(256) * e).sum() / e.sum()
    return total, mean(err_m), mean(err_p), seconds


def sample_4x4(n, work, out, seed=2024):
    """Figure 3 and a CSV: n uniform 4x4 boards labelled with exact distances."""
    tables = slide.PatternDatabase(
        build_pdb(["4x4", "--partition", "5-5-5"], os.path.join(work, "pdb555")), reflect=True)
    boards, d = slide.sample("4x4", n, seed=seed, distances=tables)  # IDA*, boards in parallel
    man, lcv, pdb = slide.manhattan(boards), slide.lc(boards), tables.h(boards)
    with open(os.path.join(out, "python-sample-4x4.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["board", "distance", "manhattan", "lc", "pdb555"])
        for b, *vals in zip(boards, d, man, lcv, pdb):
            w.writerow([" ".join(map(str, b))] + [int(v) for v in vals])
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    for h, name, c in ((man, "Manhattan", "#c0504d"), (lcv, "linear conflicts", "#9bbb59"),
                       (pdb, "PDB 5-5-5 + mirror", "#4a78b5")):
        ax.scatter(d, h, s=12, label=name, color=c, alpha=0.7)
    lo, hi = min(man.min(), d.min()) - 2, d.max() + 2
    ax.plot([lo, hi], [lo, hi], color="grey", lw=0.8, ls="--")
    ax.set_xlabel("exact distance (IDA*)")
    ax.set_ylabel("heuristic value")
    ax.set_title("4x4: %d uniform random boards (seed %d)" % (n, seed))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "python-sample-4x4.png"), dpi=110)
    plt.close(fig)
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=".", help="folder for the figures and the CSV")
    ap.add_argument("--work", default=None, help="folder for the pattern databases")
    ap.add_argument("--size", default="3x4", help="board of the error figure (3x3 is quick)")
    ap.add_argument("--n", type=int, default=100, help="4x4 boards to label")
    a = ap.parse_args()
    work = a.work or os.path.join(HERE, "..", "build", "python-example")
    os.makedirs(work, exist_ok=True)
    os.makedirs(a.out, exist_ok=True)
    r = histogram_3x3(a.out)
    print("3x3: %d boards, radius %d" % (r.histogram.sum(), len(r.histogram) - 1))
    total, em, ep, s = errors(a.size, work, a.out)
    print("%s: %d boards, mean error Manhattan %.3f, PDB %.3f (%.0f s)" % (a.size, total, em, ep, s))
    d = sample_4x4(a.n, work, a.out)
    print("4x4: %d boards labelled, distances %d..%d, mean %.2f" % (len(d), d.min(), d.max(),
                                                                   d.mean()))


if __name__ == "__main__":
    main()
