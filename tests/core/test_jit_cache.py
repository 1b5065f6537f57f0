"""The numba cache of a registered package is stale as soon as any of its files changes."""

import subprocess
import sys
import textwrap

from boardzero.core.jit_cache import sources_digest

PACKAGE_INIT = """
from boardzero.core.jit_cache import stamp_with_package_sources
stamp_with_package_sources(__path__[0])
"""
RULES = """
from numba import njit

@njit(cache=True)
def points():
    return {points}
"""
CALLER = """
from numba import njit
from {package}.rules import points

@njit(cache=True)
def doubled():
    return 2 * points()
"""


def write_package(root, name, points):
    package = root / name
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text(PACKAGE_INIT)
    (package / "rules.py").write_text(RULES.format(points=points))
    (package / "caller.py").write_text(CALLER.format(package=name))


def cached_call(root, name) -> int:
    code = f"from {name}.caller import doubled; print(doubled())"
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_a_change_in_a_callee_file_recompiles_its_cached_callers(tmp_path):
    write_package(tmp_path, "stamped_pkg", points=1)
    assert cached_call(tmp_path, "stamped_pkg") == 2
    assert list((tmp_path / "stamped_pkg" / "__pycache__").glob("caller.doubled-*.nbi"))  # really cached
    (tmp_path / "stamped_pkg" / "rules.py").write_text(RULES.format(points=5))  # caller.py unchanged
    assert cached_call(tmp_path, "stamped_pkg") == 10


def test_digest_follows_every_source_file(tmp_path):
    write_package(tmp_path, "pkg", points=1)
    first = sources_digest(tmp_path / "pkg")
    assert sources_digest(tmp_path / "pkg") == first
    (tmp_path / "pkg" / "rules.py").write_text(textwrap.dedent(RULES.format(points=1)) + "\n# edited\n")
    assert sources_digest(tmp_path / "pkg") != first
