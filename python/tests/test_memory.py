"""Memory: bfs's distances are one byte per board in one numpy buffer -
no Python ints, no second copy (tracemalloc sees every numpy allocation;
slide's two-bit store is mapped by the library and not counted) - and
the long C calls release the GIL."""
import os
import threading
import time
import tracemalloc

import numpy as np
import pytest

import slide


def traced_bfs(size):
    tracemalloc.start()
    try:
        r = slide.bfs(size)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return r, peak


def test_bfs_distances_one_byte_per_board():
    r, peak = traced_bfs("2x5")
    d = r.distances
    assert d.dtype == np.uint8 and d.nbytes == 1814400 == slide.space_size("2x5")
    assert d.flags.owndata and d.base is None
    assert peak < d.nbytes + 64 * 1024  # the array and a little, never a copy
    assert r.histogram.sum() == len(d)


@pytest.mark.skipif(not os.environ.get("SLIDE_SLOW"),
                    reason="3x4 takes 20 s on the shared 2-core machine: SLIDE_SLOW=1 runs it")
def test_bfs_3x4_is_240_megabytes():
    r, peak = traced_bfs("3x4")
    assert r.distances.dtype == np.uint8
    assert r.distances.nbytes == 239500800
    assert peak < r.distances.nbytes + 64 * 1024
    assert len(r.histogram) - 1 == 53  # the radius of 3x4 (slide bfs 3x4)
    assert r.histogram.sum() == 239500800


def test_gil_released_during_bfs():
    done = threading.Event()
    out = {}

    def work():
        out["r"] = slide.bfs("2x5", threads=1)
        done.set()

    t = threading.Thread(target=work)
    ticks = 0
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    # the main thread kept running while the search did
    assert ticks >= 20
    assert out["r"].histogram.sum() == 1814400
