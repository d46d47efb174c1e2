"""slide from Python: exact distances, tables, heuristics and solvers of
sliding-tile puzzles over numpy arrays (docs/python.md).

A board is a row of n = rows * cols integers, its cells in reading order:
the tile on each cell, 0 for the blank (the standard goal of 3x3 is
1 2 3 4 5 6 7 8 0).  N boards are an N x n integer array (any integer
dtype; an N x rows x cols array works too); one board may be given as a
1-d array, a rows x cols array where only one board is taken, or slide's
text ("1 2 3/4 5 6/7 8 0").  size is "RxC" or (rows, cols); when omitted
it is read from the array's shape (9 cells: 3x3, 12: 3x4, 16: 4x4, 6: 2x3,
the most square rectangle).  goal, when given, is a board in any of those
forms or a goal word of slide's ("blank-first", "standard"); the default is
the standard goal.

Everything here runs in slide's C library (the extension slide._slide,
built over libslide), in parallel over the boards (threads=0: all cores)
with the GIL released.  Errors raise subclasses of slide.Error carrying
slide's message: BadInput (a ValueError: a bad board, size, goal, dtype or
shape, naming the row of the first bad board), Unsolvable (a BadInput: a
board that cannot reach the goal), FileError (an OSError: a missing,
corrupt or foreign file), OutOfMemory (a MemoryError), Interrupted (a
search that hit its node limit).
"""
import collections
import os

try:
    import numpy as np
except ImportError as e:  # a python3 without numpy (pyenv, conda, a venv)
    import sys

    raise ImportError(
        "slide needs numpy, which this interpreter (%s) cannot import: run slide with "
        "the python3 it was built for (make python says which; Debian: /usr/bin/python3 "
        "with apt-get install python3-numpy) or install numpy here" % sys.executable
    ) from e

from . import _slide
from ._slide import BadInput, Error, FileError, Interrupted, OutOfMemory, Unsolvable

__all__ = [
    "Error", "BadInput", "Unsolvable", "FileError", "OutOfMemory", "Interrupted",
    "rank", "unrank", "space_size", "bfs", "solvable", "Heuristic", "heuristic",
    "manhattan", "lc", "wd", "misplaced", "pdb", "PatternDatabase", "Database",
    "solve", "solve_many", "sample", "BFSResult", "Solution", "size_of",
]

BFSResult = collections.namedtuple("BFSResult", "distances histogram")
BFSResult.__doc__ = """bfs()'s result: distances (uint8, one per rank) and histogram
(uint64, boards at each distance 0..radius)."""
Solution = collections.namedtuple("Solution", "moves length nodes generated iterations seconds")
Solution.__doc__ = """solve()'s result: moves (the blank's moves, a str of U D L R),
length (moves), nodes (nodes expanded), generated (children generated),
iterations (IDA* thresholds searched) and seconds (wall time)."""

_SPACES = {"compact": 0, "full": 1}


def size_of(size):
    """(rows, cols) of "RxC" or (rows, cols)."""
    if isinstance(size, str):
        return _slide.parse_dims(size)
    try:
        rows, cols = (int(x) for x in size)
    except (TypeError, ValueError):
        raise BadInput("size must be 'RxC' (such as '3x4') or (rows, cols), not %r" % (size,))
    return _slide.parse_dims("%dx%d" % (rows, cols))


def _space(space):
    try:
        return _SPACES[space]
    except (KeyError, TypeError):
        raise BadInput("space must be 'compact' (the (RC)!/2 solvable boards) or 'full' "
                       "(all (RC)! arrangements), not %r" % (space,))


def _metric(metric):
    if metric == "stm":
        return
    if metric == "mtm":
        raise BadInput("metric 'mtm' (multi-tile moves) is not in slide's C library yet: "
                       "only 'stm' (single-tile moves, the blank's moves) is")
    raise BadInput("metric must be 'stm' (single-tile moves) or 'mtm', not %r" % (metric,))


def _dims_from_cells(n, size):
    if size is not None:
        rows, cols = size_of(size)
        return rows, cols
    rc = _slide.rectangle(n)
    if rc is None:
        raise BadInput("%d cells per board make no rectangle of 2 or more rows and columns: "
                       "give size='RxC'" % n)
    return rc


def _as_array(boards):
    if isinstance(boards, np.ndarray):
        return boards
    try:
        return np.asarray(boards)
    except (ValueError, TypeError) as e:
        raise BadInput("boards must be an N x n array of integers: %s" % e)


