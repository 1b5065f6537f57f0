"""catanatron's bots as boardzero agents (integrations/catanatron/bots.py), one decision at a time: what they are
built with, what they are asked, what they answer and what they count; whole games are in test_catanatron.py."""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("catanatron")

from boardzero.core.api import CHANCE, sample_chance  # noqa: E402
from boardzero.core.errors import ConfigError  # noqa: E402
from boardzero.core.registry import make  # noqa: E402
from boardzero.core.view import SeatView  # noqa: E402
from boardzero.games.catan.actions import action_id  # noqa: E402
from boardzero.integrations.catanatron import bots  # noqa: E402
from boardzero.integrations.catanatron.actions import RANDOM_DISCARD  # noqa: E402
from boardzero.integrations.catanatron.bots import (  # noqa: E402
    BOTS,
    INSTALL_HINT,
    TRADING_REFUSED,
    CatanatronAgent,
    available_bots,
    catanatron_agent,
    catanatron_version,
)
from boardzero.integrations.catanatron.position import COLORS  # noqa: E402

needs_value = pytest.mark.skipif(not available_bots()["value"], reason="catanatron 3.3+ has the value bots")


def decisions(players: int = 2, seed: int = 0, count: int = 60):
    """The first ``count`` decision points of a random game (several legal moves each), with their phase."""
    game = make("catan", players=players)
    state, rng, found = game.new_state(seed=seed), np.random.default_rng(seed), []
    while not state.is_terminal() and len(found) < count:
        if state.current_player == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            found.append(state.clone())
        state.apply(int(legal[rng.integers(len(legal))]))
    return found


def error(call) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        call()
    return caught.value


# ------------------------------------------------------------------ building
def test_every_bot_is_listed_and_this_install_has_them():
    assert list(BOTS) == ["random", "weighted", "value", "alphabeta"]
    assert available_bots() == {name: True for name in BOTS}  # catanatron 3.3 (the shipped wheel)
    assert catanatron_version().startswith("3.")


def test_a_bot_this_install_lacks_is_named_with_how_to_get_it(monkeypatch):
    monkeypatch.setitem(BOTS, "value", ("catanatron.models.player", "NoSuchPlayer", "missing"))
    monkeypatch.setitem(BOTS, "alphabeta", ("catanatron.no_such_module", "AlphaBetaPlayer", "missing"))
    assert available_bots() == {"random": True, "weighted": True, "value": False, "alphabeta": False}
    for bot, cls in (("value", "NoSuchPlayer"), ("alphabeta", "AlphaBetaPlayer")):
        refused = error(lambda bot=bot: CatanatronAgent(make("catan"), bot))
        assert refused.field == f"agent catanatron.{bot}"
        assert str(refused) == (
            f"agent catanatron.{bot}: catanatron {catanatron_version()} has no {cls} bot; {INSTALL_HINT}"
        )


def test_bad_settings_are_refused_naming_what_is_allowed():
    catan = make("catan")
    cases = [
        (
            lambda: CatanatronAgent(make("connect4")),
            "agent catanatron: catanatron's bots play Catan only, not connect4",
        ),
        (lambda: CatanatronAgent(make("catan", trading=True), "random"), f"agent catanatron: {TRADING_REFUSED}"),
        (
            lambda: CatanatronAgent(catan, "deepblue"),
            "agent catanatron: unknown bot 'deepblue'; bots: random, weighted, value, alphabeta",
        ),
        (
            lambda: CatanatronAgent(catan, "random", sight="half"),
            "agent catanatron.sight: 'half' is not allowed; allowed: fair, full",
        ),
        (lambda: CatanatronAgent(catan, "random", depth=0), "agent catanatron.depth: must be at least 1, got 0"),
    ]
    for call, message in cases:
        assert str(error(call)) == message
    assert CatanatronAgent(catan, "random", depth=1).bot == "random"


