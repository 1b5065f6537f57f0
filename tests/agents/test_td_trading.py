"""TD agents with player-to-player trading (``agents.td_trading``): best and td play trading games legally, their
answers, partners and offers follow the value rule, and ``trade=off`` never offers and declines every offer."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import torch

from boardzero.agents.best import best
from boardzero.agents.registry import agent_settings, make_agent
from boardzero.agents.td import TDAgent
from boardzero.agents.td_trading import NoTradingView, ValueTrader, fresh_offers
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.games.catan import action_id as A, engine as E, testing as T
from boardzero.games.catan.offsets import (
    A_ACCEPT,
    A_DECLINE,
    A_END_TURN,
    A_OFFER,
    A_ROLL,
    A_TRADE_WITH,
    A_WITHDRAW,
    NUM_OFFERS,
)
from boardzero.play.runner import play_game
from tests.agents.recording import Recording

MODEL_2P = "src/boardzero/models/catan/model-2p.json"
OFFERS = range(A_OFFER, A_OFFER + NUM_OFFERS)


class RoadNet:
    """A stand-in value network: a seat values one wood and one brick in its hand (a road), nothing else
    (``own_hand`` is the first five entries of the flat observation, counts / 10)."""

    spec = SimpleNamespace(observation_key="flat")

    def eval(self):
        return self

    def values(self, obs: torch.Tensor) -> torch.Tensor:
        own = obs[:, :2] * 10
        value = own.clamp(max=1).sum(1)
        return torch.stack([value, torch.zeros_like(value)], 1)


class BrickNet(RoadNet):
    """A seat values each wood it holds at 1 and its first brick at 3: a wood for a brick gains the seat that
    lacks brick 2, and the one with a brick to spare 1."""

    def values(self, obs: torch.Tensor) -> torch.Tensor:
        own = obs[:, :2] * 10
        value = own[:, 0] + 3 * own[:, 1].clamp(max=1)
        return torch.stack([value, torch.zeros_like(value)], 1)


def road_trader(game, trade="value", net=None):
    return ValueTrader(game, TDAgent(game.without_trading(), net or RoadNet(), precision="float32"), trade=trade)


def road_position():
    """Seat 0 on turn with 2 wood, seat 1 with 2 brick (known to all: shown in earlier trades), seat 2 empty."""
    state = T.scenario(players=3, seat=0, trading=True)
    T.give(state, 0, wood=2)
    T.give(state, 1, brick=2)
    for observer in (0, 2):
        state.s[E.kn(observer, 1, 1)] = 2
    for observer in (1, 2):
        state.s[E.kn(observer, 0, 0)] = 2
    return state


# ---------------------------------------------------------------- legal play
@pytest.mark.parametrize(
    "players,spec",
    [(2, "best:sims=4,opening_sims=8"), (3, "best:fast"), (4, "best:sims=2,opening_sims=4"), (4, f"td:{MODEL_2P}")],
)
def test_best_and_td_play_whole_trading_games_legally(players, spec):
    if spec.startswith("td:"):  # a checkpoint of another player count is refused, naming the option
        with pytest.raises(Exception, match="players=2"):
            make_agent(spec, make("catan", players=players, trading=True))
        players = 2
    game = make("catan", players=players, trading=True, turn_limit=25)
    agents = [Recording(make_agent(spec, game))] + [make_agent("heuristic", game) for _ in range(players - 1)]
    final = play_game(game, agents, np.random.default_rng(players), seed=players)  # an illegal move would raise
    assert final.is_terminal()
    trade_moments = [chosen for legal, chosen in agents[0].seen if any(a >= A_OFFER for a in legal)]
    assert trade_moments  # it met offers or could make them


def test_best_picks_the_model_without_trading_and_trades_by_its_values():
    game = make("catan", players=2, trading=True)
    agent = best(game, fast=True)
    assert isinstance(agent, ValueTrader) and agent.trade == "value"
    assert agent.inner.game.num_actions == 244 and not agent.inner.game.options.trading
    assert agent_settings("best:fast", game)["sims"] == 0  # the stored settings are read as without trading
    with pytest.raises(ConfigError, match="trade.*allowed: value, off"):
        make_agent("best:trade=never", game)
    with pytest.raises(ConfigError, match="no player-to-player trading"):
        make_agent("best:fast,trade=off", make("catan", players=2))


# ---------------------------------------------------------------- the value rule
def test_answers_follow_the_value_rule():
    game = make("catan", players=3, trading=True)
    agent = road_trader(game)
    rng = np.random.default_rng(0)
    helps = road_position()  # seat 0 offers a wood for a brick: seat 1 gets its road
    helps.apply(A("offer", give="wood", get="brick"))
    assert agent.act(SeatView(helps, 1), rng) == A_ACCEPT
    hurts = road_position()  # seat 0 asks for both bricks for one wood: seat 1 is left without
    hurts.apply(A("offer", give={"wood": 1}, get={"brick": 2}))
    assert agent.act(SeatView(hurts, 1), rng) == A_DECLINE
    assert road_trader(game, trade="off").act(SeatView(helps, 1), rng) == A_DECLINE


def test_answers_with_the_shipped_model_are_its_values_of_the_positions_the_moves_lead_to():
    game = make("catan", players=2, trading=True)
    agent = best(game, fast=True)
    rng = np.random.default_rng(3)
    answered = 0
    for seed in range(6):
        state = T.scenario(players=2, seat=0, trading=True, seed=seed)
        cards = np.random.default_rng(seed).integers(0, 3, size=(2, 5))
        for seat in (0, 1):
            T.give(state, seat, **dict(zip(("wood", "brick", "sheep", "wheat", "ore"), cards[seat].tolist())))
        offers = [a for a in state.legal_actions() if a in OFFERS]
        for a in offers[:: max(1, len(offers) // 4)]:
            asked = state.clone()
            asked.apply(int(a))
            if not asked.legal_mask()[A_ACCEPT]:
                continue
            taken, refused = asked.clone(), asked.clone()  # the moves themselves, not the agent's shortcut
            taken.apply(A_ACCEPT)
            taken.apply(A_TRADE_WITH + 1)
            refused.apply(A_DECLINE)
            yes, no, theirs, without = agent.own_values([taken, refused, taken, refused], [1, 1, 0, 0])
            accepts = yes > no  # the plain rule (trade=value): its own values alone
            assert agent.act(SeatView(asked, 1), rng) == (A_ACCEPT if accepts else A_DECLINE)
            answered += 1
    assert answered >= 6


def test_the_advice_on_an_answer_says_how_the_game_will_end_as_on_other_moves():
    game = make("catan", players=2, trading=True)
    agent = best(game, fast=True)
    state = T.scenario(players=2, seat=0, trading=True, seed=1)
    T.give(state, 0, wood=2)
    T.give(state, 1, brick=2)
    state.apply(A("offer", give="wood", get="brick"))
    view = SeatView(state, 1)
    advice = agent.advise(view, np.random.default_rng(7))
    assert {m.action for m in advice.moves} == {A_ACCEPT, A_DECLINE}
    assert advice.values is not None and advice.values.shape == (2,)
    again = np.random.default_rng(7)
    agent.trade_move(view, again)  # the same draws: the answer, then the position as seat 1 sees it
    drawn = view.sample_state(again)
    with torch.no_grad():  # seen from seat 1: its own value first, then seat 0's
        relative = agent.net.values(torch.from_numpy(drawn.observe(1)[agent.key][None].astype(np.float32)))
    assert np.allclose(advice.values, relative.float().numpy()[0][::-1], atol=2e-2)


def test_a_forced_decline_is_advised_with_the_value_of_the_position_with_the_offer_closed():
    game = make("catan", players=2, trading=True)
    agent = best(game, fast=True)
    state = T.scenario(players=2, seat=0, trading=True, seed=1)
    T.give(state, 0, wood=2)  # seat 1 holds no brick: it can only decline
    state.apply(A("offer", give="wood", get="brick"))
    view = SeatView(state, 1)
    assert view.legal_actions.tolist().count(A_ACCEPT) == 0
    advice = agent.advise(view, np.random.default_rng(7))
    assert [m.action for m in advice.moves] == [A_DECLINE]
    closed = view.sample_state(np.random.default_rng(7)).trade_outcome(-1)  # the same draw, the offer closed
    own = agent.own_values([closed], [1])[0]
    assert advice.moves[0].value is not None and abs(advice.moves[0].value - float(own)) < 2e-2


def test_the_proposer_offers_what_helps_it_and_the_other_accepts_then_trades_with_it():
    game = make("catan", players=3, trading=True)
    agent = road_trader(game)
    rng = np.random.default_rng(0)
    state = road_position()
    offer = agent.act(SeatView(state, 0), rng)
    assert offer == A("offer", give="wood", get="brick")  # the one trade both sides gain by
    state.apply(offer)
    assert agent.act(SeatView(state, 1), rng) == A_ACCEPT
    state.apply(A_ACCEPT)
    assert agent.act(SeatView(state, 2), rng) == A_DECLINE  # holds no brick
    state.apply(A_DECLINE)
    assert agent.act(SeatView(state, 0), rng) == A_TRADE_WITH + 1
    state.apply(A_TRADE_WITH + 1)
    assert T.hand(state, 0)["brick"] == T.hand(state, 1)["wood"] == 1
    assert agent.act(SeatView(state, 0), rng) not in OFFERS  # both hold a road now: nothing left to gain


def test_the_proposer_withdraws_when_no_trade_beats_keeping_its_hand():
    game = make("catan", players=3, trading=True)
    agent = road_trader(game)
    state = road_position()
    T.give(state, 1, wood=1)
    state.apply(A("offer", give={"wood": 2}, get={"brick": 1}))  # leaves seat 0 no better off
    state.apply(A_ACCEPT)
    state.apply(A_DECLINE)
    assert agent.act(SeatView(state, 0), np.random.default_rng(0)) == A_WITHDRAW


def test_a_guarded_seat_declines_a_trade_that_puts_the_proposer_ahead_by_gaining_it_more():
    game = make("catan", players=3, trading=True)
    state = road_position()  # seat 0: 2 wood, no brick; seat 1: 2 brick, no wood (known to all)
    T.give(state, 0, wood=1)
    state.s[E.kn(1, 0, 0)] = 3
    state.apply(A("offer", give="wood", get="brick"))
    agent = road_trader(game, trade="guarded", net=BrickNet())
    yes, no, theirs, without = agent.answer_values(SeatView(state, 1), np.random.default_rng(0))
    assert (yes, no, theirs, without) == (4.0, 3.0, 5.0, 3.0)  # it gains 1; the proposer gains 2 and leads
    assert agent.act(SeatView(state, 1), np.random.default_rng(0)) == A_DECLINE
    for trade in ("value", "fresh"):  # the plain answer rule: its own gain is enough
        plain = road_trader(game, net=BrickNet(), trade=trade)
        assert plain.act(SeatView(state, 1), np.random.default_rng(0)) == A_ACCEPT
    level = road_position()  # with one wood less the proposer ends level (4 and 4): accepted
    level.apply(A("offer", give="wood", get="brick"))
    assert agent.act(SeatView(level, 1), np.random.default_rng(0)) == A_ACCEPT


def test_fresh_offers_leave_out_offers_made_this_turn_and_trades_undone():
    wood_for_brick, brick_for_wood = A("offer", give="wood", get="brick"), A("offer", give="brick", get="wood")
    wood_for_ore, sheep_for_wheat = A("offer", give="wood", get="ore"), A("offer", give="sheep", get="wheat")
    offers = np.array([wood_for_brick, brick_for_wood, wood_for_ore, sheep_for_wheat]) - A_OFFER
    assert fresh_offers([A_ROLL, 7], offers).all()
    withdrawn = [A_ROLL, 7, wood_for_ore, A_ACCEPT, A_WITHDRAW]  # made and taken back: not made again
    assert fresh_offers(withdrawn, offers).tolist() == [True, True, False, True]
    traded = [A_ROLL, 7, wood_for_brick, A_ACCEPT, A_TRADE_WITH + 1]  # brick received, wood given: no undoing
    assert fresh_offers(traded, offers).tolist() == [False, False, True, True]
    declined = [A_ROLL, 7, wood_for_brick, A_DECLINE, sheep_for_wheat, A_ACCEPT, A_WITHDRAW]  # no trade made
    assert fresh_offers(declined, offers).tolist() == [False, True, True, False]
    last_turn = [*traded, A_END_TURN, A_ROLL, None, 5]  # only this turn counts
    assert fresh_offers(last_turn, offers).all()


@pytest.mark.parametrize("trade", ["guarded", "fresh"])
def test_a_guarded_or_fresh_proposer_does_not_make_again_an_offer_it_withdrew(trade):
    game = make("catan", players=3, trading=True)
    agent = road_trader(game, trade=trade)
    state = road_position()
    offer = agent.act(SeatView(state, 0), np.random.default_rng(0))
    assert offer == A("offer", give="wood", get="brick")
    for move in (offer, A_ACCEPT, A_DECLINE, A_WITHDRAW):
        state.apply(move)
    assert state.legal_mask()[offer]  # the rules allow it again (only an offer everyone declined is barred)
    assert agent.act(SeatView(state, 0), np.random.default_rng(0)) != offer
    assert road_trader(game).act(SeatView(state, 0), np.random.default_rng(0)) == offer  # trade=value: it may


def test_trade_off_never_offers_and_declines_every_offer():
    game = make("catan", players=3, trading=True, turn_limit=40)
    off = Recording(make_agent("best:fast,trade=off", game))
    agents = [off, make_agent("offer_all", game), make_agent("offer_all", game)]
    play_game(game, agents, np.random.default_rng(5), seed=5)
    asked = [chosen for legal, chosen in off.seen if A_DECLINE in legal]
    assert asked and all(chosen == A_DECLINE for chosen in asked)
    could_offer = [chosen for legal, chosen in off.seen if any(a in OFFERS for a in legal)]
    assert could_offer and not any(chosen in OFFERS for chosen in could_offer)


def test_the_search_sees_no_trade_moves():
    game = make("catan", players=2, trading=True)
    state = T.scenario(players=2, seat=0, trading=True)
    T.give(state, 0, wood=2)
    T.give(state, 1, brick=1)
    view = NoTradingView(SeatView(state, 0), game.without_trading())
    assert view.legal_mask.shape == (244,) and view.legal_mask.any()
    sampled = view.sample_state(np.random.default_rng(0))
    assert sampled.game.num_actions == 244 and not any(a >= A_OFFER for a in sampled.legal_actions())
    assert T.hand(sampled, 0) == T.hand(state, 0)
