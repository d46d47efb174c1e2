"""Heuristics, distance databases and pattern databases against the
breadth-first search and the Manhattan distance written here, and against
the CLI (slide heuristic, slide dist)."""
import numpy as np
import pytest

import slide
from conftest import cli, goal_of, replay, truth


def manhattan_here(boards, rows, cols):
    """Sum over tiles of the row and column distances to the standard goal."""
    cells = np.arange(rows * cols)
    out = np.zeros(len(boards), dtype=np.int64)
    for k in range(rows * cols):
        t = boards[:, k]
        goal_cell = np.where(t == 0, -1, t - 1)
        m = t != 0
        out += m * (np.abs(cells[k] // cols - goal_cell // cols)
                    + np.abs(cells[k] % cols - goal_cell % cols))
    return out


def cli_sweep(spec):
    """{heuristic: (mean_h, exact_fraction)} of slide heuristic 3x3 --format csv."""
    _, out = cli("heuristic", "3x3", "--h", spec, "--format", "csv", "--no-progress")
    lines = out.splitlines()
    head = lines[0].split(",")
    res = {}
    for l in lines[1:]:
        f = dict(zip(head, l.split(",")))
        res[f["heuristic"]] = (float(f["mean_h"]), float(f["exact_fraction"]))
    return res


def test_heuristics_all_3x3_boards():
    boards, dist = truth(3, 3)
    man = slide.manhattan(boards)
    assert man.dtype == np.int32
    assert (man == manhattan_here(boards, 3, 3)).all()
    mis = slide.misplaced(boards)
    assert (mis == ((boards != np.array(goal_of(3, 3))) & (boards != 0)).sum(axis=1)).all()
    lcv, wdv = slide.lc(boards), slide.wd(boards)
    # admissible and at least Manhattan (both are Manhattan plus extras)
    for h in (man, lcv, wdv):
        assert (h <= dist).all()
        assert ((dist - h) % 2 == 0).all()  # each move changes them by 1
    assert (lcv >= man).all() and (wdv >= man).all()
    cl = cli_sweep("manhattan,lc,wd")
    for name, h in (("manhattan", man), ("lc", lcv), ("wd", wdv)):
        mean, exact = cl[name]
        assert abs(h.mean() - mean) < 1e-6
        assert abs((h == dist).mean() - exact) < 1e-6


def test_heuristic_object_and_goal():
    h = slide.Heuristic("manhattan", "2x3", goal="0 1 2/3 4 5")
    assert h.admissible is True
    assert h("0 1 2/3 4 5") == 0
    assert h([[1, 0, 2, 3, 4, 5]]) == [1]
    with pytest.raises(slide.BadInput, match="unknown|heuristic"):
        slide.Heuristic("nonesuch", "3x3")


@pytest.mark.parametrize("enc", [1, 2, 8])
def test_database_all_3x3_boards(db3x3, enc):
    boards, dist = truth(3, 3)
    db = slide.Database(db3x3[enc])
    assert (db.rows, db.cols, db.encoding, db.radius) == (3, 3, enc, 31)
    assert list(db.goal) == list(goal_of(3, 3))
    assert (db.histogram == np.bincount(dist)).all()
    sel = slice(None) if enc == 8 else slice(None, None, 7)
    d = db.distance(boards[sel])
    assert d.dtype == np.uint8 and (d == dist[sel]).all()
    if enc == 8:
        a = db.array
        assert a.dtype == np.uint8 and not a.flags.writeable
        assert (a == slide.bfs("3x3").distances).all()
        del db
        assert int(a[8]) == 0  # the array keeps the payload alive
    else:
        with pytest.raises(slide.BadInput, match="encoding 8"):
            db.array


def test_database_path_and_cli(db3x3):
    db = slide.Database(db3x3[1])
    boards = slide.sample("3x3", 30, seed=5)
    texts = ["/".join(" ".join(map(str, b[r * 3:r * 3 + 3])) for r in range(3)) for b in boards]
    _, out = cli("dist", "--db", db3x3[1], "--format", "csv", *texts)
    cli_d = [int(l.rsplit(",", 1)[1]) for l in out.splitlines()[1:]]
    assert list(db.distance(boards)) == cli_d
    for b, d in zip(boards, cli_d):
        moves = db.path(b)
        assert len(moves) == d
        assert replay(tuple(b), moves, 3, 3) == goal_of(3, 3)
    with pytest.raises(slide.Unsolvable):
        db.distance([[1, 2, 3, 4, 5, 6, 8, 7, 0]])
    with pytest.raises(slide.BadInput, match="cells per row"):
        db.distance(np.zeros((1, 12), dtype=np.int64))


def test_database_full_space(scratch):
    p = str(scratch / "2x3-full.db")
    cli("bfs", "2x3", "--space", "full", "--save", p, "--encoding", 8, "--no-progress")
    db = slide.Database(p)
    assert db.space == "full" and db.indexes == 720
    boards, dist = truth(2, 3)
    assert (db.distance(boards) == dist).all()
    assert (db.array == slide.bfs("2x3", space="full").distances).all()
    with pytest.raises(slide.Unsolvable, match="row 1: .*cannot reach the goal"):
        db.distance([[1, 2, 3, 4, 5, 0], [2, 1, 3, 4, 5, 0]])


def test_pattern_databases(pdb3x3):
    boards, dist = truth(3, 3)
    p = slide.PatternDatabase(pdb3x3)
    assert (p.rows, p.cols, p.tables, p.admissible) == (3, 3, 2, True)
    h = p(boards)
    assert h.dtype == np.int32
    assert (h <= dist).all() and (h >= 0).all()
    assert (slide.pdb(boards, pdb3x3) == h).all()
    # a single table alone is at most the sum
    assert (slide.PatternDatabase(pdb3x3[0]).h(boards) <= h).all()
    # the CLI's sweep of the same tables
    spec = "pdb:" + "+".join(pdb3x3)
    (mean, exact), = cli_sweep(spec).values()
    assert abs(h.mean() - mean) < 1e-6 and abs((h == dist).mean() - exact) < 1e-6
    # and the heuristic table's pdb: row gives the same values
    assert (slide.heuristic(spec, boards) == h).all()