def _boards(boards, size):
    """(array N x n, rows, cols, single) from the forms the module takes."""
    if isinstance(boards, str):
        rows, cols = size_of(size) if size is not None else (0, 0)
        rows, cols, a = _slide.parse_board(boards, rows, cols)
        return a, rows, cols, True
    a = _as_array(boards)
    single = False
    if a.ndim == 1:
        a, single = a[None, :], True
    elif a.ndim == 3:
        rows, cols = a.shape[1], a.shape[2]
        if size is not None and size_of(size) != (rows, cols):
            raise BadInput("boards are %dx%d (the array's shape) but size is %dx%d"
                           % ((rows, cols) + size_of(size)))
        return a.reshape(a.shape[0], rows * cols), rows, cols, False
    elif a.ndim != 2:
        raise BadInput("boards must be an N x n array (one board per row), not %d-dimensional"
                       % a.ndim)
    rows, cols = _dims_from_cells(a.shape[1], size)
    return a, rows, cols, single


def _one_board(board, size):
    """(text, rows, cols) of one board: text, 1-d cells or a rows x cols array."""
    if isinstance(board, str):
        rows, cols = size_of(size) if size is not None else (0, 0)
        rows, cols, _ = _slide.parse_board(board, rows, cols)
        return board, rows, cols
    a = _as_array(board)
    if a.ndim == 2 and a.shape[0] > 1 and size is None:
        rows, cols = a.shape
    elif a.ndim in (1, 2):
        rows, cols = _dims_from_cells(a.size, size)
    else:
        raise BadInput("a board is a 1-d array of cells, a rows x cols array or text")
    if a.dtype.kind not in "iu":
        raise BadInput("a board must hold integers, not %s" % a.dtype)
    return " ".join(str(int(x)) for x in a.ravel()), rows, cols


def _goal(goal, rows, cols):
    """slide's text of the goal, or None for the standard goal."""
    if goal is None:
        return None
    if isinstance(goal, str):  # board text or a goal word: checked by the library
        return goal
    try:
        text, grows, gcols = _one_board(goal, (rows, cols))
    except BadInput as e:
        raise type(e)("goal: %s" % e) from None
    if (grows, gcols) != (rows, cols):
        raise BadInput("the goal is %dx%d, the boards %dx%d" % (grows, gcols, rows, cols))
    return text


def _one(result, single):
    return result[0] if single else result


def rank(boards, size=None, goal=None, space="compact", threads=0):
    """Index of each board in slide's index space (uint64 array; an int for
    one board): the position of its distance in bfs(size, goal)'s array.
    space 'compact' numbers the (RC)!/2 solvable boards (an unsolvable
    board raises Unsolvable), 'full' all (RC)! arrangements.  Up to 20 cells."""
    a, rows, cols, single = _boards(boards, size)
    r = _slide.rank(a, rows, cols, _goal(goal, rows, cols), _space(space), threads)
    return int(r[0]) if single else r


def unrank(ranks, size, goal=None, space="compact", threads=0):
    """The boards of the given ranks (inverse of rank): an N x n uint8
    array (a 1-d array for one rank)."""
    rows, cols = size_of(size)
    single = np.ndim(ranks) == 0
    r = np.atleast_1d(_as_array(ranks))
    if r.ndim != 1 or (r.size and r.dtype.kind not in "iu"):
        raise BadInput("ranks must be integers, one or a 1-d array, not %s %d-d"
                       % (r.dtype, r.ndim))
    if r.size and r.dtype.kind == "i" and r.min() < 0:
        raise BadInput("rank %d is negative (ranks are 0..space_size - 1)" % r.min())
    out = _slide.unrank(r, rows, cols, _goal(goal, rows, cols), _space(space), threads)
    return _one(out, single)


def space_size(size, goal=None, space="compact"):
    """Number of ranks: (RC)!/2 (compact; n for 1-row/1-column boards) or (RC)!."""
    rows, cols = size_of(size)
    return _slide.space_size(rows, cols, _goal(goal, rows, cols), _space(space))


def bfs(size, goal=None, metric="stm", space="compact", threads=0, max_memory=0):
    """Breadth-first search of every board of size from goal: BFSResult
    (distances, histogram).  distances[rank(b)] is board b's exact distance,
    a uint8 array of space_size entries written by the search itself (255
    for arrangements that cannot reach the goal, space='full' only);
    histogram[d] counts the boards at distance d.  Memory: a byte per board
    plus slide's two-bit store (3x4: 240 MB + 60 MB), refused up front
    beyond what is available or max_memory (bytes, 0: no own limit).
    metric 'stm' (single-tile moves); 'mtm' raises until slide has it."""
    _metric(metric)
    rows, cols = size_of(size)
    dist, hist = _slide.bfs(rows, cols, _goal(goal, rows, cols), _space(space), threads,
                            int(max_memory))
    return BFSResult(dist, hist)


