import numpy as np

from boardzero.core.registry import make
from boardzero.learn.augment import augment
from tests.conftest import play_actions


def test_samples_become_their_mirror_images_with_matching_policies():
    game = make("connect4")
    moves = [0, 1, 0, 2, 6]
    original = play_actions("connect4", moves)
    mirrored = play_actions("connect4", [6 - m for m in moves])
    seat = original.current_player
    policy = np.zeros(7, np.float32)
    policy[1] = 1.0  # the move to column 1 is column 5 in the mirror image
    rows = 200
    batch = {
        "obs": np.repeat(original.observe(seat)["planes"][None], rows, 0),
        "mask": np.repeat(original.legal_mask()[None], rows, 0),
        "policy": np.repeat(policy[None], rows, 0),
        "value": np.tile(np.array([[0.5, -0.5]], np.float32), (rows, 1)),
    }
    out = augment(batch, game.symmetries(), "planes", np.random.default_rng(0))
    is_mirror = np.array([np.array_equal(o, mirrored.observe(seat)["planes"]) for o in out["obs"]])
    is_same = np.array([np.array_equal(o, batch["obs"][0]) for o in out["obs"]])
    assert (is_mirror | is_same).all() and 50 < is_mirror.sum() < 150
    assert (out["policy"][is_mirror].argmax(1) == 5).all() and (out["policy"][is_same].argmax(1) == 1).all()
    assert (out["mask"][is_mirror] == mirrored.legal_mask()).all()
    assert (out["value"] == batch["value"]).all()
    assert (batch["policy"].argmax(1) == 1).all()  # the input batch is not changed


def test_a_game_without_symmetries_keeps_its_samples():
    batch = {"obs": np.ones((4, 3), np.float32)}
    assert augment(batch, [], "flat", np.random.default_rng(0)) is batch


def test_value_samples_of_a_dealt_board_become_positions_on_its_turned_boards():
    game = make("catan", players=2)
    turns = game.symmetries()
    state = game.new_state(seed=3)
    for _ in range(6):  # into the setup: settlements and roads on the board
        state.apply(int(state.legal_actions()[0]))
    seat = state.current_player
    rows = 300
    batch = {
        "obs": np.repeat(state.observe(seat)["rich"][None], rows, 0),
        "value": np.tile(np.array([[0.25, -0.25]], np.float32), (rows, 1)),
    }
    out = augment(batch, turns, "rich", np.random.default_rng(1))  # a TD batch: no mask, no policy
    assert set(out) == {"obs", "value"} and (out["value"] == batch["value"]).all()
    images = [game.symmetric_state(turn, seed=3) for turn in turns]
    for turn, image in zip(turns, images):
        for action in state.history:
            image.apply(turn.apply_action(action))
    seen = [
        np.flatnonzero([np.allclose(o, image.observe(seat)["rich"], atol=1e-6) for o in out["obs"]])
        for image in [state, *images]
    ]
    assert sum(len(rows_) for rows_ in seen) == rows and all(70 < len(rows_) < 130 for rows_ in seen)
