"""RandomOpening: random first moves, then the wrapped agent, with the sight that agent asked for."""

from __future__ import annotations

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.registry import make
from boardzero.core.view import FullSightView
from boardzero.play.opening import RandomOpening
from boardzero.play.runner import play_game


class _Sighted(Agent):
    """Records the kind of view it is handed after the opening."""

    full_sight = True
    spec = "sighted"

    def __init__(self):
        self.views: list[type] = []

    def act(self, view, rng: np.random.Generator) -> int:
        self.views.append(type(view))
        return int(view.legal_actions[0])


def test_a_wrapped_agent_with_full_sight_keeps_it_after_the_random_opening():
    game = make("kuhn_poker", players=2)
    sighted = _Sighted()
    play_game(game, [RandomOpening(sighted, 1), RandomOpening(_Sighted(), 1)], np.random.default_rng(0), seed=0)
    assert sighted.views and set(sighted.views) == {FullSightView}
