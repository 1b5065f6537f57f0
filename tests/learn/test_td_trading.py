"""TD self-play with player-to-player trading: a run of configs/catan_td_trading.toml starts from the shipped
model without trading, trains, and its checkpoint plays a trading game as ``td``."""

import tomllib
from pathlib import Path

import numpy as np
import pytest

from boardzero.agents.registry import make_agent
from boardzero.agents.td_trading import ValueTrader
from boardzero.core.errors import CheckpointError
from boardzero.core.registry import make
from boardzero.games.catan.offsets import A_OFFER
from boardzero.learn import config_from_dict, train
from boardzero.learn.td import TDWorker
from boardzero.nn.checkpoint import read_metadata, read_tensors, resolve_checkpoint
from boardzero.play.runner import play_game

ROOT = Path(__file__).resolve().parents[2]
MODEL_2P = ROOT / "src/boardzero/models/catan/model-2p.json"


def _tiny_trading_config(**train_changes):
    data = tomllib.loads((ROOT / "configs/catan_td_trading.toml").read_text())
    data["game_options"]["turn_limit"] = 12  # short games: samples come when a game ends
    data["selfplay"].update(games_per_actor=2, publish_every=1, precision="float32")
    data["train"].update(
        steps=3, batch_size=32, min_replay=32, checkpoint_every=3, log_every=1, precision="float32", **train_changes
    )
    data["eval"]["every"] = 0
    return config_from_dict(data)


def test_a_trading_run_starts_from_the_model_without_trading_trains_and_plays(tmp_path):
    run = tmp_path / "trading"
    summary = train(_tiny_trading_config(), run, init=MODEL_2P)
    assert summary["step"] == 3
    checkpoint = resolve_checkpoint(str(run))
    meta = read_metadata(checkpoint)
    assert meta["game_options"]["trading"] is True and meta["network"]["num_actions"] == 371
    assert meta["initialised_from"]["checkpoint"].endswith("model-2p.json")
    start = read_tensors(MODEL_2P.with_name(read_metadata(MODEL_2P)["weights"]))
    trained = read_tensors(checkpoint.with_name(meta["weights"]))
    value_layers = [k for k in start if not k.startswith("policy")]
    assert all(trained[k].shape == start[k].shape for k in value_layers)
    assert any(not np.array_equal(trained[k], start[k]) for k in value_layers)  # it learned from there
    game = make("catan", players=2, trading=True, turn_limit=15)
    agent = make_agent(f"td:{run}", game)
    assert isinstance(agent, ValueTrader)
    final = play_game(game, [agent, make_agent("heuristic", game)], np.random.default_rng(0), seed=0)
    assert final.is_terminal()
    with pytest.raises(CheckpointError, match="trading=True"):
        make_agent(f"td:{run}", make("catan", players=2))  # a trading model is not read in a game without it


def test_self_play_marks_the_trade_moves_as_taking_no_game_time():
    assert make("catan", players=2).timeless_actions() is None
    mask = make("catan", players=2, trading=True).timeless_actions()
    assert mask is not None and mask[A_OFFER:].all() and not mask[:A_OFFER].any()
    config = _tiny_trading_config()
    worker = TDWorker(
        0,
        {
            "config": config.to_dict(),
            "network": read_metadata(MODEL_2P)["network"] | {"num_actions": 371},
            "generation": 0,
        },
    )
    chosen: dict[int, tuple] = {}  # a game's record by id (kept, so no id is reused) -> it, the moves chosen in it
    choose = worker._choose

    def recording(rows):
        moves = choose(rows)
        for row, move in zip(rows.tolist(), moves.tolist()):
            chosen.setdefault(id(worker.games[row]), (worker.games[row], []))[1].append(move)
        return moves

    worker._choose = recording
    for _ in range(150):
        worker.step()
    game = worker.games[0]
    moves = chosen[id(game)][1]
    assert any(move >= A_OFFER for move in moves) and any(move < A_OFFER for move in moves)
    assert game.timed == [move < A_OFFER for move in moves]


def test_learn_timeless_false_keeps_only_the_positions_of_moves_that_take_game_time():
    config = _tiny_trading_config().changed({"td.learn_timeless": False})
    worker = TDWorker(
        0,
        {
            "config": config.to_dict(),
            "network": read_metadata(MODEL_2P)["network"] | {"num_actions": 371},
            "generation": 0,
        },
    )
    checked = 0
    for _ in range(2000):
        before = list(worker.games)
        samples = worker.step()
        ended = [game for i, game in enumerate(before) if worker.games[i] is not game]  # in the samples' order
        if len(ended) != len(samples):
            continue  # a game without a timed position gave no samples: which is which is unclear
        for game, sample in zip(ended, samples):
            assert len(sample["obs"]) == sum(game.timed) and len(sample["value"]) == sum(game.timed)
            checked += not all(game.timed)
        if checked:
            break
    assert checked, "no game with an offer or an answer ended"
