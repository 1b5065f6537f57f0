"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every game, and full games."""

from __future__ import annotations

import numpy as np
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")

from boardzero.core.errors import ConfigError  # noqa: E402
from boardzero.core.registry import games  # noqa: E402
from boardzero.integrations.pettingzoo import env  # noqa: E402

CASES = (
    [(name, {}) for name in games() if name != "catan"]
    + [("catan", {"players": p}) for p in (2, 3, 4)]
    + [("catan", {"players": p, "trading": True}) for p in (2, 4)]
)


@pytest.mark.parametrize(
    "name,options", CASES, ids=[f"{n}{o.get('players', '')}{'t' if o.get('trading') else ''}" for n, o in CASES]
)
def test_passes_pettingzoo_api_and_seed_tests(name, options):
    pettingzoo_test.api_test(env(name, **options), num_cycles=200)
    pettingzoo_test.seed_test(lambda: env(name, **options), num_cycles=100)


def play_to_end(aec, seed: int) -> tuple[dict, int]:
    """Random legal moves to the end; returns the rewards summed per agent and the number of steps."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    steps = 0
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        totals[agent] += reward
        if termination or truncation:
            aec.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() > 0
        aec.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("players", [2, 4])
def test_catan_game_runs_to_the_end_and_pays_the_returns(players):
    aec = env("catan", players=players)
    totals, steps = play_to_end(aec, seed=3)
    assert steps > 50 and aec.agents == []
    returns = aec.state.returns()
    assert totals == {f"player_{seat}": pytest.approx(float(returns[seat])) for seat in range(players)}
    assert sum(totals.values()) == pytest.approx(1.0)  # 'win' returns: the winner (or tied leaders) share 1


def test_only_the_seat_to_move_gets_a_mask_and_chance_is_never_exposed():
    aec = env("kuhn_poker")
    aec.reset(seed=0)
    mover = aec.agent_selection
    for agent in aec.possible_agents:
        mask = aec.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == mover)
    assert aec.state.current_player >= 0  # the card deal was resolved inside the environment


def test_same_seed_same_game_and_other_seed_other_game():
    def first_observation(seed):
        aec = env("catan", players=3)
        aec.reset(seed=seed)
        return aec.observe(aec.agent_selection)["observation"]

    assert np.array_equal(first_observation(5), first_observation(5))
    assert not np.array_equal(first_observation(5), first_observation(6))  # another random board


def test_bad_options_fail_clearly():
    with pytest.raises(ConfigError, match="observation"):
        env("connect4", observation="pixels")
    with pytest.raises(ConfigError, match="players"):
        env("catan", players=7)


def test_with_trading_each_answering_seat_acts_in_turn():
    """An offer passes the turn to each other seat in order (accept / decline only), then back to the proposer."""
    aec = env("catan", players=4, trading=True)
    aec.reset(seed=5)
    rng = np.random.default_rng(5)
    answers, offers = [], 0
    for agent in aec.agent_iter(max_iter=20000):
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        mask = observation["action_mask"]
        public = aec.state.public_view(int(agent.split("_")[1]))
        if public["phase"] == "trade_answer":
            assert set(np.flatnonzero(mask)) <= {364, 365}
            answers.append((public["turn_player"], int(agent.split("_")[1])))
        legal = np.flatnonzero(mask)
        offer = legal[(legal >= 244) & (legal < 364)]
        if len(offer) and offers < 50:
            offers += 1
            aec.step(int(offer[0]))
        else:
            aec.step(int(rng.choice(legal)))
    assert offers > 0 and answers
    for proposer, seat in answers:
        assert seat != proposer
