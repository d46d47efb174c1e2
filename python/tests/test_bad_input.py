"""Bad input raises slide's exceptions with slide's messages and never
crashes the interpreter: wrong dtypes and shapes, boards that are not
boards, sizes, goals, ranks, corrupt and foreign files."""
import gzip
import os

import numpy as np
import pytest

import slide
from conftest import cli


def test_exception_classes():
    assert issubclass(slide.BadInput, slide.Error) and issubclass(slide.BadInput, ValueError)
    assert issubclass(slide.Unsolvable, slide.BadInput)
    assert issubclass(slide.FileError, OSError) and issubclass(slide.FileError, slide.Error)
    assert issubclass(slide.OutOfMemory, MemoryError)


@pytest.mark.parametrize("boards,match", [
    (np.zeros((2, 9)), "integers"),                       # float
    (np.ones((2, 9), dtype=bool), "integers"),            # bool
    ([["a"] * 9], "integers"),                            # strings
    (np.zeros((2, 3, 4, 5), dtype=int), "dimensional"),   # 4-d
    (np.zeros((2, 7), dtype=int), "rectangle"),           # 7 cells: no size
    ([[1, 1, 3, 4, 5, 6, 7, 8, 0]], "row 0: tile 1 appears twice"),
    ([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8, 9]], "row 1: tile 9 is out of range"),
    ([[1, 2, 3, 4, 5, 6, 7, 8, -1]], "row 0"),
    (np.array([[2 ** 40] + [0] * 8], dtype=np.int64), "row 0"),
    (np.array([[2 ** 63 + 5] + [0] * 8], dtype=np.uint64), "row 0"),
    ([[1, 2, 3, 4, 5, 6, 7, 8, 0]] * 3 + [[0] * 9], "row 3: the blank appears twice"),
])
def test_bad_boards(boards, match):
    for f in (slide.rank, slide.solvable, slide.manhattan, slide.lc, slide.wd):
        with pytest.raises(slide.BadInput, match=match):
            f(boards)


def test_shape_against_size():
    with pytest.raises(slide.BadInput, match="cells per row"):
        slide.rank(np.zeros((1, 9), dtype=int), size="3x4")
    with pytest.raises(slide.BadInput, match="shape"):
        slide.rank(np.zeros((1, 3, 3), dtype=int), size="2x4")
    with pytest.raises(slide.BadInput):
        slide.rank("1 2 3/4 5")


def test_bad_sizes_and_goals():
    for size in ("3y3", "0x3", "3", (3,), None, "1001x2"):
        with pytest.raises(slide.BadInput):
            slide.bfs(size)
    with pytest.raises(slide.BadInput, match="goal"):
        slide.bfs("2x3", goal="1 2 3/4 5 5")
    with pytest.raises(slide.BadInput, match="goal"):
        slide.rank([[1, 2, 3, 4, 5, 0]], goal="1 2 3 4 5 6 7 8 0")
    with pytest.raises(slide.BadInput, match="space"):
        slide.rank([[1, 2, 3, 4, 5, 0]], space="half")
    with pytest.raises(slide.BadInput, match="20"):
        slide.rank(np.arange(1, 22) % 21, size="3x7")
    with pytest.raises(slide.BadInput):
        slide.sample("3x3", -1)
    with pytest.raises(slide.BadInput, match="seed"):
        slide.sample("3x3", 1, seed=-1)


def test_bad_ranks():
    with pytest.raises(slide.BadInput, match="out of range.*0..181439"):
        slide.unrank([0, 181440], "3x3")
    with pytest.raises(slide.BadInput, match="negative"):
        slide.unrank([-1], "3x3")
    with pytest.raises(slide.BadInput, match="integers"):
        slide.unrank([1.5], "3x3")


def test_bfs_memory_refused():
    with pytest.raises(slide.OutOfMemory):
        slide.bfs("4x4")  # 10 TB
    with pytest.raises(slide.OutOfMemory):
        slide.bfs("3x3", max_memory=1000)


def corrupt_copies(src, tmp_path):
    data = open(src, "rb").read()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x40
    cases = {
        "truncated": data[: len(data) // 2],
        "flipped": bytes(flipped),
        "empty": b"",
        "text": b"not a database\n",
        "foreign gzip": gzip.compress(b"x" * 1000),
    }
    for name, blob in cases.items():
        p = tmp_path / (name.replace(" ", "-") + ".db")
        p.write_bytes(blob)
        yield name, str(p)


def test_multi_tile_database_refused(tmp_path):
    # the module counts single-tile moves: a database of bfs --metric mtm
    # --save would answer in the other metric, so it is refused, naming both
    p = tmp_path / "m.db"
    cli("bfs", "2x3", "--metric", "mtm", "--save", p)
    with pytest.raises(slide.BadInput, match=r"counts multi-tile moves \(mtm\), not the "
                                             r"single-tile moves \(stm\)"):
        slide.Database(str(p))


def test_corrupt_files(db3x3, pdb3x3, tmp_path):
    for name, p in corrupt_copies(db3x3[1], tmp_path):
        with pytest.raises(slide.FileError):
            slide.Database(p)
    for name, p in corrupt_copies(pdb3x3[0], tmp_path):
        with pytest.raises(slide.FileError):
            slide.PatternDatabase(p)
    with pytest.raises(slide.FileError, match="No such file"):
        slide.Database(str(tmp_path / "missing.db"))
    with pytest.raises(slide.FileError):
        slide.Database(pdb3x3[0])  # a pattern database is not a distance database
    with pytest.raises(slide.FileError):
        slide.PatternDatabase(db3x3[1])
    with pytest.raises(slide.FileError):
        slide.Database(str(tmp_path))  # a directory


def test_nothing_crashes_on_random_arrays():
    rng = np.random.default_rng(1)
    for dt in (np.int8, np.uint8, np.int64):
        a = rng.integers(-3, 12, size=(50, 9)).astype(dt)
        for f in (slide.rank, slide.solvable, slide.manhattan):
            try:
                f(a)
            except slide.BadInput:
                pass
    # an empty batch is fine
    assert slide.rank(np.zeros((0, 9), dtype=int)).shape == (0,)
