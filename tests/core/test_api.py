"""``State.random_action``: a uniform legal move from one ``rng.random()``, and clear errors where no seat
decides."""

import numpy as np
import pytest

from boardzero.core.api import CHANCE
from boardzero.core.conformance import ConformanceError, check_game
from boardzero.core.errors import IllegalActionError
from boardzero.core.registry import make
from boardzero.games.kuhn_poker import KuhnPoker, KuhnState


def _open_connect4():
    state = make("connect4").new_state(seed=0)
    for action in (3, 3, 3, 3, 3, 3):  # the centre column is full: six legal moves
        state.apply(action)
    return state


def test_random_action_picks_the_legal_move_one_uniform_draw_points_at():
    state = _open_connect4()
    legal = state.legal_actions()
    assert legal.tolist() == [0, 1, 2, 4, 5, 6]
    ours, mirror = np.random.default_rng(11), np.random.default_rng(11)
    for _ in range(200):
        assert state.random_action(ours) == legal[int(mirror.random() * len(legal))]


def test_random_action_is_uniform_over_the_legal_moves():
    state = _open_connect4()
    rng = np.random.default_rng(3)
    counts = np.bincount([state.random_action(rng) for _ in range(6000)], minlength=7)
    assert counts[3] == 0  # the full column is never drawn
    assert np.all(np.abs(counts[[0, 1, 2, 4, 5, 6]] - 1000) < 120)  # about 3.5 standard deviations


def test_random_action_leaves_the_state_and_other_draws_alone():
    state = _open_connect4()
    before = state.to_record()
    rng = np.random.default_rng(5)
    state.random_action(rng)
    assert state.to_record() == before
    follow = np.random.default_rng(5)
    follow.random()  # exactly one draw was taken from the stream
    assert rng.random() == follow.random()


def test_random_action_where_no_seat_decides_says_what_to_do_instead():
    poker = make("kuhn_poker", players=2).new_state(seed=0)
    assert poker.current_player == CHANCE
    with pytest.raises(ValueError, match="chance node: draw its outcome with sample_chance"):
        poker.random_action(np.random.default_rng(0))
    over = make("tictactoe").new_state(seed=0)
    for action in (0, 3, 1, 4, 2):
        over.apply(action)
    with pytest.raises(ValueError, match="the end of the game"):
        over.random_action(np.random.default_rng(0))


class _SkewedState(KuhnState):
    def random_action(self, rng):
        rng.random()
        return int(self.legal_actions()[-1])  # legal, but not the move the draw points at


class _SkewedPoker(KuhnPoker):
    def new_state(self, *, seed=None):
        return _SkewedState(self, seed)


class _IllegalDrawState(KuhnState):
    def random_action(self, rng):
        return self.game.num_actions  # no such action


class _IllegalDrawPoker(KuhnPoker):
    def new_state(self, *, seed=None):
        return _IllegalDrawState(self, seed)


def test_conformance_holds_a_games_own_random_action_to_the_generic_draw():
    with pytest.raises(ConformanceError, match="generic draw from the same stream"):
        check_game(_SkewedPoker(), num_games=5)
    with pytest.raises(ConformanceError, match="not legal here"):
        check_game(_IllegalDrawPoker(), num_games=5)


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "kuhn_poker", "catan"])
@pytest.mark.parametrize("action", [True, False, np.True_, 1.0, "1"])
def test_apply_refuses_an_action_that_is_not_an_integer_and_leaves_the_state(name, action):
    state = make(name).new_state(seed=0)
    while state.current_player == CHANCE:
        state.apply(state.chance_outcomes()[0][0])
    before = state.to_record()
    with pytest.raises(IllegalActionError, match=r"an action is an integer id \(int or numpy integer\), not"):
        state.apply(action)
    assert state.to_record() == before
    state.apply(np.int64(state.legal_actions()[0]))  # numpy integers stay welcome


class _BoolTakingState(KuhnState):
    def apply(self, action):
        self._apply(int(action))  # skips the id check: True plays action 1
        self.history.append(int(action))


class _BoolTakingPoker(KuhnPoker):
    def new_state(self, *, seed=None):
        return _BoolTakingState(self, seed)


def test_conformance_catches_a_game_that_takes_a_bool_for_an_action():
    with pytest.raises(ConformanceError, match=r"apply\(True\) was accepted"):
        check_game(_BoolTakingPoker(), num_games=2, deep_every=1)
