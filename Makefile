# slide - exhaustive state-space enumeration of sliding-tile puzzles.
#
#   make            build build/slide, libslide.a, libslide.so and slide.pc, on
#                   every core (make -jN picks N; other goals build serially)
#   make run        build, then enumerate the 8-puzzle (slide bfs 3x3)
#   make test       build and run every test (cmocka), lowest module first
#   make asan       the tests under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      speed and memory figures with baselines, and the solvers'
#                   figures (make bench-solvers alone; not a test)
#   make bench-pdb  Korf's 100 instances with pattern databases (builds the
#                   5-5-5, 6-6-3 and 7-8 tables in build/pdb; minutes)
#   make bench-pdb-build  the 7-8 build's time and memory, 3 repeats, into
#                   results/pdb-build.txt (CALLGRIND=1: instructions too)
#   make bench-mpi  the MPI search's figures (needs mpicc; not a test)
#   make bench-frontier  slide frontier beside slide bfs, old (OLD_REF=main)
#                   and new binaries, 1 and 2 threads, rank and moved keys
#                   (scripts/bench-frontier.sh names its variables)
#   make results    regenerate results/ (tables, plots, paper-notes numbers);
#                   refuses a dirty tree unless ALLOW_DIRTY=1; JOBS=N parts
#                   at a time (scripts/results.sh --list names the parts)
#   make check-results  regenerate every table but 2x7/7x2 into a temporary
#                   directory and compare with results/ (tens of minutes)
#   make results-2x7  the 2x7 and 7x2 searches (10.9 GB each, long)
#   make results-24   the 24-puzzle with the 6-6-6-6 pattern databases (builds
#                   four 0.13 GB tables in build/pdb, then random walks and
#                   uniform boards; results/puzzle24-kf50.md from the Korf-Felner
#                   runs in results/: SELECT=all and SELECT=retry, see the script)
#   make results-mtm  the multi-tile metric: complete searches to 3x4 and 2x6,
#                   heuristics against exact MTM distances, and the MTM length
#                   of each of Korf's 100 (results/mtm/; minutes)
#   make screenshots  docs/slide-serve.png and docs/slide-serve-phone.png
#                   (headless chromium; refuses a dirty tree unless ALLOW_DIRTY=1)
#   make install    PREFIX=/usr/local DESTDIR= : slide (slide-mpi), include/slide.h
#                   and include/slide/*.h, libslide.a, libslide.so, slide.pc
#                   (docs/libslide.md); make clean
#   make python     the Python package (python/: `import slide`, numpy arrays)
#                   built in place into build/python, with the interpreter
#                   whose `import numpy` works (/usr/bin/python3 first;
#                   PYTHON=... to choose); make python-install copies it into
#                   that interpreter's site-packages (PYTHON_SITE=...)
#   make python-test  the Python package's tests alone (make test runs them)
#   make python-docs  docs/python-*.png from docs/python-example.py
#   make bench-python  the Python API's rates (rank, database, PDB) with load
#   make deps       install (as root) or name every package: the build's,
#                   the full tool's (libmicrohttpd, Jansson, Open MPI), the
#                   tests' (cmocka, chromium, node), gnuplot, and the Python
#                   package's (python3-dev, -numpy, -setuptools, -pytest,
#                   -matplotlib)
#
# Every make first runs scripts/deps.sh: as root with apt-get it installs
# what the full tool needs and is missing (on a bare image the compiler
# and pkg-config too; make test: cmocka; make results: gnuplot); otherwise it stops when a required package is missing
# and says in ONE line each what it leaves out:
#   slide: building without slide serve: libmicrohttpd-dev libjansson-dev are missing (...)
#   slide: building without build/slide-mpi (slide bfs --mpi): ... (...)
# slide serve is built when pkg-config finds libmicrohttpd and jansson
# (without them `slide serve` says what to install); build/slide-mpi when
# mpicc is there.  HAVE_SERVE=0 and HAVE_MPI=0 leave them out on purpose.

