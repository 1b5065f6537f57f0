"""Bridges to other libraries; each imports boardzero downward only and its library at run time.

- ``boardzero.integrations.pettingzoo``: ``env("catan", players=4)``, a PettingZoo AEC environment for any game.
- ``boardzero.integrations.gym``: ``make_env("catan", opponents=["heuristic"])``, a single-agent Gymnasium
  environment whose other seats are played by boardzero agents; ``gym_vector.make_vector_env``, many games at once.
- ``boardzero.integrations.catanatron``: catanatron's bots as boardzero agents (``catanatron:alphabeta``) and
  boardzero agents as catanatron players.

Each needs an optional extra (``pip install 'boardzero[gym]'``, ``[pettingzoo]``, ``[catanatron]``); a missing
one is named in a clear error.
"""
