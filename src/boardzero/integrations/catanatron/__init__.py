"""A two-way bridge to catanatron (PyPI ``catanatron``, GPL: imported at run time, never copied).

- catanatron's bots as boardzero agents: ``catanatron:alphabeta``, ``catanatron:value``,
  ``catanatron:random``, ``catanatron:weighted`` (registered in the agent registry, so ``arena`` and
  ``tournament`` take them), with options such as ``catanatron:alphabeta,depth=2``. Fair by default:
  the bot sees a position drawn by ``view.sample_state(rng)``; ``sight=full`` shows it the true one.
- boardzero agents as catanatron players: ``BoardzeroPlayer(color, "heuristic")`` in a game made by
  ``new_game(players, seed=...)``.

docs/catanatron.md lists every rules difference and how the bridge handles it. Needs
``pip install 'boardzero[catanatron]'``; AlphaBeta and ValueFunction need catanatron 3.3 or later.
"""

from __future__ import annotations

from boardzero.integrations.common import require

require("catanatron", "catanatron")

from boardzero.integrations.catanatron.bots import BOTS, CatanatronAgent, available_bots, catanatron_version  # noqa: E402
from boardzero.integrations.catanatron.player import BoardzeroPlayer, new_game  # noqa: E402

__all__ = ["BOTS", "BoardzeroPlayer", "CatanatronAgent", "available_bots", "catanatron_version", "new_game"]
