"""Build the slide Python package: the C extension slide._slide over the
slide library's static archive build/libslide.a, whose objects are
position-independent (the same objects make libslide.so).

Run through the Makefile (`make python`, `make python-install`), which
passes SLIDE_LIB (the archive), SLIDE_INCLUDE (include/), SLIDE_LIBS (what
the library links with) and SLIDE_VERSION.
"""
import os

import numpy
from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))
lib = os.environ.get("SLIDE_LIB", os.path.join(here, "..", "build", "libslide.a"))
inc = os.environ.get("SLIDE_INCLUDE", os.path.join(here, "..", "include"))
if not os.path.exists(lib):
    raise SystemExit("slide: %s is missing: run `make python` from the checkout" % lib)

ext = Extension(
    "slide._slide",
    sources=[os.path.join("slide", "_slide.c")],
    include_dirs=[inc, numpy.get_include()],
    extra_compile_args=["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-fopenmp", "-O2",
                        "-Wall", "-Wextra", "-Wno-missing-field-initializers",
                        "-Wno-cast-function-type"],
    extra_objects=[lib],
    # what the library links with (the Makefile's LDLIBS: zlib, and
    # libmicrohttpd and Jansson when slide serve is built)
    extra_link_args=["-fopenmp"] + os.environ.get("SLIDE_LIBS", "-lz -lm").split(),
)

setup(
    name="slide",
    version=os.environ.get("SLIDE_VERSION", "0.1.0"),
    description="slide's sliding-tile puzzle library from Python, over numpy arrays",
    packages=["slide"],
    ext_modules=[ext],
)
