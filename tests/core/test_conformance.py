import numpy as np
import pytest

from boardzero.core.api import grid_symmetry
from boardzero.core.conformance import ConformanceError, check_game
from boardzero.core.registry import make
from boardzero.games.connect4 import Connect4
from boardzero.games.kuhn_poker import KuhnPoker, KuhnState


# steps per game (chance deals included) that the rules allow: tic-tac-toe 5-9 moves, Connect 4 7-42,
# Kuhn poker one deal per seat then one bet each and at most one more round of answers
@pytest.mark.parametrize(
    "name,options,shortest,longest",
    [
        ("tictactoe", {}, 5, 9),
        ("connect4", {}, 7, 42),
        ("kuhn_poker", {"players": 2}, 4, 5),
        ("kuhn_poker", {"players": 3}, 6, 8),
    ],
)
def test_small_games_pass_the_conformance_check(name, options, shortest, longest):
    stats = check_game(make(name, **options), num_games=40)
    assert shortest <= stats["min_length"] <= stats["mean_length"] <= stats["max_length"] <= longest
    assert stats["min_length"] < stats["max_length"]  # random games vary


class _LeakyState(KuhnState):
    def observe(self, seat):
        obs = super().observe(seat)
        if len(self.cards) > (seat + 1) % self.game.num_players:
            obs["flat"][14 + seat] += self.cards[(seat + 1) % self.game.num_players]  # leaks the next seat's card
        return obs


class _LeakyPoker(KuhnPoker):
    name = "kuhn_poker"

    def new_state(self, *, seed=None):
        return _LeakyState(self, seed)


def test_conformance_catches_an_observation_that_leaks_hidden_cards():
    with pytest.raises(ConformanceError, match="changed when only hidden information changed"):
        check_game(_LeakyPoker(), num_games=20, deep_every=1)


class _SharedCloneState(KuhnState):
    def clone(self):
        return self  # not independent


class _SharedClonePoker(KuhnPoker):
    def new_state(self, *, seed=None):
        return _SharedCloneState(self, seed)


def test_conformance_catches_a_clone_that_is_not_independent():
    with pytest.raises(ConformanceError, match="clone"):
        check_game(_SharedClonePoker(), num_games=5, deep_every=1)


def test_record_replays_exactly_and_foreign_records_are_refused():
    game = make("connect4")
    state = game.new_state(seed=3)
    for action in (3, 3, 4, 2):
        state.apply(action)
    record = state.to_record()
    assert game.state_from_record(record).observe(0)["flat"].tolist() == state.observe(0)["flat"].tolist()
    with pytest.raises(Exception, match="record is for game 'tictactoe'"):
        game.state_from_record({**record, "game": "tictactoe"})
    with pytest.raises(Exception, match="list of integer action ids"):
        game.state_from_record({**record, "actions": ["3"]})


class _UpsideDownConnect4(Connect4):
    def symmetries(self):
        return [grid_symmetry("flip", self.observation_spec, (6, 7), np.flipud, action_grid=False)]


def test_conformance_catches_a_symmetry_that_is_not_one():
    with pytest.raises(ConformanceError, match="symmetry 'flip'"):
        check_game(_UpsideDownConnect4(), num_games=3)


def test_board_games_declare_their_symmetries():
    assert [s.name for s in make("connect4").symmetries()] == ["mirror"]
    ttt = make("tictactoe").symmetries()
    assert len(ttt) == 7 and len({tuple(s.actions) for s in ttt}) == 7
    assert make("kuhn_poker").symmetries() == []
    assert [s.name for s in make("catan").symmetries()] == ["turn120", "turn240"]


class _UnderstatedConnect4(Connect4):
    return_bounds = (-0.5, 0.5)  # a win pays 1: search would never recognise one as proven


def test_conformance_catches_returns_outside_the_declared_bounds():
    with pytest.raises(ConformanceError, match="outside return_bounds"):
        check_game(_UnderstatedConnect4(), num_games=3)
