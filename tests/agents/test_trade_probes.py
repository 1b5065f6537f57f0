"""offer_all and accept_all: the trading probes play whole games, offer and accept as their names say."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.agents.registry import make_agent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.games.catan.actions import A_ACCEPT, A_OFFER, NUM_OFFERS
from boardzero.play.runner import play_game
from tests.agents.recording import Recording


def test_offer_all_offers_whenever_it_may_and_accept_all_accepts_whenever_it_can():
    game = make("catan", players=3, trading=True, turn_limit=60)
    offerer, acceptor = Recording(make_agent("offer_all", game)), Recording(make_agent("accept_all", game))
    final = play_game(game, [offerer, acceptor, make_agent("heuristic", game)], np.random.default_rng(1), seed=1)
    assert final.is_terminal()
    offers = range(A_OFFER, A_OFFER + NUM_OFFERS)
    asked_to_offer = [(legal, a) for legal, a in offerer.seen if any(x in offers for x in legal)]
    assert asked_to_offer and all(a in offers for _, a in asked_to_offer)
    could_accept = [a for legal, a in acceptor.seen if A_ACCEPT in legal]
    assert could_accept and all(a == A_ACCEPT for a in could_accept)


def test_the_probes_need_catan_with_trading():
    with pytest.raises(ConfigError, match="trading=true"):
        make_agent("offer_all", make("catan"))
    with pytest.raises(ConfigError, match="trading=true"):
        make_agent("accept_all", make("connect4"))
    with pytest.raises(ConfigError, match="base"):
        make_agent("accept_all,base=offer_all", make("catan", trading=True))