@needs_value
def test_each_bot_is_built_with_its_own_settings_once_per_seat():
    catan = make("catan", players=3)
    alphabeta = catanatron_agent(catan, "alphabeta", depth=3, pruning=True, epsilon=0.25)
    player = alphabeta._player(1)
    assert type(player).__name__ == "AlphaBetaPlayer" and player.color == COLORS[1]
    assert (player.depth, player.prunning, player.epsilon) == (3, True, 0.25)
    assert alphabeta._player(1) is player and alphabeta._player(2) is not player
    assert alphabeta._player(2).color == COLORS[2]
    for default in (catanatron_agent(catan), CatanatronAgent(catan)):  # alphabeta, depth 2, no pruning
        assert default.bot == "alphabeta" and not default.full_sight
        player = default._player(0)
        assert type(player).__name__ == "AlphaBetaPlayer" and (player.depth, player.prunning) == (2, False)
        assert player.epsilon is None
    value = catanatron_agent(catan, "value", epsilon=0.5)._player(0)
    assert type(value).__name__ == "ValueFunctionPlayer" and value.epsilon == 0.5
    assert catanatron_agent(catan, "value")._player(0).epsilon is None
    weighted = catanatron_agent(catan, "weighted", epsilon=0.5)  # random bots take no epsilon
    assert type(weighted._player(0)).__name__ == "WeightedRandomPlayer"
    assert not catanatron_agent(catan, "random").full_sight and catanatron_agent(catan, sight="full").full_sight


# ------------------------------------------------------------------ deciding
@needs_value
@pytest.mark.parametrize("bot", ["value", "alphabeta"])
def test_the_searching_bots_decide_on_the_position_they_are_given(four_seat_steps, bot):
    agent = catanatron_agent(four_seat_steps["main"].game, bot, depth=1)
    for phase in ("main", "discard", "robber"):
        state = four_seat_steps[phase]
        assert state.legal_mask()[agent.act(SeatView(state, state.current_player), np.random.default_rng(0))]
        agent.reset()
    assert agent.decisions == 3 and agent.fallbacks == 0


def test_a_forced_move_is_played_without_asking_the_bot():
    game = make("catan", players=2)
    state = game.new_state(seed=0)
    rng = np.random.default_rng(0)
    while len(state.legal_actions()) != 1 or state.current_player == CHANCE:
        if state.current_player == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
    agent = catanatron_agent(game, "random")
    assert agent.act(SeatView(state, state.current_player), rng) == int(state.legal_actions()[0])
    assert agent.decisions == 0 and agent.seconds == 0.0


def test_decisions_are_legal_repeatable_counted_and_leave_pythons_random_alone():
    agent = catanatron_agent(make("catan", players=2), "weighted")
    random.seed(1234)
    before = random.getstate()
    asked = 0
    for state in decisions():
        view = SeatView(state, state.current_player)
        planned = bool(agent._plan) and agent._plan[0] in view.legal_actions
        first = agent.act(view, np.random.default_rng(7))
        assert state.legal_mask()[first]
        asked += not planned
        if not planned:
            agent._plan = []
            again = agent.act(view, np.random.default_rng(7))
            assert again == first  # the same generator, the same choice
            asked += 1
        agent.reset()
        assert agent._plan == []
    assert random.getstate() == before
    assert agent.decisions == asked > 0 and agent.fallbacks == 0
    assert 0 < agent.bot_seconds <= agent.seconds


def test_a_bots_several_step_choice_is_played_out_step_by_step():
    """A choice of catanatron's that takes several boardzero moves (a trade's cards, a robber and its victim)
    is played out from the plan, without asking the bot again."""
    agent = catanatron_agent(make("catan", players=4), "random")
    planned = []
    plan_of = agent._plan_of
    agent._plan_of = lambda *args: planned.append(plan_of(*args)) or planned[-1]
    for state in decisions(players=4, count=300):
        first = agent.act(SeatView(state, state.current_player), np.random.default_rng(3))
        choice, asked = planned[-1], agent.decisions
        if len(choice) < 2:
            continue
        assert first == choice[0]
        state.apply(first)
        if state.current_player == CHANCE or choice[1] not in state.legal_actions():
            agent.reset()
            continue
        for step in choice[1:]:
            assert agent.act(SeatView(state, state.current_player), np.random.default_rng(4)) == step
            state.apply(step)
        assert agent.decisions == asked and agent._plan == []  # the plan's steps are not decisions
        return
    pytest.fail("no choice of several steps in 300 decisions")


@pytest.fixture(scope="module")
def four_seat_steps():
    """A random four-seat game's first decision of each kind (phase): setup, robber, victim, discard, ..."""
    found = {}
    for state in decisions(players=4, seed=0, count=60):
        found.setdefault(state.public_view(state.current_player)["phase"], state)
    assert {"victim", "discard", "year_of_plenty", "main"} <= set(found)
    return found


