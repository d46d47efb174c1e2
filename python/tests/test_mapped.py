"""Distance databases in the stored form (slide bfs --save FILE
--uncompressed): mapped read-only and read in place - the array's bytes
are the file's pages (checked against /proc/self/maps), the distances
those of the naive BFS - and hostile files (truncated, wrong sizes, bad
checksums, links, FIFOs, devices) raise FileError, never crash."""
import os

import numpy as np
import pytest

import slide
from conftest import cli, goal_of, truth


@pytest.fixture(scope="module")
def stored3x3(scratch):
    paths = {}
    for enc in (1, 2, 8):
        p = scratch / ("3x3-%d-stored.db" % enc)
        cli("bfs", "3x3", "--save", p, "--encoding", enc, "--uncompressed", "--no-progress")
        paths[enc] = str(p)
    return paths


def mapping_of(path):
    """(start, end) address ranges of path in this process's mappings."""
    real = os.path.realpath(path)
    out = []
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and parts[5] == real:
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                out.append((lo, hi))
    return out


@pytest.mark.parametrize("enc", [1, 2, 8])
def test_stored_all_3x3_boards(stored3x3, db3x3, enc):
    boards, dist = truth(3, 3)
    db = slide.Database(stored3x3[enc])
    assert db.mapped and not db.compressed
    assert (db.rows, db.cols, db.encoding, db.radius) == (3, 3, enc, 31)
    assert list(db.goal) == list(goal_of(3, 3))
    assert (db.histogram == np.bincount(dist)).all()
    sel = slice(None) if enc == 8 else slice(None, None, 7)
    assert (db.distance(boards[sel]) == dist[sel]).all()
    z = slide.Database(db3x3[enc])  # the gzip file of the same search: loaded
    assert not z.mapped and z.compressed
    assert (z.distance(boards[sel]) == dist[sel]).all()
    assert len(mapping_of(stored3x3[enc])) >= 1


def test_array_is_the_mapping(stored3x3):
    p = stored3x3[8]
    db = slide.Database(p)
    a = db.array
    assert a.dtype == np.uint8 and not a.flags.writeable and not a.flags.owndata
    addr = a.__array_interface__["data"][0]
    assert any(lo <= addr and addr + a.nbytes <= hi for lo, hi in mapping_of(p))
    assert (a == slide.bfs("3x3").distances).all()
    with pytest.raises(ValueError):
        a[0] = 1  # read-only: the file cannot be changed through it
    del db
    assert int(a[slide.rank(goal_of(3, 3))]) == 0  # the array keeps the mapping alive
    del a
    import gc
    gc.collect()
    assert mapping_of(p) == []  # unmapped with the last reference


def test_stored_matches_cli(stored3x3):
    boards = slide.sample("3x3", 20, seed=9)
    texts = ["/".join(" ".join(map(str, b[r * 3:r * 3 + 3])) for r in range(3)) for b in boards]
    _, out = cli("dist", "--db", stored3x3[1], "--format", "csv", *texts)
    cli_d = [int(l.rsplit(",", 1)[1]) for l in out.splitlines()[1:]]
    assert list(slide.Database(stored3x3[1]).distance(boards)) == cli_d


def payload_offset(path):
    _, out = cli("db", "info", path)
    line = [l for l in out.splitlines() if l.startswith("stored: ")][0]
    return int(line.split("starts at byte ")[1].split()[0])


def test_hostile_stored_files(stored3x3, tmp_path):
    good = open(stored3x3[8], "rb").read()
    off = payload_offset(stored3x3[8])
    cases = {
        "empty": b"",
        "header only": good[:off],
        "truncated by one": good[:-1],
        "truncated in the header": good[:100],
        "one byte more": good + b"\0",
        "a megabyte more": good + b"\0" * (1 << 20),
    }
    for name, blob in cases.items():
        p = tmp_path / (name.replace(" ", "-") + ".db")
        p.write_bytes(blob)
        with pytest.raises(slide.FileError, match="truncated|extra data|gzip header"):
            slide.Database(str(p))
    flipped = bytearray(good)
    flipped[off + 1000] ^= 0x80
    p = tmp_path / "flipped.db"
    p.write_bytes(bytes(flipped))
    with pytest.raises(slide.FileError, match="block 0 checksum mismatch"):
        slide.Database(str(p))
    # unchecked, the mapping is taken as it is; an out-of-range byte is still caught
    db = slide.Database(str(p), check=False)
    assert db.mapped
    board = slide.unrank([1000], "3x3")
    with pytest.raises(slide.FileError, match="row 0"):
        db.distance(board)
    ok = slide.unrank([999, 1001], "3x3")
    assert (db.distance(ok) == slide.Database(stored3x3[8]).distance(ok)).all()


def test_links_fifos_devices(stored3x3, tmp_path):
    link = tmp_path / "link.db"
    os.symlink(stored3x3[8], link)
    db = slide.Database(str(link))  # a link to a database is read through
    assert db.mapped and db.distance(goal_of(3, 3)) == 0
    dangling = tmp_path / "dangling.db"
    os.symlink(str(tmp_path / "nowhere.db"), dangling)
    with pytest.raises(slide.FileError, match="No such file"):
        slide.Database(str(dangling))
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    with pytest.raises(slide.FileError, match="FIFO"):
        slide.Database(str(fifo))  # refused at once: never waits for a writer
    to_fifo = tmp_path / "to-fifo.db"
    os.symlink(fifo, to_fifo)
    with pytest.raises(slide.FileError, match="FIFO"):
        slide.Database(str(to_fifo))
    with pytest.raises(slide.FileError, match="not a regular file"):
        slide.Database("/dev/zero")
    with pytest.raises(slide.FileError, match="directory|not a regular file"):
        slide.Database(str(tmp_path))


def test_initialised_once(stored3x3):
    db = slide.Database(stored3x3[8])
    a = db.array
    with pytest.raises(slide.Error, match="initialised once"):
        db._db.__init__(stored3x3[1], 0, 1)
    assert int(a[slide.rank(goal_of(3, 3))]) == 0
