"""Game rules. Each game imports only ``boardzero.core``, the standard library and numpy (numba for hot loops).

Games are registered by import path in ``boardzero.core.registry``, so importing this package loads none of
them; ``boardzero.game_names()`` lists the registered games.
"""