def test_a_step_catanatron_has_no_prompt_for_gets_a_random_legal_move(four_seat_steps):
    state = four_seat_steps["year_of_plenty"]
    agent = catanatron_agent(state.game, "random")
    action = agent.act(SeatView(state, state.current_player), np.random.default_rng(0))
    assert state.legal_mask()[action] and agent.fallbacks == 1 and agent.decisions == 0
    agent.act(SeatView(state, state.current_player), np.random.default_rng(1))
    assert agent.fallbacks == 2


def test_with_the_robber_moved_the_bot_is_asked_for_its_victim(four_seat_steps):
    state = four_seat_steps["victim"]
    for seed in range(3):
        agent = catanatron_agent(state.game, "random")
        action = agent.act(SeatView(state, state.current_player), np.random.default_rng(seed))
        assert state.legal_mask()[action] and agent.fallbacks == 0 and agent.decisions == 1


def test_an_older_catanatrons_random_discard_is_played_as_one_card_held(four_seat_steps, monkeypatch):
    state = four_seat_steps["discard"]
    seat = state.current_player
    hand = state.public_view(seat)["seats"][seat]["hand"]
    held = {action_id("discard", resource=r) for r, count in enumerate(hand.values()) if count}
    monkeypatch.setattr(bots, "to_boardzero", lambda action: [RANDOM_DISCARD])  # catanatron < 3.3
    chosen = set()
    for seed in range(12):
        agent = catanatron_agent(state.game, "random")
        chosen.add(agent.act(SeatView(state, seat), np.random.default_rng(seed)))
        assert agent.fallbacks == 0 and agent.decisions == 1
    assert chosen == held and len(held) > 1  # each card held, drawn at random
    main = four_seat_steps["main"]  # a random discard is offered in the discard step only
    agent = catanatron_agent(main.game, "random")
    assert main.legal_mask()[agent.act(SeatView(main, main.current_player), np.random.default_rng(0))]
    assert (agent.fallbacks, agent.decisions) == (1, 0)


def test_a_choice_that_maps_to_no_legal_move_falls_back_to_a_random_legal_one(four_seat_steps, monkeypatch):
    state = four_seat_steps["main"]
    view = SeatView(state, state.current_player)
    agent = catanatron_agent(state.game, "random")
    agent._plan_of = lambda *args: [-5, -6]
    for count in (1, 2):
        assert state.legal_mask()[agent.act(view, np.random.default_rng(count))]
        assert (agent.fallbacks, agent.decisions, agent._plan) == (count, count, [])
    monkeypatch.setattr(bots, "_first_step", lambda action, phase: -5)  # nothing catanatron offers is legal
    agent = catanatron_agent(state.game, "random")
    for count in (1, 2):
        assert state.legal_mask()[agent.act(view, np.random.default_rng(count))]
        assert (agent.fallbacks, agent.decisions) == (count, 0)


def test_the_time_of_each_decision_and_of_the_bot_within_it_adds_up(four_seat_steps, monkeypatch):
    ticks = iter(range(1000))
    monkeypatch.setattr(bots, "time", SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    agent = catanatron_agent(four_seat_steps["main"].game, "random")
    for phase in ("main", "discard", "victim"):
        state = four_seat_steps[phase]
        agent.act(SeatView(state, state.current_player), np.random.default_rng(0))
        agent.reset()
    # each decision reads the clock at its start, around the bot's decide and at its end: 3 ticks, 1 in the bot
    assert (agent.decisions, agent.seconds, agent.bot_seconds) == (3, 9.0, 3.0)


def test_the_bot_draws_pythons_random_from_the_games_generator(four_seat_steps):
    state = four_seat_steps["main"]
    agent = catanatron_agent(state.game, "random")
    player = agent._player(state.current_player)
    seen = []

    class Watching:
        def decide(self, game, actions):
            seen.append(random.random())
            return player.decide(game, actions)

    agent._players[state.current_player] = Watching()
    for seed in [*range(40), 0]:
        agent.act(SeatView(state, state.current_player), np.random.default_rng(seed))
        agent.reset()
    assert len(set(seen[:40])) == 40 and seen[40] == seen[0]  # a seed of 63 bits from each generator
