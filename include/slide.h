/*
 * slide.h - libslide's public API in one include (docs/libslide.md):
 *   #include <slide.h>      cc ... $(pkg-config --cflags --libs slide)
 *
 * The headers below are PUBLIC AND STABLE: within one major version their
 * functions keep their names, arguments and meaning (new ones may be
 * added).  Every other header installed under slide/ is internal: it is
 * installed because these include it, and may change in any release.
 *
 *   slide/error.h          slide_error, the status codes every call returns
 *   slide/board.h          boards: parse ("1 2 3/4 5 6/7 8 0"), format,
 *                          goal, dimensions, moves
 *   slide/parity.h         solvability of any board for any goal
 *   slide/rank.h           permutation ranking and unranking
 *   slide/space.h          a puzzle's index space: board <-> index
 *                          (space_rank, space_unrank)
 *   slide/store.h, bfs.h   the exhaustive BFS from the goal: histogram,
 *                          radius, the two-bit store of every board's
 *                          distance mod 3 (bfs_run, bfs_visit_frontier)
 *   slide/db.h             distance databases (slide db build): db_load,
 *                          db_distance, db_path
 *   slide/pdb.h            pattern databases (slide pdb build): pdb_set_load,
 *                          pdb_set_h
 *   slide/heuristic.h      heuristics by name ("manhattan", "lc", "wd",
 *                          "pdb:FILES", "plugin:FILE.so") and one's own
 *                          (heuristic_init_spec)
 *   slide/heuristic_api.h  one's own heuristic as a callback or plugin
 *                          (needs nothing else of libslide)
 *   slide/sweep.h          a heuristic against the exact distance of every
 *                          board (slide heuristic)
 *   slide/ida.h            optimal solutions by IDA* (ida_solve)
 *   slide/bibfs.h          optimal solutions by bidirectional BFS (small boards)
 *   slide/layers.h         valid solutions of any board (up to 1000 x 1000)
 *   slide/rng.h, scramble.h  reproducible random boards
 *   slide/provenance.h     version, commit and the provenance block
 *
 * Library calls never print and never exit: they return SLIDE_OK (0) or a
 * negative enum slide_status with one line in the slide_error.
 */
#ifndef SLIDE_H
#define SLIDE_H

#include "slide/error.h"
#include "slide/board.h"
#include "slide/parity.h"
#include "slide/rank.h"
#include "slide/space.h"
#include "slide/store.h"
#include "slide/bfs.h"
#include "slide/db.h"
#include "slide/pdb.h"
#include "slide/heuristic_api.h"
#include "slide/heuristic.h"
#include "slide/sweep.h"
#include "slide/ida.h"
#include "slide/bibfs.h"
#include "slide/layers.h"
#include "slide/rng.h"
#include "slide/scramble.h"
#include "slide/provenance.h"

#endif