def solvable(boards, size=None, goal=None, threads=0):
    """Whether each board can reach the goal (bool array; a bool for one
    board), by the parity theorem (slide solvable)."""
    a, rows, cols, single = _boards(boards, size)
    r = _slide.solvable(a, rows, cols, _goal(goal, rows, cols), threads)
    return bool(r[0]) if single else r


class Heuristic:
    """A heuristic of slide's table bound to a size and goal: misplaced,
    manhattan, lc, lc-pairs, wd, or pdb:FILE+FILE / pdbr:FILE+FILE.
    h(boards) or calling it gives an int32 array."""

    def __init__(self, name, size, goal=None):
        self.rows, self.cols = size_of(size)
        self.name = name
        self._goal = _goal(goal, self.rows, self.cols)
        self._h = _slide.Heuristic(name, self.rows, self.cols, self._goal)

    @property
    def admissible(self):
        """True or False as the heuristic's reference proves; None if not claimed."""
        return self._h.admissible

    def h(self, boards, threads=0):
        a, rows, cols, single = _boards(boards, (self.rows, self.cols))
        r = self._h.h(a, threads)
        return int(r[0]) if single else r

    __call__ = h

    def __repr__(self):
        return "slide.Heuristic(%r, '%dx%d')" % (self.name, self.rows, self.cols)


_heuristics = {}


def heuristic(name, boards, size=None, goal=None, threads=0):
    """h of each board for the heuristic called name (see Heuristic)."""
    a, rows, cols, single = _boards(boards, size)
    g = _goal(goal, rows, cols)
    key = (name, rows, cols, g)
    h = _heuristics.get(key)
    if h is None:
        h = _heuristics[key] = Heuristic(name, (rows, cols), g)
    r = h._h.h(a, threads)
    return int(r[0]) if single else r


def manhattan(boards, size=None, goal=None, threads=0):
    """Manhattan distance of each board (int32 array)."""
    return heuristic("manhattan", boards, size, goal, threads)


def lc(boards, size=None, goal=None, threads=0):
    """Manhattan plus linear conflicts (slide's admissible LIS form)."""
    return heuristic("lc", boards, size, goal, threads)


def wd(boards, size=None, goal=None, threads=0):
    """Walking distance (Takahashi)."""
    return heuristic("wd", boards, size, goal, threads)


def misplaced(boards, size=None, goal=None, threads=0):
    """Tiles not on their goal cell."""
    return heuristic("misplaced", boards, size, goal, threads)


class PatternDatabase:
    """Pattern databases written by `slide pdb build`: files is a path, a
    list of paths (their values are summed: disjoint additive tables) or a
    directory of one --partition.  reflect=True also looks up the board
    mirrored about the diagonal and takes the larger sum.  h(boards) or
    calling it gives an int32 array; it is the heuristic solve() uses."""

    def __init__(self, files, reflect=False, threads=0):
        if isinstance(files, (list, tuple)):
            files = "+".join(os.fspath(f) for f in files)
        self.files = os.fspath(files)
        self._set = _slide.PatternDatabase(self.files, int(bool(reflect)), threads)
        info = self._set.info()
        self.rows, self.cols = info["rows"], info["cols"]
        self.tables = info["tables"]
        self.admissible = info["admissible"]
        self.reflect = info["reflect"]

    @property
    def goal(self):
        """The goal the tables were built for (1-d uint8 array)."""
        return self._set.goal()[0]

    def h(self, boards, threads=0):
        a, rows, cols, single = _boards(boards, (self.rows, self.cols))
        r = self._set.h(a, threads)
        return int(r[0]) if single else r

    __call__ = h

    def __repr__(self):
        return "slide.PatternDatabase(%r)" % self.files


def pdb(boards, tables, threads=0):
    """h of each board from pattern databases (a PatternDatabase or its files)."""
    if not isinstance(tables, PatternDatabase):
        tables = PatternDatabase(tables)
    return tables.h(boards, threads)