VERSION   := 0.1.0
# A plain make (or make all, make run) compiles on every core: a new user's
# first command, under a minute on 2 cores. A -j given on the command line
# wins. Other goals stay serial, since benchmarks and tests must not share
# the cores with each other.
ifeq ($(filter-out all run,$(or $(MAKECMDGOALS),all)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
PREFIX    ?= /usr/local
BUILD     ?= build
CC        ?= cc
CFLAGS    ?= -O2 -g
SAN_FLAGS ?=
# -march=native is left out on purpose; -mpopcnt -mssse3 (x86-64-v2, every x86 CPU since
# 2008) makes the rank hot path use one instruction instead of a libgcc call and
# lets the BFS shuffle a tail of t in one instruction.
ARCH_CFLAGS := $(if $(filter x86_64,$(shell uname -m)),-mpopcnt -mssse3,)
BASE_CFLAGS := $(ARCH_CFLAGS) -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -fopenmp -Iinclude
# What is installed decides what is built, so deps.sh runs before anything
# below looks (once per make: not again in make's own sub-makes; not for
# clean and deps).
DEPS_GOALS := $(filter-out clean deps,$(or $(MAKECMDGOALS),all))
ifneq ($(and $(DEPS_GOALS),$(filter 0,$(MAKELEVEL))),)
DEPS_MODE := $(if $(filter test asan,$(DEPS_GOALS)),test,$(if $(filter results results-2x7,$(DEPS_GOALS)),results,build))
DEPS_RC := $(shell NO_SERVE=$(if $(filter 0,$(HAVE_SERVE)),1,0) NO_MPI=$(if $(filter 0,$(HAVE_MPI)),1,0) \
             CC='$(CC)' DEPS_STAMP=$(BUILD)/deps-failed sh scripts/deps.sh $(DEPS_MODE) >&2; echo $$?)
ifneq ($(DEPS_RC),0)
$(error the packages named above are missing)
endif
endif
ZLIB_CFLAGS := $(shell pkg-config --cflags zlib 2>/dev/null)
ZLIB_LIBS   := $(shell pkg-config --libs zlib 2>/dev/null || echo -lz)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)
HAVE_SERVE  ?= $(shell pkg-config --exists libmicrohttpd jansson 2>/dev/null && echo 1 || echo 0)
ifeq ($(HAVE_SERVE),1)
SERVE_CFLAGS := -DSLIDE_HAVE_SERVE $(shell pkg-config --cflags libmicrohttpd jansson)
SERVE_LIBS   := $(shell pkg-config --libs libmicrohttpd jansson) -lpthread
endif
# --summary FILE.json needs Jansson (with or without slide serve); without
# it --summary writes CSV only and says so.
HAVE_JANSSON ?= $(shell pkg-config --exists jansson 2>/dev/null && echo 1 || echo 0)
ifeq ($(HAVE_JANSSON),1)
JANSSON_CFLAGS := -DSLIDE_HAVE_JANSSON $(shell pkg-config --cflags jansson)
JANSSON_LIBS   := $(shell pkg-config --libs jansson)
endif
ALL_CFLAGS  := $(BASE_CFLAGS) $(ZLIB_CFLAGS) $(SERVE_CFLAGS) $(CFLAGS) $(SAN_FLAGS)
LDLIBS      := $(SERVE_LIBS) $(JANSSON_LIBS) $(ZLIB_LIBS) -lm -ldl
# The commit in provenance blocks; "-dirty" when the code (src, include, the
# Makefile) or what makes results/ (scripts, tests/data) differs from it -
# regenerated results or edited docs do not count.
GIT_COMMIT  := $(shell if c=$$(git rev-parse --short HEAD 2>/dev/null); then \
                 [ -z "$$(git status --porcelain -- src include Makefile scripts tests/data 2>/dev/null)" ] || c="$$c-dirty"; \
                 echo "$$c"; else echo unknown; fi)

# src/ has one folder per layer (scripts/check-layers.sh lists them lowest
# first and fails when a file includes a header of a higher layer); every
# folder but src/cli/ goes into the library.
# The MPI files (*_mpi.c) need mpicc: they go only into build/slide-mpi,
# which is built when mpicc is present (with cmd_bfs.c compiled again with
# -DSLIDE_MPI so that `bfs --mpi` reaches them).
MPI_SRC  := $(wildcard src/*/*_mpi.c)
LIB_SRC  := $(filter-out src/cli/% $(MPI_SRC),$(wildcard src/*/*.c))
CLI_SRC  := $(filter-out $(MPI_SRC),$(wildcard src/cli/*.c))
# The page of slide serve, embedded: src/serve/web/* -> a generated C table.
WEB_FILES := $(sort $(wildcard src/serve/web/*))
ifeq ($(HAVE_SERVE),1)
LIB_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/serve_assets.o
else
LIB_SRC  := $(filter-out src/serve/%,$(LIB_SRC))
LIB_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
endif
CLI_OBJ  := $(CLI_SRC:src/%.c=$(BUILD)/obj/%.o)
# Tests run lowest layer first, so the first failure names the lowest broken module.
TEST_ORDER := board parity rank space store report atomic_file bfs checkpoint cli
TEST_SRC := $(foreach t,$(TEST_ORDER),$(wildcard tests/test_$(t).c)) \
            $(filter-out $(foreach t,$(TEST_ORDER),tests/test_$(t).c),$(wildcard tests/test_*.c))
# The suites a build leaves out, and why (make test names them at the end).
SERVE_TESTS := $(patsubst tests/%.c,%,$(filter tests/test_serve%,$(TEST_SRC)))
MPI_TESTS   := $(patsubst tests/%.c,%,$(filter tests/test_mpi%,$(TEST_SRC)))
ifneq ($(HAVE_SERVE),1)
TEST_SRC := $(filter-out tests/test_serve%,$(TEST_SRC))
SERVE_OFF := $(if $(filter file,$(origin HAVE_SERVE)),libmicrohttpd-dev libjansson-dev are missing (make deps),make HAVE_SERVE=0)
endif
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
MPICC    := $(if $(filter 0,$(HAVE_MPI)),,$(shell command -v mpicc 2>/dev/null))
MPI_BIN  := $(if $(MPICC),$(BUILD)/slide-mpi,)
MPI_OBJ  := $(MPI_SRC:src/%.c=$(BUILD)/mpi/%.o) $(BUILD)/mpi/cli/cmd_bfs.o
# the MPI tests run mpirun: only where the MPI build is
ifeq ($(MPICC),)
TEST_BIN := $(filter-out $(MPI_TESTS:%=$(BUILD)/tests/%),$(TEST_BIN))
MPI_OFF  := $(if $(filter 0,$(HAVE_MPI)),make HAVE_MPI=0,no mpicc: libopenmpi-dev openmpi-bin are missing (make deps))
endif

PHONY_PY := python python-install python-docs bench-python python-test python-if-found
.PHONY: $(PHONY_PY) all run test asan bench bench-solvers bench-pdb bench-pdb-build bench-mpi bench-frontier results check-results results-2x7 results-24 results-mtm oeis install clean deps screenshots
.DELETE_ON_ERROR:

all: $(BUILD)/slide $(BUILD)/libslide.a $(BUILD)/libslide.so $(BUILD)/slide.pc $(MPI_BIN)

deps:
	@CC='$(CC)' DEPS_STAMP=$(BUILD)/deps-failed sh scripts/deps.sh all

$(BUILD)/obj/%.o: src/%.c $(wildcard include/slide/*.h) $(wildcard src/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/obj/core/provenance.o: src/core/provenance.c include/slide/provenance.h .git-commit
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DSLIDE_VERSION='"$(VERSION)"' -DSLIDE_COMMIT='"$(GIT_COMMIT)"' \
	  -DSLIDE_CFLAGS_USED='"$(strip $(CFLAGS) $(SAN_FLAGS))"' -c -o $@ $<

$(BUILD)/gen/serve_assets.c: $(WEB_FILES) scripts/embed-assets.sh
	@mkdir -p $(@D)
	sh scripts/embed-assets.sh $@ $(WEB_FILES)

$(BUILD)/obj/gen/serve_assets.o: $(BUILD)/gen/serve_assets.c src/serve/assets.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Isrc/serve -c -o $@ $<

$(BUILD)/obj/cli/cli_summary.o: ALL_CFLAGS += $(JANSSON_CFLAGS)

# cmd_serve.o is compiled again when the server is switched on or off.
$(BUILD)/obj/cli/cmd_serve.o: $(BUILD)/have-serve
$(BUILD)/have-serve: FORCE
	@mkdir -p $(@D)
	@echo '$(HAVE_SERVE)' | cmp -s - $@ || echo '$(HAVE_SERVE)' > $@

# Rebuild provenance.o when the commit changes.
.git-commit: FORCE
	@echo '$(GIT_COMMIT)' | cmp -s - $@ || echo '$(GIT_COMMIT)' > $@
FORCE:

$(BUILD)/mpi/%.o: src/%.c $(wildcard include/slide/*.h) $(wildcard src/*/*.h)
	@mkdir -p $(@D)
	$(MPICC) $(ALL_CFLAGS) -DSLIDE_MPI -c -o $@ $<

$(BUILD)/slide-mpi: $(filter-out $(BUILD)/obj/cli/cmd_bfs.o,$(CLI_OBJ)) $(MPI_OBJ) $(BUILD)/libslide.a
	$(MPICC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libslide.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

# The library's objects are compiled once, position-independent, and serve
# libslide.a, libslide.so (soname libslide.so.0) and the Python extension
# alike: compiling them twice doubled the build (bfs.c and bfs_slice.c alone
# take half of it). -fno-semantic-interposition keeps calls inside a file
# inlinable, as without -fPIC; the executables are PIE either way.
$(LIB_OBJ): ALL_CFLAGS += -fPIC -fno-semantic-interposition

$(BUILD)/libslide.so: $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libslide.so.0 -o $@ $^ $(LDLIBS)

# pkg-config's description of the installed library (make install writes it
# with the PREFIX given there).
$(BUILD)/slide.pc: Makefile
	@mkdir -p $(@D)
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
	  'Name: slide' 'Description: exhaustive state-space enumeration of sliding-tile puzzles' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lslide' \
	  'Libs.private: -fopenmp $(SERVE_LIBS) $(ZLIB_LIBS) -lm -ldl' > $@

$(BUILD)/slide: $(CLI_OBJ) $(BUILD)/libslide.a
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libslide.a $(LDLIBS)

# slide with the BFS expansion of BFS_BASE (before issue 18), for make bench's
# instruction counts: same CLI and library, only bfs.o from that commit.
BFS_BASE ?= 8046abf
$(BUILD)/bench/bfs-base.c:
	mkdir -p $(dir $@)
	git show $(BFS_BASE):src/engine/bfs.c > $@.tmp && mv $@.tmp $@
$(BUILD)/bench/bfs-base.o: $(BUILD)/bench/bfs-base.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<
$(BUILD)/slide-bfs-base: $(CLI_OBJ) $(BUILD)/bench/bfs-base.o $(BUILD)/libslide.a
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/bench/bfs-base.o $(BUILD)/libslide.a $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(BUILD)/libslide.a | $(BUILD)/tests
	$(CC) $(ALL_CFLAGS) -DTEST_DATA_DIR='"$(CURDIR)/tests/data"' -o $@ $< \
	  $(BUILD)/libslide.a $(CMOCKA_LIBS) $(LDLIBS)

$(BUILD)/tests:
	@mkdir -p $@

run: all
	$(BUILD)/slide bfs 3x3

# every suite, then one closing line, the last: "N passed, N failed" over
# all of them, with the suites skipped and why (scripts/make-test.sh)
test: all $(TEST_BIN) python-if-found
	@sh scripts/check-layers.sh --self-test && sh scripts/check-layers.sh
	@SLIDE=$(abspath $(BUILD))/slide SLIDE_MPI_BIN=$(abspath $(BUILD))/slide-mpi \
	  SLIDE_PY=$(abspath $(BUILD))/python SAN_FLAGS='$(SAN_FLAGS)' \
	  HAVE_SERVE=$(HAVE_SERVE) SKIP_SERVE='$(if $(SERVE_OFF),$(SERVE_TESTS))' \
	  SKIP_SERVE_WHY='$(SERVE_OFF)' SKIP_MPI='$(if $(MPI_OFF),$(MPI_TESTS))' \
	  SKIP_MPI_WHY='$(MPI_OFF)' sh scripts/make-test.sh $(TEST_BIN)

asan:
	$(MAKE) BUILD=build-asan CFLAGS='-O1 -g' \
	  SAN_FLAGS='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined' test

bench: all
	sh scripts/bench.sh
	@echo
	sh scripts/bench-solvers.sh

# the MPI search's figures: time split, bytes per board, 1..4 processes, P=16
bench-mpi: all
	sh scripts/bench-mpi.sh

bench-frontier: $(BUILD)/slide
	sh scripts/bench-frontier.sh

bench-solvers: all
	sh scripts/bench-solvers.sh

bench-pdb: all
	sh scripts/bench-pdb.sh

bench-pdb-build: all
	sh scripts/bench-pdb-build.sh

JOBS ?= 1
results: all
	sh scripts/results.sh --jobs $(JOBS)

check-results: all
	sh scripts/check-results.sh --jobs $(JOBS)

# 2x7 and 7x2: 10.9 GB and 7 to 9 minutes each on 2 cores, checkpointed (see README)
results-2x7: all
	sh scripts/results.sh --big

# OEIS sequences about sliding-tile distances: every term slide computes,
# compared with the published ones; new terms checked twice (docs/oeis.md).
# OEIS_QUICK=1 for the set make test runs.
oeis: all
	sh scripts/oeis.sh $(if $(OEIS_QUICK),--quick)

# 5x5 with 6-6-6-6: minutes to build, searches under node budgets; the
# Korf-Felner instances only with KF_CPU=N (ordered by their published
# lengths) or SELECT=all / SELECT=retry (chosen without them), hours
results-24: all
	KF_CPU=$${KF_CPU:-0} sh scripts/results-24.sh
	sh scripts/results-24.sh --summary

# the multi-tile metric (results/mtm/): 2x7 and 7x2 by hand (scripts/results-mtm.sh 2x7 7x2)
results-mtm: all
	sh scripts/results-mtm.sh
	sh scripts/results-mtm-korf.sh

screenshots: all
	sh scripts/screenshots.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/slide
	install -m 755 $(BUILD)/slide $(DESTDIR)$(PREFIX)/bin/slide
	$(if $(MPI_BIN),install -m 755 $(MPI_BIN) $(DESTDIR)$(PREFIX)/bin/slide-mpi)
	install -m 644 $(BUILD)/libslide.a $(DESTDIR)$(PREFIX)/lib/libslide.a
	install -m 755 $(BUILD)/libslide.so $(DESTDIR)$(PREFIX)/lib/libslide.so.0
	ln -sf libslide.so.0 $(DESTDIR)$(PREFIX)/lib/libslide.so
	install -m 644 include/slide.h $(DESTDIR)$(PREFIX)/include/slide.h
	install -m 644 include/slide/*.h $(DESTDIR)$(PREFIX)/include/slide/
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(BUILD)/slide.pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/slide.pc

# The Python package (python/, docs/python.md): the extension python/slide/_slide.c
# linked against libslide.a (position-independent, above),
# so that the extension needs no libslide.so at run time; built by setuptools
# with the interpreter scripts/python-find.sh names ($PYTHON, else the first
# of /usr/bin/python3 and python3 on PATH whose numpy and Python.h are there;
# it says in one line what to install otherwise).
PYTHON_FOUND = $(shell PYTHON='$(PYTHON)' sh scripts/python-find.sh)
PY_SRC := python/setup.py $(wildcard python/slide/*.py python/slide/*.c)
python: $(BUILD)/python/.built
$(BUILD)/python/.built: $(BUILD)/libslide.a $(PY_SRC) $(wildcard include/slide/*.h)
	@py='$(PYTHON_FOUND)'; [ -n "$$py" ] || exit 1; \
	cd python && SLIDE_LIB=$(abspath $(BUILD))/libslide.a SLIDE_INCLUDE=$(abspath include) \
	  SLIDE_LIBS='$(LDLIBS)' SLIDE_VERSION=$(VERSION) "$$py" setup.py -q build_ext --build-lib $(abspath $(BUILD))/python \
	  --build-temp $(abspath $(BUILD))/python-tmp --force && \
	cp slide/*.py $(abspath $(BUILD))/python/slide/ && touch $(abspath $@) && \
	echo "slide: the Python package is in $(BUILD)/python (PYTHONPATH=$(abspath $(BUILD))/python $$py)"

# make test builds the package when there is an interpreter for it (not
# under the sanitizers) and otherwise says why in its closing lines.
python-if-found: all
	@if [ -z '$(SAN_FLAGS)' ] && PYTHON='$(PYTHON)' sh scripts/python-find.sh --quiet >/dev/null; then \
	  $(MAKE) --no-print-directory python; fi

# the Python tests alone (SLIDE_SLOW=1 also runs the 3x4 search)
python-test: python
	SLIDE=$(abspath $(BUILD))/slide SLIDE_PY=$(abspath $(BUILD))/python sh scripts/python-tests.sh

PYTHON_SITE ?=
python-install: python
	@py='$(PYTHON_FOUND)'; site='$(PYTHON_SITE)'; \
	[ -n "$$site" ] || site=$$("$$py" -c 'import site; print(site.getsitepackages()[0])'); \
	install -d "$(DESTDIR)$$site/slide" && \
	install -m 644 $(BUILD)/python/slide/*.py $(BUILD)/python/slide/*.so "$(DESTDIR)$$site/slide/" && \
	echo "slide: installed the Python package into $(DESTDIR)$$site/slide for $$py"

python-docs: python
	PYTHONPATH=$(abspath $(BUILD))/python SLIDE=$(abspath $(BUILD))/slide \
	  '$(PYTHON_FOUND)' docs/python-example.py --out docs

bench-python: python
	PYTHON='$(PYTHON_FOUND)' PYTHONPATH=$(abspath $(BUILD))/python sh scripts/bench-python.sh

clean:
	rm -rf build build-asan .git-commit
