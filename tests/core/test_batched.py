"""Batched games: seeded streams, restarts, and afterstates that match the Game API."""

import numpy as np
import pytest

from boardzero.core.batched import StateBatch
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make


def _play(env, steps: int, policy_seed: int) -> tuple[list, np.ndarray]:
    masks, obs, seats = env.reset()
    rng = np.random.default_rng(policy_seed)
    finished = []
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        masks, obs, seats, rewards, done = env.step(actions)
        finished.extend(rewards[done].tolist())
    return finished, obs.copy()


@pytest.mark.parametrize("name, options", [("catan", {"players": 2}), ("connect4", {}), ("kuhn_poker", {})])
def test_a_seeded_batch_replays_exactly_and_another_seed_differs(name, options):
    game = make(name, **options)
    steps = 600 if name == "catan" else 60
    first = _play(game.batched(6, seed=3), steps, policy_seed=1)
    np.random.seed(12345)  # no process-wide generator is involved
    again = _play(game.batched(6, seed=3), steps, policy_seed=1)
    other = _play(game.batched(6, seed=4), steps, policy_seed=1)
    assert first[0] == again[0] and np.array_equal(first[1], again[1])
    assert first[0]
    if game.has_chance:  # the seed drives chance only
        assert first[0] != other[0] or not np.array_equal(first[1], other[1])


def test_each_catan_game_has_its_own_stream():
    """Games started with the same ordinal draw the same dice whatever the rest of the batch does."""
    game = make("catan", players=2, board="beginner")
    small, big = game.batched(1, seed=9), game.batched(5, seed=9)
    small.reset()
    big.reset()
    for _ in range(400):
        action = int(np.flatnonzero(small.masks[0])[0])
        small.step(np.array([action]))
        others = [int(np.flatnonzero(m)[-1]) for m in big.masks[1:]]
        big.step(np.array([action, *others]))
        assert np.array_equal(small.states[0], big.states[0])


def _afterstates_by_hand(env, rows):
    """What the plain Game API says the mover sees after each legal move."""
    expected = []
    for i in rows:
        state = env.game.new_state(seed=0)
        state.s[:] = env.states[i]
        seat = state.current_player
        for a in state.legal_actions():
            after = state.clone()
            after.apply(int(a))
            returns = after.returns() if after.is_terminal() else np.zeros(env.game.num_players)
            expected.append((i, int(a), after.observe(seat)["flat"], after.is_terminal(), returns))
    return expected


def test_catan_afterstates_match_clone_apply_observe():
    game = make("catan", players=3)
    env = game.batched(8, seed=0)
    masks, _, _ = env.reset()
    rng = np.random.default_rng(0)
    checked = 0
    for step in range(1500):
        if step % 100 == 0:
            rows = np.flatnonzero(masks.sum(1) > 1)[:4]
            after = env.afterstates(rows)
            expected = _afterstates_by_hand(env, rows)
            assert len(expected) == len(after.row)
            for k, (i, a, obs, over, returns) in enumerate(expected):
                assert (after.row[k], after.action[k], after.terminal[k]) == (i, a, over)
                assert np.array_equal(after.obs[k], obs)
                assert np.array_equal(after.returns[k], returns)
            checked += len(expected)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        masks, _, _, _, _ = env.step(actions)
    assert checked > 50


def test_winning_afterstates_carry_the_returns():
    game = make("connect4")
    env = StateBatch(game, 1, seed=0, observation_key="flat")
    env.reset()
    for action in (0, 1, 0, 1, 0, 1):  # first player threatens four in column 0
        env.step(np.array([action]))
    after = env.afterstates(np.array([0]))
    win = int(np.flatnonzero(after.action == 0)[0])
    assert after.terminal[win] and after.returns[win].tolist() == [1.0, -1.0]
    assert not after.terminal[np.arange(len(after.action)) != win].any()
    assert after.starts.tolist() == [0]


def test_bad_batch_settings_are_refused():
    with pytest.raises(ConfigError, match="batch_size"):
        make("connect4").batched(0)
    with pytest.raises(ConfigError, match="observation"):
        make("connect4").batched(2, observation_key="nope")
    with pytest.raises(ConfigError, match="flat"):
        make("catan").batched(2, observation_key="planes")


def test_catan_batch_rebuilds_a_games_state_until_its_first_chance_outcome():
    game = make("catan", players=2)
    env = game.batched(3, seed=5, observation_key="rich")
    masks, _, _ = env.reset()
    rng = np.random.default_rng(0)
    moves: list[list[int]] = [[], [], []]
    rebuilt = 0
    for _ in range(40):
        for i in range(3):
            state = env.state_of(i, moves[i])
            if state is None:  # past the setup: a roll was drawn, and the batch keeps no draws
                continue
            rebuilt += 1
            seat = state.current_player
            assert seat == env.seats[i] and np.array_equal(state.legal_mask(), masks[i])
            assert np.array_equal(state.observe(seat)["rich"], env.obs[i])
            assert state.history == moves[i]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        for i in range(3):
            moves[i].append(int(actions[i]))
        masks, _, _, _, _ = env.step(actions)
    assert rebuilt >= 3 * 8  # every game's setup (8 placements in 2 players)
    assert all(env.state_of(i, moves[i]) is None for i in range(3))  # 40 moves in, every game has rolled
    fresh = game.batched(1, seed=5)
    fresh.reset()
    first = int(np.flatnonzero(fresh.masks[0])[0])
    with pytest.raises(ValueError, match="do not lead to its position"):
        fresh.state_of(0, [first])  # the move was never applied


def test_a_state_batch_gives_a_copy_of_its_state():
    env = StateBatch(make("connect4"), 1, seed=0, observation_key="flat")
    env.reset()
    env.step(np.array([3]))
    state = env.state_of(0, [3])
    assert state.history == [3] and state is not env.states[0]
    state.apply(0)
    assert env.states[0].history == [3]
