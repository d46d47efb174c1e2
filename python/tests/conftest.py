"""Fixtures of the Python package's tests: the slide binary (the CLI the
package is checked against), a scratch directory, and the independent
truth - a breadth-first search over board tuples written here, sharing no
code with slide."""
import collections
import os
import subprocess

import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def slide_bin():
    return os.environ.get("SLIDE", os.path.join(ROOT, "build", "slide"))


def cli(*args, input=None, check=True):
    """Run the slide CLI; (exit status, stdout)."""
    p = subprocess.run([slide_bin()] + [str(a) for a in args], input=input,
                       capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError("slide %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode,
                                                         p.stderr))
    return p.returncode, p.stdout


def goal_of(rows, cols):
    return tuple(list(range(1, rows * cols)) + [0])


def neighbours(board, rows, cols):
    """Boards one blank move away (the blank swaps with an adjacent tile)."""
    z = board.index(0)
    r, c = divmod(z, cols)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            y = rr * cols + cc
            b = list(board)
            b[z], b[y] = b[y], b[z]
            yield tuple(b)


def naive_bfs(rows, cols, goal=None):
    """{board tuple: distance} of every board that reaches goal."""
    goal = tuple(goal) if goal is not None else goal_of(rows, cols)
    dist = {goal: 0}
    queue = collections.deque([goal])
    while queue:
        b = queue.popleft()
        d = dist[b] + 1
        for nb in neighbours(b, rows, cols):
            if nb not in dist:
                dist[nb] = d
                queue.append(nb)
    return dist


_cache = {}


def truth(rows, cols):
    """(boards N x n int64, distances) of naive_bfs, cached per size."""
    if (rows, cols) not in _cache:
        d = naive_bfs(rows, cols)
        boards = np.array(list(d.keys()), dtype=np.int64)
        _cache[(rows, cols)] = (boards, np.array(list(d.values()), dtype=np.int64))
    return _cache[(rows, cols)]


def replay(board, moves, rows, cols):
    """The board after the blank's moves (U D L R); raises on an illegal move."""
    b = list(board)
    for m in moves:
        z = b.index(0)
        r, c = divmod(z, cols)
        dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[m]
        rr, cc = r + dr, c + dc
        assert 0 <= rr < rows and 0 <= cc < cols, "illegal move %s" % m
        y = rr * cols + cc
        b[z], b[y] = b[y], b[z]
    return tuple(b)


@pytest.fixture(scope="session")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("slide-py")


@pytest.fixture(scope="session")
def db3x3(scratch):
    """The 3x3 distance database in the three encodings, written by the CLI."""
    paths = {}
    for enc in (1, 2, 8):
        p = scratch / ("3x3-%d.db" % enc)
        cli("bfs", "3x3", "--save", p, "--encoding", enc, "--no-progress")
        paths[enc] = str(p)
    return paths


@pytest.fixture(scope="session")
def pdb3x3(scratch):
    """Two disjoint additive 3x3 pattern databases (tiles 1-4, 5-8), by the CLI."""
    a, b = scratch / "a.pdb", scratch / "b.pdb"
    cli("pdb", "build", "3x3", "--pattern", "1-4", "-o", a)
    cli("pdb", "build", "3x3", "--pattern", "5-8", "-o", b)
    return [str(a), str(b)]
