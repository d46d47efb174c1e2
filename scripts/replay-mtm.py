#!/usr/bin/env python3
"""replay-mtm.py - checks and tabulates the multi-tile-metric lengths of
Korf's 100 (scripts/results-mtm-korf.sh).

  replay-mtm.py --table KORF100 A.csv B.csv BIBFS > joined.csv
  replay-mtm.py --markdown joined.csv > korf100.md
  replay-mtm.py --replay BOARD MOVES            (prints the length, or fails)

The replay knows only the rules of the puzzle, not slide: a board is rows
separated by '/', cells by spaces, 0 the blank; the goal is 1..n-1 in
reading order with the blank last.  A path is slide's blank_moves field:
moves separated by spaces, each move one letter (U, D, L, R: the way the
blank goes) repeated k times, k >= 1: the blank jumps k cells along its row
or column, the k tiles between sliding one cell each (one MTM move).  A
letter that would take the blank off the board, or a move mixing letters,
fails the replay.

--table joins slide solve --format csv of the two searches (A, B: the same
boards in the same order as KORF100's third column) with the bibfs lengths
(lines 'ID<TAB>LENGTH<TAB>SECONDS') and checks every line: A's path replays
to the goal in A's length, B's length and the bibfs length (where given)
equal A's, and STM/3 <= MTM <= STM (an STM path is an MTM path; an MTM move
on 4x4 slides at most 3 tiles).  Any failure: a line on stderr and exit 1
(the joined table is still written, for a look).
"""
import csv
import statistics
import sys

STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def parse_board(text):
    try:
        rows = [[int(c) for c in r.split()] for r in text.split("/")]
    except ValueError:
        raise ValueError("a cell is not a number: %r (rows split by /, cells by spaces)" % text)
    if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("not a board (empty, or rows of different lengths): %r" % text)
    return rows


def replay(board_text, moves_text):
    """Number of moves of the path; raises ValueError if it is not a path to the goal."""
    g = parse_board(board_text)
    nr, nc = len(g), len(g[0])
    cells = sorted(v for r in g for v in r)
    if cells != list(range(nr * nc)):
        raise ValueError("not a permutation of 0..%d: %r" % (nr * nc - 1, board_text))
    (br, bc), = [(i, j) for i in range(nr) for j in range(nc) if g[i][j] == 0]
    moves = moves_text.split()
    for m in moves:
        if m.strip(m[0]) or m[0] not in STEP:
            raise ValueError("move %r is not one letter U/D/L/R repeated" % m)
        dr, dc = STEP[m[0]]
        for _ in m:  # the k tiles between slide one cell each
            r, c = br + dr, bc + dc
            if not (0 <= r < nr and 0 <= c < nc):
                raise ValueError("move %r leaves the board" % m)
            g[br][bc], g[r][c] = g[r][c], 0
            br, bc = r, c
    flat = [v for r in g for v in r]
    if flat != list(range(1, nr * nc)) + [0]:
        raise ValueError("the path ends on %r, not the goal" % flat)
    return len(moves)


def flat(board_text):
    return [int(c) for c in board_text.replace("/", " ").split()]


def table(korf_path, a_path, b_path, bibfs_path):
    korf = [l.rstrip("\n").split("\t") for l in open(korf_path) if not l.startswith("#") and l.strip()]
    a = list(csv.DictReader(open(a_path)))
    b = list(csv.DictReader(open(b_path)))
    bibfs = {}
    for l in open(bibfs_path):
        i, n, s = l.split("\t")
        bibfs[int(i)] = (n, s.strip())
    bad = []
    if not (len(korf) == len(a) == len(b) == 100):
        bad.append("expected 100 lines in each: %d %d %d" % (len(korf), len(a), len(b)))
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["id", "korf_board", "board", "stm_length", "status", "mtm_length", "lower_bound",
                "h_start", "expanded", "generated", "cpu_seconds", "length_b", "expanded_b",
                "cpu_seconds_b", "bibfs_length", "bibfs_seconds", "replay", "moves"])
    for (kid, kboard, sboard, stm), ra, rb in zip(korf, a, b):
        stm = int(stm)
        for r, name in ((ra, "A"), (rb, "B")):
            if flat(r["board"]) != flat(sboard):
                bad.append("#%s: %s's board %s is not %s" % (kid, name, r["board"], sboard))
        length = ra["length"] if ra["status"] == "optimal" else "-"
        rep = "-"
        if length != "-":
            try:
                n = replay(ra["board"], ra["blank_moves"])
                rep = "ok" if n == int(length) else "wrong length %d" % n
            except ValueError as e:
                rep = "fails: %s" % e
            if rep != "ok":
                bad.append("#%s: the path of A %s" % (kid, rep))
            m = int(length)
            if not (3 * m >= stm >= m):
                bad.append("#%s: MTM %d and STM %d break STM/3 <= MTM <= STM" % (kid, m, stm))
            if rb["status"] == "optimal" and rb["length"] != length:
                bad.append("#%s: A found %s moves, B %s" % (kid, length, rb["length"]))
        lb = ra["lower_bound"] if ra["status"] != "optimal" else length
        bl, bs = bibfs.get(int(kid), ("-", "-"))
        if bl not in ("-", length):
            bad.append("#%s: A found %s moves, bidirectional BFS %s" % (kid, length, bl))
        lb_b = rb["length"] if rb["status"] == "optimal" else ">= " + rb["lower_bound"]
        w.writerow([kid, kboard, ra["board"], stm, ra["status"], length, lb, ra["h_start"],
                    ra["expanded"], ra["generated"], ra["cpu_seconds"], lb_b, rb["expanded"],
                    rb["cpu_seconds"], bl, bs, rep, ra["blank_moves"]])
    for line in bad:
        print("replay-mtm: " + line, file=sys.stderr)
    return 1 if bad else 0


