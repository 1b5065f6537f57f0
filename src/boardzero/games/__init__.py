"""Game rules. Each game imports only ``boardzero.core``, the standard library and numpy (numba for hot loops).

``boardzero.games()`` lists the registered games: this package is callable so
that the name works both as the package and as that function.
"""

import sys
import types

from boardzero.core.registry import games


class _GamesPackage(types.ModuleType):
    def __call__(self) -> list[str]:
        return games()


sys.modules[__name__].__class__ = _GamesPackage
