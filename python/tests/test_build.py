"""The interpreter scripts/python-find.sh picks (a python3 without numpy
first on PATH is passed over; PYTHON names one and only it), and the
ImportError of `import slide` where numpy is missing.  The stand-in
interpreters are shell scripts written here."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT

FIND = os.path.join(ROOT, "scripts", "python-find.sh")


def fake_python(tmp_path, name, problem):
    """A python3 that answers python-find.sh's check with problem."""
    d = tmp_path / name
    d.mkdir()
    p = d / "python3"
    p.write_text("#!/bin/sh\ncat >/dev/null\necho '%s'\n" % problem)
    p.chmod(0o755)
    return d, str(p)


def find(env):
    e = dict(os.environ)
    e.pop("PYTHON", None)
    e.update(env)
    return subprocess.run(["sh", FIND], capture_output=True, text=True, env=e)


def test_python_without_numpy_first_on_path_is_passed_over(tmp_path):
    d, fake = fake_python(tmp_path, "pyenv", "no numpy")
    r = find({"PATH": "%s:%s" % (d, os.environ["PATH"])})
    assert r.returncode == 0
    assert r.stdout.strip() != fake
    # what it picked imports numpy
    subprocess.run([r.stdout.strip(), "-c", "import numpy"], check=True)


def test_python_named_and_lacking_is_refused_in_one_line(tmp_path):
    _, fake = fake_python(tmp_path, "pyenv", "no numpy")
    r = find({"PYTHON": fake})
    assert r.returncode == 1 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1
    assert "%s: no numpy" % fake in lines[0]
    assert "apt-get install python3-dev python3-numpy python3-setuptools" in lines[0]
    r = find({"PYTHON": str(tmp_path / "missing")})
    assert r.returncode == 1 and "missing: not found" in r.stderr


def test_import_without_numpy_says_why():
    code = "import sys; sys.modules['numpy'] = None; import slide"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ))
    assert r.returncode != 0
    assert "ImportError: slide needs numpy" in r.stderr
    assert "python3-numpy" in r.stderr