def markdown(path):
    lines = open(path).read().splitlines()
    prov = [l[2:] for l in lines if l.startswith("# ")]
    rows = list(csv.DictReader(l for l in lines if not l.startswith("#")))
    if not rows or "status" not in rows[0]:
        raise ValueError("%s is not a table of replay-mtm.py --table" % path)
    solved = [r for r in rows if r["status"] == "optimal"]
    p = print
    p("# Korf's 100 in the multi-tile metric")
    p()
    p("The optimal number of multi-tile moves (MTM: the blank jumps to any cell of its row or")
    p("column, the tiles between sliding one cell each) of each of Korf's (1985) 100 random")
    p("15-puzzle instances, beside the published optimal number of single-tile moves (STM).")
    p("As far as we know no one has published the MTM column before.  Made by")
    p("`sh scripts/results-mtm-korf.sh`; every row is checked four ways (the script's header")
    p("says how): IDA* with two different sets of MTM pattern databases agrees, the path is")
    p("replayed by a checker that knows only the rules (scripts/replay-mtm.py), the")
    p("bidirectional BFS, which uses no heuristic, agrees where it was run, and STM/3 <= MTM")
    p("<= STM.")
    p()
    for l in prov:
        p("> " + l)
    p()
    if solved:
        m = [int(r["mtm_length"]) for r in solved]
        s = [int(r["stm_length"]) for r in solved]
        ratio = [a / b for a, b in zip(s, m)]
        cpu_a = sum(float(r["cpu_seconds"]) for r in rows)
        cpu_b = sum(float(r["cpu_seconds_b"]) for r in rows)
        nb = sum(1 for r in rows if r["bibfs_length"] not in ("-", ""))
        p("Solved: %d of %d (the others show the lower bound their search proved)." % (len(solved), len(rows)))
        p("MTM length: mean %.2f, median %g, from %d to %d; STM length of the same boards: mean"
          " %.2f, from %d to %d; STM/MTM: mean %.3f, from %.3f to %.3f." % (
              statistics.mean(m), statistics.median(m), min(m), max(m), statistics.mean(s),
              min(s), max(s), statistics.mean(ratio), min(ratio), max(ratio)))
        hist = {}
        for v in m:
            hist[v] = hist.get(v, 0) + 1
        p("Boards by MTM length: " + ", ".join("%d: %d" % (k, hist[k]) for k in sorted(hist)) + ".")
        p("Search A: %.1f CPU s in all (%.2f s at most for one board), %d nodes expanded; search B:"
          " %.1f CPU s; bidirectional BFS: %d boards (MTM length <= the script's BIBFS_MAX)." % (
              cpu_a, max(float(r["cpu_seconds"]) for r in rows),
              sum(int(r["expanded"]) for r in rows), cpu_b, nb))
        p("Pearson correlation of the STM and MTM lengths: %.3f." % statistics.correlation(s, m)
          if hasattr(statistics, "correlation") else "")
    p()
    p("| # | STM (Korf 1985) | MTM | h(board) | expanded (A) | CPU s (A) | B | bidirectional BFS | path replayed |")
    p("|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        mtm = r["mtm_length"] if r["status"] == "optimal" else ">= " + r["lower_bound"]
        p("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["id"], r["stm_length"], mtm, r["h_start"], r["expanded"], r["cpu_seconds"],
            r["length_b"], r["bibfs_length"], r["replay"]))
    p()
    p("A: IDA* with max(wd, three MTM tables, their mirror); B: IDA* with three other MTM")
    p("tables and wd, no mirror (its length; '>= L' if it stopped).  The moves of each")
    p("path are in korf100.csv (blank_moves: a letter repeated k times is one move of k cells).")
    return 0


def main(argv):
    try:
        if len(argv) == 6 and argv[1] == "--table":
            return table(*argv[2:])
        if len(argv) == 3 and argv[1] == "--markdown":
            return markdown(argv[2])
    except (OSError, KeyError, ValueError, csv.Error) as e:
        what = "missing column %s" % e if isinstance(e, KeyError) else str(e)
        print("replay-mtm: cannot read the tables: %s" % what, file=sys.stderr)
        return 2
    if len(argv) == 4 and argv[1] == "--replay":
        try:
            print(replay(argv[2], argv[3]))
            return 0
        except ValueError as e:
            print("replay-mtm: %s" % e, file=sys.stderr)
            return 1
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
