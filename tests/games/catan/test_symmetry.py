"""The board's turns: images of dealt boards are dealt boards, and the conformance check holds them to the rules."""

import dataclasses

import numpy as np
import pytest

from boardzero.core.api import Symmetry
from boardzero.core.conformance import ConformanceError, check_game
from boardzero.core.registry import make
from boardzero.games.catan import engine as E
from boardzero.games.catan.board import red_numbers_apart
from boardzero.games.catan.game import Catan
from boardzero.games.catan.symmetry import TURNS, turn_board
from boardzero.games.catan.topology import HARBOUR_NODES


def test_the_turns_are_the_two_rotations_of_a_three_fold_turn():
    one, two = TURNS["turn120"], TURNS["turn240"]
    for kind in ("hex", "node", "edge"):
        assert (one[f"{kind}_to"][one[f"{kind}_to"]] == two[f"{kind}_to"]).all()
        assert (two[f"{kind}_to"][one[f"{kind}_to"]] == np.arange(len(one[f"{kind}_to"]))).all()
        assert not (one[f"{kind}_to"] == np.arange(len(one[f"{kind}_to"]))).all()
    assert one["hex_to"][9] == 9  # the centre hex stays


@pytest.mark.parametrize("name", sorted(TURNS))
def test_a_turned_board_is_a_board_the_game_deals(name):
    game = make("catan", players=3)
    for seed in range(20):
        s = game.new_state(seed=seed).s
        t = turn_board(s, name)
        res, num = t[E.HEX_RES : E.HEX_RES + 19], t[E.HEX_NUM : E.HEX_NUM + 19]
        assert sorted(res) == sorted(s[E.HEX_RES : E.HEX_RES + 19]) and sorted(num) == sorted(
            s[E.HEX_NUM : E.HEX_NUM + 19]
        )
        assert red_numbers_apart(num) and res[t[E.G_ROBBER]] == 5  # the robber starts on the desert
        ports = t[E.NODE_PORT : E.NODE_PORT + 54]
        assert set(np.flatnonzero(ports >= 0)) == set(HARBOUR_NODES.ravel().tolist())
        assert sorted(ports) == sorted(s[E.NODE_PORT : E.NODE_PORT + 54])
        assert not np.array_equal(res, s[E.HEX_RES : E.HEX_RES + 19]) or not np.array_equal(
            num, s[E.HEX_NUM : E.HEX_NUM + 19]
        )


def test_only_a_fresh_board_is_turned():
    state = make("catan", players=2).new_state(seed=1)
    state.apply(int(state.legal_actions()[0]))  # the first settlement
    with pytest.raises(ValueError, match="fresh game only"):
        turn_board(state.s, "turn120")


def test_a_turned_position_is_seen_and_played_as_its_image():
    game = make("catan", players=4)
    turn = game.symmetries()[0]
    original, image = game.new_state(seed=5), game.symmetric_state(turn, seed=5)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if original.current_player >= 0:
            seat = original.current_player
            assert (image.legal_mask() == original.legal_mask()[turn.actions]).all()
            seen, expected = image.observe(seat)["rich"], original.observe(seat)["rich"][turn.observation["rich"]]
            assert np.allclose(seen, expected, atol=1e-6)
            action = int(rng.choice(original.legal_actions()))
            mapped = turn.apply_action(action)
            assert original.describe(action).split(" ")[0] == image.describe(mapped).split(" ")[0]
            original.apply(action)
            image.apply(mapped)
        else:
            outcome = original.chance_outcome_at(rng.random())
            original.apply(outcome)
            image.apply(outcome)
    assert (
        (image.s[E.NODE_OWNER : E.NODE_OWNER + 54] >= 0).sum()
        == (original.s[E.NODE_OWNER : E.NODE_OWNER + 54] >= 0).sum()
        > 0
    )


class _UnturnedCatan(Catan):
    def symmetric_state(self, turn, *, seed):
        return self.new_state(seed=seed)  # forgets to turn the board


def test_conformance_catches_an_image_on_the_unturned_board():
    with pytest.raises(ConformanceError, match="symmetry 'turn120'"):
        check_game(_UnturnedCatan(make("catan", players=2).options), num_games=1, deep_every=1000)


class _StillActionsCatan(Catan):
    def symmetries(self):
        return [dataclasses.replace(s, actions=np.arange(self.num_actions)) for s in super().symmetries()]


def test_conformance_catches_actions_that_do_not_turn():
    with pytest.raises(ConformanceError, match="symmetry .turn120.: (legal mask|observation)"):
        check_game(_StillActionsCatan(make("catan", players=2).options), num_games=1, deep_every=1000)


def test_every_observation_and_action_is_a_permutation():
    for turn in make("catan", players=2).symmetries():
        assert isinstance(turn, Symmetry) and sorted(turn.actions) == list(range(E.NUM_ACTIONS))
        for key, shape in make("catan", players=2).observation_spec.items():
            assert sorted(turn.observation[key]) == list(range(int(np.prod(shape)))), key