class Database:
    """A distance database written by `slide bfs RxC --save FILE`.  A file
    written with --uncompressed is memory-mapped read-only and read in
    place (mapped is True); a gzip-compressed one is inflated into memory.
    check=True (the default) computes every checksum first: a mapped file
    is read once for it; check=False maps it without reading it (a corrupt
    byte then gives a wrong distance, or an error when it is out of range).
    distance(boards) gives exact distances (uint8 array); path(board) an
    optimal solution; array, for a file of --encoding 8, the distances by
    rank without a copy (over the mapping itself when mapped)."""

    def __init__(self, path, threads=0, check=True):
        self.path_name = os.fspath(path)
        self._db = _slide.Database(self.path_name, threads, int(bool(check)))
        info = self._db.info()
        self.mapped = info["mapped"]
        self.compressed = info["level"] != 255
        self.rows, self.cols = info["rows"], info["cols"]
        self.space = info["space"]
        self.encoding = info["encoding"]
        self.radius = info["radius"]
        self.indexes = info["indexes"]
        self.reachable = info["reachable"]
        self.histogram = info["histogram"]
        self.goal = info["goal"][0]
        self.version = info["version"]

    @property
    def size(self):
        return "%dx%d" % (self.rows, self.cols)

    def distance(self, boards, threads=0):
        a, rows, cols, single = _boards(boards, (self.rows, self.cols))
        r = self._db.distance(a, threads)
        return int(r[0]) if single else r

    __call__ = distance

    def path(self, board):
        """An optimal solution of one board: the blank's moves (str of UDLR)."""
        text, _, _ = _one_board(board, (self.rows, self.cols))
        return self._db.path(text)

    @property
    def array(self):
        """The distances by rank (read-only uint8 array over the loaded payload;
        --encoding 8 files only: others store d mod 4 or d mod 3)."""
        return self._db.array()

    def __repr__(self):
        return "slide.Database(%r)" % self.path_name


def _heuristic_arg(heuristic):
    if isinstance(heuristic, PatternDatabase):
        return "", heuristic._set
    if isinstance(heuristic, str):
        return heuristic, None
    raise BadInput("heuristic must be a name (%s) or a slide.PatternDatabase, not %r"
                   % (", ".join(("misplaced", "manhattan", "lc", "wd")), heuristic))


def solve(board, size=None, goal=None, heuristic="lc", metric="stm", max_nodes=0, db=None):
    """An optimal solution of one board by IDA* (slide solve): Solution
    (moves, length, nodes, generated, iterations, seconds).  heuristic: a
    name (misplaced, manhattan, lc, wd) or a PatternDatabase.  With db (a
    Database of the board's size and goal) the solution is read from it
    instead (nodes 0).  max_nodes > 0 stops the search there (Interrupted).
    The GIL is released while it searches."""
    _metric(metric)
    text, rows, cols = _one_board(board, size)
    if db is not None:
        if goal is not None and not np.array_equal(
                _slide.parse_board(_goal(goal, rows, cols), rows, cols)[2][0], db.goal):
            raise BadInput("the database was built for goal %s, not %s"
                           % (" ".join(map(str, db.goal)), goal))
        moves = db._db.path(text)
        return Solution(moves, len(moves), 0, 0, 0, 0.0)
    name, tables = _heuristic_arg(heuristic)
    r = _slide.solve(text, rows, cols, _goal(goal, rows, cols), name, tables, int(max_nodes))
    return Solution(r["moves"], r["length"], r["expanded"], r["generated"], r["iterations"],
                    r["seconds"])


def solve_many(boards, size=None, goal=None, heuristic="lc", max_nodes=0, threads=0):
    """Optimal lengths of many boards by IDA*, boards in parallel: (lengths
    int32, nodes expanded uint64)."""
    a, rows, cols, _ = _boards(boards, size)
    name, tables = _heuristic_arg(heuristic)
    return _slide.solve_many(a, rows, cols, _goal(goal, rows, cols), name, tables,
                             int(max_nodes), threads)


def sample(size, n, seed=None, goal=None, walk=None, distances=None, threads=0):
    """n uniformly random solvable boards (slide scramble RxC --count n
    --seed seed: the same boards), an n x cells uint8 array; walk=K draws
    random walks of K moves instead.  seed None: one from os.urandom.
    distances labels them with exact distances, giving (boards, d):
      a Database        looked up (d uint8)
      a PatternDatabase or a heuristic name ('lc', 'wd', ...)  IDA* in
                        parallel (d int32); slow far from the goal."""
    rows, cols = size_of(size)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    if not 0 <= int(seed) < 2 ** 64:
        raise BadInput("seed must be 0..2^64-1, not %r" % (seed,))
    if walk is not None and int(walk) < 0:
        raise BadInput("walk must be 0 or more moves, not %r" % (walk,))
    g = _goal(goal, rows, cols)
    boards = _slide.sample(rows, cols, g, int(n), int(seed), -1 if walk is None else int(walk))
    if distances is None:
        return boards
    if isinstance(distances, Database):
        return boards, distances.distance(boards, threads)
    lengths, _ = solve_many(boards, (rows, cols), goal, distances, 0, threads)
    return boards, lengths
