"""Build the slide Python package: the C extension slide._slide over the
slide library compiled with -fPIC (build/pic/libslide_pic.a).

Run through the Makefile (`make python`, `make python-install`), which
passes SLIDE_LIB (the static library), SLIDE_INCLUDE (include/) and
SLIDE_VERSION; by hand, from python/:
    SLIDE_LIB=../build/pic/libslide_pic.a SLIDE_INCLUDE=../include \\
        /usr/bin/python3 setup.py build_ext --inplace
"""
import os

import numpy
from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))
lib = os.environ.get("SLIDE_LIB", os.path.join(here, "..", "build", "pic", "libslide_pic.a"))
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
    extra_link_args=["-fopenmp"],
    libraries=["z", "m"],
)

setup(
    name="slide",
    version=os.environ.get("SLIDE_VERSION", "0.1.0"),
    description="slide's sliding-tile puzzle library from Python, over numpy arrays",
    packages=["slide"],
    ext_modules=[ext],
)
