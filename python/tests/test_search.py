"""solve, solve_many and sample against the breadth-first search written
here and against the CLI (slide solve --count, slide scramble)."""
import collections

import numpy as np
import pytest

import slide
from conftest import cli, goal_of, naive_bfs, replay, truth


def test_solve_optimal_3x3(pdb3x3):
    boards, dist = truth(3, 3)
    d = dict(zip(map(tuple, boards.tolist()), dist.tolist()))
    sample = slide.sample("3x3", 12, seed=11)
    tables = slide.PatternDatabase(pdb3x3)
    for b in sample:
        want = d[tuple(b.tolist())]
        for h in ("manhattan", "lc", "wd", tables):
            s = slide.solve(b, heuristic=h)
            assert s.length == want == len(s.moves)
            assert replay(tuple(b), s.moves, 3, 3) == goal_of(3, 3)
            assert s.nodes > 0 or want == 0
    s = slide.solve("8 6 7/2 5 4/3 0 1")
    assert s.length == 31
    _, out = cli("solve", "--count", "8 6 7/2 5 4/3 0 1")
    assert int(out) == s.length


def test_solve_with_database(db3x3):
    db = slide.Database(db3x3[2])
    s = slide.solve("8 6 7/2 5 4/3 0 1", db=db)
    assert s.length == 31 and s.nodes == 0
    assert replay((8, 6, 7, 2, 5, 4, 3, 0, 1), s.moves, 3, 3) == goal_of(3, 3)
    assert slide.solve("8 6 7/2 5 4/3 0 1", db=db, goal="standard").length == 31
    with pytest.raises(slide.BadInput, match="built for goal"):
        slide.solve("8 6 7/2 5 4/3 0 1", db=db, goal="blank-first")


def test_solve_many_and_cli():
    boards = slide.sample("3x3", 40, seed=3)
    lengths, nodes = slide.solve_many(boards, heuristic="lc")
    assert lengths.dtype == np.int32 and nodes.dtype == np.uint64
    text = "\n".join("/".join(" ".join(map(str, b[r * 3:r * 3 + 3])) for r in range(3))
                     for b in boards) + "\n"
    _, out = cli("solve", "--count", "-", input=text)
    assert list(lengths) == [int(x) for x in out.split()]
    # the same for one thread
    assert (slide.solve_many(boards, threads=1)[0] == lengths).all()


def test_solve_errors():
    with pytest.raises(slide.Unsolvable):
        slide.solve("1 2 3/4 5 6/8 7 0")
    with pytest.raises(slide.Interrupted):
        slide.solve("8 6 7/2 5 4/3 0 1", heuristic="misplaced", max_nodes=100)
    with pytest.raises(slide.BadInput):
        slide.solve("1 2 3/4 5 6/7 8 8")
    with pytest.raises(slide.BadInput, match="heuristic"):
        slide.solve("1 2 3/4 5 6/7 8 0", heuristic=3)
    with pytest.raises(slide.BadInput):
        slide.solve_many([[1, 2, 3, 4, 5, 6, 8, 7, 0]])


def test_sample_is_slides_scramble():
    for size, extra in (("3x3", []), ("4x4", []), ("3x4", ["--walk", "9"])):
        walk = int(extra[1]) if extra else None
        s = slide.sample(size, 25, seed=42, walk=walk)
        _, out = cli("scramble", size, "--count", 25, "--seed", 42, *extra)
        want = [[int(x) for x in l.replace("/", " ").split()] for l in out.splitlines()]
        assert s.tolist() == want
        assert slide.solvable(s).all()
    assert slide.sample("3x3", 0, seed=1).shape == (0, 9)


def test_sample_uniform_2x3():
    # 36,000 draws over the 360 solvable 2x3 boards: each expected 100 times;
    # chi-square with 359 degrees of freedom stays below 470 with
    # probability about 0.9999 (the seed is fixed, so this is deterministic)
    s = slide.sample("2x3", 36000, seed=7)
    counts = collections.Counter(map(bytes, s))
    assert len(counts) == 360
    chi2 = sum((c - 100) ** 2 / 100 for c in counts.values())
    assert chi2 < 470


def test_sample_labels(db3x3):
    truth3 = naive_bfs(3, 3)
    db = slide.Database(db3x3[1])
    b, d = slide.sample("3x3", 50, seed=9, distances=db)
    assert [truth3[tuple(x)] for x in b.tolist()] == list(d)
    b2, d2 = slide.sample("3x3", 20, seed=9, distances="lc")
    assert (b2 == b[:20]).all() and (d2 == d[:20]).all()
    w, dw = slide.sample("3x3", 30, seed=2, walk=6, distances="manhattan")
    assert (dw <= 6).all() and (dw % 2 == 0).all()


def test_ctrl_c_stops_a_search():
    # a 4x4 board 50+ moves away with misplaced tiles: hours of IDA*; an
    # interrupt (Ctrl-C, here _thread.interrupt_main) stops it within 0.1 s
    import _thread
    import threading
    import time

    hard = slide.sample("4x4", 2, seed=1)
    for call in (lambda: slide.solve(hard[0], heuristic="misplaced"),
                 lambda: slide.solve_many(hard, heuristic="misplaced")):
        timer = threading.Timer(0.3, _thread.interrupt_main)
        t0 = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            call()
        assert time.perf_counter() - t0 < 20
        timer.join()
    # and the next search runs normally
    assert slide.solve("1 2 3/4 5 6/7 0 8").length == 1
