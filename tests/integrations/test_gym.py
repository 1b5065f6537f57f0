"""The single-agent Gymnasium environment: Gymnasium's checker, delayed rewards, opponents, illegal actions."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from boardzero.agents.base import Agent  # noqa: E402
from boardzero.core.errors import ConfigError, IllegalActionError  # noqa: E402
from boardzero.core.registry import games  # noqa: E402
from boardzero.integrations.gym import make_env  # noqa: E402

CASES = (
    [(name, {}) for name in games() if name != "catan"]
    + [("catan", {"players": p}) for p in (2, 4)]
    + [("catan", {"players": 3, "trading": True})]
)


@pytest.mark.parametrize(
    "name,options", CASES, ids=[f"{n}{o.get('players', '')}{'t' if o.get('trading') else ''}" for n, o in CASES]
)
@pytest.mark.filterwarnings("ignore:.*infinity")
def test_passes_gymnasium_check_env(name, options):
    check_env(make_env(name, ["random"], **options))
    check_env(gymnasium.make(f"boardzero/{name}-v0", **options).unwrapped)


class RecordingAgent(Agent):
    """Plays the first legal action and remembers which seats it was asked to play."""

    def __init__(self):
        self.seats = []

    def act(self, view, rng):
        self.seats.append(view.seat)
        return int(view.legal_actions[0])


def play_episode(env, seed: int):
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards, steps = [], 0
    while True:
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"]) and mask.any()
        assert env.state.current_player == env.seat  # the learner is always the one to move
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        rewards.append(reward)
        steps += 1
        if terminated or truncated:
            return rewards, steps


def test_reward_comes_only_at_the_end_and_is_the_learners_return():
    env = make_env("catan", ["random"], players=3, seat=2)
    rewards, steps = play_episode(env, seed=1)
    assert steps > 30 and all(r == 0.0 for r in rewards[:-1])
    assert rewards[-1] == env.state.returns()[2]
    assert not env.action_masks().any()


def test_other_seats_are_played_by_the_given_agents():
    recorder = RecordingAgent()
    env = make_env("connect4", [recorder], seat=1)
    play_episode(env, seed=0)
    assert recorder.seats and set(recorder.seats) == {0}


def test_seat_is_drawn_from_the_seed_when_not_fixed():
    env = make_env("tictactoe", ["random"])
    seats = {env.reset(seed=s)[1]["seat"] for s in range(20)}
    assert seats == {0, 1}
    assert env.reset(seed=4)[1]["seat"] == env.reset(seed=4)[1]["seat"]


def test_illegal_action_costs_the_penalty_and_changes_nothing_or_raises():
    env = make_env("tictactoe", ["random"], seat=0)
    env.reset(seed=0)
    env.step(4)
    before = list(env.state.history)
    taken = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(taken)
    assert reward == -1.0 and not terminated and info["illegal_action"] and env.state.history == before
    strict = make_env("tictactoe", ["random"], seat=0, illegal="raise")
    strict.reset(seed=0)
    strict.step(4)
    with pytest.raises(IllegalActionError):
        strict.step(4)


def test_bad_arguments_fail_clearly():
    with pytest.raises(ConfigError, match="seat"):
        make_env("connect4", seat=2)
    with pytest.raises(ConfigError, match="opponents"):
        make_env("connect4", ["random", "random"])
    with pytest.raises(ConfigError, match="illegal"):
        make_env("connect4", illegal="ignore")
    with pytest.raises(ConfigError, match="unknown agent"):
        make_env("connect4", ["nobody"])


def test_with_trading_the_learner_answers_offers_and_makes_its_own():
    """Trading on: the opponents' offers come to the learner to answer (accept 364 / decline 365), it may offer
    from the catalogue (244-363) itself, and every step it is asked for is its own."""
    env = make_env("catan", ["heuristic"], players=3, seat=0, trading=True)
    assert env.action_space.n == 371
    phases, offered = set(), False
    for seed in range(4):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            assert env.state.current_player == env.seat
            phase = env.state.public_view(env.seat)["phase"]
            mask = env.action_masks()
            phases.add(phase)
            if phase == "trade_answer":
                assert set(np.flatnonzero(mask)) <= {364, 365} and mask[365]
            offers = np.flatnonzero(mask[244:364]) + 244
            if len(offers) and not offered:
                action, offered = int(offers[0]), True
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            *_, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
    assert "trade_answer" in phases and offered
