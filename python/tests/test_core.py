"""rank, unrank, space_size, bfs and solvable against the breadth-first
search and the index formula written here (conftest.py), and against the
CLI (slide bfs --format csv, slide solvable)."""
import math

import numpy as np
import pytest

import slide
from conftest import cli, goal_of, naive_bfs, truth


def index_formula(board, rows, cols, full=False):
    """space.h's index, computed here: t = the tiles in reading order without
    the blank, relabelled by their goal position (tile k -> k - 1 for the
    standard goal); lex = sum of Lehmer digits * factorials; compact index =
    (lex >> 1) * n + z, full index = lex * n + z."""
    n = rows * cols
    z = list(board).index(0)
    t = [x - 1 for x in board if x != 0]
    m = len(t)
    lex = 0
    for i in range(m):
        digit = sum(1 for j in range(i + 1, m) if t[j] < t[i])
        lex += digit * math.factorial(m - 1 - i)
    return (lex if full else lex >> 1) * n + z


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (2, 4)])
def test_bfs_matches_naive_bfs(rows, cols):
    boards, dist = truth(rows, cols)
    r = slide.bfs("%dx%d" % (rows, cols))
    assert r.distances.dtype == np.uint8
    assert r.histogram.dtype == np.uint64
    assert len(r.distances) == len(boards) == math.factorial(rows * cols) // 2
    assert (r.distances[slide.rank(boards)] == dist).all()
    assert (r.histogram == np.bincount(dist)).all()


def test_bfs_histogram_matches_cli():
    _, out = cli("bfs", "3x3", "--format", "csv", "--no-progress")
    rows = [l.split(",") for l in out.splitlines() if l and l[0].isdigit()]
    cli_hist = [int(r[1]) for r in rows]
    assert list(slide.bfs("3x3").histogram) == cli_hist
    assert len(cli_hist) == 32  # radius 31 (the 8-puzzle)


def test_bfs_other_goal_and_full_space():
    goal = (0, 1, 2, 3, 4, 5)
    truth2 = naive_bfs(2, 3, goal)
    r = slide.bfs("2x3", goal=goal, space="full")
    assert len(r.distances) == 720
    boards = np.array(list(truth2.keys()))
    assert (r.distances[slide.rank(boards, goal=goal, space="full")]
            == np.array(list(truth2.values()))).all()
    assert (r.distances == 255).sum() == 360  # the other parity class
    # goal given as text and as a 2x3 array: the same search
    assert (slide.bfs("2x3", goal="0 1 2/3 4 5").distances
            == slide.bfs((2, 3), goal=np.array(goal).reshape(2, 3)).distances).all()


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3)])
def test_rank_is_the_index_formula(rows, cols):
    boards, _ = truth(rows, cols)
    sel = boards[:: max(1, len(boards) // 2000)]
    want = [index_formula(b, rows, cols) for b in sel]
    assert list(slide.rank(sel)) == want
    wantf = [index_formula(b, rows, cols, full=True) for b in sel]
    assert list(slide.rank(sel, space="full")) == wantf


@pytest.mark.parametrize("size,space", [("2x3", "compact"), ("2x3", "full"),
                                        ("3x3", "compact")])
def test_unrank_inverts_rank(size, space):
    n = slide.space_size(size, space=space)
    ranks = np.arange(n)
    boards = slide.unrank(ranks, size, space=space)
    assert boards.dtype == np.uint8 and boards.shape == (n, 6 if size == "2x3" else 9)
    assert (slide.rank(boards, space=space) == ranks).all()
    # every board once: rows are distinct permutations
    assert len({bytes(b) for b in boards}) == n


def test_space_sizes():
    assert slide.space_size("3x4") == math.factorial(12) // 2
    assert slide.space_size("3x4", space="full") == math.factorial(12)
    assert slide.space_size("1x5") == 5  # a path: the tiles keep their order


def test_single_board_forms():
    g = goal_of(3, 3)
    assert slide.rank(g) == 8  # the goal: t = identity, blank on cell 8
    assert slide.rank("1 2 3/4 5 6/7 8 0") == 8
    assert slide.rank(np.array(g).reshape(3, 3)[None]) == [8]  # an N x 3 x 3 array
    assert list(slide.unrank(8, "3x3")) == list(g)
    assert slide.unrank([8], "3x3").shape == (1, 9)


def test_strided_and_any_integer_dtype():
    boards, dist = truth(3, 3)
    r = slide.rank(boards)
    for dt in (np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.uint64):
        assert (slide.rank(boards.astype(dt)) == r).all()
    assert (slide.rank(np.asfortranarray(boards)) == r).all()
    wide = np.zeros((len(boards), 18), dtype=np.int64)
    wide[:, ::2] = boards  # every other column: a strided view
    assert (slide.rank(wide[:, ::2]) == r).all()
    assert (slide.rank(boards[::-1]) == r[::-1]).all()


def test_solvable_matches_bfs_and_cli():
    # every arrangement of 2x3: solvable exactly when the BFS reaches it
    allb = slide.unrank(np.arange(720), "2x3", space="full")
    reach = naive_bfs(2, 3)
    want = np.array([tuple(b) in reach for b in allb.tolist()])
    assert (slide.solvable(allb) == want).all()
    assert want.sum() == 360
    for b in allb[:40:7]:
        text = " ".join(map(str, b[:3])) + "/" + " ".join(map(str, b[3:]))
        _, out = cli("solvable", text)
        assert out.startswith("solvable") == bool(slide.solvable(b))
    # larger boards go by the parity theorem: a swap of two tiles flips it
    g = np.arange(1, 101) % 100
    assert slide.solvable(g, size="10x10")
    g[[0, 1]] = g[[1, 0]]
    assert not slide.solvable(g, size="10x10")


def test_metric():
    with pytest.raises(slide.BadInput, match="'mtm'.*not in slide's C library"):
        slide.bfs("2x3", metric="mtm")
    with pytest.raises(slide.BadInput, match="metric must be"):
        slide.bfs("2x3", metric="xtm")
    with pytest.raises(slide.BadInput, match="mtm"):
        slide.solve("1 2 3/4 5 0", metric="mtm")


def test_goal_words():
    first = slide.bfs("2x3", goal="blank-first")
    assert (first.distances == slide.bfs("2x3", goal=[0, 1, 2, 3, 4, 5]).distances).all()
    assert slide.rank([0, 1, 2, 3, 4, 5], goal="blank-first") == 0
    with pytest.raises(slide.BadInput, match="goal"):
        slide.bfs("2x3", goal="nowhere")
