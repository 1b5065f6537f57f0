"""boardzero: self-play training for multiplayer board games, and play against the agents.

The public API::

    import boardzero
    game = boardzero.make("connect4")          # or "catan", players=3, ...
    state = game.new_state(seed=0)
    agent = boardzero.make_agent("mcts:sims=400", game)
    boardzero.game_names()                     # every registered game
"""

from boardzero.core.api import CHANCE, TERMINAL, Game, State, sample_chance
from boardzero.core.errors import BoardzeroError, CheckpointError, ConfigError, IllegalActionError
from boardzero.core.registry import games as game_names, make, register_game
from boardzero.core.view import SeatView

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "State",
    "SeatView",
    "sample_chance",
    "game_names",
    "make",
    "register_game",
    "make_agent",
    "BoardzeroError",
    "CheckpointError",
    "ConfigError",
    "IllegalActionError",
]

__version__ = "0.1.0"


def make_agent(spec: str, game: Game):
    """Build an agent from a spec string such as ``random`` or ``mcts:sims=400``."""
    from boardzero.agents.registry import make_agent as _make_agent

    return _make_agent(spec, game)
