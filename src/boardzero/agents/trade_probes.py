"""Agents that probe trading (Catan's ``trading`` option): one offers every legal trade every turn, one accepts
every offer it can. Everything else they leave to a base agent (``heuristic`` unless told), so a game goes on
as usual; they measure how other agents and interfaces hold up against a table that trades all the time.
"""

from __future__ import annotations

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView
from boardzero.games.catan.actions import A_ACCEPT, A_DECLINE, A_OFFER, A_TRADE_WITH, NUM_OFFERS

OFFERS = range(A_OFFER, A_OFFER + NUM_OFFERS)  # the offer catalogue
TRADE_WITH = range(A_TRADE_WITH, A_TRADE_WITH + 4)


def _base(game: Game, base: str, name: str) -> Agent:
    from boardzero.agents.registry import make_agent

    if getattr(game, "name", None) != "catan" or not getattr(game.options, "trading", False):
        raise ConfigError(f"agent {name}", "plays Catan with trading on only (option trading=true)")
    if base in ("offer_all", "accept_all"):
        raise ConfigError(f"agent {name}.base", f"{base!r} is not allowed; name an agent that plays the other moves")
    return make_agent(base, game)


class OfferAllAgent(Agent):
    """Offers every legal trade every turn (first in catalogue order, until the turn's limit), trades with the
    first seat that accepts, declines every offer made to it; the base agent plays the rest."""

    def __init__(self, game: Game, base: str = "heuristic"):
        """base: the agent that plays every move other than offers, partners and answers"""
        self.game, self.base = game, _base(game, base, "offer_all")

    def reset(self) -> None:
        self.base.reset()

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        legal = [int(a) for a in view.legal_actions]
        for wanted in (TRADE_WITH, OFFERS, (A_DECLINE,)):
            move = next((a for a in legal if a in wanted), None)
            if move is not None:
                return move
        return self.base.act(view, rng)


class AcceptAllAgent(Agent):
    """Accepts every offer it can (it holds the asked cards); the base agent plays everything else, its own
    offers included."""

    def __init__(self, game: Game, base: str = "heuristic"):
        """base: the agent that plays every move other than answers"""
        self.game, self.base = game, _base(game, base, "accept_all")

    def reset(self) -> None:
        self.base.reset()

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        if A_ACCEPT in legal:
            return A_ACCEPT
        return self.base.act(view, rng)
