"""Numba's on-disk cache, made stale by any change to a package's sources.

``@njit(cache=True)`` stores machine code on disk and reuses it while the
function's *own* file is unchanged. A compiled function that calls compiled
functions of another file keeps their old code inside its own: change
``engine.py`` and ``testing.py``'s fuzzer still runs the old rules from its
cache. For a package registered here, every cached function is stamped with a
digest of all the package's ``.py`` sources instead, so any change to any of
them recompiles all of them on first use::

    # games/catan/__init__.py, before any of its modules defines a compiled function
    from boardzero.core.jit_cache import stamp_with_package_sources
    stamp_with_package_sources(__path__[0])

The cache stays where numba puts it (``__pycache__`` beside the sources, or
``NUMBA_CACHE_DIR``, or the user cache directory when the sources are read-only);
only the freshness test changes. Compiled code that calls into another package
is not covered: keep such calls inside one package.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from numba.core import caching

_DIGESTS: dict[str, str] = {}  # package directory (absolute, with a trailing separator) -> digest of its sources


def sources_digest(directory: str | Path) -> str:
    """sha256 over the relative paths and contents of every ``.py`` file under ``directory``."""
    root = Path(directory)
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def stamp_with_package_sources(directory: str | Path) -> str:
    """Stamp the numba cache of every function defined under ``directory`` with its sources' digest
    (call before those functions are defined); returns the digest."""
    key = os.path.join(os.path.abspath(directory), "")
    if key not in _DIGESTS:
        _DIGESTS[key] = sources_digest(directory)
        _install_locators()
    return _DIGESTS[key]


def _package_digest(py_file: str) -> str | None:
    path = os.path.abspath(py_file)
    for directory, digest in _DIGESTS.items():
        if path.startswith(directory):
            return digest
    return None


def _stamped(locator: Any) -> Any:
    """``locator`` (one of numba's), serving only registered packages, stamped with the package digest."""

    class PackageStamped(locator):
        @classmethod
        def from_function(cls, py_func, py_file):
            if _package_digest(py_file) is None:
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return _package_digest(self._py_file)

    PackageStamped.__name__ = PackageStamped.__qualname__ = f"PackageStamped{locator.__name__.lstrip('_')}"
    return PackageStamped


def _numba_locators() -> tuple[Any, list[Any]]:
    """numba's cache implementation base class and its locators in their order (names differ across versions)."""
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    names = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
    return impl, [getattr(caching, name, None) or getattr(caching, "_" + name) for name in names]


def _install_locators() -> None:
    impl, locators = _numba_locators()
    if any(getattr(cls, "_boardzero_stamped", False) for cls in impl._locator_classes):
        return
    stamped = [_stamped(cls) for cls in locators]
    for cls in stamped:
        cls._boardzero_stamped = True
    impl._locator_classes[:0] = stamped  # tried first, in numba's own order; other files fall through
